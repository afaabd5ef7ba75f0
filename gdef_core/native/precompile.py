"""Compile a game's native rules into the cache, whole or not at all: the child process that
gdef_core/play/background_compile.py starts so that a compile never blocks a game or an editor.

    python -m gdef_core.native.precompile --key KEY --max-steps N --max-depth N FILE...

The rules are compiled in a folder of their own under the cache (`native/.building-KEY`,
which doubles as the lock: one compile per key at a time, whichever process asks), then moved
into place file by file, the numba index last, so a reader finds either no compiled code or
all of it. A compile stopped half way (the parent gone, Ctrl-C, a kill) leaves only that
folder, which the parent removes and the next compile of the key takes over.

Exit codes: 0 compiled (or already compiled), 3 another live process is compiling this key,
4 the rules are not those of KEY (edited since), cannot compile natively or numba is missing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from gdef_core.native import cache

EXIT_DONE, EXIT_BUSY, EXIT_UNUSABLE = 0, 3, 4
OWNER = "owner"   # the file in the building folder holding the compiling process's id


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


def compile_into_cache(files: list[str], key: str, max_steps: int, max_depth: int) -> int:
    """Compile the game of `files` into the cache when its module key is `key`; the exit code."""
    from gdef_core.loader import GdefFileError
    from gdef_core.native.backend import NativeRules, numba_available
    from gdef_core.native.codegen import NativeUnsupported, native_source
    from gdef_core.runtime import GameLoadError, load_game

    if not numba_available():
        return EXIT_UNUSABLE
    try:
        game = load_game(files, max_steps=max_steps, max_depth=max_depth)
        source, _, cacheable = native_source(game.program, game.max_steps, game.max_depth)
    except (GameLoadError, GdefFileError, NativeUnsupported, OSError):
        return EXIT_UNUSABLE
    if not cacheable or cache.module_key(source) != key:
        return EXIT_UNUSABLE
    target = cache.module_path(source).parent
    if cache.is_compiled(cache.module_path(source)):
        return EXIT_DONE
    folder = building_folder(key)
    if not take(folder):
        return EXIT_BUSY
    real_root = os.environ.get("GDEF_CACHE_DIR")
    os.environ["GDEF_CACHE_DIR"] = str(folder)
    try:
        rules = NativeRules.load(game, None)
    finally:
        if real_root is None:
            del os.environ["GDEF_CACHE_DIR"]
        else:
            os.environ["GDEF_CACHE_DIR"] = real_root
    try:
        if rules is None:
            return EXIT_UNUSABLE
        publish(folder / "native" / key, target)
        return EXIT_DONE
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gdef_core.native.precompile",
                                     description="Compile a game's native rules into gdef's cache.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--key", required=True)
    parser.add_argument("--max-steps", type=int, required=True)
    parser.add_argument("--max-depth", type=int, required=True)
    args = parser.parse_args(argv)
    return compile_into_cache(args.files, args.key, args.max_steps, args.max_depth)


if __name__ == "__main__":
    sys.exit(main())
