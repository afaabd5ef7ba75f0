"""Section 15 syntax: arrays, for, break/continue, counter; AST with spans; recovery as good as
the rest of the language (one located error, the rest of the file still parsed)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdef_core import parse
from gdef_core.syntax import ast

PROGRAM = """counter int halfmoves = 0;
bool castle[4] = true;
int steps[2][3] = {{1, 0, -1}, {0, 1, 0},};
define flood(int x, bool seen[][]) -> int {
  int dx[4] = {1, 0, -1, 0};
  for (int i = 0; i < 4; i = i + 1) {
    if (seen[x][i]) { continue; }
    if (dx[i] > 5) { break; }
    seen[x][i] = true;
  }
  for (;;) { break; }
  return sizeOf(dx, 0);
}
"""


def test_every_construct_has_its_node_and_span():
    result = parse(PROGRAM, "p.gdef")
    assert result.diagnostics == []
    counter, castle, steps, flood = result.module.items
    assert (counter.counter, counter.sizes) == (True, [])
    assert counter.span.column == 0  # from `counter`
    assert [size.value for size in castle.sizes] == [4] and not castle.counter
    assert isinstance(steps.init, ast.ArrayInit) and [len(row.items) for row in steps.init.items] == [3, 3]
    assert [(p.name.text, p.rank) for p in flood.params] == [("x", 0), ("seen", 2)]
    dx, loop, forever, _ = flood.body.stmts
    assert isinstance(dx.init, ast.ArrayInit) and dx.sizes[0].value == 4
    assert isinstance(loop, ast.For) and isinstance(loop.init, ast.VarDecl) and loop.init.name.text == "i"
    assert isinstance(loop.step, ast.Assign) and (loop.span.line, loop.span.column) == (5, 2)
    kinds = [type(node).__name__ for node in ast.walk(loop.body)]
    assert "Continue" in kinds and "Break" in kinds
    assert (forever.init, forever.cond, forever.step) == (None, None, None)
    write = loop.body.stmts[2]
    assert isinstance(write, ast.Assign) and isinstance(write.target, ast.Index)


def test_counter_is_a_keyword_only_before_a_game_variable():
    result = parse("define counter() -> int { int counter = 1; return counter; }", "c.gdef")
    assert result.diagnostics == []
    wrong = parse("total int x = 0;", "c.gdef")
    assert [(d.code, d.span.column) for d in wrong.diagnostics] == [("G101", 0)]
    assert "only `counter` (`counter int halfmoves = 0;`) or `param`" in wrong.diagnostics[0].message


def test_for_break_continue_are_reserved_words():
    result = parse("define f() -> int { int for = 1; return 0; }", "r.gdef")
    assert [d.code for d in result.diagnostics] == ["G101"]


def test_a_for_step_that_is_a_value_is_reported():
    result = parse("define f() { for (int i = 0; i < 3; i + 1) { } }", "s.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [("G106", 0, 36)]


def _one_error_and_the_next_function(text: str) -> tuple:
    result = parse(text + "\ndefine g() -> int { return 2; }", "r.gdef")
    return [(d.code, d.span.line, d.span.column) for d in result.diagnostics], \
        [f.name.text for f in result.module.functions()]


def test_a_missing_bracket_is_one_located_error():
    assert _one_error_and_the_next_function("define f() -> int { int a[3 = 0; return a[0]; }") == \
        ([("G101", 0, 27)], ["f", "g"])
    assert _one_error_and_the_next_function("define f() -> int { int a[3] = {1, 2; return a[0]; }") == \
        ([("G101", 0, 36)], ["f", "g"])


def test_a_broken_for_header_is_one_located_error():
    assert _one_error_and_the_next_function(
        "define f() -> int { for (i = 0 i < 3; i = i + 1) { } return 1; }") == ([("G101", 0, 30)], ["f", "g"])
    errors, functions = _one_error_and_the_next_function(
        "define f() -> int { for (int i = 0; i < 3; i = i + 1 { } return 1; }")
    assert len(errors) == 1 and functions == ["f", "g"]


SNIPPETS = ["for (", "for (;;) { }", "break;", "continue;", "[", "]", "[]", "{", "}", "{1, 2}", ",",
            "int a[3] = 0;", "a[i] = 1;", "counter ", "sizeOf(a, 0)", "bool s[][]", "i = i + 1", ";"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from(SNIPPETS), st.booleans()), min_size=1, max_size=6))
def test_mutated_section_15_text_never_raises(edits):
    from gdef_core.semantics.checker import check

    text = PROGRAM
    for where, snippet, insert in edits:
        at = int(where * len(text))
        text = text[:at] + snippet + text[at:] if insert else text[:at] + text[at + len(snippet):]
    result = parse(text, "fuzz.gdef")
    check([result.module], result.diagnostics)
