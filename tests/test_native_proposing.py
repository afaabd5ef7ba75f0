"""What moves() proposes reaches the native kernels exactly, on the edges of the write path
that every operation of every candidate goes through (cnative gdef.h g_add_op,
kernels/helpers.py on numba): a
candidate with a square off the board is dropped whole, also when the bad square is not its
first operation, and the next candidate starts clean; more operations than the kernel's
buffer holds hands the game to the Python backend instead of writing past the buffer; the
steps the operations count are counted up to the last one.
Both routes.
"""
from __future__ import annotations

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.lower.layout import CAP_OPS  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime import GdefRuntimeError, load_game  # noqa: E402
from native_support import compile_rules, every_route, kernel_perft, replay_native_games  # noqa: E402, F401 (every_route: a fixture)


# Each candidate writes three squares of the player's row; the middle one runs from x = -1 to
# x = 3, off the board at both ends, so two of the five candidates are dropped: the first one
# after writing one operation, the last one after writing one, then two more after it.
OFF_BOARD = """name: offboard
players: 2
size: 3 x 2
obj A
obj B

define moves() {
  int row = onTurn();
  obj mine = A;
  if (row == 1) { mine = B; }
  for (int x = -1; x < 4; x = x + 1) {
    addPlace(0, row, mine);
    addPlace(x, row, mine);
    addPlace(2, row, mine);
    addMove();
  }
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define end() -> bool {
  if (moveNumber() < 4) { return false; }
  if (CurrentPosition[1][0] == A) { setWinner(0); } else { setWinner(1); }
  return true;
}
"""


def test_a_candidate_with_a_square_off_the_board_is_dropped_whole(tmp_path):
    game, native = compile_rules(tmp_path, "offboard", OFF_BOARD)
    start = game.new_state()
    listed = [str(move) for move in native.legal_moves(start)]
    assert listed == [str(move) for move in start.legal_moves()]
    assert len(listed) == 3   # x = 0, 1, 2: nothing of x = -1 or x = 3 left in them
    assert kernel_perft(native, start, 3) == [3, 9, 27]
    replay_native_games(game, native, start, 20, seed=9)


# One candidate of more operations than the kernel's buffer (CAP_OPS rows) holds.
TOO_MANY = """name: toomany
players: 2
size: 2 x 2
obj A

define moves() {
  for (int k = 0; k < OPS; k = k + 1) {
    addPlace(0, onTurn(), A);
  }
  addMove();
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define end() -> bool {
  return moveNumber() >= 2;
}
"""


def test_more_operations_than_the_buffer_holds_go_to_the_python_backend(tmp_path):
    game, native = compile_rules(tmp_path, "toomany", TOO_MANY.replace("OPS", str(CAP_OPS + 1)))
    start = game.new_state()
    totals = native.simulate(3, 0, 5, start, None)
    assert (totals.games, totals.left) == (0, [0, 1, 2, 3, 4])   # every game left to Python
    moves = native.legal_moves(start)   # the Python backend's answer
    assert len(moves) == 1 and len(moves[0].ops) == CAP_OPS + 1
    # exactly as many as the buffer holds still play in the kernel
    game, native = compile_rules(tmp_path, "fits", TOO_MANY.replace("OPS", str(CAP_OPS)))
    totals = native.simulate(3, 0, 5, game.new_state(), None)
    assert (totals.games, totals.left) == (5, [])


# moves() spends its steps on its two operations alone (four steps each, one for the call),
# with no loop or call after them where the budget would be tested again.
STEPS = """name: steps
players: 2
size: 2 x 2
obj A

define moves() {
  addPlace(0, onTurn(), A);
  addPlace(1, onTurn(), A);
  addMove();
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define end() -> bool {
  return moveNumber() >= 2;
}
"""


def test_the_steps_of_the_operations_count_up_to_the_last_one(tmp_path):
    path = tmp_path / "steps.gdef"
    path.write_text(STEPS, encoding="utf-8")
    short, enough = (load_game(str(path), max_steps=steps) for steps in (8, 9))
    with pytest.raises(GdefRuntimeError, match="G607"):
        short.new_state().legal_moves()
    assert len(enough.new_state().legal_moves()) == 1
    for game, left in ((short, [0, 1, 2]), (enough, [])):
        native = NativeRules.load(game, None)
        totals = native.simulate(3, 0, 3, game.new_state(), None)
        assert totals.left == left   # a game that spent its steps is the Python backend's
