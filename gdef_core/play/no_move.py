"""Why the player on turn has no legal move, said so a game author can act on it.

A candidate whose isMoveLegal() fails at run time is refused like one it returns false for
(spec section 12), so a rule that divides by zero on every candidate looks like a position
without moves. The computer players, gdef-sim, gdef-run's `moves` and gdef-check --play stop
there; this says which of the two it was, with the first failure and its location.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

from gdef_core.moves import Move
from gdef_core.play.errors import NoLegalMoveError
from gdef_core.runtime.errors import GdefRuntimeError
from gdef_core.runtime.game import VerdictKind

# Candidates judged again to say why: enough for any real position, bounded on a big board.
JUDGED = 1000


@dataclass(frozen=True, slots=True)
class Refusals:
    """How the candidates of a position without a legal move were refused."""

    total: int     # candidates proposed
    judged: int    # of them judged again (the first JUDGED)
    failed: int    # of those, refused because isMoveLegal() failed
    first: tuple[Move, GdefRuntimeError] | None   # the first that failed, and its failure

    def __str__(self) -> str:
        of = f"{self.total} candidate{'s' if self.total != 1 else ''}"
        if self.total == 0:
            return "moves() proposed no candidate"
        if self.first is None:
            if self.judged == self.total:
                return f"isMoveLegal() refused all {of}"
            return f"isMoveLegal() refused the {self.judged} of its {of} judged"
        share = ("every one" if self.failed == self.total else
                 f"{self.failed} of the first {self.judged}" if self.judged < self.total else str(self.failed))
        move, error = self.first
        return f"isMoveLegal() failed on {share} of its {of}, the first `{move}` at {error.headline()}"


def refusals(state) -> Refusals | None:
    """How the candidates of `state` (whose player on turn has no legal move) were refused, or
    None when that cannot be told (a chance node, a game over, moves() failing)."""
    if state.is_over or state.is_chance_node:
        return None
    try:
        candidates = state.candidate_view()
    except GdefRuntimeError:
        return None
    total = len(candidates)
    judged = min(total, JUDGED)
    failed = 0
    first = None
    for ops in islice(candidates, judged):
        move = state.moves_of([ops])[0]
        verdict = state.check(move)
        if verdict.kind is VerdictKind.RUNTIME_ERROR and verdict.error is not None:
            failed += 1
            if first is None:
                first = (move, verdict.error)
    return Refusals(total, judged, failed, first)


def no_legal_move(state) -> NoLegalMoveError:
    """The error for `state`, whose player on turn has no legal move, saying why."""
    found = refusals(state)
    return NoLegalMoveError(state.current_player, state.move_number, str(found) if found else "",
                            found is not None and found.first is not None)
