"""gdef_core.ide navigation and rename, in gdef_core terms (Span, Edit, Refusal)."""
from __future__ import annotations

from gdef_core.ide.navigation import definitions, highlights, references
from gdef_core.ide.rename import Refusal, RenameTarget, prepare_rename, rename

from ide_support import ENTRY, HEADER, cursor, session

LIBRARY = "define twice(int n) -> int { return n * 2; }\n"
GAME_A = HEADER + 'use "lib.gdef"\n' + ENTRY.replace("return false;", "return twice(1) > 2;")
GAME_B = HEADER.replace("name: g", "name: h") + 'use "lib.gdef"\n' + \
    ENTRY.replace("return true;", "return twice(onTurn()) == 0;")


def test_definition_of_a_library_function_used_by_a_game(tmp_path):
    text, line, column = cursor(GAME_A.replace("twice(1)", "tw‸ice(1)"))
    s = session(tmp_path, {"a.gdef": text, "b.gdef": GAME_B, "lib.gdef": LIBRARY})
    (found,) = definitions(s.analyses(str(tmp_path / "a.gdef")), str(tmp_path / "a.gdef"), line, column)
    assert (found.file, found.line, found.column) == (str(tmp_path / "lib.gdef"), 0, 7)


def test_references_from_the_library_cover_every_game_that_uses_it(tmp_path):
    s = session(tmp_path, {"a.gdef": GAME_A, "b.gdef": GAME_B, "lib.gdef": LIBRARY})
    found = references(s.analyses, str(tmp_path / "lib.gdef"), 0, 8)
    assert [(r.span.file.rsplit("/", 1)[1], r.span.line, r.is_declaration) for r in found] == [
        ("a.gdef", 7, False), ("b.gdef", 6, False), ("lib.gdef", 0, True)]
    without = references(s.analyses, str(tmp_path / "lib.gdef"), 0, 8, include_declaration=False)
    assert len(without) == 2


def test_highlights_stay_in_the_file_and_mark_writes(tmp_path):
    text, line, column = cursor(HEADER + "define f() -> int {\n  int k‸ = 0;\n  k = k + 1;\n  return k;\n}\n" + ENTRY)
    s = session(tmp_path, {"g.gdef": text})
    found = highlights(s.analyses(str(tmp_path / "g.gdef")), str(tmp_path / "g.gdef"), line, column)
    assert [(r.span.line, r.span.column, r.is_write) for r in found] == [
        (6, 6, True), (7, 2, True), (7, 6, False), (8, 9, False)]


def test_rename_a_local_everywhere_in_its_function_only(tmp_path):
    text = HEADER + "define f() -> int { int k = 1; return k; }\ndefine g() -> int { int k = 2; return k; }\n" + ENTRY
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    edits = rename(s.analyses, text, path, 5, 24, "count")
    assert [(e.span.line, e.span.column, e.new_text) for e in edits] == [(5, 24, "count"), (5, 38, "count")]


def test_rename_a_library_function_from_one_game_edits_all_games(tmp_path):
    s = session(tmp_path, {"a.gdef": GAME_A, "b.gdef": GAME_B, "lib.gdef": LIBRARY})
    path = str(tmp_path / "a.gdef")
    edits = rename(s.analyses, GAME_A, path, 7, 31, "double")
    assert sorted(e.span.file.rsplit("/", 1)[1] for e in edits) == ["a.gdef", "b.gdef", "lib.gdef"]


def test_prepare_rename_names_what_it_would_rename(tmp_path):
    s = session(tmp_path, {"g.gdef": HEADER + ENTRY})
    found = prepare_rename(s.analyses(str(tmp_path / "g.gdef")), HEADER + ENTRY, str(tmp_path / "g.gdef"), 3, 4)
    assert isinstance(found, RenameTarget) and found.name == "X" and (found.span.line, found.span.column) == (3, 4)


def test_rename_refusals_say_why(tmp_path):
    text = HEADER + "define f() -> int {\n  return onTurn() + missing;\n}\n" + ENTRY
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    analyses = s.analyses(path)

    def refusal(line, column, new_name=None):
        result = (prepare_rename(analyses, text, path, line, column) if new_name is None
                  else rename(s.analyses, text, path, line, column, new_name))
        assert isinstance(result, Refusal)
        return result.reason

    assert refusal(6, 2) == "'return' is a keyword: it cannot be renamed"
    assert refusal(6, 9) == "'onTurn' is a built-in: it cannot be renamed"
    assert refusal(6, 20) == "'missing' is not defined anywhere, so there is nothing to rename"
    assert refusal(1, 2) == "'players' is a game parameter: its name is fixed by the language"
    assert refusal(6, 1) == "there is no name here to rename"
    assert refusal(3, 4, "O") == "'O' is already an object (g.gdef:5)"
    assert refusal(3, 4, "while") == "'while' is a keyword and cannot name anything"
    assert refusal(3, 4, "empty") == "'empty' is a built-in name and cannot be reused"
    assert refusal(3, 4, "9lives").startswith("'9lives' is not a name")


def test_definition_of_a_use_path_is_the_used_file(tmp_path):
    text, line, column = cursor(GAME_A.replace('use "lib.gdef"', 'use "li‸b.gdef"'))
    s = session(tmp_path, {"a.gdef": text, "lib.gdef": LIBRARY})
    (found,) = definitions(s.analyses(str(tmp_path / "a.gdef")), str(tmp_path / "a.gdef"), line, column)
    assert (found.file, found.line, found.column) == (str(tmp_path / "lib.gdef"), 0, 0)
