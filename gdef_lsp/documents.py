"""The text of open documents, kept by the server itself.

pygls keeps a copy too, but splits lines with str.splitlines, which also breaks at form
feeds, vertical tabs, U+2028 and a few more: an edit after such a character (legal in a
comment) would land on the wrong line. LSP lines end only at "\\r\\n", "\\r" or "\\n", so
edits are applied here with exactly those.
"""
from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from gdef_core.ide.session import MAX_ANALYSED_CHARS

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(slots=True)
class Document:
    text: str
    version: int | None


def apply_change(text: str, change, codec: PositionCodec) -> str:
    """`text` with one LSP content change applied."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    start = offset_at(text, change.range.start, codec)
    end = max(start, offset_at(text, change.range.end, codec))
    return text[:start] + change.text + text[end:]


def offset_at(text: str, position: types.Position, codec: PositionCodec) -> int:
    """The index in `text` of an LSP position (clamped to its line, and to the text)."""
    line_start = 0
    if position.line:
        breaks = list(itertools.islice(_LINE_BREAK.finditer(text), position.line))
        if len(breaks) < position.line:
            return len(text)
        line_start = breaks[-1].end()
    following = _LINE_BREAK.search(text, line_start)
    line = text[line_start:following.start() if following else len(text)]
    units = 0
    for index, char in enumerate(line):
        if units >= position.character:
            return line_start + index
        units += codec.impl.code_units_for_char(char)
    return line_start + len(line)


def tell_if_too_large(server, path: str, was_too_large: int | None) -> None:
    """Say once, when a document becomes too long to be analysed as one types (see
    gdef_core.ide.session.MAX_ANALYSED_CHARS), that the server now treats it as empty."""
    length = server.session.too_large(path)
    if length is None or was_too_large is not None:
        return
    name = os.path.basename(path)
    server.window_show_message(types.ShowMessageParams(
        types.MessageType.Warning,
        f"{name} has {length:,} characters, more than the {MAX_ANALYSED_CHARS:,} the gdef language "
        f"server analyses as you type: it shows no diagnostics or other help for it until it is "
        f"shorter. Check it with `gdef-check {name}`."))
