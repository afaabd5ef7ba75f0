"""`gdef-check --play N`: play N seeded random games and report, as ordinary diagnostics at
the gdef line concerned, what only playing finds:

- run-time errors reached in play (their own G6xx code, at their location);
- games that reach the move cap (G701) and positions where the player on turn cannot move
  while `end()` said the game goes on (G702), at `end()`;
- candidates of `moves()` that `isMoveLegal()` rejects (G703, info) and legal moves that
  `moves()` never proposes, found by changing generated moves (G704), at `moves()`;
- undo or to_json/from_json not giving back the same state (G705).

Each finding carries the moves that reach it, as a move script to replay with gdef-run.
Bounded: a move cap per game, a time budget for the whole run, a step budget per call.
"""
from __future__ import annotations

import hashlib
import os
import random
import tempfile
import time
from dataclasses import dataclass, field

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic, Related
from gdef_core.report.model import Played
from gdef_core.span import Span

MUTATIONS_PER_POSITION = 12  # changed generated moves tried in each position


@dataclass
class PlayOptions:
    games: int
    seed: int = 0
    max_moves: int = 500
    seconds: float = 60.0
    out: str | None = None  # where replay scripts go (default: a new folder of the temporary folder)

    def script_folder(self) -> str:
        if self.out is None:
            self.out = tempfile.mkdtemp(prefix="gdef-check-play-")
        os.makedirs(self.out, exist_ok=True)
        return self.out


@dataclass
class _Findings:
    """At most one finding per code and place: the first (shortest) way to reach it."""

    found: dict = field(default_factory=dict)

    def add(self, key, make) -> None:
        if key not in self.found:
            self.found[key] = make()


_OPTIONS = PlayOptions(0)  # of the run in progress (where replay scripts go)


def play_findings(game, options: PlayOptions) -> tuple[list[Diagnostic], Played]:
    """The findings of `options.games` random games of `game`, and what was played (for the
    summary: games, moves, time)."""
    from gdef_core.runtime.errors import GdefRuntimeError

    global _OPTIONS
    _OPTIONS = options
    findings = _Findings()
    started = time.monotonic()
    deadline = started + options.seconds
    played = total_moves = 0
    for number in range(options.games):
        if time.monotonic() > deadline:
            break
        rng = random.Random(_game_seed(options.seed, number))
        moves: list[str] = []
        try:
            _play_one(game, rng, moves, options, findings, deadline)
        except GdefRuntimeError as error:
            findings.add(("runtime", error.code, str(error.span)),
                         lambda error=error: _runtime(error, game, moves, number))
        played += 1
        total_moves += len(moves)
    summary = Played(game.name, played, options.games, total_moves, time.monotonic() - started)
    return list(findings.found.values()), summary


def _play_one(game, rng, moves: list[str], options: PlayOptions, findings: _Findings, deadline: float) -> None:
    from gdef_core.play.no_move import refusals
    from gdef_core.runtime.game import IllegalMoveError, VerdictKind

    state = game.new_state()
    generator = game.rules.raw_moves is not None
    while not state.is_over:
        if len(moves) >= options.max_moves:
            findings.add(("cap",), lambda: _at_end(game, "G701", f"a game played at random reached "
                                                  f"{options.max_moves} moves without `end()` ending it",
                                                  moves))
            return
        if time.monotonic() > deadline:
            return
        legal = state.legal_ops()   # operations: a big board's millions are not made Moves
        if not legal:
            why = refusals(state)
            if why is not None and why.first is not None:   # stuck because the rules fail: say where
                move, error = why.first
                moves.append(str(move))
                raise error
            findings.add(("stuck",), lambda: _at_end(game, "G702", f"player {state.current_player} has no "
                                                    "legal move here, but `end()` said the game goes on",
                                                    moves))
            return
        if state.is_chance_node:  # chance's outcomes, drawn by weight
            move = state.sample_chance(rng)
        else:
            if generator:
                _judge_generator(game, state, legal, rng, moves, findings)
            move = state.moves_of([rng.choice(legal)])[0]
        before = state.clone()
        try:
            state.apply(move)
        except IllegalMoveError as error:
            verdict = error.verdict
            if verdict.kind is VerdictKind.RUNTIME_ERROR and verdict.error is not None:
                moves.append(str(move))
                raise verdict.error from None
            raise
        moves.append(str(move))
        _check_restoring(game, before, move, state, moves, findings)


def _judge_generator(game, state, legal, rng, moves, findings: _Findings) -> None:
    """Candidates the judge rejects (G703), and legal moves (`legal`: their operation tuples)
    found by changing a generated move that the generator does not propose (G704)."""
    candidates = state.candidate_moves()
    rejected = len(candidates) - len(legal)
    if rejected > 0:
        findings.add(("generator-illegal",), lambda: _at(game, "moves", "G703",
                     f"moves() proposed {len(candidates)} candidates here, {rejected} of which "
                     "isMoveLegal() rejects", moves))
    proposed = {_effect(state, move) for move in candidates}
    for _ in range(MUTATIONS_PER_POSITION):
        mutant = _mutate(game, rng, state.moves_of([rng.choice(legal)])[0])
        if mutant is None or _effect(state, mutant) in proposed:
            continue
        if state.clone().check(mutant):
            findings.add(("generator-missing",), lambda: _at(game, "moves", "G704",
                         f"the legal move {mutant} is never proposed by moves() (found by changing "
                         "a generated move)", moves))
            return


def _mutate(game, rng, move):
    """A generated move with one operation added, dropped or changed (in a game whose squares
    count, a count one more or less too)."""
    from gdef_core.moves import Move, Op

    ops = list(move.ops)
    choice = rng.random()
    x, y = rng.randrange(game.width), rng.randrange(game.height)
    objects = list(game.objects)

    def changed(old: Op) -> Op:
        if old.is_count:
            return Op(old.x, old.y, None, old.count + rng.choice((-1, 1)))
        return Op(old.x, old.y, rng.choice(objects)) if objects and rng.random() < 0.5 else Op(x, y, old.obj)

    if choice < 0.34 and ops:
        del ops[rng.randrange(len(ops))]
    elif choice < 0.67 or not ops:
        ops.insert(rng.randrange(len(ops) + 1), Op(x, y, rng.choice(objects)) if objects and rng.random() < 0.7
                   else Op(x, y, None, rng.randrange(4)) if game.counting and rng.random() < 0.5 else Op(x, y))
    else:
        i = rng.randrange(len(ops))
        ops[i] = changed(ops[i])
    return Move(tuple(ops))


def _effect(state, move) -> tuple:
    """The board a move leaves (operations applied in order), as the judge sees NextPosition."""
    height = state.game.height
    board = state.board
    changed = {}
    counts = {}  # a game whose squares count: place and clear reset the count
    for op in move.ops:
        if 0 <= op.x < state.game.width and 0 <= op.y < height:
            if op.is_count:
                counts[op.x * height + op.y] = op.count
                continue
            changed[op.x * height + op.y] = op.obj or "empty"
            if state.game.counting:
                counts[op.x * height + op.y] = 0
    return (tuple(sorted((i, str(o)) for i, o in changed.items() if str(board[i // height, i % height]) != str(o)))
            + tuple(sorted((i, n) for i, n in counts.items() if board.count(i // height, i % height) != n)))


def _check_restoring(game, before, move, after, moves, findings: _Findings) -> None:
    """Undo (as gdef-run's sessions do it) and to_json/from_json give back the same states."""
    from gdef_core.runtime.session import Session

    session = Session(game, game.files, before.clone())
    session.play(str(move))
    session.undo()
    if session.state != before:
        findings.add(("undo",), lambda: _at_file(game, "G705", f"taking back {move} did not restore "
                                                 "the position before it", moves))
    if game.state_from_json(after.to_json()) != after:
        findings.add(("json",), lambda: _at_file(game, "G705", "writing the state with to_json() and "
                                                 "reading it back did not give the same state", moves))


# ------------------------------------------------------------------ diagnostics

def _replay(moves: list[str], game, code: str) -> Related:
    """The move script that reaches the finding, written to a file, as a note."""
    folder = _OPTIONS.script_folder()
    stem = os.path.splitext(os.path.basename(game.files[0]))[0]
    handle, path = tempfile.mkstemp(prefix=f"{stem}-{code}-", suffix=".moves", dir=folder)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(f"# {len(moves)} moves of {game.files[0]} that reach {code} (gdef-check --play)\n")
        out.writelines(move + "\n" for move in moves)
    first = " / ".join(moves[:6]) + (" / ..." if len(moves) > 6 else "")
    reached = f"after {len(moves)} move{'s' if len(moves) != 1 else ''} ({first})" if moves else "at the start"
    return Related(Span(game.files[0], 0, 0, 0, 0),
                   f"reached {reached}; replay: gdef-run {game.files[0]} --moves {path}")


def _at(game, function: str, code: str, message: str, moves: list[str]) -> Diagnostic:
    decl = game.program.functions[function]
    return diagnostic(code, decl.name.span, message, related=(_replay(list(moves), game, code),))


def _at_end(game, code: str, message: str, moves: list[str]) -> Diagnostic:
    return _at(game, "end", code, message, moves)


def _at_file(game, code: str, message: str, moves: list[str]) -> Diagnostic:
    return diagnostic(code, Span(game.files[0], 0, 0, 0, 0), message, related=(_replay(list(moves), game, code),))


def _runtime(error, game, moves: list[str], number: int) -> Diagnostic:
    base = error.as_diagnostic()
    return diagnostic(base.code, base.span, f"{base.message} (reached in play, game {number})",
                      related=(*base.related, _replay(list(moves), game, base.code)))


def _game_seed(seed: int, number: int) -> int:
    digest = hashlib.blake2b(f"gdef-check/{seed}/{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
