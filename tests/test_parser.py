"""The parser: every construct, spans, recovery, and that it never raises."""
from __future__ import annotations

import pytest

from gdef_core import parse
from gdef_core.syntax import ast

from support import ROOT

DATA = ROOT / "tests" / "data" / "syntax"

EVERYTHING = """\
// a line comment
/* a block
   comment */
name: demo_game
players: 2
size: 8x6
use "helpers.gdef"
obj X
obj O_2
int counter = 0;
float ratio = -1.5 * 2;
obj last = X;
bool flag = true;
start { (0,0: X), (7, 5: O_2), }
/* Says whether the proposed move is legal. */
define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  float f = 2.5;
  x = x + 1;
  if (x > 2 && !flag || x % 2 == 0) { return false; }
  else if (x <= -3) { return true; }
  else { x = x / 2; }
  while (x >= 0) { x = x - 1; }
  helper(x, X);
  return CurrentPosition[x][0] != empty;
}
define helper(int a, obj b) {
  return;
}
define end() -> bool { return moveNumber() == 9; }
define moves() { addPlace(0, 0, X); addMove(); }
define setup() { setNextPlayer(1); }
"""


def parsed(text: str, path: str = "t.gdef") -> ast.Module:
    result = parse(text, path)
    assert result.diagnostics == [], [str(d) for d in result.diagnostics]
    return result.module


def kinds(module: ast.Module) -> list[str]:
    return [type(item).__name__ for item in module.items]


def test_every_top_level_construct():
    module = parsed(EVERYTHING)
    assert kinds(module) == [
        "GameParam", "GameParam", "GameParam", "UseDecl", "ObjDecl", "ObjDecl",
        "GameVar", "GameVar", "GameVar", "GameVar", "StartDecl",
        "FunctionDef", "FunctionDef", "FunctionDef", "FunctionDef", "FunctionDef"]
    name, players, size = module.items[:3]
    assert (name.key.text, name.value.text) == ("name", "demo_game")
    assert (players.key.text, players.value.value) == ("players", 2)
    assert [side.value for side in size.value] == [8, 6]
    use = module.items[3]
    assert use.path == "helpers.gdef"
    assert module.items[5].name.text == "O_2"
    counter, ratio, last, flag = module.items[6:10]
    assert (counter.type.name, counter.name.text) == ("int", "counter")
    assert ratio.type.name == "float" and isinstance(ratio.init, ast.Binary)
    assert last.type.name == "obj" and isinstance(last.init, ast.NameRef)
    assert isinstance(flag.init, ast.BoolLit)
    start = module.items[10]
    assert [(e.x.value, e.y.value, e.obj.text) for e in start.entries] == [(0, 0, "X"), (7, 5, "O_2")]
    is_legal, helper, end, moves, setup = module.items[11:]
    assert is_legal.return_type.name == "bool" and is_legal.params == []
    assert is_legal.doc == "Says whether the proposed move is legal."
    assert [(p.type.name, p.name.text) for p in helper.params] == [("int", "a"), ("obj", "b")]
    assert helper.return_type is None
    assert isinstance(helper.body.stmts[0], ast.Return) and helper.body.stmts[0].value is None
    assert [type(s).__name__ for s in is_legal.body.stmts] == [
        "VarDecl", "VarDecl", "Assign", "If", "While", "ExprStmt", "Return"]
    assert isinstance(is_legal.body.stmts[3].otherwise, ast.If)
    assert isinstance(is_legal.body.stmts[3].otherwise.otherwise, ast.Block)
    assert [m.name.text for m in (moves, setup)] == ["moves", "setup"]
    assert [c.text.split()[0] for c in module.comments] == ["//", "/*", "/*"]


def test_size_forms():
    for text in ("size: 3x3", "size: 3 x 3", "size:3\tx 3", "size: 10x12"):
        (param,) = parsed(text).items
        assert isinstance(param.value, tuple)
    width, height = parsed("size: 10 x 12").items[0].value
    assert (width.value, width.span.column, width.span.end_column) == (10, 6, 8)
    assert (height.value, height.span.column, height.span.end_column) == (12, 11, 13)


def test_x_stays_a_name():
    body = parsed("define f() -> int { int x = 3; x = x * 2; return x; }").items[0].body
    assert body.stmts[0].name.text == "x"


def test_precedence_and_associativity():
    (function,) = parsed("define f() -> bool { return -a * b + c < d == !e || f && g; }").items
    expr = function.body.stmts[0].value
    assert expr.op == "||"
    assert expr.left.op == "=="
    assert expr.left.left.op == "<"
    assert expr.left.left.left.op == "+"
    assert expr.left.left.left.left.op == "*"
    assert isinstance(expr.left.left.left.left.left, ast.Unary)
    assert isinstance(expr.left.right, ast.Unary) and expr.left.right.op == "!"
    assert expr.right.op == "&&"
    left_assoc = parsed("define f() -> int { return 1 - 2 - 3; }").items[0].body.stmts[0].value
    assert left_assoc.left.op == "-" and isinstance(left_assoc.right, ast.IntLit)


@pytest.mark.parametrize("text", ["a == b == c", "a < b < c", "a != b == c"])
def test_comparisons_do_not_associate(text):
    result = parse(f"define f() -> bool {{ return {text}; }}", "t.gdef")
    assert [d.code for d in result.diagnostics] == ["G101"]


def test_spans_are_zero_based_and_exact():
    module = parsed("obj X\ndefine f() -> int {\n  return 1 + 23;\n}\n")
    obj, function = module.items
    assert (obj.span.line, obj.span.column, obj.span.end_line, obj.span.end_column) == (0, 0, 0, 5)
    assert (function.name.span.line, function.name.span.column) == (1, 7)
    ret = function.body.stmts[0]
    assert (ret.span.line, ret.span.column, ret.span.end_column) == (2, 2, 16)
    binary = ret.value
    assert (binary.span.column, binary.span.end_column) == (9, 15)
    assert (binary.op_span.column, binary.op_span.end_column) == (11, 12)
    assert (function.span.end_line, function.span.end_column) == (3, 1)
    assert obj.span.file == "t.gdef"


def test_every_node_has_a_span():
    module = parsed(EVERYTHING)
    for node in ast.walk(module):
        if not isinstance(node, ast.Module):
            assert node.span.file == "t.gdef", node


def test_int64_limits():
    function = parsed("define f() -> int { return -9223372036854775808; }").items[0]
    assert function.body.stmts[0].value.value == -(2**63)
    for text, column in (("9223372036854775808", 27), ("1 - 9223372036854775808", 31)):
        result = parse(f"define f() -> int {{ return {text}; }}", "t.gdef")
        assert [(d.code, d.span.column) for d in result.diagnostics] == [("G104", column)]


def test_leading_zero_is_an_error():
    result = parse("define f() -> int { return 07; }", "t.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [("G104", 0, 27)]


def test_lexical_errors():
    result = parse('obj X @@\n/* never closed\nobj Y', "t.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [
        ("G103", 0, 6), ("G102", 1, 0)]
    result = parse('use "helpers.gdef\nobj X', "t.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [("G105", 0, 4)]
    assert [type(i).__name__ for i in result.module.items] == ["UseDecl", "ObjDecl"]


def test_expression_statement_must_be_a_call():
    result = parse("define f() { x == 1; g(); }", "t.gdef")
    assert [(d.code, d.span.column, d.span.end_column) for d in result.diagnostics] == [("G106", 13, 19)]


def test_missing_semicolon_message_names_the_declaration():
    text = "define isMoveLegal() -> bool {\n  int xCord = OperationList[0][0]\n  return true;\n}\n"
    (error,) = parse(text, "t.gdef").diagnostics
    assert error.code == "G101"
    assert error.message == "expected ';' after the declaration of 'xCord'"
    assert (error.span.line, error.span.column) == (1, 33)


def test_missing_semicolon_message_names_the_show_entry():
    (error,) = parse("name: t\nshow {\n  style: checkered\n}\n", "t.gdef").diagnostics
    assert (error.code, error.message) == ("G101", "expected ';' after the show entry 'style'")


def test_three_independent_errors_keep_the_later_functions():
    text = (DATA / "three_errors.gdef").read_text()
    result = parse(text, "three_errors.gdef")
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in result.diagnostics] == [
        ("G101", 6, 15), ("G101", 10, 12), ("G101", 13, 40)]
    names = [item.name.text for item in result.module.functions()]
    assert names == ["isMoveLegal", "broken1", "broken2", "broken3", "end"]


def test_unclosed_block_before_define_keeps_next_function():
    text = "define a() -> int {\n  if (true) {\n    return 1;\n\ndefine b() -> int { return 2; }\n"
    result = parse(text, "t.gdef")
    (error,) = result.diagnostics
    assert (error.span.line, error.span.column) == (4, 0)
    assert "line 2, column 13 is not closed" in error.message
    assert [f.name.text for f in result.module.functions()] == ["a", "b"]


def test_missing_paren_names_the_opening_one():
    (error,) = parse("define f() -> int { return g(1, 2; }", "t.gdef").diagnostics
    assert error.message == "expected ')' before ';', to close the '(' at line 1, column 29"


def test_recovered_names_are_marked():
    module = parse("define f() -> int { int a = 1 + ; return a; }", "t.gdef").module
    refs = [node for node in ast.walk(module) if isinstance(node, ast.NameRef)]
    assert [(ref.name.text, ref.name.recovered) for ref in refs] == [("", True), ("a", False)]


@pytest.mark.parametrize("text", ["", " \n\t", "\x00\xff\xfe", "/*", "}", "{{{{", "define",
                                  "(((((((((((", "use", '"', "start {", "size: 3 x", "-",
                                  "define f() -> int { return 1 +"])
def test_degenerate_inputs_never_raise(text):
    result = parse(text, "t.gdef")
    assert isinstance(result.module, ast.Module)
    assert (text.strip() == "") == (result.diagnostics == [])


def test_file_cut_at_every_character_never_raises():
    text = (DATA / "original_tictactoe.gdef").read_text()
    for cut in range(0, len(text), 3):
        parse(text[:cut], "cut.gdef")


def test_every_broken_function_of_a_large_file_is_reported():
    text = "define f() -> int { int a = ; return (; }\n" * 400
    result = parse(text, "big.gdef")
    assert len(result.diagnostics) == 800
    assert len(list(result.module.functions())) == 400


@pytest.mark.parametrize("header", ["define a() -> boo {", "define a(int x, nt y) -> bool {",
                                    "define a(int x -> bool {", "define (int x) -> bool {"])
def test_broken_function_header_keeps_body_and_later_functions(header):
    text = f"{header}\n  return true;\n}}\ndefine b() -> bool {{ return true; }}\n"
    result = parse(text, "t.gdef")
    assert [d.code for d in result.diagnostics] == ["G101"]
    functions = list(result.module.functions())
    assert functions[-1].name.text == "b"
    assert isinstance(functions[0].body.stmts[0], ast.Return)


def test_skipped_top_level_text_becomes_an_error_item():
    result = parse("obj X\n+ + +\nobj Y\n", "t.gdef")
    assert kinds(result.module) == ["ObjDecl", "ErrorItem", "ObjDecl"]
    error_item = result.module.items[1]
    assert (error_item.span.line, error_item.span.column, error_item.span.end_column) == (1, 0, 5)


@pytest.mark.parametrize("header, error", [
    ("for (i in 3) {", (2, 9)),  # `in` where the `=` of the start goes
    ("for (int i in range(3)) {", (2, 13)),  # `{` would fit as an array's values: not taken
    ("for (int i = 0; i < 3; i++) {", (2, 27)),
    ("for (int i = 0, j = 0; i < 3; i = i + 1) {", (2, 16)),
    ("if (s in 3) {", (2, 8)),
    ("while (s < 3 and s > 0) {", (2, 15)),
    ("if (s == 1) { s = 2; } else if (s in 2) {", (2, 36)),
])
def test_an_error_in_a_header_resumes_at_its_block(header, error):
    """Panic mode in the header of a `for`, `if` or `while` completes the header and reads its
    block as usual; the function and the later ones keep every statement. (A greedy completion
    once circled in `for (i in`, `i && i && ...`, and dropped the rest of the file.)"""
    text = (f"define a() -> int {{\n  int s = 0;\n  {header}\n    s = s + 1;\n  }}\n  return s;\n}}\n"
            "define b() -> int { return 2; }\n")
    result = parse(text, "t.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [("G101", *error)]
    a, b = result.module.functions()
    first, broken, last = a.body.stmts
    assert isinstance(first, ast.VarDecl) and isinstance(last, ast.Return)
    if isinstance(broken, ast.If) and isinstance(broken.otherwise, ast.If):  # `else if (...)`
        broken = broken.otherwise
    body = broken.then if isinstance(broken, ast.If) else broken.body
    assert [type(stmt).__name__ for stmt in body.stmts] == ["Assign"]
    assert b.name.text == "b" and isinstance(b.body.stmts[0], ast.Return)


def test_a_word_dropped_into_any_header_keeps_every_function():
    """A stray word after any space or `(` of a header of connect four (`for`, `if`, `while`,
    a parameter list) costs errors in that function only: every function is still read."""
    lines = (ROOT / "examples" / "connect4.gdef").read_text(encoding="utf-8").split("\n")
    names = [f.name.text for f in parsed("\n".join(lines)).functions()]
    headers = [number for number, line in enumerate(lines)
               if line.lstrip().startswith(("for (", "if (", "while (", "define "))]
    assert len(headers) >= 12
    for number in headers:
        line = lines[number]
        code = line.split("//")[0].rstrip()
        for column in [c for c in range(code.index("(") + 1, len(code)) if code[c - 1] in " ("]:
            for word in ("in", "else", "->"):
                broken = lines[:number] + [f"{line[:column]} {word} {line[column:]}"] + lines[number + 1:]
                result = parse("\n".join(broken), "c4.gdef")
                assert [f.name.text for f in result.module.functions()] == names, (number, column, word)


@pytest.mark.parametrize("statement, error, owner", [
    ("for (int i = 0; i < 3; i = i + 1) s = s + i;", (2, 35), "a loop's body"),
    ("while (s < 3) s = s + 1;", (2, 15), "a loop's body"),
    ("if (s == 0) s = 1;", (2, 13), "the body of an 'if'"),
])
def test_a_body_without_braces_is_one_error_and_one_statement(statement, error, owner):
    """A body written without `{ }` is one error, placed after the header, with the braces
    offered as a fix; the statement is read as the body and the function goes on."""
    text = (f"define a() -> int {{\n  int s = 0;\n  {statement}\n  return s;\n}}\n"
            "define b() -> int { return 2; }\n")
    result = parse(text, "t.gdef")
    (error_found,) = result.diagnostics
    first_word = statement.split(")")[-1].split()[0] if "for" not in statement else "s"
    assert (error_found.code, error_found.span.line, error_found.span.column) == ("G101", *error)
    assert error_found.message == f"expected '{{' before name '{first_word}': {owner} goes in {{ }}"
    (fix,) = error_found.suggestions
    end = (2, len(statement) + 2)
    assert [(edit.span.start, edit.new_text) for edit in fix.edits] == [(error, " {"), (end, " }")]
    a, b = result.module.functions()
    first, loop, last = a.body.stmts
    body = loop.then if isinstance(loop, ast.If) else loop.body
    assert [type(stmt).__name__ for stmt in body.stmts] == ["Assign"]
    assert isinstance(last, ast.Return) and b.name.text == "b"


def test_bodies_without_braces_nest_and_keep_their_else():
    line = "  for (int i = 0; i < 3; i = i + 1) if (i > 1) s = s + 1; else if (i == 0) s = 2; else s = s - 1;"
    text = f"define a() -> int {{\n  int s = 0;\n{line}\n  return s;\n}}\n"
    result = parse(text, "t.gdef")
    after = [line.index(") if") + 1, line.index(") s = s +") + 1, line.index(") s = 2") + 1,
             line.index("else s") + 4]
    owners = ["a loop's body", "the body of an 'if'", "the body of an 'if'", "the body of an 'else'"]
    assert [(d.span.line, d.span.column, d.message.split(": ")[1]) for d in result.diagnostics] == [
        (2, column, f"{owner} goes in {{ }}") for column, owner in zip(after, owners)]
    first, loop, last = next(iter(result.module.functions())).body.stmts
    (branch,) = loop.body.stmts
    assert isinstance(branch, ast.If) and isinstance(branch.otherwise, ast.If)
    assert isinstance(branch.otherwise.otherwise, ast.Block) and isinstance(last, ast.Return)


def test_braced_bodies_around_a_braceless_else_are_untouched():
    text = ("define a() -> int {\n  int s = 0;\n  if (s == 0) { s = 1; } else s = 2;\n"
            "  while (s < 9) { s = s + 1; }\n  return s;\n}\n")
    result = parse(text, "t.gdef")
    assert [(d.span.line, d.span.column) for d in result.diagnostics] == [(2, 29)]
    assert [type(s).__name__ for s in result.module.items[0].body.stmts] == ["VarDecl", "If", "While", "Return"]


@pytest.mark.parametrize("header, error, message", [
    ("define f(int x -> bool {", (0, 14), "expected ')' before '->', to close the '(' at line 1, column 9"),
    ("define f(int x, -> bool {", (0, 16), "expected a type (int, float, bool or obj), found '->'"),
    ("define f(int x -> {", (0, 14), "expected ')' before '->', to close the '(' at line 1, column 9"),
    ("define f(int x) bool {", (0, 15), "expected '->' before keyword 'bool'"),
    ("define f(int x) -> bool", (0, 23), "expected '{' before keyword 'int': a function's body goes in { }"),
])
def test_a_broken_function_header_is_one_error_and_its_body_is_read(header, error, message):
    text = f"{header}\n  int y = x;\n  return y == 1;\n}}\ndefine b() -> bool {{ return true; }}\n"
    result = parse(text, "t.gdef")
    assert [(d.code, d.span.start, d.message) for d in result.diagnostics] == [("G101", error, message)]
    f, b = result.module.functions()
    assert [type(s).__name__ for s in f.body.stmts] == ["VarDecl", "Return"] and b.name.text == "b"


def test_a_header_completed_up_to_a_semicolon_closes_its_invented_body():
    """`for (...; i++) s = s + 1;`: panic mode completes the header and invents its `{`; that
    body ends after one statement, so the function's own `}` still closes the function."""
    text = ("define a() -> int {\n  int s = 0;\n  for (int i = 0; i < 3; i++) s = s + 1;\n  return s;\n}\n"
            "define b() -> int { return 2; }\n")
    result = parse(text, "t.gdef")
    assert [(d.code, d.span.line, d.span.column) for d in result.diagnostics] == [("G101", 2, 27)]
    a, b = result.module.functions()
    assert [type(stmt).__name__ for stmt in a.body.stmts] == ["VarDecl", "For"]
    assert b.name.text == "b" and isinstance(b.body.stmts[0], ast.Return)
