/**
 * Entry point: wires the language client, the commands, the board panel and the task type together.
 * All language knowledge is in the gdef language server; this file only connects VS Code to it.
 */
import * as vscode from 'vscode';
import { Middleware } from 'vscode-languageclient/node';
import { BoardPanels } from './boardPanel';
import { DEBUG_TYPE, GdefDebugAdapterFactory, GdefDebugConfigurations, SERVER_DEBUG_COMMAND, startDebugging } from './debugAdapter';
import { GameRunner, SERVER_RUN_COMMAND } from './runGame';
import { loadBundle } from './pythonChoice';
import { GdefServer } from './server';
import { onPythonChange } from './serverCommand';
import { GdefTaskProvider, TASK_TYPE } from './tasks';

let active: GdefServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('GDef', { log: true });
  const runner: GameRunner = new GameRunner(() => server.ready(), () => server.command?.env);
  const server: GdefServer = new GdefServer(output, runGameMiddleware(runner), loadBundle(context.extensionPath));
  active = server;
  const boards = new BoardPanels(server, context.extensionUri);
  const restart = () => void server.restart();

  context.subscriptions.push(
    output,
    server,
    runner,
    boards,
    vscode.commands.registerCommand('gdef.showBoard', (uri?: unknown) => boards.show(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand('gdef.run', (uri?: unknown) => runner.run(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand('gdef.restartServer', restart),
    vscode.commands.registerCommand('gdef.showOutput', () => output.show()),
    vscode.tasks.registerTaskProvider(TASK_TYPE, new GdefTaskProvider(server)),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new GdefDebugAdapterFactory(server)),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new GdefDebugConfigurations()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('gdef.server.command')) {
        restart();
      }
    }),
  );
  const pythonWatch = await onPythonChange(() => {
    if (!vscode.workspace.getConfiguration('gdef').get<string[]>('server.command')?.length) {
      restart();
    }
  });
  if (pythonWatch) {
    context.subscriptions.push(pythonWatch);
  }
  void server.start();
}

/**
 * The server's "Run game" code lens names the server command gdef.runGame; clicking it must
 * open a terminal, not just hand the command line back to nobody. "Debug game" (gdef.debugGame)
 * returns a launch configuration, which starts a debug session.
 */
function runGameMiddleware(runner: GameRunner): Middleware {
  return {
    executeCommand: async (command: string, args: unknown[], next): Promise<unknown> => {
      if (command === SERVER_RUN_COMMAND) {
        const target = typeof args[0] === 'string' ? vscode.Uri.parse(args[0]) : undefined;
        await runner.run(target);
        return undefined;
      }
      if (command === SERVER_DEBUG_COMMAND) {
        const target = typeof args[0] === 'string' ? vscode.Uri.parse(args[0]) : undefined;
        await startDebugging(await next(command, args), target);
        return undefined;
      }
      return (await next(command, args)) as unknown;
    },
  };
}

export async function deactivate(): Promise<void> {
  await active?.stop();
  active = undefined;
}
