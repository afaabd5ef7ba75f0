"""The debugger's engine (gdef_core.debug) without the protocol: what the adapter's test does
not reach."""
from __future__ import annotations

import queue
import sys
from pathlib import Path

import pytest

from gdef_core.debug.engine import DebugLoadError, DebugSession, LaunchOptions
from gdef_core.debug.values import scopes

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = str(ROOT / "examples" / "checkers.gdef")


class Listener:
    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()

    def stopped(self, stop) -> None:
        self.events.put(("stopped", stop))

    def output(self, category: str, text: str) -> None:
        pass

    def waiting(self) -> None:
        self.events.put(("waiting", None))

    def finished(self, code: int) -> None:
        self.events.put(("finished", code))

    def next(self):
        return self.events.get(timeout=60)


def where(stop) -> list[tuple[str, int | None]]:
    return [(frame.name, frame.span.line + 1 if frame.span else None) for frame in stop.frames]


def test_stop_on_entry_stops_in_setup_and_step_back_returns_there(tmp_path):
    script = tmp_path / "two.moves"
    script.write_text("clear(0,2); place(1,3,W)   # a first move\n", encoding="utf-8")
    listener = Listener()
    session = DebugSession(LaunchOptions([CHECKERS], str(script), stop_on_entry=True), listener)
    session.start()
    try:
        kind, stop = listener.next()
        assert (kind, stop.reason) == ("stopped", "entry")
        assert where(stop) == [("setup", 57), ("setup()", None)]
        assert [group.name for group in scopes(session._scope(stop, 0), True)] == \
            ["Locals", "Game variables", "Positions"]
        session.set_breakpoints(CHECKERS, [{"line": 210}])  # a comment in end() (line 211): moves to line 213
        session.resume("continue")
        kind, stop = listener.next()
        assert stop.reason == "breakpoint"
        assert where(stop) == [("end", 213), ("end() after move 1: clear(0,2); place(1,3,W)", 1)]
        session.resume("back")
        kind, stop = listener.next()
        assert (stop.reason, stop.frames[-1].name.split(" ")[0]) == ("step", "isMoveLegal()")
    finally:
        session.quit()
    assert sys.gettrace() is None  # this thread was never traced


def test_a_game_with_errors_cannot_be_debugged(tmp_path):
    broken = tmp_path / "broken.gdef"
    broken.write_text("name: b\nplayers: 2\nsize: 3 x 3\ndefine end() -> bool { return nope; }\n", encoding="utf-8")
    with pytest.raises(DebugLoadError, match="nope"):
        DebugSession(LaunchOptions([str(broken)]), Listener())
    with pytest.raises(DebugLoadError, match="cannot read the move script"):
        DebugSession(LaunchOptions([CHECKERS], str(tmp_path / "missing.moves")), Listener())
