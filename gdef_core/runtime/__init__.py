"""Running games: compiled rules, game states, moves, limits (see docs/runtime.md)."""
from __future__ import annotations

from gdef_core.moves import PASS, Move, MoveSyntaxError, Op
from gdef_core.runtime.errors import GameLoadError, GdefRuntimeError, ParamError, StackFrame
from gdef_core.runtime.game import (DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, BoardView, Game,
                                    IllegalMoveError, State, Verdict, VerdictKind, game_from_program,
                                    load_game)

__all__ = [
    "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_STEPS", "PASS", "BoardView", "Game", "GameLoadError",
    "GdefRuntimeError", "IllegalMoveError", "Move", "MoveSyntaxError", "Op", "ParamError", "StackFrame", "State",
    "Verdict", "VerdictKind", "game_from_program", "load_game",
]
