"""A board as text for a terminal: coordinates on both axes, optional ANSI colours.

Row y = 0 is drawn at the bottom (as a chessboard's first rank, and as gravity games such as
connect four expect); `y_down=True` draws it at the top instead.
"""
from __future__ import annotations

import re

from gdef_core.runtime.game import BoardView

EMPTY_MARK = "."
# Foreground colours for objects in declaration order (bold red, blue, green, yellow, ...).
_PALETTE = ("1;31", "1;34", "1;32", "1;33", "1;35", "1;36", "31", "34", "32", "33", "35", "36")
_DIM = "2"


def render_board(board: BoardView, objects: list[str], *, color: bool = False, y_down: bool = False,
                 scores: list | None = None) -> str:
    """The board; `scores` (spec 15.5) are written beside it once any is non-zero."""
    text = _board_text(board, objects, color=color, y_down=y_down)
    if not scores or not any(scores):
        return text
    lines = text.split("\n")
    width = max(len(_visible(line)) for line in lines)
    notes = ["scores:", *(f"  player {p}: {_number(v)}" for p, v in enumerate(scores))]
    for i, note in enumerate(notes):
        if i + 1 < len(lines):
            line = lines[i + 1]
            lines[i + 1] = line + " " * (width - len(_visible(line)) + 3) + note
        else:
            lines.append(" " * (width + 3) + note)
    return "\n".join(lines)


def _visible(line: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


def _number(value) -> str:
    return f"{value:g}" if type(value) is float else str(value)


def _board_text(board: BoardView, objects: list[str], *, color: bool, y_down: bool) -> str:
    width, height = board.width, board.height
    names = [*objects, EMPTY_MARK]
    cell = max(max(len(n) for n in names), len(str(width - 1)))
    label = len(str(height - 1))
    colours = {name: _PALETTE[i % len(_PALETTE)] for i, name in enumerate(objects)}

    def paint(text: str, code: str | None) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color and code else text

    def square(x: int, y: int) -> str:
        name = board[x, y]
        if name == "empty":
            return paint(EMPTY_MARK.rjust(cell), _DIM)
        return paint(str(name).rjust(cell), colours.get(name))

    axis = " " * (label + 1) + " ".join(paint(str(x).rjust(cell), _DIM) for x in range(width))
    rows = range(height) if y_down else range(height - 1, -1, -1)
    lines = [axis]
    for y in rows:
        squares = " ".join(square(x, y) for x in range(width))
        lines.append(f"{paint(str(y).rjust(label), _DIM)} {squares} {paint(str(y), _DIM)}")
    lines.append(axis)
    return "\n".join(line.rstrip() for line in lines)
