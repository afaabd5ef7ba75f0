/**
 * Debugging a game (docs/debugging.md): the debugger type `gdef` runs the debug adapter of the
 * same gdef as the language server (`python -m gdef_dap`, the bundled copy when the server runs
 * that one), so the .vsix carries everything. The "Debug game" code lens asks the server for the
 * game's launch configuration and starts a session with it.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { GdefServer } from './server';

export const DEBUG_TYPE = 'gdef';
/** The adapter's event after each stop: the position being debugged (gdef_dap/server.py), which the board panel follows. */
export const POSITION_EVENT = 'gdef/position';
/** The server's command behind the "Debug game" code lens: it returns a launch configuration. */
export const SERVER_DEBUG_COMMAND = 'gdef.debugGame';

export class GdefDebugAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly server: GdefServer) {}

  async createDebugAdapterDescriptor(): Promise<vscode.DebugAdapterDescriptor> {
    await this.server.ready();
    const command = this.server.command;
    if (!command) {
      throw new Error('The gdef language server cannot start, so neither can its debugger: see the "GDef" output.');
    }
    const options = { cwd: command.cwd, env: command.env };
    if (command.python) {
      return new vscode.DebugAdapterExecutable(command.python, ['-m', 'gdef_dap'], options);
    }
    // gdef.server.command names a server program (a gdef-lsp): its gdef-dap is installed beside it
    const name = process.platform === 'win32' ? 'gdef-dap.exe' : 'gdef-dap';
    const adapter = path.isAbsolute(command.command) ? path.join(path.dirname(command.command), name) : name;
    return new vscode.DebugAdapterExecutable(adapter, [], options);
  }
}

/** F5 without a launch.json debugs the game of the active .gdef file. */
export class GdefDebugConfigurations implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    if (!config.type && !config.request && !config.name) {
      const document = vscode.window.activeTextEditor?.document;
      if (document?.languageId === 'gdef' && document.uri.scheme === 'file') {
        return { type: DEBUG_TYPE, request: 'launch', name: 'Debug game', program: document.uri.fsPath };
      }
    }
    if (!config.program) {
      void vscode.window.showErrorMessage('GDef: a gdef launch configuration needs "program": the game\'s .gdef file.');
      return undefined;
    }
    return config;
  }
}

/** Starts the session the server's "Debug game" lens describes; false when it returned none. */
export async function startDebugging(configuration: unknown, uri: vscode.Uri | undefined): Promise<boolean> {
  if (!isConfiguration(configuration)) {
    void vscode.window.showErrorMessage(`GDef: the language server did not return a launch configuration ` +
      `(got ${JSON.stringify(configuration)}). Update gdef.`);
    return false;
  }
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  return vscode.debug.startDebugging(folder, configuration);
}

function isConfiguration(value: unknown): value is vscode.DebugConfiguration {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === DEBUG_TYPE &&
    typeof (value as { name?: unknown }).name === 'string' && typeof (value as { request?: unknown }).request === 'string';
}
