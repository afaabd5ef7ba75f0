"""The gdef language server: one small handler per LSP feature, each asking gdef_core.ide
and converting the answer to LSP types (convert.py). No language knowledge lives here.

An exception in a handler is logged to the client and answered with an error for that
request only (pygls does the answering; ClientLogHandler the logging). Requests a user
cannot fulfil (renaming a keyword, running a library) are answered with a RequestFailed
error whose message says why.
"""
from __future__ import annotations

import asyncio
import functools
import gc
import logging
import os
import sys
from pathlib import Path
from typing import Callable

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method
from pygls.uris import from_fs_path, to_fs_path

from gdef_core.diagnostics import Diagnostic
from gdef_core.ide.highlight import TOKEN_MODIFIERS, TOKEN_TYPES
from gdef_core.ide.session import Session, normalise
from gdef_core.project import discover
from gdef_core.span import Span
from gdef_core.syntax import ast
from gdef_lsp import __version__, code_structure, formatting, pull_diagnostics, rule_tests, simulation
from gdef_lsp.convert import LineIndex, diagnostic as convert_diagnostic
from gdef_lsp.documents import Document, apply_change, tell_if_too_large
from gdef_lsp.logs import ClientLogHandler
from gdef_lsp.replies import refuse

log = logging.getLogger("gdef_lsp")

RUN_COMMAND = "gdef.runGame"
DEBUG_COMMAND = "gdef.debugGame"  # the client starts a debug session (gdef-dap) with the configuration returned
# How long diagnostics wait for the next change. Changes already sent arrive well within it
# (a paste, a macro, a client that batches), so a burst is checked once; a check itself
# blocks the server, so keys typed during a slow check queue up and are coalesced too.
DEFAULT_DELAY = 0.005
# After each check the objects alive are frozen (gc.freeze): a game's syntax trees and check
# results are hundreds of thousands of objects that live for many keystrokes, and Python's
# cyclic collector would otherwise walk them all now and then in the middle of a check (a new
# line at 10,000 lines: slowest 320 ms instead of about 100). Frozen objects freed by reference
# counting go as usual; every UNFREEZE_AFTER checks they are handed back to the collector, so
# garbage cycles among them are still found (one full collection then).
UNFREEZE_AFTER = 100
DIAGNOSTICS_DOCS = Path(__file__).resolve().parent.parent / "docs" / "diagnostics.md"

@functools.cache
def _completion_kinds() -> dict:
    """The LSP kind of each kind of completion candidate (read on the first completion)."""
    from gdef_core.ide.completion import CandidateKind

    return {
        CandidateKind.LOCAL: types.CompletionItemKind.Variable,
        CandidateKind.PARAMETER: types.CompletionItemKind.Variable,
        CandidateKind.GAME_VAR: types.CompletionItemKind.Variable,
        CandidateKind.OBJECT: types.CompletionItemKind.EnumMember,
        CandidateKind.FUNCTION: types.CompletionItemKind.Function,
        CandidateKind.BUILTIN_FUNCTION: types.CompletionItemKind.Function,
        CandidateKind.BOARD: types.CompletionItemKind.Field,
        CandidateKind.VALUE: types.CompletionItemKind.Constant,
        CandidateKind.KEYWORD: types.CompletionItemKind.Keyword,
        CandidateKind.TYPE: types.CompletionItemKind.TypeParameter,
        CandidateKind.GAME_PARAMETER: types.CompletionItemKind.Property,
        CandidateKind.SHOW_KEY: types.CompletionItemKind.Property,
        CandidateKind.FILE: types.CompletionItemKind.File,
        CandidateKind.INDEX: types.CompletionItemKind.Value,
    }


@functools.cache
def _symbol_kinds() -> dict:
    """The LSP kind of each kind of outline entry (read on the first symbol request)."""
    from gdef_core.ide.outline import OutlineKind

    return {
        OutlineKind.GAME_PARAMETER: types.SymbolKind.Property,
        OutlineKind.USE: types.SymbolKind.File,
        OutlineKind.OBJECT: types.SymbolKind.EnumMember,
        OutlineKind.START: types.SymbolKind.Namespace,
        OutlineKind.SHOW: types.SymbolKind.Namespace,
        OutlineKind.GAME_VAR: types.SymbolKind.Variable,
        OutlineKind.FUNCTION: types.SymbolKind.Function,
        OutlineKind.PARAMETER: types.SymbolKind.Variable,
        OutlineKind.LOCAL: types.SymbolKind.Variable,
    }


SEMANTIC_LEGEND = types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))


class Settings:
    """What the client may set in initializationOptions."""

    def __init__(self, options: object) -> None:
        options = options if isinstance(options, dict) else {}
        delay = options.get("diagnosticDelay")  # milliseconds
        self.delay = delay / 1000 if isinstance(delay, (int, float)) and 0 <= delay <= 10_000 else DEFAULT_DELAY
        timeout = options.get("ruleTestTimeout")  # seconds a run of the rule tests may take
        self.rule_test_timeout = float(timeout) if isinstance(timeout, (int, float)) and 0 < timeout <= 86_400 \
            else rule_tests.DEFAULT_TIMEOUT
        docs = options.get("diagnosticsDocs")
        self.docs = docs if isinstance(docs, str) and docs else (
            DIAGNOSTICS_DOCS.as_uri() if DIAGNOSTICS_DOCS.exists() else None)


class GdefProtocol(LanguageServerProtocol):
    """pygls' protocol, except that it leaves edits to the server's own Document store: its
    copy splits lines where LSP does not (form feed, U+2028...) and, clamping positions on
    the wrong line, rewrites the ranges of the change in place before our handler sees them."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (user_handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None


class GdefServer(LanguageServer):
    def _start_io_async(self, stdin=None, stdout=None):
        """pygls's stdio loop with our frame reader (gdef_lsp.framing): a malformed frame
        header must not leave the server alive but deaf."""
        import threading

        from pygls.io_ import StdinAsyncReader, StdoutWriter

        from gdef_lsp.framing import read_frames

        self._stop_event = threading.Event()
        reader = StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(read_frames(self._stop_event, reader, self.protocol, logging.getLogger("gdef_lsp")))
        except BrokenPipeError:
            logging.getLogger("gdef_lsp").error("the connection to the client is lost: stopping")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def __init__(self) -> None:
        super().__init__("gdef-lsp", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=GdefProtocol)
        self.session = Session()
        self.settings = Settings(None)
        self.pending: dict[str, asyncio.Task] = {}  # per file: diagnostics waiting for quiet
        self.uris: dict[str, str] = {}  # path -> the URI the client uses for it
        self.documents: dict[str, Document] = {}  # open documents by path
        self._indexes: dict[str, tuple[str, LineIndex]] = {}  # path -> (the text indexed, its index)
        self.roots: list[str] = []
        self.shut_down = False  # `exit` after `shutdown` ends with status 0, otherwise 1
        self.pull_diagnostics = False  # the client pulls them: none are pushed (pull_diagnostics.setup_diagnostics)
        self.simulations = simulation.Simulations()  # the "Simulate 200 games" lens's runs
        self.frozen_checks = 0  # checks since the collector last saw every object (see UNFREEZE_AFTER)

    # ------------------------------------------------------------ positions

    def path_of(self, uri: str) -> str:
        """The file a URI names; a URI that can name no file (`%00`) is refused (InvalidParams)."""
        path = to_fs_path(uri) or uri
        if "\0" in path:
            raise JsonRpcInvalidParams(message=f"the URI {uri[:200]!r} names no file: a file name cannot "
                                               "hold a NUL character (%00)")
        path = normalise(path)
        self.uris.setdefault(path, uri)
        return path

    def uri_of(self, path: str) -> str:
        path = normalise(path)
        return self.uris.get(path) or from_fs_path(path) or path

    def index(self, path: str) -> LineIndex:
        """The line index of a file's current text (kept while the text is the same object:
        a list of references converts many spans of the same file)."""
        text = self.session.source(path) or ""
        cached = self._indexes.get(path)
        if cached is None or cached[0] is not text:
            cached = self._indexes[path] = (text, LineIndex(text, self.workspace.position_codec))
        return cached[1]

    def location(self, span: Span) -> types.Location:
        return types.Location(self.uri_of(span.file), self.index(span.file).range(span))

    def at(self, params) -> tuple[str, str, int, int]:
        """(path, text, line, column in code points) of a text-document-position request."""
        path = self.path_of(params.text_document.uri)
        text = self.session.source(path) or ""
        line, column = LineIndex(text, self.workspace.position_codec).core_position(params.position)
        return path, text, line, column

    def docs_url(self, code: str) -> str | None:
        from gdef_core.ide.describe import docs_anchor

        return f"{self.settings.docs}#{docs_anchor(code)}" if self.settings.docs else None

    # ------------------------------------------------------------ diagnostics

    def schedule_diagnostics(self, path: str) -> None:
        """Publish `path`'s diagnostics (and those of the other open files of its games) once
        the edits pause (see DEFAULT_DELAY): a burst of changes is checked once."""
        old = self.pending.pop(path, None)
        if old is not None:
            old.cancel()
        self.pending[path] = asyncio.get_running_loop().create_task(self._publish_later(path))

    async def _publish_later(self, path: str) -> None:
        await asyncio.sleep(self.settings.delay)
        if self.pending.get(path) is asyncio.current_task():
            del self.pending[path]
        try:
            if self.pull_diagnostics:
                pull_diagnostics.refresh_diagnostics(self)
                return
            self.publish(path)
            for other in sorted(self.session.game_files(path) & set(self.session.open_paths()) - {path}):
                if other not in self.pending:
                    self.publish(other)
        except Exception:  # a bug must not end the diagnostics of this file for good
            log.exception("checking %s failed", path)
        finally:
            self.freeze_objects()

    def freeze_objects(self) -> None:
        """Keep what the check left alive out of the cyclic collector's walks (see UNFREEZE_AFTER)."""
        self.frozen_checks += 1
        if self.frozen_checks >= UNFREEZE_AFTER:
            self.frozen_checks = 0
            gc.unfreeze()
        else:
            gc.freeze()

    def publish(self, path: str) -> None:
        """Send the diagnostics of the current text of an open file, with its version (all
        synchronous: no edit can arrive between reading the text and sending the result).
        Documents are kept by path, so a URI with escapes (`%20`) needs no care here."""
        document = self.documents.get(path)
        if document is None:
            return
        index = self.index(path)
        found = [convert_diagnostic(d, index, self.location, self.docs_url) for d in self.session.diagnostics(path)]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(self.uri_of(path), found, version=document.version))

    def clear(self, path: str) -> None:
        task = self.pending.pop(path, None)
        if task is not None:
            task.cancel()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(self.uri_of(path), []))

    def refresh_open_files(self) -> None:
        for path in self.session.open_paths():
            self.schedule_diagnostics(path)


class Handlers:
    """The server's features and commands, collected as this module is read and added to a
    server by make_server(): importing the module builds no server (pygls's converter, made
    with each server, costs about as much as reading gdef's modules)."""

    def __init__(self) -> None:
        self.added: list[tuple[str, tuple, Callable]] = []

    def feature(self, *args) -> Callable:
        return self._adder("feature", args)

    def command(self, name: str) -> Callable:
        return self._adder("command", (name,))

    def _adder(self, kind: str, args: tuple) -> Callable:
        def add(function: Callable) -> Callable:
            self.added.append((kind, args, function))
            return function
        return add

    def register(self, server: GdefServer) -> None:
        for kind, args, function in self.added:
            getattr(server, kind)(*args)(function)


handlers = Handlers()


# ---------------------------------------------------------------- lifecycle and documents


@handlers.feature(types.INITIALIZE)
def initialize(ls: GdefServer, params: types.InitializeParams) -> None:
    ls.settings = Settings(params.initialization_options)
    pull_diagnostics.setup_diagnostics(ls, params)
    ls.simulations.configure(params.initialization_options)
    folders = params.workspace_folders or []
    roots = [to_fs_path(f.uri) for f in folders] or [params.root_path or to_fs_path(params.root_uri or "")]
    ls.roots = [normalise(r) for r in roots if r]


@handlers.feature(types.INITIALIZED)
async def initialized(ls: GdefServer, params: types.InitializedParams) -> None:
    """Ask the client to report changes of .gdef files on disk (a `git checkout`, another
    editor), when it lets servers ask: the games that read them are checked again."""
    workspace = ls.client_capabilities.workspace
    watched = workspace and workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern="**/*.gdef")])
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[types.Registration(
            id="gdef-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))
    except Exception as error:  # the client offered it but did not do it: changes on disk wait for a save
        log.info("the client does not watch .gdef files for us (%s)", error)


@handlers.feature(types.SHUTDOWN)
def shutdown(ls: GdefServer, params: None) -> None:
    ls.shut_down = True
    ls.simulations.stop_all()
    for task in ls.pending.values():
        task.cancel()
    ls.pending.clear()


@handlers.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GdefServer, params: types.DidOpenTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    ls.uris[path] = params.text_document.uri
    ls.documents[path] = Document(params.text_document.text, params.text_document.version)
    ls.session.set_buffer(path, params.text_document.text)
    tell_if_too_large(ls, path, None)
    ls.schedule_diagnostics(path)


@handlers.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GdefServer, params: types.DidChangeTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    document = ls.documents.get(path)
    if document is None:
        log.warning("change of %s, which is not open: ignored", params.text_document.uri)
        return
    for change in params.content_changes:
        document.text = apply_change(document.text, change, ls.workspace.position_codec)
    document.version = params.text_document.version
    was_too_large = ls.session.too_large(path)
    ls.session.set_buffer(path, document.text)
    ls.simulations.edited(ls, path)
    tell_if_too_large(ls, path, was_too_large)
    ls.schedule_diagnostics(path)


@handlers.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GdefServer, params: types.DidCloseTextDocumentParams) -> None:
    path = ls.path_of(params.text_document.uri)
    ls.documents.pop(path, None)
    ls.session.close_buffer(path)
    ls.clear(path)
    ls.refresh_open_files()  # they may have read the closed buffer's unsaved text


@handlers.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: GdefServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.session.disk_changed()
    ls.refresh_open_files()


@handlers.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: GdefServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.session.disk_changed()
    ls.refresh_open_files()


# ---------------------------------------------------------------- language features


@handlers.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=["[", '"', "/", ":", "("]))
def complete(ls: GdefServer, params: types.CompletionParams) -> types.CompletionList:
    from gdef_core.ide import completion

    path, text, line, column = ls.at(params)
    candidates = completion.complete(ls.session.recent_analyses(path), text, path, line, column)
    snippets = _client_takes_snippets(ls)
    index = LineIndex(text, ls.workspace.position_codec)
    items = [_completion_item(c, snippets, index) for c in candidates]
    return types.CompletionList(is_incomplete=False, items=items)


def _client_takes_snippets(ls: GdefServer) -> bool:
    document = ls.client_capabilities.text_document
    item = document and document.completion and document.completion.completion_item
    return bool(item and item.snippet_support)


def _completion_item(candidate, snippets: bool, index: LineIndex) -> types.CompletionItem:
    """An LSP item of a gdef_core.ide.completion.Candidate."""
    use_snippet = snippets and candidate.snippet is not None
    text = candidate.snippet if use_snippet else (candidate.insert_text or candidate.label)
    edit = None
    if candidate.replace is not None:
        edit = types.TextEdit(index.range(candidate.replace), text)
    return types.CompletionItem(
        label=candidate.label,
        kind=_completion_kinds()[candidate.kind],
        detail=candidate.detail,
        documentation=types.MarkupContent(types.MarkupKind.Markdown, candidate.documentation)
        if candidate.documentation else None,
        sort_text=f"{candidate.sort_group}{candidate.label}",
        insert_text=None if edit else text,
        text_edit=edit,
        insert_text_format=types.InsertTextFormat.Snippet if use_snippet else types.InsertTextFormat.PlainText,
    )


@handlers.feature(types.TEXT_DOCUMENT_HOVER)
def on_hover(ls: GdefServer, params: types.HoverParams) -> types.Hover | None:
    from gdef_core.ide import hover

    path, text, line, column = ls.at(params)
    found = hover.hover(ls.session.analyses(path), path, line, column)
    if found is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, found.markdown),
                       LineIndex(text, ls.workspace.position_codec).range(found.span))


@handlers.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP,
                types.SignatureHelpOptions(trigger_characters=["(", ",", "["], retrigger_characters=[")", "]"]))
def signature_help(ls: GdefServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
    from gdef_core.ide import signature

    path, text, line, column = ls.at(params)
    found = signature.signature_help(ls.session.recent_analyses(path), text, line, column)
    if found is None:
        return None
    offsets, start = [], 0
    for parameter in found.parameters:
        begin = found.label.find(parameter, start)
        offsets.append((begin, begin + len(parameter)))
        start = begin + len(parameter)
    information = types.SignatureInformation(
        label=found.label,
        documentation=types.MarkupContent(types.MarkupKind.Markdown, found.documentation)
        if found.documentation else None,
        parameters=[types.ParameterInformation(label=o) for o in offsets],
    )
    return types.SignatureHelp([information], active_signature=0,
                               active_parameter=found.active_parameter if found.parameters else None)


@handlers.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: GdefServer, params: types.DefinitionParams) -> list[types.Location]:
    from gdef_core.ide import navigation

    path, _, line, column = ls.at(params)
    return [ls.location(span) for span in navigation.definitions(ls.session.analyses(path), path, line, column)]


@handlers.feature(types.TEXT_DOCUMENT_REFERENCES)
async def references(ls: GdefServer, params: types.ReferenceParams) -> list[types.Location]:
    from gdef_core.ide import navigation

    await asyncio.sleep(0)  # a point where a cancelled request stops
    path, _, line, column = ls.at(params)
    found = navigation.references(ls.session.analyses, path, line, column,
                                  include_declaration=params.context.include_declaration)
    return [ls.location(r.span) for r in found]


@handlers.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def document_highlight(ls: GdefServer, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight]:
    from gdef_core.ide import navigation

    path, text, line, column = ls.at(params)
    index = LineIndex(text, ls.workspace.position_codec)
    return [types.DocumentHighlight(index.range(r.span), types.DocumentHighlightKind.Write if r.is_write
                                    else types.DocumentHighlightKind.Read)
            for r in navigation.highlights(ls.session.analyses(path), path, line, column)]


@handlers.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: GdefServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder:
    from gdef_core.ide import rename

    path, text, line, column = ls.at(params)
    found = rename.prepare_rename(ls.session.analyses(path), text, path, line, column)
    if isinstance(found, rename.Refusal):
        raise refuse(found.reason)
    return types.PrepareRenamePlaceholder(LineIndex(text, ls.workspace.position_codec).range(found.span), found.name)


@handlers.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
def do_rename(ls: GdefServer, params: types.RenameParams) -> types.WorkspaceEdit:
    from gdef_core.ide import rename

    path, text, line, column = ls.at(params)
    found = rename.rename(ls.session.analyses, text, path, line, column, params.new_name)
    if isinstance(found, rename.Refusal):
        raise refuse(found.reason)
    return _workspace_edit(ls, found)


def _workspace_edit(ls: GdefServer, edits) -> types.WorkspaceEdit:
    changes: dict[str, list[types.TextEdit]] = {}
    for edit in edits:
        changes.setdefault(ls.uri_of(edit.span.file), []).append(
            types.TextEdit(ls.index(edit.span.file).range(edit.span), edit.new_text))
    return types.WorkspaceEdit(changes=changes)


@handlers.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: GdefServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    from gdef_core.ide import outline

    path = ls.path_of(params.text_document.uri)
    module = ls.session.parse_cache.module(path, ls.session.source(path) or "")
    index = ls.index(path)
    return [_document_symbol(entry, index) for entry in outline.document_outline(module)]


def _document_symbol(entry, index: LineIndex) -> types.DocumentSymbol:
    """An LSP symbol of a gdef_core.ide.outline.OutlineItem, with its children."""
    return types.DocumentSymbol(
        name=entry.name, kind=_symbol_kinds()[entry.kind], detail=entry.detail,
        range=index.range(entry.span), selection_range=index.range(entry.selection),
        children=[_document_symbol(child, index) for child in entry.children] or None)


@handlers.feature(types.WORKSPACE_SYMBOL)
async def workspace_symbol(ls: GdefServer, params: types.WorkspaceSymbolParams) -> list[types.SymbolInformation]:
    from gdef_core.ide import outline

    paths = list(dict.fromkeys([*discover(ls.roots).files, *ls.session.open_paths()]))

    def module_of(path: str):
        text = ls.session.source(path)
        return None if text is None else ls.session.parse_cache.module(normalise(path), text)

    found = []
    for path in paths:  # one file at a time: a cancelled search stops between files
        await asyncio.sleep(0)
        found += outline.workspace_symbols(params.query, [path], module_of)
    return [types.SymbolInformation(name=e.name, kind=_symbol_kinds()[e.kind], location=ls.location(e.selection),
                                    container_name=os.path.basename(e.span.file)) for e in found[:500]]


@handlers.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
def semantic_tokens(ls: GdefServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
    from gdef_core.ide import highlight

    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    analyses = ls.session.analyses(path)
    found = highlight.semantic_tokens(analyses[0] if analyses else None, text, path)
    index = LineIndex(text, ls.workspace.position_codec)
    types_, modifiers = TOKEN_TYPES, TOKEN_MODIFIERS
    data: list[int] = []
    last_line = last_start = 0
    for token in found:
        start = index.position(token.line, token.column)
        end = index.position(token.line, token.column + token.length)
        delta_line = start.line - last_line
        data += [delta_line, start.character - (last_start if delta_line == 0 else 0), end.character - start.character,
                 types_.index(token.type), sum(1 << modifiers.index(m) for m in token.modifiers)]
        last_line, last_start = start.line, start.character
    return types.SemanticTokens(data=data)


@handlers.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
def folding_range(ls: GdefServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    from gdef_core.ide import folding

    path = ls.path_of(params.text_document.uri)
    kinds = {"comment": types.FoldingRangeKind.Comment, "region": types.FoldingRangeKind.Region}
    return [types.FoldingRange(start_line=f.start_line, end_line=f.end_line, kind=kinds[f.kind])
            for f in folding.folding_ranges(ls.session.source(path) or "")]


@handlers.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: GdefServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from gdef_core.ide import fixes

    path = ls.path_of(params.text_document.uri)
    text = ls.session.source(path) or ""
    index = LineIndex(text, ls.workspace.position_codec)
    wanted = {(d.range.start.line, d.range.start.character, d.code) for d in params.context.diagnostics}
    selected: list[Diagnostic] = []
    for diag in ls.session.diagnostics(path):
        start = index.range(diag.span).start
        if (start.line, start.character, diag.code) in wanted or _overlaps(index.range(diag.span), params.range):
            selected.append(diag)
    analysis = ls.session.analysis(path)
    return [types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                             diagnostics=[convert_diagnostic(fix.diagnostic, index, ls.location, ls.docs_url)],
                             is_preferred=fix.preferred or None, edit=_workspace_edit(ls, fix.edits))
            for fix in fixes.fixes(analysis, text, path, selected)]


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


@handlers.feature(types.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: GdefServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    path = ls.path_of(params.text_document.uri)
    module = ls.session.parse_cache.module(path, ls.session.source(path) or "")
    header = next((item for item in module.items if isinstance(item, ast.GameParam)), None)
    simulate = ls.simulations.lenses(ls, path)
    if header is None:
        return simulate
    where = ls.index(path).range(header.span)
    return [types.CodeLens(where, types.Command(title="▶ Run game", command=RUN_COMMAND,
                                                arguments=[params.text_document.uri])),
            types.CodeLens(where, types.Command(title="▶ Debug game", command=DEBUG_COMMAND,
                                                arguments=[params.text_document.uri]))] + simulate


@handlers.command(RUN_COMMAND)
def run_game(ls: GdefServer, uri: str) -> list[str]:
    """The argv that runs the game of `uri` (the client starts it in a terminal)."""
    if not isinstance(uri, str):
        raise refuse("gdef.runGame takes one argument: the URI of a .gdef file")
    from gdef_core.ide import rename, run

    path = ls.path_of(uri)
    found = run.run_argv(ls.session.analyses(path), path)
    if isinstance(found, rename.Refusal):
        raise refuse(found.reason)
    return found


@handlers.command(DEBUG_COMMAND)
def debug_game(ls: GdefServer, uri: str) -> dict:
    """The launch configuration that debugs the game of `uri` (the client starts the session)."""
    if not isinstance(uri, str):
        raise refuse("gdef.debugGame takes one argument: the URI of a .gdef file")
    from gdef_core.ide import rename, run

    path = ls.path_of(uri)
    found = run.debug_configuration(ls.session.analyses(path), path)
    if isinstance(found, rename.Refusal):
        raise refuse(found.reason)
    return found


def make_server(log_level: int = logging.INFO) -> GdefServer:
    """The server, every feature registered, with logging sent to the client (never to stdout)."""
    server = GdefServer()
    handlers.register(server)
    code_structure.register(server)
    simulation.register(server)
    formatting.register(server)  # textDocument/formatting and rangeFormatting: gdef_lsp/formatting.py
    handler = ClientLogHandler(server)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(log_level)
    if log_level > logging.DEBUG:
        logging.getLogger("pygls").setLevel(logging.WARNING)
    rule_tests.install(server)  # last: it routes the requests about *.test.moves files of every feature
    return server
