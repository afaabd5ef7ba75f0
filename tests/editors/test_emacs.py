"""Real Emacs (batch) with the configuration docs/editors.md gives: gdef-mode for .gdef files,
eglot starts gdef-lsp from PATH and Flymake shows the checker's diagnostics.

Needs Emacs with eglot (Debian: apt-get install emacs-nox elpa-eglot). Skipped when missing,
except in CI (tests/support.py), where that is a failure.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from support import ROOT, need_program

SEED = ROOT / "tests" / "data" / "lint" / "seed" / "original_tictactoe.gdef"
EMACS = need_program("emacs", "apt-get install emacs-nox elpa-eglot")


def test_emacs_eglot_shows_the_checkers_type_error(tmp_path):
    folder = tmp_path / "my games"
    folder.mkdir()
    shutil.copy(SEED, folder / "seed tictactoe.gdef")
    env = {**os.environ, "HOME": str(tmp_path),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GDEF_EMACS_BROKEN": str(folder / "seed tictactoe.gdef"), "GDEF_EMACS_OUT": str(tmp_path / "out.json")}
    run = subprocess.run([EMACS, "--batch", "-q", "-L", str(ROOT / "editors" / "emacs"),
                          "-l", str(Path(__file__).parent / "emacs" / "session.el")],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=90)
    assert (tmp_path / "out.json").exists(), f"Emacs wrote no result (exit {run.returncode}): {run.stderr[-2000:]}"
    result = json.loads((tmp_path / "out.json").read_text())
    assert "error" not in result and "timeout" not in result, (result, run.stderr[-2000:])
    assert result["mode"] == "gdef-mode"
    assert result["comment_start"] == "// "
    assert result["server"] is True
    (error,) = result["diagnostics"]
    assert (error["line"], error["column"], error["type"]) == (17, 26, "eglot-error")
    assert "G301" in error["text"] and "cannot compare obj with int" in error["text"]
