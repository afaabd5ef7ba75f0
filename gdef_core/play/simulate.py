"""The simulation engine behind gdef-sim: play many games between agents, count the results.

Reproducibility: every agent of every game gets its own seed derived from (seed, game index,
player) (games.game_seed), so game k is the same game whichever process plays it and however
many processes there are; the totals are sums, so they do not depend on the order games finish in either.
(An mcts agent with a `time=` budget is the exception: how far it searches depends on the
machine.) The native backend adds its games up in the kernel (native_sim.py); the first games
are played in this process, and the rest over `jobs` processes only when that pays
(spread.py).
"""
from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gdef_core.play.games import Failure, GameOutcome, play_or_fail
from gdef_core.play.spec import AgentSpec
from gdef_core.play import spread


class SimulationError(Exception):
    """A game could not go on: a run-time error in the rules, or a player without a legal move."""

    def __init__(self, index: int, seed: int, message: str) -> None:
        super().__init__(f"game {index + 1} (run seed {seed}): {message}")
        self.index = index
        self.message = message


@dataclass(slots=True)
class ErrorGroup:
    """The games of a run that failed with the same error (`message`, located)."""

    message: str
    first: int  # the index of the first of them (the order games finished in)
    games: int = 1


class SimulationInterrupted(Exception):
    """Ctrl-C stopped the run; `summary` holds the games finished before it."""

    def __init__(self, summary: "Summary") -> None:
        super().__init__(f"interrupted after {summary.games} games")
        self.summary = summary


@dataclass(slots=True)
class Summary:
    """The running totals of a simulation; `to_json()` is the --json document."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    capped: int = 0
    total_length: int = 0
    max_length: int = 0
    seconds: float = 0.0
    total_scores: list = field(default_factory=list)
    scored: bool = False  # the game sets scores: the table shows their means
    backend: str = "python"  # the backend that played the games
    # native: how long the rules took to get ready before the games (not in `seconds`), and
    # whether they were compiled in this run (else loaded from numba's cache)
    compile_seconds: float = 0.0
    compiled: bool = False
    processes: int = 1   # the processes that played: 1 when a run was too short to spread
    # games a run-time error stopped (simulate's max_errors): not in `games` nor any count
    # above; `errors` groups the first max_errors distinct errors, `failed` counts every game
    failed: int = 0
    errors: list[ErrorGroup] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.total_scores:
            self.total_scores = [0] * self.players

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        if outcome.capped:
            self.capped += 1
        elif outcome.winner is None:
            self.draws += 1
        else:
            self.wins[outcome.winner] += 1
        self.total_length += outcome.length
        self.max_length = max(self.max_length, outcome.length)
        for player, score in enumerate(outcome.scores):
            self.total_scores[player] += score

    def add_failure(self, failure: Failure, max_errors: int) -> None:
        """A game that failed: grouped with those that failed the same way, while fewer than
        `max_errors` distinct errors are kept (0: every one); else only counted."""
        self.failed += 1
        for group in self.errors:
            if group.message == failure.message:
                group.games += 1
                return
        if max_errors == 0 or len(self.errors) < max_errors:
            self.errors.append(ErrorGroup(failure.message, failure.index))

    @property
    def failed_unshown(self) -> int:
        """Failed games whose error is not among `errors`."""
        return self.failed - sum(group.games for group in self.errors)

    def add_totals(self, totals) -> None:
        """Add a run of games added up elsewhere (native.backend.Totals: the kernel's)."""
        self.games += totals.games
        self.wins = [mine + theirs for mine, theirs in zip(self.wins, totals.wins)]
        self.draws += totals.draws
        self.capped += totals.capped
        self.total_length += totals.total_length
        self.max_length = max(self.max_length, totals.max_length)
        self.total_scores = [mine + theirs for mine, theirs in zip(self.total_scores, totals.total_scores)]

    @property
    def avg_length(self) -> float:
        return self.total_length / self.games if self.games else 0.0

    @property
    def mean_scores(self) -> list[float]:
        """Each player's mean final score (games stopped by the length cap included)."""
        return [total / self.games if self.games else 0.0 for total in self.total_scores]

    def to_json(self) -> dict:
        return {"games": self.games, "wins": list(self.wins), "draws": self.draws,
                "capped": self.capped, "avg_length": self.avg_length,
                "max_length": self.max_length, "mean_scores": self.mean_scores, "seconds": self.seconds,
                "processes": self.processes,
                # named only when not the default, so documents of Python runs keep their shape
                **({"backend": self.backend, "compile_seconds": self.compile_seconds}
                   if self.backend != "python" else {}),
                **({"failed": self.failed, "errors": [{"message": group.message, "first_game": group.first + 1,
                                                       "games": group.games} for group in self.errors]}
                   if self.failed else {})}


ProgressCallback = Callable[[int, int, float], None]   # (games done, games in all, seconds)


def simulate(game, specs: Sequence[AgentSpec], games: int, *, seed: int = 0, jobs: int = 1,
             max_moves: int | None = None, on_progress: ProgressCallback | None = None,
             cluster: str | None = None, backend: str = "python",
             notify: Callable[[str], None] | None = None, max_errors: int | None = None) -> Summary:
    """Play `games` games and return the totals; raises SimulationError when a game fails,
    unless `max_errors` is given: then the run goes on, and the summary counts the failed
    games and keeps their first `max_errors` distinct errors (0: all of them).

    With jobs > 1 the games are spread over that many processes when the run is long enough to
    pay for them (spread.py): with the Python backend each loads the game from its files
    itself (compiled rules do not cross process boundaries), native ones are forked with the
    compiled rules; with `cluster` (an address gdef_core.play.cluster understands) over the
    workers of a Dask cluster.
    `backend`: "native" plays random-vs-random games in compiled code (gdef_core.native),
    "auto" does when numba is installed and the run is long; `summary.backend` says which ran.
    """
    summary = Summary(players=len(specs), scored=game.rules.uses_scores)
    native = None
    if cluster is None:
        from gdef_core.play.native_sim import choose_native
        preparing = time.perf_counter()
        native = choose_native(game, specs, games, backend, notify or (lambda message: None))
        if native is not None:
            summary.compile_seconds, summary.compiled = time.perf_counter() - preparing, native.compiled
    summary.backend = "python" if native is None else "native"
    started = time.perf_counter()

    def spreading() -> None:
        summary.processes = jobs

    if native is not None:
        from gdef_core.play.native_sim import native_outcomes
        outcomes = native_outcomes(native, game, games, seed, max_moves, jobs, spreading)
    elif cluster is not None:
        from gdef_core.play.cluster import cluster_outcomes
        outcomes = cluster_outcomes(cluster, game, specs, games, seed, max_moves)
    else:
        outcomes = _python_outcomes(game, specs, games, seed, max_moves, jobs, spreading)
    try:
        for result in outcomes:
            if isinstance(result, Failure):
                if max_errors is None:
                    raise SimulationError(result.index, seed, result.message)
                summary.add_failure(result, max_errors)
            elif isinstance(result, GameOutcome):
                summary.add(result)
            else:
                summary.add_totals(result)
            summary.seconds = time.perf_counter() - started
            if on_progress is not None:
                on_progress(summary.games + summary.failed, games, summary.seconds)
    except KeyboardInterrupt:
        summary.seconds = time.perf_counter() - started
        raise SimulationInterrupted(summary) from None
    finally:
        outcomes.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _python_outcomes(game, specs, games, seed, max_moves, jobs, spreading):
    """The games' outcomes, played here until the games left, at the rate so far, are worth
    `jobs` processes (spread.py); then the rest over those."""
    started = time.perf_counter()
    for index in range(games):
        yield play_or_fail(game, specs, seed, index, max_moves)
        done = index + 1
        elapsed = time.perf_counter() - started
        rate = done / elapsed if elapsed > 0 else float("inf")
        if elapsed >= spread.PROBE_SECONDS and spread.worth_spreading(games - done, rate, jobs,
                                                                      spread.PYTHON_START_SECONDS):
            spreading()
            yield from _parallel(game, specs, range(done, games), seed, max_moves, jobs)
            return


_worker: dict = {}


def _init_worker(files, params, max_steps, max_depth, specs, seed, max_moves) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C
    from gdef_core.runtime import load_game

    game = load_game(list(files), max_steps=max_steps, max_depth=max_depth, params=params)
    _worker.update(game=game, specs=specs, seed=seed, max_moves=max_moves)


def _work(index: int) -> GameOutcome | Failure:
    return play_or_fail(_worker["game"], _worker["specs"], _worker["seed"], index,
                        _worker["max_moves"])


def _parallel(game, specs, indexes: range, seed, max_moves, jobs):
    # Workers load the game themselves (_init_worker), so nothing needs fork's copy of this
    # process: forkserver forks them from a clean single-threaded process, which a fork of a
    # process with threads (a notebook, a test run, a server) cannot promise (a lock held by
    # another thread stays held in the child forever).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = context.Pool(jobs, _init_worker, (tuple(game.files), dict(game.params), game.max_steps,
                                            game.max_depth, tuple(specs), seed, max_moves))
    try:
        chunk = max(1, min(32, len(indexes) // (jobs * 16)))
        yield from pool.imap_unordered(_work, indexes, chunksize=chunk)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
