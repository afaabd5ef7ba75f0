"""Connect four (7 x 6, gravity) written by hand in plain Python: the baseline our compiled
rules are measured against in benchmarks/playouts.py and benchmarks/rules.py.

A careful plain-Python version without tricks (no bitboards): a list of squares, a move is a
column, and the win test counts the runs through the disc just dropped, as
examples/connect4.gdef does.
"""
from __future__ import annotations

WIDTH, HEIGHT = 7, 6
EMPTY, X, O = 0, 1, 2
DISCS = (X, O)
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class ConnectFour:
    __slots__ = ("board", "player", "moves", "over", "winner")

    def __init__(self) -> None:
        self.board = [EMPTY] * (WIDTH * HEIGHT)   # square (x, y) is board[x * HEIGHT + y]
        self.player = 0
        self.moves = 0
        self.over = False
        self.winner: int | None = None

    def landing_row(self, x: int) -> int:
        """The lowest empty row of column x, or HEIGHT when the column is full."""
        b, base, y = self.board, x * HEIGHT, 0
        while y < HEIGHT and b[base + y] != EMPTY:
            y += 1
        return y

    def legal_moves(self) -> list[tuple[int, int]]:
        """One drop per column that is not full, as the square (x, y) the disc lands on."""
        moves = []
        for x in range(WIDTH):
            y = self.landing_row(x)
            if y < HEIGHT:
                moves.append((x, y))
        return moves

    def is_legal(self, x: int, y: int) -> bool:
        b = self.board
        return b[x * HEIGHT + y] == EMPTY and (y == 0 or b[x * HEIGHT + y - 1] != EMPTY)

    def apply(self, move: tuple[int, int]) -> None:
        x, y = move
        self.board[x * HEIGHT + y] = DISCS[self.player]
        self.moves += 1
        if self.wins_at(x, y):
            self.over, self.winner = True, self.player
        elif self.moves == WIDTH * HEIGHT:
            self.over = True
        else:
            self.player = 1 - self.player

    def same_ahead(self, x: int, y: int, dx: int, dy: int) -> int:
        b = self.board
        disc = b[x * HEIGHT + y]
        count, cx, cy = 0, x + dx, y + dy
        while 0 <= cx < WIDTH and 0 <= cy < HEIGHT and b[cx * HEIGHT + cy] == disc:
            count += 1
            cx += dx
            cy += dy
        return count

    def wins_at(self, x: int, y: int) -> bool:
        """Whether the disc on (x, y) is part of a run of four or more."""
        for dx, dy in DIRECTIONS:
            if 1 + self.same_ahead(x, y, dx, dy) + self.same_ahead(x, y, -dx, -dy) >= 4:
                return True
        return False
