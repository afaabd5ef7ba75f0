"""How a game is shown to players: board style, coordinate labels, pieces, player names, the
game variables players see and how moves are named.

The checker builds one Presentation per game from its `show { ... }` blocks
(gdef_core/semantics/show.py) and fills in the defaults below for whatever is not declared;
the console, the web board, the protocol and move names all read it. It never changes what
the rules mean.
"""
from __future__ import annotations

import base64
import os
from dataclasses import dataclass, field

# The words of `show` blocks and what they mean: the checker (semantics/show.py), completion
# and hover (ide/show_help.py) read these tables.
SHOW_KEYS: dict[str, str] = {
    "style": "The board: `checkered`, `plain`, `intersections` (stones on the lines, as in Go) or `hex`.",
    "columns": "A label per column, x = 0 first: `\"abcdefgh\"` (a character each), `\"A\", \"B\", ...`, "
               "`1, 2, ...` or `from N`. Default: `from 0`.",
    "rows": "A label per row, y = 0 first, as for `columns`. Default: `from 0`.",
    "sides": "The players' names, player 0 first: `\"White\", \"Black\"`. Default: `Player 0`, `Player 1` ...",
    "visible": "The game variables players see. Default: all but the tables (those no function assigns).",
    "notation": "How moves are named: `auto` (from-to for a piece moved, the square for one placed), "
                "`square`, `column` or `fromto`.",
    "counts": "Whether the squares' counts (`CurrentCount`) are drawn: `shown` (the default: a non-zero "
              "count as a number in its cell) or `hidden` (the counts stay game state).",
}
STYLE_WORDS: dict[str, str] = {
    "checkered": "Squares in two alternating colours (chess, checkers).",
    "plain": "Squares of one colour (tic-tac-toe, reversi, connect four).",
    "intersections": "Lines, with the pieces on their crossings and star points (Go, gomoku).",
    "hex": "Hexagonal cells, the board drawn as a rhombus (Hex).",
}
NOTATION_WORDS: dict[str, str] = {
    "auto": "A piece moved is named from-to (`e2e4`, a promotion `e7e8q`), a piece placed by its square (`D4`).",
    "square": "Every move is named by the square where a piece arrives (`d3`).",
    "column": "Every move is named by the column where a piece arrives (`d`, connect four).",
    "fromto": "As `auto`: from-to for a piece moved, the square for one placed.",
}
COUNT_WORDS: dict[str, str] = {
    "shown": "A non-zero count is drawn in its cell, after the object's glyph or alone (seeds, stack heights).",
    "hidden": "Counts are not drawn (they stay game state, read by the rules).",
}
# The words each key that takes one word allows (the checker, completion and hover read it).
KEY_WORDS: dict[str, dict[str, str]] = {"style": STYLE_WORDS, "notation": NOTATION_WORDS, "counts": COUNT_WORDS}
PIECE_WORDS: dict[str, str] = {
    "image": "`image \"file.svg\"`: a small image (PNG, SVG, GIF, JPEG, WebP, at most 64 KB) instead of a glyph, "
             "relative to this file.",
    "side": "`side N`: the player the object belongs to; pieces are coloured by side.",
    "letter": "`letter \"q\"`: the object's letter in move names (`e7e8q`, `N@e4`). Default: its name.",
}
STYLES = tuple(STYLE_WORDS)
NOTATIONS = tuple(NOTATION_WORDS)
COUNT_DISPLAYS = tuple(COUNT_WORDS)
DEFAULT_STYLE = "checkered"
DEFAULT_NOTATION = "auto"
IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".gif": "image/gif",
               ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}
MAX_IMAGE_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Piece:
    """How one object is drawn: a glyph (Unicode text) or an image file (absolute path), the
    player it belongs to, and its letter in move names (a promotion `e7e8q`, a drop `N@e4`)."""

    glyph: str | None = None
    image: str | None = None
    side: int | None = None
    letter: str | None = None

    def to_json(self) -> dict:
        return {"glyph": self.glyph, "image": image_url(self.image), "side": self.side}


@dataclass(frozen=True)
class Presentation:
    """Everything a board drawing needs beyond the position; see docs/language.md, "show"."""

    style: str
    columns: tuple[str, ...]  # the label of x = 0 .. width-1
    rows: tuple[str, ...]  # the label of y = 0 .. height-1
    players: tuple[str, ...]  # the name of player 0 .. players-1
    visible: tuple[str, ...]  # the game variables players see, in declaration order
    notation: str = DEFAULT_NOTATION
    pieces: dict[str, Piece] = field(default_factory=dict)  # every object, declared or not
    counts: str = "shown"  # whether boards draw the squares' counts: "shown" or "hidden"

    def piece(self, obj: str) -> Piece:
        return self.pieces.get(obj) or Piece()

    def player(self, number: int | None) -> str:
        """The name of player `number` ("Player 3" past the declared ones)."""
        if number is not None and 0 <= number < len(self.players):
            return self.players[number]
        return f"Player {number}"

    def who(self, number: int | None, start: bool = False) -> str:
        """A player in a sentence: the declared name ("White"), else "player 3" ("Player 3" at
        the `start` of a sentence)."""
        name = self.player(number)
        return name if start or name != f"Player {number}" else f"player {number}"

    def letter(self, obj: str) -> str:
        """The object's letter in move names: declared, else its name."""
        return self.piece(obj).letter or obj

    def square(self, x: int, y: int) -> str:
        """The name of square (x, y): column label then row label, with a ',' between two
        numbers (`3,1`), so that every square's name reads back as one square."""
        column, row = self.columns[x], self.rows[y]
        joiner = "," if column[-1:].isdigit() and row[:1].isdigit() else ""
        return f"{column}{joiner}{row}"

    def to_json(self) -> dict:
        """The `presentation` of the web board's game payload (docs/web.md)."""
        return {"style": self.style, "columns": list(self.columns), "rows": list(self.rows),
                "pieces": {name: piece.to_json() for name, piece in self.pieces.items()},
                "players": list(self.players), "visible": list(self.visible), "notation": self.notation,
                "counts": self.counts}


def number_labels(count: int, first: int = 0) -> tuple[str, ...]:
    return tuple(str(first + i) for i in range(count))


def default_player_names(players: int) -> tuple[str, ...]:
    return tuple(f"Player {number}" for number in range(players))


def default_presentation(width: int, height: int, players: int, objects, variables=()) -> Presentation:
    """What a game that declares nothing gets: checkered squares numbered from 0 (the
    coordinates of the operations), players "Player 0" ..., every game variable shown."""
    return Presentation(DEFAULT_STYLE, number_labels(width), number_labels(height),
                        default_player_names(players), tuple(variables), DEFAULT_NOTATION,
                        {name: Piece() for name in objects})


def image_url(path: str | None) -> str | None:
    """An image file as a `data:` URL (the web page needs no second request), None when it
    cannot be read (the checker reported why)."""
    if path is None:
        return None
    kind = IMAGE_TYPES.get(os.path.splitext(path)[1].lower())
    try:
        with open(path, "rb") as image:
            data = image.read(MAX_IMAGE_BYTES + 1)
    except OSError:
        return None
    if kind is None or len(data) > MAX_IMAGE_BYTES:
        return None
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"

