"""Native playouts without waiting for them: the computer players and `hint` (in the terminal,
on the board page, over the bot protocol) ask `rules_when_ready(game)`, which answers at
once: the game's NativeRules when they are loaded, else None (play on with the Python backend).

The first question starts the work in a background thread: is numba there, can the game
compile, is its compile in the cache (gdef_core/native/cache.py)? A cached compile is loaded
(a warm start); otherwise a child process (gdef_core/native/precompile.py) compiles it into
the cache, whole or not at all, and the thread loads it once it is there. Later questions get
the rules. The child runs under a time limit and is stopped when this process exits (SIGTERM,
on which it removes its half-built folder; SIGKILL after a grace period, and the folder
removed here), so a compile never outlives the game that wanted it and leaves no files
behind; the next run starts it again.

`wait=True` (tests, benchmarks) blocks until the work is done.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import threading
import time
import weakref

COMPILE_TIMEOUT = 900.0   # seconds: a compile taking longer is killed (chess takes about two minutes)
POLL = 1.0                # seconds between looks at the cache while another process compiles
GRACE = 3.0               # seconds a stopped child has to remove its folder itself

# Game -> its _Work in this process (a forked child starts afresh: the thread is not copied).
_works: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_children: set = set()   # the compiling child processes still running, killed at exit


class _Work:
    """One game's way to its NativeRules, run by one thread."""

    def __init__(self, game) -> None:
        self.pid = os.getpid()
        self.rules = None
        self.state = "starting"   # then "loading", "compiling", "ready" or "python"
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(weakref.ref(game),),
                                       name="gdef-native-compile", daemon=True)

    def _run(self, game_ref) -> None:
        try:
            game = game_ref()
            if game is not None:
                self.rules = self._prepare(game)
        except Exception:   # numba's errors are many classes: the game stays on Python
            self.rules = None
        finally:
            self.state = "ready" if self.rules is not None else "python"
            self.done.set()

    def _prepare(self, game):
        from gdef_core.native import NativeRules, cache
        from gdef_core.native.backend import c_route_source
        from gdef_core.native.precompile import cacheable_source

        if c_route_source(game) is not None:   # the C route: a compile of seconds, in this thread
            self.state = "compiling"
            return NativeRules.load(game, None)
        source = cacheable_source(game)
        if source is None:
            return None
        path = cache.module_path(source)
        if not cache.is_compiled(path):
            self.state = "compiling"
            if not _compile(game, cache.module_key(source), path):
                return None
        self.state = "loading"
        return NativeRules.load(game, None)


def rules_when_ready(game, wait: bool = False):
    """`game`'s NativeRules if they are ready, else None; the first call starts the work in
    the background. `wait`: block until the work is done (tests, benchmarks)."""
    work = _work(game)
    if wait:
        work.done.wait()
    return work.rules if work.done.is_set() else None


def state(game) -> str | None:
    """How far the work for `game` got: None (not asked), "starting", "loading", "compiling",
    "ready" or "python" (no native rules: numba missing, the game cannot compile natively)."""
    work = _works.get(game)
    return work.state if work is not None and work.pid == os.getpid() else None


def _work(game) -> _Work:
    with _lock:
        work = _works.get(game)
        if work is None or work.pid != os.getpid():
            work = _works[game] = _Work(game)
            work.thread.start()
    return work


def _compile(game, key: str, path) -> bool:
    """Run the compiling child for `game` and wait for it (or for another process compiling
    the same key); whether the compile is in the cache now."""
    from gdef_core.native import cache
    from gdef_core.native.precompile import EXIT_BUSY, building_folder

    argv = [sys.executable, "-m", "gdef_core.native.precompile", "--key", key,
            "--max-steps", str(game.max_steps), "--max-depth", str(game.max_depth), *game.files]
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)  # Ctrl-C is ours alone
    _children.add((child, building_folder(key)))
    try:
        code = child.wait(COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        _stop(child, building_folder(key))
        return False
    finally:
        _children.discard((child, building_folder(key)))
    if code == EXIT_BUSY:   # someone else compiles it: wait for their result
        waited = 0.0
        while not cache.is_compiled(path) and waited < COMPILE_TIMEOUT:
            time.sleep(POLL)
            waited += POLL
    return cache.is_compiled(path)


def _stop(child, folder) -> None:
    """Stop a compiling child: it removes its building folder itself on SIGTERM; one that
    does not end in time is killed and its folder removed here."""
    from gdef_core.native.precompile import OWNER

    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(GRACE)
        return
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    try:
        owned = int((folder / OWNER).read_text()) == child.pid
    except (OSError, ValueError):
        owned = False   # not its folder (yet): another process's, or none
    if owned:
        shutil.rmtree(folder, ignore_errors=True)


@atexit.register
def stop_all() -> None:
    """Stop every compiling child of this process (at exit, and on Ctrl-C through it)."""
    for child, folder in list(_children):
        _stop(child, folder)
    _children.clear()
