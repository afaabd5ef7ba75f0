"""Shared fixtures of the test suite."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

# Caches that tools keep in the temporary folder on purpose, reused by every later run: lark's
# parse-table cache (one file per grammar and Python version).
KEPT_CACHES = (".lark_cache_",)


@pytest.fixture(scope="session", autouse=True)
def nothing_left_behind(tmp_path_factory):
    """The suite writes nothing into the user's folders and leaves nothing in the temporary one.

    Records of games without --record and the prompt's history go to the user's state folder
    (gdef_core.user_state): XDG_STATE_HOME points it at a folder of this run. The temporary
    folder (TMPDIR, inherited by every gdef process a test starts) is a fresh one, checked empty
    at the end: a test or a tool that leaves a file there fails the run, naming the file.
    """
    base = tmp_path_factory.getbasetemp()  # pytest's own tmp_path folders stay where they are
    state = base / "xdg-state"
    private = tempfile.mkdtemp(prefix="gdef-suite-tmp-")
    saved = {name: os.environ.get(name) for name in ("XDG_STATE_HOME", "TMPDIR")}
    os.environ["XDG_STATE_HOME"] = str(state)
    os.environ["TMPDIR"] = private
    tempfile.tempdir = None
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        tempfile.tempdir = None
        left = sorted(name for name in os.listdir(private) if not name.startswith(KEPT_CACHES))
        if not left:
            shutil.rmtree(private)
        assert not left, f"the suite left these in the temporary folder {private}: {', '.join(left)}"
