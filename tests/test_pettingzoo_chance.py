"""PettingZoo at chance nodes (docs/interop.md, "PettingZoo"): chance's outcomes are played
inside `reset()` and `step()`, drawn by weight from the environment's generator, so agents never
see a chance node and `reset(seed=...)` reproduces a game."""
from __future__ import annotations

import numpy as np
import pytest

from support import ROOT, need_module

need_module("pettingzoo", "pip install -e '.[interop]'")

from pettingzoo.test import api_test  # noqa: E402

from gdef_core.interop.pettingzoo import env as gdef_env  # noqa: E402

DICE_RACE = str(ROOT / "tests" / "data" / "play" / "dice_race.gdef")
EINSTEIN = str(ROOT / "examples" / "einstein.gdef")


def play(seed: int, path: str = DICE_RACE) -> list:
    """The positions a game goes through, every agent taking its first legal action: the board
    at each agent's turn and the rewards at the end."""
    environment = gdef_env(path)
    environment.reset(seed=seed)
    raw = environment.unwrapped
    seen = []
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            seen.append((agent, reward))
            environment.step(None)
            continue
        state = raw.state
        assert not state.is_chance_node   # the environment rolled before this agent's turn
        assert agent == f"player_{state.current_player}"
        seen.append(sorted(state.board.occupied()))
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    return seen


def test_chance_is_resolved_inside_reset_and_step():
    environment = gdef_env(DICE_RACE)
    environment.reset(seed=3)
    state = environment.unwrapped.state
    assert not state.is_chance_node and state.move_number >= 1   # the opening roll is played
    assert any(str(obj).startswith("D") for _, _, obj in state.board.occupied())   # the die shows it


def test_a_seed_reproduces_the_rolls():
    first = play(3)
    assert len(first) > 4
    assert play(3) == first
    assert any(play(seed) != first for seed in (4, 5, 6))


def test_einstein_reproduces_per_seed():
    assert play(8, EINSTEIN) == play(8, EINSTEIN)


@pytest.mark.parametrize("path", [DICE_RACE, EINSTEIN], ids=["dice_race", "einstein"])
def test_pettingzoo_api_test_passes_on_games_with_chance(path):
    with pytest.warns(UserWarning):   # PettingZoo warns of every Dict observation (masks)
        api_test(gdef_env(path), num_cycles=30, verbose_progress=False)
