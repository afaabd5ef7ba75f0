"""The server over a real stdio pipe, fed broken frames: it must keep answering (issue
"Reliability", item 7), count lone-CR line ends as clients do, and log one line, not a traceback."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = [sys.executable, "-m", "gdef_lsp"]


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Pipe:
    def __init__(self) -> None:
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self) -> dict:
        length = None
        while True:
            line = self.process.stdout.readline()
            assert line, self.process.stderr.read().decode()
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            elif line == b"\r\n" and length is not None:
                return json.loads(self.process.stdout.read(length))

    def answer_to(self, request_id) -> dict:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                return message
        raise AssertionError(f"no answer to request {request_id}")

    def notification(self, method: str) -> dict:
        while True:
            message = self.read()
            if message.get("method") == method:
                return message

    def close(self) -> str:
        self.send(frame({"jsonrpc": "2.0", "id": 999, "method": "shutdown"}))
        self.answer_to(999)
        self.send(frame({"jsonrpc": "2.0", "method": "exit"}))
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return self.process.stderr.read().decode()


@pytest.fixture
def server():
    pipe = Pipe()
    pipe.send(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    pipe.answer_to(1)
    pipe.send(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    yield pipe
    if pipe.process.poll() is None:
        pipe.process.kill()
        pipe.process.wait()


HOVER = {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": "file:///tmp/none.gdef"}, "position": {"line": 0, "character": 0}}}


@pytest.mark.parametrize("broken", [
    b"Content-Length: abc\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"shutdown\"}",
    b"\r\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"shutdown\"}",          # no header at all
    b"Content-Length: 10\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"shutdown\"}",  # too short
    b"Content-Length: 5\r\n\r\nhello",                                          # not JSON
])
def test_a_broken_frame_does_not_leave_the_server_deaf(server, broken):
    server.send(broken)
    server.send(frame(HOVER))
    assert server.answer_to(5)["id"] == 5
    stderr = server.close()
    assert "Traceback" not in stderr


def test_lone_cr_line_ends_count_as_clients_count_them(server, tmp_path):
    path = tmp_path / "cr.gdef"
    text = "name: cr\rplayers: 2\rsize: 3 x 3\robj X\rdefine isMoveLegal() -> bool { return 1; }\r" \
           "define end() -> bool { return false; }\r"
    path.write_bytes(text.encode())
    uri = path.as_uri()
    server.send(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "gdef", "version": 1, "text": text}}}))
    published = server.notification("textDocument/publishDiagnostics")
    while published["params"]["uri"] != uri or not published["params"]["diagnostics"]:
        published = server.notification("textDocument/publishDiagnostics")
    diagnostic = published["params"]["diagnostics"][0]
    assert diagnostic["code"] == "G305"
    assert diagnostic["range"]["start"] == {"line": 4, "character": 38}
    server.close()
