"""End to end over stdio: a failing handler costs one request, cancellation, shutdown and
exit, the command line (--version, --tcp)."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from lsp_support import DATA, PROFILES, close_document, make_client, open_document, position, uri

in_module_loop = pytest.mark.asyncio(loop_scope="module")

# The real server, with hover made to fail, and a workspace symbol search made long: the
# workspace seems to hold 200 more (missing) files, and each file takes 5 ms (a cancel is
# read between two files).
SABOTAGED = """
import time
import gdef_core.ide.hover as hover
import gdef_core.ide.outline as outline
import gdef_lsp.server as server
from gdef_lsp.__main__ import main

def broken_hover(*args, **kwargs):
    raise RuntimeError("hover exploded on purpose")

search, discover = outline.workspace_symbols, server.discover
def slow_search(*args, **kwargs):
    time.sleep(0.005)
    return search(*args, **kwargs)

def crowded(roots):
    found = discover(roots)
    found.files += [f"{roots[0]}/missing{k}.gdef" for k in range(200)]
    return found

hover.hover = broken_hover
outline.workspace_symbols = slow_search
server.discover = crowded
main([])
"""


@pytest_lsp.fixture(params=PROFILES, scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-c", SABOTAGED], client_factory=make_client))
async def client(request, lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(request.param), root_uri=uri(DATA)))
    yield
    await lsp_client.shutdown_session()


GAME = DATA / "game" / "connect.gdef"
TEXT = GAME.read_text(encoding="utf-8")


@in_module_loop
async def test_a_failing_handler_fails_only_its_request(client):
    target = open_document(client, GAME)
    at = position(client, TEXT, "pieceOf(onTurn())")
    with pytest.raises(JsonRpcException, match="hover exploded on purpose"):
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=target), position=at))
    logged = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert any("hover exploded on purpose" in m and "Traceback" in m for m in logged)
    # The server goes on serving.
    (found,) = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=target), position=at))
    assert found.range.start.line == 11
    close_document(client, target)


@in_module_loop
async def test_cancelled_request_is_answered_as_cancelled(client):
    pending = asyncio.ensure_future(client.protocol.send_request_async(
        types.WORKSPACE_SYMBOL, types.WorkspaceSymbolParams(query="line"), msg_id="slow-search"))
    await asyncio.sleep(0.1)  # the search is running
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="slow-search"))
    with pytest.raises(JsonRpcException) as error:
        await pending
    assert error.value.code == types.LSPErrorCodes.RequestCancelled
    # Not cancelled: the same search completes.
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="linefr"))
    assert [s.name for s in found] == ["lineFrom"]


# ---------------------------------------------------------------- process level


@in_module_loop
async def test_shutdown_then_exit_ends_the_process_with_status_0():
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "gdef_lsp"]).start()
    await client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
    assert await client.shutdown_async(None) is None
    client.exit(None)
    assert await asyncio.wait_for(client._server.wait(), 10) == 0
    await client.stop()


@in_module_loop
async def test_exit_without_shutdown_ends_the_process_with_status_1():
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "gdef_lsp"]).start()
    await client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
    client.exit(None)
    assert await asyncio.wait_for(client._server.wait(), 10) == 1
    await client.stop()


def test_version():
    for command in ([sys.executable, "-m", "gdef_lsp"], [os.path.join(os.path.dirname(sys.executable), "gdef-lsp")]):
        done = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0
        assert done.stdout.startswith("gdef-lsp ") and done.stdout.split()[1][0].isdigit()


def test_bad_tcp_address_is_a_clear_error():
    done = subprocess.run([sys.executable, "-m", "gdef_lsp", "--tcp", "localhost"], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 2
    assert "expected HOST:PORT" in done.stderr and "Traceback" not in done.stderr


def test_tcp_serves_lsp():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "gdef_lsp", "--tcp", f"127.0.0.1:{port}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        connection = _connect(port)
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        connection.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        reply = _read_message(connection)
        assert reply["id"] == 1
        assert reply["result"]["serverInfo"]["name"] == "gdef-lsp"
        assert reply["result"]["capabilities"]["completionProvider"]["triggerCharacters"]
        connection.close()
    finally:
        server.kill()
        server.wait(10)
    assert server.stdout.read() == b""  # nothing but the socket carries protocol


def _connect(port: int) -> socket.socket:
    deadline = time.monotonic() + 20
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _read_message(connection: socket.socket) -> dict:
    data = b""
    while True:  # notifications (window/logMessage) may come first
        while b"\r\n\r\n" not in data:
            data += connection.recv(65536)
        header, data = data.split(b"\r\n\r\n", 1)
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        while len(data) < length:
            data += connection.recv(65536)
        message, data = json.loads(data[:length]), data[length:]
        if "id" in message:
            return message
