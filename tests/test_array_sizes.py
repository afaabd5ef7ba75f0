"""Spec 15.1 array sizes: the checker reports what it can know (literals, arithmetic, the
board's dimensions and number of players, in locals as in game variables), the run reports
the rest as G613, never an internal error (issue 32, item 16)."""
from __future__ import annotations

import os

from gdef_core.ide.parse_cache import ParseCache
from gdef_core.loader import load_program
from gdef_core.project import Workspace
from gdef_core.runtime.game import VerdictKind, load_game
from gdef_core.semantics.incremental import IncrementalChecker

HEAD = "players: 2\nsize: 3 x 3\nobj X\n"
END = "define end() -> bool { return true; }\n"


def errors(tmp_path, text: str) -> list[tuple[int, int, str]]:
    path = tmp_path / "game.gdef"
    path.write_text(text, encoding="utf-8")
    return [(d.span.line + 1, d.span.column + 1, d.code) for d in load_program([str(path)]).diagnostics
            if d.is_error]


def legal(body: str) -> str:
    return HEAD + "define isMoveLegal() -> bool {\n" + body + "return true;\n}\n" + END


def test_a_game_variable_array_of_size_0_is_a_checker_error(tmp_path):
    assert errors(tmp_path, HEAD + "int bad[0] = 1;\n" + legal("")[len(HEAD):]) == [(4, 9, "G313")]


def test_a_game_variable_array_over_a_million_elements_is_a_checker_error(tmp_path):
    text = HEAD + "int big[boardWidth() * 1000][1000] = 0;\n" + legal("")[len(HEAD):]
    assert errors(tmp_path, text) == [(4, 9, "G313")]


def test_local_sizes_from_the_board_and_players_are_known_to_the_checker(tmp_path):
    assert errors(tmp_path, legal("int u[boardWidth()] = {1, 2};\n")) == [(5, 23, "G313")]
    assert errors(tmp_path, legal("int z[boardHeight() - 3] = 0;\n")) == [(5, 7, "G313")]
    assert errors(tmp_path, legal("int p[playersNum()][boardWidth() + 1] = {{1, 2, 3, 4}, {5, 6, 7, 8}};\n"
                                  "bool q[playersNum() * 2 % 3] = {true};\n")) == []


def test_a_list_shorter_than_sizes_known_only_at_run_time_is_the_run_time_error(tmp_path):
    path = tmp_path / "game.gdef"
    path.write_text(legal("int n = boardWidth();\nint t[n] = {1, 2};\nif (t[2] == 1) { return false; }\n"),
                    encoding="utf-8")
    assert errors(tmp_path, path.read_text(encoding="utf-8")) == []
    verdict = load_game(str(path)).new_state().check("place(0,0,X)")
    assert verdict.kind is VerdictKind.RUNTIME_ERROR
    assert verdict.error.code == "G613" and "lists 2" in verdict.error.message


def test_the_editor_s_checker_sees_a_new_board_size(tmp_path):
    """The incremental checker keeps a function's results while nothing it reads changed: the
    board's size is read by sizes that name it."""
    path = os.path.abspath(tmp_path / "game.gdef")
    cache, checker = ParseCache(), IncrementalChecker()

    def codes(text: str) -> list[str]:
        program = checker.check(*Workspace({path: text}, parse=cache.parse).load([path]))
        return [d.code for d in program.diagnostics if d.is_error]

    body = "define isMoveLegal() -> bool {\nint u[boardWidth()] = {1, 2, 3};\nreturn true;\n}\n" + END
    assert codes(HEAD + body) == []
    assert codes(HEAD.replace("3 x 3", "4 x 3") + body) == ["G313"]
