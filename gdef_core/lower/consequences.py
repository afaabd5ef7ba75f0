"""Which entry points make consequences of a move (docs/language.md, "Consequences of a move"):
`addPlace`/`addClear`/`addCount` reached from `end()` change the position at once, reached from
`isMoveLegal()` they change the scratch copy `ResultPosition` (with its counts `ResultCount`).
Both backends ask this once, to keep the board before end() and to give isMoveLegal() a
scratch copy only where needed.
"""
from __future__ import annotations

from gdef_core.builtins import CONSEQUENCE_BUILTINS, Context
from gdef_core.lower import ir


def makes_consequences(module: ir.Module, context: Context) -> bool:
    """Whether entry point `context` reaches a call of addPlace, addClear or addCount."""
    reached = (module.functions[name] for name in module.graph.reach[context] if name in module.functions)
    return bool(ir.builtins_in(reached) & CONSEQUENCE_BUILTINS)
