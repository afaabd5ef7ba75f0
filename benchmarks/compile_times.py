"""Cold compile and warm start of the native backend, per example and route (docs/performance.md).

Cold: a new process with an empty cache folder (GDEF_CACHE_DIR) loads the example's native
rules (NativeRules.load: emitting, compiling, loading); warm: a second new process with that
cache. Wall time of the load alone, as gdef-sim and perft report it apart from play, measured
inside the child (Python's own start and gdef's imports are the same for both routes).

    python benchmarks/compile_times.py [--routes c,numba] [--games tictactoe,chess/chess]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("tictactoe", "tictactoe-split/tictactoe", "connect4", "breakthrough", "gomoku", "checkers",
            "reversi", "go/go9", "go/go19", "chess/chess")


def child(example: str, route: str) -> None:
    """In the new process: load the rules, print the seconds it took (-1: not on `route`)."""
    import time

    from gdef_core import load_game
    from gdef_core.native import NativeRules

    game = load_game(example)
    start = time.perf_counter()
    rules = NativeRules.load(game, None, route=route)
    print(time.perf_counter() - start if rules is not None and rules.route == route else -1)


def load_seconds(example: str, route: str, cache: str) -> float:
    environment = dict(os.environ, GDEF_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, __file__, "--load", str(ROOT / "examples" / f"{example}.gdef"), route],
                          env=environment, capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--routes", default="c,numba")
    parser.add_argument("--games", default=",".join(EXAMPLES))
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--load", nargs=2, metavar=("GDEF", "ROUTE"), help="(the child process's part)")
    args = parser.parse_args()
    if args.load:
        child(*args.load)
        return
    results: dict = {}
    print(f"{'example':<28} {'route':<6} {'cold s':>8} {'warm s':>8}")
    for example in args.games.split(","):
        for route in args.routes.split(","):
            with tempfile.TemporaryDirectory() as cache:
                cold = load_seconds(example, route, cache)
                warm = load_seconds(example, route, cache)
            results.setdefault(example, {})[route] = {"cold": cold, "warm": warm}
            print(f"{example:<28} {route:<6} {cold:>8.2f} {warm:>8.2f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
