"""The positions a game has passed through (spec section 15.4), for `repetitions()` and
`nextBoardSeen()`.

A position is the board, the game variables (without those declared `counter`), the player
to move and whether chance moves first (a chance node). A `History` is immutable: applying a move makes a new one (`then`), so clones of a
state share theirs and undo is dropping the newer object. Each History holds the count of every
position seen so far and the set of boards seen, so both built-ins are one dictionary lookup
however long the game. Building the next History copies those (time linear in the length of the
game, per move); games that never call the two built-ins keep no History at all (the State's is
None), so they pay nothing.
"""
from __future__ import annotations


class History:
    __slots__ = ("parent", "key", "counts", "boards")

    def __init__(self, parent: "History | None", key: tuple, counts: dict, boards: frozenset | set) -> None:
        self.parent = parent
        self.key = key  # the latest position: (board tuple, player to move, variables tuple, chance node)
        self.counts = counts  # position -> how many times it occurred, this one included
        self.boards = boards  # every board seen, this one included

    @classmethod
    def start(cls, key: tuple) -> "History":
        return cls(None, key, {key: 1}, {key[0]})

    def then(self, key: tuple) -> "History":
        """The history after one more position."""
        counts = self.counts.copy()
        counts[key] = counts.get(key, 0) + 1
        boards = self.boards
        if key[0] not in boards:
            boards = boards.copy()
            boards.add(key[0])
        return History(self, key, counts, boards)

    def with_board(self, board: tuple) -> "History":
        """A view that counts `board` as seen too (while hasLegalMove() judges the moves after
        the position end() has just reached, that position is an earlier one)."""
        if board in self.boards:
            return self
        return History(self.parent, self.key, self.counts, self.boards | {board})

    def repetitions(self, key: tuple) -> int:
        """How many earlier positions equal `key`."""
        return self.counts.get(key, 0)

    def keys(self) -> list[tuple]:
        """Every position, oldest first."""
        out = []
        node = self
        while node is not None:
            out.append(node.key)
            node = node.parent
        out.reverse()
        return out

    def __len__(self) -> int:
        return sum(self.counts.values())

    def __eq__(self, other) -> bool:
        return isinstance(other, History) and self.keys() == other.keys()

    __hash__ = None


def freeze(value):
    """A game variable's value as a hashable one (an array becomes nested tuples)."""
    if type(value) is list:
        return tuple(freeze(item) for item in value)
    return value
