// Takes the README's screenshots in a real VS Code (the same harness as the end-to-end tests):
//   node screenshots.mjs   -> ../../../vscode-extension/images/screenshots/*.png
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CTRL, ROOT, boxOf, goTo, openFile, openVSCode, runCommand, SCREENSHOT_SETTINGS } from './harness.mjs';

const out = join(ROOT, 'vscode-extension', 'images', 'screenshots');
mkdirSync(out, { recursive: true });
const workspace = mkdtempSync(join(tmpdir(), 'gdef-shots-'));
const folder = join(workspace, 'games');
mkdirSync(folder);
copyFileSync(join(ROOT, 'tests', 'data', 'lint', 'seed', 'original_tictactoe.gdef'), join(folder, 'original.gdef'));
copyFileSync(join(ROOT, 'examples', 'tictactoe.gdef'), join(folder, 'tictactoe.gdef'));

const vscode = await openVSCode({
  folder,
  viewport: { width: 1280, height: 760 },
  settings: {
    ...SCREENSHOT_SETTINGS,
  },
});
const { page } = vscode;
try {
  // 1. the original tic-tac-toe's bug, in the editor and the Problems panel
  await openFile(page, 'original.gdef');
  await page.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
  await page.keyboard.press(`${CTRL}+Shift+M`);
  await page.locator('.markers-panel .monaco-tl-row').first().waitFor();
  const squiggle = await page.locator('.squiggly-error').first().boundingBox();
  await page.mouse.move(squiggle.x + squiggle.width / 2, squiggle.y + squiggle.height / 2);
  await page.locator('.monaco-hover:not(.hidden)', { hasText: 'cannot compare' }).first().waitFor({ timeout: 20_000 });
  await page.screenshot({ path: join(out, 'diagnostics.png') });
  await page.mouse.move(5, 5);
  await page.keyboard.press(`${CTRL}+J`); // hide the panel

  // 2. completion with documentation
  await openFile(page, 'tictactoe.gdef');
  await goTo(page, 42, 1);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('obj here = Curr');
  await page.keyboard.press(`${CTRL}+Space`);
  await page.locator('.suggest-widget .monaco-list-row', { hasText: 'CurrentPosition' }).first().waitFor({ timeout: 20_000 });
  const details = page.locator('.suggest-details', { hasText: 'The object on square' });
  if (!(await details.isVisible())) {
    await page.keyboard.press(`${CTRL}+Space`);
  }
  await details.first().waitFor();
  await page.screenshot({ path: join(out, 'completion.png') });
  await page.keyboard.press('Escape');
  await runCommand(page, 'File: Revert File');

  // 3. Run game: the code lens, and a move played in the terminal
  await goTo(page, 22, 1);
  const lens = page.locator('.codelens-decoration a', { hasText: 'Run game' });
  await lens.first().waitFor({ timeout: 30_000 });
  await lens.first().click();
  const terminal = page.locator('.terminal-wrapper.active .xterm-rows');
  await terminal.filter({ hasText: 'Player 0 to move' }).waitFor({ timeout: 30_000 });
  await page.locator('.terminal-wrapper.active .xterm').click();
  await page.keyboard.type('place(1,1,X)');
  await page.keyboard.press('Enter');
  await terminal.filter({ hasText: 'Player 1 to move' }).waitFor({ timeout: 30_000 });
  await page.keyboard.type('place(0,2,O)');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, 'run-game.png') });
  console.log(`screenshots written to ${out}`);
} finally {
  await vscode.stop();
  rmSync(workspace, { recursive: true, force: true });
}
