"""End to end over stdio: what the language server answers to hostile input (deep nesting,
invalid positions and URIs, binary text)."""
from __future__ import annotations

import asyncio
import itertools
import json

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lsp_support import DATA, close_document, diagnostics, lsp_fixture, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")
_ids = itertools.count()
client = lsp_fixture(profiles=["visual_studio_code"])


def nested(depth: int) -> str:
    body = "if (true) {\n" * depth + "x = 1;\n" + "}\n" * depth
    return ("players: 2\nsize: 3 x 3\nint x = 0;\n"
            f"define isMoveLegal() -> bool {{\n{body}return true;\n}}\n")


async def raw_request(client, method: str, params, timeout: float = 20.0):
    """Send a request whose params are raw JSON (the client's own types would refuse invalid
    ones) and wait for its response: the result, or a JsonRpcException."""
    protocol = client.protocol
    msg_id = f"raw-{next(_ids)}"
    future = asyncio.get_running_loop().create_future()
    protocol._request_futures[msg_id] = future
    protocol._result_types[msg_id] = protocol.get_result_type(method)
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode()
    protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return await asyncio.wait_for(future, timeout)


def doc(target: str) -> dict:
    return {"textDocument": {"uri": target}}


async def test_a_file_nested_200_deep_gets_the_checker_s_answer_and_every_request_an_answer(client):
    target = open_document(client, DATA / "game" / "deep.gdef", nested(200))
    found = await diagnostics(client, target)
    # The same code and place as gdef-check and gdef-run: the 65th `if`.
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found if d.code == "G110"] == \
        [("G110", 68, 0)]
    at = {"line": 203, "character": 0}
    await raw_request(client, types.TEXT_DOCUMENT_HOVER, {**doc(target), "position": at})
    symbols = await raw_request(client, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, doc(target))
    assert "isMoveLegal" in [s.name for s in symbols]
    tokens = await raw_request(client, types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, doc(target))
    assert len(tokens.data) > 0
    (chain,) = await raw_request(client, types.TEXT_DOCUMENT_SELECTION_RANGE, {**doc(target), "positions": [at]})
    assert chain.range.start.line == 203
    close_document(client, target)


@pytest.mark.parametrize("line", [-1, 2**31, "a"])
async def test_a_request_with_an_invalid_position_gets_an_error_response(client, line):
    target = open_document(client, DATA / "game" / "positions.gdef", nested(1))
    with pytest.raises(JsonRpcException) as refused:
        await raw_request(client, types.TEXT_DOCUMENT_HOVER, {**doc(target), "position": {"line": line, "character": 0}})
    assert refused.value.code == -32602  # Invalid params
    # The server goes on answering.
    await raw_request(client, types.TEXT_DOCUMENT_HOVER, {**doc(target), "position": {"line": 0, "character": 0}})
    close_document(client, target)


async def test_a_uri_holding_a_nul_byte_gets_an_invalid_params_error(client):
    with pytest.raises(JsonRpcException) as refused:
        await raw_request(client, types.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": "file:///tmp/a%00b.gdef"},
                                                              "position": {"line": 0, "character": 0}})
    assert refused.value.code == -32602
    assert "NUL" in refused.value.message


async def test_a_binary_buffer_gets_one_located_error(client):
    target = open_document(client, DATA / "game" / "binary.gdef", "players: 2\nsize: \x00\x01\x02")
    found = await diagnostics(client, target)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == [("G108", 1, 6)]
    assert "not a text file: binary data at byte 18" in found[0].message
    close_document(client, target)


async def test_syntax_errors_stop_at_the_limit_in_the_editor_too(client):
    text = "".join(f"define f{k}( -> {{ }}\n" for k in range(30))
    target = open_document(client, DATA / "game" / "prose.gdef", text)
    found = await diagnostics(client, target)
    assert len(found) == 21 and found[-1].code == "G109"
    assert "more syntax errors in this file, not shown" in found[-1].message
    close_document(client, target)
