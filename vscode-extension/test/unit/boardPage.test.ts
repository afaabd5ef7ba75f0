// Unit tests of the board panel's logic (src/boardPage.ts): the snapshot's layout, the paths
// made the user's again, the CSP'd webview page built from a real gdef-run --web's files, and
// the one-line summary of the errors a real gdef-run prints for broken rules.
// ($GDEF_PYTHON or python3 with gdef installed.)
//   npm run test:unit
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  allowedRequest, debugConfiguration, debuggedFiles, debuggedPosition, errorNotice, errorSummary, messageHtml, rewritePaths, servingAddress, snapshotLayout, usedFiles, webviewHtml,
  type ServingAddress,
} from '../../src/boardPage';

const PYTHON = process.env.GDEF_PYTHON || 'python3';
const CONNECT4 = resolve(__dirname, '..', '..', '..', 'examples', 'connect4.gdef');
const scratch = mkdtempSync(join(tmpdir(), 'gdef-board-unit-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('servingAddress', () => {
  test('reads the port and the token from the line gdef-run --web prints once it listens', () => {
    assert.deepEqual(servingAddress('Serving connect4 at http://127.0.0.1:41269/?token=a-B_9 (Ctrl-C stops and saves the record)'),
      { port: 41269, token: 'a-B_9' });
    assert.deepEqual(servingAddress('Serving my game at http://127.0.0.1:8/?token=t (Ctrl-C stops and saves the record)'),
      { port: 8, token: 't' });
  });
  test('ignores other lines, other hosts and addresses without a token', () => {
    assert.equal(servingAddress('Computer players: 1 = greedy (seed 5).'), undefined);
    assert.equal(servingAddress('Serving x at http://0.0.0.0:41269/?token=t (Ctrl-C)'), undefined);
    assert.equal(servingAddress('Serving x at http://127.0.0.1:41269/ (Ctrl-C)'), undefined);
  });
});

describe('usedFiles', () => {
  test('follows the use lines of a text, relative to its file', () => {
    const text = '/* use "not.gdef" inside a comment line that does not start with use */\nuse "lines.gdef"\n  use "../lib/x y.gdef";\nuse "notes.txt"\n';
    assert.deepEqual(usedFiles(text, '/w/games/ttt.gdef'), ['/w/games/lines.gdef', '/w/lib/x y.gdef']);
  });
  test('the examples that use a library name it', () => {
    const chess = resolve(__dirname, '..', '..', '..', 'examples', 'chess', 'chess.gdef');
    assert.deepEqual(usedFiles(readFileSync(chess, 'utf8'), chess), [resolve(chess, '..', 'rules.gdef')]);
  });
});

describe('snapshotLayout', () => {
  test('keeps the files laid out relative to the folder that holds them all', () => {
    const { copies, root } = snapshotLayout(['/w/games/chess/chess.gdef', '/w/games/chess/rules.gdef', '/w/games/lib/lines.gdef'], '/tmp/s');
    assert.equal(root, '/w/games');
    assert.deepEqual([...copies.values()], ['/tmp/s/chess/chess.gdef', '/tmp/s/chess/rules.gdef', '/tmp/s/lib/lines.gdef']);
  });
  test('a single file goes straight into the folder; a sibling named like a prefix is not inside', () => {
    assert.deepEqual([...snapshotLayout(['/w/a/c4.gdef'], '/tmp/s').copies.values()], ['/tmp/s/c4.gdef']);
    const { root } = snapshotLayout(['/w/ab/x.gdef', '/w/a/y.gdef'], '/tmp/s');
    assert.equal(root, '/w');
  });
});

describe('rewritePaths', () => {
  test('turns the snapshot copies named in a JSON answer into the user files', () => {
    const answer = JSON.stringify({ files: ['/tmp/gdef-board-1/game/c4.gdef'], location: '/tmp/gdef-board-1/game/c4.gdef:3:4' });
    const mapped = JSON.parse(rewritePaths(answer, '/tmp/gdef-board-1/game', '/home/me/my "games"')) as { files: string[]; location: string };
    assert.deepEqual(mapped.files, [`/home/me/my "games"${sep}c4.gdef`]);
    assert.equal(mapped.location, '/home/me/my "games"/c4.gdef:3:4');
  });
  test('leaves the record beside the snapshot alone', () => {
    const answer = JSON.stringify({ path: '/tmp/gdef-board-1/record.json' });
    assert.equal(rewritePaths(answer, '/tmp/gdef-board-1/game', '/home/me'), answer);
  });
});

describe('allowedRequest', () => {
  test('passes on the API only, GET and POST each to their own paths', () => {
    assert.ok(allowedRequest('/api/state', false));
    assert.ok(allowedRequest('/api/legal?touching=1%2C2', false));
    assert.ok(allowedRequest('/api/move', true));
    assert.ok(allowedRequest('/api/move-now', true)); // the board's Move now, while the computer thinks
    assert.equal(allowedRequest('/api/move', false), false);
    assert.equal(allowedRequest('/api/state', true), false);
    assert.equal(allowedRequest('/api/move?file=/etc/passwd', true), false);
    assert.equal(allowedRequest('/static/app.js', false), false);
    assert.equal(allowedRequest('http://example.com/api/state', false), false);
    assert.equal(allowedRequest(42, false), false);
  });
});

describe('the page of a real gdef-run --web, and its errors', () => {
  test('the webview page inlines the style sheet and the script under a nonce and allows nothing else', async () => {
    const child = spawn(PYTHON, ['-m', 'gdef_core.cli.run', '--web', '--no-browser', CONNECT4],
      { env: { ...process.env, PYTHONUNBUFFERED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { port, token } = await new Promise<ServingAddress>((resolvePort, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = out.split('\n').map(servingAddress).find((a) => a !== undefined);
          if (found !== undefined) {
            resolvePort(found);
          }
        });
        child.on('exit', (code) => reject(new Error(`gdef-run exited with ${code}: ${out}`)));
      });
      const fetchText = (path: string) => new Promise<string>((ok, fail) => {
        get({ host: '127.0.0.1', port, path }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => ok(text));
        }).on('error', fail);
      });
      const [index, css, js] = await Promise.all(['/', '/static/style.css', '/static/app.js'].map(fetchText));
      const html = webviewHtml(index, css, js, 'N0nce+/=');
      assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-N0nce\+\/='; script-src 'nonce-N0nce\+\/=';[^"]*connect-src 'none'/);
      assert.doesNotMatch(html, /src="\/static|href="\/static/, 'nothing is loaded from the network');
      assert.equal(html.match(/<script nonce="N0nce\+\/=">/g)?.length, 1);
      assert.equal(html.match(/<style nonce="N0nce\+\/=">/g)?.length, 1);
      assert.ok(html.indexOf('<script nonce') > html.indexOf('id="position"'), 'the script runs after the elements it finds exist');
      assert.ok(html.includes('acquireVsCodeApi'), 'the page knows how to talk to the extension');
      assert.ok(html.includes('id="notice"'));
      // the API takes the token read from the child's address (as the panel sends it), and nothing else
      const status = (headers: Record<string, string>) => new Promise<number | undefined>((ok, fail) => {
        get({ host: '127.0.0.1', port, path: '/api/state', headers }, (response) => {
          response.resume().on('end', () => ok(response.statusCode));
        }).on('error', fail);
      });
      assert.equal(await status({ 'X-Gdef-Token': token }), 200);
      assert.equal(await status({}), 403);
      assert.equal(await status({ 'X-Gdef-Token': `${token}x` }), 403);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('the errors of broken rules become one line naming the user\'s file', () => {
    const snapshot = join(scratch, 'game');
    mkdirSync(snapshot, { recursive: true });
    const broken = readFileSync(CONNECT4, 'utf8').replace('size: 7 x 6', 'size: 7 + x 6');
    writeFileSync(join(snapshot, 'connect4.gdef'), broken);
    const run = spawnSync(PYTHON, ['-m', 'gdef_core.cli.run', '--web', '--no-browser', join(snapshot, 'connect4.gdef')],
      { encoding: 'utf8', timeout: 60_000 });
    assert.notEqual(run.status, 0);
    const summary = errorSummary(run.stderr, snapshot, '/home/me/games');
    assert.equal(summary, "connect4.gdef:19:9: error[G101]: unexpected '+'; expected a definition (define, obj, start, use, or a game " +
      "parameter such as 'players:') (and 3 more)");
    assert.equal(errorNotice('connect4.gdef', summary).split('\n')[0], 'connect4.gdef has errors, so the board shows the last version without errors.');
  });

  test('a failure without diagnostics keeps its own words', () => {
    assert.equal(errorSummary('Traceback...\ngdef-run: error: cannot read x.gdef\n', '/s', '/r'), 'gdef-run: error: cannot read x.gdef');
    assert.equal(errorSummary('', '/s', '/r'), 'gdef-run stopped without saying why');
  });

  test('a message page escapes what it shows and allows no script', () => {
    const html = messageHtml('a<b>.gdef', 'x & "y"', 'n');
    assert.ok(html.includes('a&lt;b&gt;.gdef') && html.includes('x &amp; &quot;y&quot;'));
    assert.doesNotMatch(html, /<script/);
  });
});

describe('Debug this move', () => {
  test('the launch configuration comes from a real gdef-run --web, with the user\'s files as its program', async () => {
    const tictactoe = resolve(__dirname, '..', '..', '..', 'examples', 'tictactoe.gdef');
    const state = join(scratch, 'state');
    const child = spawn(PYTHON, ['-m', 'gdef_core.cli.run', '--web', '--no-browser', tictactoe],
      { env: { ...process.env, PYTHONUNBUFFERED: '1', XDG_STATE_HOME: state }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { port, token } = await new Promise<ServingAddress>((found, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const address = out.split('\n').map(servingAddress).find((a) => a !== undefined);
          if (address !== undefined) {
            found(address);
          }
        });
        child.on('exit', (code) => reject(new Error(`gdef-run exited with ${code}: ${out}`)));
      });
      const post = (path: string, body: unknown) => new Promise<unknown>((ok, fail) => {
        const payload = Buffer.from(JSON.stringify(body));
        request({ host: '127.0.0.1', port, path, method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, 'X-Gdef-Token': token } }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => ok(JSON.parse(text)));
        }).on('error', fail).end(payload);
      });
      assert.equal((await post('/api/move', { move: 'place(1,1,X)' }) as { accepted: boolean }).accepted, true);
      assert.equal((await post('/api/move', { move: 'place(1,1,O)' }) as { kind: string }).kind, 'rejected');
      const answer = await post('/api/debug', { move: 'place(1,1,O)' });
      const launch = debugConfiguration(answer, ['/home/me/ttt.gdef']);
      assert.ok(launch);
      assert.deepEqual({ ...launch, resume: '' }, { type: 'gdef', request: 'launch', name: 'Debug move 2: place(1,1,O)',
        program: '/home/me/ttt.gdef', resume: '', debugMove: 'place(1,1,O)' });
      assert.ok(launch.resume.startsWith(join(state, 'gdef', 'records')), launch.resume);
      const record = JSON.parse(readFileSync(launch.resume, 'utf8')) as { moves: { move: string }[] };
      assert.deepEqual(record.moves.map((m) => m.move), ['place(1,1,X)']);
      assert.deepEqual(debugConfiguration(answer, ['/a.gdef', '/b.gdef'])?.program, ['/a.gdef', '/b.gdef']);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('anything else is not a launch configuration', () => {
    assert.equal(debugConfiguration({ error: 'no' }, ['/a.gdef']), undefined);
    assert.equal(debugConfiguration(null, ['/a.gdef']), undefined);
    assert.equal(debugConfiguration({ launch: { type: 'python', request: 'launch', name: 'x', resume: 'r', debugMove: 'm' } }, ['/a.gdef']), undefined);
    assert.equal(debugConfiguration({ launch: { type: 'gdef', request: 'launch', name: 'x', resume: 'r', debugMove: 'm' } }, []), undefined);
  });
});

describe('the board follows the debugged position', () => {
  test('a session is matched to a board by the files of its program', () => {
    assert.deepEqual(debuggedFiles({ program: '/w/ttt.gdef' }), ['/w/ttt.gdef']);
    assert.deepEqual(debuggedFiles({ program: ['/w/chess.gdef', '/w/rules.gdef', 3] }), ['/w/chess.gdef', '/w/rules.gdef']);
    assert.deepEqual(debuggedFiles({}), []);
  });
  test('the adapter\'s gdef/position body is checked before the page draws it', () => {
    const body = { title: 'isMoveLegal() judging move 3: place(1,1,X)', board: [[0, 0, 'X'], [1, 1, 'O']], player: 0, moveNumber: 2,
      move: [[1, 1, 'X'], [2, 2, null]] };
    assert.deepEqual(debuggedPosition(body), body);
    assert.equal(debuggedPosition({ ...body, board: [[0, 'a', 'X']] }), undefined);
    assert.equal(debuggedPosition({ ...body, title: 3 }), undefined);
    assert.equal(debuggedPosition('x'), undefined);
  });
});
