"""gdef-run, in-process through its `run()` function (fast) and as the installed console
script where the real process matters (exit codes, pseudo-terminal, Ctrl-C, hostile files)."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from gdef_core.cli.run import run

from support import ROOT, console_script, ctrl_c_as_at_a_terminal

DATA = ROOT / "tests" / "data" / "runtime"
TICTACTOE = str(DATA / "tictactoe.gdef")
WIN_FOR_X = ["place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)", "place(2,0,X)"]
# What gdef-run says of a move onto a taken square (the fixture's refusing line).
TAKEN = "refused by tictactoe.gdef:14 (if (CurrentPosition[x][y] != empty) { return false; })"


def gdef_run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        code = run(list(argv), io.StringIO(stdin), out, err)
    except SystemExit as exit_:  # argparse's usage errors
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def script(tmp_path, lines: list[str], name: str = "moves.txt") -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ scripted games


def test_scripted_game_to_a_win_writes_the_record(tmp_path) -> None:
    moves = script(tmp_path, ["# X wins on the bottom row", *WIN_FOR_X[:2], "",
                              "place(1,1,X)   # taken", *WIN_FOR_X[2:]])
    record = tmp_path / "game.json"
    code, out, err = gdef_run(TICTACTOE, "--moves", moves, "--record", str(record))
    assert code == 0
    assert out.rstrip().endswith("Player 0 wins.")
    assert "5. player 0: 2,0 (place(2,0,X))" in out
    assert f"moves.txt:5: rejected 'place(1,1,X)' (player 0): {TAKEN}" in err
    assert json.loads(record.read_text()) == {
        "game": "tictactoe",
        "files": [TICTACTOE],
        "players": 2,
        "moves": [{"player": i % 2, "move": m, "name": m[6:9]} for i, m in enumerate(WIN_FOR_X)],
        "rejected": [{"line": 5, "player": 0, "move": "place(1,1,X)",
                      "reason": TAKEN}],
        "result": {"over": True, "winner": 0},
        "vars": {},
        "scores": [0, 0],
    }


def test_lines_after_the_end_are_ignored_and_reported_once(tmp_path) -> None:
    moves = script(tmp_path, [*WIN_FOR_X, "place(2,1,O)", "nonsense"])
    code, out, err = gdef_run(TICTACTOE, "--moves", moves)
    assert code == 0 and "Player 0 wins." in out
    assert err.count("moves.txt:6: the game is over; this line and the ones after it are ignored") == 1
    assert "rejected" not in err


def test_draw_is_announced(tmp_path) -> None:
    moves = script(tmp_path, ["place(0,0,X)", "place(1,1,O)", "place(2,2,X)", "place(0,1,O)", "place(2,1,X)",
                              "place(2,0,O)", "place(0,2,X)", "place(1,2,O)", "place(1,0,X)"])
    code, out, _ = gdef_run(TICTACTOE, "--moves", moves)
    assert code == 0 and out.rstrip().endswith("Draw.")


def test_moves_from_stdin(tmp_path) -> None:
    code, out, _ = gdef_run(TICTACTOE, "--moves", "-", stdin="\n".join(WIN_FOR_X) + "\n")
    assert code == 0 and "Player 0 wins." in out


def test_moves_running_out_save_the_record_and_resume_continues(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    first = script(tmp_path, [*WIN_FOR_X[:3], "place(0,0,O)"], "first.txt")
    code, _, err = gdef_run(TICTACTOE, "--moves", first)
    assert code == 3
    saved = re.search(r"The record is in (\S+); continue with: gdef-run --resume \1", err)
    assert saved, err
    # without --record: the records folder of the user's state folder, named by game and time
    assert Path(saved.group(1)).parent == tmp_path / "state" / "gdef" / "records"
    assert re.fullmatch(r"tictactoe-\d{4}-\d\d-\d\d-\d{6}\.json", Path(saved.group(1)).name)
    partial = json.loads(Path(saved.group(1)).read_text())
    assert partial["result"] == {"over": False, "winner": None} and len(partial["moves"]) == 3
    assert partial["rejected"] == [{"line": 4, "player": 1, "move": "place(0,0,O)",
                                    "reason": TAKEN}]
    rest = script(tmp_path, WIN_FOR_X[3:], "rest.txt")
    final = tmp_path / "final.json"
    code, out, _ = gdef_run("--resume", saved.group(1), "--moves", rest, "--record", str(final))
    assert code == 0 and "Player 0 wins." in out
    whole = tmp_path / "whole.json"
    gdef_run(TICTACTOE, "--moves", script(tmp_path, [*WIN_FOR_X[:3], "place(0,0,O)", *WIN_FOR_X[3:]], "all.txt"),
             "--record", str(whole))
    resumed, direct = json.loads(final.read_text()), json.loads(whole.read_text())
    assert resumed["moves"] == direct["moves"] and resumed["result"] == direct["result"]
    assert resumed["rejected"] == direct["rejected"]


def test_resume_restores_game_variables(tmp_path) -> None:
    rules = tmp_path / "count.gdef"
    rules.write_text("""name: count
players: 2
size: 2 x 1
obj X
int placed = 0;
define isMoveLegal() -> bool { return operationsNum() == 1; }
define end() -> bool { placed = placed + 1; return placed == 3; }
""", encoding="utf-8")
    record = tmp_path / "count.json"
    code, _, _ = gdef_run(str(rules), "--moves", script(tmp_path, ["place(0,0,X)", "clear(0,0)"]),
                          "--record", str(record))
    assert code == 3 and json.loads(record.read_text())["vars"] == {"placed": 2}
    code, out, _ = gdef_run("--resume", str(record), "--moves", script(tmp_path, ["place(1,0,X)"], "more.txt"))
    assert code == 0 and "Draw." in out


def test_record_that_does_not_replay_is_refused(tmp_path) -> None:
    record = tmp_path / "bad.json"
    record.write_text(json.dumps({"game": "tictactoe", "files": [TICTACTOE], "players": 2,
                                  "moves": [{"player": 0, "move": "place(0,0,O)", "name": "0,0"}], "rejected": [],
                                  "result": {"over": False, "winner": None}}))
    code, _, err = gdef_run("--resume", str(record), "--moves", "-")
    assert code == 2 and "move 1 (place(0,0,O)) does not replay" in err
    record.write_text("{not json")
    code, _, err = gdef_run("--resume", str(record))
    assert code == 2 and "not a JSON game record" in err


# ------------------------------------------------------------------ errors and exit codes


def test_definition_errors_are_printed_like_gdef_check() -> None:
    original = str(ROOT / "tests" / "data" / "checker" / "original_tictactoe.gdef")
    code, out, err = gdef_run(original, "--moves", "-")
    assert code == 1 and out == ""
    assert re.search(r"original_tictactoe\.gdef:17:\d+: error\[G301\]: ", err)
    assert "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["missing.gdef"], "missing.gdef: cannot read file"),
    ([TICTACTOE, "--moves", "no-such-moves.txt"], "cannot read the moves"),
    ([TICTACTOE, "--max-steps", "0"], "must be at least 1"),
    ([TICTACTOE, "--max-depth", "many"], "is not a whole number"),
    ([TICTACTOE, "--max-depth", "1000000"], "is more than 100,000"),
    ([], "name the game's .gdef files"),
])
def test_bad_arguments_exit_2(argv, message: str, capsys) -> None:
    code, _, err = gdef_run(*argv)
    assert code == 2 and message in err + capsys.readouterr().err


def test_run_time_error_rejects_the_line_with_its_location(tmp_path) -> None:
    rules = tmp_path / "div.gdef"
    rules.write_text("""name: div
players: 2
size: 3 x 1
obj X
define ratio(int x) -> int { return 6 / x; }
define isMoveLegal() -> bool { return ratio(OperationList[0][0]) > 0; }
define end() -> bool { return moveNumber() == 2; }
""", encoding="utf-8")
    code, out, err = gdef_run(str(rules), "--moves", script(tmp_path, ["place(0,0,X)", "place(1,0,X)", "place(2,0,X)"]))
    assert code == 0 and "Draw." in out
    assert f"moves.txt:1: rejected 'place(0,0,X)' (player 0): isMoveLegal() failed: {rules}:5:39: error[G601]: " \
           "division by zero (6 / 0)" in err
    assert f"in isMoveLegal() at {rules}:6:39" in err


def test_failing_setup_exits_1_with_the_location(tmp_path) -> None:
    rules = tmp_path / "setup.gdef"
    rules.write_text("""name: s
players: 2
size: 2 x 2
obj X
define setup() { setNextPlayer(5); }
define isMoveLegal() -> bool { return true; }
define end() -> bool { return true; }
""", encoding="utf-8")
    code, out, err = gdef_run(str(rules), "--moves", "-")
    assert code == 1 and "setup() failed" in err
    assert f"{rules}:5:18: error[G605]: setNextPlayer(5): there is no player 5 (players are 0 to 1)" in err


# ------------------------------------------------------------------ interactive


def test_interactive_session_through_pipes(tmp_path) -> None:
    saved = tmp_path / "saved.json"
    lines = ["help", "undo", "place(0,0,X)", "place(0,0,O)", "place(1,1,O)", "undo", "place(2,2,O)",
             f"save {saved}", "", "place(1,0,X)", "place(2,1,O)", "place(2,0,X)"]
    code, out, err = gdef_run(TICTACTOE, stdin="\n".join(lines) + "\n")
    assert code == 0 and err == ""
    assert out.startswith("tictactoe: 2 players, 3x3 board; x runs left to right, y bottom to top.")
    assert "Commands:\n  help " in out and "There is no move to take back." in out
    assert "Player 1 to move (has not placed anything yet; objects: X, O)." in out  # a game of few objects
    assert "  objects         list the game's objects (pieces), by side\n" in out
    assert f"Rejected: {TAKEN}" in out
    assert "Took back the last move." in out and "Player 0 to move (has played X)." in out
    assert f"Saved the game record to {saved}." in out
    assert json.loads(saved.read_text())["moves"][-1] == {"player": 1, "move": "place(2,2,O)", "name": "2,2"}
    final_board = "  0 1 2\n2 . . O 2\n1 . . O 1\n0 X X X 0\n  0 1 2\nPlayer 0 wins.\n"
    assert out.endswith(final_board)
    assert "\x1b[" not in out   # no colour when stdout is not a terminal


def test_interactive_y_down_draws_row_zero_on_top() -> None:
    _, out, _ = gdef_run(TICTACTOE, "--y-down", stdin="place(0,0,X)\nquit\n")
    assert "  0 1 2\n0 X . . 0\n1 . . . 1\n2 . . . 2\n  0 1 2\n" in out


def test_interactive_quit_and_end_of_input_keep_the_record(tmp_path) -> None:
    record = tmp_path / "r.json"
    code, _, err = gdef_run(TICTACTOE, "--record", str(record), stdin="place(1,1,X)\nquit\n")
    assert code == 3 and "Stopped (quit)" in err and f"The record is in {record}" in err
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]
    code, _, err = gdef_run(TICTACTOE, "--record", str(record), stdin="place(1,1,X)\nplace(0,0,O)")
    assert code == 3 and "Stopped (end of input)" in err
    assert len(json.loads(record.read_text())["moves"]) == 2


# ------------------------------------------------------------------ the real process

GDEF_RUN = console_script("gdef-run")


def test_console_script_exit_codes(tmp_path) -> None:
    moves = script(tmp_path, WIN_FOR_X)
    done = subprocess.run([GDEF_RUN, TICTACTOE, "--moves", moves], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Player 0 wins." in done.stdout
    done = subprocess.run([GDEF_RUN, TICTACTOE, "--moves", "-"], input="place(1,1,X)\n",
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 3


def test_pseudo_terminal_gets_colour_and_no_color_turns_it_off(tmp_path, monkeypatch) -> None:
    pty = pytest.importorskip("pty")

    def play(*extra: str) -> str:
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(GDEF_RUN, [GDEF_RUN, TICTACTOE, *extra])
        os.write(fd, b"place(1,1,X)\nquit\n")
        chunks = []
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 3
        return b"".join(chunks).decode("utf-8", "replace")

    monkeypatch.chdir(tmp_path)  # where the pty child runs; restored for the tests after this one
    coloured = play()
    assert "\x1b[1;31mX\x1b[0m" in coloured and "Player 1 to move" in coloured
    plain = play("--no-color")
    assert "\x1b[" not in plain and "1 . X . 1" in plain


def test_ctrl_c_saves_the_record(tmp_path) -> None:
    import signal
    import time

    record = tmp_path / "interrupted.json"
    # A shell without job control starts background jobs with SIGINT ignored, and the child
    # would inherit that: give it the default disposition, as a terminal would.
    process = subprocess.Popen([GDEF_RUN, TICTACTOE, "--record", str(record)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_at_a_terminal)
    process.stdin.write("place(2,2,X)\n")
    process.stdin.flush()
    deadline = time.time() + 30
    while not record.exists() and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 3 and "Stopped (interrupted)" in err
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(2,2,X)", "name": "2,2"}]


HOSTILE = ("name: t\nplayers: 2\nsize: 2 x 2\nobj A\n"
           "define isMoveLegal() -> bool { return f(); }\ndefine f() -> bool { return f(); }\n"
           "define end() -> bool { int i = 0; while (true) { i = i + 1; } return false; }\n")


@pytest.mark.parametrize("name, content, code", [
    ("broken", b"define isMoveLegal( -> bool { return tru", 1),
    ("binary", b"\xff\xfe\x00garbage /* unterminated", 1),
    ("hostile", HOSTILE.encode(), 3),
    ("missing", None, 2),
])
def test_hostile_files_never_crash_or_hang(tmp_path, name: str, content: bytes | None, code: int) -> None:
    path = tmp_path / f"{name}.gdef"
    if content is not None:
        path.write_bytes(content)
    done = subprocess.run([GDEF_RUN, str(path)], stdin=subprocess.DEVNULL, capture_output=True, timeout=20,
                          cwd=tmp_path)
    assert done.returncode == code
    assert b"Traceback" not in done.stdout + done.stderr


def test_hostile_rules_are_stopped_by_the_limits(tmp_path) -> None:
    path = tmp_path / "hostile.gdef"
    path.write_text(HOSTILE.replace("return f(); }\ndefine f", "return true; }\ndefine g() -> bool { return g(); }\ndefine f"))
    done = subprocess.run([GDEF_RUN, str(path), "--moves", "-", "--max-steps", "200000"],
                          input="place(0,0,A)\n", capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 3 and "error[G607]: step limit exceeded" in done.stderr
    done = subprocess.run([GDEF_RUN, str(tmp_path / "hostile.gdef")], input="", capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ one way of playing a run

@pytest.mark.parametrize("argv, message", [
    (["--web", "--protocol"], "--web and --protocol cannot be used together"),
    (["--protocol", "--perft", "1"], "--protocol and --perft cannot be used together"),
    (["--perft", "2", "--moves", "moves.txt"], "--perft and --moves cannot be used together"),
    (["--protocol", "--moves", "-"], "--protocol and --moves cannot be used together"),
    (["--web", "--moves", "m.txt", "--perft", "1"], "--web and --perft cannot be used together"),
    (["--web", "--protocol", "--perft", "1"], "--web, --protocol and --perft cannot be used together"),
    (["--port", "8000"], "--port is an option of the browser board: add --web"),
    (["--port", "0", "--protocol"], "--port is an option of the browser board"),
    (["--no-browser", "--moves", "moves.txt"], "--no-browser is an option of the browser board"),
    (["--perft", "1", "--record", "r.json"], "--perft only counts moves and plays no game, so --record"),
    (["--perft", "1", "--player", "0=random"],
     "--perft only counts moves and plays no game, so --player would do nothing"),
])
def test_conflicting_ways_of_playing_are_usage_errors(argv, message, capsys) -> None:
    code, out, err = gdef_run(TICTACTOE, *argv)
    err += capsys.readouterr().err
    assert (code, out) == (2, "")
    assert err.startswith("usage: gdef-run [-h]") and f"\ngdef-run: error: {message}" in err, err


@pytest.mark.parametrize("argv", [
    ["--web", "--moves", "moves.txt", "--port", "0", "--no-browser", "--record", "r.json"],
    ["--perft", "2", "--resume", "r.json", "--seed", "3"],
    ["--protocol", "--player", "1=greedy", "--record", "r.json"],
    ["--moves", "-", "--player", "1=random"],
])
def test_the_documented_combinations_are_accepted(argv) -> None:
    from gdef_core.cli.run import build_parser, check_modes

    parser = build_parser()
    check_modes(parser, parser.parse_args([TICTACTOE, *argv]))  # raises SystemExit if refused


def test_web_with_protocol_is_refused_before_anything_runs(tmp_path) -> None:
    done = subprocess.run([GDEF_RUN, "--web", "--protocol", "--no-browser", TICTACTOE], input="",
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[-1].startswith("gdef-run: error: --web and --protocol cannot be used together")


def test_objects_lists_the_objects_by_side() -> None:
    code, out, _ = gdef_run(str(ROOT / "examples" / "checkers.gdef"), stdin="objects\nquit\n")
    assert code == 3
    assert "White> objects\n  White: W, WK\n  Black: B, BK\n" in out  # names only: not a terminal's encoding
