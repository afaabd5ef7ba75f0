"""gdef_core.ide.completion: candidates by the context of the cursor, broken text included."""
from __future__ import annotations

import pytest

from gdef_core.ide.completion import CandidateKind, complete
from gdef_core.ide.session import Session

from ide_support import ENTRY, HEADER, cursor

FUNCTIONS = ("define helper(int a, obj piece) -> int { return a; }\n"
             "// Says hello.\ndefine hello() { }\n")


def candidates(tmp_path, text: str, name: str = "g.gdef"):
    text, line, column = cursor(text)
    path = str(tmp_path / name)
    session = Session()
    session.set_buffer(path, text)
    return complete(session.recent_analyses(path), text, path, line, column)


def labels(tmp_path, text: str) -> set[str]:
    return {c.label for c in candidates(tmp_path, text)}


def test_statement_start_offers_keywords_names_and_builtins(tmp_path):
    found = candidates(tmp_path, HEADER + FUNCTIONS + "define f(int p) {\n  int q = 1;\n  ‸\n}\n" + ENTRY)
    by_label = {c.label: c for c in found}
    assert {"p", "q", "X", "O", "empty", "helper", "hello", "if", "while", "return", "int", "obj",
            "CurrentPosition", "onTurn", "true"} <= set(by_label)
    assert by_label["p"].kind is CandidateKind.PARAMETER and by_label["q"].kind is CandidateKind.LOCAL
    assert by_label["q"].detail == "int"
    assert by_label["helper"].snippet == "helper(${1:a}, ${2:piece})"
    assert by_label["helper"].insert_text == "helper"
    assert by_label["hello"].insert_text == "hello()" and "Says hello." in by_label["hello"].documentation
    assert by_label["CurrentPosition"].snippet == "CurrentPosition[${1:x}][${2:y}]"
    assert "position before the proposed move" in by_label["CurrentPosition"].documentation
    order = [c.label for c in sorted(found, key=lambda c: c.sort_group)]
    assert order.index("q") < order.index("helper") < order.index("onTurn") < order.index("if")


def test_expression_after_an_operator_has_no_keywords(tmp_path):
    found = labels(tmp_path, HEADER + "define f(int p) -> int {\n  return p + ‸\n}\n" + ENTRY)
    assert "p" in found and "onTurn" in found and "if" not in found and "int" not in found


@pytest.mark.parametrize("text", [
    HEADER + "define ‸",  # naming a function
    HEADER + "define f(int ‸",  # naming a parameter
    HEADER + "define f() { int ‸",  # naming a local
    HEADER + "obj ‸",  # naming an object
    HEADER + "define f() { return 1 ‸",  # after an operand: an operator comes next
    HEADER + "// a comment ‸",
    HEADER + "/* a comment ‸ */",
])
def test_no_candidates_where_a_new_name_or_an_operator_goes(tmp_path, text):
    assert candidates(tmp_path, text) == []


def test_top_level_offers_missing_game_parameters_and_top_level_keywords(tmp_path):
    found = labels(tmp_path, "name: g\n‸")
    assert {"players:", "size:", "define", "obj", "start", "use", "int"} <= found
    assert "name:" not in found and "if" not in found


def test_types_after_arrow_and_in_parameter_lists(tmp_path):
    assert labels(tmp_path, HEADER + "define f() -> ‸") == {"int", "float", "bool", "obj"}
    assert labels(tmp_path, HEADER + "define f(int a, ‸") == {"int", "float", "bool", "obj"}


def test_operation_list_second_index_lists_its_four_meanings(tmp_path):
    found = candidates(tmp_path, HEADER + "define isMoveLegal() -> bool {\n  int n = OperationList[0][‸")
    assert [(c.label, c.detail) for c in found] == [("0", "int"), ("1", "int"), ("2", "obj"), ("3", "int")]
    assert "empty" in found[2].documentation
    # The first index is an ordinary expression.
    assert "onTurn" in labels(tmp_path, HEADER + "define f() -> int { return OperationList[‸")


def test_start_squares_take_objects(tmp_path):
    assert labels(tmp_path, HEADER + "start { (0, 0: ‸") == {"X", "O", "empty"}
    assert labels(tmp_path, HEADER + "start { (0, ‸") == set()


def test_else_after_an_if_block_and_if_after_else(tmp_path):
    assert "else" in labels(tmp_path, HEADER + "define f() { if (true) { }\n  ‸")
    assert "else" not in labels(tmp_path, HEADER + "define f() { while (true) { }\n  ‸")
    assert labels(tmp_path, HEADER + "define f() { if (true) { } else ‸") == {"if"}


def test_locals_inside_a_broken_function_and_functions_after_it(tmp_path):
    text = (HEADER + "define f(int p) -> bool {\n  int a = 1;\n  if (a > ) {\n  obj b = ‸\n"
            "define later() -> int { return 1; }\n" + ENTRY)
    found = labels(tmp_path, text)
    assert {"p", "a", "later", "X"} <= found
    assert "b" not in found  # not visible in its own initialiser


def test_use_paths_list_gdef_files_next_to_the_file(tmp_path):
    (tmp_path / "lib.gdef").write_text("", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.gdef").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    found = candidates(tmp_path, 'use "li‸')
    assert [(c.label, c.kind) for c in found] == [("lib.gdef", CandidateKind.FILE), ("sub/deep.gdef", CandidateKind.FILE)]
    assert (found[0].replace.line, found[0].replace.column, found[0].replace.end_column) == (0, 5, 7)
    assert [c.label for c in candidates(tmp_path, "use ‸")] == ['"lib.gdef"', '"sub/deep.gdef"']


def test_chance_built_ins_are_offered_where_they_work(tmp_path):
    """In chance() of a game that calls chanceNext(): addOutcome, not addMove; in end():
    chanceNext and isChanceMove, not addOutcome. A game's own chance() is an ordinary function."""
    game = HEADER + ("define setup() { chanceNext(); }\n"
                     "define chance() {\n  ‸\n}\n"
                     "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n")
    in_chance = labels(tmp_path, game)
    assert {"addOutcome", "addPlace", "addClear", "CurrentPosition"} <= in_chance
    assert not {"addMove", "hasLegalMove", "isChanceMove", "chanceNext"} & in_chance
    in_end = labels(tmp_path, game.replace("‸", "").replace("return false; }", "‸ return false; }"))
    assert {"chanceNext", "isChanceMove"} <= in_end and "addOutcome" not in in_end
    own = labels(tmp_path, HEADER + "define chance() -> int {\n  ‸\n}\n"
                 "define isMoveLegal() -> bool { return chance() > 0; }\ndefine end() -> bool { return false; }\n")
    assert "addOutcome" not in own and "NextPosition" in own   # judged as isMoveLegal()'s helper
