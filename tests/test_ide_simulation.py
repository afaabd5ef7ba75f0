"""gdef_core.ide.simulation: the snapshot gdef-sim reads, its command line, the lens titles."""
from __future__ import annotations

import json
import subprocess

from gdef_core.ide.simulation import end_function, failure_title, shares_title, simulation_argv, write_snapshot
from gdef_core.syntax.parser import parse

GAME = """name: g
players: 2
size: 3 x 1
use "lib/rules.gdef"
obj X
define isMoveLegal() -> bool { return operationsNum() == 1 && placed(); }
define end() -> bool { return moveNumber() == 2; }
"""
RULES = "define placed() -> bool { return CurrentPosition[OperationList[0][0]][0] == empty; }\n"


def test_the_snapshot_keeps_the_layout_and_gdef_sim_plays_it(tmp_path):
    game, rules = str(tmp_path / "src" / "g.gdef"), str(tmp_path / "src" / "lib" / "rules.gdef")
    copies, root = write_snapshot({game: GAME, rules: RULES}, str(tmp_path / "copy"))
    assert root == str(tmp_path / "src")
    assert copies == {game: str(tmp_path / "copy" / "g.gdef"), rules: str(tmp_path / "copy" / "lib" / "rules.gdef")}
    out = tmp_path / "out.json"
    done = subprocess.run(simulation_argv([copies[game]], str(out), games=10), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert (summary["games"], summary["draws"], summary["wins"]) == (10, 10, [0, 0])
    assert shares_title(summary) == "10 games: player 0 0.0%, player 1 0.0%, draws 100.0%"


def test_titles():
    assert shares_title({"games": 200, "wins": [119, 58, 0], "draws": 20, "capped": 3}) == \
        "200 games: player 0 59.5%, player 1 29.0%, player 2 0.0%, draws 10.0%, capped 1.5%"
    stderr = "\n/tmp/sim-1/lib/g.gdef:6:31: error[G502]: division by zero\n  |\n6 | x / 0\n"
    assert failure_title(stderr, "/tmp/sim-1") == "Simulation failed: lib/g.gdef:6:31: error[G502]: division by zero"
    assert failure_title("gdef-sim: " + "x" * 300, "/tmp/a", limit=20) == "Simulation failed: " + "x" * 19 + "…"
    assert failure_title("", "/tmp/a") == "Simulation failed: it stopped"


def test_the_lens_goes_above_end():
    module = parse(GAME, "g.gdef").module
    assert end_function(module).name.span.line == 6
    assert end_function(parse(RULES, "r.gdef").module) is None
