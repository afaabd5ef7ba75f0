"""Shared by the end-to-end language server tests (tests/test_lsp_*.py): a pytest-lsp client
started against `python -m gdef_lsp` over stdio, once per test module and per client
capability profile (VS Code and Neovim, as pytest-lsp bundles them)."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from support import ROOT

DATA = ROOT / "tests" / "data" / "lsp"
PROFILES = ["visual_studio_code", "neovim"]


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics in order (with versions),
    accepting the server's dynamic registrations (as editors do) and counting code lens
    refreshes."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []
    client.sent_at = {}  # uri -> len(published) when the last change of it was sent

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)

    def register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    def refresh_code_lenses(client: LanguageClient, params: None) -> None:
        client.code_lens_refreshes += 1

    client.registrations = []
    client.code_lens_refreshes = 0
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
                                   types.CLIENT_REGISTER_CAPABILITY: register_capability,
                                   types.WORKSPACE_CODE_LENS_REFRESH: refresh_code_lenses})
    return client


CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "gdef_lsp"], client_factory=make_client)


def lsp_fixture(initialization_options=None, profiles=PROFILES):
    """A module-scoped client fixture, parametrised over the client profiles."""

    @pytest_lsp.fixture(params=profiles, config=CONFIG, scope="module")
    async def client(request, lsp_client: LanguageClient):
        result = await lsp_client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities(request.param),
            root_uri=from_fs_path(str(DATA)),
            initialization_options=initialization_options,
        ))
        # Neovim offers UTF-8 first and pygls takes it; VS Code speaks UTF-16.
        lsp_client.server_capabilities = result.capabilities
        lsp_client.encoding = str(result.capabilities.position_encoding or "utf-16").replace("-", "")
        yield
        await lsp_client.shutdown_session()

    return client


def uri(path: Path | str) -> str:
    return from_fs_path(os.path.abspath(path))


def open_document(client: LanguageClient, path: Path | str, text: str | None = None, version: int = 1) -> str:
    """didOpen with the file's text (or `text`); returns the URI."""
    text = Path(path).read_text(encoding="utf-8") if text is None else text
    target = uri(path)
    client.sent_at[target] = len(client.published)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=target, language_id="gdef", version=version, text=text)))
    return target


def close_document(client: LanguageClient, target: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=target)))


def change_document(client: LanguageClient, target: str, version: int, text: str,
                    start: tuple[int, int] | None = None, end: tuple[int, int] | None = None) -> None:
    """didChange: an incremental edit replacing start..end (UTF-16 positions) by `text`,
    or the whole document when no range is given."""
    if start is None:
        change = types.TextDocumentContentChangeWholeDocument(text)
    else:
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(*start), end=types.Position(*(end or start))), text=text)
    client.sent_at[target] = len(client.published)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=target, version=version), [change]))


async def diagnostics(client: LanguageClient, target: str, version: int | None = None,
                      timeout: float = 10.0) -> list[types.Diagnostic]:
    """The latest diagnostics published for `target` (at `version`, if given) since it was
    last opened or changed; waits for them."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for params in reversed(client.published[client.sent_at.get(target, 0):]):
            if params.uri == target and (version is None or params.version == version):
                return list(params.diagnostics)
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"no diagnostics for {target} version {version} within {timeout} s")
        await asyncio.sleep(0.002)


def position(client: LanguageClient, text: str, marker: str, offset: int = 0) -> types.Position:
    """The LSP position of the first `marker` in `text` (plus `offset` characters), in the
    units the client and server agreed on."""
    index = text.index(marker) + offset
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    return types.Position(line, units(client, text[index - column:index]))


def units(client: LanguageClient, text: str) -> int:
    """The length of `text` in the negotiated position units."""
    encoding = getattr(client, "encoding", "utf16")
    if encoding == "utf32":
        return len(text)
    size = 1 if encoding == "utf8" else 2
    return len(text.encode("utf-8" if size == 1 else "utf-16-le")) // size
