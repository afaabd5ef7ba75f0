"""Which game variables are tables: never assigned after their initialiser.

A table (`int knightDx[8] = {1, 2, ...};`) is part of the rules, not of the position, so
players are not shown it by default (gdef_core/presentation.py). A game variable counts as
changed when a function assigns it or one of its elements, or passes it whole to a function
(an array parameter is a reference the callee may assign).
"""
from __future__ import annotations

from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.syntax import ast


def changed_game_vars(program: Program) -> set[str]:
    """The names of the game variables some function may assign."""
    changed: set[str] = set()
    references = program.references
    for module in program.modules:
        for function in module.functions():
            for node in ast.walk(function.body):
                if type(node) is ast.Assign:
                    target = node.target
                    name = target.name if type(target) is ast.NameRef else (
                        target.base if type(target) is ast.Index else None)
                    _mark(references, name, changed)
                elif type(node) is ast.Call and node.callee.text in program.functions:
                    for arg in node.args:
                        if type(arg) is ast.NameRef:
                            _mark(references, arg.name, changed)
    return changed


def _mark(references: dict, name, changed: set[str]) -> None:
    symbol = references.get(name) if name is not None else None
    if symbol is not None and symbol.kind is SymbolKind.GAME_VAR:
        changed.add(symbol.name)
