// End-to-end: "GDef: Show Board" in a real VS Code (code-server + Chromium). The board panel
// opens beside connect4.gdef with the start position, an unsaved edit of `size:` redraws it, a
// typed mistake leaves the last good board with a notice, a click plays a move, the computer
// answers, a moves file is stepped through, and closing the panel stops its gdef-run; the
// board of a `use`d library is its game's, and follows edits of the library.
//
//   npm test   (after `npm ci` here and `npm run package` in vscode-extension/)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import { checkWithEvidence, goTo, openFile, ROOT, runCommand, vscodeOnFolder } from './harness.mjs';

const FOLDER = 'board games';
let workspace;
let vscode;
let page;

vscodeOnFolder('gdef-board-e2e-', FOLDER, (folder) => {
  copyFileSync(join(ROOT, 'examples', 'connect4.gdef'), join(folder, 'connect4.gdef'));
  // a game whose rules are split over two files: the board follows the library it uses
  mkdirSync(join(folder, 'split'));
  for (const file of ['tictactoe.gdef', 'lines.gdef']) {
    copyFileSync(join(ROOT, 'examples', 'tictactoe-split', file), join(folder, 'split', file));
  }
  // three discs, then whose turn it is
  writeFileSync(join(folder, 'column.moves'), 'place(0,0,X)\nplace(1,0,O)\nplace(0,1,X)\n? turn 1\n');
}, (opened) => ({ workspace, vscode, page } = opened));

const check = checkWithEvidence('board-', () => vscode);

/** The board page inside the webview (code-server nests it in two iframes). */
function board() {
  return page.locator('iframe.webview.ready').last().contentFrame().locator('#active-frame').contentFrame();
}

/** The gdef-run --web children of board panels running now. */
function boardChildren() {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((line) => line.includes('--web') && line.includes('gdef-board-'));
}

async function squares() {
  return board().locator('#board .sq').count();
}

describe('the board panel', { concurrency: 1 }, () => {
  check('the editor title button opens the start position of connect4 beside the rules', async () => {
    await openFile(page, 'connect4.gdef');
    await page.locator('.editor-actions a[aria-label^="Show Board"], .editor-actions a[aria-label^="GDef: Show Board"]').first().click();
    await board().locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 90_000 });
    assert.equal(await squares(), 7 * 6);
    assert.match(await board().locator('#game-facts').innerText(), /^2 players, 7×6 board, .*board games\/connect4\.gdef;/);
    assert.equal(await page.locator('.tab', { hasText: 'Board: connect4.gdef' }).count(), 1);
    assert.equal(boardChildren().length, 1);
  });

  check('an unsaved edit of size: redraws the board', async () => {
    await openFile(page, 'connect4.gdef');
    await goTo(page, 19, 7); // size: 7 x 6
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('7 x 5'); // (the rows: connect four's show block names its 7 columns)
    await board().locator('#game-facts', { hasText: '7×5 board' }).waitFor({ timeout: 60_000 });
    assert.equal(await squares(), 7 * 5);
    assert.ok(await board().locator('#notice').isHidden());
  });

  check('a mistake keeps the last board that ran and says so, until it is fixed', async () => {
    await page.keyboard.type(' +');
    const notice = board().locator('#notice', { hasText: 'connect4.gdef has errors, so the board shows the last version without errors.' });
    await notice.waitFor({ timeout: 60_000 });
    assert.match(await notice.innerText(), /connect4\.gdef:19:\d+: error\[G\d+\]/);
    assert.equal(await squares(), 7 * 5);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await notice.waitFor({ state: 'hidden', timeout: 60_000 });
    assert.equal(await squares(), 7 * 5);
  });

  check('a click plays a move, and the computer answers', async () => {
    await board().locator('#agent-1').selectOption('random');
    await board().locator('#board .sq[data-x="4"][data-y="0"]').click();
    await board().locator('#board .sq[data-x="4"][data-y="0"][data-object="X"]').waitFor({ timeout: 30_000 });
    await board().locator('#moves li').nth(1).waitFor({ timeout: 60_000 }); // random's reply
    await board().locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 30_000 });
    // each move by its name (connect four names a drop by its column), its operations on hover
    assert.equal(await board().locator('#moves li').first().innerText(), 'Player 0: e');
    assert.equal(await board().locator('#moves li').first().getAttribute('title'), 'place(4,0,X)');
    assert.match(await board().locator('#moves li').nth(1).getAttribute('title'), /^place\(\d,\d,O\)$/);
    await board().locator('#agent-1').selectOption('human');
  });

  check('a moves file is stepped through from the editor\'s open dialog', async () => {
    await board().locator('#script-file').click();
    // code-server's own file dialog: a path in the quick input
    const input = page.locator('.quick-input-widget input');
    // it opens in the game's folder (listed), then takes the path typed
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'column.moves' }).first().waitFor({ timeout: 20_000 });
    await input.fill(join(workspace, FOLDER, 'column.moves'));
    assert.equal(await input.inputValue(), join(workspace, FOLDER, 'column.moves'));
    await page.keyboard.press('Enter');
    await board().locator('#stepper').waitFor({ timeout: 30_000 });
    assert.equal(await board().locator('#script li').count(), 4);
    await board().locator('#step-end').click();
    await board().locator('#script li.current', { hasText: '? turn 1' }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await board().locator('#script li').evaluateAll((items) => items.map((i) => i.className.split(' ')[0])),
      ['played', 'played', 'played', 'passed']);
    assert.equal(await board().locator('#board .sq[data-x="0"][data-y="1"]').getAttribute('data-object'), 'X');
  });

  check('closing the panel stops its gdef-run', async () => {
    // keys pressed while the webview has the focus may not reach the workbench: click the rules first
    await page.locator('.monaco-editor .view-lines').first().click();
    await runCommand(page, 'File: Revert File');
    await page.locator('.tab', { hasText: 'Board: connect4.gdef' }).locator('.tab-actions .action-label').first().click();
    await page.locator('.tab', { hasText: 'Board: connect4.gdef' }).waitFor({ state: 'detached', timeout: 20_000 });
    const deadline = Date.now() + 20_000;
    while (boardChildren().length > 0 && Date.now() < deadline) {
      await page.waitForTimeout(200);
    }
    assert.deepEqual(boardChildren(), []);
  });
});

describe('a game split over files', { concurrency: 1 }, () => {
  check('the board of a library is its game\'s, and an edit of the library reaches it', async () => {
    await openFile(page, 'lines.gdef');
    await runCommand(page, 'GDef: Show Board');
    await board().locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 60_000 });
    assert.equal(await squares(), 3 * 3);
    assert.match(await board().locator('#game-facts').innerText(), /board games\/split\/tictactoe\.gdef;/);
    await openFile(page, 'lines.gdef');
    await goTo(page, 14, 1); // return x >= 0 && ...
    await page.keyboard.press('End');
    await page.keyboard.type(' +');
    const notice = board().locator('#notice', { hasText: 'has errors, so the board shows the last version without errors.' });
    await notice.waitFor({ timeout: 60_000 });
    assert.match(await notice.innerText(), /\nlines\.gdef:1[45]:\d+: error\[G\d+\]/);
    await runCommand(page, 'File: Revert File');
    await notice.waitFor({ state: 'hidden', timeout: 60_000 });
  });
});
