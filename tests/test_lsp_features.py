"""End to end over stdio: completion, hover, signature help, navigation, rename, symbols,
semantic tokens, folding, code lens and the run command, across the files of a game."""
from __future__ import annotations

import subprocess
import sys

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lsp_support import DATA, close_document, diagnostics, lsp_fixture, open_document, position, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture()
# Debian's Neovim (0.7): no snippets in completion.
old_neovim = lsp_fixture(profiles=["neovim@v0.7.0"])

GAME = DATA / "game" / "connect.gdef"
LIBRARY = DATA / "game" / "lines.gdef"
OTHER_GAME = DATA / "game" / "stack.gdef"
GAME_TEXT = GAME.read_text(encoding="utf-8")
LIBRARY_TEXT = LIBRARY.read_text(encoding="utf-8")


def doc(target: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=target)


async def complete(client, target, at) -> list[types.CompletionItem]:
    result = await client.text_document_completion_async(types.CompletionParams(text_document=doc(target), position=at))
    return result.items if isinstance(result, types.CompletionList) else result


async def hover_text(client, target, at) -> str | None:
    result = await client.text_document_hover_async(types.HoverParams(text_document=doc(target), position=at))
    return None if result is None else result.contents.value


# ---------------------------------------------------------------- completion


async def test_completion_offers_builtins_with_docs_and_user_functions_as_snippets(client):
    text = GAME_TEXT.replace("  return y == 0", "  \n  return y == 0")
    target = open_document(client, GAME, text)
    items = {i.label: i for i in await complete(client, target, position(client, text, "\n  return y == 0", 3))}
    current = items["CurrentPosition"]
    assert current.kind == types.CompletionItemKind.Field
    assert "position before the proposed move" in current.documentation.value  # from builtins.py
    assert current.insert_text == "CurrentPosition[${1:x}][${2:y}]"
    assert current.insert_text_format == types.InsertTextFormat.Snippet
    assert items["pieceOf"].insert_text == "pieceOf(${1:player})"
    assert items["pieceOf"].detail == "pieceOf(int player) -> obj"
    assert items["hasLine"].kind == types.CompletionItemKind.Function  # from lines.gdef
    assert {"x", "y", "piece", "Red", "Yellow", "empty", "drops", "if", "while", "return", "int"} <= set(items)
    close_document(client, target)


async def test_completion_without_snippet_support_inserts_plain_text(old_neovim):
    text = GAME_TEXT.replace("  return y == 0", "  \n  return y == 0")
    target = open_document(old_neovim, GAME, text)
    items = {i.label: i for i in await complete(old_neovim, target, position(old_neovim, text, "\n  return y == 0", 3))}
    assert (items["pieceOf"].insert_text, items["pieceOf"].insert_text_format) == \
        ("pieceOf", types.InsertTextFormat.PlainText)
    assert items["operationsNum"].insert_text == "operationsNum()"
    assert items["CurrentPosition"].insert_text == "CurrentPosition"
    close_document(old_neovim, target)


BROKEN = """name: broken
players: 2
size: 3 x 3
obj X
define isMoveLegal() -> bool {
  int xCord = OperationList[0][0];
  obj placed = OperationList[0][
  if (xCord >
}
define helper(int a) -> int { return a; }
define end() -> bool { return false; }
"""


async def test_completion_inside_a_broken_function(client, tmp_path):
    target = open_document(client, tmp_path / "broken.gdef", BROKEN)
    assert await diagnostics(client, target, version=1)  # it is broken
    fields = await complete(client, target, position(client, BROKEN, "[0][\n", 4))
    assert [(i.label, i.detail) for i in fields] == [("0", "int"), ("1", "int"), ("2", "obj"), ("3", "int")]
    assert "empty" in fields[2].documentation.value
    labels = {i.label for i in await complete(client, target, position(client, BROKEN, "xCord >", 7))}
    assert {"xCord", "helper", "X", "onTurn"} <= labels  # a local, a later function, an object, a built-in
    assert "placed" not in labels  # its declaration never ended
    close_document(client, target)


async def test_completion_of_use_paths_and_top_level(client):
    text = 'use "\n'
    target = open_document(client, DATA / "game" / "new.gdef", text)
    items = await complete(client, target, position(client, text, '"', 1))
    assert {i.label for i in items} == {"connect.gdef", "lines.gdef", "stack.gdef"}
    assert items[0].text_edit.range.start == position(client, text, '"', 1)
    top = {i.label for i in await complete(client, target, types.Position(1, 0))}
    assert {"name:", "players:", "size:", "define", "obj", "start", "use"} <= top
    close_document(client, target)


# ---------------------------------------------------------------- hover, signature help


async def test_hover(client):
    target = open_document(client, GAME)
    builtin = await hover_text(client, target, position(client, GAME_TEXT, "CurrentPosition[x][y] !="))
    assert "CurrentPosition[x][y] -> obj" in builtin and "off the board is a run-time error" in builtin
    function = await hover_text(client, target, position(client, GAME_TEXT, "pieceOf(onTurn())) {"))
    assert "define pieceOf(int player) -> obj" in function
    assert "The piece the player on turn plays (🎲 decides nothing)." in function
    local = await hover_text(client, target, position(client, GAME_TEXT, "piece != pieceOf"))
    assert "obj piece" in local and "Local of `isMoveLegal()`" in local
    obj = await hover_text(client, target, position(client, GAME_TEXT, "Red; }"))
    assert "obj Red" in obj and "connect.gdef:7" in obj
    game_var = await hover_text(client, target, position(client, GAME_TEXT, "drops = drops"))
    assert "int drops = 0" in game_var
    assert "board size" in await hover_text(client, target, position(client, GAME_TEXT, "size:"))
    assert await hover_text(client, target, position(client, GAME_TEXT, "Connect three")) is None  # a comment
    close_document(client, target)


async def test_signature_help(client):
    text = LIBRARY_TEXT.replace("lineFrom(x, y, 1, 0, piece)", "lineFrom(x, y, ")
    target = open_document(client, LIBRARY, text)
    help_ = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(target), position=position(client, text, "lineFrom(x, y, ", len("lineFrom(x, y, "))))
    (signature,) = help_.signatures
    assert signature.label == "lineFrom(int x, int y, int dx, int dy, obj piece) -> bool"
    assert help_.active_parameter == 2
    start, end = signature.parameters[2].label
    assert signature.label[start:end] == "int dx"
    assert "three squares" in signature.documentation.value
    close_document(client, target)


# ---------------------------------------------------------------- navigation


async def test_definition_across_files(client):
    target = open_document(client, GAME)
    (found,) = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(target), position=position(client, GAME_TEXT, "hasLine(")))
    assert found.uri == uri(LIBRARY)
    assert found.range.start == position(client, LIBRARY_TEXT, "hasLine(obj")
    close_document(client, target)


async def test_references_reach_every_game_using_the_library(client):
    target = open_document(client, LIBRARY)
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(target), position=position(client, LIBRARY_TEXT, "onBoard(int"),
        context=types.ReferenceContext(include_declaration=True)))
    assert sorted((f.uri.rsplit("/", 1)[1], f.range.start.line) for f in found) == [
        ("lines.gdef", 3), ("lines.gdef", 13), ("stack.gdef", 8)]
    close_document(client, target)


async def test_document_highlight_marks_writes(client):
    target = open_document(client, LIBRARY)
    found = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=doc(target), position=position(client, LIBRARY_TEXT, "k < 3")))
    kinds = [(h.range.start.line, h.kind) for h in found]
    write, read = types.DocumentHighlightKind.Write, types.DocumentHighlightKind.Read
    assert kinds == [(9, write), (10, read), (11, read), (12, read), (15, write), (15, read)]
    close_document(client, target)


# ---------------------------------------------------------------- rename


async def test_rename_a_library_function_from_a_game_renames_it_in_every_game(client):
    target = open_document(client, GAME)
    at = position(client, GAME_TEXT, "hasLine(")
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(text_document=doc(target), position=at))
    assert prepared.placeholder == "hasLine"
    edit = await client.text_document_rename_async(types.RenameParams(text_document=doc(target), position=at, new_name="hasRow"))
    changed = {u.rsplit("/", 1)[1]: sorted(e.range.start.line for e in edits) for u, edits in edit.changes.items()}
    assert changed == {"connect.gdef": [28], "lines.gdef": [20], "stack.gdef": [12]}
    assert all(e.new_text == "hasRow" for edits in edit.changes.values() for e in edits)
    close_document(client, target)


@pytest.mark.parametrize(("marker", "reason"), [
    ("if (player", "'if' is a keyword"),
    ("CurrentPosition[x][y] !=", "'CurrentPosition' is a built-in"),
    ("players:", "'players' is a game parameter"),
])
async def test_prepare_rename_refuses_with_a_reason(client, marker, reason):
    target = open_document(client, GAME)
    with pytest.raises(JsonRpcException, match=reason):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=doc(target), position=position(client, GAME_TEXT, marker)))
    close_document(client, target)


async def test_rename_refuses_a_clashing_name(client):
    target = open_document(client, GAME)
    with pytest.raises(JsonRpcException, match="'Red' is already an object"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(target), position=position(client, GAME_TEXT, "Yellow;"), new_name="Red"))
    close_document(client, target)


# ---------------------------------------------------------------- symbols, tokens, folding


async def test_document_symbols(client):
    target = open_document(client, GAME)
    found = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc(target)))
    assert [(s.name, s.kind) for s in found] == [
        ("name", types.SymbolKind.Property), ("players", types.SymbolKind.Property),
        ("size", types.SymbolKind.Property), ('use "lines.gdef"', types.SymbolKind.File),
        ("Red", types.SymbolKind.EnumMember), ("Yellow", types.SymbolKind.EnumMember),
        ("drops", types.SymbolKind.Variable), ("pieceOf", types.SymbolKind.Function),
        ("isMoveLegal", types.SymbolKind.Function), ("end", types.SymbolKind.Function)]
    assert found[2].detail == "4 x 4"
    assert [c.name for c in found[8].children] == ["x", "y", "piece"]
    close_document(client, target)


async def test_workspace_symbols(client):
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="linefr"))
    assert [(s.name, s.location.uri.rsplit("/", 1)[1]) for s in found] == [("lineFrom", "lines.gdef")]


async def test_semantic_tokens(client):
    text = "// note\nobj X\ndefine f(int a) -> bool {\n  return a == onTurn() && CurrentPosition[0][0] == X;\n}\n"
    target = open_document(client, DATA / "game" / "tokens.gdef", text)
    legend = client.server_capabilities.semantic_tokens_provider.legend
    result = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=doc(target)))
    decoded, line, start = {}, 0, 0
    data = result.data
    lines = text.split("\n")
    for i in range(0, len(data), 5):
        line += data[i]
        start = data[i + 1] + (start if data[i] == 0 else 0)
        word = lines[line][start:start + data[i + 2]]
        modifiers = {m for k, m in enumerate(legend.token_modifiers) if data[i + 4] & (1 << k)}
        decoded.setdefault(word, (legend.token_types[data[i + 3]], modifiers))
    assert decoded["// note"] == ("comment", set())
    assert decoded["define"] == ("keyword", set())
    assert decoded["f"] == ("function", {"declaration"})
    assert decoded["a"] == ("parameter", {"declaration"})
    assert decoded["onTurn"] == ("function", {"defaultLibrary"})
    assert decoded["CurrentPosition"] == ("variable", {"defaultLibrary", "readonly"})
    assert decoded["X"] == ("enumMember", {"readonly", "declaration"})
    close_document(client, target)


async def test_folding_ranges(client):
    target = open_document(client, GAME)
    found = await client.text_document_folding_range_async(types.FoldingRangeParams(text_document=doc(target)))
    assert (0, 1, types.FoldingRangeKind.Comment) in [(f.start_line, f.end_line, f.kind) for f in found]
    assert (16, 23, types.FoldingRangeKind.Region) in [(f.start_line, f.end_line, f.kind) for f in found]
    close_document(client, target)


# ---------------------------------------------------------------- run game


async def test_code_lens_runs_the_game(client):
    target = open_document(client, GAME)
    lens, debug, simulate = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(target)))
    assert lens.range.start.line == debug.range.start.line == 2  # `name: connect`
    assert (debug.command.title, debug.command.command) == ("▶ Debug game", "gdef.debugGame")
    configuration = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=debug.command.command, arguments=debug.command.arguments))
    assert configuration == {"type": "gdef", "request": "launch", "name": f"Debug {GAME.name}", "program": str(GAME)}
    assert simulate.command.command == "gdef.simulate"  # above end(): tests/test_lsp_simulation.py
    assert (lens.command.command, list(lens.command.arguments)) == ("gdef.runGame", [target])
    argv = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=lens.command.command, arguments=lens.command.arguments))
    assert argv == [sys.executable, "-m", "gdef_core.cli.run", str(GAME)]
    done = subprocess.run([*argv, "--perft", "1"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.split("\n")[0]) == (0, "depth 1: 4")  # the four columns
    library = open_document(client, LIBRARY)
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(library)))
    close_document(client, target)
    close_document(client, library)


async def test_run_game_of_a_library_runs_the_first_game_using_it(client):
    argv = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="gdef.runGame", arguments=[uri(LIBRARY)]))
    assert argv[3:] == [str(GAME)]


async def test_run_game_keeps_awkward_paths_as_one_argument(client, tmp_path):
    folder = tmp_path / "my games $(touch pwned) 'q' \"dq\""
    folder.mkdir()
    game = folder / "a b.gdef"
    game.write_text(OTHER_GAME.read_text(encoding="utf-8").replace('use "lines.gdef"\n', "") +
                    LIBRARY_TEXT, encoding="utf-8")
    argv = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="gdef.runGame", arguments=[uri(game)]))
    assert argv == [sys.executable, "-m", "gdef_core.cli.run", str(game)]
    assert not (tmp_path / "pwned").exists()


async def test_run_game_refuses_a_lone_library(client, tmp_path):
    library = tmp_path / "helpers.gdef"
    library.write_text("define one() -> int { return 1; }\n", encoding="utf-8")
    with pytest.raises(JsonRpcException, match="declares no game"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="gdef.runGame", arguments=[uri(library)]))


SHOWN = ('name: shown\nplayers: 2\nsize: 3 x 3\nobj X\nobj O\n'
         'show {\n  X: "♔" side 0;\n  style: ;\n}\n'
         'define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n')


async def test_completion_and_hover_in_a_show_block(client, tmp_path):
    target = open_document(client, tmp_path / "shown.gdef", SHOWN)
    items = {i.label: i for i in await complete(client, target, position(client, SHOWN, "style: ", 7))}
    assert set(items) == {"checkered", "plain", "intersections", "hex"}
    assert items["intersections"].kind == types.CompletionItemKind.Constant
    words = {i.label for i in await complete(client, target, position(client, SHOWN, '"♔" side 0', 4))}
    assert words == {"image", "side", "letter"}  # what may follow an object's glyph
    assert (await hover_text(client, target, position(client, SHOWN, "style"))).startswith(
        "```gdef\nstyle:\n```\n\nPresentation. The board:")
    assert "Object, declared at shown.gdef:4." in await hover_text(client, target, position(client, SHOWN, 'X: "'))
    close_document(client, target)
