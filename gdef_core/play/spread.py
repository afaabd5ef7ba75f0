"""When gdef-sim spreads a run over `--jobs` processes, and how it cuts the games.

Starting worker processes costs time before they play a game (a forkserver's workers load
the game; forked native workers inherit the compiled rules but still start), so a short run
is slower over several processes than in one. gdef-sim therefore plays the first games in its
own process for PROBE_SECONDS and hands the rest to the workers only when, at the rate
measured, they would take at least the START_SECONDS of the backend in one process: `--jobs`
never makes a run slower than one job by more than the probe's rounding. The thresholds are
measured (docs/performance.md, "gdef-sim and --jobs").
"""
from __future__ import annotations

# Seconds of games played in this process before deciding.
PROBE_SECONDS = 0.25
# Seconds of games left (at one process's rate) below which the run stays in one process.
PYTHON_START_SECONDS = 3.0
NATIVE_START_SECONDS = 1.0
# Seconds of games per batch handed to a worker (and per native kernel call in one process):
# long enough that the batch's overhead is small, short enough for a live progress bar.
CALL_SECONDS = 0.25


def worth_spreading(left: int, rate: float, jobs: int, start_seconds: float) -> bool:
    """Whether `left` more games, at `rate` games per second in one process, are worth
    starting `jobs` processes for."""
    return jobs > 1 and left > 0 and left / rate >= start_seconds


def calls(first: int, stop: int, jobs: int, rate: float) -> list[tuple[int, int]]:
    """Games first .. stop - 1 cut into (first, stop) batches of about CALL_SECONDS each at
    `rate`, and at least four per process (so that they finish together)."""
    size = max(1, min(int(rate * CALL_SECONDS), -(-(stop - first) // (4 * jobs))))
    return [(start, min(stop, start + size)) for start in range(first, stop, size)]
