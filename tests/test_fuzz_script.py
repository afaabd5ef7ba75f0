"""scripts/fuzz.sh reaches the web board and the bot protocol: a few seconds of each target
against real `gdef-run --web` and `gdef-run --protocol` processes find nothing wrong."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_fuzz_sh_runs_the_web_and_protocol_targets(tmp_path) -> None:
    done = subprocess.run(["sh", str(ROOT / "scripts" / "fuzz.sh"), "--minutes", "0.1", "--seed", "5",
                           "--targets", "web,protocol", "--out", str(tmp_path / "failures")],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failures: none (no internal errors, hangs or memory blow-ups)" in done.stdout
    tried = done.stdout.splitlines()[0]
    assert "protocol " in tried and "web " in tried, tried
    assert not (tmp_path / "failures").exists()


def test_fuzz_sh_refuses_an_unknown_target() -> None:
    done = subprocess.run(["sh", str(ROOT / "scripts" / "fuzz.sh"), "--targets", "web,nothing"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHON": sys.executable})
    assert done.returncode == 2
    assert "--targets web,nothing: choose among rules, text, moves, records, paths, web, protocol" in done.stderr
