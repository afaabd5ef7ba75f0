"""The optimised compilation (ranges, condition facts, propagated locals, the single-operation
variant, array bounds tests dropped where proven) against the reference compilation that keeps
every check (`optimize=False`): on random rules with arrays and loops, every move gets the same
verdict, and a run-time error the same code and location."""
from __future__ import annotations

import itertools

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdef_core.loader import load_program
from gdef_core.runtime.game import Game, VerdictKind

HEADER = """name: fuzz
players: 2
size: 4 x 3
obj X
obj O
start { (1,1: X), (2,0: O), (3,2: X) }
define end() -> bool { return false; }
define pick(int v, int w) -> int { if (v > w) { return v / w; } else if (v == w) { return 7; } return w - v; }
define twice(int v) -> int { return pick(v, 2) * 2; }
define lookup(int v) -> bool { return CurrentPosition[v][1] == X; }
define inside(int v, int w) -> bool { return v >= 0 && v < 4 && w >= 0 && w < 3; }
define inColumn(int w, int v) -> bool { return inside(v, w) && v != 2; }
define walk(int v) -> int { int n = 0; while (n < v && n < 3) { n = n + 1; } return n; }
int gv[3] = {1, -2, 3};
define total(int v[]) -> int { int t = 0; for (int j = 0; j < sizeOf(v, 0); j = j + 1) { t = t + v[j]; } return t; }
define at(int v[], int k) -> int { return v[k]; }
"""
LOCALS = ("a", "b", "c")  # assigned anywhere
STABLE = ("k", "s", "t")  # never assigned after their declaration
MOVES = ["place(0,0,X)", "place(3,2,O)", "place(1,1,X)", "place(2,2,O)", "clear(2,0)", "pass",
         "clear(1,1); place(0,2,O)", "place(3,0,X); place(3,0,O)"]
_counter = itertools.count()


@st.composite
def int_expr(draw, depth: int = 0, names: tuple[str, ...] = (*LOCALS, *STABLE)):
    leaves = [st.integers(-3, 9).map(str), st.sampled_from(names or ("0",)),
              st.sampled_from(["OperationList[0][0]", "OperationList[0][1]", "onTurn()", "moveNumber()",
                               "boardWidth()", "operationsNum()", "9223372036854775807", "(-9223372036854775807)"])]
    if depth >= 3:
        return draw(st.one_of(*leaves))
    choice = draw(st.integers(0, 6))
    if choice <= 2:
        return draw(st.one_of(*leaves))
    if choice == 3:
        return f"-{draw(int_expr(depth + 1, names))}"
    if choice == 4 and names and draw(st.booleans()):
        array = draw(st.sampled_from(["arr", "gv"]))
        form = draw(st.integers(0, 3))
        if form == 0:
            return f"{array}[{draw(int_expr(depth + 1, names))}]"
        if form == 1:
            return f"grid[{draw(int_expr(depth + 1, names))}][{draw(int_expr(depth + 1, names))}]"
        if form == 2:
            return f"at(arr, {draw(int_expr(depth + 1, names))})"
        return draw(st.sampled_from(["total(arr)", "sizeOf(gv, 0)", "sizeOf(grid, 1)"]))
    if choice == 4 and names:
        function = draw(st.sampled_from(["pick", "twice", "walk"]))
        arguments = [draw(int_expr(depth + 1, names)) for _ in range(2 if function == "pick" else 1)]
        return f"{function}({', '.join(arguments)})"
    op = draw(st.sampled_from(["+", "-", "*", "+", "-", "/", "%"]))
    return f"({draw(int_expr(depth + 1, names))} {op} {draw(int_expr(depth + 1, names))})"


@st.composite
def condition(draw, depth: int = 0):
    choice = draw(st.integers(0, 7 if depth < 2 else 3))
    if choice <= 1:
        op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        return f"{draw(int_expr(depth + 1))} {op} {draw(int_expr(depth + 1))}"
    if choice == 2 and draw(st.booleans()):
        return f"lookup({draw(int_expr(depth + 1))})"
    if choice == 2:
        board = draw(st.sampled_from(["CurrentPosition", "NextPosition"]))
        obj = draw(st.sampled_from(["X", "O", "empty"]))
        return f"{board}[{draw(int_expr(depth + 1))}][{draw(int_expr(depth + 1))}] == {obj}"
    if choice == 3:
        variable = draw(st.sampled_from(LOCALS))
        other = draw(st.sampled_from((*LOCALS, *STABLE)))
        return draw(st.sampled_from([  # the facts a condition (or a predicate's body) gives
            f"{variable} >= 0 && {variable} < 4 && CurrentPosition[{variable}][{draw(int_expr(depth + 1))}] != empty",
            f"inside({variable}, {other}) && CurrentPosition[{variable}][{other}] != empty",
            f"!inColumn({other}, {variable}) || NextPosition[{variable}][{other}] == X",
            f"inside({variable} + 1, {other}) && CurrentPosition[{variable}][{other}] == O",
            f"inside({variable}, {other}) || CurrentPosition[{variable}][{other}] == empty"]))
    if choice == 4:
        return f"!({draw(condition(depth + 1))})"
    op = draw(st.sampled_from(["&&", "||"]))
    return f"({draw(condition(depth + 1))}) {op} ({draw(condition(depth + 1))})"


@st.composite
def statements(draw, depth: int = 0):
    out = []
    for _ in range(draw(st.integers(1, 4))):
        choice = draw(st.integers(0, 7 if depth < 2 else 1))
        if choice <= 1:
            out.append(f"{draw(st.sampled_from(LOCALS))} = {draw(int_expr())};")
        elif choice == 6:
            target = draw(st.sampled_from(["arr[{}]", "grid[{}][{}]"]))
            out.append(target.format(*(draw(int_expr()) for _ in range(target.count("{}"))))
                       + f" = {draw(int_expr())};")
        elif choice == 7:
            counter = f"i{next(_counter)}"
            body = draw(statements(depth + 1))
            exits = draw(st.sampled_from(["", "continue;", "break;"]))
            out.append(f"for (int {counter} = {draw(st.integers(-1, 1))}; {counter} < {draw(int_expr())} "
                       f"&& {counter} < 4; {counter} = {counter} + 1) {{ "
                       f"if ({draw(condition())}) {{ {exits} }} {body} "
                       f"arr[{counter} + 1] = arr[{counter} + 1] + {counter}; }}")
        elif choice == 2:
            out.append(f"if ({draw(condition())}) {{ {draw(statements(depth + 1))} }} "
                       f"else {{ {draw(statements(depth + 1))} }}")
        elif choice == 3:
            counter = f"k{next(_counter)}"
            out.append(f"int {counter} = 0; while (({draw(condition())}) && {counter} < 4) "
                       f"{{ {draw(statements(depth + 1))} {counter} = {counter} + 1; }}")
        elif choice == 4 and draw(st.booleans()):
            out.append(f"if ({draw(condition())}) {{ return {draw(condition())}; }}")
        elif choice == 4:  # a guard: what follows knows the condition is false
            variable = draw(st.sampled_from(LOCALS))
            width = f"w{next(_counter)}"
            out.append(f"int {width} = boardWidth(); "
                       f"if ({variable} < {draw(st.integers(-1, 1))} || {variable} >= {width}) "
                       f"{{ {draw(statements(depth + 1)) if depth < 2 else ''} return false; }} "
                       f"if (CurrentPosition[{variable}][{draw(int_expr())}] == X) {{ {variable} = {variable} + 1; }}"
                       if draw(st.booleans()) else
                       f"if (!inside({variable}, 0)) {{ return {draw(condition())}; }} "
                       f"if (CurrentPosition[{variable}][0] == O) {{ {variable} = {draw(int_expr())}; }}")
        else:
            out.append(f"int r{next(_counter)} = {draw(int_expr())};")
    return " ".join(out)


@st.composite
def rules(draw):
    declarations = " ".join(f"int {name} = {draw(int_expr(names=()))};" for name in (*LOCALS, "k"))
    declarations += " int s = OperationList[0][0]; int t = onTurn() + s;"
    declarations += f" int arr[5] = {{{', '.join(str(draw(st.integers(-2, 5))) for _ in range(5))}}};"
    declarations += f" int grid[3][2] = {draw(st.integers(-2, 5))};"
    return (HEADER + "define isMoveLegal() -> bool {\n  " + declarations + "\n  "
            + draw(statements()) + "\n  return " + draw(condition()) + ";\n}\n")


def outcome(game: Game, move: str):
    verdict = game.new_state().check(move)
    if verdict.kind is VerdictKind.RUNTIME_ERROR:
        return verdict.kind, verdict.error.code, verdict.error.span, verdict.error.stack
    return verdict.kind


@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules())
def test_optimised_rules_judge_like_the_reference(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.gdef"
    path.write_text(text, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, [str(d) for d in program.errors] + [text]
    fast = Game(program, max_steps=10_000)
    reference = Game(program, max_steps=10_000, optimize=False)
    for move in MOVES:
        assert outcome(fast, move) == outcome(reference, move), (move, text)
    assert fast.new_state().legal_moves() == reference.new_state().legal_moves(), text


PREDICATE = """name: p
players: 2
size: 4 x 3
obj X
define inside(int v, int w) -> bool { return v >= 0 && v < 4 && w >= 0 && w < 3; }
define end() -> bool { return false; }
define isMoveLegal() -> bool {
  int a = OperationList[0][0] - 2;
  int b = OperationList[0][0] + OperationList[0][1];
  int w = boardWidth();
  GUARD
  return CONDITION;
}
"""


def compiled_legal(tmp_path, guard: str, condition: str):
    path = tmp_path / "p.gdef"
    path.write_text(PREDICATE.replace("GUARD", guard).replace("CONDITION", condition), encoding="utf-8")
    program = load_program([str(path)])
    fast, reference = Game(program), Game(program, optimize=False)
    legal = next(line for line in fast.rules.compiled.source.splitlines() if "def u_isMoveLegal" in line)
    return fast, reference, fast.rules.compiled.source.split(legal, 1)[1].split("\n    def ", 1)[0]


@pytest.mark.parametrize("guard, bounds_tests", [
    ("if (a < 0 || a >= w) { return false; }", 0),         # what follows knows 0 <= a < 4
    ("if (a >= 0) { return false; }", 1),                  # ... and here only that a < 0
    ("if (a < 0) { return false; } else { b = 0; }", 1),   # an else: not a guard
    ("if (a < 0 || a >= w) { b = 0; }", 1),                # no exit: not a guard
])
def test_a_guard_tells_what_follows_that_its_condition_is_false(tmp_path, guard, bounds_tests) -> None:
    fast, reference, body = compiled_legal(tmp_path, guard, "CurrentPosition[a][0] == empty")
    assert body.count("_off_board(") == bounds_tests
    for move in ("place(0,0,X)", "place(2,1,X)", "place(3,2,X)"):
        assert outcome(fast, move) == outcome(reference, move)


@pytest.mark.parametrize("condition, bounds_tests", [
    ("inside(a, b) && CurrentPosition[a][b] == empty", 0),   # the call proves the read in range
    ("!inside(a, b) || CurrentPosition[a][b] == empty", 0),
    ("inside(a, b) || CurrentPosition[a][b] == empty", 1),   # the read happens when it is not
    ("inside(b, a) && CurrentPosition[a][b] == empty", 1),   # facts go to the right arguments
])
def test_a_predicate_call_proves_what_its_body_proves(tmp_path, condition, bounds_tests) -> None:
    fast, reference, body = compiled_legal(tmp_path, "", condition)
    assert body.count("_off_board(") == bounds_tests
    for move in ("place(0,0,X)", "place(2,1,X)", "place(3,2,X)"):  # (a, b) = (-2, 0), (0, 3), (1, 5)
        assert outcome(fast, move) == outcome(reference, move)
