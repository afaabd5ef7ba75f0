"""Games whose squares count, against OpenSpiel: examples/kalah.gdef is OpenSpiel's `mancala`
along seeded random games, at every node the same legal moves (a move is named by the pit it
sows, OpenSpiel's action), the same player on turn, the same seeds in every pit, and the same
returns at the end."""
from __future__ import annotations

import random

import pytest

from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402

KALAH = str(EXAMPLES / "kalah.gdef")
# OpenSpiel's pit p is our square (KALAH_PITS[p]); its action is the pit sown.
KALAH_PITS = [(0, 1), *((p, 0) for p in range(1, 8)), *((14 - p, 1) for p in range(8, 14))]


def kalah_pits(state) -> list[int]:
    return [state.board.count(x, y) for x, y in KALAH_PITS]


def spiel_pits(state) -> list[int]:
    """The seeds of OpenSpiel's pits 0..13, read from its observation tensor."""
    return [int(v) for v in state.observation_tensor(0)[:14]]


def kalah_action(move) -> int:
    """OpenSpiel's action of one of our moves: the pit it sows, its first operation's square."""
    first = move.ops[0]
    return KALAH_PITS.index((first.x, first.y))


def our_returns(state) -> list[float]:
    if state.winner is None:
        return [0.0, 0.0]
    return [1.0 if p == state.winner else -1.0 for p in range(2)]


@pytest.mark.parametrize("seed", [1, 2])
def test_kalah_plays_as_openspiel_mancala(seed):
    game, spiel_game = load_game(KALAH), pyspiel.load_game("mancala")
    rng = random.Random(seed)
    for number in range(40):
        ours, theirs = game.new_state(), spiel_game.new_initial_state()
        step = 0
        while not theirs.is_terminal():
            where = f"seed {seed} game {number} step {step}"
            assert not ours.is_over, where
            assert kalah_pits(ours) == spiel_pits(theirs), where
            assert ours.current_player == theirs.current_player(), where
            mine = {kalah_action(move): move for move in ours.legal_moves()}
            assert sorted(mine) == theirs.legal_actions(), where
            assert all(ours.move_name(move) == game.presentation.square(*KALAH_PITS[a]) for a, move in mine.items())
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply(mine[action])
            step += 1
        assert ours.is_over, f"seed {seed} game {number}"
        assert kalah_pits(ours) == spiel_pits(theirs)
        assert our_returns(ours) == theirs.returns(), f"seed {seed} game {number}"
