"""mcts iterations per second with Python playouts and with native playouts (issue 13).

For each game, `mcts` chooses a move from the start position again and again with a fixed
iteration budget, for about --seconds seconds of CPU time per engine and round; the engines
take turns within a round and the best round counts. The tree part (selection, expansion,
backpropagation and applying the tree's moves) is Python in both; only the random playouts
differ: `state.random_move` in Python, or one call of the game's compiled kernel
(gdef_core.native, numba) per playout. Native code is compiled (or loaded from the cache)
before timing; a game that cannot compile prints the usual notice and is left out.

    python benchmarks/mcts.py [--seconds 3] [--rounds 3] [--iterations 200] [--games a,b]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from gdef_core.play.mcts import MctsAgent, native_rules
from gdef_core.runtime import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"connect four": "connect4", "checkers": "checkers", "reversi": "reversi", "gomoku": "gomoku"}
ENGINES = ("python", "native")


def rate(game, engine: str, seconds: float, iterations: int) -> float:
    """Iterations per CPU second of choose() from the start, over about `seconds` seconds."""
    state = game.new_state()
    agent = MctsAgent(0, iterations=iterations, playouts=engine)
    done, start = 0, time.process_time()
    while True:
        agent.choose(state)
        done += agent.last_iterations
        now = time.process_time()
        if now - start >= seconds:
            return done / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per engine and round")
    parser.add_argument("--rounds", type=int, default=3, help="turns each engine gets; the best counts")
    parser.add_argument("--iterations", type=int, default=200, help="mcts iterations per choose()")
    parser.add_argument("--games", help=f"comma-separated names (default: all): {', '.join(GAMES)}")
    args = parser.parse_args()
    names = [n.strip() for n in args.games.split(",")] if args.games else list(GAMES)
    print("| game | mcts, Python playouts (it/s) | mcts, native playouts (it/s) | native / Python |")
    print("|---|---:|---:|---:|")
    for name in names:
        game = load_game(str(ROOT / "examples" / f"{GAMES[name]}.gdef"))
        engines = ENGINES if native_rules(game, "native") is not None else ENGINES[:1]
        best = {engine: 0.0 for engine in engines}
        for _ in range(args.rounds):
            for engine in engines:
                best[engine] = max(best[engine], rate(game, engine, args.seconds, args.iterations))
        native = best.get("native")
        ratio = f"{native / best['python']:.1f}" if native else "-"
        print(f"| {name} | {best['python']:,.0f} | {f'{native:,.0f}' if native else '-'} | {ratio} |",
              flush=True)


if __name__ == "__main__":
    main()
