"""gdef-run with computer players (--player N=AGENT, --seed S) and --perft DEPTH."""
from __future__ import annotations

import io
import json
import re

import pytest

from gdef_core import load_game
from gdef_core.cli.run import run

from support import EXAMPLES, ROOT

TICTACTOE = str(EXAMPLES / "tictactoe.gdef")
CONNECT4 = str(EXAMPLES / "connect4.gdef")
DATA = ROOT / "tests" / "data" / "play"


def gdef_run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(["--no-color", *argv], io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def test_perft_prints_the_counts_of_each_depth():
    code, out, err = gdef_run("--perft", "4", CONNECT4)
    assert code == 0
    assert out == "depth 1: 7\ndepth 2: 49\ndepth 3: 343\ndepth 4: 2401\n"
    assert err.startswith("perft 4: 2800 moves in ")


def test_perft_from_a_resumed_game(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({
        "game": "tictactoe", "files": [TICTACTOE], "players": 2,
        "moves": [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}, {"player": 1, "move": "place(0,0,O)", "name": "0,0"}],
        "rejected": [], "result": {"over": False, "winner": None}}))
    code, out, _ = gdef_run("--perft", "2", "--resume", str(record))
    assert code == 0
    assert out == "depth 1: 7\ndepth 2: 42\n"


def test_perft_reports_a_failing_moves_generator_with_its_location():
    code, out, err = gdef_run("--perft", "2", str(DATA / "moves_fail.gdef"))
    assert code == 1
    assert "moves_fail.gdef:17:14: error[G601]" in err
    assert "Traceback" not in err + out


def test_computers_play_a_whole_game_reproducibly():
    argv = ("--player", "0=random", "--player", "1=greedy", "--seed", "3", CONNECT4)
    code, out, err = gdef_run(*argv)
    assert code == 0, err
    assert out.startswith("Computer players: 0 = random, 1 = greedy (seed 3).\n")
    assert re.search(r"^1\. player 0 \(random\): [a-g] \(place\([0-6],0,X\)\)$", out, re.M)
    assert out.rstrip().endswith(("Player 0 wins: four in a row.", "Player 1 wins: four in a row.",
                                  "Draw: 7 x 6 squares: the board is full, a draw."))
    assert gdef_run(*argv)[1] == out
    assert gdef_run("--player", "0=random", "--player", "1=greedy", "--seed", "4", CONNECT4)[1] != out


def test_a_person_against_the_computer_and_undo():
    # The person (player 0) plays the centre, the computer answers; `undo` takes back both,
    # so the person is on turn again with an empty board.
    stdin = "place(1,1,X)\nundo\nplace(0,0,X)\nquit\n"
    code, out, _ = gdef_run("--player", "1=mcts:iterations=50", "--seed", "7", TICTACTOE, stdin=stdin)
    assert code == 3   # stopped before the end
    computer_lines = [line for line in out.splitlines() if "(mcts:iterations=50):" in line]
    assert len(computer_lines) == 2 and all(line.startswith("2. player 1") for line in computer_lines)
    assert "Took back the last move." in out
    after_undo = out.split("Took back the last move.")[1]
    assert after_undo.split("Player 0 to move")[0].count("X") == 0   # the board is empty again


def test_computer_replies_between_scripted_moves(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("place(3,0,X)\n")
    code, out, err = gdef_run("--moves", str(script), "--player", "1=random", "--seed", "1", CONNECT4)
    assert code == 3, err   # the script ran out before the end
    lines = [line for line in out.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert lines[0] == "1. player 0: d (place(3,0,X))"
    assert lines[1].startswith("2. player 1 (random): ") and "(place(" in lines[1]
    assert len(lines) == 2


@pytest.mark.parametrize("option, words", [
    ("2=random", "the game has 2 players, numbered 0 to 1"),
    ("1=deep-blue", "unknown agent 'deep-blue'"),
    ("1=mcts:iterations=x", "must be a positive integer"),
])
def test_bad_player_options(option, words):
    code, _, err = gdef_run("--player", option, TICTACTOE)
    assert code == 2
    assert words in err


def test_a_computer_without_a_legal_move_stops_the_game_with_the_record_kept(tmp_path):
    record = tmp_path / "stuck.json"
    code, out, err = gdef_run("--player", "0=random", "--player", "1=random", "--seed", "0",
                              "--record", str(record), str(DATA / "stuck.gdef"))
    assert code == 3
    assert "Player 1 (random): player 1 has no legal move after 1 moves" in err
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(0,0,X)", "name": "0,0"}]


def test_moves_with_none_legal_says_why():
    code, out, _ = gdef_run(str(DATA / "fails_every_move.gdef"), stdin="place(1,0,X)\nmoves\nquit\n")
    assert code == 3
    assert "No legal move.\nWhy: isMoveLegal() failed on 2 of its 4 candidates, the first `place(0,0,X)` at " in out
    assert "fails_every_move.gdef:19:12: error[G601]: division by zero (6 / 0)." in out
    code, out, _ = gdef_run(str(DATA / "stuck.gdef"), stdin="place(0,0,X)\nmoves\nquit\n")
    assert "No legal move.\nWhy: isMoveLegal() refused all 3 candidates.\n" in out


def test_a_person_left_without_a_legal_move_is_told_once_with_the_way_out():
    code, out, _ = gdef_run(str(DATA / "stuck.gdef"), stdin="place(0,0,X)\nplace(0,0,X)\nundo\nquit\n")
    warning = ("Player 1 has no legal move here (isMoveLegal() refused all 3 candidates), yet end() did not end "
               "the game: the rules should end it (or let the player pass). Type 'undo' to take back the last "
               "move, or 'quit'.\nPlayer 1 to move")
    assert out.count(warning) == 1   # not again after the refused move
    assert "Took back the last move." in out and "Player 0 to move" in out
    code, out, _ = gdef_run(str(DATA / "fails_every_move.gdef"), stdin="place(1,0,X)\nquit\n")
    assert ("Player 1 has no legal move here: isMoveLegal() failed on 2 of its 4 candidates, the first "
            "`place(0,0,X)` at ") in out
    assert "division by zero (6 / 0); a move whose isMoveLegal() fails is refused. Type 'undo'" in out
    code, out, _ = gdef_run(str(ROOT / "examples" / "tictactoe.gdef"), stdin="place(1,1,X)\nquit\n")
    assert "no legal move" not in out


def test_on_a_board_of_many_candidates_a_stuck_player_is_told_once_a_move_is_refused(monkeypatch):
    monkeypatch.setattr("gdef_core.cli.run.CHEAP_STUCK_CHECK", 0)   # stuck.gdef's one square counts as many
    code, out, _ = gdef_run(str(DATA / "stuck.gdef"), stdin="place(0,0,X)\nplace(0,0,X)\nquit\n")
    refused = out.index("Rejected: ")
    assert out.find("has no legal move here") > refused
    assert out.count("Player 1 has no legal move here (isMoveLegal() refused all 3 candidates)") == 1


@pytest.mark.parametrize("example", ["tictactoe.gdef", "connect4.gdef", "gomoku.gdef", "checkers.gdef",
                                     "reversi.gdef", "breakthrough.gdef"])
def test_a_person_can_play_every_example_against_mcts(example):
    path = str(EXAMPLES / example)
    first = load_game([path]).new_state().legal_moves()[0]
    code, out, err = gdef_run("--player", "1=mcts:iterations=20", "--seed", "5", path,
                              stdin=f"{first}\nquit\n")
    assert code == 3, err
    names = load_game([path]).presentation.players
    second = "player 1" if names[1] == "Player 1" else names[1]
    assert f"2. {second} (mcts:iterations=20): " in out
    assert out.rstrip().endswith(f"{'player 0' if names[0] == 'Player 0' else names[0]}> quit")
