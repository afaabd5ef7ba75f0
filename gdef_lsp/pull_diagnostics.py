"""Pull diagnostics (textDocument/diagnostic), for the clients that suit it: `setup_diagnostics`
decides at `initialize` whether this client pulls or gets them pushed."""
from __future__ import annotations

import hashlib

from lsprotocol import types

from gdef_lsp.convert import diagnostic as convert_diagnostic


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
