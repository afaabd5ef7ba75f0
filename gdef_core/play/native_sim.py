"""Random games on the native backend (gdef_core.native), as the Python backend plays them:
gdef-sim's `--backend native|auto` in chunks over one process or several, and mcts's native
playouts.

The kernel plays; what becomes of a game is decided here. A game the kernel ended or capped
is an outcome; a game that stopped on a run-time error, a limit, or a player without a legal
move is replayed move by move through the Python backend (NativeRules.recorded_moves), and on
from there with Python random players: the step that failed natively fails there with the
located error (or, when only a native buffer was too small, the game ends normally).

Game k of a run is the same game whichever process plays it (its moves are drawn from
games.game_seed(seed, k, 0)), so the totals do not depend on --jobs. They differ from the
Python backend's for the same seed: the two backends draw their random numbers differently.
"""
from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Sequence

from gdef_core.play.agents import RandomAgent
from gdef_core.play.errors import AgentError, NoLegalMoveError
from gdef_core.play.games import GameOutcome, failure, game_seed, play_on

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


def native_games(native, indexes: Iterable[int], seed: int, max_moves: int | None, state=None) -> list:
    """The outcomes (games.GameOutcome) of random games `indexes` of a run seeded `seed`,
    from `state` (default: the start). The entry of a game that fails is the error the Python
    backend raised there (GdefRuntimeError, IllegalMoveError or NoLegalMoveError)."""
    import numpy as np

    from gdef_core.native.backend import CAPPED, ENDED

    indexes = list(indexes)
    start = state if state is not None else native.game.new_state()
    if start.is_over:
        return [GameOutcome(i, start.winner, 0, False, tuple(start.scores)) for i in indexes]
    seeds = [game_seed(seed, i, 0) for i in indexes]
    winners, lengths, status, scores = native.playouts(np.array(seeds, dtype=np.uint64), start, max_moves)
    outcomes = []
    for k, index in enumerate(indexes):
        stopped = int(status[k])
        if stopped in (ENDED, CAPPED):
            winner = int(winners[k])
            outcomes.append(GameOutcome(index, winner if winner >= 0 and stopped == ENDED else None,
                                        int(lengths[k]), stopped == CAPPED, native.scores(scores[k])))
        else:
            outcomes.append(_replayed(native, index, seeds[k], seed, max_moves, start))
    return outcomes


def native_playout(native, state, seed: int, max_moves: int | None) -> int | None:
    """The winner of one random game from `state`, its moves drawn from the 64-bit `seed`
    (mcts's playouts); None for a draw, the `max_moves` cap or a player without a legal
    move, as in mcts's Python playouts. A game that stops on a run-time error or a limit is
    replayed through the Python backend, which raises the located error."""
    from gdef_core.native.backend import ENDED, FAILED

    if state.is_over:
        return state.winner
    stopped, winner = native.playout(state, seed, max_moves)
    if stopped == ENDED:
        return winner if winner >= 0 else None
    if stopped != FAILED:
        return None
    try:
        return replay(native, 0, seed, seed, max_moves, state).winner
    except NoLegalMoveError:
        return None


def replay(native, index: int, kernel_seed: int, seed: int, max_moves: int | None, start) -> GameOutcome:
    """Game `index` of a run seeded `seed`, whose moves the kernel drew from `kernel_seed`:
    the moves the kernel played, through the Python backend, then on with Python random
    players (seeded as game `index` of the run) to the end."""
    state = start.clone()
    moves = native.recorded_moves(kernel_seed, start, max_moves)
    for move in moves:
        state.apply(move)
    agents = [RandomAgent(game_seed(seed, index, p)) for p in range(native.game.players)]
    return play_on(state, agents, index, len(moves), max_moves)


def _replayed(native, index: int, kernel_seed: int, seed: int, max_moves, start):
    """replay()'s outcome, or the error that stopped the game."""
    from gdef_core.runtime import GdefRuntimeError, IllegalMoveError

    try:
        return replay(native, index, kernel_seed, seed, max_moves, start)
    except (GdefRuntimeError, AgentError, IllegalMoveError) as error:
        return error


def native_outcomes(native, game, games: int, seed: int, max_moves, jobs: int):
    """Every game's outcome, or the games.Failure of a game that failed, in chunks."""
    import multiprocessing   # here: mcts imports this module for its playouts alone

    chunks = [(start, min(start + CHUNK, games)) for start in range(0, games, CHUNK)]
    if jobs <= 1 or len(chunks) <= 1:
        for start, stop in chunks:
            yield from _chunk(native, start, stop, seed, max_moves)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(jobs, _init_worker, (tuple(game.files), dict(game.params), game.max_steps,
                                            game.max_depth, seed, max_moves))
    try:
        for outcomes in pool.imap(_work, chunks):
            yield from outcomes
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _chunk(native, start: int, stop: int, seed: int, max_moves) -> list:
    return [failure(start + k, result) if isinstance(result, BaseException) else result
            for k, result in enumerate(native_games(native, range(start, stop), seed, max_moves))]


_worker: dict = {}


def _init_worker(files, params, max_steps, max_depth, seed, max_moves) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C
    from gdef_core.native import NativeRules
    from gdef_core.runtime import load_game

    game = load_game(list(files), max_steps=max_steps, max_depth=max_depth, params=params)
    _worker.update(native=NativeRules.load(game, None), seed=seed, max_moves=max_moves)


def _work(bounds: tuple[int, int]) -> list:
    start, stop = bounds
    return _chunk(_worker["native"], start, stop, _worker["seed"], _worker["max_moves"])
