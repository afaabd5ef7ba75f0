"""A state as numbers for learning code: one plane per object, then one per player; and as
text for people, drawn as gdef-run's console draws it.

Planes are width x height (`[plane][x][y]`): plane k is 1 where object k stands, plane K + p is
all ones when player p is on turn (all zeros once the game is over); a game whose squares count
has one more plane, K + P, holding each square's count. Shared by the OpenSpiel
and PettingZoo adapters so both see the same tensor and the same text.
"""
from __future__ import annotations

import numpy as np

from gdef_core.runtime.render import render_board


def plane_shape(game) -> tuple[int, int, int]:
    return (len(game.objects) + game.players + (1 if game.counting else 0), game.width, game.height)


def fill_planes(state, out: np.ndarray) -> None:
    """Write `state` into `out` (shaped plane_shape(game), any float or int dtype)."""
    game = state.game
    out.fill(0)
    index = {name: k for k, name in enumerate(game.objects)}
    for x, y, name in state.board.occupied():
        out[index[name], x, y] = 1
    if not state.is_over:
        out[len(index) + state.current_player] = 1
    if game.counting:
        counts = out[len(index) + game.players]
        for x, y, n in state.board.counts():
            counts[x, y] = n


def planes(state, dtype=np.float32) -> np.ndarray:
    out = np.zeros(plane_shape(state.game), dtype)
    fill_planes(state, out)
    return out


def board_text(state, stopped_after: int | None = None) -> str:
    """The position as gdef-run draws it in the terminal (the game's `show`: labels, glyphs,
    row 0 at the bottom, scores beside the board once any is set; no colours), then a line: who
    is to move (chance first, at a chance node), who won, a draw, or (`stopped_after`) that the
    game was cut after that many moves."""
    game = state.game
    shown = game.presentation
    board = render_board(state.board, list(game.objects), scores=list(state.scores), presentation=shown)
    if state.is_over:
        status = "Draw." if state.winner is None else f"{shown.who(state.winner, True)} wins."
    elif stopped_after is not None:
        status = f"Stopped after {stopped_after} moves (max_game_length)."
    elif state.is_chance_node:
        status = f"Chance moves, then {shown.who(state.current_player)}."
    else:
        status = f"{shown.who(state.current_player, True)} to move."
    return f"{board}\n{status}"
