"""A game being played move by move, with what a game record keeps: the moves, the rejected
attempts and the result. gdef-run drives one (interactively or from a move script); anything
that wants records, undo or resume can too.

Record (JSON), as `gdef-run --record` writes it and `--resume` reads it:

    {"game": "tictactoe", "files": ["examples/tictactoe.gdef"], "players": 2,
     "moves": [{"player": 0, "move": "place(1,1,X)", "name": "b2"}, ...],
     "rejected": [{"line": 3, "player": 1, "move": "place(1,1,O)", "reason": "..."}],
     "result": {"over": false, "winner": null},
     "vars": {"movesWithoutCapture": 0}, "scores": [0, 0]}

A game that did not begin at the game's start position (the bot protocol's `set`) also keeps
`"start"`: that position, as `State.to_json()` writes it; `--resume` replays the moves from it.
`files` name .gdef files only (gdef_core.loader.is_gdef_name): a record may come from someone
else, and must not make gdef read, and quote, /etc/shadow. A relative name is relative to the
record's own folder (`record_files`), so that a record resumes from any folder and a folder of
games and records can be moved whole; a name given absolute stays absolute.

The history of positions (spec 15.4) is not written: replaying the moves rebuilds it.

A chance outcome (docs/language.md, "Chance") is a move like any other, marked
`"chance": true` (its `player` is the one who moves after it): the record holds every outcome,
so `--resume` replays the game without a seed.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from gdef_core.files import read_bytes, replace_file
from gdef_core.loader import is_gdef_name
from gdef_core.moves import Move
from gdef_core.runtime.game import Game, IllegalMoveError, State, UndoPoint, Verdict, VerdictKind, json_value
from gdef_core.runtime.reasons import LocatedRule, explain_end
from gdef_core import json_input

_LEGAL = Verdict(VerdictKind.LEGAL)


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message says why."""


@dataclass(frozen=True, slots=True)
class Played:
    """The outcome of one attempted move: `verdict` is legal when it was applied."""

    verdict: Verdict
    player: int
    text: str
    name: str | None = None  # the move's name (`e2e4`) when it was played
    chance: bool = False  # the move is a chance outcome

    @property
    def accepted(self) -> bool:
        return self.verdict.legal


class Session:
    def __init__(self, game: Game, files: list[str], state: State | None = None, start: dict | None = None) -> None:
        """`start`: the position `state` is, as State.to_json() writes it, when it is not the
        game's own start position (the record keeps it, so that the game can be resumed)."""
        self.game = game
        self.files = list(files)
        self.state = state if state is not None else game.new_state()
        self.start = start
        self.history: list[UndoPoint] = []  # what each move changed, for undo
        self.moves: list[dict] = []
        self.rejected: list[dict] = []
        self._ending: tuple | None = None  # (moves played, what ended the game), see ended_by()

    def play(self, text: str, line: int | None = None) -> Played:
        """Try the move written `text`; applied when legal, recorded as rejected otherwise."""
        state = self.state
        player = state.current_player
        chance = state.is_chance_node
        move = state.read_move(text)
        if isinstance(move, Verdict):
            return self._reject(move, player, text, line)
        if chance and (verdict := state.check(move)):   # recorded as chance() wrote it
            move = state.game.to_move(verdict.ops)
        name = state.move_name(move)
        before = state.undo_point(move)
        try:
            state.apply(move)
        except IllegalMoveError as error:
            return self._reject(error.verdict, player, text, line)
        written = str(move)
        self.history.append(before)
        self.moves.append({"player": player, "move": written, "name": name, **({"chance": True} if chance else {})})
        return Played(_LEGAL, player, written, name, chance)

    def _reject(self, verdict: Verdict, player: int, text: str, line: int | None) -> Played:
        self.rejected.append({"line": line, "player": player, "move": text, "reason": verdict.reason})
        return Played(verdict, player, text)

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self.history:
            return False
        self.state.restore(self.history.pop())
        self.moves.pop()
        return True

    def last_square(self) -> tuple[int, int] | None:
        """The square the last move changed last (where a piece arrived), None before any:
        where a big board is drawn around."""
        if not self.moves:
            return None
        game = self.game
        inside = [(op.x, op.y) for op in Move.parse(self.moves[-1]["move"]).ops
                  if 0 <= op.x < game.width and 0 <= op.y < game.height]
        return inside[-1] if inside else None

    def ended_by(self) -> LocatedRule | None:
        """The line of end() that ended the game (runtime/reasons.py), or None: the game goes
        on, or it cannot be told (a game resumed without its moves, a rule without comment
        still names its line)."""
        if not self.state.is_over or not self.history:
            return None
        key = len(self.moves)
        if self._ending is None or self._ending[0] != key:
            before = self.state.clone()
            before.restore(self.history[-1])
            self._ending = (key, explain_end(before, Move.parse(self.moves[-1]["move"])))
        return self._ending[1]

    def objects_used(self, player: int) -> list[str]:
        """The objects `player` has placed so far, in order of first use."""
        used: dict[str, None] = {}
        for entry in self.moves:
            if entry["player"] == player and not entry.get("chance"):
                for op in Move.parse(entry["move"]).ops:
                    if op.obj is not None:
                        used.setdefault(op.obj)
        return list(used)

    # ------------------------------------------------------------ records

    def record(self, folder: str | None = None) -> dict:
        """The record as JSON data; `folder`: the folder of the file it goes to, which its
        relative `files` are written relative to (files_for_record); without one (the board
        page's download, whose folder is not known) they are written absolute."""
        state = self.state
        record = {
            "game": self.game.name,
            "files": [os.path.abspath(name) for name in self.files] if folder is None
            else files_for_record(self.files, folder),
            "players": self.game.players,
            "moves": list(self.moves),
            "rejected": list(self.rejected),
            "result": {"over": state.is_over, "winner": state.winner},
            "vars": _json_vars(state.variables),
            "scores": [json_value(score) for score in state.scores],
        }
        if self.start is not None:
            record["start"] = self.start
        if self.game.params:
            record["params"] = {name: json_value(value) for name, value in self.game.params.items()}
        return record

    def save(self, path: str) -> None:
        """Write the record atomically (a crash never leaves half a file), only as a regular
        file of this user and never through a symbolic link (gdef_core.files.replace_file)."""
        folder = os.path.dirname(os.path.abspath(path))
        replace_file(path, json.dumps(self.record(folder), indent=2, allow_nan=False) + "\n")

    @classmethod
    def from_record(cls, game: Game, files: list[str], record: dict) -> "Session":
        """The game of a (checked: load_record) record, its moves replayed from its start;
        RecordError says what does not fit."""
        start = record.get("start")
        state = None
        if start is not None:
            try:
                state = game.state_from_json(start)
            except (ValueError, TypeError, KeyError, RecursionError) as error:
                raise RecordError(f"its start position does not fit the game: {error}") from None
        session = cls(game, files, state, start)
        session.resume(record)
        return session

    def resume(self, record: dict) -> None:
        """Replay a record's moves (each must be legal, by the recorded player) and keep its
        rejected entries. Raises RecordError saying which move does not replay."""
        for number, entry in enumerate(record["moves"], 1):
            if self.state.is_over:
                raise RecordError(f"move {number} ({entry['move']}) comes after the end of the game")
            if bool(entry.get("chance")) != self.state.is_chance_node:
                recorded, now = ("chance's", "a player's") if entry.get("chance") else ("a player's", "chance's")
                raise RecordError(f"move {number} ({entry['move']}) is recorded as {recorded} move, but the "
                                  f"next move here is {now}")
            if entry["player"] != self.state.current_player:
                raise RecordError(f"move {number} ({entry['move']}) is recorded for player {entry['player']}, "
                                  f"but player {self.state.current_player} is on turn")
            outcome = self.play(entry["move"])
            if not outcome.accepted:
                self.rejected.pop()
                raise RecordError(f"move {number} ({entry['move']}) does not replay: {outcome.verdict.reason}")
        self.rejected = list(record["rejected"]) + self.rejected


def _json_vars(variables: dict) -> dict:
    return {name: json_value(value) for name, value in variables.items()}


def files_for_record(files: list[str], folder: str) -> list[str]:
    """The game files (named relative to the current folder, or absolute) as a record in
    `folder` names them: an absolute name stays absolute, a relative one becomes relative to
    `folder`, unless the two have only the root in common (a record of the records folder,
    a game under /work): then it is written absolute rather than climbing to the root."""
    written = []
    for name in files:
        if os.path.isabs(name):
            written.append(name)
            continue
        full = os.path.abspath(name)
        try:
            common = os.path.commonpath([full, folder])
        except ValueError:  # another drive
            common = None
        only_root = common is None or common == os.path.dirname(common)
        written.append(full if only_root else os.path.relpath(full, folder))
    return written


def record_files(record: dict, path: str) -> tuple[list[str], list[str]]:
    """The game files of a (checked) record read from `path`, as names the current folder
    opens, and what to tell the user about them. A relative name is taken relative to the
    record's folder; when no file is there but one is relative to the current folder (a record
    written before records named files relative to their folder), that one is taken, and said."""
    folder = os.path.dirname(os.path.abspath(path))
    files, notes = [], []
    for name in record["files"]:
        if os.path.isabs(name):
            files.append(name)
            continue
        beside = os.path.normpath(os.path.join(folder, name))
        if not os.path.exists(beside) and os.path.isfile(name):
            notes.append(f"{path} names {name}, which is not in the record's folder ({folder}); the {name} of "
                         f"the current folder is taken (records of earlier versions of gdef named files that way)")
            files.append(name)
        else:
            files.append(_shortest(beside))
    return files, notes


def _shortest(path: str) -> str:
    """`path` relative to the current folder when that is shorter (for messages), else as is."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if len(relative) < len(path) else path


def load_record(path: str) -> dict:
    """Read and validate a game record; RecordError says what is wrong."""
    try:
        data = json_input.loads(read_bytes(path).decode("utf-8"))
    except OSError as error:
        raise RecordError(f"{path}: cannot read the record: {error.strerror or error}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: not a JSON game record: {error}") from None
    except RecursionError:
        raise RecordError(f"{path}: not a gdef-run game record: nested too deeply") from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise RecordError(f"{path}: not a gdef-run game record: {error}") from None
    problem = record_problem(data)
    if problem:
        raise RecordError(f"{path}: not a gdef-run game record: {problem}")
    return data


def record_problem(data) -> str | None:
    """What makes `data` (parsed JSON) not a game record, or None."""
    if not isinstance(data, dict):
        return "the top level must be an object"
    for key, kind in (("game", str), ("files", list), ("players", int), ("moves", list), ("rejected", list)):
        if not isinstance(data.get(key), kind):
            return f"'{key}' is missing or not a {kind.__name__}"
    if not all(isinstance(f, str) for f in data["files"]):
        return "'files' must list file names"
    for name in data["files"]:
        if not is_gdef_name(name):
            return (f"'files' names {name[:200]!r}, which is not a .gdef file: a record names .gdef "
                    "files only (that file is not read)")
    params = data.get("params", {})
    if not (isinstance(params, dict) and all(isinstance(value, (int, float, bool)) for value in params.values())):
        return "'params' must map parameter names to their values (numbers, true, false)"
    if "start" in data and not isinstance(data["start"], dict):
        return "'start' must be a position, as the bot protocol's 'state' answers it"
    for number, entry in enumerate(data["moves"], 1):
        if not (isinstance(entry, dict) and isinstance(entry.get("player"), int)
                and isinstance(entry.get("move"), str)):
            return f"move {number} must be {{\"player\": N, \"move\": \"...\"}}"
        if not isinstance(entry.get("chance", False), bool):
            return f"move {number}: 'chance' must be true or false"
    for number, entry in enumerate(data["rejected"], 1):
        if not isinstance(entry, dict):
            return f"rejected entry {number} must be an object"
    return None
