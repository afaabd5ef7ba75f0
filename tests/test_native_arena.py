"""The C route's arena of local arrays (arrays of a computed size, or made in a recursion) is
reached through the call's Ctx (its base and top), not through a thread-local variable: in a
shared library each thread-local access is a call into the loader (__tls_get_addr), which
G_MARK()/G_RELEASE() paid once per judgement. Only the first array of a thread reaches its
thread-local arena (g_arena_base).
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative.emit import c_source  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games  # noqa: E402, F401 (c_route: a fixture)


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


# Each judgement makes an array of a computed size (the arena's), as do moves() and end().
ROW = """name: row
players: 2
size: 6 x 1
obj X

define isMoveLegal() -> bool {
  int seen[moveNumber() + 2] = 0;
  seen[moveNumber() + 1] = 1;
  return isGenerated() && seen[moveNumber() + 1] == 1;
}

define moves() {
  int free[6 - moveNumber()] = 0;
  int n = 0;
  for (int x = 0; x < 6; x = x + 1) {
    if (CurrentPosition[x][0] == empty) { free[n] = x; n = n + 1; }
  }
  for (int k = 0; k < n; k = k + 1) { addPlace(free[k], 0, X); addMove(); }
}

define end() -> bool {
  int marks[moveNumber() + 1] = 0;
  if (moveNumber() >= 4) {
    setWinner(moveNumber() % 2 + marks[0]);
    return true;
  }
  return false;
}
"""


def loader_calls(library) -> dict[str, int]:
    """The calls to __tls_get_addr in the library's code, by the function that makes them."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(library)], check=True,
                             capture_output=True, text=True).stdout
    calls: dict[str, int] = {}
    function = None
    for line in listing.splitlines():
        label = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if label:
            function = label.group(1)
        elif "call" in line and "__tls_get_addr" in line:
            calls[function] = calls.get(function, 0) + 1
    return calls


@pytest.mark.skipif(shutil.which("objdump") is None, reason="needs objdump (binutils)")
def test_judging_with_arena_arrays_calls_no_loader(tmp_path):
    game, native = compile_rules(tmp_path, "row", ROW)
    text = c_source(game.program, game.max_steps, game.max_depth).text
    assert "#define ARRAYS 1\n" in text and text.count("g_alloc(c") == 3
    calls = loader_calls(native.module.path)
    assert set(calls) <= {"g_arena_base"} and sum(calls.values()) <= 1, calls


def test_games_with_arena_arrays_match_the_python_backend(tmp_path):
    game, native = compile_rules(tmp_path, "row", ROW)
    replay_native_games(game, native, game.new_state(), 8, seed=3)
    state = game.new_state()
    assert len(native.legal_moves(state)) == 6 == len(state.legal_moves())
