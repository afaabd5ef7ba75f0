"""The board page in a real browser: Playwright drives Debian's Chromium against a real
`gdef-run --web` and reads what a person sees (status line, squares, messages).

Skipped, saying why, where Chromium or the playwright package is missing (scripts/bootstrap.sh
installs both); in CI that is a failure (tests/support.py).
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from support import EVENT_SECONDS
from web_support import BOOM, ROOT, TICTACTOE, playwright_or_skip

playwright_api, _ = playwright_or_skip()
expect = playwright_api.expect
WIN_FOR_X = [(0, 0), (1, 1), (1, 0), (2, 2), (2, 0)]  # X, O, X, O, X: X wins on the bottom row
# Why tic-tac-toe refuses a mark on a taken square (the line of examples/tictactoe.gdef).
TAKEN = "tictactoe.gdef:53: a mark goes on an empty square (return CurrentPosition[x][y] == empty;)"


def square(page, x: int, y: int):
    return page.locator(f'.sq[data-x="{x}"][data-y="{y}"]')


def test_a_full_game_of_tictactoe_by_clicks(open_board, tmp_path) -> None:
    record = tmp_path / "game.json"
    page, run = open_board(TICTACTOE, "--record", str(record))
    status = page.locator("#status")
    expect(status).to_have_text("Player 0 to move")
    expect(page.locator(".sq")).to_have_count(9)
    # row y = 0 is drawn at the bottom, as gdef-run prints it
    assert square(page, 0, 0).bounding_box()["y"] > square(page, 0, 2).bounding_box()["y"]
    for number, (x, y) in enumerate(WIN_FOR_X):
        square(page, x, y).click()
        mark = "X" if number % 2 == 0 else "O"
        expect(square(page, x, y)).to_have_attribute("data-object", mark)
        expect(square(page, x, y)).to_have_attribute("title", f"({x}, {y}): {mark}")
    expect(status).to_have_text("Player 0 wins: three in a row")
    expect(page.locator("#moves li")).to_have_count(5)
    expect(page.locator("#legal-count")).to_have_text("(0)")
    assert [m["move"] for m in json.loads(record.read_text())["moves"]] == [
        "place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)", "place(2,0,X)"]


def test_an_illegal_click_is_explained(open_board) -> None:
    page, run = open_board(TICTACTOE)
    square(page, 1, 1).click()
    expect(page.locator("#status")).to_have_text("Player 1 to move")
    square(page, 1, 1).click()
    message = page.locator("#message")
    expect(message).to_have_class("error")
    expect(message).to_have_text("No legal move of Player 1 touches (1, 1), which holds X: place(1,1,O) is illegal: "
                                 f"refused by {TAKEN}Debug this move")  # the button: see below
    expect(page.locator("#status")).to_have_text("Player 1 to move")
    # a move typed or composed with the tools goes to the rules as it is, and is recorded as rejected
    page.locator('.tool[data-tool="O"]').click()
    square(page, 1, 1).click()
    expect(page.locator("#move-text")).to_have_value("place(1,1,O)")
    page.locator("#play").click()
    expect(message).to_have_text(f"Rejected place(1,1,O): refused by {TAKEN}Debug this move")
    assert run.get("/api/state")[1]["rejected"] == 1


def test_the_keyboard_plays_too(open_board) -> None:
    page, _ = open_board(TICTACTOE)
    square(page, 0, 0).focus()
    for key in ("ArrowRight", "ArrowUp", "Enter"):  # to (1, 1), then play there
        page.keyboard.press(key)
    expect(square(page, 1, 1)).to_have_attribute("data-object", "X")
    expect(square(page, 1, 1)).to_have_attribute("aria-label", "(1, 1): X")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(square(page, 2, 1)).to_have_attribute("data-object", "O")


def test_a_run_time_error_shows_its_gdef_location(open_board, tmp_path) -> None:
    (tmp_path / "boom.gdef").write_text(BOOM)
    page, _ = open_board("boom.gdef", cwd=tmp_path)
    page.locator("#move-text").fill("place(1,0,X)")
    page.locator("#move-text").press("Enter")
    where = page.locator("#message .where")
    expect(where).to_contain_text("boom.gdef:8:12: error[G601]: division by zero (6 / 0)")
    lines = where.inner_text().split("\n")
    assert lines[1] == "8 |   return 6 / (x - 1) != 0 && CurrentPosition[x][OperationList[0][1]] == empty;"
    assert lines[2].index("^") == lines[1].index("/")


def test_a_player_without_a_legal_move_is_told_why_in_place_of_the_list(open_board) -> None:
    page, _ = open_board(str(ROOT / "tests" / "data" / "play" / "fails_every_move.gdef"))
    square(page, 1, 0).click()
    expect(square(page, 1, 0)).to_have_attribute("data-object", "X")
    failure = page.locator("#legal li.failure")
    expect(failure).to_contain_text("No legal move: isMoveLegal() failed on 2 of its 4 candidates, the first "
                                    "`place(0,0,X)` at ")
    expect(failure.locator(".where")).to_contain_text("fails_every_move.gdef:19:12: error[G601]: division by zero (6 / 0)")
    expect(page.locator("#legal-count")).to_have_text("(0)")
    page, _ = open_board(str(ROOT / "tests" / "data" / "play" / "stuck.gdef"))
    square(page, 0, 0).click()
    expect(page.locator("#legal li.failure")).to_have_text(
        "No legal move (isMoveLegal() refused all 3 candidates), yet end() did not end the game: the rules should "
        "end it (or let the player pass). Undo takes back the last move.")


def test_undo_and_a_new_game(open_board) -> None:
    page, _ = open_board(TICTACTOE)
    square(page, 0, 0).click()
    square(page, 2, 2).click()
    expect(page.locator("#moves li")).to_have_count(2)
    page.locator("#undo").click()
    expect(page.locator("#moves li")).to_have_count(1)
    expect(square(page, 2, 2)).not_to_have_attribute("data-object", "O")
    expect(square(page, 0, 0)).to_have_attribute("data-object", "X")
    expect(page.locator("#status")).to_have_text("Player 1 to move")
    expect(page.locator("#message")).to_have_text("Took back the last move.")
    page.locator("#new-game").click()
    expect(page.locator("#message")).to_contain_text("A new game. The game before is kept in /")
    expect(page.locator(".sq[data-object]")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Player 0 to move")


def test_a_game_against_random_chosen_on_the_page(open_board) -> None:
    page, run = open_board(TICTACTOE, "--seed", "5")
    page.locator("#agent-1").select_option("random")
    expect(page.locator("#message")).to_have_text("Player 1 is now played by the computer (random).")
    status = page.locator("#status")
    for _ in range(5):  # the computer answers by itself; wait for the person's turn or the end
        expect(status).to_have_text(re.compile(r"^(Player 0 to move|Player \d wins: .*|Draw: .*)$"), timeout=15_000)
        if status.inner_text() != "Player 0 to move":
            break
        played = page.locator("#moves li").count()
        page.locator(".sq.legal").first.click()
        expect(page.locator("#moves li")).not_to_have_count(played)
    state = run.get("/api/state")[1]
    assert state["over"] is True
    assert [m["player"] for m in state["moves"]] == [i % 2 for i in range(len(state["moves"]))]
    # the result, with the comment of the line of end() that decided
    final = ("Draw: the ninth move fills the board: a draw" if state["winner"] is None
             else f"Player {state['winner']} wins: three in a row")
    expect(status).to_have_text(final)


def test_resume_from_a_record(open_board, tmp_path) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({
        "game": "tictactoe", "files": [TICTACTOE], "players": 2, "rejected": [],
        "moves": [{"player": 0, "move": "place(0,0,X)"}, {"player": 1, "move": "place(1,1,O)"},
                  {"player": 0, "move": "place(1,0,X)"}, {"player": 1, "move": "place(2,2,O)"}]}))
    page, _ = open_board("--resume", str(record), "--record", str(record), "--y-down")
    expect(page.locator("#moves li")).to_have_count(4)
    assert square(page, 0, 0).bounding_box()["y"] < square(page, 0, 2).bounding_box()["y"]  # --y-down: y = 0 on top
    expect(square(page, 1, 1)).to_have_attribute("data-object", "O")
    expect(page.locator("#status")).to_have_text("Player 0 to move")
    square(page, 2, 0).click()
    expect(page.locator("#status")).to_have_text("Player 0 wins: three in a row")
    assert len(json.loads(record.read_text())["moves"]) == 5


def test_stepping_through_a_move_script(open_board, tmp_path) -> None:
    script = tmp_path / "win.moves"
    script.write_text("place(0,0,X)\nplace(0,0,O)   # taken\nplace(1,1,O)\n? turn 0\nplace(1,0,X)\n")
    page, _ = open_board(TICTACTOE)
    page.locator("#script-file").set_input_files(str(script))
    expect(page.locator("#script li")).to_have_count(5)
    forward = page.locator("#step-forward")
    forward.click()
    expect(square(page, 0, 0)).to_have_attribute("data-object", "X")
    forward.click()
    expect(page.locator("#message")).to_contain_text(f"Line 2: place(0,0,O) is rejected: refused by {TAKEN}")
    page.locator("#step-end").click()
    expect(square(page, 1, 0)).to_have_attribute("data-object", "X")
    expect(page.locator("#script li.passed")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(square(page, 1, 0)).not_to_have_attribute("data-object", "X")
    page.locator("#step-start").click()
    expect(page.locator(".sq[data-object]")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Player 0 to move")


def test_moves_after_a_scripts_move_header_are_numbered_as_move_number_counts(open_board, tmp_path) -> None:
    script = tmp_path / "late.moves"
    script.write_text("# from: empty\n# move: 4\nplace(0,0,X)\nplace(1,1,O)\n")
    page, _ = open_board(TICTACTOE)
    page.locator("#script-file").set_input_files(str(script))
    page.locator("#step-end").click()
    expect(page.locator("#moves li")).to_have_count(2)
    expect(page.locator("#moves")).to_have_attribute("start", "5")  # moves 5 and 6 of the game


def test_checkers_steps_and_a_capture_by_two_clicks_each(open_board) -> None:
    page, run = open_board("examples/checkers.gdef")
    square(page, 2, 2).click()
    expect(page.locator("#legal li")).to_have_text(["c3b4", "c3d4"])  # the names; the operations on hover
    expect(page.locator("#legal li").first).to_have_attribute("title", "clear(2,2); place(1,3,W)")
    expect(page.locator(".sq.candidate")).to_have_count(3)
    square(page, 3, 3).click()
    expect(square(page, 3, 3)).to_have_attribute("data-object", "W")
    expect(square(page, 2, 2)).not_to_have_attribute("data-object", "W")
    expect(page.locator("#status")).to_have_text("Black to move")  # the players' names
    square(page, 1, 5).click()
    square(page, 2, 4).click()
    expect(square(page, 2, 4)).to_have_attribute("data-object", "B")
    # White must capture: from (3, 3) over (2, 4) to (1, 5); the jumped square needs no click
    square(page, 3, 3).click()
    square(page, 1, 5).click()
    expect(square(page, 1, 5)).to_have_attribute("data-object", "W")
    expect(page.locator('.sq[data-object="B"]')).to_have_count(11)
    assert run.get("/api/state")[1]["moves"][-1] == {"player": 0, "move": "clear(3,3); clear(2,4); place(1,5,W)",
                                                     "name": "d4b6"}


def test_kalah_shows_its_seeds_and_a_click_on_a_pit_sows_it(open_board) -> None:
    """Squares that count: each count drawn on its cell (an empty pit shows none), and one
    click on a pit plays the sowing it starts."""
    page, run = open_board("examples/kalah.gdef")
    expect(square(page, 3, 0).locator(".count")).to_have_text("4")
    expect(page.locator(".sq .count")).to_have_count(12)
    expect(square(page, 3, 0)).to_have_attribute("title", "d1: empty, count 4")
    square(page, 3, 0).click()   # four seeds into e1, f1, g1 and the store h1: South again
    expect(square(page, 7, 0).locator(".count")).to_have_text("1")
    expect(square(page, 4, 0).locator(".count")).to_have_text("5")
    expect(square(page, 3, 0).locator(".count")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("South to move")
    assert run.get("/api/state")[1]["moves"] == [
        {"player": 0, "move": "count(3,0,0); count(4,0,5); count(5,0,5); count(6,0,5); count(7,0,1)", "name": "d1"}]


def test_a_100_by_100_board_is_drawn_and_played(open_board, tmp_path) -> None:
    (tmp_path / "big.gdef").write_text("name: big\nplayers: 2\nsize: 100 x 100\nobj S\n\n"
                                       "define isMoveLegal() -> bool {\n"
                                       "  return operationsNum() == 1\n"
                                       "      && CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty;\n}\n\n"
                                       "define end() -> bool { return moveNumber() == 10; }\n")
    page, run = open_board("big.gdef", cwd=tmp_path)
    expect(page.locator(".sq")).to_have_count(10_000)
    expect(page.locator("#legal-count")).to_have_text("(10000)")  # S on any empty square
    square(page, 99, 99).scroll_into_view_if_needed()
    square(page, 99, 99).click()
    expect(square(page, 99, 99)).to_have_attribute("data-object", "S")
    assert run.get("/api/state")[1]["moves"] == [{"player": 0, "move": "place(99,99,S)", "name": "99,99"}]


# ------------------------------------------------------------------ chess and Go as players know them

CHESS = "examples/chess/chess.gdef"
GO9 = "examples/go/go9.gdef"


def piece(page, x: int, y: int):
    return square(page, x, y).locator(".piece")


def drag(page, start, end) -> None:
    """A piece dragged with the mouse from one square to another, in small steps."""
    first, second = square(page, *start).bounding_box(), square(page, *end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(second["x"] + second["width"] / 2, second["y"] + second["height"] / 2, steps=8)
    page.mouse.up()


def test_chess_pieces_are_glyphs_coloured_by_side(open_board) -> None:
    page, _ = open_board(CHESS)
    expect(page.locator("#status")).to_have_text("White to move")
    expect(square(page, 4, 0)).to_have_attribute("title", "e1: WK")
    # ♔ and ♚ are both drawn solid, filled with their side's colour (white, black)
    expect(piece(page, 4, 0)).to_have_class("piece glyph side-white")
    expect(piece(page, 4, 7)).to_have_class("piece glyph side-black")
    assert piece(page, 4, 0).inner_text().startswith("♚") and piece(page, 4, 7).inner_text().startswith("♚")
    colour = "element => getComputedStyle(element).color"
    assert piece(page, 3, 0).evaluate(colour) == "rgb(255, 255, 255)"
    assert piece(page, 3, 7).evaluate(colour) == "rgb(17, 17, 17)"
    labels = page.locator("#board .label").all_inner_texts()
    assert labels[1:9] == list("abcdefgh") and "1" in labels and "8" in labels
    # the Position panel shows the game's state, never its constant tables
    position = page.locator("#position").inner_text()
    assert "castle" in position and "knightDx" not in position and "lineDy" not in position


def test_chess_moves_by_clicks_and_by_dragging(open_board) -> None:
    page, run = open_board(CHESS)
    square(page, 4, 1).click()   # e2: its targets are marked
    expect(page.locator(".sq.target")).to_have_count(2)
    square(page, 4, 3).click()   # e4
    expect(page.locator("#moves li")).to_have_text(["White: e2e4"])
    expect(page.locator("#message")).to_have_text("White played e2e4.")
    expect(page.locator(".sq.last")).to_have_count(2)
    drag(page, (4, 6), (4, 4))  # e7 to e5, by dragging
    expect(page.locator("#moves li")).to_have_text(["White: e2e4", "Black: e7e5"])
    expect(square(page, 4, 4)).to_have_attribute("data-object", "BP")
    for move in ("g1f3", "b8c6", "f1c4", "g8f6"):
        assert run.post("/api/move", {"move": move})[1]["accepted"]
    page.reload()
    expect(page.locator("#moves li")).to_have_count(6)
    # castling: the king moves two squares, the rook follows
    square(page, 4, 0).click()
    square(page, 6, 0).click()
    expect(page.locator("#moves li").last).to_have_text("White: e1g1")
    expect(square(page, 5, 0)).to_have_attribute("data-object", "WR")
    expect(square(page, 6, 0)).to_have_attribute("data-object", "WK")


def test_a_promotion_asks_for_the_piece(open_board, tmp_path) -> None:
    rules = (Path(CHESS).resolve().parent / "rules.gdef").resolve()
    (tmp_path / "promote.gdef").write_text(
        f'name: promote\nplayers: 2\nsize: 8 x 8\nuse "{rules}"\n'
        "start { (4,0: WK), (7,7: BK), (0,6: WP) }\n")
    page, _ = open_board(str(tmp_path / "promote.gdef"))
    square(page, 0, 6).click()
    square(page, 0, 7).click()
    chooser = page.locator("#chooser")
    expect(chooser).to_be_visible()
    expect(chooser.locator(".choice")).to_have_count(4)
    expect(chooser.locator(".choice .piece.side-white")).to_have_count(4)
    chooser.locator('.choice[title*="WN"]').click()
    expect(chooser).to_be_hidden()
    expect(square(page, 0, 7)).to_have_attribute("data-object", "WN")
    expect(page.locator("#moves li")).to_have_text(["White: a7a8n"])


def test_go_stones_on_intersections_a_capture_passes_and_the_score(open_board) -> None:
    page, _ = open_board(GO9)
    expect(page.locator("#board")).to_have_class(re.compile("board-intersections"))
    expect(page.locator(".sq.star")).to_have_count(5)
    expect(square(page, 2, 2)).to_have_class(re.compile(r"\bstar\b"))
    for x, y in [(1, 0), (0, 0), (0, 1)]:  # Black, White, Black: the last one takes the white stone
        square(page, x, y).click()
    expect(piece(page, 0, 1)).to_have_class("piece stone side-black")
    expect(square(page, 0, 0)).not_to_have_attribute("data-object", re.compile("."))
    expect(page.locator("#facts-0")).to_have_text("captures 1")
    expect(page.locator("#moves li").last).to_have_text("Black: A2")
    page.locator("#pass").click()
    page.locator("#pass").click()
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(page.locator("#banner-result")).to_have_text("Black wins: two passes in a row")
    expect(page.locator("#banner-scores")).to_have_text("Black 81 · White 7.5")
    page.locator("#banner-close").click()
    expect(banner).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Black wins: two passes in a row")


def test_a_refused_move_names_its_rule_on_the_page(open_board) -> None:
    page, _ = open_board(CHESS)
    page.locator("#move-text").fill("clear(3,0); place(3,2,WQ)")
    page.locator("#play").click()
    expect(page.locator("#message")).to_have_text(re.compile(
        r"^Rejected clear\(3,0\); place\(3,2,WQ\): refused by rules\.gdef:\d+: a piece stands between \(if "))


def test_flip_the_board_and_a_phone_sized_screen(open_board, browser) -> None:
    page, run = open_board(CHESS)
    assert square(page, 0, 0).bounding_box()["y"] > square(page, 0, 7).bounding_box()["y"]
    page.locator("#flip").click()
    expect(page.locator("#flip")).to_have_class(re.compile(r"\bon\b"))
    a1, h8 = square(page, 0, 0).bounding_box(), square(page, 7, 7).bounding_box()
    assert a1["y"] < h8["y"] and a1["x"] > h8["x"]  # Black's view: a1 top right
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        phone.goto(run.url)
        expect(phone.locator("#status")).to_have_text("White to move")
        board = phone.locator("#board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 390
        assert phone.locator("aside").bounding_box()["y"] > board["y"] + board["height"] - 1
        square(phone, 4, 1).tap()
        square(phone, 4, 3).tap()
        expect(phone.locator("#moves li")).to_have_text(["White: e2e4"])
    finally:
        phone.close()


HEX = """\
name: hex
players: 2
size: 5 x 5
obj R
obj Bl

show {
  style: hex;
  columns: "abcde";
  rows: from 1;
  sides: "Red", "Blue";
  R: "●" side 0;
  Bl: "●" side 1;
}

define isMoveLegal() -> bool {
  return operationsNum() == 1 && CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty;
}

define end() -> bool { return moveNumber() == 6; }
"""


def test_hexagonal_cells_each_row_half_a_cell_further(open_board, tmp_path) -> None:
    (tmp_path / "hex.gdef").write_text(HEX)
    page, _ = open_board(str(tmp_path / "hex.gdef"))
    expect(page.locator("#board")).to_have_class(re.compile("board-hex"))
    top, bottom = square(page, 0, 4).bounding_box(), square(page, 0, 0).bounding_box()
    # rows nest into each other (three quarters of a cell apart), each half a cell further right
    assert abs((bottom["y"] - top["y"]) / 4 - top["height"] * 0.75) < 1.5
    assert abs((bottom["x"] - top["x"]) / 4 - top["width"] / 2) < 1.5
    square(page, 2, 2).click()  # the rules let either stone go there: the page asks which
    expect(page.locator("#chooser .choice")).to_have_count(2)
    page.locator('#chooser .choice[title="place(2,2,R)"]').click()
    expect(piece(page, 2, 2)).to_have_class("piece stone side-0")
    expect(page.locator("#moves li")).to_have_text(["Red: R@c3"])


def test_a_refused_move_offers_debug_this_move(open_board) -> None:
    page, run = open_board(TICTACTOE)
    square(page, 1, 1).click()
    expect(page.locator("#moves li")).to_have_count(1)   # played (which empties the move box) before typing
    message = page.locator("#message")
    page.locator("#move-text").fill("place(1,1")   # not a move: the rules never judged it
    page.locator("#play").click()
    expect(message).to_have_text(re.compile(r"^Rejected place\(1,1: not a move"))
    expect(page.locator("#debug-move")).to_have_count(0)
    page.locator("#move-text").fill("place(1,1,O)")
    page.locator("#play").click()
    expect(message).to_have_text(re.compile(r"^Rejected place\(1,1,O\): refused by .*Debug this move$"))
    page.locator("#debug-move").click()
    launch = json.loads(page.locator("#debug-launch pre").text_content())
    assert launch == {"type": "gdef", "request": "launch", "name": "Debug move 2: place(1,1,O)",
                      "program": str(Path(TICTACTOE).resolve()), "resume": launch["resume"],
                      "debugMove": "place(1,1,O)"}
    expect(page.locator("#debug-launch p")).to_contain_text(f"The game so far is saved in {launch['resume']}.")
    record = json.loads(Path(launch["resume"]).read_text())
    assert [entry["move"] for entry in record["moves"]] == ["place(1,1,X)"]
    assert run.get("/api/state")[1]["moves"][0]["move"] == "place(1,1,X)"  # nothing was played


def test_a_new_game_with_another_parameter_value(open_board) -> None:
    page, _ = open_board(str(ROOT / "examples" / "hex.gdef"))
    expect(page.locator(".sq")).to_have_count(121)
    size = page.locator('#params input[data-param="board_size"]')
    expect(size).to_have_value("11")
    assert (size.get_attribute("min"), size.get_attribute("max")) == ("1", "25")
    size.fill("5")
    page.locator("#new-game").click()
    expect(page.locator(".sq")).to_have_count(25)
    expect(page.locator("#message")).to_contain_text("A new game")
    square(page, 4, 4).click()
    expect(square(page, 4, 4)).to_have_attribute("data-object", "B")
    size.fill("30")
    page.locator("#new-game").click()
    expect(page.locator("#message")).to_contain_text("parameter 'board_size' cannot be 30: it takes 1 to 25")
    expect(page.locator(".sq")).to_have_count(25)


def test_move_now_makes_a_thinking_computer_play_its_best_move(open_board) -> None:
    """While mcts thinks (ten minutes a move), *Move now* shows; pressed, the computer plays the
    best move it has found, long before its budget is spent."""
    page, run = open_board(TICTACTOE, "--player", "1=mcts:time=600", "--seed", "3")
    expect(page.locator("#move-now")).to_be_hidden()
    square(page, 1, 1).click()
    expect(page.locator("#move-now")).to_be_visible(timeout=10_000)
    status, during = run.get("/api/state")  # answered while it thinks: the position it thinks about
    assert status == 200 and [m["move"] for m in during["moves"]] == ["place(1,1,X)"]
    page.locator("#move-now").click()
    expect(page.locator("#moves li")).to_have_count(2, timeout=30_000)
    expect(page.locator("#move-now")).to_be_hidden()
    expect(page.locator("#status")).to_have_text("Player 0 to move")
    expect(page.locator("#message")).to_have_text(re.compile(r"^Player 1 \(mcts:time=600(\.0)?\) played "))
    moves = run.get("/api/state")[1]["moves"]
    assert [(m["player"], m["move"]) for m in moves][0] == (0, "place(1,1,X)") and moves[1]["player"] == 1


# Marks on the page when the answer to a *Move now* has been read (the page's code runs on in
# the same microtasks, so a test that waits for the mark sees what the page made of the answer).
MARK_MOVE_NOW_ANSWERS = """() => {
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const moveNow = this.url.includes('/api/move-now');
    return json.call(this).then((data) => { if (moveNow) window.moveNowAnswered = true; return data; });
  };
}"""


def test_a_move_now_answered_after_the_move_leaves_the_move_said(open_board) -> None:
    """*Move now* and the computer's move are two requests at once: the answer to the first may
    reach the page after the move it brought. The page then goes on saying what was played,
    not "Asked ... to play"."""
    page, run = open_board(TICTACTOE, "--player", "1=mcts:time=600", "--seed", "3")
    page.evaluate(MARK_MOVE_NOW_ANSWERS)

    def answer_after_the_move(route) -> None:
        answer = route.fetch()  # the server has been asked: the computer plays at once
        for _ in range(int(EVENT_SECONDS * 10)):
            if len(run.get("/api/state")[1]["moves"]) == 2:
                break
            time.sleep(0.1)
        route.fulfill(response=answer)

    page.route("**/api/move-now", answer_after_the_move)
    square(page, 1, 1).click()
    wait_until_thinking(run)
    page.locator("#move-now").click()
    page.wait_for_function("() => window.moveNowAnswered === true", timeout=EVENT_SECONDS * 1000)
    expect(page.locator("#moves li")).to_have_count(2)
    expect(page.locator("#message")).to_have_text(re.compile(r"^Player 1 \(mcts:time=600(\.0)?\) played "))


def wait_until_thinking(run) -> None:
    """Until the server has started the computer's search (its other requests get 409)."""
    for _ in range(300):
        if run.get("/api/legal")[0] == 409:
            return
        time.sleep(0.1)
    raise AssertionError("the computer never started thinking")


def test_a_page_opened_while_the_computer_thinks_shows_move_now(open_board, browser) -> None:
    """A second tab (or a reload) opened during the computer's search shows the position it
    thinks about with *Move now*; pressed there, the computer plays, and both pages show it."""
    first, run = open_board(TICTACTOE, "--player", "1=mcts:time=600", "--seed", "3")
    square(first, 1, 1).click()
    wait_until_thinking(run)
    second = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    try:
        second.goto(run.url)
        expect(second.locator("#move-now")).to_be_visible(timeout=10_000)
        expect(second.locator("#status")).to_have_text(re.compile(r"^Player 1 \(mcts:time=600(\.0)?\) to move…$"))
        expect(square(second, 1, 1)).to_have_attribute("data-object", "X")
        assert re.fullmatch(r"player 1 \(mcts:time=600(\.0)?\)", run.get("/api/state")[1]["thinking"])
        second.locator("#move-now").click()
        for page in (second, first):
            expect(page.locator("#moves li")).to_have_count(2, timeout=30_000)
            expect(page.locator("#move-now")).to_be_hidden()
            expect(page.locator("#status")).to_have_text("Player 0 to move")
        expect(second.locator("#legal li")).to_have_count(7)   # the legal moves came after the move
        assert run.get("/api/state")[1]["thinking"] is None
    finally:
        second.close()
    assert errors == [], f"the second page raised: {errors}"


def test_undo_while_the_computer_thinks_stops_it_and_takes_back(open_board) -> None:
    """Undo during the computer's search stops it without playing and takes back the move it
    was answering, as chess programs do; the game goes on normally afterwards."""
    page, run = open_board(TICTACTOE, "--player", "1=mcts:time=600", "--seed", "3")
    square(page, 0, 0).click()
    expect(page.locator("#move-now")).to_be_visible(timeout=10_000)
    wait_until_thinking(run)
    page.locator("#undo").click()
    expect(page.locator("#message")).to_have_text("Stopped the computer's search. Took back the last move.",
                                                  timeout=30_000)
    expect(page.locator("#move-now")).to_be_hidden()
    expect(page.locator(".sq[data-object]")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Player 0 to move")
    assert run.get("/api/state")[1]["moves"] == []
    square(page, 2, 2).click()  # and the next move is answered as usual
    expect(page.locator("#move-now")).to_be_visible(timeout=10_000)
    page.locator("#move-now").click()
    expect(page.locator("#moves li")).to_have_count(2, timeout=30_000)
    assert run.get("/api/state")[1]["moves"][0]["move"] == "place(2,2,X)"


@pytest.mark.parametrize("viewport", [(1100, 820), (1200, 800), (800, 700)])  # (1100, 820): the gallery's
def test_the_whole_hex_rhombus_fits_the_board_area(open_board, viewport) -> None:
    """Each row of a hex board stands half a cell further right than the one below: the cell
    size leaves room for that slant, so no hexagon of the 11 x 11 rhombus is cut off."""
    page, _ = open_board(str(ROOT / "examples" / "hex.gdef"))
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    page.reload()
    expect(page.locator(".sq")).to_have_count(121)
    wrap, boxes = page.evaluate("""() => {
        const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return [box(document.getElementById("board-wrap")), [...document.querySelectorAll(".sq")].map(box)];
    }""")
    outside = [b for b in boxes if b[0] < wrap[0] - 0.5 or b[2] > wrap[2] + 0.5 or b[1] < wrap[1] - 0.5
               or b[3] > wrap[3] + 0.5]
    assert outside == [], f"{len(outside)} cells stand outside the board area {wrap}"
