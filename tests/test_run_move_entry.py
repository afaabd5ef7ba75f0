"""gdef-run's move entry for people: `moves` (numbered legal moves, optionally those touching a
square), a number to play one, and `hint` (a short mcts search)."""
from __future__ import annotations

import io
import json
from pathlib import Path

from gdef_core.cli.move_entry import format_listing, hint_budget, listing, parse_square
from gdef_core.cli.run import run

from support import ROOT

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
CHESS = str(ROOT / "examples" / "chess" / "chess.gdef")


def play(*argv: str, stdin: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), io.StringIO(stdin), out, err)
    return code, out.getvalue() + err.getvalue()


def recorded(path) -> list[str]:
    return [entry["move"] for entry in json.loads(Path(path).read_text())["moves"]]


def test_moves_lists_the_legal_moves_numbered_in_the_games_order(tmp_path):
    code, out = play(CHESS, "--record", str(tmp_path / "r.json"), stdin="moves\nquit\n")
    assert " 1. a2a3" in out
    assert "12. e2e4" in out
    assert "20. h2h4" in out
    assert "20 legal moves; type a number to play that move." in out


def test_a_number_plays_that_move_and_the_record_holds_its_text(tmp_path):
    record = tmp_path / "r.json"
    code, out = play(CHESS, "--record", str(record), stdin="12\nquit\n")
    assert "Move 12: e2e4" in out
    assert recorded(record) == ["clear(4,1); place(4,3,WP)"]


def test_moves_of_one_square_keep_their_numbers(tmp_path):
    code, out = play(CHESS, "--record", str(tmp_path / "r.json"), stdin="moves 6,0\nmoves e2\nquit\n")
    assert "15. g1h3   16. g1f3" in out
    assert "11. e2e3   12. e2e4" in out
    assert "2 of 20 legal moves" in out


def test_bad_numbers_squares_and_budgets_are_explained(tmp_path):
    code, out = play(TICTACTOE, "--record", str(tmp_path / "r.json"),
                     stdin="0\n10\nmoves 1\nmoves 7,7\nhint soon\nhint 1000\nquit\n")
    assert "There is no move 0: 9 legal moves here. Type 'moves' to list them." in out
    assert "There is no move 10: 9 legal moves here." in out
    assert "'1' is not a square: write 'moves' or, say, 'moves 1,1'." in out
    assert "No legal move touches square 7,7 (9 legal moves in all; 'moves' lists them)." in out
    assert "'soon' is not a number of seconds" in out
    assert "Give hint between 0 and 60 seconds" in out
    assert recorded(tmp_path / "r.json") == []


def test_a_whole_game_by_numbers(tmp_path):
    # The automatic candidates are the empty squares column by column, (0,0) (0,1) (0,2) (1,0)
    # ..., so the numbers shift as squares fill. X takes the bottom row.
    code, out = play(TICTACTOE, "--record", str(tmp_path / "r.json"), stdin="1\n1\n2\n2\n3\n")
    assert code == 0
    assert recorded(tmp_path / "r.json") == [
        "place(0,0,X)", "place(0,1,O)", "place(1,0,X)", "place(1,1,O)", "place(2,0,X)"]
    assert "Player 0 wins" in out


def test_hint_names_a_legal_move_by_its_number(tmp_path):
    code, out = play(TICTACTOE, "--record", str(tmp_path / "r.json"), "--seed", "3",
                     stdin="place(0,0,X)\nplace(1,1,O)\nplace(1,0,X)\nhint 0.3\nquit\n")
    # O must block the bottom row at (2,0), the 4th of the empty squares (0,1) (0,2) (1,2) (2,0) ...
    assert "Hint: 2,0  (move 4 of 6; type 4 to play it; mcts," in out


def test_listing_lays_out_columns_and_filters_by_square():
    legal = [((x, 0, "X", True),) for x in range(12)]
    names = [f"place({x},0,X)" for x in range(12)]
    lines = format_listing(listing(legal), names, width=40).splitlines()
    assert lines[0] == " 1. place(0,0,X)     7. place(6,0,X)"
    assert lines[5] == " 6. place(5,0,X)    12. place(11,0,X)"
    assert lines[6] == "12 legal moves; type a number to play that move."
    assert listing(legal, (3, 0)).shown == [(4, legal[3])]


def test_a_long_listing_shows_its_first_moves_and_says_how_to_reach_the_others():
    legal = [((x, y, "X", True),) for x in range(1000) for y in range(1000)]
    found = listing(legal, limit=3)
    assert found.shown == [(1, legal[0]), (2, legal[1]), (3, legal[2])] and found.count == 1_000_000
    lines = format_listing(found, ["a", "b", "c"], width=100).splitlines()
    assert lines == ["      1. a         2. b         3. c",
                     "1,000,000 legal moves; showing the first 3. Type a number to play that move (any number "
                     "up to 1,000,000), or 'moves SQUARE' (3,1 or e2) for those touching a square."]
    found = listing(legal, (7, 5), limit=1)
    assert found.shown == [(7006, legal[7005])] and found.matched == 1
    assert parse_square("3, 0") == (3, 0) and parse_square("(3,0)") == (3, 0) and parse_square("x") is None
    assert hint_budget("") is None and hint_budget("2.5") == 2.5 and isinstance(hint_budget("0"), str)
