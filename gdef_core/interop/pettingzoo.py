"""A gdef game as a PettingZoo AEC environment, with action masks.

    from gdef_core.interop.pettingzoo import env
    e = env("examples/connect4.gdef")
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else e.action_space(agent).sample(mask)
        e.step(action)

Agents are "player_0" ... "player_{N-1}"; the agent on turn is whoever the rules say (a game
may let a player move twice with setNextPlayer). Observations are {"observation": the planes
of gdef_core.interop.observation (int8, objects then players, [plane][x][y]), "action_mask":
int8 over the actions of gdef_core.interop.actions}. Rewards come at the end: by winner
(+1 / -1/(N-1) / 0 in a draw) or, with returns="scores", the final scores. A game still running
after `max_moves` moves is truncated. `env()` adds PettingZoo's usual wrappers (an illegal
action ends the game with reward -1 for its player); `raw_env` has none. The game's
parameters are keyword arguments: `env("examples/hex.gdef", board_size=7)`; `move_variants`
(default 4) sizes the action numbering for games whose moves are whole turns (backgammon). Chance nodes (a
game that calls `chanceNext()`) are resolved inside `reset()` and `step()`, each outcome drawn
by weight from the environment's generator, seeded by `reset(seed=...)`: agents never see them.
"""
from __future__ import annotations

import os
import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gdef_core.interop.actions import DEFAULT_VARIANTS, ActionMap
from gdef_core.interop.loading import load_gdef_game, returns_of
from gdef_core.interop.observation import board_text, fill_planes, plane_shape

DEFAULT_MAX_MOVES = 10_000


def env(path, **kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (illegal action: -1 and the end)."""
    wrapped = raw_env(path, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming)
    """The AEC environment of one gdef game."""

    metadata = {"render_modes": ["ansi", "human"], "name": "gdef_v0", "is_parallelizable": False}

    def __init__(self, path, *, max_moves: int = DEFAULT_MAX_MOVES, returns: str = "winner",
                 render_mode: str | None = None, move_variants: int = DEFAULT_VARIANTS, **params) -> None:
        """`params`: the game's parameters by name (`env("hex.gdef", board_size=7)`)."""
        super().__init__()
        if returns not in ("winner", "scores"):
            raise ValueError(f'returns must be "winner" or "scores", not {returns!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = load_gdef_game(os.fspath(path), params)
        self.actions = ActionMap(self.game, move_variants)
        self.max_moves = max_moves
        self.returns = returns
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"gdef_{self.game.name}_v0"}
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        shape = plane_shape(self.game)
        kind, low, high = np.int8, 0, 1
        if self.game.counting:   # the last plane holds the squares' counts: any int
            kind = np.int64
            low, high = np.zeros(shape, kind), np.ones(shape, kind)
            low[-1], high[-1] = np.iinfo(kind).min, np.iinfo(kind).max
        space = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, shape=shape, dtype=kind),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.actions.size,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self.state = None
        self._legal: dict | None = None
        self._chance = random.Random()
        self._planes = np.zeros(shape, kind)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None) -> None:
        if seed is not None:
            self._chance = random.Random(seed)
        self.state = self.game.new_state()
        self._resolve_chance()
        self.moves_played = 0
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]
        if self.state.is_over:   # setup() may end a game at once
            self._finish()

    def _legal_moves(self) -> dict:
        if self._legal is None:
            self._legal = self.actions.legal(self.state)
        return self._legal

    def observe(self, agent):
        fill_planes(self.state, self._planes)
        mask = np.zeros(self.actions.size, np.int8)
        if (agent == self.agent_selection and not self.terminations[agent]
                and not self.truncations[agent]):
            mask[list(self._legal_moves())] = 1
        return {"observation": self._planes.copy(), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._legal_moves().get(int(action))
        if move is None:
            raise ValueError(f"action {action} ({self.actions.describe(int(action))}) is not legal "
                             f"for {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(move)
        self._resolve_chance()
        self._legal = None
        self.moves_played += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_over:
            self._finish()
        elif self.moves_played >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
            if not self._legal_moves():
                raise RuntimeError(f"{agent}: the rules leave {self.agent_selection} without a "
                                   "legal move in a game that goes on (see 'gdef-check --play')")
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _resolve_chance(self) -> None:
        """Play chance's outcomes, drawn by weight, until a player (or nobody) is on turn."""
        while self.state.is_chance_node:
            self.state.apply(self.state.sample_chance(self._chance))

    def _finish(self) -> None:
        for agent, value in zip(self.possible_agents, returns_of(self.state, self.returns)):
            self.rewards[agent] = value
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return board_text(self.state)

    def close(self) -> None:
        pass
