"""One table for every game: gdef-sim's rates against OpenSpiel's, cold compile, warm start.

For every example and every game of benchmarks/games/ (each matched move by move against
OpenSpiel by tests/test_benchmark_games.py or tests/test_openspiel_games.py), in one run on
one machine:

  native     random games per second as `gdef-sim FILE --backend native` reports it (games
             divided by its play time), run as the real command in a fresh process
  python     the same with `--backend python`
  openspiel  OpenSpiel's C++ implementation driven from Python (pyspiel), uniformly random
             legal actions, games per second over the same wall time
  ratio      native / openspiel and python / openspiel; (cpu) the same in games per CPU second:
             gdef-sim's by the difference between two runs of different lengths (so start-up
             and loading drop out), OpenSpiel's by time.process_time()
  moves/game gdef-sim's average game length / OpenSpiel's actions per game (its amazons takes
             three actions a move, checkers one a jump, nine men's morris two for a mill; a
             random player that chooses among whole moves plays other games than one that
             chooses action by action, so games per second compare different game lengths)
  cold       wall time of `gdef-sim FILE --games 1 --backend native` with an empty cache
             (GDEF_CACHE_DIR pointing to a new folder): what the first run after an edit
             costs; in brackets the process's CPU time
  warm       the same command again, the compiled rules now cached: the start-up a user waits

Each rate runs for about --seconds of play (a short probe first sizes the run). gdef-sim
reports wall time, so its rates and the plain ratios suffer when other programs share the
machine; the (cpu) ratios much less. --backends adds a column per gdef-sim backend (a C backend,
when gdef-sim offers one, is `--backends native,c`). Ratios are against the OpenSpiel rate of
the same run; the geometric mean of the native ratios closes the table.

    python benchmarks/games.py [--games clobber,amazons] [--seconds 3] [--skip-cold]
                               [--skip-python] [--backends native] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BENCHMARK_GAMES = ROOT / "benchmarks" / "games"

GAMES = {
    # name: (the game's main file, OpenSpiel's game with its parameters)
    "tictactoe": (EXAMPLES / "tictactoe.gdef", "tic_tac_toe"),
    "connect4": (EXAMPLES / "connect4.gdef", "connect_four"),
    "reversi": (EXAMPLES / "reversi.gdef", "othello"),
    "breakthrough": (EXAMPLES / "breakthrough.gdef", "breakthrough"),
    "checkers": (EXAMPLES / "checkers.gdef", "checkers"),
    "gomoku": (EXAMPLES / "gomoku.gdef", "gomoku"),
    "go9": (EXAMPLES / "go" / "go9.gdef", "go(board_size=9,komi=7.5)"),
    "go19": (EXAMPLES / "go" / "go19.gdef", "go(board_size=19,komi=7.5)"),
    "chess": (EXAMPLES / "chess" / "chess.gdef", "chess"),
    "hex": (EXAMPLES / "hex.gdef", "hex"),
    "kalah": (EXAMPLES / "kalah.gdef", "mancala"),   # squares that count
    "oware": (EXAMPLES / "oware.gdef", "oware"),
    "clobber": (BENCHMARK_GAMES / "clobber.gdef", "clobber"),
    "amazons": (BENCHMARK_GAMES / "amazons.gdef", "amazons(board_size=8)"),
    "pentago": (BENCHMARK_GAMES / "pentago.gdef", "pentago"),
    "dots_and_boxes": (BENCHMARK_GAMES / "dots_and_boxes.gdef", "dots_and_boxes"),
    "lines_of_action": (BENCHMARK_GAMES / "lines_of_action.gdef", "lines_of_action"),
    "nine_mens_morris": (BENCHMARK_GAMES / "nine_mens_morris.gdef", "nine_mens_morris"),
    # written from OpenSpiel's rules as a newcomer would (docs/performance.md, "Games the
    # engine had not seen")
    "ultimate_tic_tac_toe": (BENCHMARK_GAMES / "ultimate_tic_tac_toe.gdef", "ultimate_tic_tac_toe"),
    "y": (BENCHMARK_GAMES / "y.gdef", "y"),
    "quoridor": (BENCHMARK_GAMES / "quoridor.gdef", "quoridor"),
}
PROBE_GAMES = {"native": 20, "python": 3}
MAX_GAMES = 2_000_000


class SimFailed(RuntimeError):
    """gdef-sim exited with an error (its output is the message)."""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def gdef_sim(path: Path, backend: str, games: int, cache: Path, timeout: float) -> tuple[dict, float]:
    """Run the real gdef-sim on `path`; its --json summary (with the process's CPU time added
    as "cpu") and the process's wall time."""
    with tempfile.TemporaryDirectory(prefix="gdef-bench-") as scratch:
        out = Path(scratch) / "sim.json"
        command = [sys.executable, "-m", "gdef_core.cli.main", "sim", str(path), "--games", str(games),
                   "--backend", backend, "--no-progress", "--json", str(out)]
        env = {**os.environ, "GDEF_CACHE_DIR": str(cache),
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        started, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
        wall = time.perf_counter() - started
        if done.returncode != 0 or not out.exists():
            raise SimFailed((done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"])
        summary = {**json.loads(out.read_text()), "cpu": children_cpu() - cpu}
    if summary.get("backend", "python") != backend:
        raise SimFailed([f"ran on {summary.get('backend')}, not {backend}"])
    return summary, wall


def sim_rate(path: Path, backend: str, seconds: float, cache: Path) -> tuple[float, float, float | None]:
    """gdef-sim's reported games/s over about `seconds` of play, after a probe that sizes it;
    the average number of moves per game; games per CPU second (the two runs' difference in
    games over their difference in CPU time, which leaves out start-up and a busy machine)."""
    timeout = max(600.0, 20 * seconds)
    probe, _ = gdef_sim(path, backend, PROBE_GAMES[backend], cache, timeout)
    games = min(MAX_GAMES, int(probe["games"] / max(probe["seconds"], 1e-9) * seconds))
    if games <= 2 * probe["games"]:
        return probe["games"] / max(probe["seconds"], 1e-9), probe["avg_length"], None
    summary, _ = gdef_sim(path, backend, games, cache, timeout + 10 * seconds)
    if summary["seconds"] < seconds / 2 and games < MAX_GAMES:   # the probe was too short to size it
        games = min(MAX_GAMES, int(games * seconds / max(summary["seconds"], 1e-3)))
        summary, _ = gdef_sim(path, backend, games, cache, timeout + 10 * seconds)
    extra_cpu = summary["cpu"] - probe["cpu"]
    cpu_rate = (summary["games"] - probe["games"]) / extra_cpu if extra_cpu > 0 else None
    return summary["games"] / max(summary["seconds"], 1e-9), summary["avg_length"], cpu_rate


def spiel_rate(name: str, seconds: float) -> tuple[float, float, float]:
    """OpenSpiel's random games per second (wall time) over about `seconds`, the average
    number of actions per game, and games per CPU second."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    count, actions, started, cpu = 0, 0, time.perf_counter(), time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        count += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return count / elapsed, actions / count, count / max(time.process_time() - cpu, 1e-9)


def measure(name: str, args) -> dict:
    path, spiel_name = GAMES[name]
    row: dict = {"game": name, "file": str(path.relative_to(ROOT)), "openspiel_game": spiel_name}
    row["openspiel"], row["openspiel_length"], row["openspiel_cpu"] = spiel_rate(spiel_name, args.seconds)
    with tempfile.TemporaryDirectory(prefix="gdef-bench-cache-") as cache_dir:
        cache = Path(cache_dir)
        for backend in args.backends:
            try:
                summary, cold = gdef_sim(path, backend, 1, cache, 900)   # compiles
                if not args.skip_cold:
                    row[f"{backend}_cold"], row[f"{backend}_compile"] = cold, summary.get("compile_seconds")
                    row[f"{backend}_cold_cpu"] = summary["cpu"]
                    warm, row[f"{backend}_warm"] = gdef_sim(path, backend, 1, cache, 900)
                    row[f"{backend}_warm_cpu"] = warm["cpu"]
                row[backend], row["length"], row[f"{backend}_cpu"] = sim_rate(path, backend, args.seconds, cache)
            except (SimFailed, subprocess.TimeoutExpired) as error:
                row[f"{backend}_error"] = str(error)
    if not args.skip_python:
        try:
            row["python"], length, row["python_cpu"] = sim_rate(path, "python", args.seconds,
                                                                Path(tempfile.gettempdir()))
            row.setdefault("length", length)
        except (SimFailed, subprocess.TimeoutExpired) as error:
            row["python_error"] = str(error)
    for engine in [*args.backends, "python"]:
        if row.get(engine):
            row[f"{engine}_ratio"] = row[engine] / row["openspiel"]
        if row.get(f"{engine}_cpu"):
            row[f"{engine}_cpu_ratio"] = row[f"{engine}_cpu"] / row["openspiel_cpu"]
    return row


def table(rows: list[dict], backends: list[str]) -> str:
    def rate(value) -> str:
        return "-" if value is None else f"{value:,.0f}" if value >= 10 else f"{value:.2f}"

    def seconds(value, cpu) -> str:
        return "-" if value is None else f"{value:.1f} s ({cpu:.1f} s)"

    def ratio(value) -> str:
        return "-" if value is None else f"{value:.2f}x" if value >= 0.1 else f"{value:.3f}x"

    head = ["game", "moves/game", "openspiel/s"]
    for backend in backends:
        head += [f"{backend}/s", f"{backend} ratio", "(cpu)", f"{backend} cold", f"{backend} warm"]
    head += ["python/s", "python ratio", "(cpu)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        length = "-" if row.get("length") is None else f"{row['length']:.0f}"
        cells = [row["game"], f"{length} / {row['openspiel_length']:.0f}", rate(row["openspiel"])]
        for backend in backends:
            cells += [rate(row.get(backend)), ratio(row.get(f"{backend}_ratio")),
                      ratio(row.get(f"{backend}_cpu_ratio")),
                      seconds(row.get(f"{backend}_cold"), row.get(f"{backend}_cold_cpu")),
                      seconds(row.get(f"{backend}_warm"), row.get(f"{backend}_warm_cpu"))]
        cells += [rate(row.get("python")), ratio(row.get("python_ratio")),
                  ratio(row.get("python_cpu_ratio"))]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for backend in [*backends, "python"]:
        for kind in ("ratio", "cpu_ratio"):
            ratios = [row[f"{backend}_{kind}"] for row in rows if row.get(f"{backend}_{kind}")]
            if ratios:
                mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
                lines.append(f"{backend}: geometric mean of the {kind.replace('_', ' ')}s "
                             f"{mean:.3g}x over {len(ratios)} games")
    errors = [(row["game"], key, row[key]) for row in rows for key in row if key.endswith("_error")]
    lines += [f"{game}: {key[:-6]} failed: {message}" for game, key, message in errors]
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", help=f"comma-separated names (default all: {','.join(GAMES)})")
    parser.add_argument("--seconds", type=float, default=3.0, help="play time of each rate (default 3)")
    parser.add_argument("--backends", default="native", help="gdef-sim backends to time besides python")
    parser.add_argument("--skip-cold", action="store_true", help="no cold-compile and warm-start columns")
    parser.add_argument("--skip-python", action="store_true", help="no Python backend column")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    args = parser.parse_args(argv)
    names = args.games.split(",") if args.games else list(GAMES)
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]}; choose from {', '.join(GAMES)}")
    args.backends = [b for b in args.backends.split(",") if b]
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    rows = []
    for name in names:
        rows.append(measure(name, args))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(table(rows, args.backends))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
