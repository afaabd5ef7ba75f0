"""Differential tests against OpenSpiel: along seeded random games, our examples and OpenSpiel's
implementations of the same games must offer the same set of resulting positions at every step,
end at the same moment and name the same winner.

OpenSpiel describes moves as actions and positions as text; each game's mapping to our
coordinates is the one its example's header comment states. OpenSpiel's checkers splits a
multiple capture into one action per jump (the same player stays on turn); such actions are
followed to the end of the turn, since our checkers makes the whole capture one move.
"""
from __future__ import annotations

import pytest

from openspiel_support import play_against
from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402


def _grid_rows(text: str, rows: int) -> list[str]:
    return [line for line in text.split("\n") if line][:rows]


def tictactoe_position(text: str) -> frozenset:
    """Three lines of 'x', 'o', '.': line r, character c is our square (c, r)."""
    names = {"x": "X", "o": "O"}
    return frozenset((c, r, names[ch]) for r, line in enumerate(_grid_rows(text, 3))
                     for c, ch in enumerate(line) if ch in names)


def connect_four_position(text: str) -> frozenset:
    """Six lines, the top row first: line i is row 5 - i, counted from the bottom as ours."""
    names = {"x": "X", "o": "O"}
    return frozenset((c, 5 - i, names[ch]) for i, line in enumerate(_grid_rows(text, 6))
                     for c, ch in enumerate(line) if ch in names)


def _labelled_rows(text: str, names: dict[str, str]) -> frozenset:
    """Lines '8.+.+.+.+': the row number (our y + 1), then columns a..h (our x 0..7)."""
    squares = set()
    for line in _grid_rows(text, 8):
        y = int(line[0]) - 1
        squares.update((x, y, names[ch]) for x, ch in enumerate(line[1:9]) if ch in names)
    return frozenset(squares)


def checkers_position(text: str) -> frozenset:
    return _labelled_rows(text, {"o": "W", "8": "WK", "+": "B", "*": "BK"})


def breakthrough_position(text: str) -> frozenset:
    return _labelled_rows(text, {"b": "B", "w": "W"})


def othello_position(text: str) -> frozenset:
    """After a title and the column letters: '4 - - - o x - - - 4', row 4 being our y = 3."""
    names = {"x": "B", "o": "W"}
    squares = set()
    for line in text.split("\n"):
        parts = line.split()
        if len(parts) == 10 and parts[0].isdigit():
            y = int(parts[0]) - 1
            squares.update((x, y, names[ch]) for x, ch in enumerate(parts[1:9]) if ch in names)
    return frozenset(squares)


CASES = {
    # OpenSpiel name: (example, position parser, games, seed)
    "tic_tac_toe": ("tictactoe.gdef", tictactoe_position, 100, 1),
    "connect_four": ("connect4.gdef", connect_four_position, 40, 2),
    "checkers": ("checkers.gdef", checkers_position, 12, 3),
    "othello": ("reversi.gdef", othello_position, 8, 4),
    "breakthrough": ("breakthrough.gdef", breakthrough_position, 10, 5),
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_moves_end_and_winner_as_openspiel(name):
    example, position, games, seed = CASES[name]
    game = load_game([str(EXAMPLES / example)])
    spiel_game = pyspiel.load_game(name)
    play_against(game, spiel_game, position, games=games, seed=seed, label=name)
