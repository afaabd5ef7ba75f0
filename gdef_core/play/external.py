"""A player that is another program: `--player 1=cmd:"python mybot.py"`.

gdef starts the program once per game and speaks the bot protocol to it (gdef_core.play.protocol):
for each of its turns one request line

    {"cmd": "go", "state": {...the position, as 'state' answers it...}, "legal": ["place(0,0,X)", ...],
     "count": 9}

(`legal`: the first protocol.LEGAL_LIMIT legal moves, a big board's millions being a line of
tens of megabytes; `count`: how many there are) and the program answers one line
{"ok": true, "move": "place(1,1,X)"}, any legal move, listed or not. Lines it prints that are
not answers (a hello such as {"protocol": ...}) are skipped; `gdef-run --protocol` itself is such
a program. Its standard error is passed through. A program that does not answer within
answer_seconds() of the request (however much else it prints meanwhile), exits, prints a line
longer than protocol.MAX_LINE or one that is not JSON, answers with an error or an illegal move
stops the game with a clear error (ExternalAgentError).
"""
from __future__ import annotations

import json
import math
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref

from gdef_core.play.errors import ExternalAgentError
from gdef_core.play.protocol import LEGAL_LIMIT, TOO_LONG, ProtocolError, parse_line, read_lines, state_json

ANSWER_SECONDS = 60.0  # for each move; GDEF_BOT_SECONDS changes it
POLL_SECONDS = 0.25  # how often a wait for an answer looks whether its caller wants to stop


def answer_seconds() -> float:
    """The time a program has for each move: GDEF_BOT_SECONDS, else ANSWER_SECONDS; ValueError
    says what is wrong with GDEF_BOT_SECONDS."""
    text = os.environ.get("GDEF_BOT_SECONDS", "").strip()
    if not text:
        return ANSWER_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise ValueError(f"GDEF_BOT_SECONDS={text[:40]!r} is not a positive number of seconds")
    return value


class ExternalAgent:
    name = "cmd"

    def __init__(self, command: str, seed: int | None = None) -> None:
        self.command = command
        self.seed = seed
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue(maxsize=2)

    def _start(self) -> subprocess.Popen:
        try:
            argv = shlex.split(self.command)
        except ValueError as error:
            raise ExternalAgentError(self.command, f"cannot read the command line: {error}") from None
        if not argv:
            raise ExternalAgentError(self.command, "the command is empty")
        try:
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as error:
            raise ExternalAgentError(self.command, f"could not be started: {error.strerror or error}") from None
        closed = threading.Event()
        threading.Thread(target=_pump, args=(process.stdout, self._lines, closed), daemon=True).start()
        weakref.finalize(self, _stop, process, closed)
        return process

    def choose(self, state, stop=None):
        from gdef_core.moves import Move, MoveSyntaxError

        try:
            seconds = answer_seconds()
        except ValueError as error:
            raise ExternalAgentError(self.command, f"cannot be given its time: {error}") from None
        if self._process is None:
            self._process = self._start()
        found = state.legal_ops()   # a big board's millions: the first page is listed, all counted
        request = {"cmd": "go", "state": state_json(state),
                   "legal": [str(move) for move in state.moves_of(found[:LEGAL_LIMIT])], "count": len(found)}
        if self.seed is not None:
            request["seed"] = self.seed
        answer = self._ask(request, time.monotonic() + seconds, seconds, stop)
        text = answer.get("move")
        if not isinstance(text, str):
            raise ExternalAgentError(self.command, f"answered {_shown(answer)} without a \"move\"")
        try:
            move = Move.parse(text)
        except MoveSyntaxError as error:
            raise ExternalAgentError(self.command, f"answered the move {text[:200]!r}, which is not a move: {error}") from None
        verdict = state.check(move)
        if not verdict:
            raise ExternalAgentError(self.command, f"answered {move}, which is not legal: {verdict.reason}")
        return move

    def _ask(self, request: dict, deadline: float, seconds: float, stop) -> dict:
        """The program's answer to `request`, by `deadline` however many other lines it prints."""
        process = self._process
        try:
            process.stdin.write(json.dumps(request, default=str) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ExternalAgentError(self.command, f"has stopped (exit code {process.poll()})") from None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ExternalAgentError(self.command, f"did not answer within {seconds:g} s")
            if stop is not None and stop():
                raise ExternalAgentError(self.command, "was not waited for: its move is no longer wanted")
            try:
                line = self._lines.get(timeout=min(left, POLL_SECONDS) if stop is not None else left)
            except queue.Empty:
                continue
            if line is None:
                raise ExternalAgentError(self.command, f"has stopped (exit code {process.wait()})")
            if line is not TOO_LONG and not line.strip():
                continue
            try:
                answer = parse_line(line)
            except ProtocolError as error:
                if line is TOO_LONG:
                    raise ExternalAgentError(self.command, f"printed a line that is too long ({error.message})") from None
                raise ExternalAgentError(self.command, f"printed {line.strip()[:200]!r}, not a JSON answer "
                                                       f"({error.message.removeprefix('not a JSON object: ')})") from None
            if not isinstance(answer, dict) or "protocol" in answer and "ok" not in answer:
                continue   # a hello
            if answer.get("ok") is not True:
                error = answer.get("error")
                message = error.get("message") if isinstance(error, dict) else error
                raise ExternalAgentError(self.command, f"answered with an error: {str(message)[:500]}")
            return answer


def _shown(answer: dict) -> str:
    try:
        return json.dumps(answer)[:200]
    except (ValueError, RecursionError):
        return "an answer"


def _pump(stream, lines: queue.Queue, closed: threading.Event) -> None:
    """The program's lines into `lines` (a short queue: a program printing faster than it is
    read waits, so memory stays bounded), then None; until the agent is gone."""
    for line in _with_end(read_lines(stream)):
        while not closed.is_set():
            try:
                lines.put(line, timeout=1.0)
                break
            except queue.Full:
                continue
        if closed.is_set():
            return


def _with_end(lines):
    yield from lines
    yield None


def _stop(process: subprocess.Popen, closed: threading.Event) -> None:
    closed.set()
    try:
        process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
        process.stdin.close()
        process.wait(timeout=2)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()
