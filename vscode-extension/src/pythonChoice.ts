/**
 * Which Python runs the gdef language server, and which gdef it runs: the decision alone, free
 * of VS Code so that unit tests can drive it with made-up interpreters.
 *
 * The .vsix carries gdef and its pure-Python dependencies (bundled/, written at package time by
 * scripts/bundle_server.py). Candidates are tried in order (the setting, the Python extension's
 * interpreter, python3/python on PATH); the first that runs as Python decides:
 *   - gdef installed there (importable in the workspace folder), not older than the bundled
 *     one: `python -m gdef_lsp` of that installation (a project's newer gdef wins);
 *   - else, Python >= the bundle's minimum: the bundled gdef, `python -m gdef_lsp` with
 *     PYTHONPATH=bundled/libs (and PYTHONSAFEPATH, so the workspace folder cannot shadow it);
 *   - else (too old, not found, not a Python): the next candidate.
 */
import * as fs from 'fs';
import * as path from 'path';

export type CandidateSource = 'setting' | 'python' | 'path';

export interface Candidate {
  python: string;
  source: CandidateSource;
}

/** The server vendored into the extension (bundled/manifest.json). */
export interface Bundle {
  gdef: string;
  requiresPython: number[];
  /** Absolute path of the folder to put on PYTHONPATH. */
  libs: string;
}

/** What running the probe script in an interpreter showed. */
export type Probe =
  | { kind: 'missing' }
  | { kind: 'notPython'; detail: string }
  | {
    kind: 'python';
    version: number[];
    /** gdef's version when `import gdef_lsp.server` worked there. */
    gdef?: string;
    /** Why the import failed, when gdef is there but broken (a missing dependency ...). */
    gdefError?: string;
  };

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from: shown in messages so the user knows what to change. */
  source: CandidateSource;
  /** The interpreter that runs `-m gdef_lsp`, when that is how the server starts. */
  python?: string;
  /** The folder the server runs in (Python puts it on sys.path for `-m`). */
  cwd: string;
  /** Added to the environment of the server and of gdef's tools run beside it. */
  env?: Record<string, string>;
  /** The gdef that runs: 'bundled', or the version installed in the interpreter. */
  gdef?: string;
  /** Why this command was chosen over the usual one, for the server output. */
  note?: string;
}

/** What the user can do about a problem; each becomes a button on the message. */
export type Remedy = 'selectInterpreter' | 'openSettings' | 'showOutput';

export interface StartProblem {
  message: string;
  remedies: Remedy[];
  /** More for the output channel than fits in a notification. */
  detail?: string;
}

export type Resolution = { command: ServerCommand } | { problem: StartProblem };

/**
 * Printed by every candidate: one JSON line. Written for any Python (no f-strings) so that an
 * old interpreter still answers with its version instead of a syntax error.
 */
export const PROBE_SCRIPT = [
  'import json, sys',
  'info = {"python": list(sys.version_info[:3])}',
  'if sys.version_info >= (3, 11):',
  '    try:',
  '        import gdef_lsp.server, gdef_core',
  '        info["gdef"] = gdef_core.__version__',
  '    except ImportError as e:',
  '        if getattr(e, "name", None) not in ("gdef_lsp", "gdef_core"):',
  '            info["gdefError"] = "%s: %s" % (type(e).__name__, e)',
  '    except Exception as e:',
  '        info["gdefError"] = "%s: %s" % (type(e).__name__, e)',
  'print(json.dumps(info))',
].join('\n');

/** The probe's answer from its stdout, or a notPython probe when it is not one. */
export function parseProbe(stdout: string, stderr: string): Probe {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const info = JSON.parse(line) as { python?: unknown; gdef?: unknown; gdefError?: unknown };
    if (Array.isArray(info.python) && info.python.every((n) => typeof n === 'number')) {
      return {
        kind: 'python',
        version: info.python,
        gdef: typeof info.gdef === 'string' ? info.gdef : undefined,
        gdefError: typeof info.gdefError === 'string' ? info.gdefError : undefined,
      };
    }
  } catch {
    // not JSON: not a Python, or a broken one
  }
  const said = (stderr.trim().split('\n').pop() || stdout.trim().split('\n').pop() || 'no answer').slice(0, 200);
  return { kind: 'notPython', detail: said };
}

/**
 * Compares dotted versions by their leading numbers ("0.10.0" > "0.9.1"; "1.2.dev3" = "1.2"):
 * negative, zero or positive.
 */
export function compareVersions(a: string, b: string): number {
  const numbers = (v: string) => (v.match(/^\d+(\.\d+)*/)?.[0] ?? '0').split('.').map(Number);
  const [x, y] = [numbers(a), numbers(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) {
      return d;
    }
  }
  return 0;
}

/** A `gdef.server.command` that names a Python (`[python]` or `[python, -m, gdef_lsp]`) rather than a server. */
export function settingPython(command: string[]): string | undefined {
  const [program, ...args] = command;
  const isPython = /^(python|pypy)[\d.]*w?(\.exe)?$/i.test(path.basename(program));
  const runsServer = args.length === 0 || (args.length === 2 && args[0] === '-m' && args[1] === 'gdef_lsp');
  return isPython && runsServer ? program : undefined;
}

/** Reads bundled/manifest.json of the extension; undefined in a development build without one. */
export function loadBundle(extensionPath: string): Bundle | undefined {
  const folder = path.join(extensionPath, 'bundled');
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Partial<Bundle>;
    if (typeof manifest.gdef === 'string' && Array.isArray(manifest.requiresPython) && typeof manifest.libs === 'string') {
      return { gdef: manifest.gdef, requiresPython: manifest.requiresPython, libs: path.join(folder, manifest.libs) };
    }
  } catch {
    // no bundle
  }
  return undefined;
}

/** The environment additions that make `python -m gdef_lsp` run the bundled copy. */
export function bundleEnv(bundle: Bundle, pythonPath: string | undefined): Record<string, string> {
  return {
    PYTHONPATH: pythonPath ? `${bundle.libs}${path.delimiter}${pythonPath}` : bundle.libs,
    PYTHONSAFEPATH: '1', // Python 3.11+: the current folder does not go first on sys.path
  };
}

const SOURCE_LABELS: Record<CandidateSource, string> = {
  setting: 'the setting gdef.server.command',
  python: "the Python extension's selected interpreter",
  path: 'PATH',
};

export function describeSource(source: CandidateSource): string {
  return SOURCE_LABELS[source];
}

export interface ChoiceOptions {
  cwd: string;
  bundle: Bundle | undefined;
  /** The PYTHONPATH the server would inherit (kept after the bundle's folder). */
  pythonPath?: string;
  /** Whether the Python extension is installed (then "Select Interpreter" can help). */
  pythonExtension: boolean;
  /** The PATH searched, for the details of a problem. */
  path?: string;
}

/** The first usable candidate as a server command, or a problem listing what each candidate lacked. */
export async function chooseServer(
  candidates: Candidate[],
  probe: (python: string) => Promise<Probe>,
  options: ChoiceOptions,
): Promise<Resolution> {
  const { bundle, cwd } = options;
  const minimum = bundle?.requiresPython ?? [3, 11];
  const tried: Rejected[] = [];
  let firstWithoutGdef: string | undefined;
  const seen = new Set<string>();
  for (const { python, source } of candidates) {
    if (seen.has(python)) {
      continue;
    }
    seen.add(python);
    const found = await probe(python);
    const reject = (reason: string) => tried.push({ python, source, reason });
    if (found.kind === 'missing') {
      reject('not found');
      continue;
    }
    if (found.kind === 'notPython') {
      reject(`does not run as Python (${found.detail})`);
      continue;
    }
    const version = found.version.join('.');
    const base = { command: python, args: ['-m', 'gdef_lsp'], source, python, cwd };
    if (found.gdef && (!bundle || compareVersions(found.gdef, bundle.gdef) >= 0)) {
      return { command: { ...base, gdef: found.gdef, note: bundle ? `gdef ${found.gdef} is installed in ${python}: using it rather than the bundled gdef ${bundle.gdef}` : undefined } };
    }
    if (compareVersions(version, minimum.join('.')) < 0) {
      reject(`Python ${version} is older than ${minimum.join('.')}`);
      continue;
    }
    if (!bundle) {
      reject(found.gdefError ? `gdef cannot be imported (${found.gdefError})` : 'gdef is not installed');
      firstWithoutGdef ??= python;
      continue;
    }
    const note = found.gdef
      ? `gdef ${found.gdef} installed in ${python} is older than the bundled gdef ${bundle.gdef}: using the bundled one`
      : found.gdefError
        ? `gdef in ${python} cannot be imported (${found.gdefError}): using the bundled gdef ${bundle.gdef}`
        : undefined;
    return { command: { ...base, env: bundleEnv(bundle, options.pythonPath), gdef: 'bundled', note } };
  }
  return { problem: noPython(candidates, tried, firstWithoutGdef, options) };
}

/** A candidate that cannot run the server, and why. */
interface Rejected extends Candidate {
  reason: string;
}

function noPython(candidates: Candidate[], tried: Rejected[], firstWithoutGdef: string | undefined, options: ChoiceOptions): StartProblem {
  const lines = tried.map((t) => `${t.python} (from ${describeSource(t.source)}): ${t.reason}`);
  const detail = `Tried:\n  ${lines.join('\n  ') || '(no Python: none configured, none selected, none on PATH)'}\nPATH: ${options.path ?? ''}`;
  const select: Remedy[] = options.pythonExtension ? ['selectInterpreter'] : [];
  const minimum = (options.bundle?.requiresPython ?? [3, 11]).join('.');
  if (candidates.length > 0 && candidates.every((c) => c.source === 'setting')) {
    return {
      message: `The Python in the setting gdef.server.command, ${tried[0].python}, cannot run gdef's language server: ${tried[0].reason}. ` +
        `Correct the setting (a Python ${minimum} or newer), or clear it.`,
      remedies: ['openSettings', 'showOutput'],
      detail,
    };
  }
  if (firstWithoutGdef) { // only without a bundle (a development build of the extension)
    return {
      message: `gdef is not installed in ${firstWithoutGdef}: run "${firstWithoutGdef} -m pip install gdef", ` +
        'or select the interpreter of the environment where gdef is installed, or set gdef.server.command.',
      remedies: [...select, 'openSettings', 'showOutput'],
      detail,
    };
  }
  return {
    message: `GDef needs Python ${minimum} or newer to run its language server, and found none. ` +
      `Install Python ${minimum}+ (python.org, or your system's package manager) so that python3 is on PATH, ` +
      `or set gdef.server.command to ["/path/to/python3"]${options.pythonExtension ? ', or select an interpreter in the Python extension' : ''}, then reload the window.`,
    remedies: [...select, 'openSettings', 'showOutput'],
    detail,
  };
}
