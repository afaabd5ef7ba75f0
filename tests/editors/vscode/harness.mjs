// A real VS Code for tests: code-server (VS Code from the npm registry) with the gdef .vsix
// installed, driven through Debian's Chromium by Playwright. Nothing is downloaded.
//
// Environment: GDEF_VSIX (default ../../../vscode-extension/gdef.vsix), GDEF_PYTHON (its folder
// goes first on PATH so the extension finds the Python with gdef there, as a user's activated
// venv would; `shellPath` replaces that PATH), CHROMIUM (default /usr/bin/chromium).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '..', '..', '..');
const CODE_SERVER = join(here, 'node_modules', '.bin', 'code-server');
export const PYTHON = process.env.GDEF_PYTHON || 'python3';

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHttp(url, timeoutMs, process) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) {
      throw new Error(`code-server exited with ${process.exitCode}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs} ms`);
}

/** The absolute path of the Python that runs gdef (PYTHON may be a bare name). */
function pythonPath() {
  return execFileSync(PYTHON, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
}

/** The example tasks.json of docs/editors.md written into `folder`/.vscode, as a user would copy it. */
export function copyDocumentedTasks(folder) {
  const docs = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const tasks = [...docs.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1]).find((b) => b.includes('"tasks"'));
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(join(folder, '.vscode', 'tasks.json'), tasks);
}

/**
 * A test file's VS Code on a folder of its own: before the file's tests, the folder `name` in a
 * new temporary workspace (`prefix`), filled by `fill(folder)`, opened in code-server
 * (`options` as openVSCode's), then `opened({ workspace, folder, vscode, page })`; after them,
 * VS Code stopped and the workspace removed.
 */
export function vscodeOnFolder(prefix, name, fill, opened, options = {}) {
  let workspace;
  let vscode;
  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), prefix));
    const folder = join(workspace, name);
    mkdirSync(folder);
    await fill(folder);
    vscode = await openVSCode({ folder, ...options });
    opened({ workspace, folder, vscode, page: vscode.page });
  });
  after(async () => {
    await vscode?.stop();
    if (workspace) {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
}

/**
 * Starts code-server on a fresh profile with the extension installed and `settings`, opens
 * `folder` in Chromium, and returns { page, userDir, log, stop }. `shellPath`: the PATH of the
 * user's login shell (default: GDEF_PYTHON's folder, then the usual PATH).
 */
export async function openVSCode({ folder, settings = {}, viewport = { width: 1400, height: 900 }, shellPath }) {
  const base = mkdtempSync(join(tmpdir(), 'gdef-code-server-'));
  const dirs = { user: join(base, 'user'), ext: join(base, 'ext'), xdg: join(base, 'xdg'), home: join(base, 'home') };
  mkdirSync(join(dirs.user, 'User'), { recursive: true });
  // VS Code takes the extension host's environment from the user's login shell: a profile
  // that puts gdef's environment on PATH is how a user makes `gdef-lsp` findable.
  mkdirSync(dirs.home);
  const profile = `export PATH="${shellPath ?? `${dirname(pythonPath())}:$PATH`}"\n`;
  for (const rc of ['.profile', '.bashrc']) {
    writeFileSync(join(dirs.home, rc), profile);
  }
  writeFileSync(join(dirs.user, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'files.autoSave': 'off', // VS Code in a browser saves after 1 s by default: a typed mistake must stay unsaved
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'security.workspace.trust.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'terminal.integrated.gpuAcceleration': 'off',
    'window.restoreWindows': 'none',
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    // code-server saves after 1 s by default (VS Code for the web does): a test that undoes an
    // edit with "Revert File" must not race the autosave on a loaded machine
    'files.autoSave': 'off',
    ...settings,
  }, null, 2));
  const env = {
    ...process.env,
    HOME: dirs.home,
    SHELL: '/bin/bash',
    XDG_CONFIG_HOME: join(dirs.xdg, 'config'),
    XDG_DATA_HOME: join(dirs.xdg, 'data'),
    XDG_CACHE_HOME: join(dirs.xdg, 'cache'),
  };
  const vsix = process.env.GDEF_VSIX || join(ROOT, 'vscode-extension', 'gdef.vsix');
  execFileSync(CODE_SERVER, ['--extensions-dir', dirs.ext, '--user-data-dir', dirs.user, '--install-extension', vsix],
    { env, stdio: 'pipe' });

  const port = await freePort();
  let log = '';
  const server = spawn(CODE_SERVER, [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', dirs.user, '--extensions-dir', dirs.ext,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', folder,
  ], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (chunk) => { log += chunk; });
  server.stderr.on('data', (chunk) => { log += chunk; });

  let browser;
  const stop = async () => {
    await browser?.close().catch(() => undefined);
    try {
      process.kill(-server.pid, 'SIGTERM'); // the whole group: the extension host and our server too
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 300));
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, server);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage({ viewport });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    return { page, userDir: dirs.user, log: () => log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const isMac = false;
export const CTRL = isMac ? 'Meta' : 'Control';

/** Runs a command from the command palette by its exact title. */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(title) }) }).first().click();
}

function exactly(text) {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** Opens a file of the workspace with Quick Open and waits for its editor. */
export async function openFile(page, name) {
  await page.keyboard.press(`${CTRL}+P`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(name);
  await page.locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(name) }) }).first().click();
  await page.locator('.tab.active').filter({ has: page.locator('.label-name', { hasText: exactly(name) }) }).waitFor();
  await page.locator('.monaco-editor .view-lines').first().waitFor();
}

/** Moves the cursor to a 1-based line and column with Go to Line. */
export async function goTo(page, line, column) {
  await page.keyboard.press(`${CTRL}+G`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}:${column}`);
  // Enter again when the first was lost (a loaded machine: the picker still open after 10 s,
  // as once in a clean-clone run); never after it closed, where Enter would go to the editor
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Enter');
    try {
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The screen box of the first rendered occurrence of `text` in the editor. */
export async function boxOf(page, text) {
  const span = page.locator('.monaco-editor .view-line span span', { hasText: text }).first();
  await span.waitFor();
  return span.boundingBox();
}

export async function dismissNotifications(page) {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
}

// Where a failed test leaves its evidence: $GDEF_E2E_ARTIFACTS (default: a temp folder).
const ARTIFACTS = process.env.GDEF_E2E_ARTIFACTS || join(tmpdir(), 'gdef-e2e-artifacts');

/** `check(name, body)`: a test that, when it fails, leaves a screenshot of what the editor
 * showed and code-server's log, named `PREFIX<name>.png`. `current()` gives the running
 * VS Code (openVSCode's result), which a file may replace between tests. */
export function checkWithEvidence(prefix, current) {
  return (name, body) => test(name, async () => {
    try {
      await body();
    } catch (error) {
      const vscode = current();
      mkdirSync(ARTIFACTS, { recursive: true });
      const shot = join(ARTIFACTS, `${prefix}${name.replace(/[^A-Za-z0-9]+/g, '-')}.png`);
      await vscode?.page.screenshot({ path: shot }).catch(() => undefined);
      writeFileSync(`${shot}.log`, vscode?.log() ?? '');
      error.message += ` (screenshot: ${shot})`;
      throw error;
    }
  });
}

/** The look of the screenshots in the docs (screenshots.mjs, board-screenshot.mjs). */
export const SCREENSHOT_SETTINGS = {
  'workbench.colorTheme': 'Default Dark Modern',
  'editor.fontSize': 14,
  'editor.minimap.enabled': false,
  'breadcrumbs.enabled': false,
  'workbench.activityBar.location': 'hidden',
};
