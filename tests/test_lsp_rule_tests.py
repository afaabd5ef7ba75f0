"""End to end over stdio: rule tests (`*.test.moves`) in the editor. The server reads test
files as move scripts (no gdef diagnostics or features on them), completes and explains `?`
assertions, reports lines it cannot read, and runs gdef-test from a "Run rule tests" code
lens (on the test file and on its game) in the background: failures come back as
diagnostics at the assertion lines, counts in the lens; a run can be cancelled and is
stopped at the configured time limit."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from lsp_support import close_document, lsp_fixture, open_document, uri
from support import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture(profiles=["visual_studio_code"])
limited = lsp_fixture({"ruleTestTimeout": 1}, profiles=["visual_studio_code"])

TESTS = """# game: tictactoe.gdef
[opening]
? turn 0
? moves 8
place(1,1,X)
? square 1,1 X

[a win]
place(0,0,X)
place(1,1,O)
place(1,0,X)
place(2,2,O)
place(2,0,X)
? over winner 0
"""
# Every judgement runs a loop of about a million steps: 60 of them take a minute.
SLOW_GAME = """name: slow
players: 2
size: 3 x 3
obj X
define isMoveLegal() -> bool {
  int n = 0;
  while (n < 1000000) { n = n + 1; }
  return true;
}
define end() -> bool { return false; }
"""
SLOW_TESTS = "\n".join(["? legal place(0,0,X)"] * 60) + "\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("rules")
    (folder / "tictactoe.gdef").write_text((ROOT / "examples" / "tictactoe.gdef").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    (folder / "tictactoe.test.moves").write_text(TESTS, encoding="utf-8")
    (folder / "slow.gdef").write_text(SLOW_GAME, encoding="utf-8")
    (folder / "slow.test.moves").write_text(SLOW_TESTS, encoding="utf-8")
    return folder


def doc(target: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=target)


async def lenses(client, target: str) -> list[types.CodeLens]:
    return await client.text_document_code_lens_async(types.CodeLensParams(doc(target)))


async def finished_lens(client, target: str, timeout: float = 60) -> types.CodeLens:
    """The rule-test lens of `target` once no run is going."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        (lens,) = [found for found in await lenses(client, target) if "rule tests" in found.command.title]
        if not lens.command.title.startswith("■"):
            return lens
        assert asyncio.get_running_loop().time() < deadline, "the run did not finish"
        await asyncio.sleep(0.05)


async def published(client, target: str, source: str, count: int, timeout: float = 60) -> list[types.Diagnostic]:
    """The latest diagnostics of `target` once `count` of them come from `source`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        for params in reversed(client.published):
            if params.uri == target:
                found = [d for d in params.diagnostics if d.source == source]
                if len(found) == count:
                    return list(params.diagnostics)
                break
        assert asyncio.get_running_loop().time() < deadline, f"no {count} diagnostics from {source}"
        await asyncio.sleep(0.02)


def gdef_test_processes(name: str) -> list[str]:
    """The running gdef-test processes given `name`, a path (Linux /proc; [] elsewhere): another
    pytest worker's test of a file of the same name is not one of them."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = entry.read_bytes().split(b"\0")
        except OSError:
            continue
        if b"gdef_core.cli.test" in words and any(word.endswith(name.encode()) for word in words):
            found.append(entry.parent.name)
    return found


async def run(client, target: str) -> str:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="gdef.runRuleTests", arguments=[target]))


async def test_a_test_file_is_not_read_as_gdef(client, folder):
    text = TESTS + "? sqare 1,1 X\nplace(1,1)\n"
    target = open_document(client, folder / "tictactoe.test.moves", text)
    found = await published(client, target, "gdef-test", 2, timeout=10)
    assert [(d.range.start.line, d.range.start.character, d.message) for d in found] == [
        (14, 2, "unknown assertion 'sqare': use one of legal, illegal, over, not, turn, square, count, var, score, moves, chance"),
        (15, 9, "not a move: expected ',' after the y coordinate, found ')'")]
    assert all(d.code is None for d in found)  # nothing from the gdef checker
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(doc(target)))
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(doc(target)))
    assert tokens is None and symbols is None
    close_document(client, target)


async def test_a_param_line_that_is_not_a_setting_is_shown_at_its_line(client, folder):
    target = open_document(client, folder / "tictactoe-param.test.moves", "# param: size\n" + TESTS)
    found = await published(client, target, "gdef-test", 1, timeout=10)
    assert [(d.range.start.line, d.range.end.character, d.message) for d in found] == [
        (0, 13, "`# param: size` is not a parameter setting: write `# param: NAME=VALUE` "
                "(for example `# param: board_size=7`)")]
    close_document(client, target)


async def test_assertion_keywords_are_completed_and_explained(client, folder):
    text = TESTS + "? \n? over \n? var \n? square 1,1 \n"
    target = open_document(client, folder / "tictactoe.test.moves", text)

    async def labels(line: int, character: int) -> list[str]:
        result = await client.text_document_completion_async(types.CompletionParams(
            doc(target), types.Position(line, character)))
        return [item.label for item in result.items]

    assert await labels(14, 2) == ["legal", "illegal", "over", "not over", "turn", "square", "count", "var", "score", "moves", "chance"]
    assert await labels(15, 7) == ["winner", "draw"]
    assert await labels(16, 6) == []  # tictactoe has no game variables
    assert await labels(17, 13) == ["X", "O", "empty"]
    hovered = await client.text_document_hover_async(types.HoverParams(doc(target), types.Position(13, 4)))
    assert hovered.contents.value.startswith("```gdef\n? over [winner P | draw]\n```\n\nAsserts that the game has ended")
    assert (hovered.range.start.character, hovered.range.end.character) == (2, 6)
    close_document(client, target)


async def test_run_from_the_test_file_lens_puts_failures_at_their_lines(client, folder):
    target = open_document(client, folder / "tictactoe.test.moves", TESTS)
    (lens,) = await lenses(client, target)
    assert (lens.command.title, lens.command.command, tuple(lens.command.arguments)) == \
        ("▶ Run rule tests", "gdef.runRuleTests", (target,))
    assert await run(client, target) == "running 1 test file"
    lens = await finished_lens(client, target)
    assert lens.command.title == "▶ Run rule tests · ✗ 1 failed, 1 passed"
    assert client.code_lens_refreshes >= 2  # when the run started and when it ended (tests/lsp_support.py counts)
    (failure,) = await published(client, target, "gdef-test", 1)
    assert failure.range.start == types.Position(3, 0) and failure.range.end == types.Position(3, 9)
    assert failure.message.startswith("[opening] assertion failed: ? moves 8\nexpected: 8 legal moves\n"
                                      "actual:   9 legal moves: place(0,0,X)")
    fixed = TESTS.replace("? moves 8", "? moves 9")
    (folder / "tictactoe.test.moves").write_text(fixed, encoding="utf-8")
    close_document(client, target)
    target = open_document(client, folder / "tictactoe.test.moves", fixed)
    await run(client, target)
    assert (await finished_lens(client, target)).command.title == "▶ Run rule tests · ✓ 2 passed"
    assert await published(client, target, "gdef-test", 0) == []
    close_document(client, target)
    (folder / "tictactoe.test.moves").write_text(TESTS, encoding="utf-8")


async def test_the_game_file_lens_runs_every_test_of_the_game(client, folder):
    game = open_document(client, folder / "tictactoe.gdef")
    lines = {lens.command.title: lens.range.start.line for lens in await lenses(client, game)}
    assert set(lines) == {"▶ Run game", "▶ Debug game", "▶ Simulate 200 games", "▶ Run rule tests"}
    assert lines["▶ Run rule tests"] == lines["▶ Run game"]  # side by side
    await run(client, game)
    assert (await finished_lens(client, game)).command.title == "▶ Run rule tests · ✗ 1 failed, 1 passed"
    tests = uri(folder / "tictactoe.test.moves")  # not open: its failure is still reported
    (failure,) = await published(client, tests, "gdef-test", 1)
    assert failure.range.start.line == 3
    close_document(client, game)


async def test_a_game_without_tests_has_no_test_lens_and_refuses_to_run(client, folder):
    (folder / "lonely.gdef").write_text(SLOW_GAME.replace("slow", "lonely"), encoding="utf-8")
    game = open_document(client, folder / "lonely.gdef")
    assert [lens.command.title for lens in await lenses(client, game)
            if "Simulate" not in lens.command.title] == ["▶ Run game", "▶ Debug game"]
    with pytest.raises(Exception, match="no .test.moves file tests lonely.gdef"):
        await run(client, game)
    close_document(client, game)


async def test_a_run_can_be_cancelled(client, folder):
    target = open_document(client, folder / "slow.test.moves")
    await run(client, target)
    (lens,) = await lenses(client, target)
    assert (lens.command.title, lens.command.command) == \
        ("■ Running rule tests… (click to cancel)", "gdef.cancelRuleTests")
    for _ in range(100):  # the child process starts
        if gdef_test_processes(str(folder / "slow.test.moves")):
            break
        await asyncio.sleep(0.02)
    assert len(gdef_test_processes(str(folder / "slow.test.moves"))) == 1
    stopped = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="gdef.cancelRuleTests", arguments=[target]))
    assert stopped is True
    assert (await finished_lens(client, target, timeout=10)).command.title == "▶ Run rule tests · cancelled"
    await asyncio.sleep(0.5)
    assert gdef_test_processes(str(folder / "slow.test.moves")) == []
    close_document(client, target)


async def test_a_run_is_stopped_at_the_time_limit(limited, folder):
    target = open_document(limited, folder / "slow.test.moves")
    await run(limited, target)
    lens = await finished_lens(limited, target, timeout=30)
    assert lens.command.title == "▶ Run rule tests · timed out (stopped after 1 s)"
    await asyncio.sleep(0.5)
    assert gdef_test_processes(str(folder / "slow.test.moves")) == []
    close_document(limited, target)


async def test_a_moves_script_gets_assertion_help_but_no_test_lens(client, folder):
    text = "place(1,1,X)\n[not a section here]\n? tunr 1\n"
    target = open_document(client, folder / "tictactoe.moves", text)
    found = await published(client, target, "gdef-test", 2, timeout=10)
    assert [(d.range.start.line, d.message.split(":")[0]) for d in found] == [
        (1, "not a move"), (2, "unknown assertion 'tunr'")]
    assert not await lenses(client, target)
    result = await client.text_document_completion_async(types.CompletionParams(doc(target), types.Position(2, 2)))
    assert "turn" in [item.label for item in result.items]
    close_document(client, target)


async def test_start_position_keys_are_completed_where_a_header_line_may_stand(client, folder):
    text = "# game: tictactoe.gdef\n# fr\n[a test]\n#\nplace(1,1,X)\n# \n"
    target = open_document(client, folder / "corner-keys.test.moves", text)

    async def offered(line: int, character: int) -> list[tuple[str, str]]:
        result = await client.text_document_completion_async(types.CompletionParams(
            doc(target), types.Position(line, character)))
        return [(item.label, item.insert_text) for item in result.items]

    keys = ["from", "board", "turn", "var", "score", "move"]
    assert await offered(1, 4) == [(f"{key}:", f"{key}: ") for key in [*keys, "param"]]  # the file's header
    assert await offered(3, 1) == [(f"{key}:", f" {key}: ") for key in keys]   # below a test's name: no param
    assert await offered(5, 2) == []                                           # after a move: a comment
    close_document(client, target)


async def test_a_param_line_of_a_move_script_is_completed_and_explained(client, folder):
    text = "# game: tictactoe.gdef\n# param: size=3\n#\nplace(1,1,X)\n"
    target = open_document(client, folder / "params.moves", text)
    result = await client.text_document_completion_async(types.CompletionParams(doc(target), types.Position(2, 1)))
    offered = {item.label: item for item in result.items}
    assert list(offered)[-1] == "param:" and offered["param:"].insert_text == " param: "
    assert offered["param:"].detail == "# param: NAME=VALUE"
    hovered = await client.text_document_hover_async(types.HoverParams(doc(target), types.Position(1, 4)))
    assert hovered.contents.value.startswith("```gdef\n# param: NAME=VALUE\n```\n\nThe game's parameters (a line "
                                             "of the file's header): the game's declared parameter NAME")
    assert (hovered.range.start.character, hovered.range.end.character) == (2, 7)
    close_document(client, target)


async def test_a_start_position_header_is_checked_as_typed_and_by_the_lens(client, folder):
    path = folder / "corner.test.moves"
    unreadable = "# game: tictactoe.gdef\n# board: place(0,0,X) place(1,1,O)\n? turn 0\n"
    target = open_document(client, folder / "corner-typed.test.moves", unreadable)
    found = await published(client, target, "gdef-test", 1, timeout=10)
    assert [(d.range.start.line, d.range.start.character, d.range.end.character, d.message) for d in found] == [
        (1, 22, 34, "not operations: expected ';' between operations, found 'place'")]
    hovered = await client.text_document_hover_async(types.HoverParams(doc(target), types.Position(1, 4)))
    assert hovered.contents.value.startswith("```gdef\n# board: OPERATIONS\n```\n\nWhere the moves start (a line "
                                             "of the script's header; in a rule-test file also below a test's "
                                             "`[name]`, for that test): operations applied")
    assert (hovered.range.start.character, hovered.range.end.character) == (2, 7)
    close_document(client, target)
    missing = "# game: tictactoe.gdef\n# from: gone.json\n? turn 0\n"
    target = open_document(client, folder / "corner-record.test.moves", missing)
    found = await published(client, target, "gdef-test", 1, timeout=10)
    assert [(d.range.start.line, d.range.start.character, d.range.end.character, d.message) for d in found] == [
        (1, 8, 17, f"the record {folder / 'gone.json'} is not a file")]
    close_document(client, target)
    off_board = "# game: tictactoe.gdef\n# board: place(0,0,X); place(3,0,X)\n? turn 0\n"
    path.write_text(off_board, encoding="utf-8")
    try:
        target = open_document(client, path)
        assert await published(client, target, "gdef-test", 0, timeout=10) == []  # it needs the game
        await run(client, target)
        assert (await finished_lens(client, target)).command.title == "▶ Run rule tests · ✗ 1 error"
        (error,) = await published(client, target, "gdef-test", 1)
        assert (error.range.start, error.range.end) == (types.Position(1, 23), types.Position(1, 35))
        assert error.message == ("[corner] the start position does not fit tictactoe: place(3,0,X) names square "
                                 "(3, 0), which is off the 3x3 board (x from 0 to 2, y from 0 to 2)")
        close_document(client, target)
    finally:
        path.unlink()
