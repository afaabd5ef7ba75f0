"""Presentation (`show`) and move names: what a game declares, the defaults, names derived
from the operations and read back (ambiguous and unknown names refused with candidates),
the formatter, the console in a real gdef-run process. The checker's G8xx codes and their
positions are in tests/data/checker/presentation.gdef."""
from __future__ import annotations

import os
import subprocess
import sys

from gdef_core import load_game, parse
from gdef_core.format import format_source as format_text
from gdef_core.runtime.game import VerdictKind
from gdef_core.runtime.render import render_board
from gdef_core.semantics.checker import check

from support import ROOT

CHESS = str(ROOT / "examples" / "chess" / "chess.gdef")
GO9 = str(ROOT / "examples" / "go" / "go9.gdef")

PROMOTION = """\
name: promotion
players: 2
size: 2 x 3
obj P
obj Q
obj R
obj K
start { (0,1: P), (1,0: K) }

show {
  columns: "ab";
  rows: from 1;
  sides: "White", "Black";
  P: "♙" side 0 letter "p";
  Q: "♕" side 0 letter "q";
  R: "♖" side 0 letter "r";
  K: "♚" side 1;
}

define moves() {
  if (onTurn() == 0 && CurrentPosition[0][1] == P) {
    addClear(0, 1); addPlace(0, 2, Q); addMove();
    addClear(0, 1); addPlace(0, 2, R); addMove();
  }
  addMove();
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define end() -> bool {
  return moveNumber() == 2;
}
"""


def game_of(tmp_path, text: str, name: str = "game.gdef"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


# ---------------------------------------------------------------- declared and default


def test_chess_declares_its_pieces_labels_and_players() -> None:
    game = load_game(CHESS)
    shown = game.presentation
    assert shown.columns == tuple("abcdefgh") and shown.rows == tuple("12345678")
    assert shown.players == ("White", "Black") and game.player_name(1) == "Black"
    assert shown.pieces["WK"].glyph == "♔" and shown.pieces["WK"].side == 0
    assert shown.pieces["BQ"].to_json() == {"glyph": "♛", "image": None, "side": 1}
    # the rules' tables (knightDx, lineDy, ...) are never assigned: hidden by default
    assert shown.visible == ("castle", "epFile", "halfmoves")


def test_go_is_drawn_on_intersections_with_letters_without_i() -> None:
    shown = load_game(GO9).presentation
    assert (shown.style, shown.columns, shown.players) == ("intersections", tuple("ABCDEFGHJ"), ("Black", "White"))


def test_a_game_that_declares_nothing_gets_the_defaults(tmp_path) -> None:
    game = game_of(tmp_path, PROMOTION.split("show {")[0] + "int seen = 0;\nint table[2] = {1, 2};\n"
                   + PROMOTION.split("}\n\n", 2)[2].replace("return moveNumber() == 2;",
                                                          "seen = seen + 1;\n  return moveNumber() == 2;"))
    shown = game.presentation
    assert (shown.style, shown.columns, shown.rows) == ("checkered", ("0", "1"), ("0", "1", "2"))
    assert shown.players == ("Player 0", "Player 1") and shown.visible == ("seen",)
    assert shown.to_json()["pieces"]["P"] == {"glyph": None, "image": None, "side": None}
    state = game.new_state()
    # without sides a piece that changes is not known to be the one that left: a drop, named by it
    assert state.move_names(state.legal_moves()) == ["Q@0,2", "R@0,2", "pass"]


# ---------------------------------------------------------------- names


def test_chess_names_are_from_to_and_read_back() -> None:
    state = load_game(CHESS).new_state()
    legal = state.legal_moves()
    names = state.move_names(legal)
    assert names[:3] == ["a2a3", "a2a4", "b1c3"] and "e2e4" in names and len(set(names)) == 20
    assert str(state.read_move("e2e4")) == "clear(4,1); place(4,3,WP)"
    assert state.read_move("E2E4") == state.read_move("e2e4")   # case does not matter
    assert str(state.read_move("e4")) == "clear(4,1); place(4,3,WP)"   # the only move to e4
    assert state.read_move("f3").candidates == ("f2f3", "g1f3")   # two moves go to f3


def test_a_promotion_is_named_by_its_piece_and_a_shared_prefix_is_ambiguous(tmp_path) -> None:
    state = game_of(tmp_path, PROMOTION).new_state()
    assert state.move_names(state.legal_moves()) == ["a2a3q", "a2a3r", "pass"]
    verdict = state.check("a2a3")
    assert verdict.kind is VerdictKind.AMBIGUOUS and verdict.candidates == ("a2a3q", "a2a3r")
    assert verdict.reason == "'a2a3' is ambiguous here: it could be a2a3q, a2a3r"
    state.apply("a2a3r")
    assert state.board[0, 2] == "R"


def test_an_unknown_name_lists_the_closest_legal_moves() -> None:
    state = load_game(CHESS).new_state()
    verdict = state.check("e2e5")
    assert verdict.kind is VerdictKind.UNKNOWN_NAME and "e2e4" in verdict.candidates
    assert verdict.reason.startswith("'e2e5' names no legal move here; the closest legal moves: ")
    assert state.check("place(4,3") .kind is VerdictKind.MALFORMED   # operations stay operations


def test_go_stones_are_named_by_their_point_and_pass_is_pass() -> None:
    state = load_game(GO9).new_state()
    names = state.move_names(state.legal_moves())
    assert names[:3] == ["A1", "B1", "C1"] and "J9" in names and names[-1] == "pass" and "I1" not in names
    state.apply("D4")
    assert state.board[3, 3] == "B"


def test_the_session_records_names_beside_the_operations() -> None:
    from gdef_core.runtime.session import Session

    game = load_game(CHESS)
    session = Session(game, [CHESS])
    assert session.play("e2e4").name == "e2e4"
    rejected = session.play("e7e8")
    assert rejected.verdict.kind is VerdictKind.UNKNOWN_NAME
    assert session.record()["moves"] == [{"player": 0, "move": "clear(4,1); place(4,3,WP)", "name": "e2e4"}]


# ---------------------------------------------------------------- formatter and console


def test_the_formatter_lays_out_show_blocks_and_keeps_their_tokens() -> None:
    messy = 'name: x\nplayers: 2\nsize: 3x3\nobj X\nshow   {style :plain ;\n\n\n  rows: "a",\n "b","c"; // c\n X:"x"   side 0;}\nshow{}\n'
    tidy = ('name: x\nplayers: 2\nsize: 3 x 3\nobj X\n\nshow {\n  style: plain;\n\n  rows: "a",\n'
            '      "b", "c"; // c\n  X: "x" side 0;\n}\n\nshow {}\n')
    assert format_text(messy) == tidy
    assert format_text(tidy) == tidy
    assert not parse(tidy).diagnostics


def test_the_console_draws_glyphs_coloured_by_side_or_ascii() -> None:
    game = load_game(CHESS)
    state = game.new_state()
    board = render_board(state.board, list(game.objects), presentation=game.presentation, color=True)
    assert "\x1b[1;33m♔\x1b[0m" in board and "\x1b[1;36m♚\x1b[0m" in board   # sides, not kinds
    plain = render_board(state.board, list(game.objects), presentation=game.presentation, ascii=True)
    assert plain.splitlines()[0] == "   a  b  c  d  e  f  g  h"
    assert plain.splitlines()[1] == "8 BR BN BB BQ BK BB BN BR 8"


def run_gdef(*args: str, stdin: str = "", encoding: str = "utf-8") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": encoding, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "gdef_core.cli.run", *args], input=stdin, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_gdef_run_accepts_e2e4_in_a_moves_file_and_refuses_unknown_names(tmp_path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text("e2e4\ne5\ne7e5   # not White's move\nd1h5\nb8c6\nf1c4\ng8f6\nh5f7\n", encoding="utf-8")
    done = run_gdef(CHESS, "--moves", str(moves))
    assert done.returncode == 0, done.stderr
    assert "1. White: e2e4 (clear(4,1); place(4,3,WP))" in done.stdout
    assert "2. Black: e7e5 (clear(4,6); place(4,4,BP))" in done.stdout
    assert done.stdout.rstrip().endswith("White wins: checkmate.")
    assert f"{moves}:3: rejected 'e7e5' (White): 'e7e5' names no legal move here" in done.stderr
    assert "8 ♜ . ♝ ♛ ♚ ♝ . ♜ 8" in done.stdout


def test_gdef_run_accepts_names_at_the_prompt_and_draws_ascii_where_glyphs_cannot_show() -> None:
    done = run_gdef(CHESS, stdin="e2e4\ne7\nmoves e7\nquit\n", encoding="ascii")
    assert "White> e2e4" in done.stdout and "Black to move" in done.stdout
    assert "Rejected: 'e7' is ambiguous here: it could be e7e6, e7e5" in done.stdout
    assert "11. e7e6   12. e7e5" in done.stdout
    assert "8 BR BN BB BQ BK BB BN BR 8" in done.stdout and "♜" not in done.stdout


# ---------------------------------------------------------------- the editor


SHOWN = ("name: g\nplayers: 2\nsize: 3 x 3\nobj X\nobj O\nint turns = 0;\n"
         "show {\n  style: intersections;\n  X: \"x\" side 0;\n  ‸\n}\n"
         "define isMoveLegal() -> bool { return true; }\n"
         "define end() -> bool { turns = turns + 1; return false; }\n")


def complete_at(tmp_path, text: str):
    from gdef_core.ide.completion import complete
    from gdef_core.ide.session import Session
    from ide_support import cursor

    text, line, column = cursor(text)
    path = str(tmp_path / "g.gdef")
    session = Session()
    session.set_buffer(path, text)
    return {c.label: c for c in complete(session.recent_analyses(path), text, path, line, column)}


def test_completion_in_a_show_block_offers_keys_objects_and_what_each_key_takes(tmp_path) -> None:
    from gdef_core.ide.completion import CandidateKind

    at_entry = complete_at(tmp_path, SHOWN)
    assert {"style", "columns", "rows", "sides", "visible", "notation", "X", "O"} <= set(at_entry)
    assert at_entry["sides"].kind is CandidateKind.SHOW_KEY and at_entry["sides"].insert_text == "sides: "
    assert at_entry["O"].snippet == 'O: "$1" side ${2:0};' and "turns" not in at_entry
    assert set(complete_at(tmp_path, SHOWN.replace("‸", "style: ‸"))) == {"checkered", "plain", "intersections", "hex"}
    assert set(complete_at(tmp_path, SHOWN.replace("‸", "visible: ‸"))) == {"turns"}
    assert set(complete_at(tmp_path, SHOWN.replace("‸", "rows: ‸"))) == {"from"}
    assert set(complete_at(tmp_path, SHOWN.replace("‸", 'O: "o" side 1 ‸'))) == {"image", "letter"}
    top = complete_at(tmp_path, SHOWN.replace("  ‸\n", "").replace("define isMoveLegal", "‸\ndefine isMoveLegal"))
    assert top["show"].snippet == "show {\n\t$0\n}"


def test_hover_explains_presentation_keys_words_and_the_objects_they_name(tmp_path) -> None:
    from gdef_core.ide.hover import hover
    from ide_support import session

    text = SHOWN.replace("‸", "rows: from 1;")
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    lines = text.split("\n")

    def at(word, line_text):
        line = next(i for i, t in enumerate(lines) if line_text in t)
        return hover(s.analyses(path), path, line, lines[line].index(word)).markdown

    assert at("style", "style:").startswith("```gdef\nstyle:\n```\n\nPresentation. The board:")
    assert at("intersections", "style:").startswith("`intersections`: Lines, with the pieces on their crossings")
    assert at("side", "X: ").startswith("`side`: `side N`: the player the object belongs to")
    assert at("from", "rows:") == "`from`: `from N`: the labels are numbers from N."
    assert at("X", "X: ") == "```gdef\nobj X\n```\n\nObject, declared at g.gdef:4."


def test_a_broken_show_block_is_reported_and_the_definitions_after_it_still_parse() -> None:
    text = ('name: g\nplayers: 2\nsize: 3x3\nobj X\nshow {\n  style plain;\n  rows: 1, 2,;\n}\n'
            'obj O\ndefine isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n')
    result = parse(text)
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in result.diagnostics] == [("G101", 6, 9), ("G101", 7, 14)]
    assert result.diagnostics[1].message == "expected a name, a number or a string in quotes, found ';'"
    assert [type(item).__name__ for item in result.module.items][-4:] == ["ShowDecl", "ObjDecl", "FunctionDef",
                                                                          "FunctionDef"]


def test_a_name_typed_while_moves_fails_gets_the_run_time_error(tmp_path) -> None:
    game = game_of(tmp_path, "name: g\nplayers: 2\nsize: 3 x 3\nobj X\n"
                             "define moves() { int zero = 0; addPlace(1 / zero, 0, X); addMove(); }\n"
                             "define isMoveLegal() -> bool { return true; }\n"
                             "define end() -> bool { return false; }\n")
    verdict = game.new_state().check("1,0")
    assert verdict.kind is VerdictKind.RUNTIME_ERROR and verdict.error.code == "G601"
    assert verdict.reason.startswith("moves() failed while reading the move's name: ")


def test_renaming_an_object_renames_its_show_entry_and_keys_cannot_be_renamed(tmp_path) -> None:
    from gdef_core.ide.rename import Refusal, rename
    from ide_support import session

    text = SHOWN.replace("  ‸\n", "")
    s = session(tmp_path, {"g.gdef": text})
    path = str(tmp_path / "g.gdef")
    edits = rename(s.analyses, text, path, 3, 4, "Cross")   # the X of `obj X`
    assert [(e.span.line + 1, e.span.column + 1, e.new_text) for e in edits] == [(4, 5, "Cross"), (9, 3, "Cross")]
    refused = rename(s.analyses, text, path, 7, 3, "look")   # `style:`
    assert isinstance(refused, Refusal) and refused.reason == "'style' is a presentation key: its name is fixed by the language"


def test_the_outline_lists_the_show_block(tmp_path) -> None:
    from gdef_core.ide.outline import OutlineKind, document_outline

    items = document_outline(parse(SHOWN.replace("  ‸\n", ""), "g.gdef").module)
    shown = [item for item in items if item.kind is OutlineKind.SHOW]
    assert [(item.name, item.detail, item.selection.line + 1) for item in shown] == [("show", "2 entries", 7)]


def test_the_console_draws_go_as_points_with_its_own_coordinates() -> None:
    game = load_game(GO9)
    state = game.new_state()
    state.apply("D4")
    lines = render_board(state.board, list(game.objects), presentation=game.presentation).splitlines()
    assert lines[0] == "  A B C D E F G H J"
    assert lines[6] == "4 + + + ● + + + + + 4"


def test_an_image_travels_to_the_web_page_as_a_data_url(tmp_path) -> None:
    (tmp_path / "pieces").mkdir()
    (tmp_path / "pieces" / "x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    game = game_of(tmp_path, "name: g\nplayers: 2\nsize: 3 x 3\nobj X\n"
                             'show {\n  X: image "pieces/x.svg" side 0;\n}\n'
                             "define isMoveLegal() -> bool { return true; }\n"
                             "define end() -> bool { return false; }\n")
    piece = game.presentation.to_json()["pieces"]["X"]
    assert piece == {"glyph": None, "side": 0,
                     "image": "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4="}


def test_labels_that_would_not_read_back_as_a_move_name_are_refused() -> None:
    from gdef_core.semantics.checker import check

    text = 'name: g\nplayers: 2\nsize: 2 x 2\nobj X\nshow {\n  rows: "1", "#2";\n  columns: "a b", "c";\n}\n'
    found = [(d.code, d.span.line + 1, d.span.column + 1, d.message) for d in check([parse(text).module]).diagnostics
             if d.code.startswith("G8")]
    assert found == [
        ("G804", 6, 14, "row name 2 ('#2') is empty or holds a space or one of ( ) , ; # @: square names are typed as moves"),
        ("G804", 7, 12, "column name 1 ('a b') is empty or holds a space or one of ( ) , ; # @: square names are typed "
                        "as moves"),
    ]


def test_two_captures_with_the_same_from_and_to_are_told_apart_by_what_they_take(tmp_path) -> None:
    game = game_of(tmp_path, "name: g\nplayers: 2\nsize: 3 x 2\nobj P\nobj E\n"
                             "start { (0,0: P), (1,0: E), (1,1: E) }\n"
                             'show {\n  columns: "abc";\n  rows: from 1;\n  P: "p" side 0;\n  E: "e" side 1;\n}\n'
                             "define moves() {\n"
                             "  addClear(0, 0); addClear(1, 0); addPlace(2, 0, P); addMove();\n"
                             "  addClear(0, 0); addClear(1, 1); addPlace(2, 0, P); addMove();\n"
                             "  addClear(0, 0); addPlace(0, 1, P); addMove();\n}\n"
                             "define isMoveLegal() -> bool { return isGenerated(); }\n"
                             "define end() -> bool { return true; }\n")
    state = game.new_state()
    assert state.move_names(state.legal_moves()) == ["a1c1xb1", "a1c1xb2", "a1a2"]
    assert state.check("a1c1").candidates == ("a1c1xb1", "a1c1xb2")


def test_a_name_that_moves_proposes_but_the_rules_refuse_is_judged_by_the_rules() -> None:
    state = load_game(CHESS).new_state()
    for name in ("e2e4", "f7f5", "d1h5"):   # Black is in check
        state.apply(name)
    verdict = state.check("a7a6")   # proposed by moves(), refused: the king stays in check
    assert verdict.kind is VerdictKind.REJECTED
    assert state.check("a7a5").kind is VerdictKind.REJECTED and state.check("g7g6").legal


def test_a_side_given_by_a_parameter_takes_the_first_labels_of_a_longer_list() -> None:
    """Go's 19 column letters serve every size; a fixed size still needs exactly W (G803)."""
    for size in (5, 13):
        game = load_game(GO9, params={"board_size": size})
        assert game.presentation.columns == tuple("ABCDEFGHJKLMNOPQRST"[:size])
    fixed = parse("players: 1\nsize: 3 x 3\nshow {\n  columns: \"abcd\";\n}\n", "fixed.gdef")
    found = [(d.code, d.span.line + 1) for d in check([fixed.module], fixed.diagnostics).diagnostics]
    assert ("G803", 4) in found
