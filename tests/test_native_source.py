"""The native backend's emitter (gdef_core/native/codegen.py): each generated function takes
the state arrays its code and its callees use (that it reads the IR alone is
tests/test_backend_sources.py's). No numba needed."""
from __future__ import annotations

from pathlib import Path

from gdef_core.loader import load_program
from gdef_core.native.codegen import native_source

ROOT = Path(__file__).resolve().parent.parent

GAME = """name: arrays
players: 2
size: 3 x 3
obj X
int seen = 0;
define isMoveLegal() -> bool { return CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty; }
define end() -> bool {
  if (stuck()) { setWinner(onTurn()); return true; }
  return counted(moveNumber()) > 8;
}
define stuck() -> bool { return !hasLegalMove(); }
define counted(int n) -> int {
  int total = n;
  for (int i = 0; i < 2; i = i + 1) { total = total + seen; }
  return total;
}
define moves() {
  for (int x = 0; x < 3; x = x + 1) { addPlace(x, 0, X); addMove(); }
}
"""


def test_each_function_takes_the_state_arrays_it_and_its_callees_use(tmp_path):
    path = tmp_path / "arrays.gdef"
    path.write_text(GAME, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, program.errors
    source, int_scores, cacheable = native_source(program, 1000, 50)
    headers = {line.split("(", 1)[0][len("def "):]: line for line in source.splitlines()
               if line.startswith("def u_")}
    assert headers == {
        "u_isMoveLegal": "def u_isMoveLegal(B, OPS, S, _d):",
        # hasLegalMove() runs the candidates' search: every array but the move's operations
        "u_end": "def u_end(B, S, V, VF, SC, CO, CS, HS, _d):",
        "u_stuck": "def u_stuck(B, S, V, VF, SC, CO, CS, HS, _d):",
        "u_counted": "def u_counted(S, V, _d, l_n):",
        "u_moves": "def u_moves(S, CO, CS, _d):",
    }
    assert "    return u_end(B, S, V, VF, SC, CO, CS, HS, 1)" in source
    assert "CTX_MOVES = 3" in source and int_scores and cacheable
