"""What can stop a computer player or a simulation, in words a game author can act on."""
from __future__ import annotations


class AgentError(Exception):
    """A computer player could not choose a move."""


class NoLegalMoveError(AgentError):
    """The player on turn has no legal move, yet `end()` did not end the game (spec section 12:
    that is not automatically the end, so a tool that needs a move must say so)."""

    def __init__(self, player: int, move_number: int, why: str = "", failed: bool = False) -> None:
        # `why`: what refused the candidates (play/no_move.py); `failed`: a run-time failure did,
        # so the fix is in the rule that fails rather than in end()
        if failed:
            message = (f"player {player} has no legal move after {move_number} moves: {why}; a move whose "
                       "isMoveLegal() fails is refused, and end() did not end the game: fix the failure, or "
                       "make isMoveLegal() return false where it should refuse")
        else:
            because = f" ({why})" if why else ""
            message = (f"player {player} has no legal move after {move_number} moves{because}, but end() did not "
                       "end the game; make end() handle it, e.g. "
                       "`if (!hasLegalMove()) { setWinner(onTurn()); return true; }`")
        super().__init__(message)
        self.player = player
        self.move_number = move_number
        self.why = why


class AgentSpecError(ValueError):
    """An agent description such as `mcts:iterations=abc` that cannot be read."""


class ExternalAgentError(AgentError):
    """A player program (`cmd:...`) failed: did not start, stopped, or answered badly."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"the player program '{command}' {message}")
        self.command = command
