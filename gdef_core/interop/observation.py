"""A state as numbers for learning code: one plane per object, then one per player.

Planes are width x height (`[plane][x][y]`): plane k is 1 where object k stands, plane K + p is
all ones when player p is on turn (all zeros once the game is over). Shared by the OpenSpiel
and PettingZoo adapters so both see the same tensor.
"""
from __future__ import annotations

import numpy as np


def plane_shape(game) -> tuple[int, int, int]:
    return (len(game.objects) + game.players, game.width, game.height)


def fill_planes(state, out: np.ndarray) -> None:
    """Write `state` into `out` (shaped plane_shape(game), any float or int dtype)."""
    game = state.game
    out.fill(0)
    index = {name: k for k, name in enumerate(game.objects)}
    for x, y, name in state.board.occupied():
        out[index[name], x, y] = 1
    if not state.is_over:
        out[len(index) + state.current_player] = 1


def planes(state, dtype=np.float32) -> np.ndarray:
    out = np.zeros(plane_shape(state.game), dtype)
    fill_planes(state, out)
    return out
