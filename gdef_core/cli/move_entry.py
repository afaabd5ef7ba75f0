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
LISTED = 400  # moves `moves` lists (Go 19x19's 362 whole); more are reached by number or by square


def is_move_number(text: str) -> bool:
    return NUMBER.fullmatch(text) is not None


@dataclass(frozen=True)
class Listing:
    """The legal moves of a position numbered from 1, and the first of those a filter kept
    (a 1000 x 1000 board has two million: a listing shows at most LISTED)."""

    count: int  # legal moves in all
    shown: list[tuple[int, tuple]]  # (number, operations) of the moves listed
    matched: int  # moves the filter kept (count without a square)
    square: tuple[int, int] | None = None


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


def listing(legal: list, square: tuple[int, int] | None = None, limit: int = LISTED) -> Listing:
    """Number `legal` (operation tuples, State.legal_ops()) from 1; with a square keep the moves
    that place on or clear it; the first `limit` kept are shown."""
    numbered = enumerate(legal, 1)
    if square is not None:
        x, y = square
        numbered = ((n, ops) for n, ops in numbered if any(op[0] == x and op[1] == y for op in ops))
    shown, matched = [], 0
    for item in numbered:
        matched += 1
        if len(shown) < limit:
            shown.append(item)
    return Listing(len(legal), shown, matched, square)


def format_listing(found: Listing, names: list[str], width: int = 100, weights: list[int] | None = None) -> str:
    """The numbered moves in columns, as `ls` lays out names, and a line on how to use them.
    `names`: the shown moves' names; `weights`: at a chance node, every outcome's weight."""
    count = found.count
    if not found.shown:
        where = f" on square {found.square[0]},{found.square[1]}" if found.square else ""
        return (f"No legal move{where}." if count == 0 or not found.square else
                f"No legal move touches square {found.square[0]},{found.square[1]} "
                f"({_moves(count)} in all; 'moves' lists them).")
    digits = len(str(count))
    cells = [f"{n:>{digits}}. {name}{_odds(weights, n)}" for (n, _), name in zip(found.shown, names)]
    cell_width = max(map(len, cells)) + 3
    columns = max(1, min(len(cells), width // cell_width))
    rows = -(-len(cells) // columns)
    lines = []
    for row in range(rows):
        line = "".join(cells[i].ljust(cell_width) for i in range(row, len(cells), rows))
        lines.append(line.rstrip())
    kept = f"{found.matched:,} of {count:,}" if found.square else f"{count:,}"
    if len(found.shown) < found.matched:
        square = f" touching {found.square[0]},{found.square[1]}" if found.square else ""
        narrower = "" if found.square else ", or 'moves SQUARE' (3,1 or e2) for those touching a square"
        lines.append(f"{kept} legal moves{square}; showing the first {len(found.shown):,}. "
                     f"Type a number to play that move (any number up to {count:,}){narrower}.")
    elif weights:
        lines.append(f"{kept} outcome{'s' if count != 1 else ''} of chance, with their probabilities; "
                     "type a number to play that one, or press Enter to roll.")
    else:
        lines.append(f"{kept} legal move{'s' if count != 1 else ''}; type a number to play that move.")
    return "\n".join(lines)


def _moves(count: int) -> str:
    return f"{count:,} legal move{'s' if count != 1 else ''}"


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
