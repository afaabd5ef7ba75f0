"""gdef-sim on the native backend: random-vs-random games played in chunks by the compiled
kernel (gdef_core.native), in one process or several.

Game k of a run is the same game whichever process plays it (its moves are drawn from
simulate.game_seed(seed, k, 0)), so the totals do not depend on --jobs. They differ from the
Python backend's for the same seed: the two backends draw their random numbers differently.
"""
from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Sequence

BACKENDS = ("python", "native", "auto")
# `auto` compiles the rules only for runs this long: below it the Python backend is done first.
AUTO_MIN_GAMES = 300
# Games per call of the kernel: progress is reported after each chunk.
CHUNK = 1000


def choose_native(game, specs: Sequence, games: int, backend: str, notify: Callable[[str], None]):
    """The NativeRules to play with, or None for the Python backend (with a one-line notice
    when `native` was asked for and cannot be used)."""
    if backend == "python":
        return None
    if any(spec.name != "random" for spec in specs):
        if backend == "native":
            notify("gdef-sim: the native backend plays random players only: using the Python backend")
        return None
    from gdef_core.native import NativeRules, numba_available

    if backend == "auto" and (games < AUTO_MIN_GAMES or not numba_available()):
        return None
    return NativeRules.load(game, notify)


def native_outcomes(native, game, games: int, seed: int, max_moves, jobs: int, failure):
    """Every game's outcome, or `failure(index, error)` for a game that failed, in chunks."""
    chunks = [(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    if jobs <= 1 or len(chunks) <= 1:
        for start, stop in chunks:
            yield from _chunk(native, start, stop, seed, max_moves, failure)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(jobs, _init_worker, (tuple(game.files), game.max_steps, game.max_depth,
                                            seed, max_moves, failure))
    try:
        for outcomes in pool.imap(_work, chunks):
            yield from outcomes
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _chunk(native, start: int, stop: int, seed: int, max_moves, failure) -> list:
    return [failure(start + k, result) if isinstance(result, BaseException) else result
            for k, result in enumerate(native.play(range(start, stop), seed, max_moves))]


_worker: dict = {}


def _init_worker(files, max_steps, max_depth, seed, max_moves, failure) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C
    from gdef_core.native import NativeRules
    from gdef_core.runtime import load_game

    game = load_game(list(files), max_steps=max_steps, max_depth=max_depth)
    _worker.update(native=NativeRules.load(game, None), seed=seed, max_moves=max_moves, failure=failure)


def _work(bounds: tuple[int, int]) -> list:
    start, stop = bounds
    return _chunk(_worker["native"], start, stop, _worker["seed"], _worker["max_moves"], _worker["failure"])
