"""Real Neovim (headless) with the configuration docs/editors.md gives: it detects .gdef files,
starts gdef-lsp from PATH, receives the checker's diagnostics, hover and completion, and
:GdefRun starts the game in a terminal split.

Needs `nvim` (Debian: apt-get install neovim). Skipped when it is missing, except in CI
(tests/support.py), where that is a failure.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT, need_program

CONFIG = ROOT / "editors" / "nvim" / "gdef.lua"
SESSION = Path(__file__).parent / "nvim" / "session.lua"
SEED = ROOT / "tests" / "data" / "lint" / "seed" / "original_tictactoe.gdef"
GAME = ROOT / "examples" / "tictactoe.gdef"

NVIM = need_program("nvim", "apt-get install neovim")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """One Neovim run; returns what it received."""
    tmp = tmp_path_factory.mktemp("nvim")
    folder = tmp / "my games $(touch pwned)"  # Run game must not go through a shell
    folder.mkdir()
    shutil.copy(SEED, folder / "seed tictactoe.gdef")
    shutil.copy(GAME, folder / "tictactoe.gdef")
    env = {**os.environ,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GDEF_NVIM_CONFIG": str(CONFIG),
           "GDEF_NVIM_BROKEN": str(folder / "seed tictactoe.gdef"),
           "GDEF_NVIM_GAME": str(folder / "tictactoe.gdef"),
           "GDEF_NVIM_MOVE": "place(1,1,X)",
           "GDEF_NVIM_OUT": str(tmp / "out.json")}
    for xdg in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[xdg] = str(tmp / xdg.lower())
    run = subprocess.run([NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SESSION}"],
                         env=env, cwd=tmp, capture_output=True, text=True, timeout=120)
    out_file = tmp / "out.json"
    assert out_file.exists(), f"Neovim wrote no result (exit {run.returncode}): {run.stderr}"
    result = json.loads(out_file.read_text())
    assert "error" not in result, result["error"]
    result["folder"] = folder
    return result


def test_gdef_files_get_the_filetype_and_comment_style(session):
    assert session["filetype"] == "gdef"
    assert session["commentstring"] == "// %s"


def test_neovim_receives_the_checkers_type_error(session):
    assert session["diagnostics_arrived"]
    errors = [d for d in session["diagnostics"] if d["code"] == "G301"]
    assert len(errors) == 1, session["diagnostics"]
    error = errors[0]
    # `placedObj != 0` on line 17 (1-based), from column 27: an obj compared with an int
    assert (error["lnum"], error["col"], error["end_lnum"], error["end_col"]) == (16, 26, 16, 40)
    assert error["severity"] == 1  # vim.diagnostic.severity.ERROR
    assert "obj" in error["message"] and "int" in error["message"]


def test_hover_on_a_builtin_shows_its_signature_and_doc(session):
    assert "CurrentPosition[x][y]" in session["hover"]
    assert "The object on square (x, y)" in session["hover"]


def test_completion_offers_builtins(session):
    assert {"CurrentPosition", "onTurn", "setWinner", "empty"} <= set(session["completion"])


def test_gdef_run_opens_the_game_in_a_terminal_split(session):
    assert session["terminal_opened"]
    assert session["terminal_windows"] == 2  # the game file and the terminal below it
    board_before = session["terminal_before"]
    assert "tictactoe" in board_before.lower()
    # the move typed into the terminal was played: an X now stands on the board
    after = session["terminal_after"][len(board_before):]
    assert re.search(r"\bX\b", after), session["terminal_after"]
    # the folder name reached gdef-run as one argument, not through a shell
    assert not (session["folder"] / "pwned").exists()
    assert not (session["folder"].parent / "pwned").exists()
