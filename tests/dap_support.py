"""What the protocol tests of gdef-dap share: a client driving `gdef-dap` over a real stdio
connection as an editor does, and the debugger's test game."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "data" / "debug"
GAME = str(GAMES / "rows.gdef")
HELPERS = str(GAMES / "helpers.gdef")
EXAMPLES = ROOT / "examples"
TIMEOUT = 30


class Client:
    """A DAP client: requests answered in order, events kept until asked for."""

    def __init__(self, command: tuple = ("-m", "gdef_dap")) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, *command], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        self.messages: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        self.seq = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            header = stream.readline()
            if not header:
                self.messages.put(None)
                return
            length = int(header.split(b":")[1])
            stream.readline()
            self.messages.put(json.loads(stream.read(length)))

    def send_raw(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict) -> int:
        self.seq += 1
        body = json.dumps({"seq": self.seq, **message}).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def _next(self) -> dict:
        message = self.messages.get(timeout=TIMEOUT)
        assert message is not None, "the adapter closed its output"
        return message

    def request(self, command: str, arguments: dict | None = None, ok: bool = True) -> dict:
        seq = self.send({"type": "request", "command": command, "arguments": arguments or {}})
        return self.response(seq, command, ok)

    def response(self, seq: int, command: str, ok: bool = True) -> dict:
        while True:
            message = self._next()
            if message["type"] == "event":
                self.events.append(message)
                continue
            assert message["request_seq"] == seq
            assert message["success"] is ok, message
            return message

    def event(self, name: str) -> dict:
        for i, event in enumerate(self.events):
            if event["event"] == name:
                return self.events.pop(i)
        while True:
            message = self._next()
            if message["type"] == "event" and message["event"] == name:
                return message
            self.events.append(message)

    def stopped(self, reason: str) -> dict:
        body = self.event("stopped")["body"]
        assert body["reason"] == reason, body
        return body

    def frames(self) -> list[tuple[str, str, int]]:
        frames = self.request("stackTrace", {"threadId": 1})["body"]["stackFrames"]
        return [(f["name"], Path(f["source"]["path"]).name if "source" in f else None, f["line"]) for f in frames]

    def top(self) -> int:
        """The id of the innermost frame of the stop (ids are the adapter's: ask for them)."""
        return self.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][0]["id"]

    def variables(self, frame: int | None = None) -> dict[str, dict[str, dict]]:
        scopes = self.request("scopes", {"frameId": self.top() if frame is None else frame})["body"]["scopes"]
        return {scope["name"]: {v["name"]: v for v in self.request(
            "variables", {"variablesReference": scope["variablesReference"]})["body"]["variables"]}
            for scope in scopes}

    def children(self, variable: dict) -> dict[str, dict]:
        found = self.request("variables", {"variablesReference": variable["variablesReference"]})
        return {v["name"]: v for v in found["body"]["variables"]}

    def close(self) -> int:
        if self.process.poll() is None:
            self.process.stdin.close()
        code = self.process.wait(timeout=TIMEOUT)
        self.process.stdout.close()
        errors = self.process.stderr.read().decode()
        self.process.stderr.close()
        assert "Traceback" not in errors, errors
        return code


@pytest.fixture
def client():
    client = Client()
    yield client
    if client.process.poll() is None:
        client.process.kill()
        client.close()


@contextmanager
def initialized_client():
    """Another adapter, initialized (for launches after the first client's session ended),
    disconnected at the end; killed if the test fails first."""
    again = Client()
    try:
        again.request("initialize", {"adapterID": "gdef"})
        yield again
        again.request("disconnect", {})
        assert again.close() == 0
    finally:
        if again.process.poll() is None:
            again.process.kill()
            again.close()


def launch(client: Client, moves: str, breakpoints: dict[str, list[dict]], stop_on_entry: bool = False,
           filters: tuple = ("runtime", "assertion")) -> dict:
    capabilities = client.request("initialize", {"adapterID": "gdef", "linesStartAt1": True})["body"]
    client.request("launch", {"program": GAME, "moves": str(GAMES / moves), "stopOnEntry": stop_on_entry})
    client.event("initialized")
    verified = {}
    for path, specs in breakpoints.items():
        answer = client.request("setBreakpoints", {"source": {"path": path}, "breakpoints": specs})
        verified[path] = answer["body"]["breakpoints"]
    client.request("setExceptionBreakpoints", {"filters": list(filters)})
    client.request("configurationDone")
    return capabilities, verified
