"""End to end over stdio: inlay hints, call hierarchy, selection ranges, document links and
pull diagnostics, on the game of tests/data/lsp/game (two games sharing a library)."""
from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import LanguageClient, client_capabilities

from lsp_support import (CONFIG, DATA, change_document, close_document, diagnostics, lsp_fixture, open_document,
                         position, uri)

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()


async def initialize_puller(lsp_client: LanguageClient, options=None) -> None:
    """Neovim 0.11's capabilities (it pulls diagnostics) plus `workspace/diagnostic/refresh`,
    as VS Code and Neovim 0.12 offer it."""
    capabilities = client_capabilities("neovim")
    capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=capabilities, root_uri=from_fs_path(str(DATA)), initialization_options=options))
    lsp_client.server_capabilities = result.capabilities
    lsp_client.encoding = str(result.capabilities.position_encoding or "utf-16").replace("-", "")


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def puller(lsp_client: LanguageClient):
    await initialize_puller(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def forced_push(lsp_client: LanguageClient):
    await initialize_puller(lsp_client, {"diagnosticMode": "push"})
    yield
    await lsp_client.shutdown_session()

GAME = DATA / "game" / "connect.gdef"
LIBRARY = DATA / "game" / "lines.gdef"
OTHER_GAME = DATA / "game" / "stack.gdef"
GAME_TEXT = GAME.read_text(encoding="utf-8")
LIBRARY_TEXT = LIBRARY.read_text(encoding="utf-8")


def doc(target: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=target)


def whole(text: str) -> types.Range:
    return types.Range(types.Position(0, 0), types.Position(text.count("\n") + 1, 0))


async def test_inlay_hints_name_literal_arguments(client):
    target = open_document(client, LIBRARY)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(doc(target), whole(LIBRARY_TEXT)))
    found = [(h.position, h.label) for h in hints]
    call = "lineFrom(x, y, 1, -1, piece)"
    assert (position(client, LIBRARY_TEXT, call, len("lineFrom(x, y, ")), "dx:") in found
    assert (position(client, LIBRARY_TEXT, call, len("lineFrom(x, y, 1, ")), "dy:") in found
    assert len(found) == 8  # two literals in each of the four lineFrom calls; names get none
    assert {h.kind for h in hints} == {types.InlayHintKind.Parameter}
    close_document(client, target)


async def test_inlay_hints_of_builtins_after_a_non_ascii_line(client):
    target = open_document(client, GAME)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(doc(target), whole(GAME_TEXT)))
    assert [(h.position, h.label) for h in hints] == [
        (position(client, GAME_TEXT, "isPlaceOperation(0)", len("isPlaceOperation(")), "i:")]
    close_document(client, target)


async def test_call_hierarchy_across_used_files_and_games(client):
    game = open_document(client, GAME)
    library = open_document(client, LIBRARY)
    (item,) = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        doc(game), position(client, GAME_TEXT, "hasLine(pieceOf")))
    assert (item.name, item.detail, item.uri) == ("hasLine", "hasLine(obj piece) -> bool", library)
    assert item.selection_range.start == position(client, LIBRARY_TEXT, "hasLine(obj")
    callers = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item))
    assert [(c.from_.name, c.from_.uri) for c in callers] == [("end", game), ("end", uri(OTHER_GAME))]
    assert list(callers[0].from_ranges) == [types.Range(position(client, GAME_TEXT, "hasLine(pieceOf"),
                                                  position(client, GAME_TEXT, "(pieceOf(onTurn()))"))]
    callees = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item))
    assert [(c.to.name, len(c.from_ranges)) for c in callees] == [("lineFrom", 4)]  # built-ins left out
    (end,) = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        doc(game), position(client, GAME_TEXT, "end()")))
    callees = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(end))
    assert [(c.to.name, c.to.uri) for c in callees] == [("pieceOf", game), ("hasLine", library)]
    assert not await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        doc(game), position(client, GAME_TEXT, "drops = drops")))
    close_document(client, game)
    close_document(client, library)


async def test_selection_ranges_grow_from_the_word_to_the_file(client):
    target = open_document(client, GAME)
    at = [position(client, GAME_TEXT, "Red; }"), position(client, GAME_TEXT, "drops = 0")]
    first, second = await client.text_document_selection_range_async(types.SelectionRangeParams(doc(target), at))
    chain = []
    while first is not None:
        chain.append(first.range)
        first = first.parent
    lines = GAME_TEXT.split("\n")

    def text_of(r: types.Range) -> str:
        assert r.start.line == r.end.line
        return lines[r.start.line].encode("utf-16-le")[2 * r.start.character:2 * r.end.character].decode("utf-16-le") \
            if client.encoding == "utf16" else lines[r.start.line].encode()[r.start.character:r.end.character].decode()

    assert [text_of(r) for r in chain[:3]] == ["Red", "return Red;", "{ return Red; }"]
    assert chain[-2].start == position(client, GAME_TEXT, "define pieceOf")
    assert chain[-1].start == types.Position(0, 0) and chain[-1].end.line == GAME_TEXT.count("\n")
    assert text_of(second.range) == "drops" and text_of(second.parent.range) == "int drops = 0;"
    close_document(client, target)


async def test_document_links_for_use_paths(client, tmp_path):
    target = open_document(client, GAME)
    (link,) = await client.text_document_document_link_async(types.DocumentLinkParams(doc(target)))
    assert link.target == uri(LIBRARY)
    assert link.range == types.Range(position(client, GAME_TEXT, "lines.gdef"),
                                     position(client, GAME_TEXT, 'lines.gdef"', len("lines.gdef")))
    close_document(client, target)
    text = 'use "gone.gdef"\nuse "here.gdef"\ndefine f() {}\n'
    (tmp_path / "here.gdef").write_text("define g() {}\n", encoding="utf-8")
    broken = open_document(client, tmp_path / "lib.gdef", text)
    links = await client.text_document_document_link_async(types.DocumentLinkParams(doc(broken)))
    assert [(link.target, link.range.start.line) for link in links] == [(uri(tmp_path / "here.gdef"), 1)]
    close_document(client, broken)


async def pull(client, target, previous=None):
    return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        doc(target), identifier="gdef", previous_result_id=previous))


async def refreshed(client, count: int) -> None:
    """Waits until the server has asked the client to pull again `count` times."""
    for _ in range(5000):
        if client.diagnostic_refresh_count >= count:
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"no workspace/diagnostic/refresh number {count}")


async def test_a_client_that_pulls_diagnostics_gets_reports_and_none_pushed(puller):
    provider = puller.server_capabilities.diagnostic_provider
    assert (provider.identifier, provider.inter_file_dependencies, provider.workspace_diagnostics) == \
        ("gdef", True, False)
    text = GAME_TEXT.replace("return Yellow;", "return Blue;")
    game = open_document(puller, GAME, text)
    library = open_document(puller, LIBRARY)
    report = await pull(puller, game)
    assert report.kind == "full" and [(d.code, d.range.start) for d in report.items] == [
        ("G201", position(puller, text, "Blue"))]
    assert (await pull(puller, game, report.result_id)).kind == "unchanged"

    # Renaming the library's function breaks the game: the server asks for a new pull.
    before = puller.diagnostic_refresh_count
    start, end = position(puller, LIBRARY_TEXT, "hasLine(obj"), position(puller, LIBRARY_TEXT, "(obj piece) -> bool {")
    change_document(puller, library, 2, "hasLines", (start.line, start.character), (end.line, end.character))
    await refreshed(puller, before + 1)
    again = await pull(puller, game, report.result_id)
    assert [d.code for d in again.items] == ["G201", "G202"]  # Blue, and hasLine() now undefined
    assert again.result_id != report.result_id
    assert not [p for p in puller.published if p.diagnostics]  # nothing was pushed
    close_document(puller, game)
    close_document(puller, library)


async def test_other_clients_are_not_offered_pull_and_get_diagnostics_pushed(client):
    """VS Code 1.65 does not pull; Neovim 0.11 pulls but cannot be asked to pull again."""
    assert client.server_capabilities.diagnostic_provider is None
    text = GAME_TEXT.replace("return Yellow;", "return Blue;")
    game = open_document(client, GAME, text)
    assert [d.code for d in await diagnostics(client, game)] == ["G201"]
    close_document(client, game)


async def test_diagnostic_mode_push_pushes_to_a_client_that_pulls(forced_push):
    assert forced_push.server_capabilities.diagnostic_provider is None
    game = open_document(forced_push, GAME, GAME_TEXT.replace("return Yellow;", "return Blue;"))
    assert [d.code for d in await diagnostics(forced_push, game)] == ["G201"]
    close_document(forced_push, game)
