/**
 * The `gdef` task type: gdef-check and gdef-run as VS Code tasks, run with the same gdef
 * installation as the language server, gdef-check's problems shown through `$gdef`.
 */
import * as vscode from 'vscode';
import { GdefServer } from './server';
import { ServerCommand, resolveServerCommand, toolCommand } from './serverCommand';

export const TASK_TYPE = 'gdef';

interface GdefTaskDefinition extends vscode.TaskDefinition {
  action: 'check' | 'run';
  files?: string[];
  args?: string[];
}

export class GdefTaskProvider implements vscode.TaskProvider {
  constructor(private readonly server: GdefServer) {}

  async provideTasks(): Promise<vscode.Task[]> {
    const server = await this.serverCommand();
    return [
      makeTask({ type: TASK_TYPE, action: 'check' }, server),
      makeTask({ type: TASK_TYPE, action: 'run' }, server),
    ];
  }

  async resolveTask(task: vscode.Task): Promise<vscode.Task | undefined> {
    const definition = task.definition as GdefTaskDefinition;
    if (definition.action !== 'check' && definition.action !== 'run') {
      return undefined;
    }
    return makeTask(definition, await this.serverCommand(), task.scope);
  }

  /** The running server's command, else the one it would be started with. */
  private async serverCommand(): Promise<ServerCommand | undefined> {
    if (this.server.command) {
      return this.server.command;
    }
    const resolution = await resolveServerCommand(vscode.workspace.workspaceFolders?.[0]?.uri, this.server.bundle);
    return 'command' in resolution ? resolution.command : undefined;
  }
}

function makeTask(
  definition: GdefTaskDefinition,
  server: ServerCommand | undefined,
  scope: vscode.TaskScope | vscode.WorkspaceFolder = vscode.TaskScope.Workspace,
): vscode.Task {
  const [program, ...programArgs] = toolCommand(definition.action, server);
  const files = definition.files && definition.files.length > 0 ? definition.files : ['${file}'];
  const execution = new vscode.ProcessExecution(program, [...programArgs, ...(definition.args ?? []), ...files], {
    cwd: '${fileDirname}',
    env: server?.env, // the bundled gdef's PYTHONPATH, when the server runs the bundled copy
  });
  const isCheck = definition.action === 'check';
  const task = new vscode.Task(
    definition,
    scope,
    isCheck ? 'check current file' : 'run current file',
    TASK_TYPE,
    execution,
    isCheck ? ['$gdef'] : [],
  );
  if (isCheck) {
    task.group = vscode.TaskGroup.Build;
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true };
  } else {
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, focus: true, panel: vscode.TaskPanelKind.Dedicated, clear: true };
  }
  return task;
}
