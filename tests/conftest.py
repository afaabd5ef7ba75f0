"""pytest's shared fixtures. What test files import (the repository root, the optional parts a
test needs, the console scripts) is in tests/support.py: a conftest is not meant to be imported."""
from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    """The native backend's module cache for this session (GDEF_CACHE_DIR): empty at first, as
    on a fresh machine, and shared by every native test so that each game compiles once.
    `scripts/test.sh --quick` keeps one between runs instead (GDEF_TEST_NATIVE_CACHE)."""
    kept = os.environ.get("GDEF_TEST_NATIVE_CACHE")
    path = Path(kept) if kept else tmp_path_factory.mktemp("gdef-native-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path))
        yield path
