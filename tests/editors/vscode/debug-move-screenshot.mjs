// Takes the screenshot of "Debug this move" for docs/debugging.md in a real VS Code (the harness
// of the end-to-end tests): a move the board panel refused, debugged, the board showing the
// position being debugged.
//   node debug-move-screenshot.mjs   -> ../../../docs/images/vscode-debug-move.png
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openFile, openVSCode, runCommand, SCREENSHOT_SETTINGS } from './harness.mjs';

const workspace = mkdtempSync(join(tmpdir(), 'gdef-shots-'));
const folder = join(workspace, 'games');
mkdirSync(folder);
copyFileSync(join(ROOT, 'examples', 'tictactoe.gdef'), join(folder, 'tictactoe.gdef'));

const vscode = await openVSCode({ folder, viewport: { width: 1500, height: 860 }, settings: SCREENSHOT_SETTINGS });
const { page } = vscode;
try {
  await openFile(page, 'tictactoe.gdef');
  await runCommand(page, 'GDef: Show Board');
  const board = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await board.locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 90_000 });
  for (const move of ['place(1,1,X)', 'place(0,0,O)', 'place(2,2,X)']) {
    await board.locator('#move-text').fill(move);
    await board.locator('#play').click();
    await board.locator('#moves li', { hasText: /./ }).last().waitFor({ timeout: 30_000 });
  }
  await board.locator('#status', { hasText: 'Player 1 to move' }).waitFor({ timeout: 30_000 });
  await board.locator('#move-text').fill('place(1,1,O)');
  await board.locator('#play').click();
  await board.locator('#debug-move').click();
  await board.locator('#status', { hasText: 'Debugging: isMoveLegal()' }).waitFor({ timeout: 60_000 });
  await page.locator('.monaco-editor .view-lines').first().click();
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('F10');
    await page.waitForTimeout(700);
  }
  await page.mouse.move(5, 5);
  await page.waitForTimeout(800);
  const out = join(ROOT, 'docs', 'images', 'vscode-debug-move.png');
  await page.screenshot({ path: out });
  console.log(`screenshot written to ${out}`);
} finally {
  await vscode.stop();
  rmSync(workspace, { recursive: true, force: true });
}
