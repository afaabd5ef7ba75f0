"""Handlers for inlay hints, call hierarchy, selection ranges, document links and pull
diagnostics: each converts one gdef_core.ide answer to LSP types, nothing more.

`register(server)` adds them to the server (called once by gdef_lsp.server), except pull
diagnostics, which `setup_diagnostics` offers at `initialize` to the clients it suits.
"""
from __future__ import annotations

import hashlib

from lsprotocol import types

from gdef_core.ide import call_hierarchy, inlay, links, selection
from gdef_lsp.convert import LineIndex, diagnostic as convert_diagnostic


def inlay_hints(ls, params: types.InlayHintParams) -> list[types.InlayHint]:
    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    index = LineIndex(text, ls.workspace.position_codec)
    first, _ = index.core_position(params.range.start)
    last, _ = index.core_position(params.range.end)
    return [types.InlayHint(index.position(h.line, h.column), h.label, kind=types.InlayHintKind.Parameter,
                            padding_right=True)
            for h in inlay.inlay_hints(ls.session.analyses(path), path, first, last)]


def prepare_call_hierarchy(ls, params: types.CallHierarchyPrepareParams) -> list[types.CallHierarchyItem]:
    path, _, line, column = ls.at(params)
    return [_call_item(ls, item) for item in call_hierarchy.prepare(ls.session.analyses(path), path, line, column)]


def incoming_calls(ls, params: types.CallHierarchyIncomingCallsParams) -> list[types.CallHierarchyIncomingCall]:
    path, line, column = _item_position(ls, params.item)
    return [types.CallHierarchyIncomingCall(_call_item(ls, edge.item), [ls.location(s).range for s in edge.spans])
            for edge in call_hierarchy.incoming(ls.session.analyses, path, line, column)]


def outgoing_calls(ls, params: types.CallHierarchyOutgoingCallsParams) -> list[types.CallHierarchyOutgoingCall]:
    path, line, column = _item_position(ls, params.item)
    return [types.CallHierarchyOutgoingCall(_call_item(ls, edge.item), [ls.location(s).range for s in edge.spans])
            for edge in call_hierarchy.outgoing(ls.session.analyses, path, line, column)]


def _call_item(ls, item: call_hierarchy.CallItem) -> types.CallHierarchyItem:
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
    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    module = ls.session.parse_cache.module(path, text)
    index = LineIndex(text, ls.workspace.position_codec)
    capability = ls.client_capabilities.text_document and ls.client_capabilities.text_document.document_link
    tooltips = bool(capability and capability.tooltip_support)
    return [types.DocumentLink(index.range(link.span), target=ls.uri_of(link.target),
                               tooltip=link.target if tooltips else None)
            for link in links.document_links(module, exists=lambda p: ls.session.source(p) is not None)]


def setup_diagnostics(ls, params: types.InitializeParams) -> None:
    """Decide, at `initialize`, how this client gets its diagnostics.

    A client that pulls them (textDocument/diagnostic) keeps pulled and pushed diagnostics
    apart and would show each problem twice, so it gets only one kind. Pull needs the client
    to take `workspace/diagnostic/refresh` as well: a change of a library changes the
    diagnostics of the games using it, and only the server knows. So the server offers pull
    (registers the request, which puts it in the capabilities it answers with) to clients
    that can do both (VS Code), and pushes to all others (Neovim up to 0.11 pulls but cannot
    be asked to refresh). `initializationOptions.diagnosticMode: "push"` always pushes."""
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    document, workspace = params.capabilities.text_document, params.capabilities.workspace
    ls.pull_diagnostics = bool(document and document.diagnostic and workspace and workspace.diagnostics
                               and workspace.diagnostics.refresh_support) and options.get("diagnosticMode") != "push"
    ls.pulled_ids = {}  # path -> the result id last answered for it
    if ls.pull_diagnostics and types.TEXT_DOCUMENT_DIAGNOSTIC not in ls.protocol.fm.features:
        ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
            identifier="gdef", inter_file_dependencies=True, workspace_diagnostics=False))(document_diagnostic)


def document_diagnostic(ls, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    """The diagnostics of the document's current text. The result id is a digest of the
    report, so an unchanged report is answered as `unchanged` (the client keeps its copy)."""
    path = ls.path_of(params.text_document.uri)
    items, result_id = _report(ls, path)
    ls.pulled_ids[path] = result_id
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


def refresh_diagnostics(ls) -> None:
    """A burst of changes settled (pull mode): once the last waiting file is checked, ask the
    client to pull again if what it last pulled for an open file is no longer right. The
    client re-pulls an edited file by itself, but only the server knows that a change of
    one file (a library; a file changed on disk) changes the diagnostics of others."""
    if ls.pending:
        return
    open_paths = set(ls.session.open_paths())
    if any(_report(ls, path)[1] != result_id for path, result_id in ls.pulled_ids.items() if path in open_paths):
        ls.workspace_diagnostic_refresh(None)


def _report(ls, path: str) -> tuple[list[types.Diagnostic], str]:
    index = ls.index(path)
    items = [convert_diagnostic(d, index, ls.location, ls.docs_url) for d in ls.session.diagnostics(path)]
    return items, hashlib.sha256(repr(items).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def register(server) -> None:
    server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))(inlay_hints)
    server.feature(types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare_call_hierarchy)
    server.feature(types.CALL_HIERARCHY_INCOMING_CALLS)(incoming_calls)
    server.feature(types.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing_calls)
    server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)(selection_range)
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkOptions(resolve_provider=False))(document_link)
