"""Run-time errors and limits (spec sections 6, 8, 13): each is a GdefRuntimeError with its code,
the gdef file, line and column, and the gdef call stack; the move is rejected and the game is
exactly as before and still playable."""
from __future__ import annotations

import pytest

from gdef_core.runtime import GameLoadError, GdefRuntimeError, IllegalMoveError, VerdictKind, load_game

RULES = """name: faults
players: 2
size: 4 x 3
obj X
int score = 0;
define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  if (x == 0 && y == 1) { return spin(); }
  if (x == 0 && y == 2) { return deep(0) > 0; }
  if (x == 1 && y == 0) { return 10 / (x - 1) > 0; }
  if (x == 1 && y == 1) { return square(3) > 0; }
  if (x == 1 && y == 2) { return CurrentPosition[x + 5][y] == X; }
  if (x == 2 && y == 0) { return OperationList[1][0] == 0; }
  if (x == 2 && y == 1) { return undecided(x) > 0; }
  if (x == 2 && y == 2) { if (x == 9) { int late = 1; } return late == 1; }
  return true;
}
define spin() -> bool {
  int n = 0;
  while (n >= 0) { n = n - 1; n = n + 1; }
  return false;
}
define deep(int n) -> int {
  return deep(n + 1) + 1;
}
define square(int n) -> int {
  int v = n;
  while (true) { v = v * v; }
  return v;
}
define undecided(int n) -> int {
  if (n == 0) { return 1; }
}
define end() -> bool {
  score = score + 1;
  if (OperationList[0][0] == 0 && OperationList[0][1] == 0) { setWinner(2); }
  return false;
}
"""


def pos(needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the n-th occurrence of `needle` in RULES."""
    index = -1
    for _ in range(occurrence):
        index = RULES.index(needle, index + 1)
    line = RULES.count("\n", 0, index) + 1
    return line, index - (RULES.rfind("\n", 0, index) + 1) + 1


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("faults") / "faults.gdef"
    path.write_text(RULES, encoding="utf-8")
    return load_game([str(path)], max_steps=200_000)   # the default (5,000,000) takes a second to run out


def where(error: GdefRuntimeError) -> tuple[int, int]:
    return error.span.line + 1, error.span.column + 1


def stack(error: GdefRuntimeError) -> list[tuple[str, int, int]]:
    return [(frame.function, frame.span.line + 1, frame.span.column + 1) for frame in error.stack]


CASES = {
    # move: (code, located at, functions on the stack innermost first)
    "place(0,1,X)": ("G607", pos("while (n >= 0)"), ["spin", "isMoveLegal"]),
    "place(0,2,X)": ("G608", pos("deep(n + 1)"), ["deep"] * 500 + ["isMoveLegal"]),
    "place(1,0,X)": ("G601", pos("/ (x - 1)"), ["isMoveLegal"]),
    "place(1,1,X)": ("G602", pos("* v;"), ["square", "isMoveLegal"]),
    "place(1,2,X)": ("G603", pos("CurrentPosition[x + 5]"), ["isMoveLegal"]),
    "place(2,0,X)": ("G604", pos("OperationList[1][0]"), ["isMoveLegal"]),
    "place(2,1,X)": ("G606", (pos("if (n == 0) { return 1; }")[0] + 1, 1), ["undecided", "isMoveLegal"]),
    "place(2,2,X)": ("G609", pos("late == 1"), ["isMoveLegal"]),
}


@pytest.mark.parametrize("move", sorted(CASES))
def test_failure_in_is_move_legal_is_located_and_rejects_the_move(game, move: str) -> None:
    code, location, functions = CASES[move]
    state = game.new_state()
    before = state.to_json()
    verdict = state.check(move)
    assert verdict.kind is VerdictKind.RUNTIME_ERROR
    error = verdict.error
    assert (error.code, where(error)) == (code, location), str(error)
    assert [f for f, _, _ in stack(error)] == functions
    assert error.span.file.endswith("faults.gdef")
    assert f"faults.gdef:{location[0]}:{location[1]}: error[{code}]" in verdict.reason
    with pytest.raises(IllegalMoveError) as raised:
        state.apply(move)
    assert raised.value.verdict.kind is VerdictKind.RUNTIME_ERROR
    assert state.to_json() == before
    state.apply("place(3,0,X)")   # the game goes on: a good move is applied as usual
    assert state.move_number == 1 and state.current_player == 1


def test_call_stack_gives_each_call_site(game) -> None:
    error = game.new_state().check("place(0,1,X)").error
    assert stack(error) == [("spin", *pos("while (n >= 0)")), ("isMoveLegal", *pos("spin()"))]
    error = game.new_state().check("place(0,2,X)").error
    assert stack(error)[-1] == ("isMoveLegal", *pos("deep(0)"))
    assert "and 499 more times" in str(error)


def test_failure_in_end_rejects_the_move_and_keeps_the_game(game) -> None:
    state = game.new_state()
    state.apply("place(3,0,X)")
    assert state.variables == {"score": 1} and state.current_player == 1
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as raised:
        state.apply("place(0,0,X)")   # legal, but end() calls setWinner(2) with 2 players
    verdict = raised.value.verdict
    assert verdict.kind is VerdictKind.RUNTIME_ERROR
    assert (verdict.error.code, where(verdict.error)) == ("G605", pos("setWinner(2)"))
    assert verdict.reason.startswith("end() failed after this move:")
    assert state.to_json() == before   # board, player, move number and score as before
    assert state.check("place(0,0,X)").legal   # isMoveLegal() alone accepts it
    state.apply("place(3,1,X)")
    assert state.variables == {"score": 2} and state.move_number == 2


def test_limits_are_configurable(tmp_path) -> None:
    path = tmp_path / "limits.gdef"
    path.write_text(RULES, encoding="utf-8")
    game = load_game([str(path)], max_steps=1000, max_depth=20)
    assert game.new_state().check("place(0,1,X)").error.code == "G607"
    error = game.new_state().check("place(0,2,X)").error
    assert error.code == "G608" and len(error.stack) == 21 and "more than 20 nested" in error.message
    assert game.new_state().check("place(3,0,X)").legal


def test_step_limit_counts_loop_iterations(tmp_path) -> None:
    path = tmp_path / "count.gdef"
    path.write_text("""name: count
players: 1
size: 1 x 1
obj X
define isMoveLegal() -> bool {
  int n = 0;
  while (n < operationsNum() * 50) { n = n + 1; }
  return true;
}
define end() -> bool { return false; }
""", encoding="utf-8")
    game = load_game([str(path)], max_steps=101)
    state = game.new_state()
    # the call of isMoveLegal() and 100 iterations: 101 steps, within the limit
    assert state.check("place(0,0,X); place(0,0,X)").legal
    assert state.check("place(0,0,X); place(0,0,X); place(0,0,X)").error.code == "G607"


def test_step_limit_stops_an_exponential_tree_of_calls(tmp_path) -> None:
    # No loop and no recursion, but 2^40 calls: the budget must stop it, not let it run for days.
    lines = ["name: expo", "players: 1", "size: 1 x 1", "obj X"]
    lines += [f"define f{i}() -> int {{ return f{i + 1}() + f{i + 1}(); }}" for i in range(40)]
    lines += ["define f40() -> int { return 1; }",
              "define isMoveLegal() -> bool { return f0() > 0; }",
              "define end() -> bool { return true; }"]
    path = tmp_path / "expo.gdef"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    error = load_game([str(path)], max_steps=10_000).new_state().check("place(0,0,X)").error
    assert error is not None and error.code == "G607"


def test_deep_recursion_never_reaches_pythons_own_limit(tmp_path) -> None:
    path = tmp_path / "deep.gdef"
    path.write_text("""name: deep
players: 1
size: 1 x 1
obj X
define down(int n) -> int { if (n == 0) { return 0; } return 1 + down(n - 1); }
define isMoveLegal() -> bool { return down(OperationList[0][0] + 4999) == 4999; }
define end() -> bool { return false; }
""", encoding="utf-8")
    game = load_game([str(path)], max_depth=5000)
    assert game.new_state().check("place(0,0,X)").legal
    assert load_game([str(path)]).new_state().check("place(0,0,X)").error.code == "G608"


def test_operation_list_with_computed_index_checks_types_at_run_time(tmp_path) -> None:
    path = tmp_path / "dyn.gdef"
    text = """name: dyn
players: 1
size: 2 x 2
obj X
define isMoveLegal() -> bool {
  int j = OperationList[0][0] + 1;
  int v = OperationList[0][j];
  return v >= 0;
}
define end() -> bool { return false; }
"""
    path.write_text(text, encoding="utf-8")
    state = load_game([str(path)]).new_state()
    assert state.check("place(0,0,X)").legal            # j = 1: the y, an int
    error = state.check("place(1,0,X)").error           # j = 2: the object, not an int
    assert error.code == "G610" and "expected an int" in error.message
    line = text.count("\n", 0, text.index("OperationList[0][j]")) + 1
    assert (error.span.line + 1, error.span.column + 1) == (line, 11)


def test_long_expressions_compile_and_too_deep_blocks_are_reported(tmp_path) -> None:
    def game_file(name: str, body: str) -> str:
        path = tmp_path / f"{name}.gdef"
        path.write_text(f"name: {name}\nplayers: 1\nsize: 1 x 1\nobj X\n"
                        f"define isMoveLegal() -> bool {{ {body} }}\ndefine end() -> bool {{ return true; }}\n")
        return str(path)

    chain = " + ".join(["moveNumber()"] * 400)  # (a left-nested chain: G110 past 1000)
    conditions = " && ".join(["operationsNum() == 1"] * 400)
    # (nested 1,000 deep at most: deeper is G110, the language's nesting limit)
    state = load_game([game_file("chain", f"return {chain} == 0 && {conditions} && {'-' * 150}1 == 1;")]).new_state()
    assert state.check("place(0,0,X)").legal and not state.check("pass")
    nested = "if (moveNumber() < 5) { " * 150 + "return true;" + " }" * 150
    with pytest.raises(GameLoadError) as raised:
        load_game([game_file("nested", nested + " return false;")])
    (problem,) = [d for d in raised.value.diagnostics if d.is_error]
    assert problem.code == "G110" and problem.span.line == 4  # blocks nested past the limit


def test_a_search_for_legal_moves_is_bounded_in_all(tmp_path) -> None:
    """Each candidate has its own step budget, but one search (legal_moves(), hasLegalMove())
    may spend at most ten budgets in all: costly rules on a large board cannot make it endless."""
    text = """name: costly
players: 2
size: 10 x 10
obj X
define isMoveLegal() -> bool {
  int n = 0;
  while (n < 900) { n = n + 1; }
  return operationsNum() == 2;
}
define end() -> bool {
  return !hasLegalMove();
}
"""
    path = tmp_path / "costly.gdef"
    path.write_text(text, encoding="utf-8")
    state = load_game([str(path)], max_steps=1000).new_state()
    with pytest.raises(GdefRuntimeError) as raised:
        state.legal_moves()   # 200 candidates of about 900 steps: more than 10,000 in all
    assert raised.value.code == "G607" and "more than 10,000 steps in all" in raised.value.message
    assert (raised.value.span.line, raised.value.span.column) == (4, 7)   # isMoveLegal, named
    verdict = None
    try:
        state.apply("place(0,0,X); place(1,1,X)")
    except IllegalMoveError as error:
        verdict = error.verdict
    assert verdict.error.code == "G607"
    assert (verdict.error.span.line + 1, verdict.error.span.column + 1) == (11, 3)   # the hasLegalMove() line
    assert state.move_number == 0
