"""Functions whose result and step count depend on their arguments alone.

A function that reads nothing of the game (no board, no move, no game variable but the
constant tables, no built-in), takes and returns scalars, makes no array and calls only such
functions, none of them recursive, gives the same result after the same number of steps
whenever it is called with the same arguments. A compiled backend may keep those two numbers
per argument tuple and answer a later call from them, counting the same steps: the step budget
runs out at the same call either way, and a call that failed (a division by zero, the budget
spent) is never kept. Only functions with a loop are worth it (nine men's morris's
`neighbour()`, walking a line to the next point, is asked the same few hundred questions
millions of times); a loop-free one costs less than the lookup.
"""
from __future__ import annotations

from gdef_core.lower import ir

_SCALARS = frozenset({"int", "bool", "obj"})


def memoizable(module: ir.Module, tables: set[str]) -> set[str]:
    """The names of the functions of `module` a backend may answer from earlier calls with the
    same arguments: pure as above (reading game-variable arrays only among `tables`, those no
    function changes), with a loop in them or in a function they call."""
    pure: dict[str, bool] = {}

    def is_pure(name: str) -> bool:
        if name not in pure:
            pure[name] = False   # a cycle is not pure (a recursive function is not kept)
            pure[name] = _pure_body(module.functions[name], tables, is_pure)
        return pure[name]

    return {name for name in module.functions if is_pure(name) and has_loop(module, name, set())}


def _pure_body(function: ir.Function, tables: set[str], is_pure) -> bool:
    if function.recursive or function.result not in _SCALARS:
        return False
    if any(kind not in _SCALARS for _, kind in function.params):
        return False
    for node in ir.walk(function.body):
        match node:
            case ir.Board() | ir.CallBuiltin() | ir.DeclareArray():
                return False
            case ir.Enter(depth=True):
                return False
            case ir.GameVar(name=name) if name not in tables:
                return False
            case ir.Assign(target=ir.GameVar() | ir.Element(array=ir.GameVar())):
                return False
            case ir.CallFunction(name=name) if not is_pure(name):
                return False
    return True


def has_loop(module: ir.Module, name: str, seen: set[str]) -> bool:
    """Whether function `name` or one it calls has a loop."""
    seen.add(name)
    for node in ir.walk(module.functions[name].body):
        if isinstance(node, ir.Loop):
            return True
        if isinstance(node, ir.CallFunction) and node.name not in seen and has_loop(module, node.name, seen):
            return True
    return False
