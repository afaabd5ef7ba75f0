"""Chance nodes (docs/language.md, "Chance"): the outcomes chance() proposes, merged, and one
drawn by weight. The engine resolves chance, never the rules: the draw uses the caller's
generator (a seeded random.Random reproduces a whole game), and the outcome played is kept in
the game's history like a player's move."""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate


def merged(outcomes: list) -> list[tuple[tuple, int]]:
    """The outcomes [(operations, weight)] in the order proposed, identical operation lists
    merged into the first of them (their weights added)."""
    weights: dict[tuple, int] = {}
    for ops, weight in outcomes:
        weights[ops] = weights.get(ops, 0) + weight
    return list(weights.items())


def effect(ops: tuple) -> frozenset:
    """What operations leave on the squares they name, the last operation on a square deciding
    (so the same changes written in another order are the same outcome): the object and the
    count of each (a place or clear sets the count to 0, a count keeps the object;
    runtime/counts.py)."""
    after: dict[tuple, object] = {}
    for op in ops:
        square = (op[0], op[1])
        if len(op) > 4:
            after[square + ("count",)] = op[4]
        else:
            after[square + ("object",)] = op[2]
            after[square + ("count",)] = 0
    return frozenset(after.items())


def draw(weights: list[int], rng) -> int:
    """The index of an outcome drawn with probability weight / total from `rng` (a
    random.Random); one call of `rng.randrange`, so a seeded generator repeats its draws."""
    bounds = list(accumulate(weights))
    return bisect_right(bounds, rng.randrange(bounds[-1]))


def refusal(names: list[str]) -> str:
    """Why a move that is no outcome is refused at a chance node, the outcomes listed."""
    shown = ", ".join(names[:20]) + (f", ... ({len(names)} in all)" if len(names) > 20 else "")
    return f"the next move is chance's: only one of its outcomes may be played ({shown})"
