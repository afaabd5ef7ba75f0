"""The middle layer (gdef_core/lower): the call graph the checker leaves on the Program, and
the IR every example lowers to, printed exactly for small functions."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from random_rules import rules

from gdef_core.builtins import ENTRY_POINTS, Context
from gdef_core.loader import load_program
from gdef_core.lower import ir
from gdef_core.lower.build import lower_program
from gdef_core.lower.calls import call_graph
from gdef_core.lower.printer import format_function, format_module
from gdef_core.syntax import ast

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("examples/**/*.gdef")
                  if path.name not in ("rules.gdef", "lines.gdef"))  # libraries: used by the games

SMALL = """name: small
players: 2
size: 4 x 3
obj X
int total = 0;
float ratio[2] = {0.5, 1.5};
define isMoveLegal() -> bool {
  return OperationList[0][0] < boardWidth() && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  int n = 0;
  for (int i = 0; i < 3; i = i + 1) {
    if (i == 1) { continue; }
    n = n + i * 2;
  }
  total = total + n;
  setScore(onTurn(), n);
  return depth(n) > ratio[1];
}
define depth(int k) -> int {
  if (k <= 0) { return 0; }
  return 1 + depth(k / 2);
}
define half(int v) -> float {
  if (v > 0) {
    int w = v;
  }
  if (v < 0) { return -v; }
  return v % 2 + w;
}
define kind(int i) -> bool {
  if (i == 0) { return OperationList[0][i] == X; }
}
define grid() {
  int g[boardWidth()][2] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  g[3][1] = g[0][0] - 1;
}
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("lower") / "small.gdef"
    path.write_text(SMALL, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, program.errors
    return program


def test_entry_points_are_one_enum():
    assert [(c.value, c.number) for c in Context] == [("isMoveLegal", 1), ("end", 2), ("moves", 3), ("setup", 4),
                                                      ("chance", 5)]
    assert ENTRY_POINTS == {"isMoveLegal": ("bool", True), "end": ("bool", True),
                            "moves": (None, False), "setup": (None, False), "chance": (None, False)}


def test_the_checker_leaves_the_call_graph_on_the_program(small):
    assert small.calls == {"isMoveLegal": [], "end": ["depth"], "depth": ["depth"], "half": [], "kind": [],
                           "grid": []}
    graph = call_graph(small)
    assert graph.reach == {Context.IS_MOVE_LEGAL: {"isMoveLegal"}, Context.END: {"end", "depth"},
                           Context.MOVES: frozenset(), Context.SETUP: frozenset(), Context.CHANCE: frozenset()}
    assert graph.cycles == [["depth"]]
    assert graph.recursive == {"depth"}
    assert graph.contexts_of("depth") == {Context.END}
    assert graph.contexts_of("half") == frozenset()
    assert graph.calls_not_inlined("end", inlined=set()) and not graph.calls_not_inlined("end", {"depth"})


def test_the_ir_of_small_functions_exactly(small):
    module = lower_program(small)
    assert format_module(module).split("\n\n")[0] == (
        "game 4x3, 2 players\n"
        "objects empty#0, X#1\n"
        "var int $total = 0\n"
        "var float $ratio[2] = {0.5, 1.5}")
    functions = module.functions
    # operands resolved to built-ins and constants (boardWidth() is 4), every check named
    assert format_function(functions["isMoveLegal"]) == (
        "define bool isMoveLegal()  ; reached from isMoveLegal; inlinable\n"
        "  enter\n"
        "  return and(lt.int(OperationList[0, 0]!operation, 4), "
        "eq.obj(CurrentPosition[OperationList[0, 0]!operation, 0]!square, empty#0))\n")
    # a `for` local renamed apart, its range; the step after the body; conversions explicit
    assert format_function(functions["end"]) == (
        "define bool end()  ; reached from end\n"
        "  locals int n, int 1i\n"
        "  range 1i >= 0\n"
        "  enter!steps\n"
        "  int n = 0\n"
        "  int 1i = 0\n"
        "  loop!steps while lt.int(1i, 3)\n"
        "    if eq.int(1i, 1)\n"
        "      continue\n"
        "    n = add.int(n, mul.int(1i, 2)!overflow)!overflow\n"
        "  step\n"
        "    1i = add.int(1i, 1)!overflow\n"
        "  $total = add.int($total, n)!overflow\n"
        "  setScore(onTurn(), to.float(n))\n"
        "  return gt.float(to.float(call depth(n)), $ratio[1]!index)\n")
    # recursion: the depth checked on entry, each call one level deeper
    assert format_function(functions["depth"]) == (
        "define int depth(int k)  ; reached from end; recursive\n"
        "  stable k\n"
        "  enter!steps!depth\n"
        "  if le.int(k, 0)\n"
        "    return 0\n"
        "  return add.int(1, call+1 depth(div.int(k, 2)!division!overflow))!overflow\n")
    # a local declared in a branch: its read is checked
    assert format_function(functions["half"]) == (
        "define float half(int v)\n"
        "  locals int w\n"
        "  stable v\n"
        "  enter\n"
        "  if gt.int(v, 0)\n"
        "    int w = v\n"
        "  if lt.int(v, 0)\n"
        "    return to.float(neg.int(v)!overflow)\n"
        "  return to.float(add.int(mod.int(v, 2)!division, w!unset)!overflow)\n")
    # a value typed at run time, checked where a type is needed; the reachable end fails
    assert format_function(functions["kind"]) == (
        "define bool kind(int i)\n"
        "  stable i\n"
        "  enter\n"
        "  if eq.int(i, 0)\n"
        "    return eq.obj(to.obj(OperationList[0, i]!operation)!type, X#1)\n"
        "  fail!no_return\n")
    assert format_function(functions["grid"]) == (
        "define void grid()\n"
        "  locals int[][] g\n"
        "  stable g\n"
        "  enter\n"
        "  int g[4][2]!size!steps = {{1, 2}, {3, 4}, {5, 6}, {7, 8}}\n"
        "  g[3, 1]!index = sub.int(g[0, 0]!index, 1)!overflow\n")


def test_the_ir_keeps_types_and_spans(small):
    end = lower_program(small).functions["end"]
    returned = end.body[-1]
    assert isinstance(returned, ir.Return) and returned.value.type == "bool"
    assert returned.value.left.value.type == "int"  # the call, before its conversion
    assert returned.span.line == 17 and returned.value.left.value.span.column == 9  # 0-based
    assert end.params == () and end.result == "bool" and end.locals == {"n": "int", "1i": "int"}


def type_mismatches(program, module: ir.Module) -> list:
    """The expressions whose type in the IR (before any conversion) is not the checker's."""
    lowered_types: dict[tuple, set[str]] = {}
    for function in module.functions.values():
        for node in ir.walk(function.body):
            if isinstance(node, ir.Convert) or getattr(node, "type", None) is None or node.span is None \
                    or isinstance(node, (ir.Declare, ir.DeclareArray)):
                continue
            span = node.span
            lowered_types.setdefault((span.line, span.column, span.end_line, span.end_column), set()).add(node.type)
    found = []
    for function in program.functions.values():
        for node in ast.walk(function.body):
            checked = program.expr_types.get(node)
            span = node.span
            lowered = lowered_types.get((span.line, span.column, span.end_line, span.end_column))
            if checked is not None and lowered is not None and checked not in lowered:
                found.append((function.name.text, span, checked, lowered))
    return found


@pytest.mark.parametrize("path", EXAMPLES)
def test_every_example_lowers(path):
    program = load_program([str(ROOT / path)])
    assert program.ok
    module = lower_program(program)
    assert type_mismatches(program, module) == []
    assert set(module.functions) == set(program.functions)
    assert {Context.IS_MOVE_LEGAL, Context.END} <= {c for c in Context if module.graph.reach[c]}
    text = format_module(module)
    for name in program.functions:
        assert f" {name}(" in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules())
def test_random_rules_lower(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("random") / "rules.gdef"
    path.write_text(text, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, program.errors
    module = lower_program(program)
    assert format_function(module.functions["isMoveLegal"]).startswith("define bool isMoveLegal()")
    assert type_mismatches(program, module) == []


def test_the_start_position_is_part_of_the_ir():
    program = load_program([str(ROOT / "examples" / "reversi.gdef")])
    module = lower_program(program)
    assert module.start == ((3, 3, "W"), (4, 3, "B"), (3, 4, "B"), (4, 4, "W"))
    assert "\nstart (3,3: W), (4,3: B), (3,4: B), (4,4: W)\n" in format_module(module)
