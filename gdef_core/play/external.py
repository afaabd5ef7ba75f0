"""A player that is another program: `--player 1=cmd:"python mybot.py"`.

gdef starts the program once per game and speaks the bot protocol to it (gdef_core.play.protocol):
for each of its turns one request line

    {"cmd": "go", "state": {...the position, as 'state' answers it...}, "legal": ["place(0,0,X)", ...]}

and the program answers one line {"ok": true, "move": "place(1,1,X)"}. Lines it prints that are
not answers (a hello such as {"protocol": ...}) are skipped; `gdef-run --protocol` itself is such
a program. Its standard error is passed through. A program that does not answer within
ANSWER_SECONDS, exits, answers nonsense or an illegal move stops the game with a clear error.
"""
from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import weakref

from gdef_core.play.errors import ExternalAgentError
from gdef_core.play.protocol import state_json

ANSWER_SECONDS = 60.0


class ExternalAgent:
    name = "cmd"

    def __init__(self, command: str, seed: int | None = None) -> None:
        self.command = command
        self.seed = seed
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()

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
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        weakref.finalize(self, _stop, process)
        return process

    def choose(self, state):
        from gdef_core.moves import Move, MoveSyntaxError

        if self._process is None:
            self._process = self._start()
        request = {"cmd": "go", "state": state_json(state),
                   "legal": [str(move) for move in state.legal_moves()]}
        if self.seed is not None:
            request["seed"] = self.seed
        answer = self._ask(request)
        text = answer.get("move")
        if not isinstance(text, str):
            raise ExternalAgentError(self.command, f"answered {json.dumps(answer)[:200]} without a \"move\"")
        try:
            move = Move.parse(text)
        except MoveSyntaxError as error:
            raise ExternalAgentError(self.command, f"answered the move {text!r}, which is not a move: {error}") from None
        verdict = state.check(move)
        if not verdict:
            raise ExternalAgentError(self.command, f"answered {move}, which is not legal: {verdict.reason}")
        return move

    def _ask(self, request: dict) -> dict:
        process = self._process
        try:
            process.stdin.write(json.dumps(request, default=str) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ExternalAgentError(self.command, f"has stopped (exit code {process.poll()})") from None
        while True:
            try:
                line = self._lines.get(timeout=ANSWER_SECONDS)
            except queue.Empty:
                raise ExternalAgentError(self.command, f"did not answer within {ANSWER_SECONDS:g} s") from None
            if line is None:
                raise ExternalAgentError(self.command, f"has stopped (exit code {process.wait()})")
            if not line.strip():
                continue
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                raise ExternalAgentError(self.command, f"printed {line.strip()[:200]!r}, not a JSON answer") from None
            if not isinstance(answer, dict) or "protocol" in answer and "ok" not in answer:
                continue   # a hello
            if answer.get("ok") is not True:
                error = answer.get("error")
                message = error.get("message") if isinstance(error, dict) else error
                raise ExternalAgentError(self.command, f"answered with an error: {message}")
            return answer


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _stop(process: subprocess.Popen) -> None:
    try:
        process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
        process.stdin.close()
        process.wait(timeout=2)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()
