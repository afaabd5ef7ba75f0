"""What test files share: the repository's folders, the console scripts, waiting on a child
process's events, and the optional parts a test needs. A missing optional part skips the test with a reason that pytest's summary shows
(`-rfEs` in pyproject.toml), except in CI (the environment variable CI set, or the older
GDEF_REQUIRE_BROWSER / GDEF_REQUIRE_EDITORS), where it fails: CI must run every test."""
from __future__ import annotations

import importlib
import os
import queue
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, NoReturn, TextIO, TypeVar

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# How long a test waits for an event of a child process (a line, a file): generous, because CI's
# two cores are shared by two pytest processes, numba compiles and the children themselves. A
# test waits for the event, never for a time; the bound only turns a hang into a failure.
EVENT_SECONDS = 300.0

T = TypeVar("T")

REQUIRED = any(os.environ.get(name) for name in ("CI", "GDEF_REQUIRE_BROWSER", "GDEF_REQUIRE_EDITORS"))


def missing(reason: str) -> NoReturn:
    """Skip (the test, or the module when called at import) saying `reason`; fail in CI."""
    __tracebackhide__ = True  # pytest reports the line of the test that needs the part
    if REQUIRED:
        pytest.fail(f"{reason} (CI needs every optional part)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def need_module(name: str, install: str) -> ModuleType:
    """The module `name`, or a skip saying how to `install` it."""
    __tracebackhide__ = True
    try:
        return importlib.import_module(name)
    except ImportError as error:
        broken = "" if error.name == name else f": {error}"  # installed, but it does not import
        missing(f"{name} is not installed ({install}){broken}")


def need_program(name: str, install: str) -> str:
    """The path of the program `name` on PATH, or a skip saying how to `install` it."""
    __tracebackhide__ = True
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed ({install})")
    return path


def console_script(name: str) -> str:
    """The path of gdef's console script `name` (gdef-run ...) installed beside this Python."""
    return str(Path(sys.executable).with_name(name))


def line_within(stream: TextIO, seconds: float = EVENT_SECONDS) -> str:
    """The next line a child process writes to the pipe `stream` ("" when it closed), or a test
    failure when none comes within `seconds` (kill the child in a `finally`)."""
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"no line from the child process within {seconds:.0f} s") from None


def wait_for(event: Callable[[], T], what: str, seconds: float = EVENT_SECONDS) -> T:
    """The first true value of `event()`, asked every tenth of a second, or a test failure
    saying `what` did not happen within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = event()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds:.0f} s")
        time.sleep(0.1)


def ctrl_c_as_at_a_terminal() -> None:
    """`preexec_fn` of a child a test stops with SIGINT. A shell without job control starts
    background jobs with SIGINT ignored (`scripts/test.sh &`, `nohup .ci/run &`), and every
    child would inherit that: Ctrl-C would stop nothing and the test would wait for ever."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
