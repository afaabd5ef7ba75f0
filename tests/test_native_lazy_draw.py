"""The C route's lazy draw (kernel.c g_lazy_draw, emit.py's z_ twins, lower/skippable.py): a
random game draws its move without writing every candidate where moves() calls a function whose
only effects are operations and that provably cannot fail (lower/ranges.py), and it stays
exact: an error anywhere in moves() is still reported where the Python backend reports it, the
step budget runs out at the same step, a candidate with a square off the board is never played,
and each distinct legal move is drawn alike however often moves() proposes it.
"""
from __future__ import annotations

import pytest

from support import ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.lower.build import lowered  # noqa: E402
from gdef_core.lower.ranges import RangeWalk  # noqa: E402
from gdef_core.lower.skippable import skippable_calls  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.errors import GdefRuntimeError  # noqa: E402

from native_support import c_route, compile_rules, python_budget, replay_native_games  # noqa: E402, F401 (c_route: a fixture)

PENTAGO = ROOT / "benchmarks" / "games" / "pentago.gdef"


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


def source(game) -> str:
    return c_source(game.program, game.max_steps, game.max_depth).text


# Each of the 16 squares of rows 0..3 with five decorations k: decorate(k) writes row 4 at
# x = k % 3 - 1, off the board for k = 0 and 3 (those candidates are dropped), (0, 4) for k = 1
# and 4 (the same move twice), (1, 4) for k = 2. Of the 32 distinct moves half decorate (0, 4):
# player 0 wins them. Drawing among the valid candidates as proposed would give player 0 two
# games in three. decorate() leaves its loop early, so its static bound (its loop's three passes)
# exceeds the steps it spends.
DECORATED = """name: decorated
players: 2
size: 4 x 5
obj X
obj Y

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 4; x = x + 1) {
    for (int y = 0; y < 4; y = y + 1) {
      for (int k = 0; k < 5; k = k + 1) {
        addPlace(x, y, X);
        decorate(k);
        addMove();
      }
    }
  }
}

define decorate(int k) {
  addPlace(k % 3 - 1, 4, Y);
  for (int i = 0; i < 3; i = i + 1) {
    if (i == k % 2) { return; }
  }
}

define end() -> bool {
  if (CurrentPosition[0][4] == Y) { setWinner(0); } else { setWinner(1); }
  return true;
}
"""


def test_pentago_skips_its_turns_while_it_draws():
    game = load_game(str(PENTAGO))
    module = lowered(game.program)
    assert list(skippable_calls(module).values()) == [49]   # turnQuadrant: 1 + 3 * (1 + 3 * (1 + 4))
    text = source(game)
    assert "#define LAZY 1\n" in text
    assert ("if (g_lazy_skips(c, _lz)) _st -= 49; else (void)(z_turnQuadrant(c, _d, _lz, &_st, &_nc, l_board, "
            "l_5quadrant, (l_6clockwise == INT64_C(1))));") in text
    # the full generation (legal moves, perft, hasLegalMove) is unchanged
    assert "(void)(u_turnQuadrant(c, _d, &_st, &_nc, l_board, l_5quadrant, (l_6clockwise == INT64_C(1))));" in text


def test_the_ranges_prove_turn_quadrant_only_for_the_quadrants_of_the_board():
    module = lowered(load_game(str(PENTAGO)).program)
    turn = module.functions["turnQuadrant"]
    for quadrant, safe in (((0, 3), True), ((0, 4), False), ((-1, 3), False)):
        walk = RangeWalk({"board": (6, 6)}, 6, 6)
        _, steps = walk.function(turn, {"quadrant": quadrant})
        assert (walk.unsafe, steps) == (not safe, 49), quadrant
    walk = RangeWalk({"board": (6, 5)}, 6, 6)   # a board one row short
    walk.function(turn, {"quadrant": (0, 3)})
    assert walk.unsafe


def test_a_callee_that_may_fail_is_not_skipped(tmp_path):
    """decorate(k) reading CurrentPosition[k][0]: proven on the board, and skipped, while k stays
    below the board's width 4; for k up to 4 the call runs in every pass (and a game with no
    other skippable call has no lazy draw at all)."""
    reading = DECORATED.replace("addPlace(k % 3 - 1, 4, Y);",
                                "if (CurrentPosition[k][0] == Y) { return; }\n  addPlace(k % 3 - 1, 4, Y);")
    game, _ = compile_rules(tmp_path, "risky", reading)
    assert skippable_calls(lowered(game.program)) == {}
    text = source(game)
    assert "#define LAZY 0\n" in text and "g_lazy_skips" not in text and "z_moves" not in text
    game, _ = compile_rules(tmp_path, "safe", reading.replace("k < 5;", "k < 4;"))
    assert list(skippable_calls(lowered(game.program)).values()) == [8]
    assert "if (g_lazy_skips(c, _lz)) _st -= 8; else (void)(z_decorate(c, _d, _lz, &_st, &_nc, l_3k));" in source(game)


# moves() proposes 16 decorated candidates (a skippable call each) and calls check(x) for each:
# check(3) reads row[4] of a 4-element array, a G614 in the last candidates, which a random draw
# would seldom reach. The lazy draw counts every candidate first, so the error is found on the
# first turn and the game handed to the Python backend, which reports it located.
FAILING = """name: failing
players: 2
size: 4 x 5
obj X
obj Y

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 4; x = x + 1) {
    for (int k = 0; k < 5; k = k + 1) {
      addPlace(x, 0, X);
      decorate(k);
      check(x);
      addMove();
    }
  }
}

define decorate(int k) {
  addPlace(k % 3 - 1, 4, Y);
}

define check(int x) {
  int row[4] = 0;
  row[x + 1] = 1;
}

define end() -> bool {
  return true;
}
"""


def test_an_error_in_a_candidate_never_drawn_is_still_reported(tmp_path):
    game, native = compile_rules(tmp_path, "failing", FAILING)
    text = source(game)
    assert "#define LAZY 1\n" in text and "if (g_lazy_skips(c, _lz)) _st -= 5; else (void)(z_decorate(" in text
    with pytest.raises(GdefRuntimeError) as raised:
        game.new_state().legal_moves()
    located = str(raised.value).splitlines()[0]
    assert f"{tmp_path / 'failing.gdef'}:28:" in located and "G614" in located, located
    for outcome in native_games(native, range(5), 3, None):
        assert located in str(outcome)


GAMES = 4000


def test_each_distinct_move_is_drawn_alike_and_off_board_ones_never(tmp_path):
    game, native = compile_rules(tmp_path, "decorated", DECORATED)
    start = game.new_state()
    assert "#define LAZY 1\n" in source(game)
    distinct = [str(move) for move in start.legal_moves()]
    assert len(distinct) == 32 and sum("place(0,4,Y)" in move for move in distinct) == 16
    totals = native.simulate(7, 0, GAMES, start, None)
    assert (totals.games, totals.draws, totals.left) == (GAMES, 0, [])
    # half each (three standard deviations of a binomial: 95 games); 2,667 if drawn as proposed
    assert abs(totals.wins[0] - GAMES // 2) < 100, totals.wins
    # every first move drawn is one of the distinct legal moves, and each of them is drawn
    seen: dict[str, int] = {}
    for outcome_seed in range(640):
        move, = native.recorded_moves(outcome_seed, start, None)
        seen[str(move)] = seen.get(str(move), 0) + 1
    assert sorted(seen) == sorted(distinct)
    # chi-square on 31 degrees of freedom below its 0.1% point (61.1); as proposed, the moves
    # decorating (0, 4) would be met 26.7 times each and the others 13.3: 71 from the bias alone
    assert sum((count - 20) ** 2 / 20 for count in seen.values()) < 61.1, seen
    replay_native_games(game, native, start, 20, seed=5)


def test_the_budget_runs_out_at_the_python_backends_step(tmp_path):
    """decorate()'s bound exceeds its steps, so at the Python backend's budget the count pass
    runs out first: the turn generates every candidate, as it always did, and plays on; one step
    less and the game stops with the Python backend's located G607."""
    path = tmp_path / "decorated.gdef"
    path.write_text(DECORATED, encoding="utf-8")
    budget = python_budget(path)
    for max_steps, fails in ((budget, False), (budget - 1, True)):
        game, native = compile_rules(tmp_path, "decorated", DECORATED, max_steps=max_steps)
        assert "#define LAZY 1\n" in source(game)
        outcome, = native_games(native, range(1), 0, None)
        assert ("error[G607]" in str(outcome)) == fails, (max_steps, outcome)


def test_pentago_games_replay_through_the_python_backend(tmp_path):
    game = load_game(str(PENTAGO))
    native = compile_rules(tmp_path, "pentago", PENTAGO.read_text(encoding="utf-8"))[1]
    replay_native_games(game, native, game.new_state(), 6, seed=11)
