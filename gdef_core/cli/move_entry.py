"""Move entry for people in gdef-run: `moves` lists the legal moves numbered, a number plays
one, `hint` asks a small mcts search for a suggestion. Typing `clear(4,1); place(4,3,WP)` for
every chess move, or `place(3,5,B)` on a 19x19 board, is what makes big games unplayable by
hand; numbers make them playable.

The numbers are the positions of the moves in the game's own order (`State.legal_moves()`:
the order of `moves()`, or squares row by row for the automatic candidates), counted from 1,
so the same position always numbers its moves the same way, listed or not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

NUMBER = re.compile(r"[0-9]+")
SQUARE = re.compile(r"\s*\(?\s*(-?[0-9]+)\s*[, ]\s*(-?[0-9]+)\s*\)?\s*")
HINT_MAX_SECONDS = 60.0


def is_move_number(text: str) -> bool:
    return NUMBER.fullmatch(text) is not None


@dataclass(frozen=True)
class Listing:
    """The legal moves of a position, numbered from 1, and the ones a filter kept."""

    moves: list
    shown: list[tuple[int, object]]
    square: tuple[int, int] | None = None
    names: list[str] | None = None  # the moves' names (gdef_core/runtime/notation.py)
    weights: list[int] | None = None  # at a chance node: each outcome's weight


def parse_square(text: str, presentation=None) -> tuple[int, int] | None:
    """`3,1`, `3 1` or `(3,1)` -> (3, 1), or a square's name (`e2`, with a presentation);
    None for anything else."""
    if presentation is not None:
        for x in range(len(presentation.columns)):
            for y in range(len(presentation.rows)):
                if presentation.square(x, y).lower() == text.strip().lower():
                    return x, y
    match = SQUARE.fullmatch(text)
    if match is None or max(len(match.group(1)), len(match.group(2))) > 9:
        return None
    return int(match.group(1)), int(match.group(2))


def listing(legal: list, square: tuple[int, int] | None = None, names: list[str] | None = None,
            weights: list[int] | None = None) -> Listing:
    """Number `legal` from 1; with a square keep the moves that place on or clear it. With
    `weights` the moves are chance's outcomes, listed with their probabilities."""
    numbered = list(enumerate(legal, 1))
    if square is not None:
        numbered = [(n, move) for n, move in numbered
                    if any((op.x, op.y) == square for op in move.ops)]
    return Listing(legal, numbered, square, names, weights)


def format_listing(found: Listing, width: int = 100) -> str:
    """The numbered moves in columns, as `ls` lays out names, and a line on how to use them."""
    count = len(found.moves)
    if not found.shown:
        where = f" on square {found.square[0]},{found.square[1]}" if found.square else ""
        return (f"No legal move{where}." if count == 0 or not found.square else
                f"No legal move touches square {found.square[0]},{found.square[1]} "
                f"({count} legal move{'s' if count != 1 else ''} in all; 'moves' lists them).")
    digits = len(str(count))
    cells = [f"{n:>{digits}}. {found.names[n - 1] if found.names else move}{_odds(found.weights, n)}"
             for n, move in found.shown]
    cell_width = max(map(len, cells)) + 3
    columns = max(1, min(len(cells), width // cell_width))
    rows = -(-len(cells) // columns)
    lines = []
    for row in range(rows):
        line = "".join(cells[i].ljust(cell_width) for i in range(row, len(cells), rows))
        lines.append(line.rstrip())
    kept = f"{len(found.shown)} of {count}" if found.square else str(count)
    if found.weights:
        lines.append(f"{kept} outcome{'s' if count != 1 else ''} of chance, with their probabilities; "
                     "type a number to play that one, or press Enter to roll.")
    else:
        lines.append(f"{kept} legal move{'s' if count != 1 else ''}; type a number to play that move.")
    return "\n".join(lines)


def _odds(weights: list[int] | None, n: int) -> str:
    """` (1/6)`: outcome n's probability, its weight over the sum, in lowest terms."""
    if not weights:
        return ""
    odds = Fraction(weights[n - 1], sum(weights))
    return f" ({odds.numerator}/{odds.denominator})"


def hint_budget(text: str) -> float | str | None:
    """`hint` -> None (the computer players' budget, --think); `hint 5` -> 5 seconds; a
    message for anything else."""
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        return f"'{text}' is not a number of seconds: write 'hint' or, say, 'hint 5'."
    if not 0 < seconds <= HINT_MAX_SECONDS:
        return f"give hint between 0 and {HINT_MAX_SECONDS:g} seconds (for example 'hint 5')."
    return seconds
