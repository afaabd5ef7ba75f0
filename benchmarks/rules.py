"""The time of one call of the compiled isMoveLegal() and end() against hand-written Python
doing the same work on the same inputs (target: within 2x, issue 7).

isMoveLegal() is timed twice: through the checked entry point State.check uses (one move
judged on its own, errors turned into located GdefRuntimeErrors), and as legal-move
enumeration runs it (Rules.raw_filter over the candidate list, the hand-written side being a
list comprehension over the same candidates).

Fixed positions: a tic-tac-toe position after five moves and a connect-four position after
twelve (from a seeded random game). isMoveLegal() judges every automatic candidate of the
position (each single place of each object on each square, each clear, pass: what legal-move
enumeration asks it); end() runs after each legal move. Both sides get the runtime's board (a
list indexed x * height + y holding object values) and its operations ((x, y, obj, is_place)
tuples), so the comparison is the judging itself, not conversions. The gdef side is called
through the runtime's checked entry points (Rules.is_move_legal / Rules.end), which build
NextPosition for the move as legal-move enumeration does.

    python benchmarks/rules.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from gdef_core import Move, load_game

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2.0


# ---------------------------------------------------------------- hand-written judges

def tictactoe_judges(game):
    EMPTY, marks = game.empty, (game.obj("X"), game.obj("O"))

    def is_move_legal(board, ops, player):
        if len(ops) != 1:
            return False
        x, y, obj, is_place = ops[0]
        return board[x * 3 + y] is EMPTY and is_place and obj is marks[player]

    def completes_line(b, x, y, m):
        if b[y] is m and b[3 + y] is m and b[6 + y] is m:
            return True
        if b[x * 3] is m and b[x * 3 + 1] is m and b[x * 3 + 2] is m:
            return True
        if x == y and b[0] is m and b[4] is m and b[8] is m:
            return True
        return x + y == 2 and b[6] is m and b[4] is m and b[2] is m

    def end(board, ops, player, move_number):
        x, y = ops[0][0], ops[0][1]
        if completes_line(board, x, y, marks[player]):
            return True, player
        return move_number == 9, None

    return is_move_legal, end


def connect4_judges(game):
    EMPTY, discs = game.empty, (game.obj("X"), game.obj("O"))
    W, H = 7, 6

    def is_move_legal(board, ops, player):
        if len(ops) != 1:
            return False
        x, y, obj, is_place = ops[0]
        return (board[x * H + y] is EMPTY and is_place and obj is discs[player]
                and (y == 0 or board[x * H + y - 1] is not EMPTY))

    def same_ahead(b, x, y, dx, dy):
        disc = b[x * H + y]
        count, cx, cy = 0, x + dx, y + dy
        while 0 <= cx < W and 0 <= cy < H and b[cx * H + cy] is disc:
            count += 1
            cx += dx
            cy += dy
        return count

    def end(board, ops, player, move_number):
        x, y = ops[0][0], ops[0][1]
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if 1 + same_ahead(board, x, y, dx, dy) + same_ahead(board, x, y, -dx, -dy) >= 4:
                return True, player
        return move_number == 42, None

    return is_move_legal, end


# ---------------------------------------------------------------- fixed positions

def tictactoe_position(game):
    state = game.new_state()
    for move in ("place(0,0,X)", "place(1,1,O)", "place(2,0,X)", "place(1,0,O)", "place(1,2,X)"):
        state.apply(move)
    return state


def connect4_position(game):
    state, rng = game.new_state(), random.Random(2024)
    while state.move_number < 12:
        state.apply(rng.choice(state.legal_moves()))
        assert not state.is_over
    return state


GAMES = {
    "tic-tac-toe": ("tictactoe.gdef", tictactoe_position, tictactoe_judges),
    "connect four": ("connect4.gdef", connect4_position, connect4_judges),
}


def automatic_candidates(game, state) -> list[tuple]:
    """Every single place of every object on every square, every clear of an occupied square,
    and pass, as resolved operation tuples."""
    moves = [Move.place(x, y, name) for x in range(game.width) for y in range(game.height)
             for name in game.objects]
    moves += [Move.clear(x, y) for x, y, _ in state.board.occupied()]
    moves.append(Move())
    return [game.resolve(move).ops for move in moves]


def best_times(functions: dict, repeat: int) -> dict:
    """CPU seconds of the fastest of `repeat` runs of each function, the functions taking turns
    (a machine busy for a while slows both sides alike)."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeat):
        for name, function in functions.items():
            started = time.process_time()
            function()
            best[name] = min(best[name], time.process_time() - started)
    return best


def measure(repeat: int, loops: int) -> dict:
    results = {}
    for name, (example, position, judges) in GAMES.items():
        game = load_game([str(ROOT / "examples" / example)])
        state = position(game)
        board, player, number, variables = state._board, state.current_player, state.move_number, state._vars
        rules = game.rules
        hand_legal, hand_end = judges(game)
        candidates = automatic_candidates(game, state)
        for ops in candidates:   # both sides must agree before their speed means anything
            assert hand_legal(board, ops, player) == rules.is_move_legal(board, ops, player, number, variables)
        legal = [ops for ops in candidates if hand_legal(board, ops, player)]
        after = []
        for ops in legal:
            next_board = board.copy()
            for x, y, obj, _ in ops:
                next_board[x * game.height + y] = obj
            after.append((next_board, ops))
            over, winner, _ = rules.end(next_board, ops, player, number + 1, variables)
            assert (over, winner) == hand_end(next_board, ops, player, number + 1)

        def gdef_legal():
            for _ in range(loops):
                for ops in candidates:
                    rules.is_move_legal(board, ops, player, number, variables)

        def hand_legal_run():
            for _ in range(loops):
                for ops in candidates:
                    hand_legal(board, ops, player)

        def gdef_filter():
            for _ in range(loops):
                rules.raw_filter(board, candidates, player, number, variables, False)

        def hand_filter():
            for _ in range(loops):
                [ops for ops in candidates if hand_legal(board, ops, player)]

        def gdef_end():
            for _ in range(loops):
                for next_board, ops in after:
                    rules.end(next_board, ops, player, number + 1, variables)

        def hand_end_run():
            for _ in range(loops):
                for next_board, ops in after:
                    hand_end(next_board, ops, player, number + 1)

        legal_calls, end_calls = loops * len(candidates), loops * len(after)
        t = best_times({"gdef_legal": gdef_legal, "hand_legal": hand_legal_run,
                        "gdef_filter": gdef_filter, "hand_filter": hand_filter,
                        "gdef_end": gdef_end, "hand_end": hand_end_run}, repeat)
        figures = {
            "isMoveLegal() (checked entry)": (t["gdef_legal"] / legal_calls, t["hand_legal"] / legal_calls, len(candidates)),
            "isMoveLegal() (in enumeration)": (t["gdef_filter"] / legal_calls, t["hand_filter"] / legal_calls,
                                           len(candidates)),
            "end()": (t["gdef_end"] / end_calls, t["hand_end"] / end_calls, len(after)),
        }
        results[name] = {rule: {"gdef_ns": g * 1e9, "hand_ns": h * 1e9, "ratio": g / h, "inputs": n}
                         for rule, (g, h, n) in figures.items()}
    return results


def report(results: dict) -> str:
    lines = [f"{'per call':<44} {'gdef':>9} {'hand':>9} {'gdef/hand':>10}"]
    for name, rules in results.items():
        for rule, r in rules.items():
            verdict = "ok" if r["ratio"] <= TARGET else "MISSED"
            label = f"{name} {rule} x{r['inputs']}"
            lines.append(f"{label:<44} {r['gdef_ns']:>7.0f}ns {r['hand_ns']:>7.0f}ns "
                         f"{r['ratio']:>9.2f} {verdict}")
    lines.append(f"target: gdef/hand <= {TARGET:g}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the fastest counts")
    parser.add_argument("--loops", type=int, default=2000, help="passes over the inputs per run")
    args = parser.parse_args()
    print(report(measure(args.repeat, args.loops)))


if __name__ == "__main__":
    main()
