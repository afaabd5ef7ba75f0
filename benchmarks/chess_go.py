"""Chess and Go next to references nobody here wrote, measured in one run:

  go 9x9      random playouts per second: examples/go/go9.gdef through the public game API,
              state.apply(state.random_move(rng)) (what gdef-sim's random agent does), against
              OpenSpiel's `go` (board_size=9, komi=7.5) through pyspiel,
              state.apply_action(rng.choice(state.legal_actions()))
  chess       perft(4) from the start position (197,281 move sequences): gdef's perft over
              examples/chess/chess.gdef (gdef-run --perft 4 runs the same function) against
              python-chess: a recursive perft that pushes and pops every legal move, and the
              same with board.outcome() after each push (our end() decides checkmate,
              stalemate and the draws after every move, so this one does the same work)

Time is the process's CPU time (time.process_time). The engines take turns over --rounds
rounds and the best round counts, so a busy spell on a shared machine slows every engine alike.
Printed: each rate or time and the ratio of gdef to the reference from this same run.

    python benchmarks/chess_go.py [--seconds 4] [--rounds 3] [--perft-rounds 1] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PERFT_DEPTH = 4
PERFT_COUNT = 197_281


def gdef_go_playout():
    from gdef_core import load_game

    game = load_game([str(ROOT / "examples" / "go" / "go9.gdef")])

    def playout(rng: random.Random) -> int:
        state = game.new_state()
        while not state.is_over:
            state.apply(state.random_move(rng))
        return state.move_number
    return playout


def spiel_go_playout():
    import pyspiel

    game = pyspiel.load_game("go", {"board_size": 9, "komi": 7.5})

    def playout(rng: random.Random) -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        return state.move_number()
    return playout


def playout_rate(playout, seconds: float, rng: random.Random) -> tuple[float, float]:
    """(playouts per second, mean moves per playout) over about `seconds` seconds."""
    count = moves = 0
    start = time.process_time()
    while True:
        moves += playout(rng)
        count += 1
        now = time.process_time()
        if now - start >= seconds:
            return count / (now - start), moves / count


def gdef_perft():
    from gdef_core import load_game
    from gdef_core.runtime.perft import perft

    state = load_game([str(ROOT / "examples" / "chess" / "chess.gdef")]).new_state()
    return lambda: perft(state, PERFT_DEPTH)[-1]


def python_chess_perft(with_outcome: bool):
    import chess

    def walk(board, depth: int) -> int:
        total = 0
        for move in board.legal_moves:
            board.push(move)
            if depth == 1:
                total += 1
                if with_outcome:
                    board.outcome()
            else:
                total += walk(board, depth - 1)
            board.pop()
        return total
    return lambda: walk(chess.Board(), PERFT_DEPTH)


def timed(run) -> float:
    start = time.process_time()
    count = run()
    elapsed = time.process_time() - start
    assert count == PERFT_COUNT, count
    return elapsed


def measure(seconds: float, rounds: int, perft_rounds: int) -> dict:
    go = {"gdef": gdef_go_playout(), "openspiel": spiel_go_playout()}
    for playout in go.values():   # warm-up
        playout_rate(playout, seconds / 10, random.Random(1))
    best = dict.fromkeys(go, (0.0, 0.0))
    for round_number in range(rounds):
        for name, playout in go.items():
            measured = playout_rate(playout, seconds / rounds, random.Random(round_number))
            best[name] = max(best[name], measured)
    perfts = {"gdef": gdef_perft(), "python-chess": python_chess_perft(False),
              "python-chess+outcome": python_chess_perft(True)}
    times = dict.fromkeys(perfts, float("inf"))
    for _ in range(perft_rounds):
        for name, run in perfts.items():
            times[name] = min(times[name], timed(run))
    return {
        "go9_playouts_per_s": {name: rate for name, (rate, _) in best.items()},
        "go9_mean_moves": {name: length for name, (_, length) in best.items()},
        "go9_gdef_over_openspiel": best["gdef"][0] / best["openspiel"][0],
        "chess_perft4_s": times,
        "chess_perft4_gdef_over_python_chess": times["gdef"] / times["python-chess"],
        "chess_perft4_gdef_over_python_chess_outcome": times["gdef"] / times["python-chess+outcome"],
    }


def report(r: dict) -> str:
    rates, lengths = r["go9_playouts_per_s"], r["go9_mean_moves"]
    times = r["chess_perft4_s"]
    return "\n".join([
        "Go 9x9, random playouts/s    gdef {:8.1f}   openspiel {:8.1f}   gdef/openspiel {:.4f}".format(
            rates["gdef"], rates["openspiel"], r["go9_gdef_over_openspiel"]),
        "  mean moves per playout     gdef {:8.1f}   openspiel {:8.1f}".format(
            lengths["gdef"], lengths["openspiel"]),
        "chess perft(4), seconds      gdef {:8.2f}   python-chess {:6.2f}   +outcome() {:6.2f}".format(
            times["gdef"], times["python-chess"], times["python-chess+outcome"]),
        "  gdef time / python-chess   {:.1f}x   (/ with outcome(): {:.1f}x)".format(
            r["chess_perft4_gdef_over_python_chess"], r["chess_perft4_gdef_over_python_chess_outcome"]),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="Go measuring time per engine")
    parser.add_argument("--rounds", type=int, default=3, help="Go turns each engine gets; the best counts")
    parser.add_argument("--perft-rounds", type=int, default=1, help="chess perft(4) runs per engine; the best counts")
    parser.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    args = parser.parse_args()
    results = measure(args.seconds, args.rounds, args.perft_rounds)
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
