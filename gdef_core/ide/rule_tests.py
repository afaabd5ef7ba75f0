"""Rule tests (`*.test.moves`, see gdef_core.testing) in the editor, in gdef_core terms.

What a test file's lines mean (completion and hover of `?` assertion keywords, read from
gdef_core.testing.assertions.KEYWORDS; lines that cannot be read, found without running
anything), which test files test a game, the command line that runs them (gdef-test in its
own process: rules are user code, and the server never runs them itself), and its JUnit
report read back as failures at the lines of the test files.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

from gdef_core.ide.completion import Candidate, CandidateKind
from gdef_core.ide.describe import code_block
from gdef_core.testing.assertions import KEYWORDS, usage
from gdef_core.testing.scripts import (PARAM_KEY, SUFFIX, TestFileError, find_game, read_cases, read_params,
                                       read_starts)
from gdef_core.testing.start_header import KEYS as START_KEYS, HeaderError, header_lines, read_start
from gdef_core.testing.unreadable import script_steps, unreadable

TEST_MODULE = "gdef_core.cli.test"
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_KEY = re.compile(r"\s*#\s*(?P<key>[a-z]+)\s*:")
_TYPED_KEY = re.compile(r"\s*#(?P<gap>\s*)[a-z]*")  # a header key being typed
_LOCATION = re.compile(r"^.*?:(\d+):(\d+): ")
_STDERR_PROBLEM = re.compile(r"^gdef-test: error: (.+?)(?::(\d+)(?::(\d+))?)?: (.*)$")
MAX_TEST_FILES = 200  # looked at per game, for its lens (asked for at every edit)
_PARAM_MEANING = "The game's parameters (a line of the file's header): "


def is_test_file(path: str) -> bool:
    return path.endswith(SUFFIX)


def is_move_script(path: str) -> bool:
    """A move script: a test file, or the `--moves` file of gdef-run (moves and `?` lines)."""
    return path.endswith(".moves")


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong at a line of a test file (0-based line and columns; an end_column
    below 0 means the end of the line)."""

    line: int
    column: int
    end_column: int
    message: str
    severity: str = "error"  # "error" (the test cannot pass) or "warning"


# ---------------------------------------------------------------- reading a test file


def game_of(path: str, text: str) -> list[str] | Problem:
    """The game files a test file tests (its `# game:` header, or the game beside it)."""
    header, _ = read_cases(path, text)
    try:
        return find_game(path, header)
    except TestFileError as error:
        line = (error.line or 1) - 1
        return Problem(line, 0, len(_line(text, line)), error.message)


def syntax_problems(path: str, text: str) -> list[Problem]:
    """Moves and assertions that cannot be read (testing.unreadable), `# param:` and start lines
    that cannot be read, as gdef-test (or `gdef-run --moves`) would report them, found without
    running the rules; for a test file also a missing game."""
    found = []
    sections = is_test_file(path)
    if sections:
        game = game_of(path, text)
        if isinstance(game, Problem):
            found.append(game)
    try:
        read_params(path, text)
    except TestFileError as error:
        line = (error.line or 1) - 1
        found.append(Problem(line, 0, len(_line(text, line)), error.message))
    found += _start_problems(path, text, sections)
    steps = [step for case in read_cases(path, text)[1] for step in case.steps] if sections else script_steps(text)
    found += [Problem(problem.line - 1, problem.column, problem.end, problem.message) for problem in unreadable(steps)]
    return found


def _start_problems(path: str, text: str, sections: bool = True) -> list[Problem]:
    """Start-position lines (the file's header; with `sections`, a test file's, a test's too)
    that cannot be read, and `# from:` records that are not files (what fits the game is found
    by running the tests, or the script)."""
    try:
        if sections:
            _, cases = read_cases(path, text)
            headers = (read_starts(path, text, cases), *(case.start for case in cases))
        else:
            headers = (read_start(text),)
    except (TestFileError, HeaderError) as error:
        return [Problem(error.line - 1, error.column, error.end, error.message)]
    found = {}
    for header in headers:
        if header.is_record and not os.path.isfile(header.record_path(path)):
            at = header.source_at
            found[at] = Problem(at.line - 1, at.column, at.end, f"the record {header.record_path(path)} is not a file")
    return list(found.values())


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line] if 0 <= line < len(lines) else ""


# ---------------------------------------------------------------- completion and hover


def complete(text: str, line: int, column: int, variables: list[str] = (), objects: list[str] = ()
             ) -> list[Candidate]:
    """Candidates in an assertion line: the keyword after `?`, the words a keyword's
    arguments spell out (`winner`, `draw` after `over`), the game's variables after `var`
    and its objects at the end of `square X,Y`; and the start-position keys (`# from:` ...)
    after a `#` where a header line may stand (the file's header, or below a test's `[name]`)."""
    head = _line(text, line)[:column]
    typed_key = _TYPED_KEY.fullmatch(head)
    if typed_key is not None and line + 1 in _start_line_numbers(text):
        keys = [_start_key(key, typed_key["gap"]) for key in START_KEYS]
        if line + 1 in _header_line_numbers(text):  # the file's parameters: its header only
            written, meaning = PARAM_KEY
            keys.append(Candidate("param:", CandidateKind.KEYWORD, detail=f"# param: {written}",
                                  documentation=f"{_PARAM_MEANING}{meaning}.",
                                  insert_text=f"{'' if typed_key['gap'] else ' '}param: ", sort_group=0))
        return keys
    if "#" in head or not head.lstrip().startswith("?"):
        return []
    words = head.lstrip()[1:].split()
    typing = bool(words) and not head[-1:].isspace()
    done = words[:-1] if typing else words
    if not done:
        return [_keyword(word) for word in KEYWORDS]
    keyword = done[0]
    if keyword not in KEYWORDS:
        return []
    fixed = [w for w in _WORD.findall(KEYWORDS[keyword][0]) if w.islower()]  # `[winner P | draw]`
    if fixed and len(done) == 1:
        return [Candidate(word, CandidateKind.KEYWORD, detail=usage(keyword), documentation=_meaning(keyword),
                          sort_group=0) for word in fixed]
    if keyword == "var" and len(done) == 1:
        return [Candidate(name, CandidateKind.GAME_VAR, detail="game variable", sort_group=0) for name in variables]
    if keyword == "square" and len(done) >= 2 and _square_filled(done[1:]):
        return [Candidate(name, CandidateKind.OBJECT, detail="obj", sort_group=0) for name in [*objects, "empty"]]
    return []


def _start_key(key: str, gap: str) -> Candidate:
    written, meaning = START_KEYS[key]
    return Candidate(f"{key}:", CandidateKind.KEYWORD, detail=f"# {key}: {written}",
                     documentation=f"Where the moves start: {meaning}.", insert_text=f"{'' if gap else ' '}{key}: ",
                     sort_group=0)


def _square_filled(words: list[str]) -> bool:
    """`X,Y` (or `X, Y` / `X Y`) is written: the object comes next."""
    numbers = re.findall(r"-?\d+", " ".join(words))
    return len(numbers) == 2 and not re.search(r"[A-Za-z_]", " ".join(words))


def _keyword(word: str) -> Candidate:
    insert = "not over" if word == "not" else word + " "
    return Candidate("not over" if word == "not" else word, CandidateKind.KEYWORD, detail=usage(word),
                     documentation=_meaning(word), insert_text=insert, sort_group=0)


def _meaning(keyword: str) -> str:
    _, meaning = KEYWORDS[keyword]
    return f"{code_block(usage(keyword))}\n\nAsserts that {meaning}. It checks the position the moves above it " \
           "reached and changes nothing."


def _start_line_numbers(text: str) -> set[int]:
    """The (1-based) lines that may write a start position: the header's, and those below each `[name]`."""
    _, cases = read_cases("", text)
    return _header_line_numbers(text) | {number for case in cases for number, _ in case.start_lines}


def _header_line_numbers(text: str) -> set[int]:
    """The (1-based) numbers of the comment lines a file starts with: its header."""
    return {number for number, _ in header_lines(text)}


@dataclass(frozen=True, slots=True)
class Hover:
    markdown: str
    line: int
    column: int
    end_column: int


def hover(text: str, line: int, column: int) -> Hover | None:
    """The meaning of the assertion keyword (or its fixed words: `winner`, `draw`, `over`)
    or of the start-position header key (`# from:`, `# board:` ...) under the cursor."""
    content = _line(text, line)
    key = _HEADER_KEY.match(content)
    if key and key["key"] == "param" and key.start("key") <= column <= key.end("key") \
            and line + 1 in _header_line_numbers(text):
        written, meaning = PARAM_KEY
        return Hover(f"{code_block(f'# param: {written}')}\n\n{_PARAM_MEANING}{meaning}.", line, key.start("key"),
                     key.end("key"))
    if key and key["key"] in START_KEYS and key.start("key") <= column <= key.end("key") \
            and line + 1 in _start_line_numbers(text):
        written, meaning = START_KEYS[key["key"]]
        usage_line = code_block(f"# {key['key']}: {written}")
        markdown = f"{usage_line}\n\nWhere the moves start (a line of the script's header; in a rule-test file " \
                   f"also below a test's `[name]`, for that test): {meaning}."
        return Hover(markdown, line, key.start("key"), key.end("key"))
    if not content.lstrip().startswith("?") or "#" in content[:column]:
        return None
    words = list(_WORD.finditer(content))
    if not words or words[0].group() not in KEYWORDS:
        return None
    keyword = words[0].group()
    fixed = {w for w in _WORD.findall(KEYWORDS[keyword][0]) if w.islower()}
    for word in words:
        if word.start() <= column <= word.end() and (word is words[0] or word.group() in fixed):
            return Hover(_meaning(keyword), line, word.start(), word.end())
    return None


# ---------------------------------------------------------------- which tests, and running them


def tests_of_game(game_path: str) -> list[str]:
    """The test files in the game's folder and the folders below it (two levels) whose game
    is `game_path`."""
    game = os.path.abspath(game_path)
    tests = []
    for path in _test_files(os.path.dirname(game)):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                header = handle.read(4096)
        except OSError:
            continue
        games = game_of(path, header)
        if not isinstance(games, Problem) and game in (os.path.abspath(g) for g in games):
            tests.append(os.path.abspath(path))
    return tests


def _test_files(folder: str, depth: int = 2) -> list[str]:
    found = []
    for root, dirs, files in os.walk(folder):
        level = os.path.relpath(root, folder).count(os.sep) + (root != folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")
                         and level < depth)
        found += [os.path.join(root, name) for name in sorted(files) if name.endswith(SUFFIX)]
        if len(found) >= MAX_TEST_FILES:
            return found[:MAX_TEST_FILES]
    return found


def command(test_files: list[str], junit_path: str) -> list[str]:
    """The argv that runs `test_files` and writes their JUnit report to `junit_path`."""
    return [sys.executable, "-m", TEST_MODULE, "-q", "--junit-xml", junit_path, *test_files]


@dataclass(slots=True)
class CaseOutcome:
    file: str
    name: str
    status: str  # "passed", "failed", "error"
    problem: Problem | None = None  # where and why, for a test that did not pass


@dataclass(slots=True)
class RunReport:
    cases: list[CaseOutcome] = field(default_factory=list)
    file_problems: dict[str, list[Problem]] = field(default_factory=dict)  # test files gdef-test refused

    def count(self, status: str) -> int:
        return sum(1 for case in self.cases if case.status == status)

    def summary(self) -> str:
        """`2 failed, 1 error, 5 passed`, as gdef-test counts."""
        parts = [f"{self.count(s)} {s if s != 'error' else 'errors' if self.count(s) > 1 else 'error'}"
                 for s in ("failed", "error", "passed") if self.count(s)]
        refused = len(self.file_problems)
        if refused:
            parts.append(f"{refused} unreadable file{'s' if refused > 1 else ''}")
        return ", ".join(parts) or "no tests"

    @property
    def ok(self) -> bool:
        return bool(self.cases) and not self.file_problems and all(c.status == "passed" for c in self.cases)

    def problems(self, path: str) -> list[Problem]:
        path = os.path.abspath(path)
        found = list(self.file_problems.get(path, []))
        found += [case.problem for case in self.cases
                  if case.problem is not None and os.path.abspath(case.file) == path]
        return found


def read_report(junit_xml: str, stderr: str) -> RunReport:
    """gdef-test's JUnit report (and its error lines) -> outcomes with their lines."""
    import xml.etree.ElementTree as ET  # only when a run has ended, not with the code lens of every game

    report = RunReport()
    for text in stderr.splitlines():
        match = _STDERR_PROBLEM.match(text.strip())
        if match and is_test_file(match[1]):
            line, column = int(match[2] or 1) - 1, int(match[3] or 1) - 1
            end = -1 if match[2] else 0  # a line's problem runs to its end
            report.file_problems.setdefault(os.path.abspath(match[1]), []).append(Problem(line, column, end, match[4]))
    if not junit_xml.strip():
        return report
    for case in ET.fromstring(junit_xml).iter("testcase"):
        bad = case.find("failure")
        status = "failed" if bad is not None else "passed"
        if bad is None and (bad := case.find("error")) is not None:
            status = "error"
        outcome = CaseOutcome(case.get("file", ""), case.get("name", ""), status)
        if bad is not None:
            outcome.problem = _problem(case, bad)
        report.cases.append(outcome)
    return report


def _problem(case, bad) -> Problem:
    """Where a failure is (`FILE:LINE:COL: message` heads gdef-test's description) and
    what it says: the message, expected and actual, the board (`case`, `bad`: the report's
    testcase element and its failure or error element)."""
    description = (bad.text or "").strip("\n")
    first, _, rest = description.partition("\n")
    match = _LOCATION.match(first)
    if match:
        line, column = int(match[1]) - 1, int(match[2]) - 1
        message = first[match.end():]
    else:
        line, column = int(case.get("line", "1") or 1) - 1, 0
        message = bad.get("message", "") or first
    details = "\n".join(part[2:] if part.startswith("  ") else part for part in rest.splitlines())
    name = case.get("name", "")
    return Problem(line, column, -1, f"[{name}] {message}" + (f"\n{details}" if details else ""))
