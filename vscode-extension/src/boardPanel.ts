/**
 * "Show Board": the board page of `gdef-run --web` in a webview beside the rules, redrawn as
 * they are edited.
 *
 * The page is served by a `gdef-run --web` child process started with the Python and gdef the
 * language server runs with, on a copy of the game's files as the editor has them (unsaved
 * edits included). Each edit starts a new child on a new copy; the old one keeps serving until
 * the new one listens, so when the edited rules have errors the board stays on the last
 * version that ran, and the panel says so. The webview itself has no network: its requests
 * come to this module as messages and go on to the child on 127.0.0.1. Why a child and not the
 * language server: docs/editors.md.
 *
 * While a `gdef` debug session of the game is stopped, the board shows the position being
 * debugged (the adapter's gdef/position event), and the game again once the session ends; a
 * refused move's "Debug this move" starts such a session (docs/debugging.md).
 */
import { ChildProcess, spawn } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import {
  allowedRequest, debugConfiguration, debuggedFiles, debuggedPosition, errorNotice, errorSummary, messageHtml, rewritePaths,
  servingAddress, snapshotLayout, usedFiles, webviewHtml,
} from './boardPage';
import { DEBUG_TYPE, POSITION_EVENT } from './debugAdapter';
import { SERVER_RUN_COMMAND } from './runGame';
import { GdefServer } from './server';
import { toolCommand } from './serverCommand';

const EDIT_PAUSE_MS = 300; // after the last keystroke, before the edited rules are tried
const START_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 120_000; // an mcts move on a big board takes a while
const MAX_MOVE_LENGTH = 10_000;

interface Answer {
  status: number;
  data: unknown;
}

/** One `gdef-run --web` on one snapshot of the game's texts. */
class Child implements vscode.Disposable {
  private process: ChildProcess | undefined;
  private port = 0;
  private token = ''; // the run's secret, printed by the child with its address: its API needs it
  private stopped = false;

  /** `folder`: ours alone (removed on dispose); the game's copies are under `snapshot`, copied from `root`. */
  constructor(readonly folder: string, readonly snapshot: string, readonly root: string) {}

  /** Starts it; resolves once it listens, rejects with what it printed when it stops first. */
  start(argv: string[], env: NodeJS.ProcessEnv, onExit: (code: number | null) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.stopped) {
        reject(new Error('replaced by a newer edit'));
        return;
      }
      const child = spawn(argv[0], argv.slice(1), { cwd: this.snapshot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      this.process = child;
      let out = '';
      let err = '';
      let listening = false;
      const timer = setTimeout(() => {
        if (!listening) {
          child.kill('SIGKILL');
          reject(new Error(`gdef-run did not start within ${START_TIMEOUT_MS / 1000} s`));
        }
      }, START_TIMEOUT_MS);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (listening) {
          return; // the moves it prints as they are played: the page shows them
        }
        out += chunk;
        const address = out.split('\n').map(servingAddress).find((a) => a !== undefined);
        if (address !== undefined) {
          listening = true;
          clearTimeout(timer);
          this.port = address.port;
          this.token = address.token;
          // the rules are loaded: the copies are not read again, and a window that is closed
          // without deactivating the extension leaves no folder behind
          fs.rm(this.folder, { recursive: true, force: true }, () => undefined);
          resolve();
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        err = (err + chunk).slice(-100_000);
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${argv[0]}: ${error.message}`));
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (!listening) {
          reject(new Error(errorSummary(err || out, this.snapshot, this.root)));
        } else if (!this.stopped) {
          onExit(code);
        }
      });
    });
  }

  /** One request to the API, answered as JSON with the snapshot's paths made the user's. */
  request(apiPath: string, body: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    return new Promise((resolve) => {
      const request = http.request({
        host: '127.0.0.1', port: this.port, path: apiPath, method: payload ? 'POST' : 'GET', timeout: REQUEST_TIMEOUT_MS,
        headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length, 'X-Gdef-Token': this.token }
          : { 'X-Gdef-Token': this.token },
      }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = rewritePaths(Buffer.concat(chunks).toString('utf8'), this.snapshot, this.root);
          try {
            resolve({ status: response.statusCode ?? 0, data: JSON.parse(text) as unknown });
          } catch {
            resolve({ status: 502, data: { error: `${apiPath}: gdef-run answered ${response.statusCode ?? '?'} without JSON` } });
          }
        });
      });
      request.on('timeout', () => request.destroy(new Error('no answer in time')));
      request.on('error', (error) => resolve({ status: 0, data: { error: `gdef-run does not answer (${error.message})` } }));
      request.end(payload);
    });
  }

  /** A static file of the page, as text. */
  text(file: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: this.port, path: file }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => (response.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8'))
          : reject(new Error(`gdef-run answered ${response.statusCode ?? '?'} for ${file}`))));
      }).on('error', reject);
    });
  }

  dispose(): void {
    this.stopped = true;
    this.process?.kill('SIGKILL'); // nothing to save: "Save record" is how the panel keeps a game
    fs.rm(this.folder, { recursive: true, force: true }, () => undefined);
  }
}

/** The panels, one per game file, and the edits that redraw them. */
export class BoardPanels implements vscode.Disposable {
  private readonly panels = new Map<string, BoardPanel>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly server: GdefServer, private readonly extensionUri: vscode.Uri) {
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0 && event.document.uri.scheme === 'file') {
          for (const panel of this.panels.values()) {
            panel.edited(event.document.uri.fsPath);
          }
        }
      }),
      vscode.debug.onDidReceiveDebugSessionCustomEvent((event) => {
        const position = event.session.type === DEBUG_TYPE && event.event === POSITION_EVENT ? debuggedPosition(event.body) : undefined;
        if (position) {
          const files = debuggedFiles(event.session.configuration);
          for (const panel of this.panels.values()) {
            if (files.some((file) => panel.shows(file))) {
              panel.showDebugged(event.session.id, position);
            }
          }
        }
      }),
      vscode.debug.onDidTerminateDebugSession((session) => {
        for (const panel of this.panels.values()) {
          panel.debugEnded(session.id);
        }
      }),
    );
  }

  /** Opens (or brings forward) the board of `target`, default the active .gdef file. */
  async show(target?: vscode.Uri): Promise<void> {
    const uri = target ?? activeGdefUri();
    if (!uri || uri.scheme !== 'file') {
      void vscode.window.showWarningMessage('GDef: open a .gdef file (saved once, on disk) to show its board.');
      return;
    }
    const key = uri.toString();
    const open = this.panels.get(key);
    if (open) {
      open.reveal();
      return;
    }
    const panel = new BoardPanel(uri, this.server, this.extensionUri, () => this.panels.delete(key));
    this.panels.set(key, panel);
    await panel.refresh();
  }

  dispose(): void {
    this.subscription.dispose();
    for (const panel of [...this.panels.values()]) {
      panel.dispose();
    }
  }
}

class BoardPanel {
  private readonly panel: vscode.WebviewPanel;
  private readonly disposables: vscode.Disposable[] = [];
  private child: Child | undefined; // serves the page
  private pending: Child | undefined; // starting on the latest edit
  private files = new Set<string>(); // every file of the game: an edit of one redraws the board
  private entry: string[] | undefined; // the game's main files, from the language server
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private pageShown = false;
  private readonly picked = new Set<string>(); // move files the user opened: only these are read again
  private debugSession: string | undefined; // the gdef debug session whose position the board shows
  private disposed = false;

  constructor(private readonly uri: vscode.Uri, private readonly server: GdefServer, extensionUri: vscode.Uri,
    private readonly onDispose: () => void) {
    const name = path.basename(uri.fsPath);
    this.panel = vscode.window.createWebviewPanel('gdef.board', `Board: ${name}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [], enableCommandUris: false });
    this.panel.iconPath = vscode.Uri.joinPath(extensionUri, 'images', 'file-icon.svg');
    this.panel.webview.html = messageHtml(name, 'Starting the game…', nonce());
    this.disposables.push(
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.webview.onDidReceiveMessage((message: unknown) => void this.answer(message)),
    );
    this.files.add(uri.fsPath);
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  /** Whether `file` is one of the game's files. */
  shows(file: string): boolean {
    return file === this.uri.fsPath || this.files.has(file);
  }

  /** A gdef debug session of this game stopped: the board shows the position it is stopped at. */
  showDebugged(session: string, position: unknown): void {
    this.debugSession = session;
    void this.panel.webview.postMessage({ type: 'debugPosition', position });
  }

  /** A debug session ended: the board shows the game again if it showed that session's position. */
  debugEnded(session: string): void {
    if (session === this.debugSession) {
      this.debugSession = undefined;
      void this.panel.webview.postMessage({ type: 'debugPosition', position: null });
    }
  }

  edited(file: string): void {
    if (!this.files.has(file)) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), EDIT_PAUSE_MS);
  }

  /** Tries the rules as the editor has them now; the board switches to them once they run. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    this.pending?.dispose();
    this.pending = undefined;
    const name = path.basename(this.uri.fsPath);
    let started: Child;
    try {
      const texts = await this.gameFiles();
      const files = [...texts.keys()];
      if (generation !== this.generation || this.disposed) {
        return;
      }
      const command = await this.runCommand();
      if (generation !== this.generation || this.disposed) {
        return;
      }
      const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'gdef-board-'));
      const snapshot = path.join(folder, 'game');
      const { copies, root } = snapshotLayout(files, snapshot);
      for (const file of files) {
        const copy = copies.get(file) as string;
        await fs.promises.mkdir(path.dirname(copy), { recursive: true });
        await fs.promises.writeFile(copy, texts.get(file) as string, 'utf8');
      }
      started = new Child(folder, snapshot, root);
      this.pending = started;
      const argv = [...command.argv, '--web', '--no-browser', '--port', '0', ...(this.entry ?? []).map((f) => copies.get(f) as string)];
      await started.start(argv, { ...process.env, ...command.env, PYTHONUNBUFFERED: '1' }, (code) => this.childStopped(started, code));
    } catch (error) {
      if (generation === this.generation && !this.disposed) {
        this.pending?.dispose();
        this.pending = undefined;
        this.showNotice(errorNotice(name, error instanceof Error ? error.message : String(error)));
      }
      return;
    }
    if (generation !== this.generation || this.disposed) {
      started.dispose();
      return;
    }
    this.pending = undefined;
    const old = this.child;
    this.child = started;
    old?.dispose();
    if (this.pageShown) {
      void this.panel.webview.postMessage({ type: 'reload' });
    } else {
      await this.showPage(started);
    }
    void this.panel.webview.postMessage({ type: 'notice', text: null });
  }

  /** The page, taken from the child (so it always matches its API), inlined under a CSP. */
  private async showPage(child: Child): Promise<void> {
    const [index, css, js] = await Promise.all(['/', '/static/style.css', '/static/app.js'].map((file) => child.text(file)));
    this.panel.webview.html = webviewHtml(index, css, js, nonce());
    this.pageShown = true;
  }

  private showNotice(text: string): void {
    if (this.pageShown) {
      void this.panel.webview.postMessage({ type: 'notice', text });
    } else {
      this.panel.webview.html = messageHtml(path.basename(this.uri.fsPath), `${text}\n\nThe board appears once the rules run.`, nonce());
    }
  }

  private childStopped(child: Child, code: number | null): void {
    if (child === this.child && !this.disposed) {
      this.showNotice(`The board's gdef-run stopped (exit code ${code ?? 'none'}). Edit the rules, or close the board and ` +
        'show it again, to start it anew.');
    }
  }

  /** The texts of the game's main files (from the language server) and of every file their `use` lines reach. */
  private async gameFiles(): Promise<Map<string, string>> {
    const client = await this.server.ready();
    if (!client) {
      throw new Error('the gdef language server is not running (see the GDef output)');
    }
    try {
      const argv: unknown = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_RUN_COMMAND, arguments: [this.uri.toString()] });
      if (Array.isArray(argv) && argv.every((a): a is string => typeof a === 'string')) {
        this.entry = argv[1] === '-m' ? argv.slice(3) : argv.slice(1);
      }
    } catch (error) {
      if (!this.entry) { // with no game found yet, there is nothing to show; later, keep the last one
        throw new Error(error instanceof Error ? error.message : String(error));
      }
    }
    const texts = new Map<string, string>();
    const queue = [...(this.entry ?? [this.uri.fsPath])];
    while (queue.length > 0) {
      const file = queue.shift() as string;
      if (texts.has(file)) {
        continue;
      }
      const text = await readText(file).catch(() => undefined);
      if (text === undefined) {
        continue; // gdef-run says which `use` names a missing file
      }
      texts.set(file, text);
      queue.push(...usedFiles(text, file));
    }
    this.files = new Set(texts.keys());
    return texts;
  }

  /** gdef-run from the installation the language server runs (the same Python, the bundled gdef's path). */
  private async runCommand(): Promise<{ argv: string[]; env: Record<string, string> }> {
    await this.server.ready();
    const command = this.server.command;
    return { argv: toolCommand('run', command), env: command?.env ?? {} };
  }

  /** A message of the page: an API request for the child, or something only the editor can do. */
  private async answer(message: unknown): Promise<void> {
    if (!message || typeof message !== 'object') {
      return;
    }
    const { type, id } = message as { type?: unknown; id?: unknown };
    let reply: Answer;
    if (type === 'api') {
      const { path: apiPath, body } = message as { path?: unknown; body?: unknown };
      if (!allowedRequest(apiPath, body !== undefined)) {
        reply = { status: 403, data: { error: `the board panel does not pass on ${String(apiPath).slice(0, 100)}` } };
      } else if (!this.child) {
        reply = { status: 0, data: { error: 'the game is not running (see the notice above the board)' } };
      } else {
        reply = await this.child.request(apiPath, body);
      }
    } else if (type === 'pickScript') {
      reply = { status: 200, data: await this.pickScript() };
    } else if (type === 'readScript') {
      const file = (message as { path?: unknown }).path;
      reply = { status: 200, data: typeof file === 'string' && this.picked.has(file) ? await readText(file).catch(() => null) : null };
    } else if (type === 'saveRecord') {
      reply = { status: 200, data: await this.saveRecord() };
    } else if (type === 'debugMove') {
      reply = { status: 200, data: await this.debugMove((message as { move?: unknown }).move) };
    } else {
      return;
    }
    void this.panel.webview.postMessage({ type: 'answer', id, ...reply });
  }

  private async pickScript(): Promise<{ name: string; text: string; path: string } | null> {
    const chosen = await vscode.window.showOpenDialog({
      defaultUri: vscode.Uri.file(path.dirname(this.uri.fsPath)),
      canSelectMany: false,
      openLabel: 'Step through',
      filters: { 'Move scripts and records': ['moves', 'json', 'txt'], 'All files': ['*'] },
    });
    const file = chosen?.[0]?.fsPath;
    if (!file) {
      return null;
    }
    this.picked.add(file);
    return { name: path.basename(file), text: await readText(file), path: file };
  }

  /**
   * "Debug this move": the child saves the game so far as a record and answers the launch
   * configuration; the session runs the user's files, so the game's unsaved edits are saved first.
   */
  private async debugMove(move: unknown): Promise<{ started: boolean; error?: string }> {
    if (typeof move !== 'string' || move.length === 0 || move.length > MAX_MOVE_LENGTH) {
      return { started: false, error: 'Debug this move: not a move' };
    }
    if (!this.child) {
      return { started: false, error: 'the game is not running (see the notice above the board)' };
    }
    const answer = await this.child.request('/api/debug', { move });
    const program = this.entry ?? [this.uri.fsPath];
    const launch = answer.status === 200 ? debugConfiguration(answer.data, program) : undefined;
    if (!launch) {
      const error = (answer.data as { error?: unknown } | null)?.error;
      return { started: false, error: `cannot debug ${move}: ${typeof error === 'string' ? error : 'gdef-run gave no launch configuration'}` };
    }
    for (const document of vscode.workspace.textDocuments) {
      if (document.isDirty && document.uri.scheme === 'file' && this.files.has(document.uri.fsPath)) {
        await document.save();
      }
    }
    const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(this.uri), launch);
    return started ? { started } : { started, error: 'VS Code did not start the debug session (see the Debug Console)' };
  }

  private async saveRecord(): Promise<{ saved: boolean; path?: string; reason?: string } | null> {
    if (!this.child) {
      return { saved: false, reason: 'the game is not running' };
    }
    const record = await this.child.request('/api/record', undefined);
    if (record.status !== 200) {
      return { saved: false, reason: String((record.data as { error?: unknown }).error) };
    }
    const game = (record.data as { game?: unknown }).game;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(path.dirname(this.uri.fsPath), `${typeof game === 'string' ? game : 'game'}-record.json`)),
      filters: { 'Game records': ['json'] },
    });
    if (!target) {
      return null;
    }
    await fs.promises.writeFile(target.fsPath, `${JSON.stringify(record.data, null, 2)}\n`, 'utf8');
    return { saved: true, path: target.fsPath };
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    clearTimeout(this.timer);
    this.pending?.dispose();
    this.child?.dispose();
    this.onDispose();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
    this.panel.dispose();
  }
}

/** The text of `file` as the editor has it (unsaved edits included), else as on disk. */
async function readText(file: string): Promise<string> {
  const open = vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === file);
  return open ? open.getText() : fs.promises.readFile(file, 'utf8');
}

function activeGdefUri(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === 'gdef' ? document.uri : undefined;
}

function nonce(): string {
  return randomBytes(18).toString('base64');
}
