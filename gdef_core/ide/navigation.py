"""Go to definition, find references, document highlight.

A library can belong to several games, each with its own Program; a question about a name
in it is answered in every one of them and the answers merged (by position, since the
Symbol objects differ between Programs).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from gdef_core.ide.analysis import Analysis, Occurrence
from gdef_core.span import Span, point
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class Reference:
    span: Span
    is_declaration: bool
    is_write: bool = False  # assigned or declared with a value (document highlight "write")


def definitions(analyses: list[Analysis], path: str, line: int, column: int) -> list[Span]:
    """Where the name under the cursor is declared (nothing for built-ins); on the file name
    of a `use` line, the start of that file."""
    found: dict[tuple, Span] = {}
    for analysis in analyses:
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is not None and occurrence.symbol.name_span is not None:
            span = occurrence.symbol.name_span
            found.setdefault((span.file, span.start), span)
    if not found and analyses:
        module = analyses[0].module(path)
        for item in module.items if module else ():
            if isinstance(item, ast.UseDecl) and item.path and item.path_span.contains(line, column):
                used = os.path.normpath(os.path.join(os.path.dirname(module.path), item.path))
                return [point(used, 0, 0)]
    return list(found.values())


def references(analyses_of: Callable[[str], list[Analysis]], path: str, line: int, column: int,
               include_declaration: bool = True) -> list[Reference]:
    """Every use (and, if asked, the declaration) of the name under the cursor, in file and
    source order. `analyses_of(path)` gives the analyses of the games containing a file:
    the search runs in every game that contains the symbol's declaration, so renaming a
    library function from one game's file also finds the other games' calls."""
    found: dict[tuple, Reference] = {}
    for analysis, occurrence in occurrences_everywhere(analyses_of, path, line, column):
        writes = analysis.assigned_names()
        for other in analysis.occurrences_of(occurrence.symbol):
            if other.is_declaration and not include_declaration:
                continue
            span = other.span
            found.setdefault((span.file, span.start),
                             Reference(span, other.is_declaration, other.name in writes or _declares_value(other)))
    return sorted(found.values(), key=lambda r: (r.span.file, r.span.start))


def occurrences_everywhere(analyses_of: Callable[[str], list[Analysis]], path: str, line: int, column: int
                           ) -> list[tuple[Analysis, Occurrence]]:
    """The symbol under the cursor as each game that sees its declaration resolves it."""
    found = []
    seen_games = set()
    for analysis in analyses_of(path):
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is None:
            continue
        declared = occurrence.symbol.name_span
        if declared is None:  # a built-in: only this game's uses
            found.append((analysis, occurrence))
            continue
        for other in analyses_of(declared.file):
            if other.entry in seen_games:
                continue
            at = other.occurrence_at(declared.file, declared.line, declared.column)
            if at is not None:
                seen_games.add(other.entry)
                found.append((other, at))
    return found


def highlights(analyses: list[Analysis], path: str, line: int, column: int) -> list[Reference]:
    """The occurrences of the name under the cursor in this file."""
    here = os.path.abspath(path)
    return [r for r in references(lambda _: analyses, path, line, column) if os.path.abspath(r.span.file) == here]


def _declares_value(occurrence: Occurrence) -> bool:
    return occurrence.is_declaration and isinstance(occurrence.symbol.decl, (ast.VarDecl, ast.GameVar))
