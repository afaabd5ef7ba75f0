"""textDocument/formatting and rangeFormatting, end to end over stdio (VS Code and Neovim
client profiles): the edits the server sends, applied as an editor applies them."""
from __future__ import annotations

import re

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from gdef_core.format import FormatOptions, format_source
from lsp_support import lsp_fixture, open_document, units

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()

MESSY = ("name: t\nplayers: 2\nsize: 3 x 3\nobj   X\n"
         "define end() -> bool {\nif (moveNumber()==9) {return true;}\n  return false;\n}\n"
         "define isMoveLegal() -> bool { return true; }   // é 😀 kept\n"
         "define g() {\n        int x=1;\n}  // 😀 no newline at the end")
OPTIONS = types.FormattingOptions(tab_size=8, insert_spaces=False)  # the editor's, ignored


def apply(client, text: str, edits: list[types.TextEdit]) -> str:
    """`text` with the edits applied, positions read in the negotiated units."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def offset(position: types.Position) -> int:
        if position.line >= len(starts):
            return len(text)
        start = starts[position.line]
        end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
        for index in range(start, end + 1):
            if units(client, text[start:index]) >= position.character:
                return index
        return end

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


async def format_request(client, target: str) -> list[types.TextEdit]:
    return await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=target), options=OPTIONS))


async def test_the_server_offers_formatting(client):
    assert client.server_capabilities.document_formatting_provider
    assert client.server_capabilities.document_range_formatting_provider


async def test_formatting_rewrites_a_messy_file_to_the_canonical_text(client, tmp_path):
    path = tmp_path / "messy.gdef"
    target = open_document(client, path, MESSY)
    edits = await format_request(client, target)
    expected = format_source(MESSY)
    assert apply(client, MESSY, edits) == expected
    assert expected.endswith("}  // 😀 no newline at the end\n") and "    int x" not in expected
    assert 1 < len(edits) < len(expected.splitlines())  # line edits, not one replacement of everything
    open_document(client, path, expected, version=2)
    assert not await format_request(client, target)


async def test_range_formatting_touches_only_the_lines_asked_for(client, tmp_path):
    target = open_document(client, tmp_path / "range.gdef", MESSY)
    edits = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=target),
        range=types.Range(types.Position(5, 2), types.Position(5, 9)), options=OPTIONS))
    assert apply(client, MESSY, edits) == MESSY.replace("if (moveNumber()==9) {return true;}",
                                                        "  if (moveNumber() == 9) { return true; }")


async def test_the_project_indent_width_wins_over_the_editor(client, tmp_path):
    (tmp_path / "gdef.toml").write_text("[format]\nindent-width = 4\n")
    target = open_document(client, tmp_path / "wide.gdef", MESSY)
    edits = await format_request(client, target)
    assert apply(client, MESSY, edits) == format_source(MESSY, options=FormatOptions(indent_width=4))


async def test_a_document_with_syntax_errors_is_refused(client, tmp_path):
    target = open_document(client, tmp_path / "broken.gdef", "define f() {\n  int x = ;\n}\n")
    with pytest.raises(JsonRpcException) as refused:
        await format_request(client, target)
    assert "1 syntax error (the first at line 2, column 11" in str(refused.value)
