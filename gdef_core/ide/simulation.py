"""What the "Simulate 200 games" code lens needs that is not LSP: the gdef-sim command line,
the command line of the native compile it may start after a run, a snapshot of the game's
current texts for them to read, and the lens titles.

The editor's buffers may be unsaved, so the simulation reads a copy of every file of the
game as the editor has it, laid out as on disk so that `use` paths still resolve.

gdef-sim runs with `--backend auto`: native playouts when numba is installed and the game's
compile is in the cache, else Python. The compile itself never makes the editor wait: after a
run on Python the server compiles the game into the cache in a child process of its own
(gdef_core/native/precompile.py), so that the next run is native.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from gdef_core.syntax import ast

GAMES = 200
# gdef-sim's own entry point (gdef_core.cli.sim has no `__main__` guard).
_SIM = "import sys; from gdef_core.cli.sim import main; sys.exit(main(sys.argv[1:]))"


def end_function(module: ast.Module) -> ast.FunctionDef | None:
    """The `end()` definition the lens sits above."""
    return next((f for f in module.functions() if f.name.text == "end"), None)


def simulation_argv(entry: Sequence[str], json_out: str, games: int = GAMES) -> list[str]:
    """gdef-sim on `entry` (the game's main files): `games` games between random players,
    seed 0, native when the compile is cached, results as JSON in `json_out`, no progress
    output."""
    return [sys.executable, "-c", _SIM, *entry, "--games", str(games), "--seed", "0",
            "--backend", "auto", "--json", json_out, "--no-progress"]


def compile_argv(entry: Sequence[str]) -> list[str]:
    """The child that compiles the game of `entry` into the native cache (exit 0 when it is
    there, 3 when another process compiles it, 4 when it cannot be compiled natively)."""
    return [sys.executable, "-m", "gdef_core.native.precompile", *entry]


def ran_native(summary: Mapping) -> bool:
    """Whether gdef-sim's JSON says the games ran on the native backend."""
    return summary.get("backend") == "native"


def write_snapshot(sources: Mapping[str, str], folder: str) -> tuple[dict[str, str], str]:
    """Writes each (absolute path -> text) under `folder`, keeping their layout relative to
    the folder that holds them all. Returns (original path -> copy, that common folder)."""
    root = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in sources])
    copies = {}
    for path, text in sources.items():
        copy = os.path.join(folder, os.path.relpath(os.path.abspath(path), root))
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with open(copy, "w", encoding="utf-8", newline="", errors="surrogatepass") as out:
            out.write(text)
        copies[path] = copy
    return copies, root


def shares_title(summary: Mapping) -> str:
    """`200 games: player 0 59.5%, player 1 29.0%, draws 11.5%` (and games cut off at the
    move limit, when there were any), from gdef-sim's JSON."""
    games = summary["games"]

    def share(count: int) -> str:
        return f"{100 * count / games:.1f}%" if games else "-"

    parts = [f"player {p} {share(wins)}" for p, wins in enumerate(summary["wins"])]
    parts.append(f"draws {share(summary['draws'])}")
    if summary.get("capped"):
        parts.append(f"capped {share(summary['capped'])}")
    return f"{games} games: " + ", ".join(parts)


def failure_title(stderr: str, folder: str, limit: int = 120) -> str:
    """The first error line gdef-sim printed, with the snapshot's paths made relative (as
    the user's files are laid out), shortened to fit a lens."""
    lines = [line.strip() for line in stderr.replace(folder + os.sep, "").splitlines() if line.strip()]
    line = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "it stopped")
    line = line.removeprefix("gdef-sim: ")
    return "Simulation failed: " + (line if len(line) <= limit else line[:limit - 1] + "…")
