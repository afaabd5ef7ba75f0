"""Run-time semantics of compiled rules (spec sections 5-8, 13): arithmetic exactly as C
(truncating division, modulo with the dividend's sign, 64-bit overflow as an error), int to
float widening, short-circuit logic, comparisons, locals, built-ins.

Each case is a rules file whose isMoveLegal() returns an expression; the move `pass` is then
legal exactly when the expression is true. Values go through function parameters so that the
compiler cannot fold them into constants; the constant-folded spelling is checked too.
"""
from __future__ import annotations

import pytest

from gdef_core.builtins import BUILTINS
from gdef_core.runtime import VerdictKind, load_game
from gdef_core.lower.build import RESOLVED
from gdef_core.runtime.builtin_impl import IMPLEMENTATIONS

HEADER = """name: semantics
players: 3
size: 4 x 3
obj X
obj O
start { (1,2: X), (3,0: O) }
define end() -> bool { return false; }
define i(int v) -> int { return v; }
define f(float v) -> float { return v; }
define b(bool v) -> bool { return v; }
define o(obj v) -> obj { return v; }
"""


def verdict(tmp_path, body: str, move: str = "pass", extra: str = ""):
    path = tmp_path / "semantics.gdef"
    path.write_text(HEADER + extra + f"define isMoveLegal() -> bool {{ {body} }}\n", encoding="utf-8")
    return load_game([str(path)]).new_state().check(move)


def holds(tmp_path, expression: str, **kwargs) -> bool:
    result = verdict(tmp_path, f"return {expression};", **kwargs)
    assert result.kind in (VerdictKind.LEGAL, VerdictKind.REJECTED), result.reason
    return result.legal


TRUE_EXPRESSIONS = [
    # C-style integer division and modulo (spec 5, 13)
    "i(-7) / i(2) == -3", "i(7) / i(-2) == -3", "i(-7) / i(-2) == 3", "i(7) / i(2) == 3",
    "i(-7) % i(2) == -1", "i(7) % i(-2) == 1", "i(-7) % i(-2) == -1", "i(6) % i(3) == 0",
    "-7 / 2 == -3", "-7 % 2 == -1",
    # extremes that fit
    "i(9223372036854775807) == 9223372036854775807",
    "-9223372036854775808 == i(-9223372036854775807) - 1",
    "i(-9223372036854775807) - i(1) < 0",
    "i(-9223372036854775807 - 1) % i(-1) == 0",
    # int to float widening, float arithmetic
    "i(1) + f(0.5) == 1.5", "i(7) / f(2.0) == 3.5", "f(7.0) / i(2) == 3.5",
    "f(-7.5) % f(2.0) == -1.5", "f(7.5) % i(-2) == 1.5",
    "i(3) == f(3.0)", "f(2.5) > i(2)", "i(2) <= f(2.0)",
    "i(9007199254740993) == f(9007199254740992.0)",  # the int converts to float (C)
    "f(1.0) / f(3.0) > 0.333",
    "-f(2.5) == -2.5", "-i(3) == -3",
    # precedence and associativity
    "i(2) + i(3) * i(4) == 14", "i(20) - i(5) - i(3) == 12", "i(100) / i(10) / i(5) == 2",
    "(i(2) + i(3)) * i(4) == 20", "--i(4) == 4",
    # logic, comparisons of every type
    "b(true) && !b(false)", "b(false) || b(true)", "b(true) == b(true)", "b(true) != b(false)",
    "o(X) == X", "o(X) != O", "o(empty) == empty", "empt == empty",
    "i(1) < i(2) && i(2) > i(1) && i(2) >= i(2) && i(2) <= i(2) && i(1) != i(2)",
    # built-ins
    "CurrentPosition[1][2] == X && CurrentPosition[3][0] == O && CurrentPosition[0][0] == empty",
    "CurrentPosition[i(1)][i(2)] == X",
    "NextPosition[i(1)][i(2)] == X",
    "boardWidth() == 4 && boardHeight() == 3 && playersNum() == 3",
    "onTurn() == 0 && moveNumber() == 0 && operationsNum() == 0",
]


@pytest.mark.parametrize("expression", TRUE_EXPRESSIONS)
def test_expression_holds(tmp_path, expression: str) -> None:
    assert holds(tmp_path, expression)


@pytest.mark.parametrize("expression", ["i(-7) / i(2) == -4", "i(-7) % i(2) == 1", "b(false) && b(true)",
                                        "o(X) == O", "i(3) != f(3.0)", "f(0.1) + f(0.2) == 0.3"])
def test_false_expression_rejects_the_move(tmp_path, expression: str) -> None:
    assert not holds(tmp_path, expression)


def test_short_circuit_skips_the_failing_operand(tmp_path) -> None:
    assert holds(tmp_path, "b(true) || i(1) / i(0) == 0")
    assert not holds(tmp_path, "b(false) && i(1) / i(0) == 0")
    assert holds(tmp_path, "i(0) == 0 || CurrentPosition[i(9)][0] == X")


def test_operation_list_and_next_position_describe_the_proposed_move(tmp_path) -> None:
    move = "clear(1,2); place(0,0,O); place(0,0,X)"
    assert holds(tmp_path, "operationsNum() == 3 && !isPlaceOperation(0) && isPlaceOperation(2)"
                           " && OperationList[0][0] == 1 && OperationList[0][1] == 2"
                           " && OperationList[0][2] == empty && OperationList[2][2] == X", move=move)
    # NextPosition applies every operation in order; CurrentPosition is still the old position
    assert holds(tmp_path, "NextPosition[1][2] == empty && NextPosition[0][0] == X"
                           " && CurrentPosition[1][2] == X && CurrentPosition[0][0] == empty", move=move)


def test_operation_list_with_a_computed_second_index(tmp_path) -> None:
    move = "place(2,1,O)"
    assert holds(tmp_path, "OperationList[0][i(0)] == 2 && OperationList[0][i(1)] == 1"
                           " && OperationList[0][i(2)] == O && OperationList[0][i(2)] != X", move=move)
    assert holds(tmp_path, "OperationList[0][i(0)] + 1 == 3 && OperationList[0][i(1)] < f(1.5)", move=move)


def test_int_stored_in_float_variable_divides_as_float(tmp_path) -> None:
    assert holds(tmp_path, "half(7) == 3.5", extra="define half(int n) -> float { float x = n; return x / 2; }\n")
    assert holds(tmp_path, "g() == 2.0", extra="float gv = 2;\ndefine g() -> float { return gv; }\n")


def test_local_declared_in_a_loop_is_assigned_on_each_pass(tmp_path) -> None:
    extra = """define sum(int n) -> int {
  int k = 0;
  int total = 0;
  while (k < n) { int square = k * k; total = total + square; k = k + 1; }
  return total;
}
"""
    assert holds(tmp_path, "sum(4) == 14", extra=extra)


def test_recursion_within_the_depth_limit(tmp_path) -> None:
    extra = "define fact(int n) -> int { if (n <= 1) { return 1; } return n * fact(n - 1); }\n" \
            "define down(int n) -> int { if (n == 0) { return 0; } return down(n - 1); }\n"
    assert holds(tmp_path, "fact(20) == 2432902008176640000 && down(490) == 0", extra=extra)


def test_names_that_are_python_builtins_are_harmless(tmp_path) -> None:
    extra = """define __import__(int os) -> int { int eval = os + 1; return eval; }
define exec(obj print) -> bool { return print == X; }
define len(int None) -> int { int True = None * 2; return True; }
"""
    assert holds(tmp_path, "__import__(1) == 2 && exec(X) && len(4) == 8", extra=extra)


def test_every_builtin_has_a_runtime_implementation() -> None:
    assert set(IMPLEMENTATIONS) == set(BUILTINS) - RESOLVED


def test_division_of_a_value_known_non_negative_is_plain_python(tmp_path) -> None:
    """`n / 4` and `n % 4` where n >= 0 is known compile to Python's `//` and `%` (C's and
    Python's agree there); where n may be negative they keep C's semantics."""
    extra = ("define split(int n) -> int { if (n >= 0) { return n / 4 * 10 + n % 4; } return n / 4 * 10 + n % 4; }\n")
    assert holds(tmp_path, "split(11) == 23 && split(-11) == -23 && split(0) == 0", extra=extra)
    source = load_game([str(tmp_path / "semantics.gdef")]).rules.compiled.source
    assert "(l_n // 4)" in source and "(l_n % 4)" in source and "_int_div(l_n, 4" in source
