"""What the tests of the debugger's engine (gdef_core.debug) share: a listener that queues what
a DebugSession reports, for the test thread to wait on."""
from __future__ import annotations

import queue

from support import EVENT_SECONDS


class Listener:
    """The engine's listener: its stops, waits for input and end, in order (output is dropped)."""

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
        """The next event, (kind, its stop or exit code); a test failure when none comes."""
        try:
            return self.events.get(timeout=EVENT_SECONDS)
        except queue.Empty:
            raise AssertionError(f"the debug session reported nothing within {EVENT_SECONDS:.0f} s") from None
