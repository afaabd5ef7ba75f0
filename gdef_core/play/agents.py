"""Computer players: `random` (uniform over the legal moves) and `greedy` (wins at once when it
can, else avoids moves after which the next player wins at once, else random).

An agent is anything with `choose(state) -> Move`; it never changes the state it is given.
The built-in ones also take `stop`, a function that says when their caller wants an answer at
once (the board server stopping): a search then ends early, a program player is given up.
Each agent owns a `random.Random` seeded at construction, so a game played by seeded agents
is the same game every time. The engine resolves chance nodes (docs/language.md, "Chance"); an
agent asked at one anyway draws an outcome by weight.
"""
from __future__ import annotations

import random
from typing import Protocol

from gdef_core.play.errors import NoLegalMoveError


class Agent(Protocol):
    name: str

    def choose(self, state, stop=None) -> "object":
        """The move to play in `state` (a legal one); raises NoLegalMoveError when there is none."""


def legal_moves(state) -> list:
    """The legal moves of `state`, or NoLegalMoveError naming the player who has none."""
    moves = state.legal_moves()
    if not moves:
        raise NoLegalMoveError(state.current_player, state.move_number)
    return moves


class RandomAgent:
    """Plays a legal move chosen uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, stop=None):
        move = state.random_move(self.rng)   # uniform, without judging every candidate
        if move is None:
            raise NoLegalMoveError(state.current_player, state.move_number)
        return move


class GreedyAgent:
    """Looks one move ahead for itself and one for the next player.

    1. A move that wins at once is played.
    2. Otherwise moves after which the next player can win at once are avoided (that blocks a
       threat such as three discs in a row with an open end), when some other move exists.
    3. Among what is left the choice is random.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, stop=None):
        if state.is_chance_node:
            return state.sample_chance(self.rng)
        me = state.current_player
        safe, risky = [], []
        for move in legal_moves(state):
            after = state.clone()
            after.apply(move)
            if after.is_over:
                if after.winner == me:
                    return move
                (safe if after.winner is None else risky).append(move)
            elif _next_player_wins_at_once(after):
                risky.append(move)
            else:
                safe.append(move)
        return self.rng.choice(safe or risky)


def _next_player_wins_at_once(state) -> bool:
    if state.is_chance_node:  # the next player's moves wait for chance
        return False
    mover = state.current_player
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        if after.is_over and after.winner == mover:
            return True
    return False
