"""End to end over stdio: document sync, diagnostics (versions, debounce, close, other files
of the game), UTF-16 positions."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_support import DATA, change_document, close_document, diagnostics, lsp_fixture, open_document, position, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()

SEED = DATA / "seed" / "tictactoe_original.gdef"


async def test_seed_original_type_error(client):
    target = open_document(client, SEED)
    found = await diagnostics(client, target, version=1)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in found] == [("G301", 16, 26)]
    assert found[0].severity == types.DiagnosticSeverity.Error
    assert found[0].source == "gdef"
    assert found[0].code_description.href.endswith("diagnostics.md#g301-operand-types-do-not-match")
    close_document(client, target)


async def test_positions_use_the_negotiated_units_both_ways(client, tmp_path):
    text = ("name: utf\nplayers: 2\nsize: 3 x 3\n"
            "/* 🎲é */ int score = 1 + true;\n"
            "define isMoveLegal() -> bool { return true; }\n"
            "define end() -> bool { return score > 2; }\n")
    path = tmp_path / "utf.gdef"
    path.write_text(text, encoding="utf-8")
    target = open_document(client, path, text)
    found = await diagnostics(client, target, version=1)
    assert [d.code for d in found] == ["G301"]
    true_at = position(client, text, "true;")
    assert found[0].range.end == types.Position(true_at.line, true_at.character + 4)
    assert true_at.character == {"utf16": 26, "utf8": 29}[client.encoding]  # 🎲 is 2 or 4 units
    # An incremental edit located in UTF-16 units: replace `true` by `2`.
    change_document(client, target, 2, "2", (true_at.line, true_at.character),
                    (true_at.line, true_at.character + 4))
    assert await diagnostics(client, target, version=2) == []
    close_document(client, target)


async def test_burst_of_changes_publishes_latest_version_last(client, tmp_path):
    path = tmp_path / "burst.gdef"
    text = "name: burst\nplayers: 2\nsize: 3 x 3\ndefine isMoveLegal() -> bool { return true; }\n" \
           "define end() -> bool { return false; }\n"
    target = open_document(client, path, text)
    await diagnostics(client, target, version=1)
    for version in range(2, 12):  # type `int n = 1 +` then finish it, one key at a time
        typed = "int n = 1 + 2;"[:version + 2]
        change_document(client, target, version, text + typed)
    found = await diagnostics(client, target, version=11)
    assert [d.code for d in found] == ["G101"]  # "int n = 1 + 2" still lacks its ';'
    versions = [p.version for p in client.published if p.uri == target]
    assert versions == sorted(versions), "an older version was published after a newer one"
    close_document(client, target)


async def test_close_clears_diagnostics(client):
    target = open_document(client, SEED)
    assert await diagnostics(client, target, version=1)
    close_document(client, target)
    await _until(lambda: client.published[-1].uri == target and not client.published[-1].diagnostics)
    print(client.published)


async def test_unused_local_is_tagged_unnecessary(client, tmp_path):
    text = ("name: tags\nplayers: 2\nsize: 3 x 3\n"
            "define isMoveLegal() -> bool { int unused = 3; return true; }\n"
            "define end() -> bool { return false; }\n")
    target = open_document(client, tmp_path / "tags.gdef", text)
    found = await diagnostics(client, target, version=1)
    assert [(d.code, list(d.tags)) for d in found] == [("G501", [types.DiagnosticTag.Unnecessary])]
    assert found[0].range.start == position(client, text, "unused")
    close_document(client, target)


async def test_editing_a_library_refreshes_the_games_that_use_it(client):
    game, library = DATA / "game" / "connect.gdef", DATA / "game" / "lines.gdef"
    game_uri = open_document(client, game)
    assert await diagnostics(client, game_uri, version=1) == []
    library_text = library.read_text(encoding="utf-8")
    library_uri = open_document(client, library)
    assert await diagnostics(client, library_uri, version=1) == []
    start = position(client, library_text, "hasLine(obj")
    change_document(client, library_uri, 2, "hasLines", (start.line, start.character),
                    (start.line, start.character + len("hasLine")))
    # connect.gdef did not change, but its call of hasLine() no longer resolves.
    found = await _until(lambda: [d for d in client.diagnostics.get(game_uri, []) if d.code == "G202"])
    assert found[0].range.start == position(client, game.read_text(encoding="utf-8"), "hasLine(pieceOf")
    close_document(client, library_uri)  # back to the file on disk: the game is fine again
    await _until(lambda: client.diagnostics.get(game_uri) == ())
    close_document(client, game_uri)


async def test_duplicate_across_files_has_related_location(client):
    # lines.gdef is used by two games; only stack.gdef also declares Disc.
    library = DATA / "game" / "lines.gdef"
    text = library.read_text(encoding="utf-8") + "\nobj Disc\n"
    target = open_document(client, library, text)
    found = [d for d in await diagnostics(client, target, version=1) if d.code == "G203"]
    assert len(found) == 1
    assert found[0].range.start == position(client, text, "Disc")
    (related,) = found[0].related_information
    assert related.location.uri.endswith("/game/stack.gdef")
    assert related.location.range.start == types.Position(5, 4)  # `obj Disc` in stack.gdef
    close_document(client, target)


async def _until(condition, timeout: float = 10.0):
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (result := condition()):
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)
    return result


async def test_edits_after_a_form_feed_or_line_separator_land_on_the_right_line(client, tmp_path):
    # Python's splitlines() breaks lines at these characters; LSP does not.
    text = ("name: ff\nplayers: 2\nsize: 3 x 3\n/* page\x0cbreak \u2028 here */ int score = 1;\n"
            "define isMoveLegal() -> bool { return true; }\n"
            "define end() -> bool { return score > true; }\n")
    target = open_document(client, tmp_path / "ff.gdef", text)
    assert [d.code for d in await diagnostics(client, target, version=1)] == ["G301"]
    at = position(client, text, "score > true", len("score > "))
    change_document(client, target, 2, "2", (at.line, at.character), (at.line, at.character + 4))
    assert await diagnostics(client, target, version=2) == []
    close_document(client, target)


async def test_a_file_whose_name_needs_escaping_in_its_uri(client, tmp_path):
    folder = tmp_path / "my games (new)"
    folder.mkdir()
    target = open_document(client, folder / "tic tac $toe.gdef", SEED.read_text(encoding="utf-8"))
    assert "%20" in target
    assert [d.code for d in await diagnostics(client, target, version=1)] == ["G301"]
    close_document(client, target)


async def test_apply_change_counts_lines_as_lsp_does():
    from pygls.workspace.position_codec import PositionCodec

    from gdef_lsp.documents import apply_change

    utf16 = PositionCodec(types.PositionEncodingKind.Utf16)
    text = "a\x0cb\r\nc\u2028d\re🎲f\n"

    def change(start, end, new):
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=new)

    assert apply_change(text, change((1, 0), (1, 1), "C"), utf16) == "a\x0cb\r\nC\u2028d\re🎲f\n"
    assert apply_change(text, change((2, 3), (2, 4), "F"), utf16) == "a\x0cb\r\nc\u2028d\re🎲F\n"  # 🎲 is 2 units
    assert apply_change(text, change((0, 9), (0, 9), "!"), utf16) == "a\x0cb!\r\nc\u2028d\re🎲f\n"  # clamped
    assert apply_change(text, change((9, 0), (9, 0), "end"), utf16) == text + "end"
    assert apply_change(text, types.TextDocumentContentChangeWholeDocument(text="new"), utf16) == "new"


async def test_a_change_on_disk_reported_by_the_client_refreshes_open_games(client, tmp_path):
    for name in ("connect.gdef", "lines.gdef"):
        (tmp_path / name).write_text((DATA / "game" / name).read_text(encoding="utf-8"), encoding="utf-8")
    if client.capabilities.workspace.did_change_watched_files.dynamic_registration:
        (watch,) = client.registrations
        assert watch.register_options["watchers"] == [{"globPattern": "**/*.gdef"}]
    game = open_document(client, tmp_path / "connect.gdef")
    assert await diagnostics(client, game, version=1) == []
    library = tmp_path / "lines.gdef"
    library.write_text(library.read_text(encoding="utf-8").replace("hasLine(obj", "hasRow(obj"), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(library), type=types.FileChangeType.Changed)]))
    await _until(lambda: [d for d in client.diagnostics.get(game, []) if d.code == "G202"])
    close_document(client, game)
