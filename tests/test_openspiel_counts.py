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


def test_kalah_through_the_gdef_adapter_plays_as_mancala():
    """The same through `pyspiel.load_game("gdef", ...)`: our actions, mapped by the move each
    stands for to OpenSpiel's pits, and the observation's count plane holding the seeds."""
    import numpy as np
    import gdef_core.interop.openspiel  # noqa: F401  (registers "gdef")

    ours_game, theirs_game = pyspiel.load_game("gdef", {"path": KALAH}), pyspiel.load_game("mancala")
    shape = ours_game.observation_tensor_shape()
    assert shape == [3, 8, 2]   # no objects, two players' planes, the counts
    rng = random.Random(3)
    for number in range(10):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            player = theirs.current_player()
            assert ours.current_player() == player
            counts = np.array(ours.observation_tensor()).reshape(shape)[2]
            assert [int(counts[x, y]) for x, y in KALAH_PITS] == spiel_pits(theirs)
            mine = {}
            for action in ours.legal_actions():
                first = ours.action_to_string(player, action).split(";")[0]
                x, y = (int(v) for v in first[len("count("):].split(",")[:2])
                mine[KALAH_PITS.index((x, y))] = action
            assert sorted(mine) == theirs.legal_actions()
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(mine[action])
        assert ours.is_terminal() and ours.returns() == theirs.returns(), f"game {number}"


OWARE = str(EXAMPLES / "oware.gdef")
# OpenSpiel's house h is our square OWARE_HOUSES[h]; the stores hold what each player captured.
OWARE_HOUSES = [*((h + 1, 0) for h in range(6)), *((12 - h, 1) for h in range(6, 12))]
OWARE_STORES = [(7, 0), (0, 1)]


def oware_position(state) -> tuple[list[int], list[int]]:
    return ([state.board.count(x, y) for x, y in OWARE_HOUSES], [state.board.count(x, y) for x, y in OWARE_STORES])


def spiel_oware(state) -> tuple[list[int], list[int]]:
    """OpenSpiel's seeds per house and scores, from its observation tensor (each / 48)."""
    values = [round(v * 48) for v in state.observation_tensor(0)]
    return values[:12], values[12:]


def oware_action(move, player: int) -> int:
    first = move.ops[0]
    return OWARE_HOUSES.index((first.x, first.y)) - 6 * player


@pytest.mark.parametrize("seed", [1, 2])
def test_oware_plays_as_openspiel_oware(seed):
    """At every node the same houses, stores, legal moves and player; at the end the same
    returns, and our final scores are OpenSpiel's after its final sweep. The sweep itself is
    not on our board (end() cannot change the board yet), so the last board is not compared."""
    game, spiel_game = load_game(OWARE), pyspiel.load_game("oware")
    rng = random.Random(seed)
    for number in range(15):
        ours, theirs = game.new_state(), spiel_game.new_initial_state()
        step = 0
        while not theirs.is_terminal():
            where = f"seed {seed} game {number} step {step}"
            assert not ours.is_over, where
            assert oware_position(ours) == spiel_oware(theirs), where
            player = theirs.current_player()
            assert ours.current_player == player, where
            mine = {oware_action(move, player): move for move in ours.legal_moves()}
            assert sorted(mine) == theirs.legal_actions(), where
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply(mine[action])
            step += 1
        assert ours.is_over, f"seed {seed} game {number}"
        assert our_returns(ours) == theirs.returns(), f"seed {seed} game {number}"
        assert ours.scores == spiel_oware(theirs)[1], f"seed {seed} game {number}"


@pytest.mark.parametrize("path, name, depth", [(KALAH, "mancala", 5), (OWARE, "oware", 4)])
def test_perft_counts_as_openspiel(path, name, depth):
    from gdef_core.runtime.perft import perft

    def spiel_perft(state, d: int) -> int:
        if d == 0 or state.is_terminal():
            return 1 if d == 0 else 0
        total = 0
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            total += spiel_perft(after, d - 1)
        return total

    start = pyspiel.load_game(name).new_initial_state()
    assert perft(load_game(path).new_state(), depth) == [spiel_perft(start, d) for d in range(1, depth + 1)]
