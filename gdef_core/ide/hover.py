"""Hover: what the name under the cursor is (built-ins from the built-in table, functions
with their leading comment, variables with their type, objects with where they are
declared, game parameters with their meaning)."""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import GAME_PARAMETERS
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import game_parameter_markdown, span_text, symbol_markdown
from gdef_core.presentation import KEY_WORDS, PIECE_WORDS, SHOW_KEYS
from gdef_core.span import Span
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class HoverInfo:
    markdown: str
    span: Span


def hover(analyses: list[Analysis], path: str, line: int, column: int) -> HoverInfo | None:
    for analysis in analyses:
        occurrence = analysis.occurrence_at(path, line, column)
        if occurrence is not None:
            return HoverInfo(symbol_markdown(occurrence.symbol, _source_of(analysis)), occurrence.span)
    return _game_parameter(analyses, path, line, column) or _show_word(analyses, path, line, column)


def _game_parameter(analyses: list[Analysis], path: str, line: int, column: int) -> HoverInfo | None:
    module = analyses[0].module(path) if analyses else None
    for item in module.items if module else ():
        if isinstance(item, ast.GameParam) and item.key.text in GAME_PARAMETERS and item.key.span.contains(line, column):
            return HoverInfo(game_parameter_markdown(item.key.text), item.key.span)
    return None


def _show_word(analyses: list[Analysis], path: str, line: int, column: int) -> HoverInfo | None:
    """A presentation key (`style:`) or a word of its value (`intersections`, `side`, `from`)."""
    module = analyses[0].module(path) if analyses else None
    for item in module.items if module else ():
        if not isinstance(item, ast.ShowDecl) or not item.span.contains(line, column):
            continue
        for entry in item.entries:
            key = entry.key.text
            if key in SHOW_KEYS and entry.key.span.contains(line, column):
                return HoverInfo(f"```gdef\n{key}:\n```\n\nPresentation. {SHOW_KEYS[key]}", entry.key.span)
            words = KEY_WORDS.get(key) or (
                {"from": "`from N`: the labels are numbers from N."} if key in ("columns", "rows") else
                PIECE_WORDS if key not in SHOW_KEYS else {})
            for value in entry.values:
                for atom in value.atoms:
                    if isinstance(atom, ast.Name) and atom.text in words and atom.span.contains(line, column):
                        return HoverInfo(f"`{atom.text}`: {words[atom.text]}", atom.span)
    return None


def _source_of(analysis: Analysis):
    def source_of(span: Span) -> str | None:
        module = analysis.module(span.file)
        return span_text(module.text, span) if module else None
    return source_of
