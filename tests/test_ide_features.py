"""gdef_core.ide: hover, signature help, outline, folding, semantic token classes, fixes, the
argv of "Run game"."""
from __future__ import annotations

import sys

from gdef_core.builtins import BUILTINS
from gdef_core.diagnostics import Edit
from gdef_core.ide.fixes import fixes
from gdef_core.ide.folding import Fold, folding_ranges
from gdef_core.ide.highlight import semantic_tokens
from gdef_core.ide.hover import hover
from gdef_core.ide.outline import OutlineKind, document_outline, matches, workspace_symbols
from gdef_core.ide.rename import Refusal
from gdef_core.ide.run import debug_configuration, run_argv
from gdef_core.ide.signature import signature_help

from ide_support import ENTRY, HEADER, cursor, session

DOCUMENTED = "/* Twice n.\n   Used everywhere. */\ndefine twice(int n) -> int { return n * 2; }\n"


def test_hover_describes_each_kind_of_name(tmp_path):
    text = HEADER + "int turns = 2 * 3;\n" + DOCUMENTED + \
        "define f(obj o) -> bool {\n  int k = twice(turns);\n  return CurrentPosition[k][0] == o && o != X;\n}\n" + ENTRY
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    lines = text.split("\n")

    def at(word, line_text):
        line = next(i for i, t in enumerate(lines) if line_text in t)
        return hover(s.analyses(path), path, line, lines[line].index(word)).markdown

    assert at("twice", "int k =") == "```gdef\ndefine twice(int n) -> int\n```\n\nTwice n.\nUsed everywhere.\n\n" \
                                      "Function, defined at g.gdef:9."
    assert "int turns = 2 * 3" in at("turns", "int k =") and "Game variable" in at("turns", "int k =")
    assert at("k", "int k =") == "```gdef\nint k\n```\n\nLocal of `f()`."
    assert at("o)", "define f(") == "```gdef\nobj o\n```\n\nParameter of `f()`."
    assert at("X", "o != X") == "```gdef\nobj X\n```\n\nObject, declared at g.gdef:4."
    assert at("CurrentPosition", "return Current").startswith("```gdef\nCurrentPosition[x][y] -> obj\n```\n\n"
                                                            + BUILTINS["CurrentPosition"].doc)
    assert "Allowed in end(), setup()" in _hover_builtin(tmp_path, "setNextPlayer")
    assert "Allowed in" not in _hover_builtin(tmp_path, "addPlace")   # in every entry point
    assert "Allowed in" not in _hover_builtin(tmp_path, "addCount")   # so is addCount, a consequence in end()
    assert "Game parameter." in hover(s.analyses(path), path, 1, 2).markdown
    assert hover(s.analyses(path), path, 6, 5) is None  # inside the comment


def _hover_builtin(tmp_path, name):
    text = HEADER + f"define moves() {{ {name}(0, 0, X); }}\n" + ENTRY
    s = session(tmp_path, {"b.gdef": text})
    path = str(tmp_path / "b.gdef")
    return hover(s.analyses(path), path, 5, 18).markdown


def test_signature_help_tracks_the_argument_and_nested_calls(tmp_path):
    base = HEADER + DOCUMENTED + ENTRY
    s = session(tmp_path, {"g.gdef": base})
    analyses = s.analyses(str(tmp_path / "g.gdef"))

    def sig(fragment):
        text, line, column = cursor(base + fragment)
        return signature_help(analyses, text, line, column)

    first = sig("define h() -> int { return twice(‸")
    assert (first.label, first.parameters, first.active_parameter) == ("twice(int n) -> int", ("int n",), 0)
    assert first.documentation == "Twice n.\nUsed everywhere."
    nested = sig("define h() { setWinner(twice(1) + ‸")
    assert (nested.label, nested.active_parameter) == ("setWinner(int p)", 0)
    board = sig("define h() -> obj { return CurrentPosition[1][‸")
    assert (board.label, board.parameters, board.active_parameter) == ("CurrentPosition[x][y] -> obj", ("[x]", "[y]"), 1)
    many = sig("define h() { addPlace(1, 2, ‸")
    assert many.active_parameter == 2
    assert sig("define h() { return twice(1)‸") is None
    assert sig("define h(int a, ‸") is None  # a definition's parameters are not a call


def test_outline_and_workspace_symbols(tmp_path):
    text = HEADER + 'use "lib.gdef"\nint turns = 0;\nstart { (0, 0: X) }\n' + DOCUMENTED + ENTRY
    s = session(tmp_path, {"g.gdef": text, "lib.gdef": "define helper() {}\n"})
    module = s.parse_cache.module(str(tmp_path / "g.gdef"), text)
    found = document_outline(module)
    assert [(e.name, e.kind) for e in found] == [
        ("name", OutlineKind.GAME_PARAMETER), ("players", OutlineKind.GAME_PARAMETER),
        ("size", OutlineKind.GAME_PARAMETER), ("X", OutlineKind.OBJECT), ("O", OutlineKind.OBJECT),
        ('use "lib.gdef"', OutlineKind.USE), ("turns", OutlineKind.GAME_VAR), ("start", OutlineKind.START),
        ("twice", OutlineKind.FUNCTION), ("isMoveLegal", OutlineKind.FUNCTION), ("end", OutlineKind.FUNCTION)]
    assert [(c.name, c.kind) for c in found[8].children] == [("n", OutlineKind.PARAMETER)]
    assert (found[2].detail, found[7].detail, found[8].detail) == ("3 x 3", "1 squares", "twice(int n) -> int")
    assert matches("hlp", "helper") and not matches("hx", "helper") and matches("", "x")
    paths = [str(tmp_path / "g.gdef"), str(tmp_path / "lib.gdef")]
    module_of = lambda p: s.parse_cache.module(p, s.source(p))  # noqa: E731
    assert [e.name for e in workspace_symbols("e", paths, module_of)] == ["name", "players", "size", "twice",
                                                                          "isMoveLegal", "end", "helper"]


def test_folding_ranges_for_blocks_and_comments():
    text = "// one\n// two\nobj X\n/* a\n   b */\ndefine f() {\n  if (true) {\n    g();\n  }\n}\n// lone\n"
    assert folding_ranges(text) == [Fold(0, 1, "comment"), Fold(3, 4, "comment"), Fold(5, 8, "region"),
                                    Fold(6, 7, "region")]


def test_semantic_token_classes(tmp_path):
    text = HEADER + "int turns = 0;\ndefine f(int a) -> int {\n  int b = a + turns;\n  return b;\n}\n" \
        "define g() -> obj { return empt; }\n" + ENTRY
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    lines = text.split("\n")
    found = {(lines[t.line][t.column:t.column + t.length], t.line): (t.type, set(t.modifiers))
             for t in semantic_tokens(s.analysis(path), text, path)}
    assert found[("name", 0)] == ("property", set())
    assert found[("3 x 3", 2)] == ("number", set())
    assert found[("X", 3)] == ("enumMember", {"readonly", "declaration"})
    assert found[("turns", 5)] == ("variable", {"static", "declaration"})
    assert found[("turns", 7)] == ("variable", {"static"})
    assert found[("f", 6)] == ("function", {"declaration"})
    assert found[("a", 7)] == ("parameter", set())
    assert found[("b", 7)] == ("variable", {"declaration"})
    assert found[("+", 7)] == ("operator", set())
    assert found[("empt", 10)] == ("enumMember", {"defaultLibrary", "readonly", "deprecated"})


def test_fixes(tmp_path):
    text = HEADER + "define isMoveLegal() -> bool {\n  int unused = 1;\n  return onTrun() == 0 && Blue == X;\n}\n"
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    analysis = s.analysis(path)
    found = {f.title: f for f in fixes(analysis, text, path, s.diagnostics(path))}
    assert set(found) == {"Did you mean 'onTurn'?", "Declare object 'Blue'", "Add 'end()'",
                          "Remove the unused local 'unused'"}
    assert found["Did you mean 'onTurn'?"].preferred
    assert [(e.span.line, e.span.column, e.new_text) for e in found["Declare object 'Blue'"].edits] == [(5, 0, "obj Blue\n")]
    (remove,) = found["Remove the unused local 'unused'"].edits
    assert (remove.span.line, remove.span.column, remove.span.end_line, remove.span.end_column, remove.new_text) == \
        (6, 0, 7, 0, "")
    (stub,) = found["Add 'end()'"].edits
    assert isinstance(stub, Edit) and stub.new_text.startswith("\ndefine end() -> bool {\n")


def test_run_argv(tmp_path):
    s = session(tmp_path, {"a b.gdef": HEADER + 'use "lib.gdef"\n' + ENTRY, "lib.gdef": "define h() {}\n",
                           "alone.gdef": "define k() {}\n"})
    game = str(tmp_path / "a b.gdef")
    assert run_argv(s.analyses(game), game) == [sys.executable, "-m", "gdef_core.cli.run", game]
    library = str(tmp_path / "lib.gdef")
    assert run_argv(s.analyses(library), library) == [sys.executable, "-m", "gdef_core.cli.run", game]
    alone = str(tmp_path / "alone.gdef")
    assert isinstance(run_argv(s.analyses(alone), alone), Refusal)
    assert debug_configuration(s.analyses(library), library) == {
        "type": "gdef", "request": "launch", "name": "Debug a b.gdef", "program": game}
    assert isinstance(debug_configuration(s.analyses(alone), alone), Refusal)


def test_the_ide_layer_does_not_import_the_protocol_libraries():
    import subprocess

    code = ("import pkgutil, importlib, sys, gdef_core.ide as ide\n"
            "for m in pkgutil.iter_modules(ide.__path__): importlib.import_module('gdef_core.ide.' + m.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('pygls', 'lsprotocol', 'gdef_lsp')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
