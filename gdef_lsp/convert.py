"""Core positions (0-based line, column in code points) <-> LSP positions (client units,
UTF-16 unless the client negotiated otherwise), and core objects -> LSP types.

Lines are split at "\\n" and at a lone "\\r", as the core counts them (gdef_core.span.
lone_cr_as_lf); the "\\r" of a "\\r\\n" is part of its line's text and never inside a token,
so columns before it agree.
"""
from __future__ import annotations

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from gdef_core.diagnostics import Diagnostic, Severity, Tag
from gdef_core.span import Span, lone_cr_as_lf

_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning}
_TAG = {Tag.UNNECESSARY: types.DiagnosticTag.Unnecessary, Tag.DEPRECATED: types.DiagnosticTag.Deprecated}


class LineIndex:
    """One text's lines, to convert columns between code points and the client's units."""

    __slots__ = ("lines", "_units")

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.lines = lone_cr_as_lf(text).split("\n")
        self._units = codec.impl

    def position(self, line: int, column: int) -> types.Position:
        """A core position -> an LSP position (clamped to the text)."""
        if line >= len(self.lines):
            last = len(self.lines) - 1
            return types.Position(last, self._units.num_units(self.lines[last]))
        text = self.lines[line]
        if text.isascii():
            return types.Position(line, min(column, len(text)))
        return types.Position(line, self._units.num_units(text[:column]))

    def range(self, span: Span) -> types.Range:
        return types.Range(self.position(span.line, span.column), self.position(span.end_line, span.end_column))

    def core_position(self, position: types.Position) -> tuple[int, int]:
        """An LSP position -> (line, column in code points), clamped to the text."""
        if position.line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        text = self.lines[position.line]
        if text.isascii():
            return position.line, min(position.character, len(text))
        units, column = 0, 0
        for char in text:
            if units >= position.character:
                break
            units += self._units.code_units_for_char(char)
            column += 1
        return position.line, column


def severity(value: Severity) -> types.DiagnosticSeverity:
    return _SEVERITY[value]


def diagnostic(diag: Diagnostic, index: LineIndex, location, docs_url) -> types.Diagnostic:
    """A core diagnostic -> LSP. `location(span)` gives a Location for related spans in any
    file; `docs_url(code)` the page that explains the code (or None)."""
    href = docs_url(diag.code)
    return types.Diagnostic(
        range=index.range(diag.span),
        message=diag.message,
        severity=severity(diag.severity),
        code=diag.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source="gdef",
        related_information=[types.DiagnosticRelatedInformation(location(r.span), r.message)
                             for r in diag.related] or None,
        tags=sorted((_TAG[t] for t in diag.tags), key=int) or None,
    )
