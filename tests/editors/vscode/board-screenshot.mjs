// Takes the board panel's screenshot for docs/editors.md and the README in a real VS Code
// (the harness of the end-to-end tests):
//   node board-screenshot.mjs   -> ../../../docs/images/vscode-board.png
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openFile, openVSCode, SCREENSHOT_SETTINGS } from './harness.mjs';

const workspace = mkdtempSync(join(tmpdir(), 'gdef-shots-'));
const folder = join(workspace, 'games');
mkdirSync(folder);
copyFileSync(join(ROOT, 'examples', 'connect4.gdef'), join(folder, 'connect4.gdef'));

const vscode = await openVSCode({
  folder,
  viewport: { width: 1500, height: 820 },
  settings: {
    ...SCREENSHOT_SETTINGS,
    'workbench.sideBar.location': 'right',
  },
});
const { page } = vscode;
try {
  await openFile(page, 'connect4.gdef');
  await page.keyboard.press('Control+B'); // no side bar: room for the rules and the board
  await page.locator('.editor-actions a[aria-label^="Show Board"], .editor-actions a[aria-label^="GDef: Show Board"]').first().click();
  const board = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  await board.locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 90_000 });
  await board.locator('#agent-1').selectOption('greedy');
  for (const x of [3, 3, 2]) {
    const before = await board.locator('#moves li').count();
    await board.locator(`#legal li[title^="place(${x},"]`).first().click(); // listed by name, operations in the title
    await board.locator('#moves li').nth(before + 1).waitFor({ timeout: 30_000 });
    await board.locator('#status', { hasText: 'Player 0 to move' }).waitFor({ timeout: 30_000 });
  }
  await page.mouse.move(5, 5);
  await page.waitForTimeout(500);
  const out = join(ROOT, 'docs', 'images', 'vscode-board.png');
  await page.screenshot({ path: out });
  console.log(`screenshot written to ${out}`);
} finally {
  await vscode.stop();
  rmSync(workspace, { recursive: true, force: true });
}
