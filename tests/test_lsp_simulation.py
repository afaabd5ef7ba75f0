"""End to end over stdio: the "Simulate 200 games" code lens runs gdef-sim in a child process
and shows the win shares; the run is cancellable, bounded in time, and killed by an edit of
the game and by shutdown. A run on the Python backend is followed by the game's native
compile in the background, stopped by an edit with its files removed."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from lsp_support import DATA, change_document, close_document, lsp_fixture, make_client, open_document
from support import need_module

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(autouse=True, scope="module")
def numba_route():
    """The native compile these tests watch is numba's child process and its files
    (GDEF_NATIVE_ROUTE, inherited by the server, which starts after this fixture)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_NATIVE_ROUTE", "numba")
        yield


client = lsp_fixture(profiles=["visual_studio_code"])  # it refreshes code lenses
hasty = lsp_fixture(initialization_options={"simulationTimeout": 1}, profiles=["neovim"])  # it does not

ON_DISK = """name: quick
players: 2
size: 2 x 1
use "lib/rules.gdef"
obj X
define isMoveLegal() -> bool { return operationsNum() == 1 && free(); }
define end() -> bool { return moveNumber() == 2; }
"""
RULES = "define free() -> bool { return CurrentPosition[OperationList[0][0]][0] == empty; }\n"
# The open buffer, unsaved: the first player to move wins.
EDITED = ON_DISK.replace("return moveNumber() == 2;", "setWinner(onTurn()); return true;")
FOREVER = """name: forever
players: 2
size: 2 x 1
obj X
define isMoveLegal() -> bool { return operationsNum() == 1; }
define end() -> bool { return false; }
"""


def doc(target: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=target)


async def simulate_lens(client, target) -> types.CodeLens:
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(doc(target)))
    (found,) = [lens for lens in lenses if lens.command.command.startswith(("gdef.simulate", "gdef.cancel"))]
    return found


async def run(client, command: str, target: str):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command, [target]))


def simulations(server_pid: int) -> list[int]:
    """The server's child processes that run gdef-sim."""
    return children(server_pid, b"gdef_core.cli.sim")


def children(server_pid: int, word: bytes) -> list[int]:
    """The server's child processes whose command line holds `word`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except (OSError, ValueError, IndexError):
            continue
        if parent == server_pid and word in command:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def until(condition, what: str, timeout: float = 60.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = condition()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)


def write_game(tmp_path, text: str = ON_DISK) -> str:
    (tmp_path / "lib").mkdir(exist_ok=True)
    (tmp_path / "lib" / "rules.gdef").write_text(RULES, encoding="utf-8")
    (tmp_path / "g.gdef").write_text(text, encoding="utf-8")
    return str(tmp_path / "g.gdef")


async def test_the_lens_simulates_the_unsaved_game_and_shows_the_win_shares(client, tmp_path):
    target = open_document(client, write_game(tmp_path), EDITED)
    lens = await simulate_lens(client, target)
    assert (lens.range.start.line, lens.command.title, list(lens.command.arguments)) == \
        (6, "▶ Simulate 200 games", [target])
    refreshes = client.code_lens_refreshes
    assert await run(client, lens.command.command, target) is None  # it answers at once
    running = await simulate_lens(client, target)
    assert (running.command.title, running.command.command) == \
        ("⏳ Simulating 200 games… (click to cancel)", "gdef.cancelSimulation")
    await until(lambda: client.code_lens_refreshes >= refreshes + 2, "a refresh when the run ends")
    done = await simulate_lens(client, target)
    assert done.command.title == "200 games: player 0 100.0%, player 1 0.0%, draws 0.0% (simulate again)"
    assert done.command.command == "gdef.simulate"
    assert not os.path.exists(tmp_path / "results.json")  # the snapshot lived elsewhere
    close_document(client, target)


async def test_an_edit_kills_the_running_simulation_and_drops_its_result(client, tmp_path):
    (tmp_path / "forever.gdef").write_text(FOREVER, encoding="utf-8")
    target = open_document(client, tmp_path / "forever.gdef")
    await run(client, "gdef.simulate", target)
    (child,) = await until(lambda: simulations(client._server.pid), "gdef-sim started")
    change_document(client, target, 2, " ", (0, 0))
    await until(lambda: not alive(child), "gdef-sim killed", 20)
    assert (await simulate_lens(client, target)).command.title == "▶ Simulate 200 games"
    close_document(client, target)


async def test_clicking_the_running_lens_cancels_it(client, tmp_path):
    (tmp_path / "forever.gdef").write_text(FOREVER, encoding="utf-8")
    target = open_document(client, tmp_path / "forever.gdef")
    await run(client, "gdef.simulate", target)
    (child,) = await until(lambda: simulations(client._server.pid), "gdef-sim started")
    lens = await simulate_lens(client, target)
    await run(client, lens.command.command, target)
    await until(lambda: not alive(child), "gdef-sim killed", 20)
    assert (await simulate_lens(client, target)).command.title == "▶ Simulate 200 games"
    close_document(client, target)


async def test_a_game_with_errors_or_a_lone_library_is_refused_with_the_reason(client, tmp_path):
    target = open_document(client, write_game(tmp_path), ON_DISK.replace("return moveNumber() == 2", "return Blue"))
    with pytest.raises(JsonRpcException, match=r"the rules have 1 error \(first: g.gdef:7: .*Blue.*\): fix them"):
        await run(client, "gdef.simulate", target)
    close_document(client, target)
    (tmp_path / "alone").mkdir()
    (tmp_path / "alone" / "lib.gdef").write_text("define end() -> bool { return true; }\n", encoding="utf-8")
    library = open_document(client, tmp_path / "alone" / "lib.gdef")
    assert not await client.text_document_code_lens_async(types.CodeLensParams(doc(library)))
    with pytest.raises(JsonRpcException, match="lib.gdef belongs to no game"):
        await run(client, "gdef.simulate", library)
    close_document(client, library)


async def test_a_run_stops_at_the_time_limit(hasty, tmp_path):
    (tmp_path / "forever.gdef").write_text(FOREVER, encoding="utf-8")
    target = open_document(hasty, tmp_path / "forever.gdef")
    await run(hasty, "gdef.simulate", target)

    async def stopped():
        return (await simulate_lens(hasty, target)).command.title == "Simulation stopped after 1 s (simulate again)"

    await until(stopped, "the lens says the run was stopped")
    assert not simulations(hasty._server.pid)
    close_document(hasty, target)


async def test_shutdown_kills_the_running_simulation(tmp_path):
    (tmp_path / "forever.gdef").write_text(FOREVER, encoding="utf-8")
    own = make_client()
    await own.start_io(sys.executable, "-m", "gdef_lsp")
    await own.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    target = open_document(own, tmp_path / "forever.gdef")
    await run(own, "gdef.simulate", target)
    (child,) = await until(lambda: simulations(own._server.pid), "gdef-sim started")
    await own.shutdown_async(None)
    await until(lambda: not alive(child), "gdef-sim killed", 20)
    assert own._server.returncode is None  # killed by `shutdown`, before `exit`
    own.exit(None)
    assert await own._server.wait() == 0


def compiled_by(server_pid: int, key: str) -> int | None:
    """The server's child process that compiles the rules of `key` into the native cache,
    once it has taken its building folder."""
    try:
        owner = int((native_cache() / f".building-{key}" / "owner").read_text())
    except (OSError, ValueError):
        return None
    return owner if owner in children(server_pid, b"gdef_core.native.precompile") else None


def native_cache() -> Path:
    """Where the server's compile writes: the product's own cache root, whatever the environment
    says (XDG_CACHE_HOME from conftest.py, or a GDEF_CACHE_DIR an earlier test file set)."""
    from gdef_core.cnative.compiler import cache_root

    return cache_root() / "native"


def module_key(folder: Path, text: str) -> str:
    """The native cache's key of the game `text` (with the library of write_game)."""
    from gdef_core import load_game
    from gdef_core.native.cache import module_key
    from gdef_core.native.codegen import native_source

    folder.mkdir()
    game = load_game(write_game(folder, text))
    return module_key(native_source(game.program, game.max_steps, game.max_depth)[0])


async def test_a_run_on_python_is_followed_by_the_games_native_compile(client, tmp_path):
    need_module("numba", "pip install 'gdef[fast]'")
    # Rules of their own (a compile is per rules, whatever the game's name): player 1 wins.
    text = EDITED.replace("setWinner(onTurn())", "setWinner(1)")
    key = module_key(tmp_path / "copy", text)
    target = open_document(client, write_game(tmp_path), text)
    await run(client, "gdef.simulate", target)
    child = await until(lambda: compiled_by(client._server.pid, key), "the native compile started", 300)
    await until(lambda: not alive(child), "the compile done", 600)
    assert list((native_cache() / key / "__pycache__").glob("*.nbi"))   # the next run loads it
    assert not (native_cache() / f".building-{key}").exists()
    close_document(client, target)


async def test_an_edit_stops_the_native_compile_and_its_files_go(client, tmp_path):
    need_module("numba", "pip install 'gdef[fast]'")
    text = EDITED.replace("setWinner(onTurn())", "setWinner(0)")
    key = module_key(tmp_path / "copy", text)
    target = open_document(client, write_game(tmp_path), text)
    await run(client, "gdef.simulate", target)
    child = await until(lambda: compiled_by(client._server.pid, key), "the native compile took its folder")
    change_document(client, target, 2, " ", (0, 0))
    await until(lambda: not alive(child), "the compile stopped", 20)
    # A child busy in LLVM past the grace period is killed, and the server removes its
    # folder just after reaping it: the folder goes within moments of the child, not with it.
    await until(lambda: not (native_cache() / f".building-{key}").exists(), "the building folder removed", 10)
    assert not (native_cache() / key).exists()
    close_document(client, target)
