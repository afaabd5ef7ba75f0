"""perft: how many move sequences of each length lead from a position (as chess engines count).

Spec section 13: a sequence counts at depth N when it has exactly N moves; a game that ends
earlier contributes nothing deeper; a move whose `end()` fails at run time is not a legal
move. Comparing these numbers with another implementation of the same game (OpenSpiel's
tic-tac-toe gives 9, 72, 504, 3024, ...) is the quickest test of a move generator.
"""
from __future__ import annotations

from gdef_core.runtime.game import IllegalMoveError


def perft(state, depth: int) -> list[int]:
    """counts[d - 1] = the number of sequences of exactly d legal moves from `state`, d = 1..depth."""
    counts = [0] * depth

    def walk(position, level: int) -> None:
        if position.is_over:
            return
        for move in position.legal_moves():
            after = position.clone()
            try:
                after.apply(move)
            except IllegalMoveError:   # end() failed: not a legal move
                continue
            counts[level] += 1
            if level + 1 < depth:
                walk(after, level + 1)

    if depth > 0:
        walk(state, 0)
    return counts
