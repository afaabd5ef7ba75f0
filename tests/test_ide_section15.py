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
    assert {"isGenerated", "nextBoardSeen", "sizeOf", "onTurn", "addPlace", "addCount", "ResultPosition",
            "ResultCount"} <= set(legal)
    assert not {"repetitions", "setScore", "addMove", "hasLegalMove"} & set(legal)
    end = candidates(tmp_path, GAME.replace("  return false;\n}\n", "  ‸\n  return false;\n}\n"))
    assert {"repetitions", "setScore", "hasLegalMove", "PreviousPosition", "addClear", "addCount", "ResultPosition",
            "ResultCount"} <= set(end)
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


# ---------------------------------------------------------------- quick fixes


def fixed(tmp_path, text: str, code: str) -> list[tuple[str, str, bool]]:
    """(title, the text after the fix, preferred) for each fix of the first `code` diagnostic."""
    session, path = open_game(tmp_path, text)
    analysis = session.analysis(path)
    diag = next(d for d in analysis.program.diagnostics if d.code == code)
    found = []
    for fix in fixes.fixes(analysis, text, path, [diag]):
        result = text
        for edit in sorted(fix.edits, key=lambda e: e.span.start, reverse=True):
            lines = result.split("\n")
            start = sum(len(line) + 1 for line in lines[:edit.span.line]) + edit.span.column
            end = sum(len(line) + 1 for line in lines[:edit.span.end_line]) + edit.span.end_column
            result = result[:start] + edit.new_text + result[end:]
        found.append((fix.title, result, fix.preferred))
    return found


def codes_of(tmp_path, text: str) -> list[str]:
    session, path = open_game(tmp_path, text)
    return [d.code for d in session.analysis(path).program.diagnostics]


LOCAL = HEADER + "define f() -> int {\n  BODY\n}\ndefine isMoveLegal() -> bool { return f() > 0; }\n" \
    "define end() -> bool { return false; }\n"


def test_fix_groups_a_flat_list_into_rows(tmp_path):
    text = LOCAL.replace("BODY", "int steps[2][3] = {1, 0, -1, 0, 1, 0};\n  return steps[1][1];")
    [(title, after, preferred)] = fixed(tmp_path, text, "G313")
    assert title == "Group the list into 2 rows of 3" and preferred
    assert "int steps[2][3] = {{1, 0, -1}, {0, 1, 0}};" in after and codes_of(tmp_path, after) == []


def test_fix_sizes_an_array_to_its_list(tmp_path):
    text = LOCAL.replace("BODY", "int dx[3] = {1, 2};\n  return dx[0];")
    [(title, after, _)] = fixed(tmp_path, text, "G313")
    assert title == "Make the size 2 (the list's elements)" and "int dx[2] = {1, 2};" in after
    assert codes_of(tmp_path, after) == []
    text = LOCAL.replace("BODY", "int dx = {1, 2, 3};\n  return dx[0];")
    [(title, after, _)] = fixed(tmp_path, text, "G313")
    assert title == "Make 'dx' an array of 3" and "int dx[3] = {1, 2, 3};" in after
    assert codes_of(tmp_path, after) == []
    text = LOCAL.replace("BODY", "int g[2][2] = {{1, 2}, {3, 4, 5}};\n  return g[0][0];")
    assert fixed(tmp_path, text, "G313") == []  # which element is extra is the author's call


def test_fix_removes_a_jump_outside_a_loop(tmp_path):
    text = LOCAL.replace("BODY", "if (true) { break; }\n  continue;\n  return 1;")
    [(title, after, _)] = fixed(tmp_path, text, "G314")
    assert title == "Remove the 'break'" and "if (true) { }\n  continue;" in after
    [(title, after, _)] = fixed(tmp_path, after, "G314")
    assert title == "Remove the 'continue'" and "if (true) { }\n  return 1;" in after
    assert "G314" not in codes_of(tmp_path, after)


def test_fix_updates_the_loop_variable_before_continue(tmp_path):
    body = ("int i = 0;\n  int n = 0;\n  while (i < 8) {\n    if (CurrentPosition[i % 3][0] == empty) { continue; }\n"
            "    if (i == 5) {\n      continue;\n    }\n    n = n + 1;\n    i = i + 1;\n  }\n  return n;")
    text = LOCAL.replace("BODY", body)
    [(title, after, preferred)] = fixed(tmp_path, text, "G507")
    assert title == "Update 'i' before the 'continue'" and preferred
    assert "== empty) { i = i + 1; continue; }" in after
    assert "if (i == 5) {\n      i = i + 1;\n      continue;\n    }" in after
    assert "G507" not in codes_of(tmp_path, after)


def test_fix_adds_the_moves_that_is_generated_needs(tmp_path):
    text = HEADER + "define isMoveLegal() -> bool { return isGenerated(); }\ndefine end() -> bool { return false; }\n"
    assert codes_of(tmp_path, text) == ["G413"]
    [(title, after, _)] = fixed(tmp_path, text, "G413")
    assert title == "Add 'moves()'" and after.endswith("\ndefine moves() {\n  // TODO: for each legal move: "
                                                       "addPlace(x, y, o) / addClear(x, y) ..., then addMove();\n}\n")
    assert codes_of(tmp_path, after) == []


def test_fix_adds_the_chance_that_chance_next_needs(tmp_path):
    text = HEADER + "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { chanceNext(); return false; }\n"
    assert codes_of(tmp_path, text) == ["G418"]
    [(title, after, preferred)] = fixed(tmp_path, text, "G418")
    assert title == "Add 'chance()'" and preferred
    assert after.endswith("\ndefine chance() {\n  // TODO: for each outcome: addPlace(x, y, o) / addClear(x, y) ..., "
                          "then addOutcome(weight);\n}\n")
    assert codes_of(tmp_path, after) == []


@pytest.mark.parametrize("code, body", [
    ("G312", "int a[3] = 0;\n  return a + 1;"),
    ("G412", None),
])
def test_no_fix_where_none_is_obvious(tmp_path, code, body):
    text = LOCAL.replace("BODY", body) if body else (
        HEADER + "int n = 0;\ndefine isMoveLegal() -> bool { n = 1; return true; }\ndefine end() -> bool { return false; }\n")
    assert fixed(tmp_path, text, code) == []


# ---------------------------------------------------------------- over stdio, with the real server

client = lsp_fixture(profiles=["visual_studio_code"])


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("section15") / "g.gdef"
    path.write_text(GAME, encoding="utf-8")
    return path


def doc(target: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=target)


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_completion_hover_and_signature(client, game_file):
    text = GAME.replace("    total = total + 1;", "    total = total + 1;\n    \n")
    target = open_document(client, game_file, text)
    at = position(client, text, "    \n", 4)
    result = await client.text_document_completion_async(types.CompletionParams(doc(target), at))
    items = {i.label: i for i in result.items}
    assert items["break"].kind == types.CompletionItemKind.Keyword and items["seen"].detail == "bool[][]"
    assert "repetitions" not in items and "nextBoardSeen" in items
    hovered = await client.text_document_hover_async(types.HoverParams(doc(target), position(client, text, "seen[i][n]")))
    assert hovered.contents.value.startswith("```gdef\nbool seen[][]\n```")
    help_ = await client.text_document_signature_help_async(types.SignatureHelpParams(
        doc(target), position(client, text, "dx[0]) > 0")))
    (information,) = help_.signatures
    start, end = information.parameters[0].label
    assert information.label[start:end] == "bool seen[][]" and help_.active_parameter == 1
    close_document(client, target)


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_semantic_tokens_and_rename(client, game_file):
    target = open_document(client, game_file, GAME)
    legend = client.server_capabilities.semantic_tokens_provider.legend
    result = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(doc(target)))
    decoded, line, start = {}, 0, 0
    for k in range(0, len(result.data), 5):
        delta_line, delta_start, length, kind, _ = result.data[k:k + 5]
        line, start = line + delta_line, (start + delta_start if delta_line == 0 else delta_start)
        decoded[(line, start)] = (GAME.split("\n")[line][start:start + length], legend.token_types[kind])
    assert decoded[at(GAME, "for (int i")] == ("for", "keyword")
    assert decoded[at(GAME, "counter int")] == ("counter", "keyword")
    assert decoded[at(GAME, "continue;")] == ("continue", "keyword")
    edit = await client.text_document_rename_async(types.RenameParams(
        doc(target), position(client, GAME, "seen[][]"), "marked"))
    (edits,) = edit.changes.values()
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == \
        [at(GAME, "seen[][]"), at(GAME, "seen, 0)"), at(GAME, "seen[i][n]")]
    close_document(client, target)


@pytest.mark.asyncio(loop_scope="module")
async def test_lsp_g413_and_its_quick_fix(client, game_file):
    text = GAME.replace("define moves() {", "define propose() {").replace(
        "define end() -> bool {", "define end() -> bool {\n  propose();")
    target = open_document(client, game_file, text)
    found = [d for d in await diagnostics(client, target, version=1) if d.code == "G413"]
    assert [(d.range.start.line, d.range.start.character) for d in found] == [at(text, "isGenerated()")]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        doc(target), found[0].range, types.CodeActionContext(diagnostics=found)))
    assert [a.title for a in actions] == ["Add 'moves()'"]
    (edits,) = actions[0].edit.changes.values()
    assert edits[0].new_text.startswith("\ndefine moves() {")
    close_document(client, target)
