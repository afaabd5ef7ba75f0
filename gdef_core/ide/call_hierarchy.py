"""Call hierarchy: which functions call a function (incoming) and which it calls (outgoing),
across the files of every game that can see it.

A function is named by the position of its name in its definition (what an editor hands
back with each item). A library can belong to several games, each with its own Program: the
answers of every game are merged by position, as navigation.references does.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import function_signature
from gdef_core.ide.navigation import occurrences_everywhere
from gdef_core.semantics.program import SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast

AnalysesOf = Callable[[str], list[Analysis]]


@dataclass(frozen=True, slots=True)
class CallItem:
    """One function: its name, signature, whole definition and name spans."""

    name: str
    detail: str
    span: Span
    selection: Span


@dataclass(frozen=True, slots=True)
class CallEdge:
    """`item` (the caller for incoming, the callee for outgoing) and the spans of the called
    names, which lie in the caller's file."""

    item: CallItem
    spans: tuple[Span, ...]


def prepare(analyses: list[Analysis], path: str, line: int, column: int) -> list[CallItem]:
    """The function whose name (in its definition or in a call) is under the cursor."""
    for analysis in analyses:
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is not None and _is_function(occurrence.symbol):
            return [item_of(occurrence.symbol.decl)]
    return []


def incoming(analyses_of: AnalysesOf, path: str, line: int, column: int) -> list[CallEdge]:
    """The functions calling the function named at (path, line, column), each with its calls,
    in file and source order. Calls outside any function (none are allowed) are left out."""
    found: dict[tuple, tuple[CallItem, dict[tuple, Span]]] = {}
    for analysis, occurrence in occurrences_everywhere(analyses_of, path, line, column):
        if not _is_function(occurrence.symbol):
            continue
        for other in analysis.occurrences_of(occurrence.symbol):
            if other.is_declaration:
                continue
            caller = _enclosing_function(analysis, other.span)
            if caller is not None:
                _add(found, item_of(caller), other.span)
    return _edges(found)


def outgoing(analyses_of: AnalysesOf, path: str, line: int, column: int) -> list[CallEdge]:
    """The functions that the function named at (path, line, column) calls, each with its
    calls, in order of the callee's definition. Built-ins have no definition to go to and are
    left out. In a library, a call of a function each game defines gives one edge per game."""
    found: dict[tuple, tuple[CallItem, dict[tuple, Span]]] = {}
    for analysis in analyses_of(path):
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is None or not _is_function(occurrence.symbol):
            continue
        for node in ast.walk(occurrence.symbol.decl.body):
            if type(node) is ast.Call:
                callee = analysis.program.references.get(node.callee)
                if callee is not None and _is_function(callee):
                    _add(found, item_of(callee.decl), node.callee.span)
    return _edges(found)


def item_of(function: ast.FunctionDef) -> CallItem:
    return CallItem(function.name.text, function_signature(function), function.span, function.name.span)


def _is_function(symbol) -> bool:
    return symbol.kind is SymbolKind.FUNCTION and isinstance(symbol.decl, ast.FunctionDef)


def _enclosing_function(analysis: Analysis, span: Span) -> ast.FunctionDef | None:
    module = analysis.module(span.file)
    for function in module.functions() if module else ():
        if function.span.contains(span.line, span.column):
            return function
    return None


def _add(found: dict, item: CallItem, span: Span) -> None:
    key = (os.path.abspath(item.selection.file), item.selection.start)
    entry = found.setdefault(key, (item, {}))
    entry[1].setdefault((os.path.abspath(span.file), span.start), span)


def _edges(found: dict) -> list[CallEdge]:
    return [CallEdge(item, tuple(spans[k] for k in sorted(spans))) for _, (item, spans) in sorted(found.items())]
