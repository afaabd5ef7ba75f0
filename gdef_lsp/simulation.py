"""The "Simulate 200 games" code lens: gdef-sim runs in a child process, in the background,
and the lens shows the win shares when it is done.

Everything runs on the server's event loop (no threads): the child is an asyncio
subprocess, awaited by one task per game. A run is bounded by a time limit, and killed when
the user cancels it (clicking the lens while it runs), edits any file of the game (its
result would be stale), or the server shuts down. When a run ends the server asks the
client to ask for code lenses again (workspace/codeLens/refresh), if it can.

A run played on the Python backend (the game's native compile is not cached yet) is followed
by that compile, in a child of its own (gdef_core.ide.simulation.compile_argv), so that the
next run is native; nobody waits for it. It is bounded by a time limit and stopped (SIGTERM:
it removes its half-built files) by an edit of the game or shutdown, not by a new run.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

from lsprotocol import types

from gdef_core.ide import simulation
from gdef_lsp.replies import refresh_code_lenses, refuse

log = logging.getLogger("gdef_lsp")

SIMULATE_COMMAND = "gdef.simulate"
CANCEL_COMMAND = "gdef.cancelSimulation"
DEFAULT_TIMEOUT = 120.0  # seconds; initializationOptions.simulationTimeout
COMPILE_TIMEOUT = 900.0  # seconds: a native compile taking longer is stopped
UNCOMPILABLE = 4         # the compile child's exit code for a game it cannot compile natively


@dataclass(eq=False)
class Run:
    files: frozenset[str]  # every file of the game: an edit of any of them ends the run
    task: asyncio.Task | None = None
    process: asyncio.subprocess.Process | None = None
    title: str | None = None  # the result, once finished


@dataclass(eq=False)
class Compile:
    files: frozenset[str]
    task: asyncio.Task | None = None
    process: asyncio.subprocess.Process | None = None


@dataclass
class Simulations:
    """The runs, one per game (keyed by the game's main files), and the native compiles that
    follow runs on Python (kept after the child ends only for a game it cannot compile, so
    that it is not tried again until an edit)."""

    timeout: float = DEFAULT_TIMEOUT
    runs: dict[tuple[str, ...], Run] = field(default_factory=dict)
    compiles: dict[tuple[str, ...], Compile] = field(default_factory=dict)

    def configure(self, options: object) -> None:
        value = options.get("simulationTimeout") if isinstance(options, dict) else None
        if isinstance(value, (int, float)) and 0 < value <= 3600:
            self.timeout = float(value)

    def lenses(self, ls, path: str) -> list[types.CodeLens]:
        """The lens above `end()` in `path`, for the first game containing it."""
        game = _game(ls, path)
        module = game.module(path) if game else None
        end = simulation.end_function(module) if module else None
        if end is None:
            return []
        uri = ls.uri_of(path)
        run = self.runs.get(game.entry)
        if run is None:
            command = types.Command(f"▶ Simulate {simulation.GAMES} games", SIMULATE_COMMAND, arguments=[uri])
        elif run.title is None:
            command = types.Command(f"⏳ Simulating {simulation.GAMES} games… (click to cancel)", CANCEL_COMMAND,
                                    arguments=[uri])
        else:
            command = types.Command(f"{run.title} (simulate again)", SIMULATE_COMMAND, arguments=[uri])
        return [types.CodeLens(ls.index(path).range(end.name.span), command)]

    def start(self, ls, uri: object) -> None:
        path = _path_argument(ls, uri, SIMULATE_COMMAND)
        game = _game(ls, path)
        if game is None:
            raise refuse(f"{os.path.basename(path)} belongs to no game: there is nothing to simulate")
        errors = game.program.errors
        if errors:
            first = errors[0]
            raise refuse(f"the rules have {len(errors)} error{'s' if len(errors) > 1 else ''} "
                          f"(first: {os.path.basename(first.span.file)}:{first.span.line + 1}: {first.message}): "
                          "fix them before simulating")
        self._stop(game.entry)
        sources = {f: ls.session.source(f) or "" for f in game.files}
        run = self.runs[game.entry] = Run(frozenset(game.files))
        run.task = asyncio.get_running_loop().create_task(self._play(ls, game.entry, run, sources))
        refresh_code_lenses(ls)

    def cancel(self, ls, uri: object) -> None:
        game = _game(ls, _path_argument(ls, uri, CANCEL_COMMAND))
        if game is not None and self._stop(game.entry):
            refresh_code_lenses(ls)

    def edited(self, ls, path: str) -> None:
        """`path` changed: every run, result or compile of a game that reads it is dropped."""
        stale = [key for key, run in self.runs.items() if path in run.files]
        for key in stale:
            self._stop(key)
        for key in [key for key, job in self.compiles.items() if path in job.files]:
            self._stop_compile(key)
        if stale:
            refresh_code_lenses(ls)

    def stop_all(self) -> None:
        for key in list(self.runs):
            self._stop(key)
        for key in list(self.compiles):
            self._stop_compile(key)

    def _stop_compile(self, key: tuple[str, ...]) -> None:
        job = self.compiles.pop(key, None)
        if job is None:
            return
        if job.process is not None and job.process.returncode is None:
            job.process.terminate()   # now: it removes its half-built files and exits
        if job.task is not None:
            job.task.cancel()

    def _stop(self, key: tuple[str, ...]) -> bool:
        run = self.runs.pop(key, None)
        if run is None:
            return False
        if run.process is not None and run.process.returncode is None:
            run.process.kill()  # now, not when the task next runs: shutdown may not wait
        if run.task is not None:
            run.task.cancel()
        return True

    async def _play(self, ls, key: tuple[str, ...], run: Run, sources: dict[str, str]) -> None:
        folder = tempfile.mkdtemp(prefix="gdef-sim-")
        try:
            copies, _ = simulation.write_snapshot(sources, folder)
            out = os.path.join(folder, "results.json")
            run.process = await asyncio.create_subprocess_exec(
                *simulation.simulation_argv([copies[f] for f in key], out), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                _, stderr = await asyncio.wait_for(run.process.communicate(), self.timeout)
            except asyncio.TimeoutError:
                run.process.kill()
                await run.process.wait()
                run.title = f"Simulation stopped after {self.timeout:g} s"
            else:
                if run.process.returncode == 0:
                    with open(out, encoding="utf-8") as results:
                        summary = json.load(results)
                    run.title = simulation.shares_title(summary)
                    if not simulation.ran_native(summary) and key not in self.compiles:
                        self._start_compile(key, run.files, sources)
                else:
                    run.title = simulation.failure_title(stderr.decode("utf-8", "replace"), folder)
        except asyncio.CancelledError:
            if run.process is not None and run.process.returncode is None:
                run.process.kill()
            raise
        except (OSError, ValueError, KeyError) as error:  # could not start it, or no readable results
            run.title = f"Simulation failed: {error}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if self.runs.get(key) is run:
            refresh_code_lenses(ls)


    def _start_compile(self, key: tuple[str, ...], files: frozenset[str], sources: dict[str, str]) -> None:
        job = self.compiles[key] = Compile(files)
        job.task = asyncio.get_running_loop().create_task(self._compile(key, job, sources))

    async def _compile(self, key: tuple[str, ...], job: Compile, sources: dict[str, str]) -> None:
        """The game's native compile into the cache, from a snapshot of its texts."""
        folder = tempfile.mkdtemp(prefix="gdef-compile-")
        code = None
        try:
            copies, _ = simulation.write_snapshot(sources, folder)
            job.process = await asyncio.create_subprocess_exec(
                *simulation.compile_argv([copies[f] for f in key]), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                code = await asyncio.wait_for(job.process.wait(), COMPILE_TIMEOUT)
            except asyncio.TimeoutError:
                job.process.terminate()
                await job.process.wait()
        except asyncio.CancelledError:
            if job.process is not None and job.process.returncode is None:
                job.process.terminate()
            raise
        except OSError as error:
            log.warning("the native compile of %s could not start: %s", key[0], error)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if self.compiles.get(key) is job and code != UNCOMPILABLE:
            del self.compiles[key]


def _game(ls, path: str):
    """The analysis of the first game (not a lone library) that contains `path`."""
    return next((a for a in ls.session.analyses(path) if not a.program.is_library and a.program.modules), None)


def _path_argument(ls, uri: object, command: str) -> str:
    if not isinstance(uri, str):
        raise refuse(f"{command} takes one argument: the URI of a .gdef file")
    return ls.path_of(uri)


def simulate(ls, uri=None) -> None:
    """`gdef.simulate URI`: start simulating the game of URI (answers at once)."""
    ls.simulations.start(ls, uri)


def cancel_simulation(ls, uri=None) -> None:
    """`gdef.cancelSimulation URI`: stop it."""
    ls.simulations.cancel(ls, uri)


def register(server) -> None:
    """The two commands; the lenses come from the server's one code lens handler."""
    server.command(SIMULATE_COMMAND)(simulate)
    server.command(CANCEL_COMMAND)(cancel_simulation)
