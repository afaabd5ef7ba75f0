"""gdef-sim's own rate against the native kernel's and OpenSpiel's, measured in one run.

  gdef-sim   gdef_core.play.simulate.simulate(..., backend="native"), what `gdef-sim GAME
             --games N --backend native` runs: seeds derived and games added up in the kernel,
             the Python around it (kernel calls, the table) included
  kernel     benchmarks/playouts.py's native engine: NativeRules.playouts on batches of seeds
             made in Python, a row of results per game, nothing added up
  openspiel  OpenSpiel's C++ game driven from Python (pyspiel), as in playouts.py

Rates are games per second of this process's CPU time (time.process_time), the best of
--rounds turns taken alternately, so that a machine busy with other work slows every engine
alike; gdef-sim's own wall-clock rate (the one its table prints) is shown beside it. The
targets (issue 26): gdef-sim / openspiel >= 5 and kernel / gdef-sim <= 1.5.

    python benchmarks/sim_rate.py [--seconds 3] [--rounds 5] [--games tic-tac-toe,connect four] [--json OUT]
    python benchmarks/sim_rate.py --spread     # what --jobs 2 costs on short runs (play/spread.py)

`sim_rate(example)` is the gdef-sim measurement alone, for other benchmarks (games.py).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from playouts import GAMES, native_playouts, rate, spiel_playouts  # noqa: E402

TARGET_SPIEL = 5.0
TARGET_KERNEL = 1.5
DEFAULT_GAMES = ("tic-tac-toe", "connect four")


def sim_engine(example: str, backend: str = "native"):
    """-> play(seconds) running gdef-sim's simulation for about `seconds` of CPU time, returning
    (games, CPU seconds, the wall-clock seconds gdef-sim reported); the first call also says
    the rules' compile (or load) time apart: engine.compile_seconds."""
    from gdef_core import load_game
    from gdef_core.play.simulate import simulate
    from gdef_core.play.spec import parse_agent

    game = load_game([str(ROOT / "examples" / example)])
    specs = [parse_agent("random")] * game.players
    started = time.perf_counter()
    first = simulate(game, specs, 1, backend=backend)   # compiles (or loads) the rules
    state = {"games": 100, "seed": 0, "compile_seconds": time.perf_counter() - started,
             "backend": first.backend}

    def play(seconds: float) -> tuple[int, float, float]:
        games = state["games"]
        state["seed"] += 1
        cpu = time.process_time()
        summary = simulate(game, specs, games, seed=state["seed"], backend=backend)
        cpu = time.process_time() - cpu
        # the next run sized to take `seconds` at this one's rate
        state["games"] = max(100, int(games * seconds / max(cpu, 1e-3)))
        return summary.games, cpu, summary.seconds
    play.state = state
    return play


def sim_rate(example: str, backend: str = "native", seconds: float = 3.0, rounds: int = 3) -> dict:
    """gdef-sim's rate on `example` (a path under examples/): {"rate": games per CPU second
    (the best of `rounds` runs), "reported_rate": games per wall-clock second as gdef-sim
    prints it (same run), "compile_seconds": the first run's rule compile (or load), "backend"}."""
    play = sim_engine(example, backend)
    play(seconds / 10)   # sizes the runs
    best = {"rate": 0.0, "reported_rate": 0.0}
    for _ in range(rounds):
        games, cpu, wall = play(seconds / rounds)
        if games / cpu > best["rate"]:
            best = {"rate": games / cpu, "reported_rate": games / wall if wall > 0 else 0.0}
    return {**best, "compile_seconds": play.state["compile_seconds"], "backend": play.state["backend"]}


def measure(seconds: float, rounds: int, names) -> dict:
    results = {}
    for name in names:
        example, _, spiel_name = GAMES[name]
        sim = sim_engine(example)
        kernel = native_playouts(example)
        spiel = spiel_playouts(spiel_name)
        sim(seconds / 10)
        rate(kernel, seconds / 10, random.Random(1))
        rate(spiel, seconds / 10, random.Random(1))
        best = {"gdef-sim": 0.0, "gdef-sim wall": 0.0, "kernel": 0.0, "openspiel": 0.0}
        for round_number in range(rounds):
            games, cpu, wall = sim(seconds / rounds)
            if games / cpu > best["gdef-sim"]:
                best["gdef-sim"], best["gdef-sim wall"] = games / cpu, games / wall
            best["kernel"] = max(best["kernel"], rate(kernel, seconds / rounds, random.Random(round_number)))
            best["openspiel"] = max(best["openspiel"], rate(spiel, seconds / rounds, random.Random(round_number)))
        results[name] = {**best, "sim_over_openspiel": best["gdef-sim"] / best["openspiel"],
                         "kernel_over_sim": best["kernel"] / best["gdef-sim"],
                         "compile_seconds": sim.state["compile_seconds"]}
    return results


# (backend, example, games) of the --spread table
SPREAD_RUNS = [("python", "tictactoe.gdef", n) for n in (50, 1000, 3000)] + \
              [("native", "connect4.gdef", n) for n in (3000, 30000, 100000, 300000)]


def spread_costs() -> list[tuple]:
    """(backend, example, games, wall seconds with one job, with two jobs spread at once):
    what starting the workers costs, from which play/spread.py's thresholds are chosen."""
    from gdef_core import load_game
    from gdef_core.play import spread
    from gdef_core.play.simulate import simulate
    from gdef_core.play.spec import parse_agent

    rows = []
    for backend, example, games in SPREAD_RUNS:
        game = load_game([str(ROOT / "examples" / example)])
        specs = [parse_agent("random")] * game.players
        simulate(game, specs, 10, backend=backend)   # compiled or loaded before timing
        times = []
        for jobs in (1, 2):
            saved = spread.PROBE_SECONDS, spread.PYTHON_START_SECONDS, spread.NATIVE_START_SECONDS
            if jobs == 2:
                spread.PROBE_SECONDS = spread.PYTHON_START_SECONDS = spread.NATIVE_START_SECONDS = 0.0
            try:
                started = time.perf_counter()
                summary = simulate(game, specs, games, backend=backend, jobs=jobs)
                times.append(time.perf_counter() - started)
                assert summary.processes == jobs
            finally:
                spread.PROBE_SECONDS, spread.PYTHON_START_SECONDS, spread.NATIVE_START_SECONDS = saved
        rows.append((backend, example, games, *times))
    return rows


def report(results: dict) -> str:
    lines = [f"{'games/s (CPU)':<14} {'gdef-sim':>10} {'(wall)':>10} {'kernel':>10} {'openspiel':>10}   "
             f"{'gdef-sim/openspiel':>18} {'kernel/gdef-sim':>15}"]
    for name, r in results.items():
        spiel, kernel = r["sim_over_openspiel"], r["kernel_over_sim"]
        lines.append(f"{name:<14} {r['gdef-sim']:>10.0f} {r['gdef-sim wall']:>10.0f} {r['kernel']:>10.0f} "
                     f"{r['openspiel']:>10.0f}   {spiel:>11.2f} {'ok' if spiel >= TARGET_SPIEL else 'MISSED':<6} "
                     f"{kernel:>8.2f} {'ok' if kernel <= TARGET_KERNEL else 'MISSED':<6}")
    lines.append(f"targets: gdef-sim/openspiel >= {TARGET_SPIEL:g}, kernel/gdef-sim <= {TARGET_KERNEL:g}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per engine and game")
    parser.add_argument("--rounds", type=int, default=5, help="turns each engine gets; the best counts")
    parser.add_argument("--games", default=",".join(DEFAULT_GAMES),
                        help="comma-separated names (of playouts.py's games with OpenSpiel)")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    parser.add_argument("--spread", action="store_true",
                        help="instead: wall seconds of short runs with one job and with two")
    args = parser.parse_args()
    if args.spread:
        for backend, example, games, one, two in spread_costs():
            print(f"{backend:<7} {example:<15} {games:>7} games: --jobs 1 {one:6.2f} s, "
                  f"--jobs 2 spread {two:6.2f} s")
        return
    results = measure(args.seconds, args.rounds, args.games.split(","))
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
