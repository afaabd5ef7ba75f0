"""Consequences of a move on both native routes (C and numba) against the Python backend: Go (on C),
whose captures end() makes on the board and isMoveLegal() on the scratch copy ResultPosition
(suicide after the captures, positional superko with nextBoardSeen()). Perft from positions
where captures, a ko and a superko repeat are near, native random games replayed legally in
Python with the same ends; a small game of consequences of its own, and one of counts set as
consequences (addCount in end() and isMoveLegal(), ResultCount)."""
from __future__ import annotations

import os

import pytest

from support import EXAMPLES, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

from native_support import ROUTES, compile_rules, replay_native_games, use_route  # noqa: E402

GO9 = str(EXAMPLES / "go" / "go9.gdef")

# A 5 x 5 game: White's stone on A1 in atari (B1 takes it), a ko shape on the right.
CAPTURES = ["place(0,1,B)", "place(0,0,W)", "place(3,1,B)", "place(4,1,W)", "place(4,0,B)",
            "place(3,2,W)", "place(2,2,B)", "place(2,4,W)"]


@pytest.fixture(scope="module", params=ROUTES, ids=[f"route_{route}" for route in ROUTES], autouse=True)
def route(request):
    with use_route(request.param):
        yield request.param


_compiled: dict = {}

# Go on the C route only: numba compiles go9's rules in test_native.py (10 to 100 s a game
# there), and a board size of 5 reaches no line of its emitter that go9 does not.
C_ROUTE_ONLY = pytest.mark.parametrize("route", ["c"], indirect=True, ids=["route_c"])


def go(size: int):
    key = (os.environ["GDEF_NATIVE_ROUTE"], size)
    if key not in _compiled:
        game = load_game(GO9, params={"board_size": size})
        said: list[str] = []
        native = NativeRules.load(game, said.append)
        assert native is not None and native.route == key[0], said
        _compiled[key] = (game, native)
    return _compiled[key]


@C_ROUTE_ONLY
def test_perft_through_captures_equals_the_python_backend(cache_dir, route):
    game, native = go(5)
    state = game.new_state()
    for move in CAPTURES:
        state.apply(move)
    assert native.perft(state, 3) == perft(state, 3)
    state.apply("place(1,0,B)")   # takes A1: a capture in end()
    assert "empty" == str(state.board[0, 0])
    assert native.perft(state, 3) == perft(state, 3)


@C_ROUTE_ONLY
def test_native_games_capture_and_replay_legally_in_python(cache_dir, route):
    game, native = go(5)
    outcomes = replay_native_games(game, native, game.new_state(), 8, seed=9)
    assert len({outcome.length for outcome in outcomes}) > 1


# A small game whose end() makes a consequence on a square the move does not name, and whose
# isMoveLegal() judges the move on ResultPosition (a mark between two of the mover's marks
# turns them; a move that would leave no empty square is refused).
TURNING = """players: 2
size: 5 x 1
obj X
obj O
define mine() -> obj { if (onTurn() == 0) { return X; } return O; }
define turn(int x) {
  for (int d = -1; d <= 1; d = d + 2) {
    int n = x + d;
    if (n >= 0 && n < 5 && ResultPosition[n][0] != empty && ResultPosition[n][0] != mine()) {
      addPlace(n, 0, mine());
    }
  }
}
define moves() {
  for (int x = 0; x < 5; x = x + 1) {
    if (CurrentPosition[x][0] == empty) { addPlace(x, 0, mine()); addMove(); }
  }
}
define isMoveLegal() -> bool {
  turn(OperationList[0][0]);
  int free = 0;
  for (int x = 0; x < 5; x = x + 1) { if (ResultPosition[x][0] == empty) { free = free + 1; } }
  return free > 0 || moveNumber() >= 3;
}
define end() -> bool {
  turn(OperationList[0][0]);
  if (moveNumber() < 5) { return false; }
  int x = 0;
  for (int k = 0; k < 5; k = k + 1) { if (CurrentPosition[k][0] == X) { x = x + 1; } }
  if (x > 2) { setWinner(0); }
  if (x < 3) { setWinner(1); }
  return true;
}
"""


def test_a_small_game_of_consequences_equals_the_python_backend(tmp_path, cache_dir):
    game, native = compile_rules(tmp_path, "turning", TURNING)
    assert native.perft(game.new_state(), 5) == perft(game.new_state(), 5)
    replay_native_games(game, native, game.new_state(), 12, seed=2)


def test_the_native_history_sees_the_consequences(tmp_path, cache_dir):
    """tests/test_consequences.py's game whose end() undoes its move: repetitions() and
    hasLegalMove() in the kernel see the cleared square, as in Python (player 0 wins)."""
    from test_consequences import SEEN_GAME  # noqa: PLC0415 (the one text of that game)

    game, native = compile_rules(tmp_path, "seen", SEEN_GAME)
    outcomes = replay_native_games(game, native, game.new_state(), 3, seed=1)
    assert [outcome.winner for outcome in outcomes] == [0, 0, 0]


# One function reached from moves() (a candidate's operation) and from end() (a consequence):
# the entry point running decides (kernels' _add_any / g_add_any).
SHARED = """players: 2
size: 4 x 1
obj X
obj O
define mine() -> obj { if (onTurn() == 0) { return X; } return O; }
define put(int x) { addPlace(x, 0, mine()); }
define moves() {
  for (int x = 0; x < 4; x = x + 1) { if (CurrentPosition[x][0] == empty) { put(x); addMove(); } }
}
define isMoveLegal() -> bool { return isGenerated(); }
define end() -> bool {
  int x = OperationList[0][0];
  if (x + 1 < 4 && CurrentPosition[x + 1][0] == empty) { put(x + 1); }   // the neighbour too
  for (int k = 0; k < 4; k = k + 1) { if (CurrentPosition[k][0] == empty) { return false; } }
  if (CurrentPosition[3][0] == X) { setWinner(0); } else { setWinner(1); }
  return true;
}
"""


def test_a_function_reached_from_moves_and_end_follows_the_entry_point(tmp_path, cache_dir):
    game, native = compile_rules(tmp_path, "shared", SHARED)
    assert native.perft(game.new_state(), 4) == perft(game.new_state(), 4)
    replay_native_games(game, native, game.new_state(), 8, seed=3)


# Counts as consequences: a square of the mover's row that reaches 3 spills its seeds into the
# opponent's square opposite, made by isMoveLegal() on the scratch copy (ResultCount, judged
# with nextBoardSeen()) and by end() on the board; add() makes a candidate's count in moves()
# and a consequence in end(); a place in end() resets a count.
SOWING = """players: 2
size: 4 x 2
obj M
define add(int x, int y, int n) { addCount(x, y, n); }
define moves() {
  int y = onTurn();
  for (int x = 0; x < 4; x = x + 1) {
    if (CurrentCount[x][y] < 3) { add(x, y, CurrentCount[x][y] + 1); addMove(); }
  }
}
define spill(int x, int y) {
  if (ResultCount[x][y] == 3) { addCount(x, y, 0); addCount(x, 1 - y, ResultCount[x][1 - y] + 3); }
}
define isMoveLegal() -> bool {
  if (!isGenerated()) { return false; }
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  spill(x, y);
  return ResultCount[x][1 - y] <= 6 && !nextBoardSeen();
}
define row(int y) -> int {
  int sum = 0;
  for (int x = 0; x < 4; x = x + 1) { sum = sum + CurrentCount[x][y]; }
  return sum;
}
define end() -> bool {
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  spill(x, y);
  if (CurrentCount[x][y] == 2 && CurrentCount[x][1 - y] > 0) { add(x, 1 - y, CurrentCount[x][1 - y] - 1); }
  if (CurrentPosition[0][y] == empty && CurrentCount[0][y] + CurrentCount[3][y] == 4) { addPlace(0, y, M); }
  setScore(0, row(0));
  setScore(1, row(1));
  if (moveNumber() >= 16 || repetitions() >= 1 || !hasLegalMove()) {
    if (row(0) > row(1)) { setWinner(0); }
    if (row(1) > row(0)) { setWinner(1); }
    return true;
  }
  return false;
}
"""


def test_counts_set_as_consequences_equal_the_python_backend(tmp_path, cache_dir):
    game, native = compile_rules(tmp_path, "sowing", SOWING)
    start = game.new_state()
    assert native.perft(start, 5) == perft(start, 5)
    outcomes = replay_native_games(game, native, start, 24, seed=4)
    assert {outcome.winner for outcome in outcomes} >= {0, 1}
    assert len({outcome.length for outcome in outcomes}) > 1
