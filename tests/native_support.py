"""What the native backend's tests share (tests/test_native*.py)."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import numpy as np
import pytest

from gdef_core.native import NativeRules
from gdef_core.play.games import kernel_seed
from gdef_core.play.native_sim import native_games
from gdef_core.runtime import load_game
from gdef_core.runtime.errors import GdefRuntimeError


# The native backend's routes (native/backend.py: ROUTES): C through the system compiler, numba.
ROUTES = ("c", "numba")


@contextmanager
def use_route(route: str):
    """GDEF_NATIVE_ROUTE set to `route` (inherited by worker processes); a route that cannot
    run here is skipped, saying what it needs."""
    from support import missing, need_module

    if route == "numba":
        need_module("numba", "pip install -e '.[fast]'")
    elif not any(shutil.which(name) for name in (os.environ.get("CC") or "cc", "gcc", "clang")):
        missing("no C compiler (cc, gcc or clang) for the native backend's C route")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_NATIVE_ROUTE", route)
        yield


@pytest.fixture(params=ROUTES, ids=[f"route_{route}" for route in ROUTES], autouse=True)
def every_route(request, cache_dir):
    """Each test of a module that imports this fixture, once per route (`route_c`,
    `route_numba`), with the session's native cache."""
    with use_route(request.param):
        yield request.param


@pytest.fixture
def c_route(tmp_path, monkeypatch):
    """The C route, with a cache folder of each test's own (compiling C takes a second; the
    session's shared cache is test_native.py's, whose tests expect to compile first); a module
    asks it for every test with `pytestmark = pytest.mark.usefixtures("c_route")`."""
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("c"):
        yield tmp_path / "cache"


def compile_rules(directory, name: str, text: str, **limits):
    """(game, native rules) of the gdef `text`, written to `directory`/`name`.gdef and loaded
    with `limits` (max_steps, max_depth); fails the test when the native backend does not
    compile it."""
    path = directory / f"{name}.gdef"
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path), **limits)
    said: list[str] = []
    native = NativeRules.load(game, said.append)
    assert native is not None, said
    return game, native


def kernel_perft(native, state, depth: int) -> list[int]:
    """native.perft() without its fallback to the Python backend (which would hide a kernel
    that fails)."""
    counts = np.zeros(depth, np.int64)
    board, V, VF, SC = native.arrays(state)
    native.module.perft(board, state.player, state.move_number, V, VF, SC, depth, counts,
                        native.history_rows(state), native._hs, state.is_chance_node)
    return [int(c) for c in counts]


def replay_native_games(game, native, start, count: int, seed: int = 3) -> list:
    """Native random games from `start`, each ended by the kernel itself (not by the failure
    path, which would hide a difference) and replayed through the Python backend: legal at
    every step, with the same end, winner and scores. -> the outcomes."""
    outcomes = native_games(native, range(count), seed, None, start)
    seeds = np.array([kernel_seed(seed, index, 0) for index in range(count)], dtype=np.uint64)
    status = native.playouts(seeds, start, None).status
    assert list(status) == [0] * count   # ended in the kernel, none replayed in Python
    for index, outcome in enumerate(outcomes):
        assert not isinstance(outcome, Exception), outcome
        recorded = native.recorded_moves(kernel_seed(seed, index, 0), start, None)
        assert len(recorded) == outcome.length > 0
        state = start.clone()
        for k, move in enumerate(recorded):
            assert not state.is_over
            assert state.check(move).legal, (index, k, str(move))
            assert move in state.legal_moves()
            state.apply(move)
        assert state.is_over and not outcome.capped
        assert (state.winner, tuple(state.scores)) == (outcome.winner, outcome.scores), index
    return outcomes


def python_budget(path, listing: str = "legal_moves", high: int = 200_000) -> int:
    """The fewest steps with which the Python backend lists the start position's moves
    (`listing`: `legal_moves` or `candidate_moves`, a State method); fails at 1, lists at
    `high`. A native budget test runs at it and one step below."""
    low = 0
    assert getattr(load_game(str(path), max_steps=high).new_state(), listing)()
    while high - low > 1:
        middle = (low + high) // 2
        try:
            getattr(load_game(str(path), max_steps=middle).new_state(), listing)()
            high = middle
        except GdefRuntimeError:
            low = middle
    return high
