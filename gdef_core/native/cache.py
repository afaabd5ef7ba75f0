"""Where compiled rules live on disk: one module file per (generated source, gdef version,
numba version), in the user cache directory, so numba's own cache (`cache=True`, written to
`__pycache__` beside the file) is found again by every later run and every worker process.

GDEF_CACHE_DIR overrides the directory (tests use a temporary one); the C route keeps its
libraries in the same folder (cnative/compiler.py: cache_root).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from gdef_core.cnative.compiler import cache_root


def module_key(source: str) -> str:
    from gdef_core.version import __version__

    text = f"gdef {__version__}\nnumba {_numba_version()}\npython {sys.version}\n{source}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _numba_version() -> str:
    """numba's version, from its installed metadata: importing numba takes half a second."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:   # installed without metadata
        import numba
        return numba.__version__


def module_path(source: str) -> Path:
    key = module_key(source)
    return cache_root() / "native" / key / f"gdef_rules_{key}.py"


def is_compiled(path: Path) -> bool:
    """Whether numba has cached code beside the module (a warm start)."""
    cache = path.parent / "__pycache__"
    return cache.is_dir() and any(name.endswith(".nbi") for name in os.listdir(cache))


def load_module(source: str):
    """The module of `source`, written to the cache directory the first time (atomically, so
    parallel workers never read half a file)."""
    path = module_path(source)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)
    name = path.stem
    module = sys.modules.get(name)
    if module is not None:
        return module, path
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module, path
