"""gdef-sim on a Dask cluster: `--cluster dask://HOST:PORT` or `--cluster local:N`.

The work is split into batches of consecutive game indexes; each batch is one Dask task that
plays its games and returns their outcomes. Game k is seeded from (run seed, k) exactly as on
one machine (gdef_core.play.games.game_seed), so the table is the same as `--jobs 1` for the
same seed, whichever worker plays which batch. The workers need gdef installed but not the game
files: the task carries the files' text, and each worker compiles the rules once per game.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import itertools
import logging
import os
import tempfile
import re
from collections.abc import Iterator, Sequence

_ADDRESS = re.compile(r"^(?:dask|tcp)://(?P<host>[^\s:/]+|\[[0-9a-fA-F:]+\]):(?P<port>\d{1,5})$")
_LOCAL = re.compile(r"^local:(?P<workers>\d{1,4})$")
BATCHES_PER_WORKER = 8
MAX_BATCH = 256
IN_FLIGHT_PER_WORKER = 3
QUIET = logging.CRITICAL + 10   # above Dask's own "critical" lines about comms closed on Ctrl-C


class ClusterError(Exception):
    """The cluster cannot be used: a bad address, Dask missing, or nobody listening."""


def check_address(text: str) -> str:
    """The address as given when it is one gdef-sim understands; ClusterError otherwise."""
    local = _LOCAL.match(text)
    if local:
        if not 1 <= int(local["workers"]) <= 1024:
            raise ClusterError(f"{text}: local:N takes 1 to 1024 workers")
        return text
    remote = _ADDRESS.match(text)
    if remote and 0 < int(remote["port"]) < 65536:
        return text
    raise ClusterError(f"{text!r}: write dask://HOST:PORT (a running dask scheduler) or local:N "
                       "(a cluster of N worker processes on this machine)")


def cluster_outcomes(address: str, game, specs: Sequence, games: int, seed: int,
                     max_moves: int | None) -> Iterator:
    """The outcomes of games 0..games-1, in the order batches finish; closes what it opened."""
    try:
        import dask
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterError("--cluster needs Dask: pip install 'gdef[cluster]'") from None
    sources = {os.path.abspath(path): _read(path) for path in _all_files(game)}
    key = hashlib.sha256(repr((sorted(sources.items()), sorted(game.params.items()))).encode()).hexdigest()
    local = _LOCAL.match(address)
    _quiet_dask()
    with contextlib.ExitStack() as stack:  # closed in reverse: client, cluster, config, scratch
        if local:
            # the workers' scratch and lock files go to a folder removed with the cluster (dask's
            # own, dask-scratch-space in the temporary folder, stays behind)
            scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="gdef-dask-",
                                                                      ignore_cleanup_errors=True))
            stack.enter_context(dask.config.set({"temporary-directory": scratch}))
        try:
            if local:
                cluster = stack.enter_context(LocalCluster(
                    n_workers=int(local["workers"]), threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=QUIET))  # see _quiet_dask
                client = stack.enter_context(Client(cluster))
            else:
                client = stack.enter_context(Client("tcp://" + address.split("://", 1)[1], timeout="10s"))
        except OSError as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = max(1, min(MAX_BATCH, games // (workers * BATCHES_PER_WORKER)))
        batches = [range(start, min(games, start + size)) for start in range(0, games, size)]
        job = (key, sources, list(game.files), dict(game.params), game.max_steps, game.max_depth,
               tuple(specs), seed, max_moves)
        waiting = iter(batches)

        def submit(batch: range):
            return client.submit(_play_batch, job, batch.start, batch.stop, pure=False)

        # a few batches per worker in flight, the next submitted as one finishes: a long run
        # never floods the scheduler with its tasks, and Ctrl-C has only those few to cancel
        running = as_completed([submit(batch) for batch in
                                itertools.islice(waiting, workers * IN_FLIGHT_PER_WORKER)])
        finished = 0
        try:
            for future in running:
                outcomes = future.result()
                following = next(waiting, None)
                if following is not None:
                    running.add(submit(following))
                finished += len(outcomes)
                yield from outcomes
        except (concurrent.futures.CancelledError, OSError, TimeoutError) as error:
            # the scheduler or a worker went away (a lost connection cancels every future)
            raise ClusterError(f"the Dask cluster at {address} stopped before the run ended, after "
                               f"{finished:,} of {games:,} games ({_reason(error)}): check the "
                               "scheduler and workers, then run again") from None


def _reason(error: Exception) -> str:
    """Dask's words for a lost cluster, without the task names it adds."""
    text = str(error)
    return text.split("cancelled for reason: ", 1)[1].rstrip(".") if "cancelled for reason: " in text \
        else f"{type(error).__name__}: {text}" if text else type(error).__name__


def _quiet_dask() -> None:
    """Dask's own log lines (tracebacks of comms closed on Ctrl-C, cancelled tasks) are not for
    gdef-sim's users: errors that matter reach us as exceptions and are reported in one line."""
    logging.getLogger("distributed").setLevel(QUIET)
    for name in list(logging.Logger.manager.loggerDict):  # dask's config gives some their own level
        if name.startswith(("distributed.", "tornado")):
            logging.getLogger(name).setLevel(QUIET)


def _all_files(game) -> list[str]:
    return [module.path for module in game.program.modules]


def _read(path: str) -> str:
    from gdef_core.files import read_bytes

    return read_bytes(path).decode("utf-8", errors="replace")


_GAMES: dict[str, object] = {}


def _play_batch(job, start: int, stop: int) -> list:
    """On a worker: play games start..stop-1 (the game compiled once per worker process)."""
    from gdef_core.loader import load_program
    from gdef_core.play.games import play_or_fail
    from gdef_core.runtime import game_from_program

    key, sources, files, params, max_steps, max_depth, specs, seed, max_moves = job
    game = _GAMES.get(key)
    if game is None:
        program = load_program([os.path.abspath(f) for f in files], overlay=sources, params=params)
        game = _GAMES[key] = game_from_program(program, max_steps=max_steps, max_depth=max_depth)
    return [play_or_fail(game, specs, seed, index, max_moves) for index in range(start, stop)]
