"""tests/data/chance/pig.gdef against OpenSpiel's pig, both through pyspiel: along seeded games
(chance drawn by OpenSpiel's probabilities, the players at random), at every node the same
player (pyspiel.PlayerId.CHANCE while the die rolls), the same outcomes and probabilities (our
outcome k is OpenSpiel's roll k: face k + 1), the same legal decisions (roll: our
`place(1,0,R)`, OpenSpiel's 0; stop: `place(1,0,S)`, 1), the same scores and turn total, and
the same returns. Also with the game's parameters set as OpenSpiel's (`winscore`, `horizon`),
so that some games end at the horizon in a draw."""
from __future__ import annotations

import re

import pytest

from openspiel_support import play_alongside
from support import ROOT, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

import gdef_core.interop.openspiel  # noqa: E402,F401  (registers "gdef")

PIG = str(ROOT / "tests" / "data" / "chance" / "pig.gdef")
DECISIONS = {"place(1,0,R)": 0, "place(1,0,S)": 1}
_SCORES = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)")


def totals(state) -> tuple[int, int, int]:
    """Our scores and turn total, as OpenSpiel prints them."""
    variables = state.pos.inner.variables
    return (*variables["score"], variables["turnTotal"])


def same_totals(ours, theirs, where: str) -> None:
    assert totals(ours) == tuple(map(int, _SCORES.match(str(theirs)).groups())), where


def pig_actions(ours, theirs, player: int, where: str) -> dict[int, int]:
    return {DECISIONS[ours.action_to_string(player, a)]: a for a in ours.legal_actions()}


@pytest.mark.parametrize("params, games, seed", [({}, 40, 1), ({"winscore": 20, "horizon": 12}, 60, 2)],
                         ids=["default", "short"])
def test_pig_plays_as_openspiel(params, games, seed):
    ours_game = pyspiel.load_game("gdef", {"path": PIG, **params})
    theirs_game = pyspiel.load_game("pig", params)
    results = play_alongside(ours_game.new_initial_state, theirs_game, games=games, seed=seed, label="pig",
                             same=same_totals, actions=pig_actions)
    assert {(1.0, -1.0), (-1.0, 1.0)} <= results
    if params:
        assert (0.0, 0.0) in results   # the horizon reached
