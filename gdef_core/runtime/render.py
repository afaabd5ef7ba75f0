"""A board as text for a terminal: coordinate labels on both axes, pieces by their glyphs,
coloured by side, or their names in plain ASCII.

Row y = 0 is drawn at the bottom (as a chessboard's first rank, and as gravity games such as
connect four expect); `y_down=True` draws it at the top instead. With a presentation
(gdef_core/presentation.py) the labels, glyphs, sides and player names are the game's own;
`ascii=True` draws object names instead of glyphs, for terminals that cannot show them.
A square's non-zero count (seeds, a stack's height) follows its glyph, or stands alone on an
empty square, right-aligned in the cell, unless the game's `show` hides counts.
"""
from __future__ import annotations

import re

from gdef_core.presentation import Presentation, default_presentation
from gdef_core.runtime.game import BoardView

EMPTY_MARK = "."
CROSSING_MARK = "+"  # an empty point of a board drawn as `intersections` (Go)
# Foreground colours for objects in declaration order (bold red, blue, green, yellow, ...).
_PALETTE = ("1;31", "1;34", "1;32", "1;33", "1;35", "1;36", "31", "34", "32", "33", "35", "36")
# Colours for the pieces of each side: player 0 bold yellow, player 1 bold cyan, ...
_SIDES = ("1;33", "1;36", "1;32", "1;35", "1;31", "1;34")
_DIM = "2"


def render_board(board: BoardView, objects: list[str], *, color: bool = False, y_down: bool = False,
                 scores: list | None = None, presentation: Presentation | None = None,
                 ascii: bool = False) -> str:
    """The board; `scores` (spec 15.5) are written beside it once any is non-zero."""
    if presentation is None:
        presentation = default_presentation(board.width, board.height, len(scores or ()), objects)
    text = _board_text(board, objects, presentation, color=color, y_down=y_down, ascii=ascii)
    if not scores or not any(scores):
        return text
    lines = text.split("\n")
    width = max(len(_visible(line)) for line in lines)
    notes = ["scores:", *(f"  {presentation.who(p)}: {_number(v)}" for p, v in enumerate(scores))]
    for i, note in enumerate(notes):
        if i + 1 < len(lines):
            line = lines[i + 1]
            lines[i + 1] = line + " " * (width - len(_visible(line)) + 3) + note
        else:
            lines.append(" " * (width + 3) + note)
    return "\n".join(lines)


def can_show(presentation: Presentation, encoding: str | None) -> bool:
    """Whether text in `encoding` can carry every glyph (else the board is drawn in ASCII)."""
    glyphs = "".join(piece.glyph or "" for piece in presentation.pieces.values())
    try:
        glyphs.encode(encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _visible(line: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


def _number(value) -> str:
    return f"{value:g}" if type(value) is float else str(value)


def _board_text(board: BoardView, objects: list[str], presentation: Presentation, *, color: bool,
                y_down: bool, ascii: bool) -> str:
    width, height = board.width, board.height
    shown = {name: (presentation.piece(name).glyph if not ascii else None) or name for name in objects}
    columns, rows = presentation.columns, presentation.rows
    empty_mark = CROSSING_MARK if presentation.style == "intersections" else EMPTY_MARK
    counts = {} if presentation.counts == "hidden" else {(x, y): n for x, y, n in board.counts()}
    cell = max(max((len(text) for text in shown.values()), default=1), len(empty_mark),
               max(len(label) for label in columns),
               max((len(_counted(shown, board[x, y], n)) for (x, y), n in counts.items()), default=1))
    label = max(len(label) for label in rows)
    colours = {}
    for i, name in enumerate(objects):
        side = presentation.piece(name).side
        colours[name] = _SIDES[side % len(_SIDES)] if side is not None else _PALETTE[i % len(_PALETTE)]

    def paint(text: str, code: str | None) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color and code else text

    def square(x: int, y: int) -> str:
        name = board[x, y]
        count = counts.get((x, y))
        if count is not None:
            return paint(_counted(shown, name, count).rjust(cell), colours.get(name))
        if name == "empty":
            return paint(empty_mark.rjust(cell), _DIM)
        return paint(shown.get(name, str(name)).rjust(cell), colours.get(name))

    axis = " " * (label + 1) + " ".join(paint(columns[x].rjust(cell), _DIM) for x in range(width))
    order = range(height) if y_down else range(height - 1, -1, -1)
    lines = [axis]
    for y in order:
        squares = " ".join(square(x, y) for x in range(width))
        lines.append(f"{paint(rows[y].rjust(label), _DIM)} {squares} {paint(rows[y], _DIM)}")
    lines.append(axis)
    return "\n".join(line.rstrip() for line in lines)


def _counted(shown: dict, name: str, count: int) -> str:
    """A square with a count: the object's glyph then the count, or the count alone."""
    return ("" if name == "empty" else shown.get(name, str(name))) + str(count)
