"""A native compile never makes a game wait: `auto` playouts are Python's while a child process
compiles the rules into the cache, native once it is there; the child is killed when the game
stops (Ctrl-C too), leaving no files behind. The numba route's (GDEF_NATIVE_ROUTE=numba: the C
route compiles in seconds, in the thread itself: tests/test_cnative.py). Needs numba
(gdef[fast]); compiles tic-tac-toe once."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

from gdef_core import load_game
from gdef_core.play import background_compile
from gdef_core.play.mcts import MctsAgent

from support import EVENT_SECONDS, EXAMPLES, ROOT, ctrl_c_as_at_a_terminal, line_within, need_module, wait_for

need_module("numba", "pip install 'gdef[fast]'")

TICTACTOE = str(EXAMPLES / "tictactoe.gdef")
CHESS = str(EXAMPLES / "chess" / "chess.gdef")


def leftovers(cache) -> list[str]:
    """What a stopped compile could leave: building folders and temporary files."""
    return sorted(str(p.relative_to(cache)) for p in cache.rglob("*")
                  if p.name.startswith(".building-") or p.suffix == ".tmp" or ".tmp" in p.name)


def test_the_compile_runs_in_the_background_and_the_agent_switches_to_it(tmp_path, monkeypatch):
    from gdef_core.native import NativeRules

    cache = tmp_path / "cache"
    monkeypatch.setenv("GDEF_CACHE_DIR", str(cache))
    monkeypatch.setenv("GDEF_NATIVE_ROUTE", "numba")
    game = load_game(TICTACTOE)
    agent = MctsAgent(0, iterations=30, playouts="auto")
    state = game.new_state()
    assert agent.choose(state) in state.legal_moves()
    assert agent.last_engine == "python"   # answered without waiting for the compile
    assert background_compile.state(game) in ("starting", "compiling")
    assert background_compile.rules_when_ready(game, wait=True) is not None
    assert background_compile.state(game) == "ready"
    agent.choose(state)
    assert agent.last_engine == "native"
    # Ready in the middle of a search: asked before each iteration and between the moves of a
    # Python playout, which is dropped when they are (a Python playout of Go 19 x 19 is a second).
    ready, asked = background_compile.rules_when_ready, []
    monkeypatch.setattr(background_compile, "rules_when_ready",
                        lambda game: asked.append(1) or (ready(game) if len(asked) > threshold else None))
    threshold = 12   # tic-tac-toe's playouts from the start: 9 moves at most, asked before each
    agent.choose(state)
    assert agent.last_engine == "python and native" and len(asked) == 13 and agent.last_iterations == 30
    asked.clear()
    threshold = 3    # within the first playout: it is dropped, every counted playout is native
    agent.choose(state)
    assert agent.last_engine == "native" and len(asked) == 4 and agent.last_iterations == 30
    assert leftovers(cache) == []
    assert [p.name for p in (cache / "native").iterdir()] == [p.parent.name for p in
                                                               (cache / "native").glob("*/gdef_rules_*.py")]
    assert NativeRules.load(game, None).compiled is False   # numba's cache holds it: a warm start


STOPPED_WHILE_COMPILING = """
import sys, time
from gdef_core import load_game
from gdef_core.play import background_compile
game = load_game(sys.argv[1])
background_compile.rules_when_ready(game)
while background_compile.state(game) != "compiling":
    time.sleep(0.05)
print("compiling", flush=True)
time.sleep(600)
"""


def test_ctrl_c_stops_the_compile_and_leaves_no_files(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "GDEF_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT), "GDEF_NATIVE_ROUTE": "numba"}
    process = subprocess.Popen([sys.executable, "-c", STOPPED_WHILE_COMPILING, CHESS], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ctrl_c_as_at_a_terminal)
    try:
        assert line_within(process.stdout) == "compiling\n"

        def compiling_child() -> int | None:   # once the child has taken its building folder
            assert process.poll() is None, "the game stopped before its compile started"
            owners = list((cache / "native").glob(".building-*/owner"))
            text = owners[0].read_text() if owners else ""
            return int(text) if text else None

        owner = wait_for(compiling_child, "the compiling child taking its building folder")
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=EVENT_SECONDS)   # sleeps 600 s unless Ctrl-C stops it
    finally:
        process.kill()
    assert "KeyboardInterrupt" in err
    assert leftovers(cache) == [] and list((cache / "native").iterdir()) == []

    def gone() -> bool:   # the child was killed and reaped
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            return True
        return False

    wait_for(gone, f"the end of the compiling child {owner}")
