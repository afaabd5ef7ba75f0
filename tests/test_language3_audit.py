"""Language 3 audited from outside (issue 27): small games of our own (tests/data/language3_audit/)
driven through the public surfaces docs/language.md and the tool docs name, each test for a
discrepancy found and fixed."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gdef_core import load_game

from support import ROOT

DATA = ROOT / "tests" / "data" / "language3_audit"
DICERACE = str(DATA / "dicerace.gdef")   # params, chance (count-only outcomes), counts, a consequence
GDEF_RUN = str(Path(sys.executable).with_name("gdef-run"))


def protocol(*requests: dict, argv: tuple[str, ...] = ()) -> list[dict]:
    """Answers of `gdef-run --protocol` to the requests, the hello first."""
    lines = "".join(json.dumps(request) + "\n" for request in requests)
    done = subprocess.run([GDEF_RUN, "--protocol", DICERACE, *argv], input=lines, capture_output=True,
                          text=True, timeout=120)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


# ------------------------------------------------------------ a parameter is a constant of one game


def test_a_state_cannot_change_a_parameter_of_the_game_loaded():
    """A parameter "never changes within one game"; a state that says another value (protocol
    `set`, State.from_json) is refused, naming the parameter; one that leaves it out gets the
    game's value."""
    game = load_game(DICERACE, params={"faces": 6})
    data = game.new_state().to_json()
    assert data["vars"]["faces"] == 6
    with pytest.raises(ValueError, match=r"parameter 'faces' is 6 in this game, not 2"):
        game.state_from_json({**data, "vars": {**data["vars"], "faces": 2}})
    without = {name: value for name, value in data["vars"].items() if name not in game.params}
    assert game.state_from_json({**data, "vars": without}).variables["faces"] == 6
    changed = {**data, "vars": {**data["vars"], "len": 9}}
    hello, refused, kept = protocol({"id": 1, "cmd": "set", "state": changed}, {"id": 2, "cmd": "state"},
                                    argv=("--param", "faces=6"))
    assert refused["error"] == {"kind": "bad state",
                                "message": "parameter 'len' is 8 in this game, not 9: load the game with len=9"}
    assert kept["state"]["vars"]["len"] == 8
