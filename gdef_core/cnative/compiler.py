"""The system C compiler, and the shared libraries it made, cached on disk.

One library per (generated source, runtime files, gdef version, compiler and its version), in
the same cache folder as the numba modules (native/cache.py's conventions: GDEF_CACHE_DIR, else
the user cache directory), under `cnative/`: a warm start is a hash and a dlopen. The library is
written under a temporary name and renamed, so parallel workers never load half a file.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from gdef_core.version import __version__

# gcc and clang (both have the statement expressions and overflow built-ins the code uses).
_CANDIDATES = ("cc", "gcc", "clang")
# -O3: pentago's moves() 1.6x faster than at -O2, other games 0-10%, for about 0.1 s more
# compile (docs/performance.md, "Two routes").
FLAGS = ("-O3", "-shared", "-fPIC", "-std=gnu11", "-w")


class CompileFailed(Exception):
    """The C compiler refused the generated source (a defect of the emitter, not of the game)."""


def cache_root() -> Path:
    explicit = os.environ.get("GDEF_CACHE_DIR")
    if explicit:
        return Path(explicit)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "gdef"


@functools.lru_cache(maxsize=None)
def find_compiler() -> tuple[str, str] | None:
    """(the C compiler's path, its version line), from $CC or cc/gcc/clang on PATH; None when
    there is none that runs."""
    names = [os.environ["CC"]] if os.environ.get("CC") else list(_CANDIDATES)
    for name in names:
        path = shutil.which(name)
        if path is None:
            continue
        try:
            done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout:
            return path, done.stdout.splitlines()[0]
    return None


def library_path(source: str, runtime: str, compiler: tuple[str, str]) -> Path:
    text = f"gdef {__version__}\ncc {compiler[1]}\nflags {' '.join(FLAGS)}\n{runtime}\n{source}"
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    suffix = ".dll" if sys.platform == "win32" else ".so"
    return cache_root() / "cnative" / key / f"gdef_rules_{key}{suffix}"


def build_library(source: str, runtime: str, include: Path, compiler: tuple[str, str]) -> tuple[Path, bool]:
    """(the library of `source`, whether it was compiled now): compiled with the runtime's
    folder on the include path when not cached. Raises CompileFailed."""
    path = library_path(source, runtime, compiler)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent) as work:
        c_file = Path(work) / "rules.c"
        c_file.write_text(source, encoding="utf-8")
        built = Path(work) / path.name
        # the compiler's own temporaries (cc*.s) go in here too: a compile stopped part-way
        # (its driver killed) leaves them with this folder, never in the user's TMPDIR
        done = subprocess.run([compiler[0], *FLAGS, f"-I{include}", "-o", str(built), str(c_file), "-lm"],
                              capture_output=True, text=True, env={**os.environ, "TMPDIR": work})
        if done.returncode != 0:
            raise CompileFailed(done.stderr.strip().splitlines()[0] if done.stderr.strip() else "no message")
        os.replace(built, path)
    return path, True
