"""Run-time semantics of arrays, `for`, `break` and `continue` (spec 15.1, 15.2), and of
game-variable arrays and counters as game state (15.1, 15.4)."""
from __future__ import annotations

import json

import pytest

from gdef_core.runtime import IllegalMoveError, VerdictKind, load_game
from gdef_core.runtime.game import Game
from gdef_core.runtime.session import Session

HEADER = """name: arrays
players: 2
size: 4 x 3
obj X
define end() -> bool { return false; }
define i(int v) -> int { return v; }
"""


def game_of(tmp_path, functions: str, legal: str = "return true;", header: str = HEADER, **limits) -> Game:
    path = tmp_path / "arrays.gdef"
    path.write_text(header + functions + f"define isMoveLegal() -> bool {{ {legal} }}\n", encoding="utf-8")
    return load_game([str(path)], **limits)


def holds(tmp_path, functions: str, expression: str) -> bool:
    verdict = game_of(tmp_path, functions, f"return {expression};").new_state().check("pass")
    assert verdict.kind in (VerdictKind.LEGAL, VerdictKind.REJECTED), verdict.reason
    return verdict.legal


def failure(tmp_path, functions: str, expression: str = "f() == 0", **limits):
    verdict = game_of(tmp_path, functions, f"return {expression};", **limits).new_state().check("pass")
    assert verdict.kind is VerdictKind.RUNTIME_ERROR, verdict.kind
    return verdict.error


def test_arrays_are_passed_by_reference(tmp_path) -> None:
    functions = """
define mark(bool seen[][], int x, int y) { seen[x][y] = true; }
define fill(int a[], int v) { for (int k = 0; k < sizeOf(a, 0); k = k + 1) { a[k] = v; } }
define f() -> int {
  bool seen[3][2] = false;
  mark(seen, 2, 1);
  int a[i(5)] = 0;
  fill(a, 7);
  if (seen[2][1] && !seen[1][1]) { return a[0] + a[4]; }
  return -1;
}
"""
    assert holds(tmp_path, functions, "f() == 14")


def test_initialisers_fill_or_list_every_element(tmp_path) -> None:
    functions = """
define f() -> float {
  int steps[2][3] = {{1, 0, -1}, {0, 1, i(5)}};
  float half[2] = {1, 2.5};
  obj row[i(2)] = {X, empty};
  float z[2][2] = 3;
  if (row[0] == X && row[1] == empty && sizeOf(steps, 1) == 3) { return steps[1][2] + half[1] + z[1][1]; }
  return 0.0;
}
"""
    assert holds(tmp_path, functions, "f() == 10.5")


@pytest.mark.parametrize("body, index, size, column", [
    ("int a[4] = 0; return a[i(4)];", "index 4", "size 4", 41),
    ("int a[3][2] = 0; return a[1][i(-1)];", "index -1 of dimension 1", "size 2", 44),
    ("int a[3][2] = 0; a[i(3)][0] = 1; return 0;", "index 3 of dimension 0", "size 3", 37),
])
def test_an_index_out_of_range_names_the_index_and_the_size(tmp_path, body, index, size, column) -> None:
    error = failure(tmp_path, f"define f() -> int {{ {body} }}\n")
    assert error.code == "G614" and index in error.message and size in error.message
    assert (error.span.line, error.span.column) == (6, column)


def test_an_index_in_a_parameter_is_checked_against_the_callers_array(tmp_path) -> None:
    functions = """define at(int a[], int k) -> int { return a[k]; }
define f() -> int { int a[i(3)] = 0; return at(a, 2) + at(a, 3); }
"""
    error = failure(tmp_path, functions)
    assert error.code == "G614" and "index 3" in error.message and "size 3" in error.message
    assert [frame.function for frame in error.stack] == ["at", "f", "isMoveLegal"]


def test_array_sizes_known_at_run_time_are_checked(tmp_path) -> None:
    assert failure(tmp_path, "define f() -> int { int a[i(0)] = 0; return 0; }\n").code == "G613"
    assert failure(tmp_path, "define f() -> int { int a[i(1001)][1000] = 0; return 0; }\n").code == "G613"
    # the number of listed elements is checked before any element is evaluated
    error = failure(tmp_path, "define f() -> int { int a[i(3)] = {1, 2 / i(0)}; return 0; }\n")
    assert error.code == "G613" and "lists 2" in error.message


def test_creating_an_array_counts_its_elements_against_the_step_budget(tmp_path) -> None:
    functions = "define f() -> int { int a[1000][1000] = 0; return 0; }\n"
    assert failure(tmp_path, functions, max_steps=500_000).code == "G607"
    assert holds(tmp_path, functions, "f() == 0")   # within the default 5,000,000


def test_for_header_locals_belong_to_their_loop(tmp_path) -> None:
    functions = """
define f() -> float {
  float total = 0;
  for (int k = 0; k < 3; k = k + 1) { total = total + k; }
  for (float k = 0.5; k < 2; k = k + 1) { total = total + k; }
  int k = 100;
  return total + k;
}
"""
    assert holds(tmp_path, functions, "f() == 105.0")


def test_continue_in_a_for_runs_the_step(tmp_path) -> None:
    functions = """
define f() -> int {
  int odd = 0;
  for (int k = 0; k < 10; k = k + 1) {
    if (k % 2 == 0) { continue; }
    odd = odd + 1;
  }
  int w = 0;
  int n = 0;
  while (w < 10) {
    w = w + 1;
    if (w % 2 == 0) { continue; }
    n = n + 1;
  }
  return odd * 100 + n;
}
"""
    assert holds(tmp_path, functions, "f() == 505")


def test_break_leaves_the_innermost_loop_only(tmp_path) -> None:
    functions = """
define f() -> int {
  int passes = 0;
  for (int a = 0; a < 4; a = a + 1) {
    int b = 0;
    while (true) {
      if (b == 2) { break; }
      b = b + 1;
      passes = passes + 1;
    }
    if (a == 2) { break; }
  }
  for (;;) { break; }
  return passes;
}
"""
    assert holds(tmp_path, functions, "f() == 6")


def test_reading_an_array_whose_declaration_did_not_run_is_an_error(tmp_path) -> None:
    functions = "define f() -> int { if (i(0) == 1) { int a[2] = 0; } return a[0]; }\n"
    assert failure(tmp_path, functions).code == "G609"


def test_every_pass_of_a_for_counts_a_step(tmp_path) -> None:
    functions = "define f() -> int { int n = 0; for (int k = 0; k < i(1000); k = k + 1) { n = n + 1; } return n; }\n"
    assert failure(tmp_path, functions, max_steps=500).code == "G607"


GAME_ARRAYS = """name: counts
players: 2
size: 3 x 1
obj X
int placed[3] = 0;
bool marks[2][2] = {{true, false}, {false, true}};
counter int clock = 0;
define isMoveLegal() -> bool { return operationsNum() == 1 && placed[OperationList[0][0]] < 2; }
define end() -> bool {
  placed[OperationList[0][0]] = placed[OperationList[0][0]] + 1;
  marks[0][0] = !marks[0][0];
  clock = clock + 1;
  if (OperationList[0][0] == 2 && placed[2] == 2) { return 1 / 0 == 1; }
  setScore(onTurn(), repetitions());
  return false;
}
"""


def game_arrays(tmp_path) -> Game:
    path = tmp_path / "counts.gdef"
    path.write_text(GAME_ARRAYS, encoding="utf-8")
    return load_game([str(path)])


def test_game_variable_arrays_are_state(tmp_path) -> None:
    game = game_arrays(tmp_path)
    state = game.new_state()
    copy = state.clone()
    copy.apply("place(0,0,X)")
    assert state.variables["placed"] == [0, 0, 0] and copy.variables["placed"] == [1, 0, 0]
    assert copy.variables["marks"] == [[False, False], [False, True]]
    copy.variables["placed"][1] = 9              # a copy: the state does not change
    assert copy.variables["placed"] == [1, 0, 0]
    assert game.state_from_json(json.loads(json.dumps(copy.to_json()))) == copy


def test_game_variable_arrays_roll_back_when_end_fails(tmp_path) -> None:
    state = game_arrays(tmp_path).new_state()
    state.apply("place(2,0,X)")
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply("place(2,0,X)")               # end() changes the arrays, then divides by zero
    assert caught.value.verdict.error.code == "G601"
    assert state.to_json() == before and state.variables["placed"] == [0, 0, 1]


@pytest.mark.parametrize("modifier, seen", [("counter ", [1, 2, 3]), ("", [0, 0, 0])])
def test_counters_are_left_out_when_positions_are_compared(tmp_path, modifier, seen) -> None:
    path = tmp_path / "clock.gdef"
    path.write_text(f"""name: clock
players: 1
size: 1 x 1
{modifier}int clock[2] = 0;
define isMoveLegal() -> bool {{ return operationsNum() == 0; }}
define end() -> bool {{ clock[1] = clock[1] + 1; setScore(0, repetitions()); return false; }}
""", encoding="utf-8")
    state = load_game([str(path)]).new_state()
    found = []
    for _ in range(3):
        state.apply("pass")
        found.append(state.scores[0])
    assert found == seen and state.variables["clock"] == [0, 3]


def test_records_and_resume_keep_array_variables_scores_and_history(tmp_path) -> None:
    game = game_arrays(tmp_path)
    session = Session(game, [])
    for move in ("place(0,0,X)", "place(1,0,X)", "place(1,0,X)"):
        assert session.play(move).accepted
    record = json.loads(json.dumps(session.record()))
    assert record["vars"]["placed"] == [1, 2, 0] and record["vars"]["clock"] == 3
    again = Session(game, [])
    again.resume(record)
    assert again.state == session.state
    assert again.record()["vars"] == record["vars"] and again.record()["scores"] == record["scores"]
