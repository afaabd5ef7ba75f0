// Unit tests of the choice of Python and gdef (src/pythonChoice.ts), with made-up interpreters,
// and of the probe script in a real Python ($GDEF_PYTHON or python3, 3.11 or newer).
//   npm run test:unit
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  Bundle, Candidate, ChoiceOptions, PROBE_SCRIPT, Probe, chooseServer, compareVersions, loadBundle, parseProbe, settingPython,
} from '../../src/pythonChoice';

const BUNDLE: Bundle = { gdef: '0.1.0', requiresPython: [3, 11], libs: '/ext/bundled/libs' };
const OPTIONS: ChoiceOptions = { cwd: '/work', bundle: BUNDLE, pythonExtension: false, path: '/usr/bin' };

/** A probe answering from a table, recording which interpreters it was asked about. */
function fakeProbe(table: Record<string, Probe>) {
  const asked: string[] = [];
  const probe = (python: string): Promise<Probe> => {
    asked.push(python);
    return Promise.resolve(table[python] ?? { kind: 'missing' });
  };
  return { probe, asked };
}

const py = (version: number[], more: { gdef?: string; gdefError?: string } = {}): Probe => ({ kind: 'python', version, ...more });

async function choose(candidates: Candidate[], table: Record<string, Probe>, options: Partial<ChoiceOptions> = {}) {
  const { probe, asked } = fakeProbe(table);
  const resolution = await chooseServer(candidates, probe, { ...OPTIONS, ...options });
  return { resolution, asked };
}

describe('compareVersions', () => {
  test('compares the numbers of dotted versions', () => {
    assert.ok(compareVersions('0.10.0', '0.9.1') > 0);
    assert.ok(compareVersions('0.1.0', '0.2') < 0);
    assert.equal(compareVersions('1.2', '1.2.0'), 0);
    assert.equal(compareVersions('1.2.dev3', '1.2'), 0);
    assert.ok(compareVersions('3.9.18', '3.11') < 0);
    assert.ok(compareVersions('3.12.1', '3.11') > 0);
  });
});

describe('settingPython', () => {
  test('recognises an interpreter, alone or running -m gdef_lsp', () => {
    assert.equal(settingPython(['/usr/bin/python3']), '/usr/bin/python3');
    assert.equal(settingPython(['/opt/py/bin/python3.12', '-m', 'gdef_lsp']), '/opt/py/bin/python3.12');
    assert.equal(settingPython(['python']), 'python');
    assert.equal(settingPython(['/venv/Scripts/python.exe']), '/venv/Scripts/python.exe');
  });
  test('leaves other commands alone', () => {
    assert.equal(settingPython(['/venv/bin/gdef-lsp']), undefined);
    assert.equal(settingPython(['/usr/bin/python3', '-m', 'other_server']), undefined);
    assert.equal(settingPython(['/usr/bin/python3', '-m', 'gdef_lsp', '--log-level', 'DEBUG']), undefined);
  });
});

describe('chooseServer', () => {
  test('a Python without gdef runs the bundled copy, with the bundle first on PYTHONPATH', async () => {
    const { resolution } = await choose([{ python: '/usr/bin/python3', source: 'path' }], { '/usr/bin/python3': py([3, 11, 2]) },
      { pythonPath: '/mine' });
    assert.ok('command' in resolution);
    assert.deepEqual(resolution.command, {
      command: '/usr/bin/python3', args: ['-m', 'gdef_lsp'], source: 'path', python: '/usr/bin/python3', cwd: '/work',
      env: { PYTHONPATH: `/ext/bundled/libs${delimiter}/mine`, PYTHONSAFEPATH: '1' }, gdef: 'bundled', note: undefined,
    });
  });

  test('gdef installed in the interpreter wins when it is as new as the bundled one or newer', async () => {
    for (const version of ['0.1.0', '0.2.0', '1.0']) {
      const { resolution } = await choose([{ python: '/venv/bin/python', source: 'python' }],
        { '/venv/bin/python': py([3, 12, 0], { gdef: version }) });
      assert.ok('command' in resolution);
      assert.equal(resolution.command.env, undefined, version);
      assert.equal(resolution.command.gdef, version);
      assert.deepEqual([resolution.command.command, ...resolution.command.args], ['/venv/bin/python', '-m', 'gdef_lsp']);
    }
  });

  test('an older installed gdef, or a broken one, gives way to the bundled copy, saying why', async () => {
    let { resolution } = await choose([{ python: '/venv/bin/python', source: 'python' }],
      { '/venv/bin/python': py([3, 11, 0], { gdef: '0.0.9' }) });
    assert.ok('command' in resolution);
    assert.equal(resolution.command.gdef, 'bundled');
    assert.match(resolution.command.note ?? '', /gdef 0\.0\.9 installed in \/venv\/bin\/python is older than the bundled gdef 0\.1\.0/);
    ({ resolution } = await choose([{ python: '/venv/bin/python', source: 'python' }],
      { '/venv/bin/python': py([3, 11, 0], { gdefError: "ModuleNotFoundError: No module named 'pygls'" }) }));
    assert.ok('command' in resolution);
    assert.equal(resolution.command.gdef, 'bundled');
    assert.match(resolution.command.note ?? '', /No module named 'pygls'/);
  });

  test('tries the candidates in order and stops at the first usable one', async () => {
    const { resolution, asked } = await choose([
      { python: '/gone/python3', source: 'python' },
      { python: '/usr/bin/python3', source: 'path' },
      { python: '/usr/bin/python3', source: 'path' },
      { python: '/opt/bin/python', source: 'path' },
      { python: '/later/python', source: 'path' },
    ], {
      '/usr/bin/python3': py([3, 9, 18]),
      '/opt/bin/python': py([3, 13, 1]),
      '/later/python': py([3, 12, 0], { gdef: '5.0' }),
    });
    assert.deepEqual(asked, ['/gone/python3', '/usr/bin/python3', '/opt/bin/python']);
    assert.ok('command' in resolution);
    assert.equal(resolution.command.command, '/opt/bin/python');
    assert.equal(resolution.command.gdef, 'bundled');
  });

  test('no Python 3.11 or newer: a message saying what to install, and each candidate\'s reason in the details', async () => {
    const { resolution } = await choose([
      { python: '/usr/bin/python3', source: 'path' },
      { python: '/usr/bin/python', source: 'path' },
      { python: '/bin/fake', source: 'path' },
    ], {
      '/usr/bin/python3': py([3, 9, 18]),
      '/usr/bin/python': py([2, 7, 18]),
      '/bin/fake': { kind: 'notPython', detail: 'fake: unknown option -c' },
    });
    assert.ok('problem' in resolution);
    assert.match(resolution.problem.message, /^GDef needs Python 3\.11 or newer to run its language server, and found none\. Install Python 3\.11\+/);
    assert.match(resolution.problem.message, /set gdef\.server\.command to \["\/path\/to\/python3"\]/);
    assert.doesNotMatch(resolution.problem.message, /Python extension/);
    assert.deepEqual(resolution.problem.remedies, ['openSettings', 'showOutput']);
    assert.equal(resolution.problem.detail, [
      'Tried:',
      '  /usr/bin/python3 (from PATH): Python 3.9.18 is older than 3.11',
      '  /usr/bin/python (from PATH): Python 2.7.18 is older than 3.11',
      '  /bin/fake (from PATH): does not run as Python (fake: unknown option -c)',
      'PATH: /usr/bin',
    ].join('\n'));
  });

  test('no Python at all, with the Python extension installed: it offers to select an interpreter', async () => {
    const { resolution } = await choose([], {}, { pythonExtension: true });
    assert.ok('problem' in resolution);
    assert.deepEqual(resolution.problem.remedies, ['selectInterpreter', 'openSettings', 'showOutput']);
    assert.match(resolution.problem.message, /or select an interpreter in the Python extension/);
    assert.match(resolution.problem.detail ?? '', /no Python: none configured, none selected, none on PATH/);
  });

  test('a Python in the setting that cannot serve is reported as the setting\'s problem', async () => {
    const { resolution } = await choose([{ python: '/old/python3', source: 'setting' }], { '/old/python3': py([3, 10, 4]) });
    assert.ok('problem' in resolution);
    assert.equal(resolution.problem.message, "The Python in the setting gdef.server.command, /old/python3, cannot run gdef's language server: " +
      'Python 3.10.4 is older than 3.11. Correct the setting (a Python 3.11 or newer), or clear it.');
    assert.deepEqual(resolution.problem.remedies, ['openSettings', 'showOutput']);
  });

  test('without a bundle (a development build) gdef must be installed, and the message says how', async () => {
    let { resolution } = await choose([{ python: '/usr/bin/python3', source: 'path' }], { '/usr/bin/python3': py([3, 11, 2]) },
      { bundle: undefined });
    assert.ok('problem' in resolution);
    assert.match(resolution.problem.message, /^gdef is not installed in \/usr\/bin\/python3: run "\/usr\/bin\/python3 -m pip install gdef"/);
    ({ resolution } = await choose([{ python: '/venv/bin/python', source: 'path' }], { '/venv/bin/python': py([3, 11, 2], { gdef: '0.0.1' }) },
      { bundle: undefined }));
    assert.ok('command' in resolution);
    assert.equal(resolution.command.gdef, '0.0.1');
  });
});

describe('parseProbe', () => {
  test('reads the JSON line, and anything else is not a Python', () => {
    assert.deepEqual(parseProbe('noise\n{"python": [3, 12, 1], "gdef": "0.1.0"}\n', ''),
      { kind: 'python', version: [3, 12, 1], gdef: '0.1.0', gdefError: undefined });
    assert.deepEqual(parseProbe('', 'SyntaxError: invalid syntax\n'), { kind: 'notPython', detail: 'SyntaxError: invalid syntax' });
    assert.deepEqual(parseProbe('{"python": "3"}', ''), { kind: 'notPython', detail: '{"python": "3"}' });
  });
});

describe('the probe script in a real Python', () => {
  const python = process.env.GDEF_PYTHON || 'python3';
  const dir = mkdtempSync(join(tmpdir(), 'gdef-probe-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The probe in `cwd`, without site-packages (-S): only the folder decides whether gdef is there. */
  function run(cwd: string): Promise<Probe> {
    return new Promise((resolve) => {
      execFile(python, ['-S', '-c', PROBE_SCRIPT], { cwd, env: { ...process.env, PYTHONPATH: '' } }, (_error, stdout, stderr) => resolve(parseProbe(stdout, stderr)));
    });
  }

  function fakeGdef(name: string, server: string): string {
    const root = join(dir, name);
    mkdirSync(join(root, 'gdef_core'), { recursive: true });
    mkdirSync(join(root, 'gdef_lsp'));
    writeFileSync(join(root, 'gdef_core', '__init__.py'), '__version__ = "9.8.7"\n');
    writeFileSync(join(root, 'gdef_lsp', '__init__.py'), '');
    writeFileSync(join(root, 'gdef_lsp', 'server.py'), server);
    return root;
  }

  test('finds a gdef importable from the workspace folder, with its version', async () => {
    const found = await run(fakeGdef('good', ''));
    assert.equal(found.kind, 'python');
    assert.ok(found.kind === 'python' && compareVersions(found.version.join('.'), '3.11') >= 0);
    assert.equal(found.kind === 'python' && found.gdef, '9.8.7');
  });

  test('reports a gdef whose dependencies are missing', async () => {
    const found = await run(fakeGdef('broken', 'import gdef_missing_dependency_xyz\n'));
    assert.deepEqual(found.kind === 'python' && [found.gdef, found.gdefError],
      [undefined, "ModuleNotFoundError: No module named 'gdef_missing_dependency_xyz'"]);
  });

  test('says nothing about gdef where there is none', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const found = await run(empty);
    assert.deepEqual(found.kind === 'python' && [found.gdef, found.gdefError], [undefined, undefined]);
  });
});

describe('loadBundle', () => {
  test('reads the manifest written at package time, and is undefined without one', () => {
    const ext = mkdtempSync(join(tmpdir(), 'gdef-ext-'));
    try {
      assert.equal(loadBundle(ext), undefined);
      mkdirSync(join(ext, 'bundled'));
      writeFileSync(join(ext, 'bundled', 'manifest.json'), JSON.stringify({ gdef: '0.1.0', requiresPython: [3, 11], libs: 'libs', packages: {} }));
      assert.deepEqual(loadBundle(ext), { gdef: '0.1.0', requiresPython: [3, 11], libs: join(ext, 'bundled', 'libs') });
    } finally {
      rmSync(ext, { recursive: true, force: true });
    }
  });
});
