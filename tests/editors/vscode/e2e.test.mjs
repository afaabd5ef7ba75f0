// End-to-end: the gdef extension in a real VS Code (code-server + Chromium). Each test checks
// what the editor shows a person: the squiggle and the Problems panel, the hover, the
// completion list, the game running in the terminal, the message when the server cannot start.
//
//   npm test   (after `npm ci` here and `npm run package` in vscode-extension/)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CTRL, PYTHON, ROOT, boxOf, goTo, openFile, openVSCode, runCommand } from './harness.mjs';

// a folder name that breaks anything passing paths through a shell
const FOLDER = 'my games $(touch pwned)';
const SEED = join(ROOT, 'tests', 'data', 'lint', 'seed', 'original_tictactoe.gdef');
const GAME = join(ROOT, 'examples', 'tictactoe.gdef');

let workspace;
let vscode;
let page;

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'gdef-e2e-'));
  const folder = join(workspace, FOLDER);
  mkdirSync(folder);
  copyFileSync(SEED, join(folder, 'original seed.gdef'));
  copyFileSync(GAME, join(folder, 'tictactoe.gdef'));
  vscode = await openVSCode({ folder });
  page = vscode.page;
});

after(async () => {
  await vscode?.stop();
  if (workspace) {
    rmSync(workspace, { recursive: true, force: true });
  }
});

// On failure, a screenshot of what the editor showed, in $GDEF_E2E_ARTIFACTS (default: a temp folder).
const artifacts = process.env.GDEF_E2E_ARTIFACTS || join(tmpdir(), 'gdef-e2e-artifacts');

function check(name, body) {
  test(name, async () => {
    try {
      await body();
    } catch (error) {
      mkdirSync(artifacts, { recursive: true });
      const shot = join(artifacts, `${name.replace(/[^A-Za-z0-9]+/g, '-')}.png`);
      await page?.screenshot({ path: shot }).catch(() => undefined);
      writeFileSync(`${shot}.log`, vscode?.log() ?? '');
      error.message += ` (screenshot: ${shot})`;
      throw error;
    }
  });
}

async function terminalText() {
  return page.locator('.terminal-wrapper.active .xterm-rows').innerText().catch(() => '');
}

async function waitFor(what, predicate, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await predicate();
    if (last) {
      return last;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the seed tic-tac-toe, which compares an obj with an int', { concurrency: 1 }, () => {
  check('shows the type error as a squiggle and in the Problems panel', async () => {
    await openFile(page, 'original seed.gdef');
    await page.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    await page.keyboard.press(`${CTRL}+Shift+M`);
    const row = page.locator('.markers-panel .monaco-tl-row', { hasText: 'cannot compare obj with int' });
    await row.first().waitFor({ timeout: 30_000 });
    const text = await row.first().innerText();
    assert.match(text, /G301/);
    assert.match(text, /\[Ln 17, Col 27\]/);
    // the only problem of the file, and an error
    const labels = await page.locator('.markers-panel .monaco-list-row').evaluateAll(
      (rows) => rows.map((r) => r.getAttribute('aria-label')));
    assert.deepEqual(labels.filter((l) => / at line \d+ and character \d+/.test(l)).map((l) => l.split(':')[0]), ['Error']);
    assert.equal(await page.locator('[id="status.problems"]').first().getAttribute('aria-label'), 'Errors: 1');
  });

  check('hover on a built-in shows its signature and documentation', async () => {
    await page.keyboard.press('Escape');
    const box = await boxOf(page, 'CurrentPosition');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'The object on square (x, y)' });
    await hover.first().waitFor({ timeout: 20_000 });
    assert.match(await hover.first().innerText(), /CurrentPosition\[x\]\[y\]/);
    await page.mouse.move(5, 5);
  });

  check('completion lists the built-ins with their documentation', async () => {
    await goTo(page, 13, 1); // the start of `  int xCord = OperationList[0][0];`
    await page.keyboard.type('  int q = Curr');
    await page.keyboard.press(`${CTRL}+Space`);
    const row = page.locator('.suggest-widget .monaco-list-row', { hasText: 'CurrentPosition' });
    await row.first().waitFor({ timeout: 20_000 });
    const details = page.locator('.suggest-details', { hasText: 'The object on square' });
    if (!(await details.isVisible())) {
      await page.keyboard.press(`${CTRL}+Space`); // "read more": the documentation beside the list
    }
    await details.first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
  });
});

describe('Run game', { concurrency: 1 }, () => {
  check('the code lens starts a playable game in a terminal, without a shell', async () => {
    await openFile(page, 'tictactoe.gdef');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Run game' });
    await lens.first().waitFor({ timeout: 30_000 });
    await lens.first().click();
    await waitFor('the board in the terminal', async () => /Player 0 to move/.test(await terminalText()));
    await page.locator('.terminal-wrapper.active .xterm').click();
    await page.keyboard.type('place(1,1,X)');
    await page.keyboard.press('Enter');
    // the move was played: X stands in the middle of the board, and player 1 is on turn
    const played = await waitFor('the move on the board', async () => {
      const text = await terminalText();
      return /Player 1 to move/.test(text) ? text : undefined;
    });
    assert.match(played, /^\s*1 \. X \. 1\s*$/m);
    assert.ok(!existsSync(join(workspace, FOLDER, 'pwned')), 'no shell ran the folder name');
    assert.ok(!existsSync(join(workspace, 'pwned')));
  });

  check('the editor title button runs the game too', async () => {
    await openFile(page, 'tictactoe.gdef');
    const before = await page.locator('.terminal-wrapper').count();
    await page.locator('.editor-actions a[aria-label^="Run game"], .editor-actions a[aria-label^="GDef: Run game"]').first().click();
    const text = await waitFor('a new game in the terminal', async () => {
      const t = await terminalText();
      return /Player 0 to move/.test(t) && !/Player 1 to move/.test(t) ? t : undefined;
    });
    assert.doesNotMatch(text, /^\s*1 \. X \. 1\s*$/m);
    assert.ok((await page.locator('.terminal-wrapper').count()) <= before, 'running again replaces the previous game');
  });
});

describe('when the server cannot start', { concurrency: 1 }, () => {
  let broken;
  after(async () => {
    await broken?.stop();
  });

  check('says that gdef is not installed in that Python, and what to run', async () => {
    // a real interpreter without gdef: a fresh virtual environment
    const venv = join(workspace, 'venv without gdef');
    execFileSync(PYTHON, ['-m', 'venv', '--without-pip', venv]);
    const python = join(venv, 'bin', 'python');
    await vscode.stop(); // one VS Code at a time: the machine has two cores
    vscode = undefined;
    broken = await openVSCode({ folder: join(workspace, FOLDER), settings: { 'gdef.server.command': [python, '-m', 'gdef_lsp'] } });
    page = broken.page;
    await openFile(page, 'tictactoe.gdef');
    const toast = page.locator('.notification-toast', { hasText: `gdef is not installed in ${python}` });
    await toast.first().waitFor({ timeout: 30_000 });
    const text = await toast.first().innerText();
    assert.ok(text.includes(`run "${python} -m pip install gdef"`), text);
    assert.ok(text.includes('Open Settings'), text);
  });
});
