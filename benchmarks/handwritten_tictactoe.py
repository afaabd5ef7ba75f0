"""Tic-tac-toe written by hand in plain Python: the baseline our compiled rules are measured
against in benchmarks/playouts.py and benchmarks/rules.py.

It is written the way a careful Python programmer would write it without any framework: a flat
board list, moves as square indexes, and a win test that looks only at the lines through the
square just filled (the same work examples/tictactoe.gdef does).
"""
from __future__ import annotations

EMPTY, X, O = 0, 1, 2
MARKS = (X, O)


class TicTacToe:
    __slots__ = ("board", "player", "moves", "over", "winner")

    def __init__(self) -> None:
        self.board = [EMPTY] * 9          # square (x, y) is board[y * 3 + x]
        self.player = 0
        self.moves = 0
        self.over = False
        self.winner: int | None = None

    def legal_moves(self) -> list[int]:
        """The empty squares (the same judgement isMoveLegal() makes for each candidate)."""
        return [square for square in range(9) if self.is_legal(square)]

    def is_legal(self, square: int) -> bool:
        return self.board[square] == EMPTY

    def apply(self, square: int) -> None:
        mark = MARKS[self.player]
        self.board[square] = mark
        self.moves += 1
        if self.completes_line(square % 3, square // 3, mark):
            self.over, self.winner = True, self.player
        elif self.moves == 9:
            self.over = True
        else:
            self.player = 1 - self.player

    def completes_line(self, x: int, y: int, mark: int) -> bool:
        """Whether `mark` on (x, y) completes its row, its column or a diagonal through it."""
        b = self.board
        if b[y * 3] == mark and b[y * 3 + 1] == mark and b[y * 3 + 2] == mark:
            return True
        if b[x] == mark and b[3 + x] == mark and b[6 + x] == mark:
            return True
        if x == y and b[0] == mark and b[4] == mark and b[8] == mark:
            return True
        return x + y == 2 and b[2] == mark and b[4] == mark and b[6] == mark
