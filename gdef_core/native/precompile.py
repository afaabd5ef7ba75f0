"""Compile a game's native rules into the cache, whole or not at all: the child process that
gdef_core/play/background_compile.py starts so that a compile never blocks a game or an editor.

    python -m gdef_core.native.precompile [--key KEY] [--max-steps N] [--max-depth N] FILE...

The rules are compiled in a folder of their own under the cache (`native/.building-KEY`,
which doubles as the lock: one compile per key at a time, whichever process asks), then moved
into place file by file, the numba index last, so a reader finds either no compiled code or
all of it. A compile stopped half way (the parent gone, Ctrl-C, a kill) leaves only that
folder, which the parent removes and the next compile of the key takes over; SIGTERM makes the
child remove it itself (the language server stops it so).

Exit codes: 0 compiled (or already compiled), 3 another live process is compiling this key,
4 the rules have errors, are not those of KEY (edited since), cannot compile natively (or be
cached) or numba is missing.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import signal
import sys
from pathlib import Path

from gdef_core.cnative.library import c_library_cached
from gdef_core.native import cache
from gdef_core.native.backend import c_route_source

EXIT_DONE, EXIT_BUSY, EXIT_UNUSABLE = 0, 3, 4
OWNER = "owner"   # the file in the building folder holding the compiling process's id


def numba_installed() -> bool:
    """Whether numba is installed, found without importing it (which takes half a second)."""
    if "numba" in sys.modules:
        return sys.modules["numba"] is not None
    return importlib.util.find_spec("numba") is not None


def cacheable_source(game) -> str | None:
    """The native module source of `game` when numba is installed and the compile can be
    cached on disk (a game whose recursion numba cannot cache compiles in every run, which
    would block), else None. Quick: numba is not imported."""
    from gdef_core.native.codegen import NativeUnsupported, native_source

    if not numba_installed() or not hasattr(game, "program"):
        return None
    try:
        source, _, cacheable = native_source(game.program, game.max_steps, game.max_depth)
    except NativeUnsupported:
        return None
    return source if cacheable else None


def cached_source(game) -> str | None:
    """The source of `game`'s native rules when their compile is in the cache (loading it is
    a warm start), else None: nothing is compiled. On the C route (backend.c_route_source) the
    C text, else cacheable_source(game)."""
    c = c_route_source(game)
    if c is not None:
        return c.text if c_library_cached(c) else None
    source = cacheable_source(game)
    return source if source is not None and cache.is_compiled(cache.module_path(source)) else None


def building_folder(key: str) -> Path:
    return cache.cache_root() / "native" / f".building-{key}"


def owner(folder: Path) -> int | None:
    """The id of the process compiling in `folder`, when it is still running."""
    try:
        pid = int((folder / OWNER).read_text())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid


def take(folder: Path) -> bool:
    """Make `folder` this process's building folder; False when a live process holds it."""
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        if owner(folder) is not None:
            return False
        shutil.rmtree(folder, ignore_errors=True)   # left by a compile that was stopped
        try:
            folder.mkdir()
        except FileExistsError:
            return False   # another process took it over first
    (folder / OWNER).write_text(str(os.getpid()))
    return True


def publish(built: Path, target: Path) -> None:
    """Move the compiled module and numba's cache files from `built` into `target`, each file
    atomically, the module first and the index files (.nbi) last."""
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(built.glob("*.py")):
        os.replace(path, target / path.name)
    compiled = built / "__pycache__"
    if compiled.is_dir():
        (target / "__pycache__").mkdir(exist_ok=True)
        for path in sorted(compiled.iterdir(), key=lambda p: p.suffix == ".nbi"):
            os.replace(path, target / "__pycache__" / path.name)


def compile_into_cache(files: list[str], key: str | None, max_steps: int | None, max_depth: int | None) -> int:
    """Compile the game of `files` into the cache (when given `key`, only if the files still
    make that module); the exit code."""
    from gdef_core.loader import GdefFileError
    from gdef_core.native.backend import NativeRules
    from gdef_core.runtime import GameLoadError, load_game

    try:
        limits = {name: value for name, value in (("max_steps", max_steps), ("max_depth", max_depth))
                  if value is not None}
        game = load_game(files, **limits)
    except (GameLoadError, GdefFileError, OSError):
        return EXIT_UNUSABLE
    c = c_route_source(game)
    if c is not None:   # the C route: compiled (seconds) straight into the cache, atomically
        if key is not None and key != cache.module_key(c.text):
            return EXIT_UNUSABLE
        return EXIT_DONE if NativeRules.load(game, None) is not None else EXIT_UNUSABLE
    source = cacheable_source(game)
    if source is None or (key is not None and cache.module_key(source) != key):
        return EXIT_UNUSABLE
    key = cache.module_key(source)
    target = cache.module_path(source).parent
    if cache.is_compiled(cache.module_path(source)):
        return EXIT_DONE
    folder = building_folder(key)
    if not take(folder):
        return EXIT_BUSY
    try:
        os.environ["GDEF_CACHE_DIR"] = str(folder)   # this process compiles nothing else
        rules = NativeRules.load(game, None)
        if rules is None:
            return EXIT_UNUSABLE
        start = game.new_state()
        if not start.is_over:   # gdef-sim's kernel too, so that its first run loads, never compiles
            rules.simulate(0, 0, 1, start, max_moves=1)
        publish(folder / "native" / key, target)
        return EXIT_DONE
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _stopped(number, frame) -> None:
    raise SystemExit(128 + number)   # unwinds through compile_into_cache's cleanup


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _stopped)
    parser = argparse.ArgumentParser(prog="python -m gdef_core.native.precompile",
                                     description="Compile a game's native rules into gdef's cache.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--key", default=None, help="compile only if the files make this module")
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("--max-depth", type=int, default=None)
    args = parser.parse_args(argv)
    return compile_into_cache(args.files, args.key, args.max_steps, args.max_depth)


if __name__ == "__main__":
    sys.exit(main())
