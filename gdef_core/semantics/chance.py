"""Chance (docs/language.md, "Chance"): `chance()` is an entry point only in a game that calls
the built-in chanceNext(); such a game must define it (G418). A game without chanceNext() may
have a function of its own called `chance`, which the engine never calls."""
from __future__ import annotations

from gdef_core.builtins import CHANCE_ENTRY_BUILTIN, Context
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report


def uses_chance(program: Program) -> bool:
    """Whether some call of the game resolves to the built-in chanceNext()."""
    return any(symbol.builtin is not None and symbol.builtin.name == CHANCE_ENTRY_BUILTIN
               for symbol in program.references.values())


def is_entry_point(program: Program, name: str, entry_points) -> bool:
    """Whether the runtime calls function `name` of this game (`entry_points`: builtins.ENTRY_POINTS)."""
    if name == Context.CHANCE.value:
        return uses_chance(program)
    return name in entry_points


def check_chance_defined(program: Program, report: Report) -> None:
    """G418 at each chanceNext() call of a game that defines no chance()."""
    if program.is_library or Context.CHANCE.value in program.functions or report.recovery.syntax_errors:
        return
    for node, symbol in program.references.items():
        if symbol.builtin is not None and symbol.builtin.name == CHANCE_ENTRY_BUILTIN:
            report.add("G418", node.span, "'chanceNext()' makes the next move chance's, but the game "
                       "defines no chance() to propose the outcomes: define `define chance() { ... }`, "
                       "finishing each outcome with addOutcome(weight)")
