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
from typing import NamedTuple

from gdef_core.presentation import Presentation, default_presentation
from gdef_core.runtime.game import BoardView

EMPTY_MARK = "."
CROSSING_MARK = "+"  # an empty point of a board drawn as `intersections` (Go)
# Foreground colours for objects in declaration order (bold red, blue, green, yellow, ...).
_PALETTE = ("1;31", "1;34", "1;32", "1;33", "1;35", "1;36", "31", "34", "32", "33", "35", "36")
# Colours for the pieces of each side: player 0 bold yellow, player 1 bold cyan, ...
_SIDES = ("1;33", "1;36", "1;32", "1;35", "1;31", "1;34")
_DIM = "2"
MAX_DRAWN = 26  # columns and rows drawn after a move (a bigger board is drawn around the move)


def render_board(board: BoardView, objects: list[str], *, color: bool = False, y_down: bool = False,
                 scores: list | None = None, presentation: Presentation | None = None,
                 ascii: bool = False, window: Window | None = None) -> str:
    """The board (only the squares of `window` when given); `scores` (spec 15.5) are written
    beside it once any is non-zero."""
    if presentation is None:
        presentation = default_presentation(board.width, board.height, len(scores or ()), objects)
    if window is None:
        window = Window(range(board.width), range(board.height))
    text = _board_text(board, objects, presentation, window, color=color, y_down=y_down, ascii=ascii)
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


class Window(NamedTuple):
    """The columns and rows of a board that a drawing shows."""

    columns: range
    rows: range


def window_around(width: int, height: int, square: tuple[int, int] | None, size: int = MAX_DRAWN) -> Window | None:
    """At most `size` x `size` squares of a width x height board with `square` (else the board's
    first corner) as near their middle as the edges allow; None when the board fits whole: a
    1000 x 1000 board drawn after every move is a million cells nobody reads."""
    if width <= size and height <= size:
        return None
    x, y = square if square is not None else (0, 0)

    def span(centre: int, length: int) -> range:
        shown = min(size, length)
        start = max(0, min(centre - shown // 2, length - shown))
        return range(start, start + shown)

    return Window(span(x, width), span(y, height))


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


def _board_text(board: BoardView, objects: list[str], presentation: Presentation, window: Window, *,
                color: bool, y_down: bool, ascii: bool) -> str:
    xs, ys = window
    shown = {name: (presentation.piece(name).glyph if not ascii else None) or name for name in objects}
    columns, rows = presentation.columns, presentation.rows
    empty_mark = CROSSING_MARK if presentation.style == "intersections" else EMPTY_MARK
    counts = {} if presentation.counts == "hidden" else {(x, y): n for x, y, n in board.counts()
                                                         if x in xs and y in ys}
    cell = max(max((len(text) for text in shown.values()), default=1), len(empty_mark),
               max(len(columns[x]) for x in xs),
               max((len(_counted(shown, board[x, y], n)) for (x, y), n in counts.items()), default=1))
    label = max(len(rows[y]) for y in ys)
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

    axis = " " * (label + 1) + " ".join(paint(columns[x].rjust(cell), _DIM) for x in xs)
    order = ys if y_down else reversed(ys)
    lines = [axis]
    for y in order:
        squares = " ".join(square(x, y) for x in xs)
        lines.append(f"{paint(rows[y].rjust(label), _DIM)} {squares} {paint(rows[y], _DIM)}")
    lines.append(axis)
    return "\n".join(line.rstrip() for line in lines)


def _counted(shown: dict, name: str, count: int) -> str:
    """A square with a count: the object's glyph then the count, or the count alone."""
    return ("" if name == "empty" else shown.get(name, str(name))) + str(count)
