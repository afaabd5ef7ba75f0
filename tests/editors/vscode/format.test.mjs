// End-to-end: formatting .gdef files in a real VS Code (code-server + Chromium) with the
// extension's defaults and the one setting docs/editors.md documents for format on save.
// Each check compares the file VS Code wrote to disk with what `gdef-fmt` makes of the same
// text: Format Document, format on save, the project's indent width (gdef.toml), and a file
// with a syntax error, which is saved as typed, never mangled.
//
//   node --test format.test.mjs   (after `npm ci` here and `npm run package` in vscode-extension/)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { checkWithEvidence, CTRL, goTo, openFile, openVSCode, PYTHON, ROOT, runCommand } from './harness.mjs';

const MESSY = join(ROOT, 'tests', 'data', 'format');
const BROKEN = 'define f( ) -> int {\nreturn  1 + ;\n}\n';
let workspace;
let vscode;
let page;

/** The "[gdef]" settings docs/editors.md tells users to add for format on save. */
function documentedFormatOnSave() {
  const docs = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const found = /`("\[gdef\]": \{[^`]*"editor\.formatOnSave": true[^`]*\})`/.exec(docs);
  assert.ok(found, 'docs/editors.md documents "[gdef]": { "editor.formatOnSave": true }');
  return JSON.parse(`{${found[1]}}`);
}

/** What gdef-fmt (its console script's entry point) makes of `text` for a file at `path`. */
function gdefFmt(text, path) {
  return execFileSync(PYTHON, ['-c', 'from gdef_core.cli.fmt import main; main()', '-', '--stdin-filename', path],
    { input: text, encoding: 'utf8', cwd: workspace });
}

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'gdef-format-e2e-'));
  copyFileSync(join(MESSY, 'comments_at_line_ends.in.gdef'), join(workspace, 'messy.gdef'));
  copyFileSync(join(MESSY, 'else_if_chains.in.gdef'), join(workspace, 'saved.gdef'));
  mkdirSync(join(workspace, 'wide'));
  writeFileSync(join(workspace, 'wide', 'gdef.toml'), '[format]\nindent-width = 4\n');
  copyFileSync(join(MESSY, 'nested_loops.in.gdef'), join(workspace, 'wide', 'loops.gdef'));
  writeFileSync(join(workspace, 'broken.gdef'), BROKEN);
  vscode = await openVSCode({ folder: workspace, settings: documentedFormatOnSave() });
  page = vscode.page;
});

after(async () => {
  await vscode?.stop();
  if (workspace) {
    rmSync(workspace, { recursive: true, force: true });
  }
});

const check = checkWithEvidence('format-', () => vscode);

/** Waits until `name` on disk is `expected` (saving is asynchronous), then compares. */
async function assertOnDisk(name, expected, timeoutMs = 30_000) {
  const path = join(workspace, name);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && readFileSync(path, 'utf8') !== expected) {
    await page.waitForTimeout(200);
  }
  assert.equal(readFileSync(path, 'utf8'), expected, `${name} as VS Code saved it`);
}

/** Makes the open editor dirty without changing what the file means: a space after line 1. */
async function touchFirstLine() {
  await goTo(page, 1, 1);
  await page.keyboard.press('End');
  await page.keyboard.type(' ');
  await page.locator('.tab.active.dirty').waitFor({ timeout: 10_000 });
}

describe('formatting in VS Code rewrites a file to gdef-fmt\'s text', { concurrency: 1 }, () => {
  check('a file with a syntax error is left alone by Format Document and saved as typed', async () => {
    await openFile(page, 'broken.gdef');
    // the squiggle says the language server is running
    await page.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    await runCommand(page, 'Format Document');
    // the language client reports the refusal; its output says why
    const toast = page.locator('.notification-toast', { hasText: 'Request textDocument/formatting failed.' });
    await toast.first().waitFor({ timeout: 20_000 });
    await toast.first().locator('.monaco-button', { hasText: 'Go to output' }).click();
    await page.locator('.part.panel .view-lines', { hasText: 'not formatted: 1 syntax error (the first at line 2' })
      .first().waitFor({ timeout: 20_000 });
    await openFile(page, 'broken.gdef');
    await touchFirstLine();
    await page.keyboard.press(`${CTRL}+S`);
    await page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: 20_000 });
    await assertOnDisk('broken.gdef', BROKEN.replace('\n', ' \n'));
  });

  check('Format Document, then Save without Formatting', async () => {
    const messy = readFileSync(join(workspace, 'messy.gdef'), 'utf8');
    const expected = gdefFmt(messy, 'messy.gdef');
    assert.notEqual(expected, messy, 'the file has something to format');
    await openFile(page, 'messy.gdef');
    await runCommand(page, 'Format Document');
    await page.locator('.tab.active.dirty').waitFor({ timeout: 20_000 });
    await runCommand(page, 'File: Save without Formatting');
    await assertOnDisk('messy.gdef', expected);
  });

  check('format on save, as docs/editors.md sets it up', async () => {
    const messy = readFileSync(join(workspace, 'saved.gdef'), 'utf8');
    const expected = gdefFmt(messy, 'saved.gdef');
    assert.notEqual(expected, messy);
    await openFile(page, 'saved.gdef');
    await touchFirstLine();
    await page.keyboard.press(`${CTRL}+S`);
    await assertOnDisk('saved.gdef', expected);
  });

  check('the indent width of the project\'s gdef.toml, not the editor\'s tab size', async () => {
    const messy = readFileSync(join(workspace, 'wide', 'loops.gdef'), 'utf8');
    const expected = gdefFmt(messy, join('wide', 'loops.gdef'));
    assert.match(expected, /^ {8}for \(int y/m, 'gdef-fmt indents by 4 here');
    assert.notEqual(expected, gdefFmt(messy, 'loops.gdef'), 'and by 2 without the gdef.toml');
    await openFile(page, 'loops.gdef');
    await touchFirstLine();
    await page.keyboard.press(`${CTRL}+S`);
    await assertOnDisk(join('wide', 'loops.gdef'), expected);
  });
});
