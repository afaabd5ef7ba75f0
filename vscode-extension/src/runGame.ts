/**
 * "Run game": the server knows which files make the game and how to run them; the editor
 * only starts that command line in a terminal. The argv goes to the terminal as a program and
 * its arguments, never through a shell, so paths with spaces, quotes or `$(...)` stay intact.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';

export const SERVER_RUN_COMMAND = 'gdef.runGame';

export class GameRunner implements vscode.Disposable {
  /** One terminal per game file: running again replaces the previous game. */
  private readonly terminals = new Map<string, vscode.Terminal>();
  private readonly subscription: vscode.Disposable;

  /**
   * @param client a running language client, or undefined when the server cannot start
   * @param env what the server's environment adds (the bundled gdef's PYTHONPATH): the game needs it too
   */
  constructor(
    private readonly client: () => Promise<LanguageClient | undefined>,
    private readonly env: () => Record<string, string> | undefined,
  ) {
    this.subscription = vscode.window.onDidCloseTerminal((closed) => {
      for (const [key, terminal] of this.terminals) {
        if (terminal === closed) {
          this.terminals.delete(key);
        }
      }
    });
  }

  /** Runs the game of `target` (default: the active editor's file) in a terminal. */
  async run(target?: vscode.Uri): Promise<vscode.Terminal | undefined> {
    const uri = target ?? activeGdefUri();
    if (!uri) {
      void vscode.window.showWarningMessage('GDef: open a .gdef file to run its game.');
      return undefined;
    }
    await saveGdefDocuments();
    const client = await this.client();
    if (!client) {
      return undefined; // the server already said why it cannot start
    }
    let argv: unknown;
    try {
      argv = await client.sendRequest(ExecuteCommandRequest.type, {
        command: SERVER_RUN_COMMAND,
        arguments: [uri.toString()],
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`GDef: cannot run the game of ${path.basename(uri.fsPath)}: ${detail}`);
      return undefined;
    }
    if (!isArgv(argv)) {
      void vscode.window.showErrorMessage(
        `GDef: the language server did not return a command line for ${path.basename(uri.fsPath)} ` +
        `(got ${JSON.stringify(argv)}). Update gdef, or run gdef-run in a terminal.`);
      return undefined;
    }
    return this.startTerminal(uri, argv);
  }

  private startTerminal(uri: vscode.Uri, argv: string[]): vscode.Terminal {
    const key = uri.toString();
    this.terminals.get(key)?.dispose();
    const terminal = vscode.window.createTerminal({
      name: `GDef: ${path.basename(uri.fsPath, '.gdef')}`,
      shellPath: argv[0],
      shellArgs: argv.slice(1),
      cwd: uri.scheme === 'file' ? path.dirname(uri.fsPath) : undefined,
      env: this.env(),
      iconPath: new vscode.ThemeIcon('play'),
    });
    this.terminals.set(key, terminal);
    terminal.show();
    return terminal;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

function activeGdefUri(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === 'gdef' ? document.uri : undefined;
}

/** The game runs from the files on disk: save open .gdef buffers first. */
async function saveGdefDocuments(): Promise<void> {
  const dirty = vscode.workspace.textDocuments.filter(
    (doc) => doc.languageId === 'gdef' && doc.isDirty && !doc.isUntitled);
  await Promise.all(dirty.map((doc) => doc.save()));
}

function isArgv(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
}
