"""Squares that count on both native routes (C and numba): kalah and oware (on C), and a small
game using every count built-in (NextCount, PreviousCount, isCountOperation, OperationList[i][3] with a
constant and a computed index, nextBoardSeen() and repetitions() comparing counts, place and
clear resetting a count) play native random games that the Python backend replays move by
move to the same end, and count the same perft."""
from __future__ import annotations

import pytest

from native_support import ROUTES, compile_rules, replay_native_games, use_route
from support import EXAMPLES

from gdef_core.runtime.perft import perft

STACKS = """name: stacks
players: 2
size: 3 x 2
obj S

define moves() {
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 2; y = y + 1) {
      if (CurrentPosition[x][y] == empty) {
        addPlace(x, y, S);
        addMove();
      } else {
        addCount(x, y, CurrentCount[x][y] + 1);
        addMove();
        if (CurrentCount[x][y] > 1) {
          addClear(x, y);
          addMove();
        }
      }
    }
  }
}

define isMoveLegal() -> bool {
  if (operationsNum() != 1) { return false; }
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  int j = moveNumber() % 4;
  if (isCountOperation(0)) {
    if (isPlaceOperation(0) || OperationList[0][2] != empty) { return false; }
    if (OperationList[0][3] != NextCount[x][y] || NextPosition[x][y] != S) { return false; }
    if (j == 3 && OperationList[0][j] != CurrentCount[x][y] + 1) { return false; }
  } else {
    if (NextCount[x][y] != 0 || OperationList[0][3] != 0) { return false; }
  }
  return isGenerated() && !nextBoardSeen();
}

define total() -> int {
  int sum = 0;
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 2; y = y + 1) { sum = sum + CurrentCount[x][y]; }
  }
  return sum;
}

define end() -> bool {
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  if (isCountOperation(0) && PreviousCount[x][y] + 1 != CurrentCount[x][y]) { setWinner(0); return true; }
  setScore(onTurn(), total());
  if (repetitions() >= 1) { return true; }
  if (moveNumber() >= 14 || !hasLegalMove()) {
    setWinner(total() % 2);
    return true;
  }
  return false;
}
"""


@pytest.fixture(params=ROUTES)
def route(request, cache_dir):
    with use_route(request.param):
        yield request.param


# (route, game, random games, perft depth). numba compiles stacks alone (10 to 100 s a game
# there, a second in C): kalah's and oware's rules reach no line of the numba emitter
# (native/codegen.py) that stacks and the games of the other test_native*.py files do not.
CASES = [pytest.param(route, name, games, depth, id=f"{route}-{name}-{games}-{depth}")
         for route in ROUTES for name, games, depth in [("kalah", 30, 4), ("oware", 10, 3), ("stacks", 40, 4)]
         if route != "numba" or name == "stacks"]


@pytest.mark.parametrize("route, name, games, depth", CASES, indirect=["route"])
def test_counts_play_natively_as_in_python(route, tmp_path, name, games, depth):
    text = STACKS if name == "stacks" else (EXAMPLES / f"{name}.gdef").read_text(encoding="utf-8")
    game, native = compile_rules(tmp_path, name, text)
    assert native.route == route
    start = game.new_state()
    outcomes = replay_native_games(game, native, start, games)
    if name == "stacks":
        assert {outcome.winner for outcome in outcomes} == {0, 1}
    assert native.perft(start, depth) == perft(start, depth)
