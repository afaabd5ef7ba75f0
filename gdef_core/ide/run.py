"""The command line that runs a game, for an editor to start in a terminal.

It is an argv list, never a shell string: a path with spaces, quotes or `$(...)` stays one
argument. The language server only returns it; it never runs a game itself.
"""
from __future__ import annotations

import os
import sys

from gdef_core.ide.analysis import Analysis
from gdef_core.ide.rename import Refusal

RUNNER_MODULE = "gdef_core.cli.run"


def run_argv(analyses: list[Analysis], path: str) -> list[str] | Refusal:
    """`[python, -m, gdef_core.cli.run, game files...]` for the (first) game containing
    `path`; the runner follows `use` lines itself."""
    files = _game_files(analyses, path)
    if isinstance(files, Refusal):
        return files
    return [sys.executable, "-m", RUNNER_MODULE, *files]


def debug_configuration(analyses: list[Analysis], path: str) -> dict | Refusal:
    """The launch configuration of a debug session (gdef-dap, docs/debugging.md) of the game
    containing `path`: no move script, so the moves are typed in the debug console."""
    files = _game_files(analyses, path)
    if isinstance(files, Refusal):
        return files
    return {"type": "gdef", "request": "launch", "name": f"Debug {os.path.basename(files[0])}",
            "program": files[0] if len(files) == 1 else files}


def _game_files(analyses: list[Analysis], path: str) -> list[str] | Refusal:
    games = [a for a in analyses if not a.program.is_library and a.program.modules]
    if not games:
        return Refusal(f"{os.path.basename(path)} declares no game (no `players:` or `size:`) and no game in "
                       "its folder uses it: there is nothing to run")
    return [os.path.abspath(p) for p in games[0].entry]


def declares_game(analysis: Analysis, path: str) -> bool:
    """Whether `path` itself is a game's main file (where the "Run game" lens goes)."""
    module = analysis.module(path)
    return module is not None and not module.is_library
