"""The progress display of gdef-sim: a bar redrawn in place on a terminal, plain lines
every few seconds otherwise (logs and CI output stay readable)."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

BAR_WIDTH = 30
LINE_INTERVAL = 5.0   # seconds between plain lines
REDRAW_INTERVAL = 0.1  # seconds between redraws of the bar


class Progress:
    def __init__(self, stream: TextIO, *, terminal: bool,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.terminal = terminal
        self.clock = clock
        # A bar appears at once; plain lines only after a while (a quick run prints one line).
        self.last = float("-inf") if terminal else clock()
        self.open_line = False

    def __call__(self, done: int, total: int, seconds: float) -> None:
        now = self.clock()
        finished = done == total
        if not finished and now - self.last < (REDRAW_INTERVAL if self.terminal else LINE_INTERVAL):
            return
        self.last = now
        rate = done / seconds if seconds > 0 else 0.0
        remaining = (total - done) / rate if rate > 0 else 0.0
        if self.terminal:
            filled = BAR_WIDTH * done // total if total else BAR_WIDTH
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            eta = "" if finished else f"  ETA {remaining:.0f} s"
            self.stream.write(f"\r[{bar}] {done}/{total}  {rate:.1f} games/s{eta}\x1b[K")
            self.open_line = not finished
            if finished:
                self.stream.write("\n")
        else:
            self.stream.write(f"{done}/{total} games, {rate:.1f} games/s\n")
        self.stream.flush()

    def finish(self) -> None:
        """End a bar left half drawn (an error or Ctrl-C stopped the run)."""
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False
