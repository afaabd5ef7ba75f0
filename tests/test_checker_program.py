"""The checker's Program: tables, symbols, references, types, and the shape of its diagnostics
(suggestions, related locations, ordering), on the original tic-tac-toe and small games."""
from __future__ import annotations

from pathlib import Path

import pytest

from gdef_core import parse
from gdef_core.builtins import BUILTINS
from gdef_core.diagnostics import Diagnostic, Edit, Severity, Tag
from gdef_core.semantics.checker import check
from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast

from support import ROOT

DATA = ROOT / "tests" / "data" / "checker"
ORIGINAL = DATA / "original_tictactoe.gdef"


def check_text(*texts: str, names: tuple[str, ...] = ()) -> Program:
    names = names or tuple(f"file{i}.gdef" for i in range(len(texts)))
    results = [parse(text, name) for text, name in zip(texts, names)]
    return check([r.module for r in results], [d for r in results for d in r.diagnostics])


def codes(program: Program) -> list[str]:
    return [d.code for d in program.diagnostics]


def only(program: Program, code: str) -> Diagnostic:
    found = [d for d in program.diagnostics if d.code == code]
    assert len(found) == 1, program.diagnostics
    return found[0]


GAME = """\
players: 2
size: 3 x 4
obj X
int turns = 0;
start { (0, 0: X) }
define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  return CurrentPosition[x][0] == empty && isFree(x, 1.5);
}
define isFree(int x, float y) -> bool { return y > 0.0 && x >= 0; }
define end() -> bool {
  turns = turns + 1;
  return turns == 9;
}
"""


# ------------------------------------------------------------------ the original tic-tac-toe

def test_original_tictactoe_gives_exactly_the_type_error_on_placedObj_ne_0() -> None:
    text = ORIGINAL.read_text(encoding="utf-8")
    program = check_text(text, names=(str(ORIGINAL),))
    assert len(program.diagnostics) == 1, program.diagnostics
    error = program.diagnostics[0]
    assert (error.code, error.severity) == ("G301", Severity.ERROR)
    assert error.span == Span(str(ORIGINAL), 16, 26, 16, 40)
    line = text.splitlines()[16]
    assert line[26:40] == "placedObj != 0"
    # the zero was meant as the letter O: the fix replaces just the literal
    assert error.suggestions[0].edits == (Edit(Span(str(ORIGINAL), 16, 39, 16, 40), "O"),)


def test_no_letter_suggestion_without_an_object_named_O() -> None:
    error = only(check_text("obj X\ndefine f(obj o) -> bool { return o != 0; }\n"), "G301")
    assert error.suggestions == ()


def test_original_tictactoe_tables() -> None:
    program = check_text(ORIGINAL.read_text(encoding="utf-8"), names=(str(ORIGINAL),))
    assert (program.name, program.players, program.width, program.height) == ("tictactoe", 2, 3, 3)
    assert not program.is_library
    assert list(program.objects) == ["X", "O"]
    assert list(program.functions) == ["isMoveLegal", "end", "isWinner", "isXWinner", "isOWinner"]
    assert program.game_vars == {}
    assert program.start is not None and len(program.start.entries) == 8


# ------------------------------------------------------------------ tables and symbols

def test_tables_and_symbols_of_a_game() -> None:
    program = check_text(GAME, names=("games/rows.gdef",))
    assert program.ok, program.diagnostics
    assert program.name == "rows"  # no `name:`: the first file's stem
    assert (program.players, program.width, program.height) == (2, 3, 4)
    assert list(program.game_vars) == ["turns"] and isinstance(program.game_vars["turns"], ast.GameVar)
    assert isinstance(program.objects["X"], ast.ObjDecl)
    assert isinstance(program.functions["isFree"], ast.FunctionDef)
    symbols = program.symbols
    assert set(BUILTINS) <= set(symbols)
    assert all(symbols[name].builtin is BUILTINS[name] for name in BUILTINS)
    assert symbols["onTurn"].kind is SymbolKind.BUILTIN and symbols["onTurn"].type == "int"
    assert symbols["OperationList"].type is None  # int or obj: decided by the index
    assert (symbols["isFree"].kind, symbols["isFree"].type) == (SymbolKind.FUNCTION, "bool")
    assert (symbols["turns"].kind, symbols["turns"].type) == (SymbolKind.GAME_VAR, "int")
    assert (symbols["X"].kind, symbols["X"].type) == (SymbolKind.OBJECT, "obj")
    assert symbols["X"].name_span == Span("games/rows.gdef", 2, 4, 2, 5)
    assert "x" not in symbols  # locals are not top-level symbols


def test_name_word_sets_the_name_and_a_file_without_parameters_is_a_library() -> None:
    assert check_text("name: chess\nplayers: 2\nsize: 8x8\n").name == "chess"
    library = check_text("define helper() -> int { return 1; }\n", names=("lib/helpers.gdef",))
    assert library.is_library and library.ok and library.diagnostics == []
    assert library.name == "helpers" and library.players is None


def test_a_library_checked_alone_needs_no_entry_points_and_reports_no_unused_function() -> None:
    program = check_text("obj X\ndefine hasLine(obj o) -> bool { return o == X; }\n")
    assert program.diagnostics == []


def test_duplicates_keep_the_first_definition_in_the_tables() -> None:
    program = check_text("obj X\nint X = 1;\ndefine X() { }\n")
    assert isinstance(program.objects["X"], ast.ObjDecl)
    assert "X" not in program.game_vars and "X" not in program.functions
    assert codes(program) == ["G203", "G203"]


# ------------------------------------------------------------------ references

def _names(node) -> list[ast.Name]:
    names = []
    for item in ast.walk(node):
        match item:
            case ast.FunctionDef(name=n) | ast.Param(name=n) | ast.VarDecl(name=n) | ast.NameRef(name=n) \
                    | ast.Call(callee=n) | ast.Index(base=n) | ast.ObjDecl(name=n) | ast.GameVar(name=n):
                names.append(n)
            case ast.StartDecl(entries=entries):
                names += [entry.obj for entry in entries]
    return names


@pytest.mark.parametrize("path", [ORIGINAL, *sorted((ROOT / "examples").glob("*.gdef"))],
                         ids=lambda p: p.name)
def test_every_name_use_and_declaration_has_a_symbol(path: Path) -> None:
    program = check_text(path.read_text(encoding="utf-8"), names=(str(path),))
    names = [n for module in program.modules for n in _names(module)]
    assert names
    missing = [(n.text, n.span.line + 1) for n in names if n not in program.references]
    assert missing == []


def test_references_link_uses_to_their_declarations() -> None:
    program = check_text(GAME)
    refs = program.references
    function = program.functions["isMoveLegal"]
    local_decl = function.body.stmts[0]
    local = refs[local_decl.name]
    assert (local.kind, local.type, local.function) == (SymbolKind.LOCAL, "int", function)
    assert local.decl is local_decl
    uses = [n for n, s in refs.items() if s is local and n is not local_decl.name]
    assert [(n.span.line, n.span.column) for n in uses] == [(7, 25), (7, 50)]
    param = refs[program.functions["isFree"].params[1].name]
    assert (param.kind, param.type) == (SymbolKind.PARAMETER, "float")
    # a call links to the function's symbol; the x of isFree is not the x of isMoveLegal
    calls = [n for n in refs if n.text == "isFree"]
    assert len(calls) == 2 and {id(refs[n]) for n in calls} == {id(program.symbols["isFree"])}
    xs = {id(s) for n, s in refs.items() if n.text == "x"}
    assert len(xs) == 2
    assert refs[next(n for n in refs if n.text == "empty")] is program.symbols["empty"]
    assert refs[next(n for n in refs if n.text == "turns" and n.span.line == 11)] is program.symbols["turns"]


def test_empt_refers_to_empty() -> None:
    program = check_text("obj X\nstart { (0,0: empt) }\ndefine f() -> bool { return X == empt; }\n")
    empts = [n for n in program.references if n.text == "empt"]
    assert len(empts) == 2 and all(program.references[n] is program.symbols["empty"] for n in empts)


def test_a_second_declaration_of_a_local_refers_to_the_first() -> None:
    program = check_text("define f() -> int { int n = 1; int n = 2; return n; }\n")
    decls = [n for n in program.references if n.text == "n"]
    assert len(decls) == 3 and len({id(program.references[n]) for n in decls}) == 1


# ------------------------------------------------------------------ expression types

def test_expression_types() -> None:
    program = check_text(ORIGINAL.read_text(encoding="utf-8"))
    types = program.expr_types
    legal = program.functions["isMoveLegal"]
    x_decl, y_decl, obj_decl = legal.body.stmts[1:4]
    assert types[x_decl.init] == "int" and types[y_decl.init] == "int"
    assert types[obj_decl.init] == "obj"
    condition = legal.body.stmts[4].cond
    assert types[condition] == "bool"
    comparisons = [n for n in ast.walk(condition) if isinstance(n, ast.Binary) and n.op == "!="]
    assert all(types[c] == "bool" for c in comparisons)  # the bad one too: no cascade
    assert types[comparisons[0].left] == "obj"  # CurrentPosition[xCord][yCord]


@pytest.mark.parametrize("expr, expected", [
    ("1 + 2", "int"), ("1 + 2.0", "float"), ("7 / 2", "int"), ("7 % 2.0", "float"), ("-1.5", "float"),
    ("1 < 2.5", "bool"), ("!true", "bool"), ("OperationList[0][1]", "int"),
    ("OperationList[0][2]", "obj"), ("NextPosition[0][0]", "obj"), ("moveNumber()", "int"),
])
def test_types_of_expressions(expr: str, expected: str) -> None:
    program = check_text(f"define f() -> bool {{ return g({expr}); }}\ndefine g(int a) -> bool {{ return true; }}\n")
    call = program.functions["f"].body.stmts[0].value
    assert program.expr_types[call.args[0]] == expected


def test_unknown_types_are_absent_and_do_not_cascade() -> None:
    program = check_text("define f(int j) -> bool {\n  int a = OperationList[0][j] + 1;\n"
                         "  return a + missing == 2 && OperationList[0][j] == X;\n}\nobj X\n")
    assert codes(program) == ["G201"]  # only the undefined name
    decl = program.functions["f"].body.stmts[0]
    assert decl.init not in program.expr_types and decl.init.left not in program.expr_types


# ------------------------------------------------------------------ diagnostics: shape

def test_undefined_names_suggest_a_replacement_edit() -> None:
    program = check_text("obj Circle\nint score = 0;\n"
                         "define f() -> bool { return scroe == 1 && circle == Circle && isCircel(); }\n"
                         "define isCircle() -> bool { return true; }\n")
    by_code = {(d.code, d.span.column): d for d in program.diagnostics}
    score = by_code[("G201", 28)]
    assert score.suggestions[0].edits == (Edit(score.span, "score"),)
    assert "did you mean 'score'?" in score.message
    circle = by_code[("G201", 42)]
    assert circle.suggestions[0].edits[0].new_text == "Circle"
    function = by_code[("G202", 62)]
    assert function.suggestions[0].edits[0].new_text == "isCircle"


def test_no_suggestion_when_nothing_is_close() -> None:
    error = only(check_text("define f() -> bool { return zzzzzz == 1; }\n"), "G201")
    assert error.suggestions == ()


def test_empt_warning_is_deprecated_with_a_fix() -> None:
    warning = only(check_text("start { (0,0: empt) }\n"), "G506")
    assert warning.severity is Severity.WARNING and warning.tags == frozenset({Tag.DEPRECATED})
    assert warning.suggestions[0].edits == (Edit(warning.span, "empty"),)


def test_unused_and_unreachable_are_tagged_unnecessary() -> None:
    program = check_text("players: 2\nsize: 3x3\ndefine isMoveLegal() -> bool { int n = 1; return true; "
                         "return false; }\ndefine end() -> bool { return true; }\ndefine spare() { }\n")
    assert sorted(codes(program)) == ["G501", "G502", "G503"]
    assert all(d.tags == frozenset({Tag.UNNECESSARY}) for d in program.diagnostics)


def test_duplicates_across_files_relate_to_the_other_file() -> None:
    program = check_text("players: 2\nsize: 3x3\nobj X\n", "obj X\nplayers: 3\n",
                         names=("game.gdef", "lib.gdef"))
    duplicate = only(program, "G203")
    assert duplicate.span == Span("lib.gdef", 0, 4, 0, 5)
    assert [r.span for r in duplicate.related] == [Span("game.gdef", 2, 4, 2, 5)]
    assert "game.gdef:3" in duplicate.message
    parameter = only(program, "G402")
    assert [r.span for r in parameter.related] == [Span("game.gdef", 0, 0, 0, 7)]


def test_duplicate_local_and_second_start_relate_to_the_first() -> None:
    program = check_text("start { (0,0: empty), (0,0: empty) }\nstart { }\n"
                         "define f() { int n = 1; int n = 2; }\n")
    assert [r.span for r in only(program, "G407").related] == [Span("file0.gdef", 0, 0, 0, 36)]
    assert [r.span.start for r in only(program, "G505").related] == [(0, 8)]
    assert [r.span for r in only(program, "G205").related] == [Span("file0.gdef", 2, 17, 2, 18)]


def test_context_errors_name_the_call_path() -> None:
    program = check_text("int count = 0;\ndefine isMoveLegal() -> bool { helper(); return true; }\n"
                         "define helper() { bump(); }\ndefine bump() { count = 1; setNextPlayer(0); }\n")
    assert "isMoveLegal() -> helper() -> bump() -> setNextPlayer()" in only(program, "G411").message
    assert "isMoveLegal() -> helper() -> bump()" in only(program, "G412").message


def test_setup_and_end_may_change_game_variables_and_the_turn() -> None:
    program = check_text("int count = 0;\ndefine end() -> bool { bump(); return hasLegalMove(); }\n"
                         "define setup() { bump(); addPlace(0, 0, empty); }\n"
                         "define bump() { count = count + 1; setNextPlayer(0); }\n")
    assert program.diagnostics == []


def test_passed_in_diagnostics_are_kept_sorted_and_deduplicated() -> None:
    parsed = parse('use "x.gdef"\ndefine f() -> bool { return missing; }\n', "a.gdef")
    loader_error = Diagnostic("G107", Severity.ERROR, "cannot read 'x.gdef'", Span("a.gdef", 0, 4, 0, 12))
    program = check([parsed.module], [loader_error, loader_error, *parsed.diagnostics])
    assert [(d.code, d.span.start) for d in program.diagnostics] == [("G107", (0, 4)), ("G201", (1, 28))]


def test_no_modules_gives_an_empty_program() -> None:
    program = check([])
    assert program.diagnostics == [] and program.name is None and program.is_library
