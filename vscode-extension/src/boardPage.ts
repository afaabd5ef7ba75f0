/**
 * The pieces of the "Show Board" panel that are plain logic, free of VS Code so that unit tests
 * can drive them: where the snapshot of the game's texts goes, what the gdef-run child printed
 * (its address, or the errors that stopped it), the webview's HTML and the API paths it may ask.
 */
import * as path from 'path';

/** Where a gdef-run --web child serves, and the run's secret token its API needs. */
export interface ServingAddress {
  port: number;
  token: string;
}

/** `Serving NAME at http://127.0.0.1:PORT/?token=TOKEN`: the line gdef-run --web prints once it listens. */
export function servingAddress(line: string): ServingAddress | undefined {
  const match = /^Serving .* at http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+) /.exec(line);
  return match ? { port: Number(match[1]), token: match[2] } : undefined;
}

/**
 * The files named by the `use` lines of `text` (the file `file`'s), as absolute paths. Read from
 * the text being copied, so a `use` line typed a moment ago is followed at once.
 */
export function usedFiles(text: string, file: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^[ \t]*use[ \t]+"([^"\r\n]+\.gdef)"/gm)) {
    found.push(path.resolve(path.dirname(file), match[1]));
  }
  return found;
}

/**
 * Where each file of the game is copied under `folder`, keeping their layout relative to the
 * folder that holds them all (so that `use "../lib.gdef"` still finds its file). Returns the
 * copies (original -> copy) and that common folder.
 */
export function snapshotLayout(files: string[], folder: string): { copies: Map<string, string>; root: string } {
  const dirs = files.map((file) => path.dirname(path.resolve(file)));
  let root = dirs[0] ?? folder;
  for (const dir of dirs) {
    while (dir !== root && !dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      root = path.dirname(root);
    }
  }
  const copies = new Map<string, string>();
  for (const file of files) {
    copies.set(file, path.join(folder, path.relative(root, path.resolve(file))));
  }
  return { copies, root };
}

/**
 * The child's answers name the snapshot's copies; the page must show the user's own paths
 * (a run-time error's location, the game's files). Replaces `from` + separator by `to` +
 * separator inside a JSON text, both written as JSON writes them.
 */
export function rewritePaths(json: string, from: string, to: string): string {
  const escaped = (p: string) => JSON.stringify(p + path.sep).slice(1, -1);
  return json.split(escaped(from)).join(escaped(to));
}

/**
 * Why gdef-run refused the edited rules, in one line for the panel: the first error with its
 * location (snapshot paths made the user's again) and how many more there are.
 */
export function errorSummary(stderr: string, snapshot: string, root: string): string {
  const text = stderr.split(snapshot + path.sep).join(root + path.sep);
  const errors = text.split('\n').filter((line) => /^.+:\d+:\d+: error\[G\d+\]: /.test(line));
  if (errors.length > 0) {
    const first = errors[0].replace(root + path.sep, '');
    return errors.length === 1 ? first : `${first} (and ${errors.length - 1} more)`;
  }
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /error/i.test(line)) ?? lines[lines.length - 1] ?? 'gdef-run stopped without saying why';
}

/** The notice shown above the board while the rules in the editor cannot run. */
export function errorNotice(fileName: string, summary: string): string {
  return `${fileName} has errors, so the board shows the last version without errors.\n${summary}`;
}

const GET_PATHS = new Set(['/api/game', '/api/state', '/api/record', '/api/legal', '/api/check']);
const POST_PATHS = new Set(['/api/move', '/api/computer', '/api/undo', '/api/move-now', '/api/new', '/api/agent',
  '/api/script', '/api/step', '/api/script/close', '/api/save']);

/** Whether the webview may ask the child for `apiPath` (with a body: a POST). Nothing else is passed on. */
export function allowedRequest(apiPath: unknown, post: boolean): apiPath is string {
  if (typeof apiPath !== 'string' || apiPath.length > 2000) {
    return false;
  }
  const route = apiPath.split('?')[0];
  return post ? POST_PATHS.has(route) && route === apiPath : GET_PATHS.has(route);
}

/**
 * The webview's HTML: the child's own page (index.html) with its style sheet and script
 * inlined under a nonce, and a Content-Security-Policy that allows nothing else: no network
 * (requests go through the extension), no other scripts, no frames.
 */
export function webviewHtml(index: string, css: string, js: string, nonce: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src data:; ` +
    "font-src 'none'; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";
  const safeJs = js.split('</script').join('<\\/script');
  const safeCss = css.split('</style').join('<\\/style');
  let html = index
    .replace(/<link rel="stylesheet" href="\/static\/style\.css">/, () => `<style nonce="${nonce}">\n${safeCss}</style>`)
    .replace(/<script src="\/static\/app\.js" defer><\/script>/, '')
    .replace(/<meta charset="utf-8">/, (meta) => `${meta}\n<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  html = html.replace(/<\/body>/, () => `<script nonce="${nonce}">\n${safeJs}</script>\n</body>`);
  return html;
}

/** A page that only says something (before the first version of the rules that runs). */
export function messageHtml(title: string, text: string, nonce: string): string {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'">
<style nonce="${nonce}">body { font: 14px/1.4 system-ui, sans-serif; padding: 1em; white-space: pre-wrap; }</style>
<title>${escape(title)}</title></head><body><h1>${escape(title)}</h1><p id="notice">${escape(text)}</p></body></html>`;
}

/** The launch configuration of a `gdef` debug session ("Debug this move", docs/debugging.md). */
export interface DebugLaunch {
  type: 'gdef';
  request: 'launch';
  name: string;
  program: string | string[];
  resume: string;
  debugMove: string;
  [key: string]: unknown;
}

/**
 * The session "Debug this move" starts, from gdef-run's answer to POST /api/debug (the game so far
 * saved as a record, the move) with `program`, the user's own game files, in place of the files
 * the child runs (copies of the editor's texts); undefined when the answer is not one.
 */
export function debugConfiguration(answer: unknown, program: string[]): DebugLaunch | undefined {
  const launch = (answer as { launch?: unknown } | null)?.launch as Record<string, unknown> | undefined;
  if (!launch || typeof launch !== 'object' || launch.type !== 'gdef' || launch.request !== 'launch' || program.length === 0) {
    return undefined;
  }
  const { name, resume, debugMove } = launch;
  if (typeof name !== 'string' || typeof resume !== 'string' || typeof debugMove !== 'string') {
    return undefined;
  }
  return { type: 'gdef', request: 'launch', name, program: program.length === 1 ? program[0] : program, resume, debugMove };
}

/** The game files a `gdef` debug session runs (its configuration's `program`), to find the board that shows that game. */
export function debuggedFiles(configuration: object): string[] {
  const program = (configuration as { program?: unknown }).program;
  const files = typeof program === 'string' ? [program] : Array.isArray(program) ? program : [];
  return files.filter((file): file is string => typeof file === 'string').map((file) => path.resolve(file));
}

/** What the adapter's `gdef/position` event says, checked before the page draws it. */
export interface DebuggedPosition {
  title: string;
  board: [number, number, string][];
  player: number;
  moveNumber: number;
  move: [number, number, string | null][];
}

export function debuggedPosition(body: unknown): DebuggedPosition | undefined {
  const value = body as Partial<DebuggedPosition> | null;
  if (!value || typeof value !== 'object' || typeof value.title !== 'string' || !Array.isArray(value.board) ||
    !Array.isArray(value.move) || typeof value.player !== 'number' || typeof value.moveNumber !== 'number') {
    return undefined;
  }
  const square = (item: unknown) => Array.isArray(item) && item.length === 3 && Number.isInteger(item[0]) && Number.isInteger(item[1]);
  if (!value.board.every((item) => square(item) && typeof item[2] === 'string') || !value.move.every(square)) {
    return undefined;
  }
  return { title: value.title, board: value.board, player: value.player, moveNumber: value.moveNumber, move: value.move };
}
