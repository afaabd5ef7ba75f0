"""Calls of end() that may replay what the judgement of the same move did.

Go's `isMoveLegal()` calls `capture(x, y, enemy)` to judge a stone after its captures, and its
`end()` calls it again, with the same arguments, to make them: the same flood on the same board.
A function that reads nothing but its scalar arguments, `ResultPosition` / `ResultCount` and the
constant tables, and whose only effects are consequences (`addPlace` / `addClear` /
`addCount`), gives the same result, the same consequences in the same order and spends the same
steps whenever it is called with the same arguments at the same depth on the same
`ResultPosition`. Judged, `ResultPosition` is the board after the move (before any consequence);
in `end()` it is the board itself. A compiled backend may keep, from the judgement's call, the
arguments, the board it saw, the result, the consequences and the steps, and answer a call of
`end()` that finds the same arguments and the same board from them, spending the same steps (a
call whose kept steps exceed the budget left runs the function: the budget runs out at the same
step; a call that failed is never kept). The C route: `cnative/emit.py`, `replay_wrappers`.
"""
from __future__ import annotations

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.pure import has_loop

_SCALARS = frozenset({"int", "bool", "obj"})
_READS = frozenset({"ResultPosition", "ResultCount"})
_CONSEQUENCES = frozenset({"addPlace", "addClear", "addCount"})
_JUDGED = frozenset({Context.IS_MOVE_LEGAL, Context.END})


def replayed(module: ir.Module, tables: set[str]) -> set[str]:
    """The names of the functions that both `isMoveLegal()` and `end()` call in their own
    bodies, that only those two entry points reach, and that depend on nothing but their
    arguments and `ResultPosition` as above (reading game-variable arrays only among `tables`,
    those no function changes; calling only such functions, none recursive), with a loop in them
    or in a function they call (a loop-free one costs less than the comparison of the board)."""
    functions = module.functions
    if "isMoveLegal" not in functions or "end" not in functions:
        return set()
    called = [{node.name for node in ir.walk(functions[entry].body) if isinstance(node, ir.CallFunction)}
              for entry in ("isMoveLegal", "end")]
    closed: dict[str, bool] = {}

    def depends_on_board_alone(name: str) -> bool:
        if name not in closed:
            closed[name] = False   # a cycle does not qualify (a recursive function is not kept)
            closed[name] = _reads_board_alone(functions[name], tables, depends_on_board_alone)
        return closed[name]

    return {name for name in called[0] & called[1]
            if functions[name].contexts <= _JUDGED and functions[name].params
            and all(kind in _SCALARS for _, kind in functions[name].params)
            and functions[name].result in _SCALARS | {None}
            and depends_on_board_alone(name) and has_loop(module, name, set())}


def _reads_board_alone(function: ir.Function, tables: set[str], qualifies) -> bool:
    if function.recursive:
        return False
    for node in ir.walk(function.body):
        match node:
            case ir.Board(builtin=builtin) if builtin.name not in _READS:
                return False
            case ir.CallBuiltin(builtin=builtin) if builtin.name not in _CONSEQUENCES:
                return False
            case ir.GameVar(name=name) if name not in tables:
                return False
            case ir.Assign(target=ir.GameVar() | ir.Element(array=ir.GameVar())):
                return False
            case ir.CallFunction(name=name) if not qualifies(name):
                return False
    return True

