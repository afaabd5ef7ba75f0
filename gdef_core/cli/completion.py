"""What Tab offers at gdef-run's prompt for a typed text: the legal moves' names and
operations that start with it, without naming every legal move of a big board.

A position of at most NAMED_ALL legal moves is named whole, as `moves` names it. Beyond (a
1000 x 1000 board has a million), a name is looked for only among the moves touching a square
the text could be naming: a move's name holds the name of a square it touches (docs/language.md,
"Move names"), so a name that starts with the text either holds a square name that is whole
inside the text, or the text ends inside the first square name of it. Those squares are few
once the text says enough (`X@51`: the squares whose name starts with `51`, and those whose
name is inside the text: notation.squares_named); while they are too many, only operations
are completed. A text that still fits more than SHOWN words is completed to the next
separator (`place(` -> `place(7,`), so readline lists hundreds, never millions.
"""
from __future__ import annotations

import re

from gdef_core.runtime.notation import NAMED_ALL, squares_named, touching

SHOWN = 200  # words offered before they are cut at the next separator
_SEPARATOR = re.compile(r"[(),;@ ]")
_FIRST_OP = re.compile(r"(place|clear|count)\((-?[0-9]*)(,?)")  # as far as the text writes it


def completions(state, text: str) -> list[str]:
    """The legal moves' names and operation texts that start with `text`, at most about SHOWN
    (beyond, cut at their next separator). Raises GdefRuntimeError when the rules fail."""
    found = state.legal_ops()
    if len(found) <= NAMED_ALL:
        moves = state.moves_of(found)
        words = [*state.move_names(moves), *(str(move) for move in moves)]
        return _shortened([word for word in dict.fromkeys(words) if word.startswith(text)], text)
    words = []
    squares = squares_named(state.game.presentation, text)
    if squares:
        near = state.moves_of(touching(found, squares))
        words += [name for name in state.names_in_position(near) if name.startswith(text)]
    words += _operations(found, text)
    return _shortened(list(dict.fromkeys(words)), text)


def _operations(found: list, text: str) -> list[str]:
    """The texts of the legal moves `found` that start with `text`: written out only for the
    moves whose first operation's kind and column fit what the text has of them, and before
    the text names a column, only the kinds (`place(`) or the columns (`place(7,`)."""
    start = _FIRST_OP.match(text)
    if start is None:
        kinds = [word for word in ("place(", "clear(", "count(", "pass") if word.startswith(text)]
        return [word for word in kinds if any(_kind(ops) == word for ops in found)]
    kind, digits, comma = start.group(1), start.group(2), start.group(3)
    first = [ops for ops in found if ops and _kind(ops) == kind + "("]
    if not comma:
        columns = dict.fromkeys(ops[0][0] for ops in first)
        words = [f"{kind}({x}," for x in columns if str(x).startswith(digits)]
        return [word for word in words if word.startswith(text)]
    if digits in ("", "-"):  # `place(,`: no move is written so
        return []
    x = int(digits)
    return [written for written in map(_written, (ops for ops in first if ops[0][0] == x)) if written.startswith(text)]


def _kind(ops: tuple) -> str:
    """The word a move's text starts with: `place(`, `clear(`, `count(`, or `pass`."""
    if not ops:
        return "pass"
    op = ops[0]
    return "count(" if len(op) > 4 else "place(" if op[3] else "clear("


def _written(ops: tuple) -> str:
    """A legal move's operation tuples as str(Move) writes them, without making the Move."""
    if not ops:
        return "pass"
    return "; ".join(f"count({op[0]},{op[1]},{op[4]})" if len(op) > 4 else
                     f"place({op[0]},{op[1]},{op[2]})" if op[3] else f"clear({op[0]},{op[1]})" for op in ops)


def _shortened(words: list[str], text: str) -> list[str]:
    """`words`, or when they are more than SHOWN each cut after its next separator past `text`."""
    if len(words) <= SHOWN:
        return words
    cut = []
    for word in words:
        separator = _SEPARATOR.search(word, len(text) + 1)
        cut.append(word if separator is None else word[:separator.end()])
    return list(dict.fromkeys(cut))
