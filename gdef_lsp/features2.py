"""Handlers for inlay hints, call hierarchy, selection ranges, document links and pull
diagnostics: each converts one gdef_core.ide answer to LSP types, nothing more.

`register(server)` adds them to the server (called once by gdef_lsp.server).
"""
from __future__ import annotations

from lsprotocol import types

from gdef_core.ide import inlay
from gdef_lsp.convert import LineIndex


def inlay_hints(ls, params: types.InlayHintParams) -> list[types.InlayHint]:
    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    index = LineIndex(text, ls.workspace.position_codec)
    first, _ = index.core_position(params.range.start)
    last, _ = index.core_position(params.range.end)
    return [types.InlayHint(index.position(h.line, h.column), h.label, kind=types.InlayHintKind.Parameter,
                            padding_right=True)
            for h in inlay.inlay_hints(ls.session.analyses(path), path, first, last)]


def register(server) -> None:
    server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))(inlay_hints)
