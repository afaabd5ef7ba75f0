"""Differential tests of the runtime against OpenSpiel, for tic-tac-toe and connect four.

Along seeded random games played by OpenSpiel, at every step: every OpenSpiel-legal action,
written as our move, is accepted by `State.check`; every other single placement (a taken or
unreachable square, the other player's object), a clear, a pass and a double placement are
rejected; after each move both agree on whether the game is over and who won. Coordinates are
as the examples' headers state.
"""
from __future__ import annotations

import random

import pytest

from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core.runtime import load_game  # noqa: E402

GAMES = {
    # OpenSpiel name: (example, width, height, our square of an action, objects per player)
    "tic_tac_toe": ("tictactoe.gdef", 3, 3, lambda a, s: (a % 3, a // 3), ("X", "O")),
    "connect_four": ("connect4.gdef", 7, 6, None, ("X", "O")),
}
SEEDS = range(12)


def connect_four_square(action: int, state) -> tuple[int, int]:
    """The square the disc dropped into column `action` lands on (ours: y from the bottom)."""
    height = sum(1 for x, y, _ in state.board.occupied() if x == action)
    return action, height


def our_square(name: str, action: int, state) -> tuple[int, int]:
    to_square = GAMES[name][3]
    return to_square(action, state) if to_square else connect_four_square(action, state)


@pytest.fixture(scope="module", params=sorted(GAMES))
def pair(request):
    name = request.param
    example = EXAMPLES / GAMES[name][0]
    if not example.exists():
        pytest.skip(f"{example} has not landed yet")
    return name, load_game([str(example)]), pyspiel.load_game(name)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_agree_move_by_move(pair, seed: int) -> None:
    name, game, spiel_game = pair
    _, width, height, _, objects = GAMES[name]
    rng = random.Random(seed)
    ours, theirs = game.new_state(), spiel_game.new_initial_state()
    while not theirs.is_terminal():
        player = theirs.current_player()
        assert ours.current_player == player and not ours.is_over
        mine, other = objects[player], objects[1 - player]
        legal = {our_square(name, action, ours): action for action in theirs.legal_actions()}
        for x in range(width):
            for y in range(height):
                accepted = ours.check(f"place({x},{y},{mine})")
                assert accepted.legal == ((x, y) in legal), (seed, x, y, accepted.reason)
                assert not ours.check(f"place({x},{y},{other})")
                assert not ours.check(f"clear({x},{y})")
        first, second = sorted(legal)[0], sorted(legal)[-1]
        assert not ours.check("pass")
        assert not ours.check(f"place({first[0]},{first[1]},{mine}); place({second[0]},{second[1]},{mine})")
        square = rng.choice(sorted(legal))
        theirs.apply_action(legal[square])
        ours.apply(f"place({square[0]},{square[1]},{mine})")
        assert ours.is_over == theirs.is_terminal()
        assert sorted((x, y) for x, y, _ in ours.board.occupied()) == sorted(
            our_square_of_history(name, theirs))
    returns = theirs.returns()
    expected = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
    assert ours.winner == expected


def our_square_of_history(name: str, theirs) -> list[tuple[int, int]]:
    """The occupied squares after OpenSpiel's history, replayed on our coordinates."""
    if name == "tic_tac_toe":
        return [(a % 3, a // 3) for a in theirs.history()]
    heights: dict[int, int] = {}
    squares = []
    for column in theirs.history():
        squares.append((column, heights.get(column, 0)))
        heights[column] = heights.get(column, 0) + 1
    return squares


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_moves_match_openspiel(pair, seed: int) -> None:
    """Section 12: the enumerated legal moves are exactly OpenSpiel's legal actions."""
    name, game, spiel_game = pair
    rng = random.Random(1000 + seed)
    ours, theirs = game.new_state(), spiel_game.new_initial_state()
    while not theirs.is_terminal():
        moves = ours.legal_moves()
        expected = sorted(our_square(name, a, ours) for a in theirs.legal_actions())
        assert sorted((m.ops[0].x, m.ops[0].y) for m in moves) == expected
        action = rng.choice(theirs.legal_actions())
        square = our_square(name, action, ours)
        ours.apply(next(m for m in moves if (m.ops[0].x, m.ops[0].y) == square))
        theirs.apply_action(action)
    assert ours.is_over
