"""Whether moves() proposes each candidate at most once, by the shape of its text.

The kernels drop a candidate proposed twice (the Python backend's `dict.fromkeys`): a list of
single operations is stamped square by square on every turn, which is up to 40% of a game such
as gomoku, whose `moves()` visits each square once. Where the text shows that no candidate can
repeat, a compiled backend may skip that pass: the list is the same either way.

The shape recognised, the grid walk (gomoku's and hex's `moves()`):

    for (int y = 0; y < 15; y = y + 1) {
      for (int x = 0; x < 15; x = x + 1) {
        if (CurrentPosition[x][y] == empty) { addPlace(x, y, stone); addMove(); }
      }
    }

- `moves()` holds the only `addMove()` and the only `addPlace`/`addClear` that `moves()`
  reaches (the functions it calls add nothing), each once, the operation immediately before
  `addMove()` in the same block: every candidate is that one operation;
- its square's x and y are two different locals, and every loop around the `addMove()` counts
  one of them, each its own: the step is `v = v + k` or `v = v - k` with a constant k other
  than 0 and nothing else in the loop assigns or declares v; a `for` whose step is that and
  nothing else.

Then the loops' counters take a value at most once per run of their loop, so no two passes
reach `addMove()` with the same (x, y); `moves()` is an entry point that never recurses.
"""
from __future__ import annotations

from gdef_core.builtins import Context
from gdef_core.lower import ir

_OPERATIONS = frozenset({"addPlace", "addClear"})
_PROPOSING = _OPERATIONS | {"addMove", "addCount"}


def distinct_candidates(module: ir.Module) -> bool:
    """Whether every call of `module`'s moves() proposes each candidate at most once (above)."""
    moves = module.functions.get("moves")
    if moves is None or moves.recursive:
        return False
    others = (module.functions[name] for name in module.graph.reach[Context.MOVES]
              if name != "moves" and name in module.functions)
    if ir.builtins_in(others) & _PROPOSING:
        return False
    calls = [node for node in ir.walk(moves.body)
             if isinstance(node, ir.CallBuiltin) and node.builtin.name in _PROPOSING]
    names = [call.builtin.name for call in calls]
    if len(calls) != 2 or names.count("addMove") != 1 or not _OPERATIONS & set(names):
        return False
    path = _path_to_move(moves.body, ())
    if path is None:
        return False
    loops, block, at = path
    operation = _operation(block[at - 1]) if at > 0 else None
    if operation is None:
        return False
    x, y = operation.args[0], operation.args[1]
    if not (isinstance(x, ir.Local) and isinstance(y, ir.Local)) or x.name == y.name:
        return False
    counters = [_counter(loop) for loop in loops]
    return (all(name in (x.name, y.name) for name in counters)
            and len(set(counters)) == len(counters))


def _is_add_move(stmt) -> bool:
    return (isinstance(stmt, ir.Eval) and isinstance(stmt.expr, ir.CallBuiltin)
            and stmt.expr.builtin.name == "addMove")


def _operation(stmt) -> ir.CallBuiltin | None:
    if isinstance(stmt, ir.Eval) and isinstance(stmt.expr, ir.CallBuiltin) and stmt.expr.builtin.name in _OPERATIONS:
        return stmt.expr
    return None


def _path_to_move(block: tuple, loops: tuple) -> tuple[tuple, tuple, int] | None:
    """(the loops around the `addMove()` statement, outermost first; its block; its index)."""
    for index, stmt in enumerate(block):
        if _is_add_move(stmt):
            return loops, block, index
        inner: list[tuple[tuple, tuple]] = []
        if isinstance(stmt, ir.If):
            inner = [(stmt.then, loops), (stmt.otherwise, loops)]
        elif isinstance(stmt, ir.Loop):
            inner = [(stmt.body, (*loops, stmt)), (stmt.step, (*loops, stmt))]
        for body, around in inner:
            found = _path_to_move(body, around)
            if found is not None:
                return found
    return None


def _counter(loop: ir.Loop) -> str | None:
    """The local the loop counts (its step `v = v + k` or `v - k`, k a constant other than 0,
    and v assigned or declared nowhere else in the loop), or None."""
    if len(loop.step) != 1 or not isinstance(loop.step[0], ir.Assign):
        return None
    step = loop.step[0]
    target, value = step.target, step.value
    if not (isinstance(target, ir.Local) and isinstance(value, ir.Binary) and value.op in "+-"
            and isinstance(value.left, ir.Local) and value.left.name == target.name
            and isinstance(value.right, ir.Const) and value.right.type == "int" and value.right.value != 0):
        return None
    name = target.name
    for node in ir.walk((*((loop.cond,) if loop.cond is not None else ()), *loop.body)):
        if isinstance(node, ir.Assign) and isinstance(node.target, ir.Local) and node.target.name == name:
            return None
        if isinstance(node, (ir.Declare, ir.DeclareArray)) and node.name == name:
            return None
    return name
