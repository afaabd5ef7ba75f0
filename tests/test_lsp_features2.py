"""End to end over stdio: inlay hints, call hierarchy, selection ranges, document links and
pull diagnostics, on the game of tests/data/lsp/game (two games sharing a library)."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_support import DATA, close_document, lsp_fixture, open_document, position

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()

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
