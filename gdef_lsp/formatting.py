"""textDocument/formatting and rangeFormatting: gdef_core.format, answered as the few line
edits that turn the document into its formatted text (so the editor keeps the cursor and
the undo history readable), not as one edit replacing everything.

The indentation comes from the project (gdef.toml / pyproject.toml, as gdef-fmt reads it),
not from the editor's tab size, so that saving in an editor and `gdef-fmt --check` in CI agree.
A range is formatted by formatting the whole file and keeping the edits that touch the range.
A document with syntax errors is refused (RequestFailed naming the first error), never changed.
"""
from __future__ import annotations

import difflib
import os
import re

from lsprotocol import types

from gdef_lsp.replies import refuse

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")  # LSP lines end at \r\n, \r or \n


def register(server) -> None:
    """Add the two requests to the server (gdef_lsp.server calls this once)."""

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
        return _edits(ls, params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_RANGE_FORMATTING)
    def range_formatting(ls, params: types.DocumentRangeFormattingParams) -> list[types.TextEdit]:
        return _edits(ls, params.text_document.uri, params.range)


def _edits(ls, uri: str, wanted: types.Range | None) -> list[types.TextEdit]:
    from gdef_core.format import FormatError, SyntaxErrors, format_source  # the formatter, read when first asked
    from gdef_core.format.config import ConfigError, options_for

    path = ls.path_of(uri)
    document = ls.documents.get(path)
    text = document.text if document is not None else ls.session.source(path)
    if text is None:
        raise refuse(f"cannot format {path}: it is not open and cannot be read")
    try:
        formatted = format_source(text, path, options_for(os.path.dirname(path)))
    except SyntaxErrors as refused:
        first = refused.diagnostics[0]
        count = len(refused.diagnostics)
        raise refuse(f"not formatted: {count} syntax error{'s' if count > 1 else ''} "
                      f"(the first at line {first.span.line + 1}, column {first.span.column + 1}: "
                      f"{first.message})") from None
    except (ConfigError, FormatError) as error:
        raise refuse(f"not formatted: {error}") from None
    return line_edits(text, formatted, ls.workspace.position_codec, wanted)


def line_edits(old: str, new: str, codec, wanted: types.Range | None = None) -> list[types.TextEdit]:
    """Whole-line edits from `old` to `new`; with `wanted`, only those touching its lines."""
    before, after = _LINE.findall(old), _LINE.findall(new)
    first, last = (wanted.start.line, _last_line(wanted)) if wanted is not None else (0, len(before))
    edits = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or i1 > last or max(i1, i2 - 1) < first:
            continue
        edits.append(types.TextEdit(types.Range(_start_of(before, i1, codec), _start_of(before, i2, codec)),
                                    "".join(after[j1:j2])))
    return edits


def _last_line(wanted: types.Range) -> int:
    end = wanted.end
    return end.line - 1 if end.character == 0 and end.line > wanted.start.line else end.line


def _start_of(lines: list[str], index: int, codec) -> types.Position:
    """The position where line `index` starts; past the last line, the end of the text."""
    if index < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
        return types.Position(index, 0)
    return types.Position(len(lines) - 1, codec.client_num_units(lines[-1]))
