"""Local arrays small enough, and of a size known when compiling, to live in their function's
own frame instead of the run's arena.

Kalah's and oware's `sow()` makes `int seeds[14] = 0;` for every candidate: from the arena
that is a bounds test and a call of memset (and, before the arena's top moved into the call's
Ctx, two calls of the dynamic loader's TLS lookup), and every index is tested against a size
read back from memory. A C array of a constant size in the function's frame costs none of it,
and its indexes are tested against a constant. The array is declared each time as before (its
size checked and counted as steps, then filled), so nothing changes but where it lives.

An array qualifies in a function that is not recursive (each level of a recursion would hold a
copy: the arena's bound is the step budget, the stack's is not), when every declaration of the
name in the function has the same constant sizes, each at least 1, and at most STACK_ELEMENTS
elements in all, and it is filled (not listed: a listed array keeps the arena, or its constant
table). Arrays cannot escape their function (no function returns one; a whole array cannot be
assigned), so the frame outlives every use.
"""
from __future__ import annotations

import math

from gdef_core.lower import ir

# The most elements of one array kept in a frame. Small: at 256, nine men's morris's 7 x 7 board
# copy in moves() went into the frame too and its kernel ran 4% slower (gcc's code for moves()
# changed, 6% more instructions), lines of action 2% faster, pentago and checkers not measured;
# kalah's and oware's arrays hold 14 and 12.
STACK_ELEMENTS = 32


def stack_arrays(function: ir.Function) -> dict[str, tuple[int, ...]]:
    """name -> the constant sizes of each local array of `function` that may live in its frame."""
    if function.recursive:
        return {}
    shapes: dict[str, set] = {}
    for node in ir.walk(function.body):
        if isinstance(node, ir.DeclareArray):
            shapes.setdefault(node.name, set()).add(_constant_sizes(node))
    return {name: next(iter(found)) for name, found in shapes.items()
            if len(found) == 1 and None not in found}


def _constant_sizes(node: ir.DeclareArray) -> tuple[int, ...] | None:
    if node.rows is not None:
        return None
    sizes = []
    for size in node.sizes:
        if not (isinstance(size, ir.Const) and type(size.value) is int and size.value >= 1):
            return None
        sizes.append(size.value)
    return tuple(sizes) if math.prod(sizes) <= STACK_ELEMENTS else None
