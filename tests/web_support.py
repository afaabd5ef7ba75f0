"""A real `gdef-run --web` process for the web tests: started on a free port, its address read
from what it prints, spoken to over HTTP, stopped with Ctrl-C (SIGINT) as a person would; and what the browser tests
need (Playwright and Chromium, or a skip; their fixtures are conftest.py's `browser` and
`open_board`)."""
from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

from support import EVENT_SECONDS, EXAMPLES, ROOT, console_script, ctrl_c_as_at_a_terminal, missing, need_module  # EXAMPLES: also imported from here by the web tests

GDEF_RUN = console_script("gdef-run")
TICTACTOE = "examples/tictactoe.gdef"
# A game whose isMoveLegal() divides by zero on column 1: a run-time error to be explained.
BOOM = """\
name: boom
players: 2
size: 3 x 3
obj X

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  return 6 / (x - 1) != 0 && CurrentPosition[x][OperationList[0][1]] == empty;
}

define end() -> bool { return moveNumber() == 4; }
"""


class WebRun:
    """`gdef-run --web --no-browser ARGS` running; `.get()` / `.post()` answer (status, JSON).
    Requests carry the run's token unless a header of None leaves it out."""

    def __init__(self, *args: str, cwd: Path = ROOT) -> None:
        self.process = subprocess.Popen([GDEF_RUN, "--web", "--no-browser", *args], cwd=cwd,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=ctrl_c_as_at_a_terminal)
        self.lines: list[str] = []
        first = self._read_until_serving()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{40,})", first or "")
        if match is None:
            out, err = self.process.communicate(timeout=10)
            raise AssertionError(f"gdef-run --web did not start:\n{''.join(self.lines)}{out}{err}")
        self.port = int(match.group(1))
        self.token = match.group(2)
        self.url = match.group(0)  # with the run's token, as a person opens it
        self.out_rest = ""
        self.err = ""
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _read_until_serving(self) -> str | None:
        for line in self.process.stdout:
            self.lines.append(line)
            if line.startswith("Serving "):
                return line
        return None

    def _drain(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)

    def request(self, method: str, path: str, body=None, headers: dict | None = None,
                raw: bytes | None = None) -> tuple[int, dict, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": f"127.0.0.1:{self.port}", "X-Gdef-Token": self.token, **(headers or {})}
        sent = {key: value for key, value in sent.items() if value is not None}  # None: not sent
        payload = raw
        if body is not None:
            payload = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=payload, headers=sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        kind = response.getheader("Content-Type") or ""
        parsed = json.loads(data) if kind.startswith("application/json") else data.decode()
        return response.status, parsed, dict(response.getheaders())

    def get(self, path: str, **headers) -> tuple[int, dict]:
        status, data, _ = self.request("GET", path, headers=headers)
        return status, data

    def post(self, path: str, body=None, **headers) -> tuple[int, dict]:
        status, data, _ = self.request("POST", path, {} if body is None else body, headers=headers)
        return status, data

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl-C: (exit code, everything printed on stdout, stderr)."""
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=EVENT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("Ctrl-C did not stop gdef-run --web") from None
        err = self.process.stderr.read()
        self._reader.join(timeout=10)
        return code, "".join(self.lines), err

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


def chromium_path() -> str | None:
    """Debian's Chromium (what CI installs), or $GDEF_CHROMIUM."""
    for path in (os.environ.get("GDEF_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if path and os.access(path, os.X_OK):
            return path
    return None


def playwright_or_skip():
    """The playwright module, with Chromium's path; the test module is skipped, saying why,
    when either is missing (a failure in CI: support.missing)."""
    playwright_api = need_module("playwright.sync_api", "pip install -e '.[dev]'")
    chromium = chromium_path()
    if chromium is None:
        missing("Chromium is not installed (apt-get install chromium, or set GDEF_CHROMIUM)")
    return playwright_api, chromium
