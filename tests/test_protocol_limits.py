"""The bot protocol against hostile lines, with real processes over pipes (issue 32, items
8-10): bad request lines get one error answer each and the run goes on; player programs that
chatter, nest, print huge numbers or endless lines stop the game cleanly (exit 3), in bounded
time and memory."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from gdef_core.play.protocol import MAX_LINE

from support import ROOT

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
GDEF_RUN = str(Path(sys.executable).with_name("gdef-run"))


@pytest.fixture
def engine():
    process = subprocess.Popen([GDEF_RUN, "--protocol", TICTACTOE, "--seed", "1"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert json.loads(process.stdout.readline())["protocol"] == "gdef"
    yield process
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=30)


def send(process, line: str) -> dict:
    process.stdin.write(line + "\n")
    process.stdin.flush()
    answer = process.stdout.readline()
    assert answer, f"gdef-run --protocol stopped: {process.stderr.read()}"
    return json.loads(answer)


@pytest.mark.parametrize("line, kind", [
    ('{"cmd": "state", "id": NaN}', "bad request"),
    ('{"cmd": "state", "id": Infinity}', "bad request"),
    ('{"cmd": "state", "id": -Infinity}', "bad request"),
    ('{"cmd": "state", "id": 1e999}', "bad request"),
    ('{"cmd": "state", "id": ' + "7" * 5000 + "}", "bad request"),
    ('{"cmd": "play", "move": "place(1,1,X)", "n": ' + "7" * 5000 + "}", "bad request"),
    ('{"cmd": ["play"]}', "unknown command"),
    ('{"cmd": {}}', "unknown command"),
    ('{"cmd": null}', "unknown command"),
    ('{"cmd": "state", "id": {"a": [1]}}', "bad request"),
    ('{"cmd": "state", "id": true}', "bad request"),
])
def test_a_bad_line_gets_an_error_answer_and_the_run_goes_on(engine, line, kind) -> None:
    answer = send(engine, line)
    assert answer["ok"] is False and answer["error"]["kind"] == kind
    assert "id" not in answer
    assert send(engine, '{"cmd": "play", "move": "place(0,0,X)", "id": 7}')["id"] == 7
    assert send(engine, '{"cmd": "quit"}') == {"ok": True}
    assert engine.wait(timeout=30) == 0
    assert engine.stderr.read() == ""


def test_ids_that_are_strings_or_numbers_are_echoed(engine) -> None:
    for request_id in ("a", 3, -2.5, "x" * 1000, 10 ** 300):
        assert send(engine, json.dumps({"cmd": "result", "id": request_id}))["id"] == request_id


def test_an_over_long_line_gets_one_answer(engine) -> None:
    long_line = '{"cmd": "play", "move": "' + "x" * MAX_LINE + '"}'
    answer = send(engine, long_line)
    assert answer == {"ok": False, "error": {"kind": "bad request",
                                             "message": f"a line is limited to {MAX_LINE:,} characters"}}
    assert send(engine, '{"cmd": "state", "id": 2}')["id"] == 2  # the next answer is the next request's
    assert send(engine, '{"cmd": "quit"}') == {"ok": True}


# ------------------------------------------------------------------ programs as players

def play_against(tmp_path, bot: str, seconds: str = "60", timeout: float = 90) -> tuple[subprocess.CompletedProcess, int]:
    """gdef-run with `bot` (Python source) as player 1: what it printed, and its peak memory in MB."""
    program = tmp_path / "bot.py"
    program.write_text(textwrap.dedent(bot))
    process = subprocess.Popen([GDEF_RUN, TICTACTOE, "--seed", "2", "--player", "0=random",
                                "--player", f"1=cmd:{sys.executable} {program}"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "GDEF_BOT_SECONDS": seconds})
    printed: dict[str, str] = {}
    readers = [threading.Thread(target=lambda name, stream: printed.__setitem__(name, stream.read()), args=item)
               for item in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    # The peak is read from /proc while the child lives (VmHWM: reset by exec), not from its
    # rusage, whose ru_maxrss counts the test process's memory the child was forked with.
    peak_kb = 0
    for _ in range(int(timeout * 10)):
        try:
            status_text = Path(f"/proc/{process.pid}/status").read_text()
            peak_kb = max(peak_kb, int(status_text.split("VmHWM:")[1].split()[0]))
        except (OSError, IndexError, ValueError):
            pass
        pid, status = os.waitpid(process.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.1)
    else:
        process.kill()
        raise AssertionError(f"gdef-run did not stop within {timeout} s")
    process.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join(timeout=30)
    done = subprocess.CompletedProcess(process.args, process.returncode, printed.get("out"), printed.get("err"))
    return done, peak_kb // 1024


def test_a_program_that_chatters_without_answering_times_out_per_move(tmp_path) -> None:
    done, _ = play_against(tmp_path, """\
        import sys, time
        sys.stdin.readline()
        while True:
            print("[]", flush=True)
            time.sleep(0.2)
        """, seconds="3")
    assert done.returncode == 3
    assert "did not answer within 3 s" in done.stderr and "Traceback" not in done.stderr
    assert "The record is in" in done.stderr


@pytest.mark.parametrize("answer, complaint", [
    ('"[" * 100_000', "not a JSON answer (nested too deeply)"),
    ("'{\"ok\": true, \"move\": \"place(0,0,O)\", \"n\": ' + '9' * 5000 + '}'", "not a JSON answer (Exceeds the limit"),
    ("'{\"ok\": true, \"move\": NaN}'", "not a JSON answer (NaN is not JSON"),
])
def test_a_program_answering_unreadable_json_stops_the_game_cleanly(tmp_path, answer, complaint) -> None:
    done, _ = play_against(tmp_path, f"""\
        import sys
        sys.stdin.readline()
        print({answer}, flush=True)
        sys.stdin.readline()
        """)
    assert done.returncode == 3, done.stderr
    assert complaint in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_program_printing_an_endless_line_is_stopped_in_bounded_memory(tmp_path) -> None:
    done, peak_mb = play_against(tmp_path, """\
        import sys, time
        sys.stdin.readline()
        chunk = "x" * (1 << 20)
        try:
            for _ in range(300):  # 300 MB and no end of line
                sys.stdout.write(chunk)
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        time.sleep(60)
        """, seconds="30")
    assert done.returncode == 3, done.stderr
    assert f"printed a line that is too long (a line is limited to {MAX_LINE:,} characters)" in done.stderr
    assert peak_mb < 200


def test_a_bad_gdef_bot_seconds_is_named(tmp_path) -> None:
    done, _ = play_against(tmp_path, "import sys\nsys.stdin.readline()\n", seconds="soon")
    assert done.returncode == 3
    assert "cannot be given its time: GDEF_BOT_SECONDS='soon' is not a positive number of seconds" in done.stderr
