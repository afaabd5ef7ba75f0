"""The native kernels keep the candidates hasLegalMove() generated in end() for the next turn of
a random game (kernel.c g_memo_keep, kernels/kernel.py _memo_keep): only while the position,
the game variables, the player to move and the move number are those it asked about.

Each game below changes one of these in end() after asking, so a memo taken without checking
would propose the previous candidates: its native games, replayed through the Python backend,
would meet a move isMoveLegal() (isGenerated()) refuses. Both routes.
"""
from __future__ import annotations

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from native_support import compile_rules, every_route, replay_native_games  # noqa: E402, F401 (every_route: a fixture)


# moves() proposes the empty squares of one colour ((x + y) % 2), chosen by `phase`, `weight`
# and (PLAYER 1) the player to move. After 7 moves each colour has an empty square left.
HEADER = """name: memo
players: 2
size: 4 x 4
obj S
int unit[3] = {1, 1, 1};   // a constant table before them (the C route's memo leaves it out)
int phase = 0;
float weight = 0.0;

define moves() {
  for (int x = 0; x < 4; x = x + 1) {
    for (int y = 0; y < 4; y = y + 1) {
      if (CurrentPosition[x][y] == empty
          && ((x + y + onTurn() * PLAYER + phase * unit[x % 3]) % 2 == 0) == (weight < 0.5)) {
        addPlace(x, y, S);
        addMove();
      }
    }
  }
}

define isMoveLegal() -> bool {
  return isGenerated();
}
"""

END = {
    # a game variable moves() reads changes after hasLegalMove()
    "variable": (0, """define end() -> bool {
  bool can = hasLegalMove();
  phase = phase + moveNumber() % 3;
  return !can || moveNumber() >= 8;
}"""),
    # a float game variable moves() reads changes after hasLegalMove()
    "float": (0, """define end() -> bool {
  bool can = hasLegalMove();
  if (moveNumber() % 3 == 0) { weight = 1.0; } else { weight = 0.0; }
  return !can || moveNumber() >= 8;
}"""),
    # the player to move changes after hasLegalMove() asked about the other one
    "next player": (1, """define end() -> bool {
  bool can = hasLegalMove();
  if (moveNumber() % 3 == 0) { setNextPlayer(onTurn()); }
  return !can || moveNumber() >= 8;
}"""),
}


@pytest.mark.parametrize("case", END)
def test_a_change_after_has_legal_move_is_seen_next_turn(tmp_path, case):
    player_term, end = END[case]
    text = HEADER.replace("PLAYER", str(player_term)) + end + "\n"
    game, native = compile_rules(tmp_path, "memo", text)
    replay_native_games(game, native, game.new_state(), 40, seed=11)
