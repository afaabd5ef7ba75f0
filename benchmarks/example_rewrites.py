"""Random playouts per second of each example against its text at a baseline revision (the
examples rewritten with arrays, `for` and `isGenerated()`, spec section 15, against the versions
before the rewrite), measured in one run.

Both versions are loaded by the same gdef (this checkout), so the ratio measures the rules
text only. Each version plays complete games through the public API
(`state.apply(state.random_move(rng))`, what gdef's random agent and mcts playouts do) for
about --seconds seconds in all, in --rounds turns taken alternately (the best turn counts),
after a short warm-up; time is CPU time. Printed: playouts/s of each and new / old (1.0 means
as fast; the goal is >= 1).

    python benchmarks/example_rewrites.py [--baseline REV] [--seconds 4] [--rounds 4] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("checkers.gdef", "reversi.gdef", "connect4.gdef", "gomoku.gdef")
# The commit before the rewrites of issue 10.
DEFAULT_BASELINE = "55c8c0c"


def baseline_text(revision: str, name: str) -> str:
    return subprocess.run(["git", "show", f"{revision}:examples/{name}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def playouts(path: str, max_moves: int):
    from gdef_core import load_game

    game = load_game([path])

    def playout(rng: random.Random) -> None:
        state = game.new_state()
        moves = 0
        while not state.is_over and moves < max_moves:
            state.apply(state.random_move(rng))
            moves += 1
    return playout


def rate(playout, seconds: float, rng: random.Random) -> float:
    count, start = 0, time.process_time()
    while True:
        playout(rng)
        count += 1
        now = time.process_time()
        if now >= start + seconds:
            return count / (now - start)


def measure(revision: str, seconds: float, rounds: int, names=EXAMPLES, max_moves: int = 10_000) -> dict:
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            old = Path(folder) / f"old-{name}"
            old.write_text(baseline_text(revision, name), encoding="utf-8")
            engines = {"old": playouts(str(old), max_moves),
                       "new": playouts(str(ROOT / "examples" / name), max_moves)}
            best = dict.fromkeys(engines, 0.0)
            for playout in engines.values():
                rate(playout, seconds / 10, random.Random(1))
            for round_number in range(rounds):
                for engine, playout in engines.items():
                    best[engine] = max(best[engine], rate(playout, seconds / rounds / 2, random.Random(round_number)))
            results[name] = {**best, "new_over_old": best["new"] / best["old"]}
    return results


def report(results: dict, revision: str) -> str:
    lines = [f"playouts/s       {'old (' + revision + ')':>16} {'new':>10} {'new/old':>9}"]
    for name, r in results.items():
        lines.append(f"{name:<16} {r['old']:>16.1f} {r['new']:>10.1f} {r['new_over_old']:>9.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="the git revision of the old examples")
    parser.add_argument("--seconds", type=float, default=4.0, help="measuring time per example")
    parser.add_argument("--rounds", type=int, default=4, help="turns each version gets; the best counts")
    parser.add_argument("--only", nargs="*", default=list(EXAMPLES), help="the examples to measure")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    results = measure(args.baseline, args.seconds, args.rounds, args.only)
    print(report(results, args.baseline))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
