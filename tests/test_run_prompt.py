"""gdef-run's prompt at a real terminal: a child process on a pseudo-terminal, keys typed as a
person types them. History recalled with the up arrow across two runs, Tab completion of
commands and legal moves, and quit/exit/q."""
from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gdef_core.cli.prompt import readline

from support import ROOT

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
CHESS = str(ROOT / "examples" / "chess" / "chess.gdef")
UP = "\x1b[A"

pytestmark = pytest.mark.skipif(readline is None, reason="no readline module on this platform")


class Terminal:
    """gdef-run on a pseudo-terminal: `type` sends keys, `expect` reads until a text shows."""

    def __init__(self, tmp_path: Path, *argv: str, game: str = TICTACTOE) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm", "NO_COLOR": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "gdef_core.cli.run", game, *argv],
                                        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path,
                                        start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = ""

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def expect(self, text: str, wait: float = 60) -> str:
        """Everything shown up to and including `text` (no timing asserted: `wait` only keeps a
        broken run from hanging the suite)."""
        deadline = time.monotonic() + wait
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"{text!r} never showed; the terminal showed:\n{self.seen}")
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the child closed the terminal
                chunk = b""
            if not chunk:
                raise AssertionError(f"the run ended before {text!r} showed:\n{self.seen}")
            self.seen += chunk.decode(errors="replace")
        shown, _, self.seen = self.seen.partition(text)
        return shown + text

    def finish(self) -> int:
        try:
            while os.read(self.master, 4096):
                pass
        except OSError:
            pass
        os.close(self.master)
        return self.process.wait(timeout=60)


def recorded_moves(shown: str) -> list[str]:
    path = re.search(r"The record is in (\S+);", re.sub(r"\s*\r?\n\s*", "", shown)).group(1)
    return [entry["move"] for entry in json.loads(Path(path).read_text())["moves"]]


def test_the_up_arrow_recalls_lines_of_an_earlier_run(tmp_path):
    first = Terminal(tmp_path)
    first.expect("player 0> ")
    first.type("place(1,1,X)\r")
    first.expect("player 1> ")
    first.type("quit\r")
    shown = first.expect("continue with")
    assert "Stopped (quit)" in shown and first.finish() == 3
    assert (tmp_path / "state" / "gdef" / "run_history").read_text().split() == ["place(1,1,X)", "quit"]

    second = Terminal(tmp_path)
    second.expect("player 0> ")
    second.type(UP + UP + "\r")  # the line before `quit`: place(1,1,X)
    second.expect("player 1> ")
    second.type("exit\r")
    shown = second.expect("continue with")
    assert "Stopped (quit)" in shown and second.finish() == 3
    assert recorded_moves(shown + second.seen) == ["place(1,1,X)"]


def test_tab_completes_commands_and_legal_moves_and_q_quits(tmp_path):
    terminal = Terminal(tmp_path)
    terminal.expect("player 0> ")
    terminal.type("place(2,2\t\r")  # the one legal move that starts so: place(2,2,X)
    terminal.expect("player 1> ")
    terminal.type("und\t\r")
    terminal.expect("Took back the last move.")
    terminal.expect("player 0> ")
    terminal.type("place(0,1\t\r")
    terminal.expect("player 1> ")
    terminal.type("q\r")
    shown = terminal.expect("continue with")
    assert "Stopped (quit)" in shown and terminal.finish() == 3
    assert recorded_moves(shown + terminal.seen) == ["place(0,1,X)"]


def test_a_game_of_many_objects_keeps_its_prompt_short_and_objects_lists_them(tmp_path):
    terminal = Terminal(tmp_path, "--ascii", game=CHESS)
    shown = terminal.expect("White> ")
    assert "Type 'help' for help, 'objects' for its 12 objects." in shown
    assert shown.splitlines()[-1] == "White> " and shown.splitlines()[-2].strip() == "White to move."
    terminal.type("obj\t\r")  # completed to `objects`
    listed = terminal.expect("White> ")
    assert "  White: WP, WN, WB, WR, WQ, WK\r\n  Black: BP, BN, BB, BR, BQ, BK\r\n" in listed
    terminal.type("e2e4\r")
    assert terminal.expect("Black> ").splitlines()[-2].strip() == "Black to move."
    terminal.type("q\r")
    terminal.expect("continue with")
    assert terminal.finish() == 3
