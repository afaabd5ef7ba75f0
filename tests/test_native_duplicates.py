"""A random player draws uniformly among the distinct moves even when moves() proposes one
many times: the native kernels leave duplicate candidates of more than one operation where
moves() put them and skip a drawn one that is not the first of its kind (kernel.c g_stamped /
g_first_of, kernels/kernel.py _stamped / _first_of), also when the candidates come from
hasLegalMove()'s memo; lists of legal moves and perft hold each move once. Both routes.

Each game below proposes move A nine times, then move B once: a kernel that drew among the
candidates as proposed would pick A nine times in ten.
"""
from __future__ import annotations

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from native_support import compile_rules, every_route, kernel_perft, replay_native_games  # noqa: E402, F401 (every_route: a fixture)


# Player p writes row p with A (proposed nine times) or B (once), two operations each.
HEADER = """name: duplicates
players: 2
size: 2 x 2
obj A
obj B

define moves() {
  int row = onTurn();
  for (int k = 0; k < 9; k = k + 1) {
    addPlace(0, row, A);
    addPlace(1, row, A);
    addMove();
  }
  addPlace(0, row, B);
  addPlace(1, row, B);
  addMove();
}

define isMoveLegal() -> bool {
  return isGenerated();
}
"""

END = {
    # player 0's choice decides: its candidates are generated on its turn
    "generated": ("""define end() -> bool {
  if (CurrentPosition[0][0] == A) { setWinner(0); } else { setWinner(1); }
  return true;
}"""),
    # player 1's choice decides: its candidates are those hasLegalMove() kept in end()
    "kept by hasLegalMove": ("""define end() -> bool {
  if (CurrentPosition[0][1] == empty) { return !hasLegalMove(); }
  if (CurrentPosition[0][1] == A) { setWinner(0); } else { setWinner(1); }
  return true;
}"""),
}

GAMES = 4000


@pytest.mark.parametrize("case", END)
def test_each_distinct_move_is_drawn_alike(tmp_path, case):
    game, native = compile_rules(tmp_path, "duplicates", HEADER + END[case] + "\n")
    totals = native.simulate(7, 0, GAMES, game.new_state(), None)
    assert (totals.games, totals.draws, totals.left) == (GAMES, 0, [])
    # A and B half each (a binomial's three standard deviations: 95 games); A nine times in
    # ten (3,600 games) if duplicates were drawn as proposed
    assert abs(totals.wins[0] - GAMES // 2) < 100, totals.wins
    replay_native_games(game, native, game.new_state(), 20, seed=5)


def test_legal_moves_and_perft_hold_each_move_once(tmp_path):
    game, native = compile_rules(tmp_path, "duplicates", HEADER + END["kept by hasLegalMove"] + "\n")
    start = game.new_state()
    assert [str(move) for move in native.legal_moves(start)] == [str(move) for move in start.legal_moves()]
    assert len(start.legal_moves()) == 2
    assert kernel_perft(native, start, 2) == [2, 4]


def test_draws_after_a_refusal_stay_uniform(tmp_path):
    # eight candidates, two legal, the last of them legal: most turns refuse a draw or more
    # before they find one (kernel.c g_game writes its draw order only from the second draw)
    text = """name: refusals
players: 2
size: 2 x 2
obj A
obj B

define moves() {
  for (int x = 0; x < 2; x = x + 1) {
    for (int y = 0; y < 2; y = y + 1) {
      addPlace(x, y, A);
      addMove();
      addPlace(x, y, B);
      addMove();
    }
  }
}

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  obj o = OperationList[0][2];
  return x == 0 && y == 0 && o == A || x == 1 && y == 1 && o == B;
}

define end() -> bool {
  if (CurrentPosition[0][0] == A) { setWinner(0); } else { setWinner(1); }
  return true;
}
"""
    game, native = compile_rules(tmp_path, "refusals", text)
    start = game.new_state()
    assert len(start.legal_moves()) == 2
    totals = native.simulate(7, 0, GAMES, start, None)
    assert (totals.games, totals.draws, totals.left) == (GAMES, 0, [])
    assert abs(totals.wins[0] - GAMES // 2) < 100, totals.wins
