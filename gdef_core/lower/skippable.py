"""The calls in moves() that a random draw may skip while it counts candidates or looks for one.

A random playout needs one candidate of moves(), drawn uniformly (the C route's lazy draw,
docs/performance.md "Drawing a move without building every candidate"). A pass of moves() that
writes no candidate but the one drawn need not run a call whose only effects are that
candidate's operations: pentago's `turnQuadrant(board, quadrant, clockwise)` writes the nine
squares of a turned quadrant. Such a call may be skipped, its steps charged as a static upper
bound, when the callee

- only adds operations (addPlace, addClear): no addMove, no game-variable or array writes, no
  setWinner or score, no call, no local array, no result;
- provably cannot fail given the ranges of the arguments at that call (lower/ranges.py: every
  index in range, no overflow, no division by zero, no recursion);
- has a static bound on its steps (every loop a counter bounded by its condition);

and the arguments themselves cannot fail and spend no step. Skipping then changes nothing but
the operations written, and charging the bound (never less than the steps the call spends)
keeps "the budget was enough" exact: a pass within the budget means the full generation is too.
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.ranges import OPERATIONS, Env, RangeWalk

_ALLOWED_BUILTINS = OPERATIONS | {"onTurn", "moveNumber"}


def skippable_calls(module: ir.Module) -> dict[int, int]:
    """id() of each call statement's CallFunction in moves() that may be skipped -> the bound on
    the steps it spends."""
    moves = module.functions.get("moves")
    if moves is None:
        return {}
    width, height = module.width, module.height
    arrays = {name: decl.sizes for name, decl in module.game_vars.items() if decl.sizes}
    found: dict[int, int] = {}

    def at_call(call: ir.CallFunction, env: Env) -> None:
        callee = module.functions[call.name]
        if not _only_operations(callee):
            return
        params: Env = {}
        sizes: dict[str, tuple[int, ...]] = {}
        for (param, kind), arg in zip(callee.params, call.args):
            if kind.endswith("[]"):
                known = walker.sizes.get(arg.name, ()) if isinstance(arg, (ir.Local, ir.GameVar)) else ()
                if not known:
                    return
                sizes[param] = known
                continue
            probe = RangeWalk(walker.sizes, width, height)
            value, steps = probe.expr(arg, env)
            if probe.unsafe or steps:
                return
            if kind == "int":
                params[param] = value
        inner = RangeWalk(sizes, width, height)
        _, bound = inner.function(callee, params)
        if not inner.unsafe and bound is not None:
            found[id(call)] = bound

    walker = RangeWalk(arrays, width, height, at_call)
    walker.function(moves, {})
    return found


def _only_operations(function: ir.Function) -> bool:
    """Whether the only effects of `function` are a candidate's operations (and it returns
    nothing, calls nothing, makes no array)."""
    if function.result is not None or function.recursive:
        return False
    for node in ir.walk(function.body):
        match node:
            case ir.Assign(target=ir.GameVar() | ir.Element()) | ir.CallFunction() | ir.DeclareArray():
                return False
            case ir.CallBuiltin(builtin=builtin) if builtin.name not in _ALLOWED_BUILTINS:
                return False
    return True
