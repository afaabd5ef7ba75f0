"""The legal moves of a position in random order, drawn one at a time: mcts's untried moves.

A node of mcts's tree tries its moves in random order. Shuffling every legal move costs as
much as the moves are many: two million on a 1000 x 1000 board, for a search that tries a
few. So a position of at most EAGER_LIMIT legal moves shuffles their operation tuples at
once, with the same draws as shuffling its legal_moves() (the same moves for the same seed
as mcts always chose), and a bigger one draws each move when it is asked for: a Fisher-Yates
shuffle kept as the few positions it swapped, so each draw costs the same whatever the count.
Moves are made of the operations only when drawn (State.moves_of).
"""
from __future__ import annotations

EAGER_LIMIT = 10_000  # legal moves; beyond, they are drawn one at a time


class Untried:
    """The legal moves of `state` not tried yet, in the random order of `rng` (a random.Random)."""

    __slots__ = ("_state", "_found", "_order", "_drawn", "_left", "_back")

    def __init__(self, state, rng) -> None:
        self._state = state
        self._found = state.legal_ops()   # kept by the state, shared: never changed here
        self._back: list = []             # moves put back (a search cut short), drawn first
        if len(self._found) <= EAGER_LIMIT:
            self._order: list | None = list(self._found)
            rng.shuffle(self._order)
        else:
            self._order = None
            self._drawn = random_indices(len(self._found), rng)
            self._left = len(self._found)

    def __len__(self) -> int:
        return len(self._back) + (len(self._order) if self._order is not None else self._left)

    @property
    def drawn_at_once(self) -> bool:
        """Whether every move was shuffled at once (a small position): in_order() lists them."""
        return self._order is not None

    def in_order(self) -> list:
        """A small position's untried moves in their shuffled order (pop() takes the last)."""
        return self._state.moves_of(self._order)

    def pop(self):
        """The next untried Move (IndexError when none is left)."""
        if self._back:
            return self._back.pop()
        if self._order is not None:
            return self._state.moves_of([self._order.pop()])[0]
        if not self._left:
            raise IndexError("no untried move is left")
        self._left -= 1
        return self._state.moves_of([self._found[next(self._drawn)]])[0]

    def put_back(self, move) -> None:
        """Untry `move` (drawn by pop): the next pop gives it again."""
        if self._order is not None:
            self._order.append(self._state.game.resolve(move).ops)
        else:
            self._back.append(move)

    def fallback(self):
        """A move to play when the search tried none to the end: a small position's first
        move in the shuffled order (as mcts always played), else the next one drawn."""
        if self._order is not None:
            return self._state.moves_of(self._order[:1])[0]
        return self.pop()


def random_indices(count: int, rng):
    """0 .. count-1 in the random order of `rng`, drawn one at a time: a Fisher-Yates shuffle
    that keeps only the positions it swapped, so each draw costs the same however large
    `count` is, and nothing of size `count` is made."""
    swapped: dict[int, int] = {}   # position -> the index now there
    for left in range(count, 0, -1):
        chosen = int(rng.random() * left)
        last = left - 1
        index = swapped.pop(chosen, chosen)
        if chosen != last:   # the index at the last position moves where the chosen one was
            swapped[chosen] = swapped.pop(last, last)
        yield index
