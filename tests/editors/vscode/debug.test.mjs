// End-to-end: debugging a game in a real VS Code (code-server + Chromium) with the extension's
// debugger type `gdef` (docs/debugging.md): a breakpoint set by clicking the gutter in a `use`d
// file, the session started from the "Debug game" code lens with the moves typed in the Debug
// Console, the stop there, a local in the Variables view, a step, and continue; then "Debug this
// move" on a move the board panel refused: the stop where isMoveLegal() judges it, the board
// showing the debugged position, and the game again when the session ends.
//
//   node --test debug.test.mjs   (after `npm ci` here and `npm run package` in vscode-extension/)
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { checkWithEvidence, goTo, openFile, openVSCode, ROOT, runCommand } from './harness.mjs';

const GAMES = join(ROOT, 'tests', 'data', 'debug');

let workspace;
let vscode;
let page;

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'gdef-debug-'));
  const folder = join(workspace, 'rows');
  mkdirSync(folder);
  for (const name of ['rows.gdef', 'helpers.gdef']) {
    copyFileSync(join(GAMES, name), join(folder, name));
  }
  vscode = await openVSCode({ folder });
  page = vscode.page;
});

after(async () => {
  await vscode?.stop();
  if (workspace) {
    rmSync(workspace, { recursive: true, force: true });
  }
});

const check = checkWithEvidence('debug-', () => vscode);

async function waitFor(what, predicate, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await predicate();
    if (found) {
      return found;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The rows of a view of the Run and Debug side bar (Variables, Call Stack) as text. */
async function rowsOf(view) {
  return page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: new RegExp(view, 'i') }) })
    .locator('.monaco-list-row').evaluateAll((rows) => rows.map((r) => r.innerText.replace(/\s+/g, ' ').trim()));
}

/** The board page inside the board panel's webview (code-server nests it in two iframes). */
function board() {
  return page.locator('iframe.webview.ready').last().contentFrame().locator('#active-frame').contentFrame();
}

async function topFrame() {
  const frames = await rowsOf('Call Stack');
  return frames.find((f) => /\(\)/.test(f)) ?? '';
}

describe('debugging a game', { concurrency: 1 }, () => {
  check('a gutter breakpoint in a used file stops the game, shows a local, steps and continues', async () => {
    await openFile(page, 'helpers.gdef');
    const line = readFileSync(join(GAMES, 'helpers.gdef'), 'utf8').split('\n').findIndex((l) => l.includes('if (CurrentPosition[x][y] == m)')) + 1;
    await goTo(page, line, 1);
    // the gutter left of the line number: the glyph margin, where a click toggles a breakpoint
    const number = page.locator('.monaco-editor .line-numbers', { hasText: new RegExp(`^${line}$`) }).first();
    await number.waitFor({ timeout: 10_000 }); // (just opened: the line may not be drawn yet)
    // the margin of this editor (the first `.margin` on the page may be a hidden editor's); both
    // boxes asked until drawn: the editor redraws its line numbers while it scrolls to the line,
    // and a number between two drawings has no box (failed so in CI)
    const marginOf = number.locator("xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' margin ')]");
    const { box, margin } = await waitFor('the line number and its margin drawn', async () => {
      const [b, m] = [await number.boundingBox().catch(() => null), await marginOf.boundingBox().catch(() => null)];
      return b && m ? { box: b, margin: m } : undefined;
    }, 10_000);
    await page.mouse.move(margin.x + 8, box.y + box.height / 2);
    await page.mouse.click(margin.x + 8, box.y + box.height / 2);
    await page.locator('.codicon-debug-breakpoint').first().waitFor({ timeout: 10_000 });

    await openFile(page, 'rows.gdef');
    await goTo(page, readFileSync(join(GAMES, 'rows.gdef'), 'utf8').split('\n').findIndex((l) => l.startsWith('name:')) + 1, 1);
    const lens = page.locator('.codelens-decoration a', { hasText: 'Debug game' });
    await lens.first().waitFor({ timeout: 60_000 });
    await lens.first().click();
    // no move script: the game waits for a move typed in the Debug Console
    const console = page.locator('.repl-input-wrapper .monaco-editor').first();
    await console.waitFor({ timeout: 60_000 });
    await waitFor('the prompt for a move', async () =>
      /type a move in the debug console/.test(await page.locator('.repl').innerText().catch(() => '')));
    await console.click();
    await page.keyboard.type('place(0,0,X)');
    await page.keyboard.press('Enter');

    const stopped = await waitFor('the stop in countInRow()', async () => {
      const frame = await topFrame();
      return /countInRow\(\)/.test(frame) ? frame : undefined;
    }, 60_000);
    assert.match(stopped, /helpers\.gdef/);
    const stack = await rowsOf('Call Stack');
    assert.ok(stack.some((f) => /end\(\) after move 1: place\(0,0,X\)/.test(f)), stack.join(' | '));
    const variables = await waitFor('the locals', async () => {
      const rows = await rowsOf('Variables');
      return rows.includes('count = 0') ? rows : undefined;
    });
    assert.ok(variables.includes('m = X') && variables.includes('y = 0'), variables.join(' | '));

    await page.keyboard.press('F10'); // step over: to `count = count + 1;` (square (0,0) holds X)
    await waitFor('the step', async () => /helpers\.gdef 8:7$/.test(await topFrame()) ? true : undefined);
    await page.keyboard.press('F5'); // continue: the breakpoint again, for x = 1
    await waitFor('the next hit', async () => {
      const rows = await rowsOf('Variables');
      return rows.includes('x = 1') ? true : undefined;
    });
  });

  check('"Debug this move" on a move the board refused stops where isMoveLegal() judges it; the board follows', async () => {
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Shift+F5'); // the session of the test before
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    await openFile(page, 'rows.gdef');
    await runCommand(page, 'GDef: Show Board');
    await board().locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 90_000 });
    await board().locator('#move-text').fill('place(0,0,X)');
    await board().locator('#play').click();
    await board().locator('#status', { hasText: 'Player 1 to move' }).waitFor({ timeout: 30_000 });
    await board().locator('#move-text').fill('place(0,0,O)'); // a taken square: isMoveLegal() says no
    await board().locator('#play').click();
    await board().locator('#debug-move').click();

    const stopped = await waitFor('the stop in isMoveLegal()', async () => {
      const frame = await topFrame();
      return /isMoveLegal\(\)/.test(frame) ? frame : undefined;
    }, 60_000);
    const first = readFileSync(join(GAMES, 'rows.gdef'), 'utf8').split('\n').findIndex((l) => l.startsWith('define isMoveLegal()')) + 2;
    assert.match(stopped, new RegExp(`rows\\.gdef ${first}:\\d+$`));
    const stack = await rowsOf('Call Stack');
    assert.ok(stack.some((f) => /isMoveLegal\(\) judging move 2: place\(0,0,O\)/.test(f)), stack.join(' | '));
    // the board shows the position being debugged, the judged move's square marked
    await board().locator('#status', { hasText: 'Debugging: isMoveLegal() judging move 2: place(0,0,O)' }).waitFor({ timeout: 30_000 });
    assert.equal(await board().locator('#board.debugged .sq[data-x="0"][data-y="0"]').getAttribute('data-object'), 'X');
    assert.equal(await board().locator('#board .sq.pending').count(), 1);

    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Shift+F5');
    await board().locator('#status', { hasText: 'Player 1 to move' }).waitFor({ timeout: 30_000 });
    assert.equal(await board().locator('#board.debugged').count(), 0);
  });
});
