"""Section 15 (arrays, for/break/continue, isGenerated, repetition, scores, counters) in the
editor features: completion, hover, signature help, semantic tokens, rename, quick fixes;
first as gdef_core.ide functions, then end to end over stdio with the real server."""
from __future__ import annotations

import pytest
from lsprotocol import types

from gdef_core.ide import completion, fixes, highlight, hover, rename, signature
from gdef_core.ide.completion import CandidateKind
from gdef_core.ide.rename import Refusal
from gdef_core.ide.session import Session

from ide_support import ENTRY, HEADER, cursor
from lsp_support import close_document, diagnostics, lsp_fixture, open_document, position

GAME = """name: g
players: 2
size: 8 x 8
obj X
obj O
counter int halfmoves = 0;
bool castle[4] = true;
obj grid[8][8] = empty;

// Counts the marked squares of a column.
define count(bool seen[][], int n) -> int {
  int total = 0;
  for (int i = 0; i < sizeOf(seen, 0); i = i + 1) {
    if (seen[i][n]) { continue; }
    total = total + 1;
  }
  return total;
}

define moves() {
  for (int x = 0; x < 8; x = x + 1) {
    addPlace(x, 0, X);
    addMove();
  }
}

define isMoveLegal() -> bool {
  bool seen[8][8] = false;
  int dx[4] = {1, 0, -1, 0};
  seen[0][0] = true;
  return isGenerated() && count(seen, dx[0]) > 0 && !nextBoardSeen();
}

define end() -> bool {
  halfmoves = halfmoves + 1;
  grid[0][0] = PreviousPosition[0][0];
  if (repetitions() >= 2) { setScore(0, 1); return true; }
  return false;
}
"""


def at(text: str, marker: str, offset: int = 0) -> tuple[int, int]:
    index = text.index(marker) + offset
    return text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1)


def open_game(tmp_path, text: str = GAME) -> tuple[Session, str]:
    path = str(tmp_path / "g.gdef")
    (tmp_path / "g.gdef").write_text(text, encoding="utf-8")
    session = Session()
    session.set_buffer(path, text)
    return session, path


def candidates(tmp_path, marked: str) -> dict[str, completion.Candidate]:
    text, line, column = cursor(marked)
    session, path = open_game(tmp_path, text)
    return {c.label: c for c in completion.complete(session.recent_analyses(path), text, path, line, column)}


# ---------------------------------------------------------------- completion


def test_loop_keywords_only_inside_loops(tmp_path):
    outside = candidates(tmp_path, GAME.replace("  return total;", "  ‸\n  return total;"))
    assert {"for", "while", "if"} <= set(outside) and not {"break", "continue"} & set(outside)
    inside = candidates(tmp_path, GAME.replace("    total = total + 1;", "    ‸\n    total = total + 1;"))
    assert inside["break"].snippet == "break;" and inside["continue"].kind is CandidateKind.KEYWORD
    assert inside["for"].snippet == "for (int ${1:i} = 0; $1 < ${2:8}; $1 = $1 + 1) {\n\t$0\n}"
    in_while = candidates(tmp_path, HEADER + "define f() {\n  while (true) {\n    if (true) { ‸ }\n  }\n}\n" + ENTRY)
    assert {"break", "continue"} <= set(in_while)


def test_array_locals_parameters_and_loop_variables(tmp_path):
    found = candidates(tmp_path, GAME.replace("    total = total + 1;", "    total = ‸"))
    assert found["seen"].detail == "bool[][]" and found["seen"].kind is CandidateKind.PARAMETER
    assert found["i"].detail == "int" and "Loop variable" in found["i"].documentation
    assert found["castle"].detail == "bool[4]" and found["grid"].detail == "obj[8][8]"
    assert found["halfmoves"].detail == "counter int"
    legal = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  seen[0][0] = ‸"))
    assert legal["dx"].detail == "int[4]" and legal["seen"].detail == "bool[8][8]"


def test_loop_variable_is_gone_after_its_loop(tmp_path):
    found = candidates(tmp_path, GAME.replace("  return total;", "  return ‸"))
    assert "total" in found and "i" not in found
    header = candidates(tmp_path, GAME.replace("i < sizeOf(seen, 0)", "i < ‸"))
    assert "i" in header
    init = candidates(tmp_path, GAME.replace("for (int i = 0;", "for (int i = ‸"))
    assert "i" not in init and "total" in init  # not visible in its own initialiser


def test_for_header_offers_types_for_its_local(tmp_path):
    found = candidates(tmp_path, GAME.replace("  return total;", "  for (‸\n  return total;"))
    assert {"int", "total", "seen"} <= set(found) and "if" not in found


def test_size_of_offers_arrays_then_dimensions(tmp_path):
    arrays = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  int w = sizeOf(‸"))
    assert set(arrays) == {"seen", "dx", "castle", "grid"}
    dims = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  int w = sizeOf(dx, ‸"))
    assert set(dims) == {"0"}
    dims = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  int w = sizeOf(grid, ‸"))
    assert set(dims) == {"0", "1"}
    call = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  int w = ‸"))
    assert call["sizeOf"].snippet == "sizeOf(${1:a}, ${2:d})"


def test_builtins_only_where_the_table_allows_them(tmp_path):
    legal = candidates(tmp_path, GAME.replace("  seen[0][0] = true;", "  ‸\n  seen[0][0] = true;"))
    assert {"isGenerated", "nextBoardSeen", "sizeOf", "onTurn"} <= set(legal)
    assert not {"repetitions", "setScore", "addMove", "addPlace", "hasLegalMove"} & set(legal)
    end = candidates(tmp_path, GAME.replace("  return false;\n}\n", "  ‸\n  return false;\n}\n"))
    assert {"repetitions", "setScore", "hasLegalMove", "PreviousPosition"} <= set(end)
    assert not {"isGenerated", "nextBoardSeen", "addMove"} & set(end)
    moves = candidates(tmp_path, GAME.replace("    addMove();", "    ‸\n    addMove();"))
    assert {"addMove", "addPlace", "addClear"} <= set(moves) and "isGenerated" not in moves
    # count() is called only from isMoveLegal(): it gets isMoveLegal()'s built-ins
    helper = candidates(tmp_path, GAME.replace("  return total;", "  ‸\n  return total;"))
    assert "nextBoardSeen" in helper and "repetitions" not in helper


def test_is_generated_needs_moves(tmp_path):
    text = GAME.replace("define moves() {", "define propose() {").replace("define end", "define unused() { propose(); }\ndefine end")
    found = candidates(tmp_path, text.replace("  seen[0][0] = true;", "  ‸\n  seen[0][0] = true;"))
    assert "nextBoardSeen" in found and "isGenerated" not in found


def test_counter_at_the_top_level(tmp_path):
    found = candidates(tmp_path, HEADER + "‸\n" + ENTRY)
    assert found["counter"].snippet == "counter ${1|int,float,bool|} ${2:name} = ${3:0};"
    assert "repetitions()" in found["counter"].documentation


def test_array_parameter_brackets_offer_nothing(tmp_path):
    assert candidates(tmp_path, HEADER + "define f(bool seen[‸") == {}


# ---------------------------------------------------------------- hover


@pytest.mark.parametrize("marker, shown, said", [
    ("seen[0][0] = true", "bool seen[8][8]", "An array of 8 x 8 bool elements."),
    ("dx[0]) > 0", "int dx[4]", "An array of 4 int elements."),
    ("castle[4]", "bool castle[4] = true", "Game variable (part of the game state)"),
    ("grid[0][0] = Prev", "obj grid[8][8] = empty", "An array of 8 x 8 obj elements."),
    ("halfmoves + 1", "counter int halfmoves = 0", "left out when positions are compared"),
    ("seen[][]", "bool seen[][]", "passed by reference"),
    ("i = i + 1", "int i", "Local of `count()`"),
])
def test_hover_shows_dimensions_and_counters(tmp_path, marker, shown, said):
    session, path = open_game(tmp_path)
    found = hover.hover(session.analyses(path), path, *at(GAME, marker))
    assert found.markdown.startswith(f"```gdef\n{shown}\n```") and said in found.markdown


def test_hover_on_a_function_with_an_array_parameter(tmp_path):
    session, path = open_game(tmp_path)
    found = hover.hover(session.analyses(path), path, *at(GAME, "count(seen, dx"))
    assert "define count(bool seen[][], int n) -> int" in found.markdown


# ---------------------------------------------------------------- signature help


def test_signature_help_for_an_array_parameter(tmp_path):
    session, path = open_game(tmp_path)
    text = GAME.replace("count(seen, dx[0])", "count(seen, ")
    found = signature.signature_help(session.recent_analyses(path), text, *at(text, "count(seen, ", 6))
    assert found.label == "count(bool seen[][], int n) -> int"
    assert found.parameters == ("bool seen[][]", "int n") and found.active_parameter == 0
    found = signature.signature_help(session.recent_analyses(path), text, *at(text, "count(seen, ", 12))
    assert found.active_parameter == 1
    found = signature.signature_help(session.recent_analyses(path), GAME, *at(GAME, "sizeOf(seen, 0)", 7))
    assert found.label == "sizeOf(array a, int d) -> int" and found.active_parameter == 0


# ---------------------------------------------------------------- semantic tokens


def test_semantic_tokens_of_the_new_constructs(tmp_path):
    session, path = open_game(tmp_path)
    tokens = highlight.semantic_tokens(session.analysis(path), GAME, path)
    lines = GAME.split("\n")

    def kind(marker: str, offset: int = 0):
        line, column = at(GAME, marker, offset)
        token = next(t for t in tokens if (t.line, t.column) == (line, column))
        return lines[line][column:column + token.length], token.type, token.modifiers

    assert kind("for (int i") == ("for", "keyword", frozenset())
    assert kind("continue;") == ("continue", "keyword", frozenset())
    assert kind("counter int") == ("counter", "keyword", frozenset())
    assert kind("halfmoves = 0") == ("halfmoves", "variable", frozenset({"static", "declaration"}))
    assert kind("castle[4]") == ("castle", "variable", frozenset({"static", "declaration"}))
    assert kind("seen[][]") == ("seen", "parameter", frozenset({"declaration"}))
    assert kind("sizeOf(") == ("sizeOf", "function", frozenset({"defaultLibrary"}))
    assert kind("isGenerated()") == ("isGenerated", "function", frozenset({"defaultLibrary"}))
    assert kind("PreviousPosition") == ("PreviousPosition", "variable", frozenset({"defaultLibrary", "readonly"}))
    assert kind("dx[4]") == ("dx", "variable", frozenset({"declaration"}))


# ---------------------------------------------------------------- rename


def test_rename_an_array_local_everywhere_in_its_function(tmp_path):
    session, path = open_game(tmp_path)
    edits = rename.rename(session.analyses, GAME, path, *at(GAME, "seen[0][0] = true"), "marks")
    assert sorted(e.span.start for e in edits) == [at(GAME, "seen[8][8]"), at(GAME, "seen[0][0] = true"),
                                                  at(GAME, "seen, dx")]


def test_rename_an_array_parameter_and_a_game_variable_array(tmp_path):
    session, path = open_game(tmp_path)
    edits = rename.rename(session.analyses, GAME, path, *at(GAME, "seen[][]"), "marked")
    assert sorted(e.span.start for e in edits) == [at(GAME, "seen[][]"), at(GAME, "seen, 0)"),
                                                  at(GAME, "seen[i][n]")]
    edits = rename.rename(session.analyses, GAME, path, *at(GAME, "grid[0][0] ="), "board2")
    assert [e.span.start for e in edits] == [at(GAME, "grid[8][8]"), at(GAME, "grid[0][0] =")]


def test_rename_loop_variables_of_separate_loops(tmp_path):
    text = GAME.replace("  return total;", "  for (int j = 0; j < 2; j = j + 1) { total = total + j; }\n  return total;")
    session, path = open_game(tmp_path, text)
    assert not session.analysis(path).program.errors
    edits = rename.rename(session.analyses, text, path, *at(text, "int i = 0", 4), "j")
    assert len(edits) == 5 and {e.new_text for e in edits} == {"j"}  # the other loop's j is out of scope
    refused = rename.rename(session.analyses, text, path, *at(text, "int i = 0", 4), "total")
    assert isinstance(refused, Refusal) and "'total' is already a local" in refused.reason
    refused = rename.rename(session.analyses, text, path, *at(text, "int i = 0", 4), "n")
    assert isinstance(refused, Refusal) and "parameter" in refused.reason
