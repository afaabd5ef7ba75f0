"""Where a compiled game keeps its state, for both native routes (numba and C): the game
variables as slots of two flat stores (`V` int64 for int, bool and obj; `VF` float64), and the
sizes of the kernels' buffers. native/backend.py converts the Python backend's states with the
same table, whichever route compiled the rules.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from gdef_core.lower.build import LoweringError, lowered
from gdef_core.semantics.program import Program

# Buffer sizes of the kernels: candidate operations and candidates per position. A position
# that needs more makes that game run on the Python backend (the failure path).
CAP_OPS = 1 << 16
CAP_MOVES = 1 << 14
# The legal moves held per level of perft.
PERFT_OPS = 1 << 13
PERFT_MOVES = 1 << 11
# The positions of the game kept for repetitions() and nextBoardSeen(): one that outgrows
# this goes the failure path (replayed in Python).
HISTORY_CAP = 4096
MAX_STAMP_KEYS = 1 << 16


class VarSlot(NamedTuple):
    """Where a game variable lives in the kernel's state: `V` (int, bool and obj) or `VF`
    (float), from `offset`, row by row for an array (`sizes` empty for a scalar)."""
    kind: str
    floats: bool
    offset: int
    sizes: tuple
    counter: bool

    @property
    def count(self) -> int:
        return math.prod(self.sizes)


def var_layout(program: Program) -> dict[str, VarSlot]:
    """Every game variable's slot, in declaration order. Raises LoweringError for an array
    whose sizes are not positive."""
    layout: dict[str, VarSlot] = {}
    ints = floats = 0
    for name, decl in lowered(program).game_vars.items():
        sizes = decl.sizes
        if any(n < 1 for n in sizes):
            raise LoweringError(f"the sizes of the game variable array '{name}'", decl.span)
        kind = decl.type.split("[", 1)[0]
        slot = VarSlot(kind, kind == "float", floats if kind == "float" else ints, sizes, decl.counter)
        layout[name] = slot
        if slot.floats:
            floats += slot.count
        else:
            ints += slot.count
    return layout


def keyed_slots(layout: dict[str, VarSlot], tables=()) -> dict[str, VarSlot]:
    """The game variables of a position's history key (repetitions()), in declaration order:
    those not declared `counter`, and not among `tables`, the arrays a route reads from
    constant tables (lower/tables.py). Such an array holds the same value in every state the
    route plays (native/backend.py hands any other state to the Python backend), so leaving it
    out of the key compares the same positions equal, and spares hashing and copying it on
    every move (oware's 28 elements of house and store coordinates)."""
    return {name: slot for name, slot in layout.items() if not slot.counter and name not in tables}


def stamp_keys(width: int, height: int, objects: int) -> int:
    """The single operations (a place of each object or a clear on each square) when few
    enough to keep a stamp each for removing duplicate candidates (the kernels' _stamped)."""
    keys = width * height * (objects + 2)
    return keys if keys <= MAX_STAMP_KEYS else 0
