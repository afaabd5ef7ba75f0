"""A game being played move by move, with what a game record keeps: the moves, the rejected
attempts and the result. gdef-run drives one (interactively or from a move script); anything
that wants records, undo or resume can too.

Record (JSON), as `gdef-run --record` writes it and `--resume` reads it:

    {"game": "tictactoe", "files": ["examples/tictactoe.gdef"], "players": 2,
     "moves": [{"player": 0, "move": "place(1,1,X)"}, ...],
     "rejected": [{"line": 3, "player": 1, "move": "place(1,1,O)", "reason": "..."}],
     "result": {"over": false, "winner": null},
     "vars": {"movesWithoutCapture": 0}, "scores": [0, 0]}

The history of positions (spec 15.4) is not written: replaying the moves rebuilds it.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass

from gdef_core.runtime.game import Game, IllegalMoveError, State, Verdict, VerdictKind
from gdef_core.runtime.moves import Move

_LEGAL = Verdict(VerdictKind.LEGAL)


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True)
class Played:
    """The outcome of one attempted move: `verdict` is legal when it was applied."""

    verdict: Verdict
    player: int
    text: str

    @property
    def accepted(self) -> bool:
        return self.verdict.legal


class Session:
    def __init__(self, game: Game, files: list[str], state: State | None = None) -> None:
        self.game = game
        self.files = list(files)
        self.state = state if state is not None else game.new_state()
        self.history: list[State] = []  # the state before each move, for undo
        self.moves: list[dict] = []
        self.rejected: list[dict] = []

    def play(self, text: str, line: int | None = None) -> Played:
        """Try the move written `text`; applied when legal, recorded as rejected otherwise."""
        state = self.state
        player = state.current_player
        before = state.clone()
        try:
            state.apply(text)
        except IllegalMoveError as error:
            return self._reject(error.verdict, player, text, line)
        written = str(Move.parse(text))
        self.history.append(before)
        self.moves.append({"player": player, "move": written})
        return Played(_LEGAL, player, written)

    def _reject(self, verdict: Verdict, player: int, text: str, line: int | None) -> Played:
        self.rejected.append({"line": line, "player": player, "move": text, "reason": verdict.reason})
        return Played(verdict, player, text)

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.history:
            return False
        self.state = self.history.pop()
        self.moves.pop()
        return True

    def objects_used(self, player: int) -> list[str]:
        """The objects `player` has placed so far, in order of first use."""
        used: dict[str, None] = {}
        for entry in self.moves:
            if entry["player"] == player:
                for op in Move.parse(entry["move"]).ops:
                    if op.obj is not None:
                        used.setdefault(op.obj)
        return list(used)

    # ------------------------------------------------------------ records

    def record(self) -> dict:
        state = self.state
        return {
            "game": self.game.name,
            "files": self.files,
            "players": self.game.players,
            "moves": list(self.moves),
            "rejected": list(self.rejected),
            "result": {"over": state.is_over, "winner": state.winner},
            "vars": _json_vars(state.variables),
            "scores": state.scores,
        }

    def save(self, path: str) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        text = json.dumps(self.record(), indent=2) + "\n"
        folder = os.path.dirname(os.path.abspath(path))
        handle, temporary = tempfile.mkstemp(prefix=".gdef-record-", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise

    def resume(self, record: dict) -> None:
        """Replay a record's moves (each must be legal, by the recorded player) and keep its
        rejected entries. Raises RecordError saying which move does not replay."""
        for number, entry in enumerate(record["moves"], 1):
            if self.state.is_over:
                raise RecordError(f"move {number} ({entry['move']}) comes after the end of the game")
            if entry["player"] != self.state.current_player:
                raise RecordError(f"move {number} ({entry['move']}) is recorded for player {entry['player']}, "
                                  f"but player {self.state.current_player} is on turn")
            outcome = self.play(entry["move"])
            if not outcome.accepted:
                self.rejected.pop()
                raise RecordError(f"move {number} ({entry['move']}) does not replay: {outcome.verdict.reason}")
        self.rejected = list(record["rejected"]) + self.rejected


def _json_vars(variables: dict) -> dict:
    return {name: str(value) if isinstance(value, str) else value for name, value in variables.items()}


def load_record(path: str) -> dict:
    """Read and validate a game record; RecordError says what is wrong."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise RecordError(f"{path}: cannot read the record: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: not a JSON game record: {error}") from None
    problem = _record_problem(data)
    if problem:
        raise RecordError(f"{path}: not a gdef-run game record: {problem}")
    return data


def _record_problem(data) -> str | None:
    if not isinstance(data, dict):
        return "the top level must be an object"
    for key, kind in (("game", str), ("files", list), ("players", int), ("moves", list), ("rejected", list)):
        if not isinstance(data.get(key), kind):
            return f"'{key}' is missing or not a {kind.__name__}"
    if not all(isinstance(f, str) for f in data["files"]):
        return "'files' must list file names"
    for number, entry in enumerate(data["moves"], 1):
        if not (isinstance(entry, dict) and isinstance(entry.get("player"), int)
                and isinstance(entry.get("move"), str)):
            return f"move {number} must be {{\"player\": N, \"move\": \"...\"}}"
    for number, entry in enumerate(data["rejected"], 1):
        if not isinstance(entry, dict):
            return f"rejected entry {number} must be an object"
    return None
