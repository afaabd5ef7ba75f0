"""Moves as people and tools write them: `place(1,1,X); clear(0,0); count(2,0,4)`, or `pass`.

A Move is only text made structured: it knows nothing about a game, so whether its squares are
on the board and its objects declared is decided by `State.check`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field


class MoveSyntaxError(ValueError):
    """Move text that cannot be read; `column` is 1-based."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.column = column


@dataclass(frozen=True, slots=True)
class Op:
    """One operation: `place(x, y, obj)` (obj is the object's name), `clear(x, y)` (obj None)
    or `count(x, y, n)` (obj None, count n: the square's count becomes n)."""

    x: int
    y: int
    obj: str | None = None
    count: int | None = None

    @property
    def is_place(self) -> bool:
        return self.obj is not None

    @property
    def is_count(self) -> bool:
        return self.count is not None

    def __str__(self) -> str:
        if self.count is not None:
            return f"count({self.x},{self.y},{self.count})"
        if self.obj is None:
            return f"clear({self.x},{self.y})"
        return f"place({self.x},{self.y},{self.obj})"


@dataclass(frozen=True, slots=True)
class Move:
    """A list of operations applied in order; no operations is `pass`."""

    ops: tuple[Op, ...] = ()
    # Set by the Game that produced this Move (legal_moves()): its operations resolved for that
    # game, so applying it needs no second look-up. Not part of the value.
    _game: object = field(default=None, init=False, compare=False, repr=False)
    _resolved: tuple | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read `place(x,y,OBJ)` / `clear(x,y)` / `count(x,y,N)` operations separated by `;`, or `pass`.
        Raises MoveSyntaxError saying what was expected where."""
        return _Reader(text).move()

    @classmethod
    def parse_located(cls, text: str) -> tuple["Move", tuple[int, ...]]:
        """`parse`, and the 1-based column where each operation starts (for messages about one)."""
        reader = _Reader(text)
        return reader.move(), tuple(reader.starts)

    @classmethod
    def place(cls, x: int, y: int, obj: str) -> "Move":
        return cls((Op(x, y, obj),))

    @classmethod
    def clear(cls, x: int, y: int) -> "Move":
        return cls((Op(x, y),))

    @property
    def is_pass(self) -> bool:
        return not self.ops

    def __str__(self) -> str:
        return "; ".join(map(str, self.ops)) if self.ops else "pass"


PASS = Move()

_TOKEN = re.compile(r"\s*(?:(?P<int>-?[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[(),;])|(?P<bad>\S))")


class _Reader:
    """A recursive-descent reader over a token list; each token is (kind, text, column)."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str, int]] = []
        for match in _TOKEN.finditer(text):
            kind = match.lastgroup
            if kind is None:
                break
            self.tokens.append((kind, match.group(kind), match.start(kind) + 1))
        self.end_column = len(text.rstrip()) + 1
        self.pos = 0
        self.starts: list[int] = []  # the column of each operation read

    def peek(self) -> tuple[str, str, int]:
        if self.pos < len(self.tokens):
            return self.tokens[self.pos]
        return ("end", "", self.end_column)

    def fail(self, expected: str) -> MoveSyntaxError:
        kind, text, column = self.peek()
        found = "the end of the move" if kind == "end" else f"'{text}'"
        return MoveSyntaxError(f"expected {expected}, found {found}", column)

    def take(self, text: str, expected: str) -> None:
        if self.peek()[1] != text or self.peek()[0] == "end":
            raise self.fail(expected)
        self.pos += 1

    def integer(self, what: str) -> int:
        kind, text, column = self.peek()
        if kind != "int":
            raise self.fail(f"the {what} (an integer)")
        self.pos += 1
        if len(text.lstrip("-").lstrip("0")) > 18:  # beyond any board (and Python's int-string limit)
            raise MoveSyntaxError(f"the {what} {text[:20]}{'...' if len(text) > 20 else ''} is far too large "
                                  "for a square of the board", column)
        return int(text)

    def count(self) -> int:
        """The n of `count(x,y,n)`: any int of the language (-2^63 to 2^63-1)."""
        kind, text, column = self.peek()
        if kind != "int":
            raise self.fail("the count (an integer)")
        self.pos += 1
        digits = text.lstrip("-").lstrip("0")
        if len(digits) > 19 or not -2 ** 63 <= int(text) < 2 ** 63:
            raise MoveSyntaxError(f"the count {text[:24]}{'...' if len(text) > 24 else ''} is not an int "
                                  "(-9223372036854775808 to 9223372036854775807)", column)
        return int(text)

    def move(self) -> Move:
        kind, text, column = self.peek()
        if kind == "end":
            raise MoveSyntaxError("empty move: write operations like place(1,1,X), or pass", 1)
        if kind == "name" and text == "pass":
            self.pos += 1
            if self.peek()[0] != "end":
                raise self.fail("nothing after 'pass'")
            return PASS
        ops = [self.operation()]
        while self.peek()[1] == ";" and self.peek()[0] == "punct":
            self.pos += 1
            if self.peek()[0] == "end":
                break
            ops.append(self.operation())
        if self.peek()[0] != "end":
            raise self.fail("';' between operations")
        return Move(tuple(ops))

    def operation(self) -> Op:
        kind, text, column = self.peek()
        if kind != "name" or text not in ("place", "clear", "count"):
            raise self.fail("'place(x,y,OBJ)', 'clear(x,y)', 'count(x,y,N)' or 'pass'")
        self.starts.append(column)
        self.pos += 1
        self.take("(", f"'(' after '{text}'")
        x = self.integer("x coordinate")
        self.take(",", "',' after the x coordinate")
        y = self.integer("y coordinate")
        obj = None
        if text == "count":
            self.take(",", "',' after the y coordinate")
            n = self.count()
            self.take(")", "')'")
            return Op(x, y, None, n)
        if text == "place":
            self.take(",", "',' after the y coordinate")
            kind, name, _ = self.peek()
            if kind != "name":
                raise self.fail("an object name")
            self.pos += 1
            obj = name
        self.take(")", "')'")
        return Op(x, y, obj)


def looks_like_name(text: str) -> bool:
    """Whether `text` is written as a name rather than as operations (`place(...)`)."""
    return "(" not in text and ";" not in text and bool(text.strip())
