// End-to-end: the .vsix alone on a machine with only Python. The extension carries gdef and its
// dependencies (vscode-extension/bundled, made at package time) and starts them with the first
// Python 3.11+ it finds; here that Python is a fresh virtual environment without gdef, first on
// the user's PATH. And with no Python at all, the editor says what to install.
//
//   npm test   (after `npm ci` here and `npm run package` in vscode-extension/)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { checkWithEvidence, copyDocumentedTasks, CTRL, goTo, openFile, openVSCode, PYTHON, ROOT, runCommand } from './harness.mjs';

const SEED = join(ROOT, 'tests', 'data', 'lint', 'seed', 'original_tictactoe.gdef');
const GAME = join(ROOT, 'examples', 'tictactoe.gdef');
const VERSION = /^__version__ = "([^"]+)"/m.exec(readFileSync(join(ROOT, 'gdef_core', 'version.py'), 'utf8'))[1];
let workspace;
let folder;
let vscode;

before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'gdef-zero-install-'));
  folder = join(workspace, 'games');
  mkdirSync(folder);
  copyFileSync(SEED, join(folder, 'seed.gdef'));
  copyFileSync(GAME, join(folder, 'tictactoe.gdef'));
  copyDocumentedTasks(folder);
});

after(async () => {
  await vscode?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const check = checkWithEvidence('zero-install-', () => vscode);

async function restart(options) {
  await vscode?.stop(); // one VS Code at a time: the machine has two cores
  vscode = undefined;
  vscode = await openVSCode({ folder, ...options });
  return vscode.page;
}

describe('the .vsix with only a Python that has no gdef', { concurrency: 1 }, () => {
  let venv;

  check('shows live diagnostics from the bundled server', async () => {
    venv = join(workspace, 'plain python');
    execFileSync(PYTHON, ['-m', 'venv', '--without-pip', venv]);
    const python = join(venv, 'bin', 'python3');
    assert.throws(() => execFileSync(python, ['-c', 'import gdef_lsp'], { cwd: folder, stdio: 'pipe' }), /No module named 'gdef_lsp'/);
    const page = await restart({ shellPath: `${join(venv, 'bin')}:/usr/local/bin:/usr/bin:/bin` });

    await openFile(page, 'seed.gdef');
    await page.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    await page.keyboard.press(`${CTRL}+Shift+M`);
    const row = page.locator('.markers-panel .monaco-list-row[aria-label*="cannot compare obj with int"]');
    await row.first().waitFor({ timeout: 30_000 });
    assert.match(await row.first().getAttribute('aria-label'), / at line 17 and character 27\. /);

    // live: a mistake typed into a correct game appears, and goes when undone
    await openFile(page, 'tictactoe.gdef');
    await goTo(page, 41, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('int z = yy;');
    await page.locator('.part.panel .composite-bar a[aria-label^="Problems"]').first().click();
    const typed = page.locator('.markers-panel .monaco-list-row[aria-label*="\'yy\' is not declared"]');
    await typed.first().waitFor({ timeout: 20_000 });
    assert.match(await typed.first().getAttribute('aria-label'), / at line 42 and character 11\./);
    await runCommand(page, 'File: Revert File');
    await typed.first().waitFor({ state: 'detached', timeout: 20_000 });

    // and it is the bundled copy that answered, run by the plain Python
    await runCommand(page, 'GDef: Show server output');
    // the panel follows the end of the log; its first line is drawn only once scrolled to the top
    const panelLines = page.locator('.part.panel .monaco-editor .view-lines').first();
    await panelLines.waitFor({ timeout: 10_000 });
    await panelLines.click();
    await page.keyboard.press(`${CTRL}+Home`);
    const output = page.locator('.part.panel .monaco-editor .view-lines', { hasText: 'Starting the bundled gdef' });
    await output.first().waitFor({ timeout: 10_000 });
    // the rendered lines in order, wrapped ones joined back, with monaco's non-breaking spaces undone
    const log = (await output.first().evaluate((lines) => [...lines.querySelectorAll('.view-line')]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((line) => line.textContent).join('')))
      .replace(/\u00a0/g, ' ');
    assert.ok(log.includes(`Starting the bundled gdef ${VERSION} language server (Python from PATH): ${python} -m gdef_lsp with PYTHONPATH=`), log);
  });

  check('runs the game with the bundled gdef too', async () => {
    const page = vscode.page;
    await openFile(page, 'tictactoe.gdef');
    await page.locator('.editor-actions a[aria-label^="Run game"], .editor-actions a[aria-label^="GDef: Run game"]').first().click();
    const terminal = page.locator('.terminal-wrapper.active .xterm-rows', { hasText: 'Player 0 to move' });
    await terminal.first().waitFor({ timeout: 30_000 });
  });

  check('runs the documented gdef-check task with the bundled gdef too', async () => {
    const page = vscode.page;
    await openFile(page, 'seed.gdef');
    await runCommand(page, 'Tasks: Run Task');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'gdef: check this file' }).first().click();
    // gdef-check ran in the plain Python with the bundled gdef, and finished
    await page.locator('.terminal-wrapper.active .xterm-rows', { hasText: '1 error, 0 warnings in 1 file' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.part.panel .composite-bar a[aria-label^="Problems"]').first().click();
    const fromTask = page.locator('.markers-panel .monaco-list-row[aria-label*="generated by gdef-check"]');
    await fromTask.first().waitFor({ timeout: 30_000 });
    assert.match(await fromTask.first().getAttribute('aria-label'), /^Error: cannot compare obj with int.* at line 17 and character 27\. generated by gdef-check$/);
  });
});

describe('no Python at all', { concurrency: 1 }, () => {
  check('says which Python to install and where to configure it', async () => {
    const empty = join(workspace, 'no python here');
    mkdirSync(empty);
    const page = await restart({ shellPath: empty });
    await openFile(page, 'tictactoe.gdef');
    const toast = page.locator('.notification-toast', { hasText: 'GDef needs Python 3.11 or newer' });
    await toast.first().waitFor({ timeout: 30_000 });
    const text = await toast.first().innerText();
    assert.ok(text.includes('Install Python 3.11+ (python.org, or your system\'s package manager) so that python3 is on PATH'), text);
    assert.ok(text.includes('gdef.server.command'), text);
    assert.ok(text.includes('Open Settings'), text);
  });
});
