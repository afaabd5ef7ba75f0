"""Int locals that only count, whose sums cannot overflow within the step budget.

A local assigned nothing but constants and itself plus or minus a constant (`n = n + 1`, a
`for` counter) changes by at most the sum of those constants' sizes each time its increments
run, and they run at most once per loop iteration of the call (or once, outside loops). Every
iteration of every loop counts a step, and a run of the rules has `max_steps` of them, so such a
local stays within its largest constant plus the sum of its increments times `max_steps + 1`.
When that bound fits an int64, no increment of it can overflow in any run, on either backend,
and a compiled backend may add without the overflow check: lines of action's `piecesOnLine()`
counts the pieces on a line with `n = n + 1` under a test of each square, whose check (a branch
out of the function) kept gcc from adding without a branch, and a branch per square on a random
board is a branch mispredicted half the time.
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.facts import static_int
from gdef_core.lower.values import INT_MAX


def increment(name: str, value) -> int | None:
    """The constant c of `name + c`, `c + name` or `name - c` (as -c); None for anything else."""
    match value:
        case ir.Binary(op="+" | "-" as op, left=ir.Local(name=left), right=right, type="int") if left == name:
            c = static_int(right, {})
            return None if c is None else c if op == "+" else -c
        case ir.Binary(op="+", left=left, right=ir.Local(name=right), type="int") if right == name:
            return static_int(left, {})
    return None


def counters(function: ir.Function, max_steps: int) -> frozenset[str]:
    """The int locals of `function` assigned only constants and increments by constants, whose
    bound (above) fits an int64; but its parameters (whose values come from the caller) and the
    counters of `for` loops (changed in a loop's step: their checked sum, which returns at once
    on an overflow, already tells gcc that they do not wrap, and measured no faster plain)."""
    largest: dict[str, int] = {}   # the largest size of a constant assigned
    growth: dict[str, int] = {}    # the sum of the sizes of its increments
    others = {name for name, _ in function.params}
    for node in ir.walk(function.body):
        match node:
            case ir.Loop(step=step):
                others.update(inner.target.name for inner in ir.walk(step)
                              if isinstance(inner, ir.Assign) and isinstance(inner.target, ir.Local))
            case ir.Declare(name=name, value=value) | ir.Assign(target=ir.Local(name=name), value=value):
                constant = static_int(value, {})
                by = increment(name, value)
                if constant is not None:
                    largest[name] = max(largest.get(name, 0), abs(constant))
                elif by is not None:
                    growth[name] = growth.get(name, 0) + abs(by)
                else:
                    others.add(name)
    return frozenset(name for name, kind in function.locals.items()
                     if kind == "int" and name not in others
                     and largest.get(name, 0) + growth.get(name, 0) * (max_steps + 1) <= INT_MAX)
