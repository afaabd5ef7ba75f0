"""gdef-fmt: lay .gdef files out in the one canonical layout (docs/formatter.md).

    gdef-fmt examples/             rewrite every .gdef file under examples/ in place
    gdef-fmt --check .             list the files that would change (CI, pre-commit)
    gdef-fmt --diff game.gdef      show the changes as a unified diff
    gdef-fmt - < in.gdef > out     stdin to stdout

Exit codes: 0 done (or nothing would change); 1 --check/--diff: some file would change;
2 usage error, unreadable file, bad configuration or syntax errors (such a file is left as it
is); 3 internal error (a bug: please report it).
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Sequence
from functools import partial
from dataclasses import dataclass, field

from gdef_core.cli.common import add_version, exit_or_return

PROG = "gdef-fmt"
EXIT_OK, EXIT_CHANGES, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Format .gdef files: one canonical layout, comments kept, meaning unchanged.",
        epilog="Exit codes: 0 done or already formatted, 1 (--check, --diff) some file would "
               "change, 2 usage error, unreadable file, bad configuration or syntax errors "
               "(the file is left as it is), 3 internal error. Options: `[format] indent-width` "
               "in gdef.toml or `[tool.gdef.format]` in pyproject.toml. Docs: docs/formatter.md.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files and directories (searched recursively for *.gdef); - reads "
                             "stdin and writes the result to stdout")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; list the files that would change and exit 1 if any")
    parser.add_argument("--diff", action="store_true",
                        help="change nothing; print a unified diff of the changes and exit 1 if any")
    parser.add_argument("--stdin-filename", metavar="PATH",
                        help="with -: the file name used in messages and to find the configuration")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="skip files and directories whose name or path matches (repeatable)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour syntax errors (auto: on a terminal unless NO_COLOR is set)")
    add_version(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; returns (and exits with) the exit code. `prog`: the
    name in usage lines (`gdef fmt` when the gdef command runs this one)."""
    return exit_or_return(prog, partial(run, prog=prog), argv, interrupted=130, internal=EXIT_INTERNAL,
                          broken_pipe=EXIT_ERROR)


@dataclass(slots=True)
class Outcome:
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: int = 0


def run(argv: Sequence[str] | None, prog: str = PROG) -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if not args.paths:
        parser.error("no PATH given: name the .gdef files or directories to format "
                     f"(e.g. `{prog} .`), or - for stdin")
    if "-" in args.paths and len(args.paths) > 1:
        parser.error("- (stdin) cannot be mixed with other paths")
    if args.stdin_filename and args.paths != ["-"]:
        parser.error("--stdin-filename goes with - (stdin) only")
    outcome = Outcome()
    if args.paths == ["-"]:
        _format_stdin(args, outcome)
    else:
        _format_paths(args, outcome)
    if outcome.failed:
        return EXIT_ERROR
    return EXIT_CHANGES if outcome.changed and (args.check or args.diff) else EXIT_OK


def _format_paths(args, outcome: Outcome) -> None:
    from gdef_core.project import discover

    found = discover(args.paths, args.exclude)
    for problem in found.problems:
        _error(str(problem))
        outcome.failed += 1
    for path in found.files:
        _format_file(path, args, outcome)
    if not found.files and not found.problems and not args.quiet:
        sys.stderr.write(f"{PROG}: warning: no .gdef files found: nothing was formatted\n")
    if not args.quiet:
        sys.stderr.write(_summary(outcome, args))


def _format_file(path: str, args, outcome: Outcome) -> None:
    from gdef_core.files import read_bytes, replace_file

    try:
        original = read_bytes(path)
    except OSError as error:
        _error(f"{path}: cannot read file: {error.strerror or error}")
        outcome.failed += 1
        return
    formatted = _formatted(original, path, os.path.dirname(os.path.abspath(path)), args, outcome)
    if formatted is None:
        return
    if formatted == original:
        outcome.unchanged += 1
        return
    outcome.changed.append(path)
    if args.diff:
        sys.stdout.write(_diff(original, formatted, path))
    if args.check:
        sys.stdout.write(f"would reformat {path}\n")
    if args.check or args.diff:
        return
    try:
        replace_file(path, formatted, through_link=True)
    except OSError as error:
        _error(f"{path}: cannot write the formatted file (it is left as it was): {error.strerror or error}")
        outcome.failed += 1
        outcome.changed.pop()
        return
    if not args.quiet:
        sys.stderr.write(f"reformatted {path}\n")


def _format_stdin(args, outcome: Outcome) -> None:
    name = args.stdin_filename or "<stdin>"
    original = sys.stdin.buffer.read()
    where = os.path.dirname(os.path.abspath(args.stdin_filename)) if args.stdin_filename else os.getcwd()
    formatted = _formatted(original, name, where, args, outcome)
    if formatted is None:
        if not (args.check or args.diff):
            sys.stdout.buffer.write(original)  # a filter must not swallow the text it was given
        return
    if formatted != original:
        outcome.changed.append(name)
    if args.diff:
        sys.stdout.write(_diff(original, formatted, name))
    elif args.check:
        if formatted != original:
            sys.stdout.write(f"would reformat {name}\n")
    else:
        sys.stdout.buffer.write(formatted)
    sys.stdout.flush()


def _formatted(original: bytes, path: str, directory: str, args, outcome: Outcome) -> bytes | None:
    """The formatted bytes, or None after reporting why the file cannot be formatted."""
    from gdef_core.files import binary_data_at, not_text_message
    from gdef_core.format import FormatError, SyntaxErrors, format_source
    from gdef_core.format.config import ConfigError, options_for

    try:
        options = options_for(directory)
    except ConfigError as error:
        _error(str(error))
        outcome.failed += 1
        return None
    binary = binary_data_at(original)
    if binary is not None:
        _error(f"{path}: {not_text_message(binary)}; the file is left as it is")
        outcome.failed += 1
        return None
    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError as error:
        _error(f"{path}: not valid UTF-8 (byte {original[error.start:error.start + 1].hex()} at offset "
               f"{error.start}): save it as UTF-8; the file is left as it is")
        outcome.failed += 1
        return None
    try:
        return format_source(text, path, options).encode("utf-8")
    except SyntaxErrors as refused:
        _syntax_errors(refused.diagnostics, path, text, args)
        outcome.failed += 1
    except FormatError as error:
        _error(str(error))
        outcome.failed += 1
    return None


def _syntax_errors(diagnostics, path: str, text: str, args) -> None:
    """The errors as gdef-check prints them, then why nothing was written."""
    from gdef_core.report import Report, render_text
    from gdef_core.report.limit import limit_syntax_errors
    from gdef_core.span import lone_cr_as_lf

    report = Report(limit_syntax_errors(diagnostics), [path], {path: lone_cr_as_lf(text.lstrip("\ufeff"))})
    color = args.color == "always" or (args.color == "auto" and not os.environ.get("NO_COLOR")
                                       and sys.stderr.isatty() and os.environ.get("TERM") != "dumb")
    sys.stderr.write(render_text(report, color=color, quiet=False))
    sys.stderr.write(f"{PROG}: {path} has syntax errors: it is left as it is; fix them and format again\n")


def _diff(original: bytes, formatted: bytes, path: str) -> str:
    before = original.decode("utf-8").splitlines(keepends=True)
    after = formatted.decode("utf-8").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"{path} (original)", f"{path} (formatted)")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def _summary(outcome: Outcome, args) -> str:
    changed = len(outcome.changed)
    verb = "would be reformatted" if args.check or args.diff else "reformatted"
    parts = [f"{changed} file{'s' if changed != 1 else ''} {verb}"] if changed else []
    if outcome.unchanged:
        parts.append(f"{outcome.unchanged} file{'s' if outcome.unchanged != 1 else ''} already formatted")
    if outcome.failed:
        parts.append(f"{outcome.failed} file{'s' if outcome.failed != 1 else ''} not formatted (errors above)")
    return (", ".join(parts) + "\n") if parts else ""


def _error(message: str) -> None:
    sys.stderr.write(f"{PROG}: error: {message}\n")


if __name__ == "__main__":
    main()
