"""Random games of a game without moves() on the C route (kernel.c g_automatic_draw): its
candidates are every place of every object on every square, the clears of the occupied squares
and the pass (spec section 12), most of them illegal. A random game draws among them as it
always did (the same numbering, the same random numbers: the same games as numba's kernel and as
before) but writes only the clears and the candidates it draws, not the whole list each turn
(Y: 39% fewer instructions, docs/performance.md "Games the engine had not seen").
"""
from __future__ import annotations

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.native.backend import ENDED  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games, use_route  # noqa: E402, F401 (c_route: a fixture)

# 30 squares, two objects: 60 places, then the clears of the occupied squares, then the pass;
# each player places its own object on an empty square, the board full ends the game.
FILL = """name: fill
players: 2
size: 6 x 5
obj X
obj O

define isMoveLegal() -> bool {
  if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; }
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  obj mine = X;
  if (onTurn() == 1) { mine = O; }
  return OperationList[0][2] == mine && CurrentPosition[x][y] == empty;
}

define end() -> bool {
  return moveNumber() == 30;
}
"""


def test_a_random_game_writes_only_the_clears_and_the_candidates_it_draws(c_route, tmp_path):
    game, native = compile_rules(tmp_path, "fill", FILL)
    assert native.route == "c"
    CO = native.workspace()[0]
    CO[:] = -7
    status, winner = native.playout(game.new_state(), 1, None)
    assert (status, winner) == (ENDED, -1)
    # row 0: the candidate drawn; rows 1 .. 29: the clears of at most 29 occupied squares
    assert (CO[30:] == -7).all()
    assert (CO[1:30] != -7).any()


def test_the_fill_game_plays_the_python_backends_games(c_route, tmp_path):
    game, native = compile_rules(tmp_path, "fill", FILL)
    outcomes = replay_native_games(game, native, game.new_state(), 8, seed=2)
    assert [outcome.length for outcome in outcomes] == [30] * 8


@pytest.mark.parametrize("route", ["route_numba"])
def test_both_routes_play_the_same_games_without_moves(tmp_path, monkeypatch, route):
    """The C route draws over the numbering numba's kernel writes out (kernels/kernel.py
    _automatic): a seed plays the same game on both."""
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("numba"):
        game, numba_rules = compile_rules(tmp_path, "fill", FILL)
    assert numba_rules.route == "numba"
    c_rules = NativeRules.load(game, None, route="c")
    assert c_rules.route == "c"
    seeds = np.arange(300, dtype=np.uint64)
    recorded = [[rules.recorded_moves(int(seed), game.new_state(), None) for seed in seeds[:20]]
                for rules in (numba_rules, c_rules)]
    assert recorded[0] == recorded[1]
    played = [rules.playouts(seeds, game.new_state(), None) for rules in (numba_rules, c_rules)]
    for mine, theirs in zip(*played):
        assert mine.tolist() == theirs.tolist()
