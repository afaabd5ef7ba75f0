"""Handlers of the views of a file's structure: call hierarchy, selection ranges, document
links (`use` lines) and inlay hints (parameter names): each converts one gdef_core.ide answer
to LSP types, nothing more. `register(server)` adds them (called once by gdef_lsp.server).
Each handler imports its gdef_core.ide module when first asked, not when the server starts.
"""
from __future__ import annotations

from lsprotocol import types

from gdef_lsp.convert import LineIndex


def inlay_hints(ls, params: types.InlayHintParams) -> list[types.InlayHint]:
    from gdef_core.ide import inlay

    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    index = LineIndex(text, ls.workspace.position_codec)
    first, _ = index.core_position(params.range.start)
    last, _ = index.core_position(params.range.end)
    return [types.InlayHint(index.position(h.line, h.column), h.label, kind=types.InlayHintKind.Parameter,
                            padding_right=True)
            for h in inlay.inlay_hints(ls.session.analyses(path), path, first, last)]


def prepare_call_hierarchy(ls, params: types.CallHierarchyPrepareParams) -> list[types.CallHierarchyItem]:
    from gdef_core.ide import call_hierarchy

    path, _, line, column = ls.at(params)
    return [_call_item(ls, item) for item in call_hierarchy.prepare(ls.session.analyses(path), path, line, column)]


def incoming_calls(ls, params: types.CallHierarchyIncomingCallsParams) -> list[types.CallHierarchyIncomingCall]:
    from gdef_core.ide import call_hierarchy

    path, line, column = _item_position(ls, params.item)
    return [types.CallHierarchyIncomingCall(_call_item(ls, edge.item), [ls.location(s).range for s in edge.spans])
            for edge in call_hierarchy.incoming(ls.session.analyses, path, line, column)]


def outgoing_calls(ls, params: types.CallHierarchyOutgoingCallsParams) -> list[types.CallHierarchyOutgoingCall]:
    from gdef_core.ide import call_hierarchy

    path, line, column = _item_position(ls, params.item)
    return [types.CallHierarchyOutgoingCall(_call_item(ls, edge.item), [ls.location(s).range for s in edge.spans])
            for edge in call_hierarchy.outgoing(ls.session.analyses, path, line, column)]


def _call_item(ls, item) -> types.CallHierarchyItem:
    """An LSP item of a gdef_core.ide.call_hierarchy.CallItem."""
    location = ls.location(item.span)
    return types.CallHierarchyItem(name=item.name, kind=types.SymbolKind.Function, uri=location.uri,
                                   range=location.range, selection_range=ls.location(item.selection).range,
                                   detail=item.detail)


def _item_position(ls, item: types.CallHierarchyItem) -> tuple[str, int, int]:
    """The core position of an item's name, which the editor hands back as it got it."""
    path = ls.path_of(item.uri)
    line, column = ls.index(path).core_position(item.selection_range.start)
    return path, line, column


def selection_range(ls, params: types.SelectionRangeParams) -> list[types.SelectionRange]:
    """One chain per position, outermost (the file) at the end of the parent links."""
    from gdef_core.ide import selection

    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    module = ls.session.parse_cache.module(path, text)
    index = LineIndex(text, ls.workspace.position_codec)
    found = []
    for at in params.positions:
        line, column = index.core_position(at)
        parent = None
        for span in reversed(selection.selection_ranges(module, line, column)):
            parent = types.SelectionRange(index.range(span), parent)
        found.append(parent)
    return found


def document_link(ls, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    from gdef_core.ide import links

    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    module = ls.session.parse_cache.module(path, text)
    index = LineIndex(text, ls.workspace.position_codec)
    capability = ls.client_capabilities.text_document and ls.client_capabilities.text_document.document_link
    tooltips = bool(capability and capability.tooltip_support)
    return [types.DocumentLink(index.range(link.span), target=ls.uri_of(link.target),
                               tooltip=link.target if tooltips else None)
            for link in links.document_links(module, exists=lambda p: ls.session.source(p) is not None)]


def register(server) -> None:
    server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))(inlay_hints)
    server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare_call_hierarchy)
    server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)(incoming_calls)
    server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing_calls)
    server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)(selection_range)
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))(document_link)
