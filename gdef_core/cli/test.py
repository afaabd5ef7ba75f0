"""gdef-test: run the rule tests of `*.test.moves` files (docs/runtime.md, "Rule tests").

Thin: find the files, load each game once, run the tests (gdef_core.testing), print pytest-style
progress, failures with their board, a summary; optionally a JUnit XML report for CI.
Exit codes: 0 every test passed, 1 a test failed or erred, 2 bad arguments or unreadable files,
3 internal error (a bug in gdef), 5 no test found (as pytest).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import TextIO

from gdef_core.cli.common import add_param_option, add_version, exit_or_return, param_values

PROG = "gdef-test"
EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_NO_TESTS = 0, 1, 2, 3, 5


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the rule tests of *.test.moves files: moves and `?` assertions "
                    "(docs/runtime.md, \"Rule tests\").",
        epilog="Exit codes: 0 all passed, 1 failures, 2 usage error or unreadable files, "
               "5 no tests found.")
    parser.add_argument("paths", nargs="*", metavar="PATH", default=["."],
                        help="test files and directories searched for *.test.moves (default: .)")
    parser.add_argument("-k", dest="keyword", metavar="EXPR",
                        help="run only the tests whose FILE::NAME matches, e.g. -k 'castling and not long'")
    parser.add_argument("--junit-xml", metavar="OUT", help="also write a JUnit XML report (for CI)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per test")
    parser.add_argument("-q", "--quiet", action="store_true", help="only failures and the summary")
    add_param_option(parser)
    add_version(parser, PROG)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point of the console script; `prog`: the name in usage lines (`gdef test` from gdef)."""
    return exit_or_return(prog, partial(run, prog=prog), argv, interrupted=130, internal=EXIT_INTERNAL,
                          broken_pipe=EXIT_FAILED)


def run(argv: Sequence[str] | None, out: TextIO | None = None, err: TextIO | None = None,
        prog: str = PROG) -> int:
    from gdef_core.testing.scripts import discover
    from gdef_core.testing.select import KeywordError, keyword_matcher

    out, err = out or sys.stdout, err or sys.stderr
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    selected = lambda node_id: True  # noqa: E731
    if args.keyword is not None:
        try:
            selected = keyword_matcher(args.keyword)
        except KeywordError as error:
            parser.error(str(error))
    files, missing = discover(args.paths)
    for path in missing:
        err.write(f"{PROG}: error: {path}: no such file or directory\n")
    if missing:
        return EXIT_USAGE
    session = TestSession(out, err, args)
    started = time.perf_counter()
    for path in files:
        session.run_file(path, selected)
    session.seconds = time.perf_counter() - started
    for name in sorted(session.params.keys() - session.declared):
        err.write(f"{PROG}: error: --param {name}: no game tested declares a parameter '{name}'\n")
        session.unreadable += 1
    session.summary()
    if args.junit_xml and not session.write_junit(args.junit_xml):
        return EXIT_USAGE
    if session.unreadable:
        return EXIT_USAGE
    if not session.results:
        return EXIT_NO_TESTS
    return EXIT_PASSED if all(result.ok for result in session.results) else EXIT_FAILED


class TestSession:
    """The results of one run, printed as they come."""

    def __init__(self, out: TextIO, err: TextIO, args) -> None:
        self.out, self.err, self.args = out, err, args
        self.results: list = []
        self.load_errors: dict[str, str] = {}  # node id -> the game's problems, drawn
        self.unreadable = 0
        self.deselected = 0
        self.seconds = 0.0
        self.games: dict[tuple[str, ...], object] = {}
        self.params = param_values(args.param)  # --param: for the games that declare them
        self.declared: set[str] = set()

    def run_file(self, path: str, selected) -> None:
        from gdef_core.testing.runner import ERROR, CaseResult, run_case
        from gdef_core.testing.scripts import TestFileError, parse_test_file
        from gdef_core.runtime.start_position import StartError
        from gdef_core.testing.start_records import read_records, record_params

        text = self.read(path)
        if text is None:
            return
        try:
            test_file = parse_test_file(path, text)
            records = read_records(test_file)
            header = test_file.start
            record = records[header.record_path(path)] if header.is_record else None
            recorded = record_params(test_file, record, self.given_params(test_file))
        except TestFileError as error:
            self.err.write(f"{PROG}: error: {error.where}: {error.message}\n")
            self.unreadable += 1
            return
        cases = [case for case in test_file.cases if selected(case.node_id)]
        self.deselected += len(test_file.cases) - len(cases)
        if not cases:
            return
        game, problem = self.game(test_file, recorded)
        starts: dict[int, object] = {}  # id of a StartHeader -> its State, or the StartError
        marks = []
        for case in cases:
            start = None if game is None else self.start(game, case.start, records, path, starts)
            if game is None:
                result = CaseResult(case, ERROR, line=case.line, message=problem.splitlines()[0])
                self.load_errors[case.node_id] = problem
            elif isinstance(start, StartError):
                at = start.at
                result = CaseResult(case, ERROR, line=at.line, column=at.column, location=start.location,
                                    message=f"the start position does not fit {game.name}: {start.message}")
            else:
                result = run_case(game, case, start)
            self.results.append(result)
            marks.append(result)
            if self.args.verbose:
                self.out.write(f"{case.node_id} {result.status.upper()}\n")
        if not self.args.verbose and not self.args.quiet:
            self.out.write(f"{path} " + "".join(_MARK[r.status] for r in marks) + "\n")
        self.out.flush()

    def read(self, path: str) -> str | None:
        from gdef_core.files import binary_data_at, not_text_message, read_bytes

        try:
            data = read_bytes(path)
        except OSError as error:
            self.err.write(f"{PROG}: error: {path}: cannot read the tests: {error.strerror or error}\n")
            self.unreadable += 1
            return None
        binary = binary_data_at(data)
        if binary is not None:
            self.err.write(f"{PROG}: error: {path}: {not_text_message(binary)}\n")
            self.unreadable += 1
            return None
        return data.decode("utf-8", errors="replace")

    @staticmethod
    def start(game, header, records: dict, path: str, starts: dict):
        """The State a test starts from (None: the game's start), or the StartError saying
        why its header does not fit; each header of a file made a State once."""
        from gdef_core.runtime.start_position import StartError, start_state

        if not (header.is_record or header.writes_position):
            return None
        if id(header) not in starts:
            record = records[header.record_path(path)] if header.is_record else None
            try:
                starts[id(header)] = start_state(game, header, record)
            except StartError as error:
                starts[id(header)] = error
        return starts[id(header)]

    def given_params(self, test_file) -> dict[str, str]:
        """The parameters a test file's `# param:` lines and the run's --param (which wins) set."""
        return {**{name: setting.value for name, setting in test_file.params.items()}, **self.params}

    def game(self, test_file, recorded: dict):
        """The compiled game of a test file, with the parameters of the record it starts from,
        its `# param:` lines and the run's --param (which wins), loaded once per run; or None
        and the problems drawn."""
        from gdef_core.loader import GdefFileError, load_program
        from gdef_core.report import Report, render_text
        from gdef_core.report.limit import limit_syntax_errors
        from gdef_core.runtime.errors import GameLoadError, ParamError
        from gdef_core.runtime.game import game_from_program

        paths = test_file.game_paths
        header = {name: setting for name, setting in test_file.params.items() if name not in self.params}
        params = {**recorded, **{name: setting.value for name, setting in header.items()}, **self.params}
        key = (tuple(os.path.abspath(path) for path in paths), tuple(sorted(params.items())))
        if key not in self.games:
            try:
                program = load_program(list(paths), params=params)
                # a --param this game does not declare is for another game of the run
                refused = {name: why for name, why in program.param_errors.items() if name in header}
                program.param_errors = {name: why for name, why in program.param_errors.items()
                                        if name in program.params and name not in header}
                self.declared.update(program.params)
                for name, why in refused.items():
                    self.err.write(f"{PROG}: error: {test_file.path}:{header[name].line}: # param: {why}\n")
                if refused:
                    self.unreadable += 1
                    self.games[key] = (None, f"# param: {'; '.join(refused.values())}")
                else:
                    self.games[key] = (game_from_program(program), "")
            except GdefFileError as error:
                self.games[key] = (None, f"cannot read the game: {error}")
            except ParamError as error:
                self.err.write(f"{PROG}: error: {' '.join(paths)}: --param: {error}\n")
                self.unreadable += 1
                self.games[key] = (None, f"--param: {error}")
            except GameLoadError as error:
                sources = {module.path: module.text for module in program.modules}
                drawn = render_text(Report(limit_syntax_errors(error.diagnostics), list(sources), sources))
                self.games[key] = (None, f"the game {' '.join(paths)} cannot run: {error}\n{drawn}")
        return self.games[key]

    def summary(self) -> None:
        failures = [result for result in self.results if not result.ok]
        if failures:
            self.out.write("\n" + _banner("FAILURES", "=") + "\n")
            for result in failures:
                self.out.write(_banner(result.case.node_id, "_") + "\n")
                self.out.write(self.describe(result) + "\n")
        counts = []
        for status in ("failed", "error", "passed"):
            number = sum(1 for result in self.results if result.status == status)
            if number:
                counts.append(f"{number} {status if status != 'error' else 'errors' if number > 1 else 'error'}")
        if self.deselected:
            counts.append(f"{self.deselected} deselected")
        text = ", ".join(counts) or "no tests ran"
        self.out.write(_banner(f"{text} in {self.seconds:.2f}s", "=") + "\n")

    def describe(self, result) -> str:
        case = result.case
        where = f"{case.file}:{result.line}:{result.column + 1}" if result.line else case.file
        lines = [f"{where}: {result.message}"]
        if result.location:
            lines.append(f"  at {result.location}")
        if result.expected is not None:
            lines.append(f"  expected: {result.expected}")
            lines.append(f"  actual:   {result.actual}")
        if case.node_id in self.load_errors:
            lines += ["  " + line for line in self.load_errors[case.node_id].splitlines()[1:]]
        if result.board:
            lines += ["  " + line for line in result.board.splitlines()]
        return "\n".join(lines)

    def write_junit(self, path: str) -> bool:
        from gdef_core.testing.junit import junit_xml

        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(junit_xml(self.results, self.seconds, self.describe))
            return True
        except OSError as error:
            self.err.write(f"{PROG}: error: cannot write {path}: {error.strerror or error}\n")
            return False


_MARK = {"passed": ".", "failed": "F", "error": "E"}


def _banner(text: str, fill: str, width: int = 80) -> str:
    text = f" {text} "
    if len(text) >= width - 2:
        return fill * 2 + text + fill * 2
    left = (width - len(text)) // 2
    return fill * left + text + fill * (width - len(text) - left)


if __name__ == "__main__":
    main()
