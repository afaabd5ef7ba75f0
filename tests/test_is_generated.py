"""isGenerated() (spec 15.3): a move is generated when moves() proposes a candidate with the
same effect on the board, whatever the order of the operations; a failure of moves() is a
failure of the move judged; a search for legal moves does not run moves() once per candidate."""
from __future__ import annotations

from gdef_core.runtime.perft import perft
from gdef_core.runtime import VerdictKind, load_game

SLIDE = """name: slide
players: 2
size: 3 x 1
obj X
int broken = 0;
start { (0,0: X) }
define isMoveLegal() -> bool { return isGenerated(); }
define moves() {
  int x = 0;
  while (x < 2) {
    if (CurrentPosition[x][0] == X && CurrentPosition[x + 1][0] == empty) {
      addClear(x, 0); addPlace(x + 1, 0, X); addMove();
    }
    x = x + 1;
  }
  if (broken == 1) { x = 1 / 0; }
}
define end() -> bool {
  if (moveNumber() == 2) { broken = 1; }
  return moveNumber() == 3;
}
"""


def make(tmp_path):
    path = tmp_path / "slide.gdef"
    path.write_text(SLIDE, encoding="utf-8")
    return load_game([str(path)])


def test_the_effect_counts_not_the_order(tmp_path) -> None:
    state = make(tmp_path).new_state()
    assert state.check("clear(0,0); place(1,0,X)")
    assert state.check("place(1,0,X); clear(0,0)")                       # other order
    assert state.check("clear(0,0); place(1,0,X); clear(2,0)")           # clears an empty square
    assert state.check("clear(0,0); place(2,0,X); place(1,0,X); clear(2,0)")   # same board after
    assert not state.check("clear(0,0); place(2,0,X)")
    assert not state.check("place(1,0,X)")
    assert not state.check("pass")


def test_legal_moves_are_the_candidates(tmp_path) -> None:
    state = make(tmp_path).new_state()
    assert [str(m) for m in state.legal_moves()] == ["clear(0,0); place(1,0,X)"]
    assert perft(state, 2) == [1, 1]


def test_a_failure_of_moves_rejects_the_move_judged(tmp_path) -> None:
    state = make(tmp_path).new_state()
    state.apply("clear(0,0); place(1,0,X)")
    state.apply("clear(1,0); place(2,0,X)")
    verdict = state.check("pass")
    assert verdict.kind is VerdictKind.RUNTIME_ERROR and verdict.error.code == "G601"
    assert "moves" in [frame.function for frame in verdict.error.stack]


def test_checkers_by_the_generator_keeps_its_perft() -> None:
    game = load_game(["examples/checkers.gdef"])
    assert perft(game.new_state(), 4) == [7, 49, 302, 1469]
