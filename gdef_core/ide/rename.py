"""Rename a symbol across the files of its game(s), or say why not.

Built-ins, keywords and game parameters cannot be renamed; a new name must be an identifier
that is neither a keyword nor a built-in, and must not collide with a name the renamed
symbol could then be confused with (another top-level name, or a local or parameter of the
same function).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable

from gdef_core.builtins import ALIASES, BUILTINS, GAME_PARAMETERS, KEYWORDS
from gdef_core.diagnostics import Edit
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.lexing import token_at
from gdef_core.ide.navigation import occurrences_everywhere
from gdef_core.presentation import SHOW_KEYS
from gdef_core.semantics.program import Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_LOCAL_KINDS = (SymbolKind.LOCAL, SymbolKind.PARAMETER)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a rename cannot happen, in words fit to show the user."""

    reason: str


@dataclass(frozen=True, slots=True)
class RenameTarget:
    span: Span  # the name under the cursor
    name: str


def prepare_rename(analyses: list[Analysis], text: str, path: str, line: int, column: int
                   ) -> RenameTarget | Refusal:
    """What a rename at the cursor would rename, or why it cannot."""
    symbol, span = _symbol_at(analyses, path, line, column)
    if symbol is None:
        return Refusal(_why_nothing(text, line, column))
    if symbol.kind is SymbolKind.BUILTIN:
        return Refusal(f"'{symbol.name}' is a built-in: it cannot be renamed")
    return RenameTarget(span, symbol.name)


def rename(analyses_of: Callable[[str], list[Analysis]], text: str, path: str, line: int, column: int,
           new_name: str) -> list[Edit] | Refusal:
    """The edits that rename the symbol at the cursor to `new_name` in every game that can
    see it (see navigation.references), or why not."""
    target = prepare_rename(analyses_of(path), text, path, line, column)
    if isinstance(target, Refusal):
        return target
    if new_name == target.name:
        return []
    problem = _bad_name(new_name)
    if problem:
        return Refusal(problem)
    edits: dict[tuple, Edit] = {}
    for analysis, occurrence in occurrences_everywhere(analyses_of, path, line, column):
        clash = _clash(analysis, occurrence.symbol, new_name)
        if clash:
            return Refusal(clash)
        for other in analysis.occurrences_of(occurrence.symbol):
            edits.setdefault((other.span.file, other.span.start), Edit(other.span, new_name))
    return sorted(edits.values(), key=lambda e: (e.span.file, e.span.start))


def _symbol_at(analyses, path, line, column) -> tuple[Symbol | None, Span | None]:
    for analysis in analyses:
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is not None:
            return occurrence.symbol, occurrence.span
    return None, None


def _why_nothing(text: str, line: int, column: int) -> str:
    token = token_at(text, line, column)
    if token is None:
        return "there is no name here to rename"
    word = token.value
    if word in KEYWORDS:
        return f"'{word}' is a keyword: it cannot be renamed"
    if word in BUILTINS or word in ALIASES:
        return f"'{word}' is a built-in: it cannot be renamed"
    if token.type == "NAME" and word in GAME_PARAMETERS and _followed_by_colon(text, token):
        return f"'{word}' is a game parameter: its name is fixed by the language"
    if token.type == "NAME" and word in SHOW_KEYS and _followed_by_colon(text, token):
        return f"'{word}' is a presentation key: its name is fixed by the language"
    if token.type == "NAME":
        return f"'{word}' is not defined anywhere, so there is nothing to rename"
    return "there is no name here to rename"


def _followed_by_colon(text: str, token) -> bool:
    rest = text.split("\n")[token.line][token.end_column:]
    return rest.lstrip().startswith(":")


def _bad_name(name: str) -> str | None:
    if not _IDENTIFIER.match(name):
        return f"'{name}' is not a name: use a letter or '_', then letters, digits or '_'"
    if name in KEYWORDS:
        return f"'{name}' is a keyword and cannot name anything"
    if name in BUILTINS or name in ALIASES:
        return f"'{name}' is a built-in name and cannot be reused"
    return None


def _clash(analysis: Analysis, symbol: Symbol, new_name: str) -> str | None:
    """A declaration the new name would collide with (one namespace for top-level names;
    a local or parameter must also differ from the others of its function)."""
    existing = analysis.program.symbols.get(new_name)
    if existing is not None and existing is not symbol:
        return f"'{new_name}' is already {_described(existing)}"
    if symbol.kind in _LOCAL_KINDS:
        for other in _locals_of(analysis, symbol):
            if other.name == new_name and _overlap(_scope(symbol), _scope(other)):
                return f"'{new_name}' is already {_described(other)} in the same function"
    else:
        for other in _all_locals(analysis):
            if other.name == new_name:
                return (f"'{new_name}' is already {_described(other)}; a {symbol.kind.value} of "
                        "that name would clash with it")
    return None


def _locals_of(analysis: Analysis, symbol: Symbol) -> list[Symbol]:
    return [s for s in _all_locals(analysis) if s.function is symbol.function and s is not symbol]


def _scope(symbol: Symbol) -> tuple:
    """Where a local or parameter is visible: a parameter in its whole function, a local from
    its declaration to the end of its function, or of its loop if a `for` declares it."""
    function = symbol.function
    if symbol.kind is SymbolKind.PARAMETER or function is None:
        return (function.span.start, function.span.end) if function else ((0, 0), (0, 0))
    loop = next((node for node in ast.walk(function.body) if isinstance(node, ast.For) and node.init is symbol.decl), None)
    return symbol.name_span.start, (loop or function).span.end


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _all_locals(analysis: Analysis) -> list[Symbol]:
    return list({id(s): s for s in analysis.program.references.values() if s.kind in _LOCAL_KINDS}.values())


def _described(symbol: Symbol) -> str:
    span = symbol.name_span
    where = f" ({os.path.basename(span.file)}:{span.line + 1})" if span is not None else ""
    article = "an" if symbol.kind.value[0] in "aeiou" else "a"
    return f"{article} {symbol.kind.value}{where}"
