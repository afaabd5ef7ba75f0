"""Squares that count (docs/language.md, "Squares that count"): how operations change a board
whose squares hold counts beside objects.

A game that reads or writes counts (`ir.Module.counting`) keeps one flat list: the W*H objects
(square (x, y) at x * H + y) followed by the W*H counts (at W*H + x * H + y). An operation is
`(x, y, obj, True)` (place), `(x, y, EMPTY, False)` (clear) or `(x, y, EMPTY, False, n)`
(count: five fields). So copying, comparing and hashing a board carry its counts, and the
position history compares them with the objects at no extra cost.
"""
from __future__ import annotations


def is_count(op: tuple) -> bool:
    """Whether a resolved operation is `count(x, y, n)`."""
    return len(op) > 4


def apply_operations(board: list, ops, width: int, height: int, undo: list | None = None) -> None:
    """Apply resolved operations in order to `board` (changed in place); `undo` collects (index,
    old value) of every entry changed. Place and clear reset the square's count when the board
    holds counts; count(x, y, n) leaves its object."""
    size = width * height
    counting = len(board) > size
    for op in ops:
        index = op[0] * height + op[1]
        if len(op) > 4:
            if undo is not None:
                undo.append((size + index, board[size + index]))
            board[size + index] = op[4]
            continue
        if undo is not None:
            undo.append((index, board[index]))
        board[index] = op[2]
        if counting:
            if undo is not None:
                undo.append((size + index, board[size + index]))
            board[size + index] = 0
