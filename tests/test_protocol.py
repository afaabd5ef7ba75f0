"""The bot protocol end to end: `gdef-run --protocol` driven from a real subprocess over pipes,
and programs that speak it as players (`--player N=cmd:"..."`)."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT, ctrl_c_as_at_a_terminal

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
FIRST_LEGAL = str(ROOT / "examples" / "bots" / "first_legal.py")
GDEF_RUN = str(Path(sys.executable).with_name("gdef-run"))


class Engine:
    """`gdef-run --protocol` in a child process: one request line in, one answer line out."""

    def __init__(self, *argv: str) -> None:
        # A shell without job control starts background jobs with SIGINT ignored, and the child
        # would inherit that: Ctrl-C is made to work as at a terminal.
        self.process = subprocess.Popen([GDEF_RUN, "--protocol", *argv], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=ctrl_c_as_at_a_terminal)
        self.hello = self.read()

    def read(self) -> dict:
        line = self.process.stdout.readline()
        assert line, f"no answer; stderr: {self.process.stderr.read()}"
        return json.loads(line)

    def send_line(self, line: str) -> dict:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.read()

    def ask(self, **request) -> dict:
        return self.send_line(json.dumps(request))

    def close(self) -> tuple[int, str]:
        self.process.stdin.close()
        code = self.process.wait(timeout=30)
        return code, self.process.stderr.read()


@pytest.fixture
def engine():
    started = Engine(TICTACTOE, "--seed", "1")
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


def test_hello_names_the_protocol_and_the_game(engine):
    assert engine.hello["protocol"] == "gdef"
    assert engine.hello["version"] == 1
    assert engine.hello["game"] == {"name": "tictactoe", "players": 2, "width": 3, "height": 3,
                                    "objects": ["X", "O"], "variables": [], "params": [], "chance": False}
    assert set(engine.hello["commands"]) == {"new", "state", "info", "set", "legal", "play", "roll", "undo",
                                             "go", "result", "help", "quit"}
    assert engine.ask(cmd="info") == {"ok": True, "game": engine.hello["game"]}


def test_a_whole_game_played_over_the_protocol(engine):
    start = engine.ask(id=1, cmd="state")
    assert start == {"id": 1, "ok": True, "state": {
        "game": "tictactoe", "width": 3, "height": 3, "player": 0, "move_number": 0, "over": False,
        "winner": None, "vars": {}, "board": [], "scores": [0, 0], "chance": False}}
    legal = engine.ask(cmd="legal")["moves"]
    assert legal == [f"place({x},{y},X)" for x in range(3) for y in range(3)]
    for move in ["place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)"]:
        answer = engine.ask(cmd="play", move=move)
        assert answer["ok"] is True and answer["move"] == move
    assert engine.ask(cmd="result") == {"ok": True, "over": False, "winner": None, "scores": [0, 0]}
    final = engine.ask(cmd="play", move="place(2,0,X)")
    assert final["state"]["over"] is True and final["state"]["winner"] == 0
    assert engine.ask(cmd="result") == {"ok": True, "over": True, "winner": 0, "scores": [0, 0]}
    assert engine.ask(cmd="go")["error"]["kind"] == "game over"
    assert engine.ask(id="bye", cmd="quit") == {"id": "bye", "ok": True}
    code, stderr = engine.close()
    assert (code, stderr) == (0, "")


def test_illegal_moves_and_bad_requests_are_answered_as_json(engine):
    engine.ask(cmd="play", move="place(1,1,X)")
    taken = engine.ask(id=7, cmd="play", move="place(1,1,O)")
    assert taken["id"] == 7 and taken["ok"] is False
    assert taken["error"]["kind"] == "rejected"
    assert taken["error"]["message"] == ("refused by tictactoe.gdef:53: a mark goes on an empty square "
                                         "(return CurrentPosition[x][y] == empty;)")
    assert taken["error"]["rule"]["line"] == 53
    off_board = engine.ask(cmd="play", move="place(5,0,O)")["error"]
    assert "off the 3x3 board" in off_board["message"]
    assert engine.ask(cmd="play", move="place(1,")["ok"] is False
    assert engine.ask(cmd="play")["error"]["kind"] == "bad request"
    assert engine.send_line("not json")["error"]["kind"] == "bad request"
    assert engine.send_line("[1, 2]")["error"]["kind"] == "bad request"
    assert engine.send_line("[" * 100_000)["error"]["kind"] == "bad request"
    assert engine.ask(cmd="fly")["error"]["kind"] == "unknown command"
    # after all that the position is untouched and the engine still answers
    assert engine.ask(cmd="state")["state"]["board"] == [[1, 1, "X"]]
    code, stderr = engine.close()
    assert code == 0 and "Traceback" not in stderr


def test_undo_new_and_set(engine):
    assert engine.ask(cmd="undo")["error"]["kind"] == "nothing to undo"
    played = engine.ask(cmd="play", move="place(0,2,X)")["state"]
    assert engine.ask(cmd="undo")["state"]["board"] == []
    assert engine.ask(cmd="set", state=played)["state"] == played
    assert engine.ask(cmd="new")["state"]["move_number"] == 0
    bad = engine.ask(cmd="set", state={"board": "nonsense"})
    assert bad["ok"] is False and bad["error"]["kind"] in {"bad state", "bad request"}


def test_go_suggests_a_legal_move_without_playing_it(engine):
    engine.ask(cmd="play", move="place(1,1,X)")
    suggestion = engine.ask(cmd="go")
    assert suggestion["ok"] is True
    legal = engine.ask(cmd="legal")["moves"]
    assert suggestion["move"] in legal
    assert engine.ask(cmd="state")["state"]["move_number"] == 1


def test_go_uses_the_players_agent():
    engine = Engine(TICTACTOE, "--player", "1=cmd:" + f"{sys.executable} {FIRST_LEGAL}")
    engine.ask(cmd="play", move="place(0,0,X)")
    assert engine.ask(cmd="go") == {"ok": True, "move": "place(0,1,O)", "name": "0,1", "chance": False}
    engine.ask(cmd="quit")
    assert engine.close()[0] == 0


def test_end_of_input_ends_the_engine_cleanly():
    engine = Engine(TICTACTOE)
    assert engine.close() == (0, "")


def test_protocol_saves_the_record_as_it_goes(tmp_path):
    record = tmp_path / "game.json"
    engine = Engine(TICTACTOE, "--record", str(record))
    engine.ask(cmd="play", move="place(1,1,X)")
    engine.ask(cmd="play", move="place(0,0,O)")
    assert json.loads(record.read_text())["moves"] == [
        {"player": 0, "move": "place(1,1,X)", "name": "1,1"}, {"player": 1, "move": "place(0,0,O)", "name": "0,0"}]
    engine.ask(cmd="quit")
    engine.close()


# ------------------------------------------------------------------ programs as players

def run_game(*players: str, timeout: float = 60) -> subprocess.CompletedProcess:
    argv = [GDEF_RUN, TICTACTOE, "--seed", "2"]
    for player in players:
        argv += ["--player", player]
    return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def test_a_program_plays_a_whole_game():
    done = run_game("0=cmd:" + f"{sys.executable} {FIRST_LEGAL}", "1=cmd:" + f"{sys.executable} {FIRST_LEGAL}")
    # first legal move each turn: X fills column x=0 first (0,0), (0,1), (0,2) and wins
    assert done.returncode == 0, done.stderr
    assert "Player 0 wins: three in a row." in done.stdout
    assert "place(0,0,X)" in done.stdout and "place(0,2,X)" in done.stdout


def test_gdef_run_protocol_itself_can_be_a_player():
    engine = f"{GDEF_RUN} --protocol {TICTACTOE} --seed 5"
    done = run_game("0=random", f"1=cmd:{engine}")
    assert done.returncode == 0, done.stderr
    assert re.search(r"Player [01] wins: three in a row\.|draw", done.stdout, re.IGNORECASE)


@pytest.mark.parametrize("bot, complaint", [
    ('print(\'{"ok": true, "move": "place(9,9,O)"}\', flush=True)', "which is not legal"),
    ("print('hello there', flush=True)", "not a JSON answer"),
    ("pass", "has stopped"),
    ('print(\'{"ok": false, "error": {"message": "confused"}}\', flush=True)', "answered with an error: confused"),
    ('print(\'{"ok": true}\', flush=True)', 'without a "move"'),
])
def test_a_misbehaving_program_stops_the_game_with_a_clear_error(tmp_path, bot, complaint):
    program = tmp_path / "bot.py"
    program.write_text("import sys\nfor line in sys.stdin:\n    " + bot + "\n    break\n")
    done = run_game("0=random", f"1=cmd:{sys.executable} {program}")
    assert done.returncode == 3
    assert complaint in done.stderr
    assert "Traceback" not in done.stderr
    assert "The record is in" in done.stderr


def test_a_program_that_cannot_start_is_named():
    done = run_game("0=cmd:/nonexistent/bot --fast")
    assert done.returncode == 3
    assert "could not be started" in done.stderr and "Traceback" not in done.stderr



def test_infinite_and_nan_variables_are_strict_json(tmp_path):
    rules = tmp_path / "inf.gdef"
    rules.write_text("name: inf\nplayers: 2\nsize: 3 x 3\nobj X\nfloat f = 0.0;\nfloat m = 0.0;\n"
                     "define isMoveLegal() -> bool { return true; }\n"
                     "define end() -> bool { f = 10000000000.0; while (f < f * 2.0) { f = f * f; } "
                     "m = f % 2.0; return false; }\n")
    engine = Engine(str(rules))
    line = None
    engine.process.stdin.write(json.dumps({"cmd": "play", "move": "place(0,0,X)"}) + "\n")
    engine.process.stdin.flush()
    line = engine.process.stdout.readline()
    assert "NaN" not in line and "Infinity" not in line
    assert json.loads(line)["state"]["vars"] == {"f": "inf", "m": "nan"}
    engine.ask(cmd="quit")
    assert engine.close() == (0, "")


# ------------------------------------------------------------------ records and signals

def test_new_and_set_keep_the_previous_game_of_the_record_as_a_numbered_backup(tmp_path):
    record = tmp_path / "game.json"
    engine = Engine(TICTACTOE, "--record", str(record))
    played = engine.ask(cmd="play", move="place(1,1,X)")["state"]
    assert engine.ask(cmd="new")["kept"] == f"{record}.~1~"
    assert [m["move"] for m in json.loads(Path(f"{record}.~1~").read_text())["moves"]] == ["place(1,1,X)"]
    assert json.loads(record.read_text())["moves"] == []
    assert engine.ask(cmd="new")["kept"] is None  # nothing tried since: nothing to keep
    engine.ask(cmd="play", move="place(0,0,X)")
    assert engine.ask(cmd="set", state=played)["kept"] == f"{record}.~2~"
    assert [m["move"] for m in json.loads(Path(f"{record}.~2~").read_text())["moves"]] == ["place(0,0,X)"]
    engine.ask(cmd="play", move="place(2,2,O)")
    engine.ask(cmd="quit")
    assert engine.close() == (0, "The game so far is kept in " + f"{record}.~1~.\n"
                              + "The game so far is kept in " + f"{record}.~2~.\n")
    data = json.loads(record.read_text())
    assert data["start"]["board"] == [[1, 1, "X"]] and [m["move"] for m in data["moves"]] == ["place(2,2,O)"]


def test_new_without_a_record_keeps_nothing(engine, tmp_path):
    engine.ask(cmd="play", move="place(1,1,X)")
    answer = engine.ask(cmd="new")
    assert answer["kept"] is None and answer["state"]["board"] == []
    engine.ask(cmd="quit")
    assert engine.close() == (0, "")


@pytest.mark.parametrize("signal_, said", [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "stopped by SIGTERM"),
                                           (signal.SIGHUP, "stopped by SIGHUP")])
def test_a_signal_stops_the_engine_cleanly_with_the_record_saved(tmp_path, signal_, said):
    record = tmp_path / "game.json"
    engine = Engine(TICTACTOE, "--record", str(record))
    engine.ask(cmd="play", move="place(1,1,X)")
    engine.process.send_signal(signal_)
    code = engine.process.wait(timeout=30)
    out, err = engine.process.stdout.read(), engine.process.stderr.read()
    assert code == 3 and out == ""  # standard output stays answers only
    assert "Traceback" not in err
    assert f"Stopped ({said}) before the game ended, after 1 move(s). The record is in {record}" in err
    assert [m["move"] for m in json.loads(record.read_text())["moves"]] == ["place(1,1,X)"]


def test_a_signal_keeps_a_game_without_record_in_the_records_folder():
    engine = Engine(TICTACTOE)
    engine.ask(cmd="play", move="place(1,1,X)")
    engine.process.send_signal(signal.SIGTERM)
    assert engine.process.wait(timeout=30) == 3
    err = engine.process.stderr.read()
    kept = re.search(r"The record is in (\S+); continue with", err)
    assert kept and "Traceback" not in err, err
    assert json.loads(Path(kept.group(1)).read_text())["moves"][0]["move"] == "place(1,1,X)"
