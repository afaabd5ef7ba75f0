"""Random games on the native backend (gdef_core.native), as the Python backend plays them:
gdef-sim's `--backend native|auto` over one process or several, and mcts's native playouts.

gdef-sim's games are added up inside the kernel (NativeRules.simulate: no Python object per
game); a game it could not finish (a run-time error, a limit, a player without a legal move)
is replayed move by move through the Python backend (NativeRules.recorded_moves), and on from
there with Python random players: the step that failed natively fails there with the located
error (or, when only a native buffer was too small, the game ends normally).

Game k of a run is the same game whichever process plays it (the kernel draws its moves from
games.kernel_seed(seed, k, 0)), so the totals depend neither on --jobs nor on how the games
are cut into kernel calls. They differ from the Python backend's for the same seed: the two
backends draw their random numbers differently.
"""
from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterable, Sequence

from gdef_core.play.agents import RandomAgent
from gdef_core.play.errors import AgentError, NoLegalMoveError
from gdef_core.play.games import GameOutcome, chance_rng, failure, game_seed, kernel_seed, play_on
from gdef_core.play import spread

BACKENDS = ("python", "native", "auto")
# `auto` compiles the rules only for runs this long: below it the Python backend is done first
# (a compile already in the cache is used for any run: loading it takes about a second).
AUTO_MIN_GAMES = 300
# Games of the first kernel call; the later ones are sized from the rate so far to take about
# spread.CALL_SECONDS each (progress is reported after each call).
FIRST_CALL = 16


def choose_native(game, specs: Sequence, games: int, backend: str, notify: Callable[[str], None]):
    """The NativeRules to play with, or None for the Python backend (with a one-line notice
    when `native` was asked for and cannot be used)."""
    if backend == "python":
        return None
    if any(spec.name != "random" for spec in specs):
        if backend == "native":
            notify("gdef-sim: the native backend plays random players only: using the Python backend")
        return None
    from gdef_core.native import NativeRules, native_available
    from gdef_core.native.precompile import cached_source

    if backend == "auto" and (not native_available() or (games < AUTO_MIN_GAMES and cached_source(game) is None)):
        return None
    return NativeRules.load(game, notify, kernel="simulate")


def native_games(native, indexes: Iterable[int], seed: int, max_moves: int | None, state=None) -> list:
    """The outcomes (games.GameOutcome) of random games `indexes` of a run seeded `seed`,
    from `state` (default: the start), one record per game: the same games gdef-sim adds up
    (native_batch), for where each game's record is wanted. The entry of a game that fails is
    the error the Python backend raised there (GdefRuntimeError, IllegalMoveError or
    NoLegalMoveError)."""
    import numpy as np

    from gdef_core.native.backend import CAPPED, ENDED

    indexes = list(indexes)
    start = state if state is not None else native.game.new_state()
    if start.is_over:
        return [GameOutcome(i, start.winner, 0, False, tuple(start.scores)) for i in indexes]
    seeds = [kernel_seed(seed, i, 0) for i in indexes]
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


def replay(native, index: int, moves_seed: int, seed: int, max_moves: int | None, start) -> GameOutcome:
    """Game `index` of a run seeded `seed`, whose moves the kernel drew from `moves_seed`:
    the moves the kernel played, through the Python backend, then on with Python random
    players (seeded as game `index` of the run) to the end."""
    state = start.clone()
    moves = native.recorded_moves(moves_seed, start, max_moves)
    for move in moves:
        state.apply(move)
    agents = [RandomAgent(game_seed(seed, index, p)) for p in range(native.game.players)]
    return play_on(state, agents, index, len(moves), max_moves, chance_rng(seed, index))


def _replayed(native, index: int, moves_seed: int, seed: int, max_moves, start):
    """replay()'s outcome, or the error that stopped the game."""
    from gdef_core.runtime import GdefRuntimeError, IllegalMoveError

    try:
        return replay(native, index, moves_seed, seed, max_moves, start)
    except (GdefRuntimeError, AgentError, IllegalMoveError) as error:
        return error


def native_outcomes(native, game, games: int, seed: int, max_moves, jobs: int,
                    spreading: Callable[[], None] = lambda: None):
    """Totals (backend.Totals) of runs of games, and the outcome or games.Failure of each game
    the kernel left to the Python backend, in kernel calls. The first calls are played here;
    the rest goes to `jobs` processes only when it would take long enough here to pay for
    starting them (spread.worth_spreading; then it calls `spreading`)."""
    start = game.new_state()
    done, size, started = 0, FIRST_CALL, time.perf_counter()
    while done < games:
        stop = min(games, done + size)
        yield from native_batch(native, start, done, stop, seed, max_moves)
        done = stop
        elapsed = time.perf_counter() - started
        rate = done / elapsed if elapsed > 0 else float("inf")
        if elapsed >= spread.PROBE_SECONDS and spread.worth_spreading(games - done, rate, jobs,
                                                                      spread.NATIVE_START_SECONDS):
            spreading()
            yield from _spread(native, game, done, games, seed, max_moves, jobs, rate)
            return
        size = max(1, min(games, int(rate * spread.CALL_SECONDS)))


def native_batch(native, start, first: int, stop: int, seed: int, max_moves) -> list:
    """Games first .. stop - 1 from `start`: their Totals, then the outcome (or games.Failure)
    of each game the kernel left to the Python backend, in order."""
    from gdef_core.native.backend import Totals

    if start.is_over:   # every game is over before its first move
        n, winner = stop - first, start.winner
        wins = [n if p == winner else 0 for p in range(native.game.players)]
        return [Totals(n, wins, 0 if winner is not None else n, 0, 0, 0,
                       [score * n for score in start.scores], [])]
    totals = native.simulate(seed, first, stop, start, max_moves)
    left = []
    for index in totals.left:
        result = _replayed(native, index, kernel_seed(seed, index, 0), seed, max_moves, start)
        left.append(failure(index, result) if isinstance(result, BaseException) else result)
    return [totals, *left]


def _spread(native, game, first: int, games: int, seed: int, max_moves, jobs: int, rate: float):
    """native_batch over games first .. games - 1 in `jobs` processes, in order. Forked
    workers inherit the loaded rules (no second load); spawned ones load them from the cache."""
    import multiprocessing   # here: mcts imports this module for its playouts alone

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    _worker.update(native=native, start=game.new_state(), seed=seed, max_moves=max_moves)
    try:
        pool = context.Pool(jobs, _init_worker, (tuple(game.files), dict(game.params), game.max_steps,
                                                game.max_depth, seed, max_moves))
    finally:
        _worker.clear()   # the parent keeps nothing of the run once the workers have it
    try:
        for results in pool.imap(_work, spread.calls(first, games, jobs, rate)):
            yield from results
        pool.close()
    finally:
        pool.terminate()
        pool.join()


_worker: dict = {}


def _init_worker(files, params, max_steps, max_depth, seed, max_moves) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C
    # A forked worker inherits the parent's handlers: gdef-run's SIGTERM/SIGHUP raise to save a
    # game (controller/play_session.py), which kept a worker alive through Pool.terminate() and
    # hung its join (a clean-clone CI run after an in-process gdef-run test). Terminated means gone.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if "native" in _worker:   # forked: the parent's rules
        return
    from gdef_core.native import NativeRules
    from gdef_core.runtime import load_game

    game = load_game(list(files), max_steps=max_steps, max_depth=max_depth, params=params)
    _worker.update(native=NativeRules.load(game, None, kernel="simulate"), start=game.new_state(),
                   seed=seed, max_moves=max_moves)


def _work(bounds: tuple[int, int]) -> list:
    first, stop = bounds
    return native_batch(_worker["native"], _worker["start"], first, stop, _worker["seed"],
                        _worker["max_moves"])
