"""The board page in a real browser: Playwright drives Debian's Chromium against a real
`gdef-run --web` and reads what a person sees (status line, squares, messages).

Skipped, saying why, where Chromium or the playwright package is missing (scripts/bootstrap.sh
installs both); GDEF_REQUIRE_BROWSER=1 turns the skip into a failure, as CI wants.
"""
from __future__ import annotations

import json
import os
import re

import pytest

from web_support import BOOM, TICTACTOE, WebRun, chromium_path

REQUIRED = bool(os.environ.get("GDEF_REQUIRE_BROWSER"))
CHROMIUM = chromium_path()
try:
    import playwright.sync_api as playwright_api
except ImportError:
    if REQUIRED:
        raise
    pytest.skip("the playwright package is not installed (pip install -e '.[dev]')", allow_module_level=True)
if CHROMIUM is None:
    if REQUIRED:
        raise RuntimeError("GDEF_REQUIRE_BROWSER is set but Chromium is missing: apt-get install chromium")
    pytest.skip("Chromium is not installed (apt-get install chromium, or set GDEF_CHROMIUM)", allow_module_level=True)

expect = playwright_api.expect
WIN_FOR_X = [(0, 0), (1, 1), (1, 0), (2, 2), (2, 0)]  # X, O, X, O, X: X wins on the bottom row


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def open_board(browser):
    """open_board(*gdef-run arguments) -> (the page, the running server)."""
    opened = []

    def open_(*args: str, **options):
        run = WebRun(*args, **options)
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        opened.append((run, page, errors))
        page.goto(run.url)
        expect(page.locator("#status")).not_to_have_text("Loading…")
        return page, run

    yield open_
    for run, page, errors in opened:
        page.close()
        run.close()
        assert errors == [], f"the page raised: {errors}"


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
    expect(status).to_have_text("Player 0 wins")
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
    expect(message).to_have_text("No legal move of player 1 touches (1, 1), which holds X: place(1,1,O) is illegal: "
                                 "the rules do not allow this move (isMoveLegal() returned false)")
    expect(page.locator("#status")).to_have_text("Player 1 to move")
    # a move typed or composed with the tools goes to the rules as it is, and is recorded as rejected
    page.locator('.tool[data-tool="O"]').click()
    square(page, 1, 1).click()
    expect(page.locator("#move-text")).to_have_value("place(1,1,O)")
    page.locator("#play").click()
    expect(message).to_have_text("Rejected place(1,1,O): the rules do not allow this move (isMoveLegal() returned false)")
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
        expect(status).to_have_text(re.compile(r"^(Player 0 to move|Player \d wins|Draw)$"), timeout=15_000)
        if status.inner_text() != "Player 0 to move":
            break
        played = page.locator("#moves li").count()
        page.locator(".sq.legal").first.click()
        expect(page.locator("#moves li")).not_to_have_count(played)
    state = run.get("/api/state")[1]
    assert state["over"] is True
    assert [m["player"] for m in state["moves"]] == [i % 2 for i in range(len(state["moves"]))]
    final = "Draw" if state["winner"] is None else f"Player {state['winner']} wins"
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
    expect(page.locator("#status")).to_have_text("Player 0 wins")
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
    expect(page.locator("#message")).to_contain_text("Line 2: place(0,0,O) is rejected: the rules do not allow")
    page.locator("#step-end").click()
    expect(square(page, 1, 0)).to_have_attribute("data-object", "X")
    expect(page.locator("#script li.passed")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(square(page, 1, 0)).not_to_have_attribute("data-object", "X")
    page.locator("#step-start").click()
    expect(page.locator(".sq[data-object]")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Player 0 to move")


def test_checkers_steps_and_a_capture_by_two_clicks_each(open_board) -> None:
    page, run = open_board("examples/checkers.gdef")
    square(page, 2, 2).click()
    expect(page.locator("#legal li")).to_have_text(["clear(2,2); place(1,3,W)", "clear(2,2); place(3,3,W)"])
    expect(page.locator(".sq.candidate")).to_have_count(3)
    square(page, 3, 3).click()
    expect(square(page, 3, 3)).to_have_attribute("data-object", "W")
    expect(square(page, 2, 2)).not_to_have_attribute("data-object", "W")
    expect(page.locator("#status")).to_have_text("Player 1 to move")
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
