"""Computer players inside gdef-run: `--player 1=mcts --seed 7` lets a person play against
the computer (mcts thinking `--think` seconds a move, 2 by default), and `--player 0=random
--player 1=greedy` plays a game with no person at all. Players without --player are people.
"""
from __future__ import annotations

import random
from collections.abc import Iterable

from gdef_core.play.errors import AgentSpecError
from gdef_core.play.games import game_seed
from gdef_core.play.mcts import DEFAULT_THINK_SECONDS
from gdef_core.play.spec import AgentSpec, parse_player


class ComputerPlayers:
    """The agents of the players the computer plays, seeded from one seed."""

    def __init__(self, specs: dict[int, AgentSpec], seed: int, think: float = DEFAULT_THINK_SECONDS) -> None:
        self.specs = {p: spec for p, spec in specs.items() if not spec.is_human}
        self.seed = seed
        self.think = think   # seconds a move of a plain `mcts`, and of `hint`
        self.agents = {p: spec.build(game_seed(seed, 0, p), think) for p, spec in self.specs.items()}
        self.game = None     # the game played, once prepare() knows it

    def prepare(self, game) -> None:
        """Let the agents start what playing `game` will need (mcts: its native playouts'
        background work), before the first move is asked of them."""
        self.game = game
        for agent in self.agents.values():
            _prepare(agent, game)

    def __bool__(self) -> bool:
        return bool(self.agents)

    def plays(self, player: int) -> bool:
        return player in self.agents

    def label(self, player: int) -> str:
        return str(self.specs[player])

    def everyone(self, players: int) -> bool:
        """Whether no person plays at all."""
        return all(p in self.agents for p in range(players))

    def assign(self, player: int, spec: AgentSpec) -> None:
        """Let `spec` play `player` from now on (a human spec: a person), seeded as at the start."""
        self.specs.pop(player, None)
        self.agents.pop(player, None)
        if not spec.is_human:
            self.specs[player] = spec
            self.agents[player] = spec.build(game_seed(self.seed, 0, player), self.think)
            if self.game is not None:
                _prepare(self.agents[player], self.game)

    def choose(self, state, stop=None):
        """The computer's move for the player on turn (NoLegalMoveError when it has none);
        `stop()` true: the caller wants it at once (agents.py)."""
        return self.agents[state.current_player].choose(state, stop=stop)


def _prepare(agent, game) -> None:
    prepare = getattr(agent, "prepare", None)   # only some agents need anything
    if prepare is not None:
        prepare(game)


def computer_players(texts: Iterable[str], players: int, seed: int | None,
                     think: float = DEFAULT_THINK_SECONDS) -> ComputerPlayers:
    """From `--player N=SPEC` options; AgentSpecError says what is wrong. Without a seed one is
    drawn at random (and can be read back from `.seed` to replay the game). `think`: the
    seconds a move of a plain `mcts` (`--think`)."""
    specs: dict[int, AgentSpec] = {}
    for text in texts:
        player, spec = parse_player(text, allow_human=True)
        if player >= players:
            raise AgentSpecError(f"'{text}': the game has {players} player{'s' if players != 1 else ''}, "
                                 f"numbered 0 to {players - 1}")
        if player in specs:
            raise AgentSpecError(f"'{text}': player {player} is given twice")
        specs[player] = spec
    if seed is None:
        seed = random.SystemRandom().randrange(2 ** 31)
    return ComputerPlayers(specs, seed, think)
