"""End to end over stdio: the server, which checks incrementally, publishes after a long run
of small edits exactly what a full check of the final text gives; and a document too long to
analyse (5 MB) neither blocks the server nor leaves it silent."""
from __future__ import annotations

import random
import shutil

import pytest
from lsprotocol import types

from gdef_core import load_program
from gdef_core.ide.session import MAX_ANALYSED_CHARS
from gdef_core.report.limit import limit_syntax_errors
from lsp_support import DATA, change_document, close_document, diagnostics, lsp_fixture, open_document

in_module_loop = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture(profiles=["visual_studio_code"])

_LINES = ["  drops = drops + 1;", "  int spare = 2;", "  return drops;", "define extra() -> int { return 1; }",
          "  if (drops > 3) {", "  }", "}", "obj Green", "int drops = 0;", "  pieceOf(0);", "  return", ""]


def _edit(rnd: random.Random, lines: list[str]) -> tuple[int, int, str]:
    """A line-level edit (start line, end line, new text) and its effect on `lines`."""
    at = rnd.randrange(len(lines))
    kind = rnd.random()
    declarations = [i for i, line in enumerate(lines) if line.startswith(("obj ", "int ", "define "))]
    if kind < 0.25 and declarations:  # in place, so the functions below stay where they are
        at = rnd.choice(declarations)
        new = rnd.choice([lines[at].replace(" ", " x", 1), lines[at].replace("int", "bool", 1),
                          lines[at].replace("(int player)", "()", 1), "", "obj drops", "obj Red"])
        lines[at] = new
        return at, at + 1, new + "\n"
    if kind < 0.5:
        new = rnd.choice(_LINES)
        lines.insert(at, new)
        return at, at, new + "\n"
    if kind < 0.65 and len(lines) > 5:
        del lines[at]
        return at, at + 1, ""
    line = lines[at]
    if not line.isascii() or not line:
        return _edit(rnd, lines)
    column = rnd.randrange(len(line) + 1)
    new = line[:column] + rnd.choice(["x", ";", "(", "}", " 1", "drops", ""]) + line[column + rnd.randint(0, 3):]
    lines[at] = new
    return at, at + 1, new + "\n"


@in_module_loop
async def test_after_many_edits_the_published_diagnostics_are_those_of_a_full_check(client, tmp_path_factory):
    folder = tmp_path_factory.mktemp("game")
    for name in ("connect.gdef", "lines.gdef"):
        shutil.copy(DATA / "game" / name, folder / name)
    path = folder / "connect.gdef"
    text = path.read_text(encoding="utf-8")
    target = open_document(client, path, text)
    lines = text.split("\n")[:-1]
    rnd = random.Random(5)
    compared = 0
    for version in range(2, 122):
        start, end, new = _edit(rnd, lines)
        change_document(client, target, version, new, (start, 0), (end, 0))
        if version % 3:  # typing on: the server may check several changes at once
            continue
        published = await diagnostics(client, target, version)
        final = "\n".join(lines) + "\n"
        expected = limit_syntax_errors(d for d in load_program([str(path)], overlay={str(path): final}).diagnostics
                                       if d.span.file == str(path))
        assert [(d.range.start.line, d.code, d.message) for d in published] == \
            [(d.span.line, d.code, d.message) for d in expected], f"version {version}:\n{final}"
        compared += bool(expected)
    assert compared > 10  # the edits broke things, so the comparisons say something
    close_document(client, target)


@in_module_loop
async def test_a_5_MB_change_is_not_analysed_and_the_server_keeps_answering(client, tmp_path_factory):
    folder = tmp_path_factory.mktemp("big")
    shutil.copy(DATA / "game" / "lines.gdef", folder / "lines.gdef")
    small = folder / "small.gdef"
    small_text = "players: 2\nsize: 3 x 3\nobj X\ndefine isMoveLegal() -> bool { return true; }\n" \
                 "define end() -> bool { return nope; }\n"
    target = open_document(client, small, small_text)
    assert [d.code for d in await diagnostics(client, target, 1)] == ["G201"]
    other = open_document(client, folder / "lines.gdef")
    await diagnostics(client, other, 1)

    big_text = small_text + "// " + "x" * (5 * 1024 * 1024) + "\n"
    assert len(big_text) > MAX_ANALYSED_CHARS
    change_document(client, target, 2, big_text)
    # other requests are answered at once, and right
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=other)))
    assert "hasLine" in [s.name for s in symbols]
    # the big document: no diagnostics, and one notice saying why
    assert await diagnostics(client, target, 2) == []
    notices = [m for m in client.messages if "gdef-check small.gdef" in m.message]
    assert len(notices) == 1 and notices[0].type == types.MessageType.Warning
    assert f"{len(big_text):,} characters" in notices[0].message
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=target), position=types.Position(4, 30)))
    assert hover is None

    # another long change: no second notice; back under the limit: checked again
    change_document(client, target, 3, big_text + "// more\n")
    assert await diagnostics(client, target, 3) == []
    change_document(client, target, 4, small_text)
    assert [d.code for d in await diagnostics(client, target, 4)] == ["G201"]
    assert len([m for m in client.messages if "gdef-check small.gdef" in m.message]) == 1
    close_document(client, target)
    close_document(client, other)


def test_a_buffer_too_long_to_analyse_is_its_own_empty_game(tmp_path):
    """Not a library whose users must be looked for (reading and parsing the folder's games)."""
    from gdef_core.ide.session import Session

    (tmp_path / "game.gdef").write_text('players: 2\nsize: 3 x 3\nuse "big.gdef"\n', encoding="utf-8")
    big = str(tmp_path / "big.gdef")
    session = Session()
    session.set_buffer(big, "define f() {}\n" + " " * MAX_ANALYSED_CHARS)
    assert session.too_large(big) == MAX_ANALYSED_CHARS + 14
    assert session.games(big) == [(big,)] and session.diagnostics(big) == []
    assert session.source(big) == ""
    session.set_buffer(big, "define f() {}\n")
    assert session.too_large(big) is None
    assert session.games(big) == [(str(tmp_path / "game.gdef"),)]
