"""Where the tests of a rule-test file start, as its header writes it (docs/runtime.md,
"Starting from a position"):

    # from: endgame.json            a gdef-run record (relative to the file), `empty` or `start`
    # board: place(0,7,BK); clear(4,4); count(2,0,3)    operations applied to that board, in order
    # board:                        or the whole board, drawn as gdef-test and gdef-run --ascii draw it:
    #   a b c                         each row its label, then its squares (an object's name or glyph,
    # 3 . . .                         `.` or `+` for an empty square, a count after it or alone)
    # 2 . X .                         up to a line `#` alone, the next header line or the header's end
    # 1 O . .
    # turn: 1                       player 1 moves next (`# turn: chance then 1`: chance first)
    # var: movesWithoutCapture=40   a game variable, its value written as `? var` writes one
    # score: 0=12                   a player's score
    # move: 30                      the moves played so far (moveNumber())

A `#` after a line's value starts a comment (`# turn: 1   # Black to move`), as anywhere in a move
script. Read here without the game, as the editor reads it; gdef_core.runtime.start_position
makes it a position of the game and says what does not fit (a square off the board, an unknown
object), for gdef-test and for `gdef-run --moves` and the debugger, whose scripts may start with
the same lines (split_header).
"""
from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from gdef_core.moves import Move, MoveSyntaxError, Op
from gdef_core.testing.assertions import parse_value

# key -> (value as written, what it sets): the one description that errors and hover read
KEYS: dict[str, tuple[str, str]] = {
    "from": ("start | empty | RECORD.json", "the position the tests start from: the game's start "
             "(after setup()), that position with every square emptied, or the position a gdef-run "
             "record reaches (its moves replayed), the record's path relative to this file"),
    "board": ("OPERATIONS", "operations applied in order to that board: place(x,y,OBJ), clear(x,y), "
              "count(x,y,N), separated by ';'; or nothing, and the board drawn on the lines below"),
    "turn": ("P | chance then P", "player P moves next, or chance moves next and then player P"),
    "var": ("NAME=VALUE", "game variable NAME holds VALUE: a number, true/false, an object, "
            "an array as {a, b} / {{a, b}, {c, d}}"),
    "score": ("P=VALUE", "player P's score (setScore) is VALUE"),
    "move": ("N", "N moves have been played (moveNumber())"),
}
SOURCES = ("start", "empty")  # the `# from:` values that are not records
# a header line; a `#` after its value starts a comment, as on every line of a move script
_LINE = re.compile(r"\s*#\s*(?P<key>[a-z]+)\s*:\s*(?P<value>[^#]*?)\s*(?:#.*)?$")
_PLAYER = re.compile(r"\d{1,9}")
_SETTING = re.compile(r"\s*(?P<name>[^=\s]+)\s*=\s*(?P<value>.*?)\s*$")


class HeaderError(ValueError):
    """A header line that cannot be read: `line` 1-based, `column` and `end` 0-based."""

    def __init__(self, message: str, line: int, column: int, end: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.end = message, line, column, end


@dataclass(frozen=True, slots=True)
class At:
    """Where a header value is written: its line (1-based), its columns (0-based, end excluded)."""

    line: int
    column: int
    end: int


@dataclass(frozen=True, slots=True)
class Picture:
    """A board drawn below `# board:`: each line's number, the column its text starts at, its text."""

    at: At  # of the `# board:` line
    lines: tuple[tuple[int, int, str], ...]


@dataclass
class StartHeader:
    source: str = "start"  # "start", "empty", or a record's path as written
    source_at: At | None = None
    board: list[tuple[Op, At] | Picture] = field(default_factory=list)  # in the order written
    turn: tuple[int, bool, At] | None = None  # the player, whether chance moves first
    variables: list[tuple[str, object, At]] = field(default_factory=list)  # At: the whole setting
    scores: list[tuple[int, object, At]] = field(default_factory=list)
    move: tuple[int, At] | None = None

    @property
    def is_record(self) -> bool:
        return self.source not in SOURCES

    @property
    def writes_position(self) -> bool:
        """Whether the header changes the position it starts from (else that position is used as it is)."""
        return (self.source == "empty" or bool(self.board) or self.turn is not None or bool(self.variables)
                or bool(self.scores) or self.move is not None)

    def within(self, test: "StartHeader") -> "StartHeader":
        """A test's own start (the lines below its `[name]`) on this one, the file's: with its own
        `# from:` the test's lines alone count; else they follow the file's, a turn or a move
        number of the test's replacing the file's."""
        if test.source_at is not None:
            return test
        return StartHeader(self.source, self.source_at, [*self.board, *test.board], test.turn or self.turn,
                           [*self.variables, *test.variables], [*self.scores, *test.scores], test.move or self.move)

    def record_path(self, test_path: str) -> str:
        """The record's path, relative to the test file's folder."""
        return os.path.normpath(os.path.join(os.path.dirname(test_path) or ".", self.source))


def header_lines(text: str) -> Iterator[tuple[int, str]]:
    """The comment lines a test file starts with (blank lines skipped), 1-based numbers: its header."""
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            return
        yield number, raw


def split_header(lines: Iterable[str]) -> tuple[StartHeader, Iterator[str]]:
    """The start a move script's header writes, and the script's lines again, all of them in
    order: of `lines` (a stream, say) only the header and the line after it are read here.
    HeaderError at the first header line that cannot be read."""
    lines = iter(lines)
    head = []
    for raw in lines:
        head.append(raw)
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            break
    numbered = [(number, raw.rstrip("\n")) for number, raw in enumerate(head, 1)
                if raw.strip().startswith("#")]
    return read_start_lines(numbered), itertools.chain(head, lines)


def read_start(text: str) -> StartHeader:
    """The start position a test file's header writes (the game's start when it writes none);
    HeaderError at the first line that cannot be read."""
    return read_start_lines(list(header_lines(text)))


def read_start_lines(lines: list[tuple[int, str]]) -> StartHeader:
    """The start position written by these comment lines (numbered from 1 in their file): a
    file's header, or the lines below a test's `[name]`; other comments among them are skipped."""
    header = StartHeader()
    position = 0
    while position < len(lines):
        number, raw = lines[position]
        position += 1
        match = _LINE.match(raw)
        if not match or match["key"] not in KEYS:
            continue
        key, value = match["key"], match["value"]
        at = At(number, match.start("value"), match.start("value") + len(value))
        if key == "board" and not value:
            drawn = []
            while position < len(lines) and not _ends_picture(lines[position][1]):
                line, raw = lines[position]
                start = raw.index("#") + 1
                drawn.append((line, start, raw[start:]))
                position += 1
            if not drawn:
                raise HeaderError("no board is drawn below `# board:`: draw it on the lines below (a row a "
                                  "line, as gdef-test draws a board), or write operations after `# board:`",
                                  number, match.start("key"), match.end("key"))
            header.board.append(Picture(At(number, match.start("key"), match.end("key")), tuple(drawn)))
            continue
        if not value:
            raise _error(key, f"`# {key}:` needs a value", at)
        _READERS[key](header, value, at)
    return header


def _ends_picture(raw: str) -> bool:
    """A line `#` alone, or a header line (`# turn: 1`, `# game: ...`), ends a drawn board."""
    return raw.strip() == "#" or bool(re.match(r"\s*#\s*[a-z]+\s*:", raw))


def _error(key: str, message: str, at: At) -> HeaderError:
    written, _ = KEYS[key]
    return HeaderError(f"{message}: write `# {key}: {written}`", at.line, at.column, at.end)


def _once(header: StartHeader, key: str, taken: bool, at: At) -> None:
    if taken:
        raise HeaderError(f"a second `# {key}:` line: a header sets it once", at.line, at.column, at.end)


def _from(header: StartHeader, value: str, at: At) -> None:
    _once(header, "from", header.source_at is not None, at)
    header.source, header.source_at = value, at


def _board(header: StartHeader, value: str, at: At) -> None:
    try:
        move, starts = Move.parse_located(value)
    except MoveSyntaxError as error:
        column = at.column + error.column - 1
        raise HeaderError(f"not operations: {error.message}", at.line, column, at.end) from None
    if move.is_pass:
        raise _error("board", "`pass` changes no square", at)
    ends = [*(start - 1 for start in starts[1:]), len(value)]
    for op, start, end in zip(move.ops, starts, ends):
        written = value[start - 1:end].rstrip().rstrip(";").rstrip()
        header.board.append((op, At(at.line, at.column + start - 1, at.column + start - 1 + len(written))))


def _turn(header: StartHeader, value: str, at: At) -> None:
    _once(header, "turn", header.turn is not None, at)
    words = value.split()
    chance = len(words) == 3 and words[:2] == ["chance", "then"]
    player = words[-1] if chance or len(words) == 1 else ""
    if not _PLAYER.fullmatch(player):
        raise _error("turn", f"`{value}` is not a player", at)
    header.turn = (int(player), chance, at)


def _setting(key: str, value: str, at: At) -> tuple[str, object]:
    match = _SETTING.fullmatch(value)
    parsed = parse_value(match["value"]) if match else None
    if parsed is None:
        raise _error(key, f"`{value}` is not a setting", at)
    return match["name"], parsed


def _var(header: StartHeader, value: str, at: At) -> None:
    name, parsed = _setting("var", value, at)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise _error("var", f"`{name}` is not a variable's name", at)
    header.variables.append((name, parsed, at))


def _score(header: StartHeader, value: str, at: At) -> None:
    player, parsed = _setting("score", value, at)
    if not _PLAYER.fullmatch(player) or isinstance(parsed, (bool, list, str)):
        raise _error("score", f"`{value}` is not a player's score", at)
    header.scores.append((int(player), parsed, at))


def _move(header: StartHeader, value: str, at: At) -> None:
    _once(header, "move", header.move is not None, at)
    if not _PLAYER.fullmatch(value):
        raise _error("move", f"`{value}` is not a number of moves", at)
    header.move = (int(value), at)


_READERS = {"from": _from, "board": _board, "turn": _turn, "var": _var, "score": _score, "move": _move}
