"""The extension's `$gdef` problem matcher reads what gdef-check really prints."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from support import ROOT

PACKAGE = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))


def test_matcher_finds_every_diagnostic_of_gdef_check_text_output():
    (pattern,) = [p for p in PACKAGE["contributes"]["problemPatterns"] if p["name"] == "gdef"]
    (matcher,) = [m for m in PACKAGE["contributes"]["problemMatchers"] if m["name"] == "gdef"]
    assert matcher["pattern"] == "$gdef"
    regex = re.compile(pattern["regexp"])  # the JavaScript regex is also valid Python here
    seed = ROOT / "tests" / "data" / "lint" / "seed" / "original_tictactoe.gdef"
    unused = ROOT / "tests" / "data" / "lint" / "warnings" / "unused_local.gdef"
    text = subprocess.run([sys.executable, "-m", "gdef_core.cli.check", "--color", "never", str(seed), str(unused)],
                          capture_output=True, text=True, cwd=ROOT).stdout
    found = [regex.match(line) for line in text.splitlines()]
    problems = [(m[pattern["file"]], int(m[pattern["line"]]), int(m[pattern["column"]]), m[pattern["severity"]],
                 m[pattern["code"]]) for m in found if m]
    expected = json.loads(subprocess.run(
        [sys.executable, "-m", "gdef_core.cli.check", "--format", "json", str(seed), str(unused)],
        capture_output=True, text=True, cwd=ROOT).stdout)["diagnostics"]
    assert problems == [(d["file"], d["line"], d["column"], d["severity"], d["code"]) for d in expected]
    assert ("error", "G301") in {(p[3], p[4]) for p in problems}
    assert any(p[3] == "warning" for p in problems)
