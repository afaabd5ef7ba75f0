/**
 * Which command starts the gdef language server, and why it cannot start when it cannot.
 *
 * Candidates for the Python, in order: the `gdef.server.command` setting (a Python, or any
 * command, which then runs as it is); the interpreter selected in the Python extension; python3
 * and python on PATH. pythonChoice.ts decides between the gdef installed in that Python and the
 * copy bundled in the extension. Every failure becomes a message that says what to do, because
 * "server crashed" tells a newcomer nothing.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { PythonExtension } from '@vscode/python-extension';
import { Bundle, Candidate, PROBE_SCRIPT, Probe, Resolution, ServerCommand, chooseServer, parseProbe, settingPython } from './pythonChoice';

export type { Remedy, Resolution, ServerCommand, StartProblem } from './pythonChoice';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The configured command, split into program and arguments, or undefined when unset. */
export function configuredCommand(): string[] | undefined {
  const value = vscode.workspace.getConfiguration('gdef').get<unknown>('server.command');
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) {
    return value;
  }
  if (typeof value === 'string' && value.trim() !== '') {
    return [value.trim()]; // tolerate a plain string: a path to gdef-lsp
  }
  return undefined;
}

/** The server runs in the workspace folder, as a terminal opened there would. */
export function serverCwd(resource: vscode.Uri | undefined): string {
  const folder = (resource && vscode.workspace.getWorkspaceFolder(resource)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : os.homedir();
}

export async function resolveServerCommand(resource: vscode.Uri | undefined, bundle: Bundle | undefined): Promise<Resolution> {
  const cwd = serverCwd(resource);
  const configured = configuredCommand();
  const candidates: Candidate[] = [];
  if (configured) {
    const python = settingPython(configured);
    if (!python) {
      const [command, ...args] = configured; // a server command, e.g. a gdef-lsp: run as it is
      if (!findExecutable(command)) {
        return {
          problem: {
            message: `The gdef language server command in the setting gdef.server.command was not found: "${command}". ` +
              'Correct the setting, or clear it to use the bundled server with any Python 3.11 or newer.',
            remedies: ['openSettings'],
          },
        };
      }
      return { command: { command, args, source: 'setting', cwd } };
    }
    candidates.push({ python, source: 'setting' });
  } else {
    const selected = await selectedPython(resource);
    if (selected) {
      candidates.push({ python: selected, source: 'python' });
    }
    for (const name of process.platform === 'win32' ? ['python', 'python3'] : ['python3', 'python']) {
      const onPath = findExecutable(name);
      if (onPath) {
        candidates.push({ python: onPath, source: 'path' });
      }
    }
  }
  const options = {
    cwd,
    bundle,
    pythonPath: process.env.PYTHONPATH,
    pythonExtension: vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined,
    path: process.env.PATH,
  };
  const resolution = await chooseServer(candidates, (python) => probePython(python, cwd), options);
  if ('problem' in resolution && !configured) {
    const server = findExecutable('gdef-lsp'); // last resort: a gdef installed with pipx, say
    if (server) {
      return { command: { command: server, args: [], source: 'path', cwd, note: `${resolution.problem.message} Using ${server} instead.` } };
    }
  }
  return resolution;
}

/** The interpreter selected in the Python extension, or undefined if that extension is absent. */
export async function selectedPython(resource: vscode.Uri | undefined): Promise<string | undefined> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
    return undefined;
  }
  try {
    const api = await PythonExtension.api();
    const active = api.environments.getActiveEnvironmentPath(resource);
    const resolved = await api.environments.resolveEnvironment(active);
    return resolved?.executable.uri?.fsPath ?? active.path;
  } catch {
    return undefined; // the extension failed to activate: fall back to PATH
  }
}

/** Subscribes to changes of the selected interpreter, when the Python extension is there. */
export async function onPythonChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
    return undefined;
  }
  try {
    const api = await PythonExtension.api();
    return api.environments.onDidChangeActiveEnvironmentPath(listener);
  } catch {
    return undefined;
  }
}

/**
 * Runs the probe script in `python`, in the folder the server will run in (so a gdef importable
 * from there counts, as it would for `-m`). Importing the server module, not just the package,
 * also catches a broken installation (a missing dependency).
 */
export function probePython(python: string, cwd: string): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(python, ['-c', PROBE_SCRIPT], { timeout: 60_000, cwd }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
        resolve({ kind: 'missing' });
      } else {
        resolve(parseProbe(stdout, stderr));
      }
    });
  });
}

/** The absolute path of `program` (a path, or a name looked up on PATH), or undefined. */
export function findExecutable(program: string): string | undefined {
  const extensions = process.platform === 'win32'
    ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')]
    : [''];
  const candidates = program.includes('/') || program.includes(path.sep)
    ? [program]
    : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    for (const ext of extensions) {
      const file = candidate + ext;
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) {
          return path.resolve(file);
        }
      } catch {
        // not this one
      }
    }
  }
  return undefined;
}

/**
 * How to run gdef's command-line tool `tool` (`check` or `run`) from the same installation
 * as the server: the same interpreter, or the script next to gdef-lsp.
 */
export function toolCommand(tool: 'check' | 'run', server: ServerCommand | undefined): string[] {
  if (server?.python) {
    return [server.python, '-m', `gdef_core.cli.${tool}`];
  }
  if (server && path.basename(server.command).startsWith('gdef-lsp') && path.isAbsolute(server.command)) {
    const sibling = path.join(path.dirname(server.command), `gdef-${tool}${path.extname(server.command)}`);
    if (findExecutable(sibling)) {
      return [sibling];
    }
  }
  return [`gdef-${tool}`];
}
