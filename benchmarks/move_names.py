"""What playing a move costs now that it is named alone: `Session.play` per move (only the
candidates that could share one of the move's names are judged) against what it did before,
naming the move among every legal move of the position
(`state.move_name(move, state.legal_moves())`) and applying it; one run, the same moves.

Games: chess, Go 19x19 and 9x9, reversi (a seeded random game of each, its moves played as
operations) and a generated placement game on a SIZE x SIZE board (the one of
tests/test_reliability.py's undo test: two objects, any single placement legal).

Time is wall time (time.perf_counter) on a shared machine: run it twice when in doubt.
Printed: per game, the first move each way (it builds what the game keeps, such as the
automatic candidates) and the mean of the next ones, with the ratio of before to now.

    python benchmarks/move_names.py [--plies 60] [--size 1000] [--big-moves 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from gdef_core import load_game
from gdef_core.runtime.session import Session

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["chess/chess.gdef", "go/go19.gdef", "go/go9.gdef", "reversi.gdef"]
BIG = ("name: big\nplayers: 2\nsize: {size} x {size}\nobj X\nobj O\n"
       "define isMoveLegal() -> bool {{ return operationsNum() == 1; }}\n"
       "define end() -> bool {{ return false; }}\n")


def random_game(path: str, plies: int) -> list[str]:
    game = load_game(path)
    state, rng, texts = game.new_state(), random.Random(1), []
    while len(texts) < plies and not state.is_over:
        move = state.random_move(rng)
        texts.append(str(move))
        state.apply(move)
    return texts


def per_move(path: str, texts: list[str], whole_list: bool) -> list[float]:
    """Milliseconds of each move of `texts`: played by `Session.play`, or (`whole_list`) as it
    was before: named among all the legal moves, then applied."""
    game = load_game(path)  # a fresh game: nothing built by the other way is reused
    session = Session(game, [path], game.new_state())
    state = session.state
    spent = []
    for text in texts:
        start = time.perf_counter()
        if whole_list:
            move = state.read_move(text)
            state.move_name(move, state.legal_moves())
            state.apply(move)
        else:
            assert session.play(text).accepted, text
        spent.append(1000 * (time.perf_counter() - start))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--big-moves", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.gdef"
        big.write_text(BIG.format(size=args.size))
        games = [(str(ROOT / "examples" / name), random_game(str(ROOT / "examples" / name), args.plies))
                 for name in EXAMPLES]
        games.append((str(big), [f"place({x},7,X)" for x in range(args.big_moves)]))
        print(f"{'game':<24} {'moves':>5} {'first: now':>11} {'before':>10} {'next: now':>10} {'before':>10} {'ratio':>7}")
        for path, texts in games:
            now = per_move(path, texts, False)
            before = per_move(path, texts, True)
            name = Path(path).name if path != str(big) else f"{args.size}x{args.size} placement"
            later_now, later_before = statistics.mean(now[1:]), statistics.mean(before[1:])
            print(f"{name:<24} {len(texts):>5} {now[0]:>9.1f}ms {before[0]:>8.1f}ms {later_now:>8.2f}ms "
                  f"{later_before:>8.2f}ms {later_before / later_now:>6.1f}x")

if __name__ == "__main__":
    main()
