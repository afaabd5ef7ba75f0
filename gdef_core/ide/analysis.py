"""One checked game, indexed for questions asked by position.

The checker records what every Name refers to (Program.references); this module sorts those
names per file so that "what is under the cursor" and "where is this symbol used" are cheap.
"""
from __future__ import annotations

import bisect
import os
from dataclasses import dataclass

from gdef_core.semantics.program import Program, Symbol
from gdef_core.span import Span
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One written name and what it refers to."""

    name: ast.Name
    symbol: Symbol

    @property
    def span(self) -> Span:
        return self.name.span

    @property
    def is_declaration(self) -> bool:
        decl = self.symbol.decl
        return decl is not None and decl.name is self.name


class Analysis:
    """A game's Program plus indexes. `entry` is the files the game was loaded from."""

    def __init__(self, program: Program, entry: tuple[str, ...]) -> None:
        self.program = program
        self.entry = entry
        self._modules = {os.path.abspath(m.path): m for m in program.modules}
        self._by_file: dict[str, list[Occurrence]] | None = None
        self._by_symbol: dict[Symbol, list[Occurrence]] | None = None
        self._assigned: set[ast.Name] | None = None

    @property
    def files(self) -> list[str]:
        return list(self._modules)

    def module(self, path: str) -> ast.Module | None:
        return self._modules.get(os.path.abspath(path))

    def occurrences(self, path: str) -> list[Occurrence]:
        """The resolved names of one file, in source order."""
        self._index()
        return self._by_file.get(os.path.abspath(path), [])

    def occurrences_of(self, symbol: Symbol) -> list[Occurrence]:
        """Every declaration and use of `symbol`, in every file of the game."""
        self._index()
        return self._by_symbol.get(symbol, [])

    def occurrence_at(self, path: str, line: int, column: int) -> Occurrence | None:
        """The name under (or just before) the cursor. A name that starts at the cursor wins
        over one that ends there (`a|+b` is on `a`, `a+|b` is on `b`)."""
        found = self.occurrences(path)
        index = bisect.bisect_right(found, (line, column), key=lambda o: o.span.start)
        if index and found[index - 1].span.contains(line, column):
            return found[index - 1]
        return None

    def assigned_names(self) -> set[ast.Name]:
        """The names written on the left of `=` anywhere in the game."""
        if self._assigned is None:
            self._assigned = {node.target.name for module in self.program.modules for node in ast.walk(module)
                              if isinstance(node, ast.Assign) and isinstance(node.target, ast.NameRef)}
        return self._assigned

    def _index(self) -> None:
        if self._by_file is not None:
            return
        by_file: dict[str, list[Occurrence]] = {}
        by_symbol: dict[Symbol, list[Occurrence]] = {}
        for name, symbol in self.program.references.items():
            if name.recovered or not name.text:
                continue
            occurrence = Occurrence(name, symbol)
            by_file.setdefault(os.path.abspath(name.span.file), []).append(occurrence)
            by_symbol.setdefault(symbol, []).append(occurrence)
        key = _position_key
        for found in by_file.values():
            found.sort(key=key)
        for found in by_symbol.values():
            found.sort(key=key)
        self._by_file, self._by_symbol = by_file, by_symbol


def _position_key(occurrence: Occurrence) -> tuple:
    span = occurrence.span
    return (span.file, span.line, span.column)
