"""tests/data/chance/pig.gdef against OpenSpiel's pig, both through pyspiel: along seeded games
(chance drawn by OpenSpiel's probabilities, the players at random), at every node the same
player (pyspiel.PlayerId.CHANCE while the die rolls), the same outcomes and probabilities (our
outcome k is OpenSpiel's roll k: face k + 1), the same legal decisions (roll: our
`place(1,0,R)`, OpenSpiel's 0; stop: `place(1,0,S)`, 1), the same scores and turn total, and
the same returns. Also with the game's parameters set as OpenSpiel's (`winscore`, `horizon`),
so that some games end at the horizon in a draw."""
from __future__ import annotations

import random
import re

import pytest

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


@pytest.mark.parametrize("params, games, seed", [({}, 40, 1), ({"winscore": 20, "horizon": 12}, 60, 2)],
                         ids=["default", "short"])
def test_pig_plays_as_openspiel(params, games, seed):
    ours_game = pyspiel.load_game("gdef", {"path": PIG, **params})
    theirs_game = pyspiel.load_game("pig", params)
    rng = random.Random(seed)
    results = set()
    for number in range(games):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        step = 0
        while not theirs.is_terminal():
            where = f"game {number} step {step}"
            assert not ours.is_terminal(), where
            player = theirs.current_player()
            assert ours.current_player() == player, where
            assert totals(ours) == tuple(map(int, _SCORES.match(str(theirs)).groups())), where
            if theirs.is_chance_node():
                mine, expected = ours.chance_outcomes(), theirs.chance_outcomes()
                assert [a for a, _ in mine] == [a for a, _ in expected], where
                assert [p for _, p in mine] == pytest.approx([p for _, p in expected]), where
                actions, weights = zip(*expected)
                action = rng.choices(actions, weights)[0]
                ours.apply_action(action)
            else:
                mine = {DECISIONS[ours.action_to_string(player, a)]: a for a in ours.legal_actions()}
                assert sorted(mine) == theirs.legal_actions(), where
                action = rng.choice(theirs.legal_actions())
                ours.apply_action(mine[action])
            theirs.apply_action(action)
            step += 1
        assert ours.is_terminal() and ours.returns() == theirs.returns(), f"game {number}"
        results.add(tuple(theirs.returns()))
    assert {(1.0, -1.0), (-1.0, 1.0)} <= results
    if params:
        assert (0.0, 0.0) in results   # the horizon reached
