"""The three games written as a newcomer would (benchmarks/games: ultimate tic-tac-toe and Y
without moves(), quoridor with walls and a path search; docs/performance.md "Games the engine
had not seen") on the C route against the Python backend: perft from the start and random games
of the kernel replayed move by move, legal at every step, with the same ends and winners.
"""
from __future__ import annotations

import pytest

from support import ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

from native_support import c_route, kernel_perft, replay_native_games  # noqa: E402, F401 (c_route: a fixture)

NEW_GAMES = ROOT / "benchmarks" / "games"

pytestmark = pytest.mark.usefixtures("c_route")


def c_rules(name: str):
    game = load_game(str(NEW_GAMES / f"{name}.gdef"))
    native = NativeRules.load(game, None)
    assert native.route == "c"
    return game, native


@pytest.mark.parametrize("name, depth, counts", [
    ("ultimate_tic_tac_toe", 2, [81, 720]),   # 81 squares; then the 8 or 9 empty of the board sent to
    ("y", 2, [190, 35_910]),                   # 190 cells, then 189 each
    ("quoridor", 2, [131, 16_677]),            # 3 steps and 128 walls (OpenSpiel's counts too)
])
def test_perft_is_the_python_backends(name, depth, counts):
    game, native = c_rules(name)
    assert kernel_perft(native, game.new_state(), depth) == perft(game.new_state(), depth) == counts


@pytest.mark.parametrize("name, games", [("ultimate_tic_tac_toe", 6), ("y", 4), ("quoridor", 4)])
def test_kernel_games_replay_through_the_python_backend(name, games):
    game, native = c_rules(name)
    outcomes = replay_native_games(game, native, game.new_state(), games, seed=4)
    assert {outcome.winner for outcome in outcomes} <= {None, 0, 1}
