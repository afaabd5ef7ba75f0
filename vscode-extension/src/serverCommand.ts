/**
 * Which command starts the gdef language server, and why it cannot start when it cannot.
 *
 * Order: the `gdef.server.command` setting; else the interpreter selected in the Python
 * extension running `-m gdef_lsp` (so a project's virtual environment just works); else
 * `gdef-lsp` on PATH. Every failure becomes a message that says what to do, because "server
 * crashed" tells a newcomer nothing.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { PythonExtension } from '@vscode/python-extension';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from: shown in messages so the user knows what to change. */
  source: 'setting' | 'python' | 'path';
  /** The interpreter that runs `-m gdef_lsp`, when that is how the server starts. */
  python?: string;
  /** The folder the server runs in (Python puts it on sys.path for `-m`). */
  cwd: string;
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

export async function resolveServerCommand(resource: vscode.Uri | undefined): Promise<Resolution> {
  const cwd = serverCwd(resource);
  const configured = configuredCommand();
  if (configured) {
    const [command, ...args] = configured;
    if (!findExecutable(command)) {
      return {
        problem: {
          message: `The gdef language server command in the setting gdef.server.command was not found: "${command}". ` +
            'Correct the setting, or clear it to use the selected Python interpreter.',
          remedies: ['openSettings'],
        },
      };
    }
    if (args.length === 2 && args[0] === '-m' && args[1] === 'gdef_lsp') {
      // a Python: check that gdef is installed there, to say so plainly if it is not
      const problem = await checkGdefInstalled(command, cwd, 'or correct the setting gdef.server.command.');
      return problem ? { problem: { ...problem, remedies: ['openSettings'] } }
        : { command: { command, args, source: 'setting', python: command, cwd } };
    }
    return { command: { command, args, source: 'setting', cwd } };
  }
  const python = await selectedPython(resource);
  if (python) {
    const problem = await checkGdefInstalled(python, cwd, 'or select the interpreter of the environment where gdef is installed.');
    if (!problem) {
      return { command: { command: python, args: ['-m', 'gdef_lsp'], source: 'python', python, cwd } };
    }
    const onPath = findExecutable('gdef-lsp');
    return onPath
      ? { command: { command: onPath, args: [], source: 'path', cwd, note: `${problem.message} Using ${onPath} instead.` } }
      : { problem };
  }
  const onPath = findExecutable('gdef-lsp');
  if (onPath) {
    return { command: { command: onPath, args: [], source: 'path', cwd } };
  }
  return {
    problem: {
      message: 'gdef-lsp was not found on PATH, and the Python extension is not installed to say which Python has gdef. ' +
        'Install gdef (pip install gdef), or set gdef.server.command to the gdef-lsp of your environment.',
      remedies: ['openSettings', 'showOutput'],
      detail: `PATH searched: ${process.env.PATH ?? ''}`,
    },
  };
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
 * Imports the server's module in `python`, in the folder the server will run in; a problem to
 * show if that fails, else undefined. Importing the server module, not just the package,
 * also catches a broken installation (a missing dependency).
 */
export function checkGdefInstalled(python: string, cwd: string, otherwise: string): Promise<StartProblem | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import gdef_lsp.server'], { timeout: 60_000, cwd }, (error, _stdout, stderr) => {
      if (!error) {
        resolve(undefined);
      } else if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        resolve({
          message: `The Python interpreter ${python} does not exist: install gdef in a Python environment, ${otherwise}`,
          remedies: ['selectInterpreter', 'openSettings'],
        });
      } else if (/No module named '?gdef_lsp'?$/m.test(stderr)) {
        resolve({
          message: `gdef is not installed in ${python}: run "${python} -m pip install gdef", ${otherwise}`,
          remedies: ['selectInterpreter', 'openSettings'],
        });
      } else {
        const lastLine = stderr.trim().split('\n').pop() || error.message;
        resolve({
          message: `gdef's language server cannot be imported by ${python}: ${lastLine}. ` +
            `Reinstall gdef there ("${python} -m pip install --force-reinstall gdef").`,
          remedies: ['showOutput', 'selectInterpreter'],
        });
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
