/**
 * The life of the language client: start on demand, restart on request or when the command
 * changes, and turn every failure to start into an actionable message instead of a crash dialog.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  CloseHandlerResult,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  Middleware,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { Bundle, describeSource } from './pythonChoice';
import { Remedy, ServerCommand, StartProblem, resolveServerCommand } from './serverCommand';

export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'gdef' },
  { scheme: 'untitled', language: 'gdef' },
  // move scripts: rule tests (*.test.moves) and gdef-run --moves files
  { scheme: 'file', language: 'gdef-moves' },
];

const REMEDY_LABELS: Record<Remedy, string> = {
  selectInterpreter: 'Select Interpreter',
  openSettings: 'Open Settings',
  showOutput: 'Show Output',
};

export class GdefServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private used: ServerCommand | undefined;

  constructor(
    private readonly output: vscode.LogOutputChannel,
    private readonly middleware: Middleware,
    /** The server vendored in the extension, if this build has one. */
    readonly bundle: Bundle | undefined,
  ) {}

  /** The command the running server was started with (undefined when not running). */
  get command(): ServerCommand | undefined {
    return this.client ? this.used : undefined;
  }

  /** A running client, starting the server if needed; undefined if it cannot start. */
  async ready(): Promise<LanguageClient | undefined> {
    if (this.client?.state === State.Running) {
      return this.client;
    }
    return this.start();
  }

  start(): Promise<LanguageClient | undefined> {
    if (!this.starting) {
      this.starting = this.doStart().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async restart(): Promise<LanguageClient | undefined> {
    await this.starting;
    await this.stop();
    this.output.info('Restarting the gdef language server');
    return this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop();
      } catch (error) {
        this.output.warn(`Stopping the gdef language server: ${String(error)}`);
      }
      await client.dispose();
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
  }

  private async doStart(): Promise<LanguageClient | undefined> {
    if (this.client) {
      return this.client;
    }
    const resource = vscode.window.activeTextEditor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    const resolution = await resolveServerCommand(resource, this.bundle);
    if ('problem' in resolution) {
      this.output.error(resolution.problem.message);
      if (resolution.problem.detail) {
        this.output.info(resolution.problem.detail);
      }
      void this.report(resolution.problem);
      return undefined;
    }
    const server = resolution.command;
    if (server.note) {
      this.output.warn(server.note);
    }
    const which = server.gdef === 'bundled' ? `the bundled gdef ${this.bundle?.gdef ?? ''}` : server.gdef ? `gdef ${server.gdef}` : 'gdef';
    this.output.info(`Starting ${which} language server (Python from ${describeSource(server.source)}): ${[server.command, ...server.args].join(' ')}` +
      (server.env ? ` with PYTHONPATH=${server.env.PYTHONPATH}` : ''));
    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      transport: TransportKind.stdio,
      options: { cwd: server.cwd, env: server.env },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      traceOutputChannel: this.output,
      middleware: this.middleware,
      errorHandler: this.errorHandler(),
    };
    const client = new LanguageClient('gdef', 'GDef Language Server', serverOptions, clientOptions);
    try {
      await client.start();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.output.error(`The gdef language server did not start: ${detail}`);
      void this.report({
        message: `The gdef language server did not start (${[server.command, ...server.args].join(' ')}, ` +
          `from ${describeSource(server.source)}): ${detail}. See the output for details.`,
        remedies: server.source === 'setting' ? ['showOutput', 'openSettings'] : ['showOutput', 'selectInterpreter'],
      });
      await client.dispose().catch(() => undefined);
      return undefined;
    }
    this.client = client;
    this.used = server;
    return client;
  }

  /**
   * A server that stops while in use is restarted, up to 4 times in 3 minutes; then, and when
   * it stops before it ever answered, we say so once (not once per restart) and leave it stopped.
   */
  private errorHandler(): ErrorHandler {
    const restarts: number[] = [];
    return {
      error: (): { action: ErrorAction; handled: boolean } => ({ action: ErrorAction.Continue, handled: true }),
      closed: (): CloseHandlerResult => {
        if (!this.client) {
          return { action: CloseAction.DoNotRestart, handled: true }; // start() reports it
        }
        const now = Date.now();
        restarts.push(now);
        while (restarts.length > 0 && restarts[0] < now - 3 * 60_000) {
          restarts.shift();
        }
        if (restarts.length <= 4) {
          this.output.warn('The gdef language server stopped; restarting it');
          return { action: CloseAction.Restart, handled: true };
        }
        void this.report({
          message: 'The gdef language server stopped 5 times in 3 minutes and was not restarted. ' +
            'The output says why; after fixing it, run "GDef: Restart server".',
          remedies: ['showOutput'],
        });
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }

  private async report(problem: StartProblem): Promise<void> {
    const labels = problem.remedies.map((remedy) => REMEDY_LABELS[remedy]);
    const chosen = await vscode.window.showErrorMessage(problem.message, ...labels);
    const remedy = problem.remedies.find((r) => REMEDY_LABELS[r] === chosen);
    if (remedy === 'selectInterpreter') {
      await vscode.commands.executeCommand('python.setInterpreter');
    } else if (remedy === 'openSettings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'gdef.server.command');
    } else if (remedy === 'showOutput') {
      this.output.show();
    }
  }
}
