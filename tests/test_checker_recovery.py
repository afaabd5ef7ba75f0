"""After a syntax error the checker adds nothing the syntax error already explains: no
errors about names or nodes the parser invented, no cascades from unknown types, and it never
raises on whatever tree the parser returns."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gdef_core import parse
from gdef_core.semantics.checker import check
from gdef_core.semantics.program import Program

from support import ROOT

ORIGINAL = ROOT / "tests" / "data" / "checker" / "original_tictactoe.gdef"
HEADER = "players: 2\nsize: 3 x 3\nobj X\n"


def check_text(text: str) -> Program:
    result = parse(text, "game.gdef")
    return check([result.module], result.diagnostics)


def semantic(program: Program) -> list[str]:
    return [str(d) for d in program.diagnostics if not d.code.startswith("G1")]


@pytest.mark.parametrize("body", [
    "int x = ;\n  return x > 0;",  # an ErrorExpr initialiser: x is still declared
    "int y = 3 +;\n  return y == 1;",
    "return isWinner(;",
    "if (x == ) { return true; }\n  return false;",
    "int = 4;\n  return true;",  # a recovered (empty) name
    "foo bar;\n  return true;",  # lone expressions (G106) are not checked again
    "x == 1;\n  return true;",
    "CurrentPosition[0][ = X;\n  return true;",
    "return 1 +* 2 == 3;",
])
def test_no_semantic_diagnostic_inside_a_statement_with_a_syntax_error(body: str) -> None:
    text = HEADER + "define isMoveLegal() -> bool {\n  " + body + "\n}\ndefine end() -> bool { return true; }\n"
    program = check_text(text)
    assert any(d.code.startswith("G1") for d in program.diagnostics)
    assert semantic(program) == []


def test_other_definitions_are_still_checked() -> None:
    text = HEADER + ("define isMoveLegal() -> bool { int x = ; return x > 0; }\n"
                     "define end() -> bool { return undefinedName == 1; }\n")
    assert [d.code for d in check_text(text).diagnostics if not d.code.startswith("G1")] == ["G201"]


def test_a_broken_header_does_not_make_calls_wrong() -> None:
    text = HEADER + ("define isMoveLegal() -> bool { return helper(1, X); }\n"
                     "define helper(int a, obj -> bool { return true; }\n"
                     "define end() -> bool { return true; }\n")
    assert semantic(check_text(text)) == []


def test_statements_cut_loose_by_a_lost_brace_are_not_game_variables() -> None:
    text = HEADER + ("define isMoveLegal() -> bool\n  int x = OperationList[0][0];\n"
                     "  if (x > 0) { return true; }\n  return false;\n}\n"
                     "define end() -> bool { int x = 1; return x == 1; }\n")
    program = check_text(text)
    assert semantic(program) == [] and "x" not in program.game_vars


def test_an_early_closing_brace_hides_the_cut_function() -> None:
    text = HEADER + ("define isMoveLegal() -> bool {\n  if (true) { return true; }\n}\n  return false;\n}\n"
                     "define end() -> bool { return true; }\n")
    assert semantic(check_text(text)) == []


def test_whole_game_checks_wait_for_the_syntax_to_be_fixed() -> None:
    # isMoveLegal() is broken beyond recovery: not reported missing, its helper not unused
    text = HEADER + "define isMoveLegal( -> bool { return helper(); }\ndefine helper() -> bool { return true; }\n"
    program = check_text(text)
    assert semantic(program) == [] and program.errors


def test_unknown_types_do_not_cascade() -> None:
    text = HEADER + ("define isMoveLegal() -> bool {\n  int j = 2;\n"
                     "  return OperationList[0][j] + 1 > 0 && -OperationList[0][j] == X && missing + 1 == 2;\n}\n"
                     "define end() -> bool { return true; }\n")
    assert [d.code for d in check_text(text).diagnostics] == ["G201"]


def _mutations(text: str, rng: random.Random, count: int):
    pieces = ["(", ")", "{", "}", ";", "[", "]", "=", "==", ",", ":", "int ", "define ", "return ",
              "obj ", "if ", "while ", "\"", "/*", "*/", "-", "!", "empt", "x", "0", "1.5", "->"]
    for _ in range(count):
        mutated = text
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(mutated) + 1)
            choice = rng.random()
            if choice < 0.4:
                mutated = mutated[:i] + mutated[i + rng.randint(1, 6):]
            elif choice < 0.9:
                mutated = mutated[:i] + rng.choice(pieces) + mutated[i:]
            else:
                mutated = mutated[:i]
        yield mutated


@pytest.mark.parametrize("path", [ORIGINAL, *sorted((ROOT / "examples").glob("**/*.gdef"))],
                         ids=lambda p: p.name)
def test_the_checker_never_raises_on_mutated_games(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for mutated in _mutations(text, random.Random(path.name), 40):
        program = check_text(mutated)
        assert all(d.span.file == "game.gdef" for d in program.diagnostics)


def test_the_checker_never_raises_on_any_prefix_of_the_original() -> None:
    text = ORIGINAL.read_text(encoding="utf-8")
    for end in range(0, len(text), 3):
        check_text(text[:end])


DEEP = 3000


@pytest.mark.parametrize("text, codes", [
    ("define f() -> int { " + "if (true) { " * DEEP + "return 1;" + " }" * DEEP + " return 0; }", ["G110"]),
    ("define f() -> int { if (true) { return 1; } " + "else if (true) { return 2; } " * DEEP + "}", ["G110"]),
    ("define f() -> int { " + "while (true) { " * DEEP + "return 1;" + " }" * DEEP + " return 0; }", ["G110"]),
    ("define f() -> int { return " + " + ".join(["1"] * DEEP) + " + true; }", ["G110"]),
    ("define f() -> bool { return " + "(" * DEEP + "1" + ")" * DEEP + "; }", ["G305"]),
    ("define f() -> bool { return " + "!" * DEEP + "1; }", ["G110"]),
    ("obj X\nint v = " + "-" * DEEP + "X;", ["G110"]),
    ("int v = " + " - ".join(["1"] * DEEP) + " - onTurn();", ["G110"]),
], ids=["nested ifs", "else-if chain", "nested whiles", "operator chain", "parentheses", "negations",
        "unary minus", "constant chain"])
def test_deep_nesting_is_checked_without_exhausting_the_stack(text: str, codes: list[str]) -> None:
    """Past the nesting limits (G110, gdef_core/syntax/nesting.py) the checker still walks
    the whole tree: it must not exhaust the stack either."""
    program = check_text(text)
    assert [d.code for d in program.diagnostics] == codes


@pytest.mark.parametrize("header", ["for (i in 3) {", "for (int i = 0; i < 3; i++) {", "if (x in 3) {",
                                    "while (x < 3 and x > 0) {"])
def test_an_error_in_a_header_leaves_the_rest_of_the_file_checked(header: str) -> None:
    """The statements after the broken one and the later functions are still checked: their
    errors are reported where they are (the parser resumes at the header's block, not at the
    end of the file, nor inside the block where the block's `}` would end the function)."""
    text = HEADER + ("define isMoveLegal() -> bool {\n  int x = 0;\n  " + header + "\n    x = 1;\n  }\n"
                     "  return z > 0;\n}\n"
                     "define end() -> bool { return undefinedName == 1; }\n")
    program = check_text(text)
    assert [(d.code, d.span.line) for d in program.diagnostics if d.code.startswith("G1")] == [("G101", 5)]
    assert [(d.code, d.span.line, d.span.column) for d in program.diagnostics if not d.code.startswith("G1")] == [
        ("G201", 8, 9), ("G201", 10, 30)]


@pytest.mark.parametrize("declaration", [
    "param int n = 5 in 1 to ;",
    "param int n = 5 in 1 25;",
    "param int n = 5 in {1, ;",
    "param int n = in 1 to 5;",
    "param n = 5 in 1 to 5;",
    "param int n = 5 in 1 to 5",
    "param int n = 5 in;",
    "param int n 5 in 1 to 5;",
    "param int n = 5 in 1 to 5 to 6;",
    "param param int n = 5 in 1 to 9;",
])
def test_a_broken_parameter_declaration_gives_syntax_errors_only(declaration: str) -> None:
    """The rest of the file is still checked (the undefined name in end()), and nothing that
    reads the parameter (`size: n x n`, isMoveLegal()) is reported on top of the syntax error."""
    text = ("players: 2\n" + declaration + "\nsize: n x n\nobj X\n"
            "define isMoveLegal() -> bool { return n > 1; }\n"
            "define end() -> bool { return undefinedName == 1; }\n")
    program = check_text(text)
    syntax = [d for d in program.diagnostics if d.code.startswith("G1")]
    assert syntax
    assert all("found ''" not in d.message for d in syntax)  # no complaint about an inserted word
    assert [(d.code, d.span.line) for d in program.diagnostics if not d.code.startswith("G1")] == [("G201", 5)]


def located(program: Program) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in program.diagnostics]


@pytest.mark.parametrize("header", ["define f(int x -> bool {", "define f(int x, -> bool {",
                                    "define f(int x) bool {", "define f(int x -> {", "define f(int x) -> {"])
def test_the_body_under_a_repaired_header_is_checked(header: str) -> None:
    """The header's one syntax error, then the body's own errors, located; nothing about the
    `return`, whose expected type the broken header leaves a guess."""
    text = HEADER + (f"{header}\n  int y = unknownName;\n  bool b = 3;\n  return x == y;\n}}\n"
                     "define isMoveLegal() -> bool { return f(1); }\ndefine end() -> bool { return true; }\n")
    found = located(check_text(text))
    assert [code for code, *_ in found] == ["G101", "G201", "G304"]
    assert found[1:] == [("G201", 4, 10), ("G304", 5, 11)]


def test_a_body_without_braces_is_checked_and_so_is_the_rest() -> None:
    text = HEADER + ("define isMoveLegal() -> bool {\n  int x = 0;\n"
                     "  for (int i = 0; i < 3; i = i + 1) x = true;\n"
                     "  while (x > 0) x = x - 1;\n"
                     "  return undefinedName == 1;\n}\n"
                     "define end() -> bool { return true; }\n")
    assert located(check_text(text)) == [("G101", 5, 35), ("G304", 5, 40), ("G101", 6, 15), ("G201", 7, 9)]
