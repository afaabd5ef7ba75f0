"""Random playouts per second, measured in one run for:

  gdef        examples/*.gdef through the public game API: state.apply(state.random_move(rng)),
              what gdef's random agent and mcts playouts do
  gdef-list   the same, choosing with rng.choice(state.legal_moves()) (every candidate judged)
  hand        the same game written by hand in plain Python (benchmarks/handwritten_*.py),
              rng.choice(state.legal_moves())
  openspiel   OpenSpiel's C++ implementation driven from Python (pyspiel),
              rng.choice(state.legal_actions())
  native      the example compiled by gdef's native backend through numba (gdef[fast]): whole
              games played inside the compiled kernel, in batches of games (skipped without numba)
  native-c    the same through the native backend's C route (gdef_core/cnative: the system C
              compiler; skipped without one)

Tic-tac-toe and connect four have every engine; reversi, breakthrough, checkers, Go 9x9 and
chess have gdef, native and OpenSpiel (no hand-written version); gomoku has no OpenSpiel one.

Each engine plays complete games, choosing uniformly among the legal moves with a seeded
`random.Random`, for about --seconds seconds in all, in --rounds turns taken alternately with
the other engines (the best turn counts), after a short warm-up. Time is the process's CPU
time (time.process_time), so other programs busy on the machine do not count against
whichever engine is running. Printed: the rates and the two ratios the project's targets are
stated in (issue 7): hand / gdef (target <= 3) and gdef / openspiel (target >= 0.1), then
the native backend's (issue 13): native / openspiel (target >= 5) and native against Ludii's
published single-thread rates.

    python benchmarks/playouts.py [--seconds 3] [--rounds 5] [--json OUT] [--games a,b]
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

from handwritten_connect4 import ConnectFour  # noqa: E402
from handwritten_tictactoe import TicTacToe  # noqa: E402

GAMES = {
    # name: (example, hand-written class, OpenSpiel name)
    "tic-tac-toe": ("tictactoe.gdef", TicTacToe, "tic_tac_toe"),
    "connect four": ("connect4.gdef", ConnectFour, "connect_four"),
    "reversi": ("reversi.gdef", None, "othello"),
    "breakthrough": ("breakthrough.gdef", None, "breakthrough"),
    "checkers": ("checkers.gdef", None, "checkers"),
    "gomoku": ("gomoku.gdef", None, None),
    "go 9x9": ("go/go9.gdef", None, "go(board_size=9,komi=7.5)"),
    "chess": ("chess/chess.gdef", None, "chess"),
}
# Native games per kernel call: fewer for the games whose playouts take milliseconds.
NATIVE_BATCH = {"go 9x9": 50, "chess": 10}
TARGET_HAND = 3.0
TARGET_SPIEL = 0.1
TARGET_NATIVE_SPIEL = 5.0
# Random playouts per second of Ludii, single thread: "Optimised Playout Implementations for
# the Ludii General Game System" (Piette, Browne, Soemers, 2021).
LUDII = {"tic-tac-toe": 131_855, "connect four": 28_279, "reversi": 1_032}


def gdef_playouts(example: str, *, whole_list: bool):
    from gdef_core import load_game

    game = load_game([str(ROOT / "examples" / example)])

    def playout(rng: random.Random) -> None:
        state = game.new_state()
        while not state.is_over:
            state.apply(state.random_move(rng))

    def playout_from_list(rng: random.Random) -> None:
        state = game.new_state()
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
    return playout_from_list if whole_list else playout


def native_playouts(example: str, batch: int = 200, route: str = "numba"):
    """A batch of native games per call (-> how many), or None when `route` cannot run here or
    cannot compile the example."""
    import numpy as np

    from gdef_core import load_game
    from gdef_core.native import NativeRules

    game = load_game([str(ROOT / "examples" / example)])
    native = NativeRules.load(game, lambda message: print(message, file=sys.stderr), route=route)
    if native is None or native.route != route:
        return None
    start = game.new_state()

    def playouts(rng: random.Random) -> int:
        seeds = np.array([rng.getrandbits(64) for _ in range(batch)], dtype=np.uint64)
        native.playouts(seeds, start, None)
        return batch
    return playouts


def hand_playouts(cls):
    def playout(rng: random.Random) -> None:
        state = cls()
        while not state.over:
            state.apply(rng.choice(state.legal_moves()))
    return playout


def spiel_playouts(name: str):
    import pyspiel

    game = pyspiel.load_game(name)

    def playout(rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return playout


def rate(playout, seconds: float, rng: random.Random) -> float:
    """Playouts per second over about `seconds` seconds."""
    count, start = 0, time.process_time()
    end = start + seconds
    while True:
        for _ in range(10):
            count += playout(rng) or 1
        now = time.process_time()
        if now >= end:
            return count / (now - start)


def measure(seconds: float, rounds: int, games=None) -> dict:
    """The best rate of each engine over `rounds` rounds, the engines taking turns within a
    round: a machine busy with something else for a while slows every engine alike instead
    of whichever happened to be measured then."""
    results = {}
    for name, (example, cls, spiel_name) in GAMES.items():
        if games and name not in games:
            continue
        engines = {"gdef": gdef_playouts(example, whole_list=False)}
        if cls is not None:
            engines["gdef-list"] = gdef_playouts(example, whole_list=True)
            engines["hand"] = hand_playouts(cls)
        if spiel_name is not None:
            engines["openspiel"] = spiel_playouts(spiel_name)
        for engine, route in (("native", "numba"), ("native-c", "c")):
            native = native_playouts(example, NATIVE_BATCH.get(name, 200), route)
            if native is not None:
                engines[engine] = native
        best = dict.fromkeys(engines, 0.0)
        for engine, playout in engines.items():   # warm-up
            rate(playout, seconds / 10, random.Random(1))
        for round_number in range(rounds):
            for engine, playout in engines.items():
                rng = random.Random(round_number)
                best[engine] = max(best[engine], rate(playout, seconds / rounds, rng))
        ratios = {}
        if cls is not None:
            ratios = {"hand_over_gdef": best["hand"] / best["gdef"],
                      "gdef_over_openspiel": best["gdef"] / best["openspiel"],
                      "hand_over_gdef_list": best["hand"] / best["gdef-list"],
                      "gdef_list_over_openspiel": best["gdef-list"] / best["openspiel"]}
        if "native-c" in best:
            if "openspiel" in best:
                ratios["c_over_openspiel"] = best["native-c"] / best["openspiel"]
            if "native" in best:
                ratios["c_over_numba"] = best["native-c"] / best["native"]
        if "native" in best:
            ratios["native_over_gdef"] = best["native"] / best["gdef"]
            if "openspiel" in best:
                ratios["native_over_openspiel"] = best["native"] / best["openspiel"]
            if name in LUDII:
                ratios["native_over_ludii"] = best["native"] / LUDII[name]
        results[name] = {**best, **ratios}
    return results


def report(results: dict) -> str:
    def verdict(ratio: float, ok: bool) -> str:
        return f"{ratio:6.3f} {'ok' if ok else 'MISSED':<6}"

    lines = [f"{'playouts/s':<14} {'gdef':>8} {'gdef-list':>10} {'hand':>8} {'openspiel':>10}   "
             f"{'hand/gdef':>13} {'gdef/openspiel':>14}"]
    for name, r in results.items():
        if "hand" not in r:
            continue
        lines.append(f"{name:<14} {r['gdef']:>8.0f} {r['gdef-list']:>10.0f} {r['hand']:>8.0f} "
                     f"{r['openspiel']:>10.0f}   {verdict(r['hand_over_gdef'], r['hand_over_gdef'] <= TARGET_HAND):>13} "
                     f"{verdict(r['gdef_over_openspiel'], r['gdef_over_openspiel'] >= TARGET_SPIEL):>14}")
        lines.append(f"{'  gdef-list':<14} {'':>8} {'':>10} {'':>8} {'':>10}   "
                     f"{verdict(r['hand_over_gdef_list'], r['hand_over_gdef_list'] <= TARGET_HAND):>13} "
                     f"{verdict(r['gdef_list_over_openspiel'], r['gdef_list_over_openspiel'] >= TARGET_SPIEL):>14}")
    lines.append(f"targets: hand/gdef <= {TARGET_HAND:g}, gdef/openspiel >= {TARGET_SPIEL:g}")
    if any("native" in r for r in results.values()):
        lines += ["", f"{'native':<14} {'playouts/s':>10} {'gdef':>8} {'openspiel':>10} {'ludii':>8}   "
                      f"{'native/gdef':>11} {'native/openspiel':>16} {'native/ludii':>13}"]
        for name, r in results.items():
            if "native" not in r:
                continue
            spiel = r.get("native_over_openspiel")
            ludii = r.get("native_over_ludii")
            lines.append(
                f"{name:<14} {r['native']:>10.0f} {r['gdef']:>8.0f} {r.get('openspiel', 0):>10.0f} "
                f"{LUDII.get(name, 0):>8}   {r['native_over_gdef']:>11.1f} "
                f"{verdict(spiel, spiel >= TARGET_NATIVE_SPIEL) if spiel is not None else '-':>16} "
                f"{verdict(ludii, ludii >= 1) if ludii is not None else '-':>13}")
        lines.append(f"targets: native/openspiel >= {TARGET_NATIVE_SPIEL:g}, native/ludii >= 1 "
                     "(Ludii: Piette et al. 2021, one thread)")
    if any("native-c" in r for r in results.values()):
        lines += ["", f"{'native-c':<14} {'playouts/s':>10} {'numba':>10} {'openspiel':>10}   "
                      f"{'c/numba':>8} {'c/openspiel':>12}"]
        for name, r in results.items():
            if "native-c" not in r:
                continue
            numba, spiel = r.get("c_over_numba"), r.get("c_over_openspiel")
            lines.append(f"{name:<14} {r['native-c']:>10.0f} {r.get('native', 0):>10.0f} "
                         f"{r.get('openspiel', 0):>10.0f}   {f'{numba:.2f}' if numba else '-':>8} "
                         f"{f'{spiel:.2f}' if spiel else '-':>12}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per engine and game")
    parser.add_argument("--rounds", type=int, default=5, help="turns each engine gets; the best counts")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    parser.add_argument("--games", help="comma-separated names to measure (default: all): "
                                        + ", ".join(GAMES))
    args = parser.parse_args()
    results = measure(args.seconds, args.rounds, args.games.split(",") if args.games else None)
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
