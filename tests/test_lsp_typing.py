"""End to end over stdio: type each example into an empty document one character at a time,
asking for diagnostics, completion and hover as it grows; no request may fail and the
server may log no error.

Every character is sent as its own incremental change. The questions are asked after every
character for files under 300 characters (tests/data/lsp/typing/tiny.gdef), and at CHECKPOINTS evenly spaced points of larger
ones (each question costs a round trip; a stride of several characters still lands on every
kind of position over a file). An ASCII file has the same positions in every encoding, so
it is typed with the VS Code profile only; files with other characters are typed with both
profiles (Neovim negotiates UTF-8 positions, VS Code UTF-16).
"""
from __future__ import annotations

import glob
from pathlib import Path

import pytest
from lsprotocol import types

from lsp_support import DATA, change_document, close_document, diagnostics, lsp_fixture, open_document, units
from support import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()

SMALL = sorted(glob.glob(str(DATA / "**" / "*.gdef"), recursive=True))
EXAMPLES = sorted(glob.glob(str(ROOT / "examples" / "**" / "*.gdef"), recursive=True))
CHECKPOINTS = 40


@pytest.mark.parametrize("path", SMALL + EXAMPLES, ids=lambda p: str(Path(p).relative_to(ROOT)))
async def test_typing_a_file_character_by_character(client, path):
    text = Path(path).read_text(encoding="utf-8")
    if text.isascii() and client.encoding != "utf16":
        pytest.skip("ASCII text: positions are the same as with the VS Code profile")
    stride = 1 if len(text) < 300 else max(1, len(text) // CHECKPOINTS)
    target = open_document(client, path, "")
    line = column = 0
    for count, char in enumerate(text, start=1):
        change_document(client, target, count + 1, char, (line, column))
        if char == "\n":
            line, column = line + 1, 0
        else:
            column += units(client, char)
        if count % stride and count != len(text):
            continue
        at = types.Position(line, column)
        document = types.TextDocumentIdentifier(uri=target)
        await client.text_document_completion_async(types.CompletionParams(text_document=document, position=at))
        await client.text_document_hover_async(types.HoverParams(text_document=document, position=at))
        await client.text_document_signature_help_async(types.SignatureHelpParams(text_document=document, position=at))
        await diagnostics(client, target, version=count + 1)
    final = await diagnostics(client, target, version=len(text) + 1)
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    close_document(client, target)
    assert not errors
    assert not [d for d in final if d.severity == types.DiagnosticSeverity.Error and d.code != "G301"], final
