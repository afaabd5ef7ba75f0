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

from gdef_core.play.no_move import no_legal_move
from gdef_core.play.untried import random_indices


class Agent(Protocol):
    name: str

    def choose(self, state, stop=None) -> "object":
        """The move to play in `state` (a legal one); raises NoLegalMoveError when there is none."""


def legal_ops(state) -> list:
    """The legal moves of `state` as operation tuples (State.legal_ops(): a big board's
    millions are not made Moves; never change the list), or NoLegalMoveError naming the player
    who has none."""
    found = state.legal_ops()
    if not found:
        raise no_legal_move(state)
    return found


class RandomAgent:
    """Plays a legal move chosen uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, stop=None):
        move = state.random_move(self.rng)   # uniform, without judging every candidate
        if move is None:
            raise no_legal_move(state)
        return move


class GreedyAgent:
    """Looks one move ahead for itself and one for the next player.

    1. A move that wins at once is played.
    2. Otherwise moves after which the next player can win at once are avoided (that blocks a
       threat such as three discs in a row with an open end), when some other move exists.
    3. Among what is left the choice is random.

    A position of more than LOOK legal moves (a 1000 x 1000 board has two million) is looked
    at through SAMPLE of them drawn at random, and the next player's replies after each
    through SAMPLE of theirs: looking at every pair would be trillions of positions.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state, stop=None):
        if state.is_chance_node:
            return state.sample_chance(self.rng)
        me = state.current_player
        found = legal_ops(state)
        big = len(found) > LOOK
        if big:
            found = [found[index] for index in self.rng.sample(range(len(found)), SAMPLE)]
        safe, risky = [], []
        for move in state.moves_of(found):
            after = state.clone()
            after.apply(move)
            if after.is_over:
                if after.winner == me:
                    return move
                (safe if after.winner is None else risky).append(move)
            elif _next_player_wins_at_once(after, self.rng if big else None):
                risky.append(move)
            else:
                safe.append(move)
        return self.rng.choice(safe or risky)


LOOK = 10_000   # legal moves: up to this many greedy looks at every one (and every reply)
SAMPLE = 32     # the moves (and replies to each) it looks at beyond


def _next_player_wins_at_once(state, rng) -> bool:
    """Whether a legal move of the next player wins at once: all of them looked at, or with
    `rng` (a big position) at most SAMPLE drawn at random."""
    if state.is_chance_node:  # the next player's moves wait for chance
        return False
    mover = state.current_player
    if rng is None:
        for move in state.legal_moves():
            after = state.clone()
            after.apply(move)
            if after.is_over and after.winner == mover:
                return True
        return False
    for move in _sampled_replies(state, rng):
        point = state.undo_point(move)   # not a clone: a big board is millions of squares
        state.apply(move)
        won = state.is_over and state.winner == mover
        state.restore(point)
        if won:
            return True
    return False


def _sampled_replies(state, rng):
    """At most SAMPLE legal moves of `state` drawn at random, each candidate judged when drawn;
    a candidate is made when drawn too (State.candidate_view), not the board's millions."""
    candidates = state.candidate_view()
    drawn = 0
    for index in random_indices(len(candidates), rng):
        move = state.legal_of([candidates[index]])[0]
        if move is not None:
            yield move
            drawn += 1
            if drawn == SAMPLE:
                return
