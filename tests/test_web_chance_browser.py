"""The board page at chance nodes in a real browser (Playwright and Debian's Chromium against a
real `gdef-run --web`): a person rolls with the Roll button and sees the roll on the board, in
the status line and in the list of moves; the computer rolls for its own players.

Skipped, saying why, where Chromium or the playwright package is missing."""
from __future__ import annotations

import re

from support import ROOT
from web_support import playwright_or_skip

playwright_api, _ = playwright_or_skip()
expect = playwright_api.expect
DICE_RACE = str(ROOT / "tests" / "data" / "play" / "dice_race.gdef")
ROLLED = re.compile(r"^rolled: D[123]$")


def test_a_person_rolls_and_sees_the_roll(open_board) -> None:
    page, run = open_board(DICE_RACE, "--seed", "3")
    status, roll = page.locator("#status"), page.locator("#roll")
    expect(status).to_have_text("Player 0 to roll")
    expect(roll).to_be_visible()
    expect(roll).to_be_enabled()
    # the outcomes are the legal moves, each with its chance
    expect(page.locator("#legal li")).to_have_text(["D1 (1/6)", "D2 (2/6)", "D3 (3/6)"])
    roll.click()
    expect(page.locator("#moves li")).to_have_count(1)
    first = page.locator("#moves li").first
    expect(first).to_have_text(ROLLED)
    name = first.inner_text().removeprefix("rolled: ")
    expect(page.locator("#message")).to_have_text(f"Rolled {name}.")
    die = page.locator('.sq[data-x="7"][data-y="2"]')
    expect(die).to_have_attribute("data-object", name)   # the board shows the die
    expect(status).to_have_text(f"Player 0 to move · rolled {name}")
    expect(roll).to_be_hidden()
    assert run.get("/api/state")[1]["moves"][0] == {"player": 0, "move": f"place(7,2,{name})", "name": name,
                                                    "chance": True}
    # player 0 moves (the first legal move); then it is player 1's roll
    page.locator("#legal li").first.click()
    expect(page.locator("#moves li")).to_have_count(2)
    expect(status).to_have_text("Player 1 to roll")
    expect(roll).to_be_enabled()


def test_the_computer_rolls_for_its_player(open_board) -> None:
    page, run = open_board(DICE_RACE, "--seed", "4", "--player", "1=random")
    status = page.locator("#status")
    page.locator("#roll").click()
    expect(page.locator("#moves li")).to_have_count(1)
    page.locator("#legal li").first.click()
    # the computer rolls for player 1 and moves; then player 0 rolls again
    expect(status).to_have_text(re.compile(r"^(Player 0 to roll|Player \d wins)"), timeout=15_000)
    moves = page.locator("#moves li")
    expect(moves.nth(2)).to_have_text(ROLLED)
    expect(moves.nth(3)).to_have_text(re.compile(r"^Player 1: "))
    expect(moves.nth(2)).to_have_class(re.compile(r"\bchance\b"))
