"""One game of a run, whoever plays it: its seeds, its outcome, and what stopped it.

Game k of a run seeded S is the same game whichever process plays it, on one machine, on
several processes (simulate.py), on a Dask cluster (cluster.py) or in the native kernel
(native_sim.py): every player's agent is seeded from (S, k, player) by `game_seed`; the
native kernel, which plays random games alone, draws game k's moves from kernel_seed(S, k, 0),
derived inside the kernel itself (no Python work per game).
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from gdef_core.play.errors import AgentError

SEED_RULE = ("the agent of player p in game k (k from 0) of a run seeded S is seeded with the "
             "first 8 bytes, big-endian, of blake2b('gdef-sim/S/k/p', digest_size=8); chance's "
             "outcomes in game k are drawn by a random.Random seeded likewise from 'gdef-sim/S/k/chance'")


NATIVE_SEED_RULE = ("the moves of game k (k from 0) of a run seeded S are drawn from one splitmix64 "
                    "stream seeded with m(m(m(S + g) + (k + 1) g) + g), g = 0x9E3779B97F4A7C15, "
                    "m splitmix64's finaliser, arithmetic modulo 2^64")
_MASK = 2**64 - 1
_GOLDEN = 0x9E3779B97F4A7C15


def kernel_seed(seed: int, index: int, player: int) -> int:
    """The seed the native kernel derives for `player` in game `index` of a run seeded `seed`
    (kernels/kernel.py: _game_seed, its twin): counter-based, so computed anywhere in O(1)."""
    z = _mix((seed + _GOLDEN) & _MASK)
    z = _mix((z + (index + 1) * _GOLDEN) & _MASK)
    return _mix((z + (player + 1) * _GOLDEN) & _MASK)


def _mix(z: int) -> int:
    """splitmix64's finaliser."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def game_seed(seed: int, index: int, player: int) -> int:
    """The seed of `player`'s agent in game number `index` of a run seeded with `seed`."""
    digest = hashlib.blake2b(f"gdef-sim/{seed}/{index}/{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def chance_rng(seed: int, index: int) -> random.Random:
    """The generator chance's outcomes are drawn from in game number `index` of a run seeded
    with `seed` (the engine resolves chance nodes: no player's agent sees them)."""
    digest = hashlib.blake2b(f"gdef-sim/{seed}/{index}/chance".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    winner: int | None   # None: a draw, or a game stopped by the length cap
    length: int          # moves played
    capped: bool         # stopped by --max-moves before end() ended it
    scores: tuple = ()   # each player's final score (spec 15.5)


@dataclass(frozen=True, slots=True)
class Failure:
    """What stopped game `index`, as text (exceptions do not all cross processes)."""

    index: int
    message: str


def play_game(game, specs, seed: int, index: int, max_moves: int | None = None) -> GameOutcome:
    """Play game number `index` of a run seeded with `seed`; specs[p] (a spec.AgentSpec)
    plays player p."""
    agents = [spec.build(game_seed(seed, index, player)) for player, spec in enumerate(specs)]
    return play_on(game.new_state(), agents, index, 0, max_moves, chance_rng(seed, index))


def play_on(state, agents, index: int, length: int, max_moves: int | None, chance=None) -> GameOutcome:
    """Go on with game number `index` from `state`, `length` moves in, agents[p] playing
    player p, to its end or to `max_moves` moves; `chance` (a random.Random) draws the
    outcomes of chance nodes."""
    while not state.is_over:
        if max_moves is not None and length >= max_moves:
            return GameOutcome(index, None, length, True, tuple(state.scores))
        if state.is_chance_node:
            state.apply(state.sample_chance(chance))
        else:
            state.apply(agents[state.current_player].choose(state))
        length += 1
    return GameOutcome(index, state.winner, length, False, tuple(state.scores))


def play_or_fail(game, specs, seed: int, index: int, max_moves: int | None) -> GameOutcome | Failure:
    """play_game's outcome, or the Failure that stopped the game."""
    from gdef_core.runtime import GdefRuntimeError, IllegalMoveError

    try:
        return play_game(game, specs, seed, index, max_moves)
    except (GdefRuntimeError, AgentError, IllegalMoveError) as error:
        return failure(index, error)


def failure(index: int, error: Exception) -> Failure:
    """The Failure of game `index` that `error` stopped."""
    from gdef_core.runtime import IllegalMoveError

    if isinstance(error, IllegalMoveError):   # a legal move whose end() failed
        verdict = error.verdict
        return Failure(index, f"end() failed:\n{verdict.error}" if verdict.error else verdict.reason)
    return Failure(index, str(error))
