"""gdef: one command for every tool.

    gdef check|run|sim|test|fmt ARGS...   the same as gdef-check ARGS... (and so on)
    gdef lsp ARGS...                      the language server (python -m gdef_lsp ARGS...)
    gdef dap                              the debug adapter (python -m gdef_dap)
    gdef completion bash|zsh|fish         a shell completion script, made from the parsers
    gdef --version                        the version, and which optional parts are installed

The gdef-* scripts stay; each subcommand runs the same entry point with the same options and
exit codes. `gdef lsp` replaces this process with `python -m gdef_lsp`, so that gdef_core never
imports the language server (ARCHITECTURE.md: the core does not depend on gdef_lsp).
"""
from __future__ import annotations

import argparse
import difflib
import importlib
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from importlib import metadata

from gdef_core import __version__
from gdef_core.cli.common import exit_without_teardown

PROG = "gdef"
EXIT_USAGE = 2
# name -> (module with build_parser() and main(argv), one line of help)
TOOLS = {
    "check": ("gdef_core.cli.check", "check .gdef files: syntax, names, types, game structure"),
    "run": ("gdef_core.cli.run", "play a game in the terminal, from a move script, or as a bot"),
    "sim": ("gdef_core.cli.sim", "play many games between computer players and count the results"),
    "test": ("gdef_core.cli.test", "run the rule tests (*.test.moves) of games"),
    "fmt": ("gdef_core.cli.fmt", "lay .gdef files out in the canonical layout"),
}
LSP_HELP = "start the language server (stdio by default)"
SHELLS = ("bash", "zsh", "fish")
# What `gdef --version` reports on: (name, the distribution to look for, what it gives, how to
# install it). Looked up in the installed packages' metadata, without importing them.
OPTIONAL_PARTS = (
    ("numba", "numba", "the native backend without a C compiler (--backend native)", "pip install 'gdef[fast]'"),
    ("OpenSpiel", "open_spiel", "gdef_core.interop.openspiel", "pip install 'gdef[interop]'"),
    ("PettingZoo", "pettingzoo", "gdef_core.interop.pettingzoo", "pip install 'gdef[interop]'"),
    ("Dask", "distributed", "gdef-sim --cluster", "pip install 'gdef[cluster]'"),
    ("Playwright", "playwright", "the board page's browser tests", "pip install 'gdef[dev]'"),
)
# The positionals and options that name files: completed with file names.
_FILE_METAVARS = frozenset({"PATH", "FILE", "DIR", "OUT"})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns (and exits with) the exit code."""
    code = run(sys.argv[1:] if argv is None else list(argv))
    if argv is None:
        exit_without_teardown(code)  # `gdef run` on a big board: no seconds of freeing at exit
    return code


def run(args: list[str]) -> int:
    if not args:
        sys.stderr.write(build_parser().format_usage() + f"{PROG}: error: name a command (`{PROG} --help` lists them)\n")
        return EXIT_USAGE
    command, rest = args[0], args[1:]
    if command in ("-h", "--help"):
        sys.stdout.write(build_parser().format_help())
        return 0
    if command == "--version":
        sys.stdout.write(version_report())
        return 0
    if command in TOOLS:
        tool = importlib.import_module(TOOLS[command][0])
        try:
            return tool.main(rest, prog=f"{PROG} {command}")  # usage lines say `gdef check`
        except SystemExit as exit_:  # gdef-run ends with sys.exit even when given its arguments
            return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    if command == "lsp":
        return _lsp(rest)
    if command == "dap":
        return _become("gdef_dap", rest)
    if command == "completion":
        return _completion(rest)
    known = [*TOOLS, "lsp", "dap", "completion"]
    close = difflib.get_close_matches(command, known, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else f" (choose from {', '.join(known)})"
    sys.stderr.write(build_parser().format_usage() + f"{PROG}: error: unknown command '{command}'{hint}\n")
    return EXIT_USAGE


def build_parser(completing: bool = False) -> argparse.ArgumentParser:
    """The whole command line as one parser (each tool's own parser as a subcommand): for
    --help and, `completing`, for shtab to write the completion scripts from."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="gdef: the tools of the .gdef game language in one command.",
        epilog=f"`{PROG} COMMAND --help` shows a command's options. The gdef-check, gdef-run, "
               "gdef-sim, gdef-test, gdef-fmt and gdef-lsp scripts are the same commands.")
    parser.add_argument("--version", action="store_true",
                        help="print the version and which optional parts are installed")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (module, summary) in TOOLS.items():
        tool = importlib.import_module(module).build_parser()
        sub = commands.add_parser(name, parents=[tool], add_help=False, help=summary,
                                  description=tool.description, epilog=tool.epilog)
        if completing:
            import shtab

            for action in sub._actions:
                if (action.metavar or "") in _FILE_METAVARS:
                    action.complete = shtab.FILE
    lsp = commands.add_parser("lsp", help=LSP_HELP, description="The gdef language server (gdef-lsp).")
    _lsp_options(lsp)
    commands.add_parser("dap", help="the debug adapter (gdef-dap), for editors",
                        description="The gdef debug adapter (gdef-dap): the Debug Adapter Protocol on stdin/stdout.")
    completion = commands.add_parser("completion", help="print a shell completion script",
                                     description="Print the completion script of a shell. Install it with "
                                                 "`gdef completion bash > ~/.local/share/bash-completion/"
                                                 "completions/gdef`, `gdef completion zsh > ~/.zfunc/_gdef` "
                                                 "(a folder in $fpath) or `gdef completion fish > "
                                                 "~/.config/fish/completions/gdef.fish`.")
    completion.add_argument("shell", choices=SHELLS)
    return parser


def _lsp_options(parser: argparse.ArgumentParser) -> None:
    """gdef-lsp's options, for help and completion only (gdef_lsp parses its own; a test
    checks that the two lists agree)."""
    parser.add_argument("--version", action="store_true", help="print the server's version")
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead")
    parser.add_argument("--log-level", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="how much to log to the client's output (default INFO)")


def _lsp(rest: list[str]) -> int:
    """Become `python -m gdef_lsp REST`: the server owns this process's stdio from here."""
    return _become("gdef_lsp", rest)


def _become(module: str, rest: list[str]) -> int:
    """Replace this process with `python -m MODULE REST` (the language server, the debug
    adapter), so that gdef_core never imports them."""
    argv = [sys.executable, "-m", module, *rest]
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(sys.executable, argv)
    return subprocess.call(argv)  # Windows: exec would detach from the console


def _completion(rest: list[str]) -> int:
    if len(rest) != 1 or rest[0] not in SHELLS:
        sys.stderr.write(f"usage: {PROG} completion {{{','.join(SHELLS)}}}\n"
                         f"{PROG}: error: name one shell: {', '.join(SHELLS)}\n")
        return EXIT_USAGE
    import shtab

    sys.stdout.write(shtab.complete(build_parser(completing=True), shell=rest[0]))
    return 0


def version_report() -> str:
    """`gdef --version`: gdef's version and Python's, then each optional part with its version
    or how to install it."""
    lines = [f"{PROG} {__version__}", f"Python {platform.python_version()}", "optional parts:"]
    for name, distribution, gives, install in OPTIONAL_PARTS:
        try:
            lines.append(f"  {name + ' ' + metadata.version(distribution):<20} {gives}")
        except metadata.PackageNotFoundError:
            lines.append(f"  {name:<20} not installed: {gives} ({install})")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
