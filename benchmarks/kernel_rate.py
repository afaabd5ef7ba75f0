"""The native kernel's own rate on the games of benchmarks/games.py, without gdef-sim around it.

For each game: random games per second of this process's CPU time (time.process_time) of
NativeRules.simulate, gdef-sim's kernel (seeds derived and games added up inside it), the best
of --rounds runs of --games games, after the rules are compiled or loaded; and the totals of
200 games seeded 7 (games, wins, draws, capped, summed length, longest), which a change to
the kernel that keeps the random player's draws must leave equal. Comparing two trees in one
session (docs/performance.md, "What sampling changes bought"):

    PYTHONPATH=/path/to/other/tree python benchmarks/kernel_rate.py --games pentago,amazons
    python benchmarks/kernel_rate.py [--games NAMES] [--count 3000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import sys
import time

from games import GAMES

from gdef_core.native import NativeRules
from gdef_core.runtime import load_game


def kernel_rate(name: str, count: int, rounds: int) -> tuple[str, float, tuple]:
    """(the route, the best games per CPU second, the totals of 200 games seeded 7)."""
    game = load_game(str(GAMES[name][0]))
    rules = NativeRules.load(game, None)
    if rules is None:
        raise SystemExit(f"{name}: the native backend cannot compile it here")
    start = game.new_state()
    totals = rules.simulate(7, 0, 200, start, None)
    best = 0.0
    for run in range(rounds):
        began = time.process_time()
        rules.simulate(100 + run, 0, count, start, None)
        best = max(best, count / max(time.process_time() - began, 1e-9))
    return rules.route, best, (totals.games, tuple(totals.wins), totals.draws, totals.capped,
                               totals.total_length, totals.max_length)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help=f"comma-separated names (default all: {','.join(GAMES)})")
    parser.add_argument("--count", type=int, default=3000, help="games a run (default 3000)")
    parser.add_argument("--rounds", type=int, default=3, help="runs a game, the best counts (default 3)")
    args = parser.parse_args(argv)
    names = args.games.split(",") if args.games else list(GAMES)
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: one of {', '.join(GAMES)}")
    for name in names:
        route, rate, totals = kernel_rate(name, args.count, args.rounds)
        print(f"{name:18} {route:6} {rate:12,.0f} games/cpu-s   seed 7: {totals}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
