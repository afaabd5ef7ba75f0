"""gdef-check: the linter for CI, pre-commit and editor tasks.

Thin on purpose: parse the arguments, let gdef_core.project find the files and group them into
games, check each game, filter, and hand one Report to a format. Exit codes: 0 clean (warnings
allowed unless --strict), 1 problems found, 2 usage error or unreadable input, 3 internal error
(a bug: please report it).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from functools import partial

from gdef_core import __version__
from gdef_core.cli.common import add_param_option, add_version, exit_or_return, param_values, positive, whole_number
from gdef_core.codes import CODES, DEFAULT_MAX_ERRORS, render_entry

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
PROG = "gdef-check"
UNDEFINED_CODES = ("G201", "G202")  # undefined name, undefined function
PLAY_CODES = ("G6", "G7")  # reported only when games run (gdef-run, gdef-check --play)


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    from gdef_core.report import FORMATS

    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check .gdef game rules: syntax, names, types and game structure.",
        epilog="Exit codes: 0 clean (warnings allowed unless --strict), 1 problems found, "
               "2 usage error or unreadable input. Docs: docs/gdef-check.md.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="files and directories (searched recursively for *.gdef)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="output format (default: text)")
    parser.add_argument("--select", action="append", default=[], metavar="CODE[,CODE]",
                        help="report only these codes (prefixes allowed: G5)")
    parser.add_argument("--ignore", action="append", default=[], metavar="CODE[,CODE]",
                        help="never report these codes (prefixes allowed: G5)")
    parser.add_argument("--strict", action="store_true", help="warnings fail the run too (exit 1)")
    parser.add_argument("--game", action="store_true",
                        help="all the files form one game (as `gdef-run a.gdef b.gdef`)")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="skip files and directories whose name or path matches (repeatable)")
    parser.add_argument("--confine-use", action="store_true",
                        help="`use` may name only files inside the current folder (for CI on "
                             "untrusted changes: docs/gdef-check.md)")
    play = parser.add_argument_group("self-play analysis (off by default)")
    play.add_argument("--play", type=whole_number(0), default=0, metavar="N",
                      help="also play N seeded random games of each game and report what play finds "
                           "(run-time errors, games that never end, stuck positions, generator and "
                           "judge disagreeing; codes G6xx and G7xx)")
    play.add_argument("--play-moves", type=positive, default=500, metavar="M",
                      help="move cap of each game played (default 500)")
    play.add_argument("--play-seconds", type=positive, default=60, metavar="S",
                      help="time budget of the games of each game file (default 60)")
    play.add_argument("--play-seed", type=int, default=0, metavar="S", help="seed of the games (default 0)")
    play.add_argument("--play-out", metavar="DIR",
                      help="write the move script of each finding here (default: a new folder of "
                           "the temporary folder)")
    add_param_option(parser)
    parser.add_argument("--max-errors", type=whole_number(0), default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"show at most N syntax errors per file, then how many more there are "
                             f"(default {DEFAULT_MAX_ERRORS}; 0: all)")
    parser.add_argument("--statistics", action="store_true",
                        help="print how many times each code occurs instead of each diagnostic")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="text format: one line per diagnostic, no source, no summary")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour the text format (auto: on a terminal unless NO_COLOR is set)")
    parser.add_argument("--explain", metavar="CODE", help="print the documentation of a code")
    add_version(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; returns (and exits with) the exit code. `prog`: the
    name in usage lines (`gdef check` when the gdef command runs this one)."""
    # A broken pipe means the output was cut, so the run cannot claim to be clean.
    return exit_or_return(prog, partial(run, prog=prog), argv, interrupted=130, internal=EXIT_INTERNAL,
                          broken_pipe=EXIT_PROBLEMS)


def run(argv: Sequence[str] | None, prog: str = PROG) -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.explain is not None:
        return explain(args.explain)
    select = _codes_option(parser, "--select", args.select)
    ignore = _codes_option(parser, "--ignore", args.ignore)
    if not args.paths:
        parser.error("no PATH given: name the .gdef files or directories to check "
                     f"(e.g. `{prog} .`)")
    if args.statistics and args.format not in ("text", "json"):
        parser.error("--statistics works with --format text or json")

    from gdef_core.project import discover

    found = discover(args.paths, args.exclude)
    from gdef_core.testing.play import PlayOptions

    play = (PlayOptions(args.play, args.play_seed, args.play_moves, args.play_seconds, args.play_out)
            if args.play else None)
    report = check(found.files, one_game=args.game, select=select, ignore=ignore,
                   confine=os.getcwd() if args.confine_use else None, play=play, max_errors=args.max_errors,
                   params=param_values(args.param))
    report.problems[:0] = found.problems
    for problem in report.problems:
        sys.stderr.write(f"{PROG}: error: {problem}\n")
    if not found.files and not found.problems and not args.quiet:
        sys.stderr.write(_nothing_found(found.empty_directories))
    rules = [entry for entry in CODES.values()
             if _wanted(entry.code, select, ignore) and (args.play or not entry.code.startswith(PLAY_CODES))]
    sys.stdout.write(render(report, args, rules))
    sys.stdout.flush()
    if report.problems:
        return EXIT_USAGE
    if report.errors or (args.strict and report.warnings):
        return EXIT_PROBLEMS
    return EXIT_CLEAN


def check(files: Sequence[str], *, one_game: bool = False, select: Sequence[str] = (),
          ignore: Sequence[str] = (), confine: str | None = None, play=None,
          max_errors: int = DEFAULT_MAX_ERRORS, params: Mapping[str, str] | None = None):
    """Check the files (grouped into games by gdef_core.project) into one Report; at most
    `max_errors` syntax errors per file are shown (gdef_core.report.limit). `params`: values
    for the parameters of the games that declare them; a value a game refuses, or a name no
    game declares, is a problem of the run (a usage error)."""
    from gdef_core.loader import GdefFileError
    from gdef_core.project import InputProblem, Workspace, plan, top_level_names
    from gdef_core.report import Report
    from gdef_core.report.limit import limit_syntax_errors

    workspace = Workspace(confine=confine)
    shown: dict[str, None] = dict.fromkeys(files)  # files in output order, run's files first
    sources: dict[str, str] = {}
    diagnostics: dict = {}  # ordered set: a helper's diagnostic met in two games counts once
    problems: list[InputProblem] = []
    played = []  # --play: what was played of each game
    declared: set[str] = set()
    for unit in plan(files, workspace, one_game=one_game):
        try:
            program = workspace.program(unit.paths, params)
        except GdefFileError as error:
            problems.append(InputProblem(error.path, f"cannot read file: {error.reason}"))
            shown.pop(error.path, None)
            continue
        declared.update(program.params)
        for name, why in program.param_errors.items():
            if name in program.params:
                problems.append(InputProblem(" ".join(unit.paths), f"--param {name}: {why}"))
        # a --param meant for another game of the run (checked below) does not stop this one's --play
        program.param_errors = {name: why for name, why in program.param_errors.items() if name in program.params}
        belongs = _belongs_to(unit.report_only)
        for module in program.modules:
            if belongs(module.path):
                shown[module.path] = None
                sources[module.path] = module.text
        found_in_play, counted = _play(program, play) if play is not None else ([], None)
        if counted is not None:
            played.append(counted)
        for diagnostic in [*program.diagnostics, *found_in_play]:
            if belongs(diagnostic.span.file) and _wanted(diagnostic.code, select, ignore):
                diagnostics[diagnostic] = None
    for name in sorted(set(params or ()) - declared):
        problems.append(InputProblem(" ".join(files), f"--param {name}: no game checked declares "
                                     f"a parameter '{name}'"))
    rank = {path: index for index, path in enumerate(shown)}
    ordered = sorted(diagnostics, key=lambda d: (rank.get(d.span.file, len(rank)), d.span.file,
                                                 d.span.line, d.span.column, d.code, d.message))
    if not one_game:
        ordered = _point_to_defining_files(ordered, top_level_names(workspace, files), sources)
    return Report(limit_syntax_errors(ordered, max_errors), list(shown), sources, problems, played)


def _play(program, options) -> tuple[list, object]:
    """--play: the findings of self-play (gdef_core.testing.play) for a game without errors,
    and what was played (None when nothing could be)."""
    from gdef_core.runtime.errors import GameLoadError
    from gdef_core.runtime.game import game_from_program
    from gdef_core.testing.play import play_findings

    if not program.ok or program.is_library:
        return [], None
    try:
        game = game_from_program(program)
    except GameLoadError as error:
        return [d for d in error.diagnostics if d not in program.diagnostics], None
    return play_findings(game, options)


def _point_to_defining_files(diagnostics, defined_in: dict[str, str], sources: dict[str, str]):
    """An undefined name that another file of the run defines: the files were meant to be one
    game. Say how to join them (`use`, or --game) instead of leaving the user to guess."""
    from dataclasses import replace

    from gdef_core.diagnostics import Suggestion
    from gdef_core.report.text import SourceLines

    lines = SourceLines(sources)
    result = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        if diagnostic.code in UNDEFINED_CODES and span.line == span.end_line:
            name = (lines.line(span.file, span.line) or "")[span.column:span.end_column]
            where = defined_in.get(name)
            if where is not None and where != span.file:
                relative = os.path.relpath(where, os.path.dirname(span.file) or ".")
                hint = Suggestion(f"'{name}' is defined in {where}: add `use \"{relative}\"` to "
                                  "this file, or check the files as one game with --game")
                diagnostic = replace(diagnostic, suggestions=(*diagnostic.suggestions, hint))
        result.append(diagnostic)
    return result


def render(report, args, rules) -> str:
    from gdef_core import report as formats

    if args.statistics:
        if args.format == "json":
            return formats.render_statistics_json(report)
        return formats.render_statistics(report, color=_use_color(args.color), quiet=args.quiet)
    if args.format == "json":
        return formats.render_json(report)
    if args.format == "sarif":
        return formats.render_sarif(report, codes=rules, tool_version=__version__)
    if args.format == "github":
        return formats.render_github(report)
    return formats.render_text(report, color=_use_color(args.color), quiet=args.quiet)


def explain(code: str) -> int:
    """Print a code's entry of docs/diagnostics.md; a prefix (`G2`) lists its codes."""
    wanted = code.strip().upper()
    if wanted in CODES:
        sys.stdout.write(render_entry(CODES[wanted]) + "\n")
        return EXIT_CLEAN
    matches = [entry for entry in CODES.values() if entry.code.startswith(wanted)] if wanted else []
    if matches:
        sys.stdout.writelines(f"{entry.code}  {str(entry.severity):<7}  {entry.title}\n" for entry in matches)
        return EXIT_CLEAN
    sys.stderr.write(f"{PROG}: error: unknown code '{code}': codes look like G201; "
                     f"`{PROG} --explain G` lists them all\n")
    return EXIT_USAGE


def _codes_option(parser: argparse.ArgumentParser, option: str, values: list[str]) -> list[str]:
    """`--select G2,G301 --select G5` -> ["G2", "G301", "G5"]; every entry must name at least
    one known code, so that a typo does not silently select nothing."""
    codes = []
    for value in values:
        for part in value.split(","):
            part = part.strip().upper()
            if not part:
                continue
            if not any(known.startswith(part) for known in CODES):
                parser.error(f"{option}: no diagnostic code starts with '{part}' "
                             f"(see `{PROG} --explain G`)")
            codes.append(part)
    return codes


def _wanted(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    if select and not any(code.startswith(prefix) for prefix in select):
        return False
    return not any(code.startswith(prefix) for prefix in ignore)


def _belongs_to(report_only: frozenset[str] | None):
    if report_only is None:
        return lambda path: True
    real: dict[str, bool] = {}

    def belongs(path: str) -> bool:
        if path not in real:
            real[path] = os.path.realpath(path) in report_only
        return real[path]
    return belongs


def _nothing_found(empty_directories: list[str]) -> str:
    if empty_directories:
        where = ", ".join(empty_directories)
        return f"{PROG}: warning: no .gdef files found in {where}: nothing was checked\n"
    return f"{PROG}: warning: every path given is excluded: nothing was checked\n"


def _use_color(choice: str) -> bool:
    """--color always/never win; auto colours a terminal unless NO_COLOR is set (no-color.org)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


if __name__ == "__main__":
    main()
