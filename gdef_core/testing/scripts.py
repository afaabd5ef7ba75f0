"""Rule-test files (`*.test.moves`): a move script with assertions, split into named tests.

    # game: ../checkers.gdef          (optional: else NAME.gdef beside the file, see find_game)
    # param: board_size=7             (optional, repeatable: the game's parameters, read_params)
    # from: endgame.json              (optional: where the tests start, with `# board:`, `# turn:` ...:
                                       gdef_core.testing.start_header)
    [a man reaching the far row is crowned]
    place(...) clear(...)             a move, as at the gdef-run prompt
    ? square 3,7 K                    an assertion (gdef_core.testing.assertions)

A `[name]` line starts a test from the file's start position (the comment lines right below it
may write the test's own, on the file's); lines before the first one form a test
named after the file. `#` starts a comment.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from gdef_core.testing.start_header import HeaderError, StartHeader, header_lines, read_start, read_start_lines

SUFFIX = ".test.moves"
# header lines; a `#` after the value starts a comment, as on every line of a script
_GAME_HEADER = re.compile(r"#\s*game\s*:\s*(?P<path>[^#\s][^#]*?)\s*(?:#.*)?$")
_PARAM_HEADER = re.compile(r"#\s*param\s*:\s*(?P<setting>[^#]*?)\s*(?:#.*)?$")
_SECTION = re.compile(r"\[(?P<name>[^\]]*)\]\s*$")
# `# param:` as written and what it sets: the one description completion and hover read
PARAM_KEY = ("NAME=VALUE", "the game's declared parameter NAME (`param int NAME = ...;`) takes VALUE for the "
             "whole file: every test of a rule-test file, every move of a gdef-run script. One line per "
             "parameter, among the comment lines the file starts with; a --param (or a launch's \"params\") "
             "of another value is an error, as the moves are written for this one")


class TestFileError(ValueError):
    """A test file that cannot be used: its game cannot be found, or it cannot be read."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None,
                 end: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line
        self.column = column  # 0-based, when the problem is at a place in the line
        self.end = end

    @property
    def where(self) -> str:
        """PATH, PATH:LINE or PATH:LINE:COLUMN (1-based), as messages locate it."""
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}" + (f":{self.column + 1}" if self.column is not None else "")


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a test: a move or an assertion (`text` starts with '?')."""

    text: str
    line: int
    column: int


@dataclass
class TestCase:
    file: str
    name: str
    line: int  # of its `[name]` line, or 1
    steps: list[Step] = field(default_factory=list)
    # The comment lines below its `[name]` line before its first step, (number, text): they
    # may write where it starts (start_header); and that start on the file's, once read.
    start_lines: list[tuple[int, str]] = field(default_factory=list)
    start: StartHeader | None = None

    @property
    def node_id(self) -> str:
        return f"{self.file}::{self.name}"


@dataclass(frozen=True, slots=True)
class ParamSetting:
    """One `# param: NAME=VALUE` header line; `column`: where its NAME starts (0-based)."""

    value: str
    line: int
    column: int = 0


@dataclass
class TestFile:
    path: str
    game_paths: list[str]
    cases: list[TestCase]
    params: dict[str, ParamSetting] = field(default_factory=dict)
    start: StartHeader = field(default_factory=StartHeader)


def parse_test_file(path: str, text: str) -> TestFile:
    header, cases = read_cases(path, text)
    start = read_starts(path, text, cases)
    return TestFile(path, find_game(path, header), cases, read_params(path, text), start)


def read_starts(path: str, text: str, cases: list[TestCase]) -> StartHeader:
    """The file header's start position (start_header), and each test's (`case.start`: the
    lines below its `[name]` on the file's); a TestFileError at a line that cannot be read."""
    try:
        start = read_start(text)
        for case in cases:
            case.start = start.within(read_start_lines(case.start_lines)) if case.start_lines else start
        return start
    except HeaderError as error:
        raise TestFileError(path, error.message, error.line, error.column, error.end) from None


def read_params(path: str, text: str) -> dict[str, ParamSetting]:
    """The `# param: NAME=VALUE` lines of the file's header (the comment lines it starts with,
    beside `# game:`): the game's parameters for every test of the file, one line each. A
    line that is not NAME=VALUE, or that sets a parameter again, is a TestFileError at its line."""
    params: dict[str, ParamSetting] = {}
    for number, raw in header_lines(text):
        stripped = raw.strip()
        match = _PARAM_HEADER.match(stripped)
        if match:
            name, equals, value = match["setting"].partition("=")
            if not equals or not name.strip() or not value.strip():
                raise TestFileError(path, f"`{stripped}` is not a parameter setting: write "
                                          f"`# param: NAME=VALUE` (for example `# param: board_size=7`)", number)
            earlier = params.get(name.strip())
            if earlier is not None:
                raise TestFileError(path, f"parameter '{name.strip()}' is already set on line {earlier.line}: "
                                          f"keep one `# param: {name.strip()}=...` line", number)
            params[name.strip()] = ParamSetting(value.strip(), number, raw.index(name.strip(), raw.index(":")))
    return params


def script_params(path: str, text: str, given: dict[str, str], setting: str) -> tuple[dict[str, str], dict]:
    """The parameters a move script is played with (gdef-run --moves, the debugger, the board
    page): its `# param:` lines (read_params, as gdef-test reads them) with `given`, the run's
    own (`setting` names them: --param, the launch's "params"), and those lines by name. The
    script's moves are written for its values, so a given value that differs is no override
    (as in gdef-test) but a TestFileError at the script's line: one of the two must go."""
    written = read_params(path, text)
    for name, line in written.items():
        if name in given and str(given[name]).lower() != line.value.lower():
            raise TestFileError(path, f"the script is played with {name}={line.value}, and {setting} sets "
                                      f"{name}={given[name]}: its moves are written for its own value (drop one of "
                                      "the two)", line.line, line.column, line.column + len(name))
    return {**given, **{name: line.value for name, line in written.items()}}, written


def read_cases(path: str, text: str) -> tuple[str | None, list[TestCase]]:
    """The `# game:` header (None if absent) and the tests of a test file's text, without
    looking for the game (the editor reads files whose game may not exist yet)."""
    default = os.path.basename(path)[: -len(SUFFIX)] if path.endswith(SUFFIX) else os.path.basename(path)
    header: str | None = None
    cases = [TestCase(path, default, 1)]
    for number, raw in enumerate(text.splitlines(), 1):
        if header is None and not any(case.steps for case in cases):
            match = _GAME_HEADER.match(raw.strip())
            if match:
                header = match["path"]
                continue
        content = raw.split("#", 1)[0]
        stripped = content.strip()
        if not stripped:
            if len(cases) > 1 and not cases[-1].steps and raw.strip():
                cases[-1].start_lines.append((number, raw))
            continue
        section = _SECTION.fullmatch(stripped)
        if section:
            name = section["name"].strip() or f"line {number}"
            cases.append(TestCase(path, name, number))
            continue
        cases[-1].steps.append(Step(stripped, number, len(content) - len(content.lstrip())))
    if not cases[0].steps and len(cases) > 1:
        cases.pop(0)
    return header, cases


def find_game(test_path: str, header: str | None) -> list[str]:
    """The game file of a test file: its `# game:` header (relative to the test file), else
    the .gdef beside it whose name the test file's name starts with (`checkers.gdef` for
    `checkers.test.moves` and `checkers-promotion.test.moves`), the longest such name."""
    folder = os.path.dirname(test_path) or "."
    if header is not None:
        paths = [os.path.normpath(os.path.join(folder, part)) for part in header.split()]
        for candidate in paths:
            if not os.path.isfile(candidate):
                raise TestFileError(test_path, f"the game named in the header, {candidate}, is not a file", 1)
        return paths
    stem = os.path.basename(test_path)[: -len(SUFFIX)] if test_path.endswith(SUFFIX) else test_path
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise TestFileError(test_path, f"cannot list {folder}: {error.strerror or error}") from None
    best = None
    for name in names:
        if not name.endswith(".gdef"):
            continue
        game = name[:-5]
        if stem == game or (stem.startswith(game) and stem[len(game)] in ".-_"):
            if best is None or len(game) > len(best[:-5]):
                best = name
    if best is None:
        raise TestFileError(test_path, f"which game does it test? Add a first line `# game: PATH.gdef`, "
                                       f"or put it beside the game as NAME{SUFFIX} for NAME.gdef")
    return [os.path.join(folder, best)]


def discover(paths: list[str]) -> tuple[list[str], list[str]]:
    """The test files under `paths` (sorted), and the paths that do not exist."""
    found: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__"))
                found += [os.path.normpath(os.path.join(root, name)) for name in sorted(files) if name.endswith(SUFFIX)]
        elif os.path.lexists(path):
            found.append(path)  # the reader refuses what is not a regular file
        else:
            missing.append(path)
    return list(dict.fromkeys(found)), missing
