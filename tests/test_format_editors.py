"""Formatting from a real editor: headless Neovim with the documented configuration
(editors/nvim/gdef.lua) formats a messy file through gdef-lsp to gdef-fmt's text.

Needs `nvim`; skipped when it is missing, except in CI (tests/support.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gdef_core.format import format_source

from support import ROOT, need_program

NVIM = need_program("nvim", "apt-get install neovim")
MESSY = (ROOT / "tests" / "data" / "format" / "nested_loops.in.gdef").read_text(encoding="utf-8")


def test_neovim_formats_a_messy_file_to_the_canonical_text(tmp_path):
    path = tmp_path / "messy game.gdef"
    path.write_text(MESSY, encoding="utf-8")
    env = {**os.environ,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GDEF_NVIM_CONFIG": str(ROOT / "editors" / "nvim" / "gdef.lua"),
           "GDEF_NVIM_FILE": str(path), "GDEF_NVIM_OUT": str(tmp_path / "out.json")}
    for xdg in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[xdg] = str(tmp_path / xdg.lower())
    script = ROOT / "tests" / "data" / "format" / "editors" / "nvim_format.lua"
    run = subprocess.run([NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {script}"],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    result = json.loads((tmp_path / "out.json").read_text()) if (tmp_path / "out.json").exists() else {}
    assert "lines" in result, f"exit {run.returncode}: {result.get('error')} {run.stderr}"
    expected = format_source(MESSY)
    assert expected != MESSY
    assert "\n".join(result["lines"]) + "\n" == expected
    assert path.read_text(encoding="utf-8") == expected
