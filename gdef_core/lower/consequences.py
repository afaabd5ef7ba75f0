"""Which entry points make consequences of a move (docs/language.md, "Consequences of a move"):
`addPlace`/`addClear` reached from `end()` change the position at once, reached from
`isMoveLegal()` they change the scratch copy `ResultPosition`. Both backends ask this once, to
keep the board before end() and to give isMoveLegal() a scratch copy only where needed.
"""
from __future__ import annotations

from gdef_core.builtins import Context
from gdef_core.lower import ir

# The built-ins that make a consequence outside moves() and setup().
CONSEQUENCES = frozenset({"addPlace", "addClear"})


def makes_consequences(module: ir.Module, context: Context) -> bool:
    """Whether entry point `context` reaches a call of addPlace or addClear."""
    reached = (module.functions[name] for name in module.graph.reach[context] if name in module.functions)
    return bool(ir.builtins_in(reached) & CONSEQUENCES)
