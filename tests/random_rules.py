"""Random gdef rules for the property tests (tests/test_runtime_optimizer.py: the optimised
Python compilation against the reference one; tests/test_native_optimizer.py: the native
backend against the Python one): a fixed HEADER of helper functions, and random bool functions
of no arguments with locals, arrays (local and the game variable `gv`), loops with break and
continue, guards, 64-bit overflow and division, judged on the moves of MOVES."""
from __future__ import annotations

import itertools

from hypothesis import strategies as st

GAME_ARRAY = "int gv[3] = {1, -2, 3};"
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
def local_declarations(draw, game_arrays: bool = True, locals_from: tuple[str, ...] | None = None):
    """The locals the random statements and expressions use. Without `game_arrays`, `gv` is
    a local array of the same values. With `locals_from`, the locals a, b, c and k start as
    one of these expressions (such as game variables the caller sets to values of its
    choice) rather than a random computation, most of which fail."""
    declarations = "" if game_arrays else GAME_ARRAY + " "
    initial = int_expr(names=()) if locals_from is None else st.sampled_from(locals_from)
    declarations += " ".join(f"int {local} = {draw(initial)};" for local in (*LOCALS, "k"))
    declarations += " int s = OperationList[0][0]; int t = onTurn() + s;"
    declarations += f" int arr[5] = {{{', '.join(str(draw(st.integers(-2, 5))) for _ in range(5))}}};"
    declarations += f" int grid[3][2] = {draw(st.integers(-2, 5))};"
    return declarations


@st.composite
def legal_function(draw, name: str = "isMoveLegal", game_arrays: bool = True,
                   locals_from: tuple[str, ...] | None = None):
    """`define name() -> bool { ... }`: the locals, random statements, a random condition
    returned."""
    return (f"define {name}() -> bool {{\n  " + draw(local_declarations(game_arrays, locals_from)) + "\n  "
            + draw(statements()) + "\n  return " + draw(condition()) + ";\n}\n")


@st.composite
def comparison_function(draw, name: str = "isMoveLegal", game_arrays: bool = True,
                        locals_from: tuple[str, ...] | None = None):
    """`define name() -> bool { ... }`: the locals, then a comparison of two random int
    expressions returned, so that arithmetic (C division and remainder, overflow) decides."""
    op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
    return (f"define {name}() -> bool {{\n  " + draw(local_declarations(game_arrays, locals_from))
            + f"\n  return {draw(int_expr())} {op} {draw(int_expr())};\n}}\n")


def header(game_arrays: bool = True) -> str:
    """HEADER, with or without the game variable array `gv`."""
    return HEADER + (GAME_ARRAY + "\n" if game_arrays else "")


@st.composite
def rules(draw):
    """A whole game: HEADER and a random isMoveLegal()."""
    return header() + draw(legal_function())
