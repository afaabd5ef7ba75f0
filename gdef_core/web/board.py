"""What the board page's JSON API does, without HTTP: read the position, list and check moves,
play them (a person's or the computer's), roll at a chance node, undo, choose computer
players, step through a move script or a record, save the record.

At a chance node (docs/language.md, "Chance") the state lists the outcomes with their weights;
the page rolls (`roll`: an outcome drawn from the run's generator, as gdef-run rolls) when the
player waiting for the roll is a computer, and shows a Roll button when it is a person, who may
also pick an outcome from the list (a rule test, a physical die).

It drives the same game controller as the terminal (gdef_core.controller PlaySession: its
session, computer players and record saving), so `--record`, `--resume`, `--player` and `--seed`
mean the same in the browser as in the terminal. One lock makes requests take turns: a session
is not thread-safe, and the page never needs two answers at once. While a computer player thinks
(holding the lock), `thinking` names it and `thinking_state` is the position it thinks about,
with `thinking` in it, so that a page opened meanwhile shows *Move now* too;
`stopping` stops its search when the server stops. Two requests reach a thinking player without
the lock, as in chess programs: *Move now* (`move_now`) makes it play the best move found so
far, and *Undo* (`abandon_thinking`, then `undo` once it has stopped) stops it without playing.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field

from gdef_core.controller import records
from gdef_core.controller.play_session import KeepError
from gdef_core.moves import Move, MoveSyntaxError, looks_like_name
from gdef_core.play.no_move import refusals
from gdef_core.runtime import notation
from gdef_core.runtime.errors import GameLoadError, GdefRuntimeError, format_stack
from gdef_core.runtime.game import json_value
from gdef_core.runtime.param_info import params_json
from gdef_core.runtime.session import record_problem
from gdef_core import json_input

LEGAL_LIMIT = 5000  # legal moves sent in one answer; a narrower `touching` finds the others
SCRIPT_LIMIT = 100_000  # lines of a move script or moves of a record
# The largest computer-player budgets the page may ask for (bigger ones: --player on the command line)
PAGE_BUDGETS = {"iterations": 100_000, "time": 60.0, "cap": 10_000}


class ApiError(Exception):
    """A request the API refuses: `status` is the HTTP status, the message says what to do."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Script:
    """A move script or a record being stepped through: `cursor` entries have been run,
    `results[i]` says what entry i did (None: not run yet)."""

    name: str
    entries: list[dict]
    cursor: int = 0
    results: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.results = [None] * len(self.entries)


class Board:
    """The game behind the page; each public method answers one API request (a JSON-ready
    dict) or raises ApiError. Callers hold `lock`."""

    def __init__(self, play, y_down: bool = False) -> None:
        """`play`: the gdef_core.controller PlaySession to show; `y_down`: how the page draws rows."""
        self.play = play
        self.y_down = y_down
        self.lock = threading.Lock()
        self.script: Script | None = None
        self.thinking: str | None = None  # "player 1 (mcts)" while it chooses a move
        self.thinking_state: dict | None = None
        self.stopping = threading.Event()
        self.hurry = threading.Event()  # "Move now": play the best move found so far
        self.abandoned = threading.Event()  # undone while thinking: the move chosen is not played

    @property
    def session(self):
        return self.play.session

    @property
    def game(self):
        return self.play.game

    def _changed(self) -> None:
        self.play.autosave()

    # ------------------------------------------------------------ reading

    def info(self) -> dict:
        """What does not change while the page is open: the game and how it is served."""
        game = self.game
        info = {
            "name": game.name, "players": game.players, "width": game.width, "height": game.height,
            "objects": list(game.objects), "files": list(self.session.files),
            "seed": self.play.computers.seed, "record": self.play.record,
            "yDown": self.y_down,
            "presentation": game.presentation.to_json(),
        }
        if game.params:  # a game with parameters: the page's new-game form lists them
            info["params"] = params_json(game)
        return info

    def state(self) -> dict:
        session, computers = self.session, self.play.computers
        state = session.state
        return {
            "player": state.current_player, "over": state.is_over, "winner": state.winner,
            "moveNumber": state.move_number, **self._chance_json(state),
            "board": [[x, y, str(name)] for x, y, name in state.board.occupied()],
            **({"counts": [list(entry) for entry in state.board.counts()]} if self.game.counting else {}),
            "scores": [json_value(score) for score in state.scores],
            "vars": {name: json_value(value) for name, value in state.variables.items()
                     if name in self.game.presentation.visible},
            "moves": list(session.moves), "rejected": len(session.rejected),
            "agents": [computers.label(p) if computers.plays(p) else "human" for p in range(self.game.players)],
            "computerToMove": not state.is_over and computers.plays(state.current_player),
            "script": self._script_json(),
            "endedBy": _rule_json(session.ended_by()),
            "thinking": None,
        }

    def _chance_json(self, state) -> dict:
        """`chance`: whether the next move is chance's; then its `outcomes` (text, name,
        weight) or, when chance() fails, `chanceError`."""
        if not state.is_chance_node:
            return {"chance": False}
        try:
            outcomes = state.chance_outcomes()
        except GdefRuntimeError as error:
            return {"chance": True, "chanceError": error_json(error, self.game),
                    "reason": f"chance() failed: {error.headline()}"}
        names = state.move_names([move for move, _ in outcomes])
        return {"chance": True, "outcomes": [{"text": str(move), "name": name, "weight": weight}
                                             for (move, weight), name in zip(outcomes, names)]}

    def legal(self, touching: list[tuple[int, int]] | None = None, limit: int = LEGAL_LIMIT) -> dict:
        """The legal moves (those touching every square of `touching`), each with its squares."""
        state = self.session.state
        try:
            found = state.legal_ops()  # operations: a big board has millions, made Moves only when sent
        except GdefRuntimeError as error:
            return {"moves": [], "count": 0, "error": error_json(error, self.game),
                    "reason": f"moves() failed: {error.headline()}"}
        if touching:
            wanted = set(touching)
            found = [ops for ops in notation.touching(found, wanted) if wanted.issubset({(op[0], op[1]) for op in ops})]
        moves = state.moves_of(found[:limit])
        shown = [(move, list(dict.fromkeys((op.x, op.y) for op in move.ops))) for move in moves]
        count = len(found)
        names = state.names_in_position(moves)  # not all: a big board has millions
        found = [{"text": str(move), "name": name, "squares": [list(s) for s in squares],
                  "ops": [[op.x, op.y, op.obj, *(() if op.count is None else (op.count,))] for op in move.ops]}
                 for (move, squares), name in zip(shown, names)]
        answer = {"moves": found, "count": count}
        if count == 0 and not touching and not state.is_over:
            answer.update(self._stuck(state))
        return answer

    def _stuck(self, state) -> dict:
        """Why the player on turn has no legal move (`why`; `failure` and `failedMove` when
        isMoveLegal() failed on a candidate): rules whose end() goes on there have a bug."""
        why = refusals(state)
        if why is None:
            return {}
        if why.first is None:
            return {"why": str(why)}
        move, error = why.first
        return {"why": str(why), "failedMove": str(move), "failure": error_json(error, self.game)}

    def check(self, text: str) -> dict:
        """Whether a move would be legal here; nothing is played or recorded."""
        verdict = self.session.state.check(text)
        return {"move": text, "legal": verdict.legal, **verdict_json(verdict, self.game)}

    def record(self) -> dict:
        return self.session.record()

    # ------------------------------------------------------------ playing

    def move(self, text: str) -> dict:
        """A person's move: played when legal, else recorded as rejected (as in the terminal)."""
        self._leave_script()
        session = self.session
        played = session.play(text)
        if played.accepted:
            self.play.say(self.play.numbered(played))
        else:
            self.play.say(f"Rejected '{text}' ({self.play.who(played.player)}): {played.verdict.reason}")
        self._changed()
        return {"accepted": played.accepted, "move": played.text, "name": played.name, "player": played.player,
                **verdict_json(played.verdict, self.game)}

    def computer(self) -> dict:
        """One move of the computer player on turn."""
        from gdef_core.play.errors import AgentError

        session, computers = self.session, self.play.computers
        state = session.state
        player = state.current_player
        if state.is_chance_node and computers.plays(player):   # the computer rolls for itself
            return self.roll()
        if state.is_over or not computers.plays(player):
            raise ApiError(409, f"player {player} is not a computer player" if not state.is_over
                           else "the game is over")
        self._leave_script()
        label = computers.label(player)
        self.hurry.clear()
        self.abandoned.clear()
        thinking = f"player {player} ({label})"
        self.thinking_state = {**self.state(), "thinking": thinking}
        self.thinking = thinking

        def stop() -> bool:
            return self.stopping.is_set() or self.hurry.is_set() or self.abandoned.is_set()

        try:
            move = computers.choose(state, stop=stop)
        except AgentError as error:
            return {"accepted": False, "player": player, "kind": "agent error",
                    "reason": f"player {player} ({label}): {error}"}
        except GdefRuntimeError as error:
            return {"accepted": False, "player": player, "kind": "runtime error",
                    "reason": f"player {player} ({label}) cannot choose a move: moves() failed: {error.headline()}",
                    "error": error_json(error, self.game)}
        finally:
            self.thinking = self.thinking_state = None
        if self.stopping.is_set():
            raise ApiError(503, f"the server is stopping: the move of player {player} ({label}) was not played")
        if self.abandoned.is_set():
            return {"accepted": False, "player": player, "agent": label, "kind": "abandoned",
                    "reason": f"player {player} ({label}) stopped thinking: the move before was taken back"}
        played = session.play(str(move))
        if played.accepted:
            self.play.say(self.play.numbered(played, label))
        self._changed()
        return {"accepted": played.accepted, "move": played.text, "name": played.name, "player": player, "agent": label,
                **verdict_json(played.verdict, self.game)}

    def move_now(self) -> dict:
        """*Move now*: the computer player thinking stops its search and plays the best move it
        has found (a search with nothing found yet plays its first legal move). Answered
        without the lock, which the thinking request holds; nothing to stop is no error (the
        move may have just been played)."""
        thinking = self.thinking
        if thinking is None:
            return {"stopped": False, "reason": "no computer player is thinking"}
        self.hurry.set()
        return {"stopped": True, "thinking": thinking}

    def abandon_thinking(self) -> bool:
        """An undo while a computer player thinks: its search stops and its move is not
        played (the caller then waits for the lock and undoes). False if none was thinking."""
        if self.thinking is None:
            return False
        self.abandoned.set()
        return True

    def roll(self) -> dict:
        """Chance's move at a chance node: an outcome drawn by weight from the run's generator
        (PlaySession.roll: `--seed` repeats the rolls), played."""
        session = self.session
        state = session.state
        if state.is_over or not state.is_chance_node:
            raise ApiError(409, "the game is over" if state.is_over
                           else f"nothing to roll: player {state.current_player} is to move")
        self._leave_script()
        player = state.current_player
        try:
            state.chance_outcomes()
        except GdefRuntimeError as error:
            return {"accepted": False, "player": player, "kind": "runtime error",
                    "reason": f"chance() failed: {error.headline()}", "error": error_json(error, self.game)}
        before = len(session.moves)
        self.play.roll()   # says `N. rolled: D3`, writes the record
        if len(session.moves) == before:   # end() failed after the outcome
            rejected = session.rejected[-1]
            return {"accepted": False, "player": player, "kind": "runtime error", "move": rejected["move"],
                    "reason": f"chance's outcome {rejected['move']} was rejected: {rejected['reason']}"}
        entry = session.moves[-1]
        return {"accepted": True, "chance": True, "move": entry["move"], "name": entry["name"], "player": player}

    def undo(self) -> dict:
        """Take back the last move, and the computer's before it, as `undo` in the terminal."""
        self._leave_script()
        undone = self.play.take_back()
        return {"undone": undone}

    def set_agent(self, player: int, text: str) -> dict:
        """Let the computer (random, greedy, mcts...) or a person play `player`."""
        from gdef_core.play.errors import AgentSpecError
        from gdef_core.play.spec import parse_agent

        if type(player) is not int or not 0 <= player < self.game.players:
            raise ApiError(400, f"player must be a number from 0 to {self.game.players - 1}")
        try:
            spec = parse_agent(text, allow_human=True)
        except AgentSpecError as error:
            raise ApiError(400, f"agent '{text}': {error}") from None
        if spec.name == "cmd":
            raise ApiError(403, "a cmd: player runs a program: give it on the command line "
                                "(gdef-run --player N=cmd:...), not from the page")
        for key, value in spec.options:
            if key in PAGE_BUDGETS and value > PAGE_BUDGETS[key]:
                raise ApiError(400, f"agent '{text[:100]}': the page may ask for at most {key}={PAGE_BUDGETS[key]:g}; "
                                    f"give a bigger budget on the command line (gdef-run --player {player}=...)")
        self.play.computers.assign(player, spec)
        return {"player": player, "agent": str(spec)}

    # ------------------------------------------------------------ scripts and records

    def load_script(self, text: str, name: str = "moves", folder: str | None = None) -> dict:
        """A move script (one move or `?` assertion a line) or a game record (JSON) to step
        through from the start position (a record's own `start`, if it has one; the position a
        script's header writes, as gdef-run --moves starts it: _script_start), as a new game
        (the one so far is kept: _start_over). `folder`: where the script is, for the record its
        header may name (a script sent by the page has none)."""
        if not isinstance(text, str) or not isinstance(name, str):
            raise ApiError(400, "send {\"text\": \"...\", \"name\": \"...\"}")
        start, params = None, {}
        if text.lstrip().startswith("{"):
            entries, start = self._record_entries(text, name)
        else:
            entries = _script_entries(text)
            params, game = self._script_game(text, name)
            start = self._script_start(text, name, folder, game)
        if len(entries) > SCRIPT_LIMIT:
            raise ApiError(413, f"{name} has {len(entries)} entries; at most {SCRIPT_LIMIT:,} can be stepped through")
        kept = self._start_over(start, params)
        self.script = Script(name, entries)
        self._changed()
        # reload: the game was loaded again with the script's parameters
        return {"entries": len(entries), "kept": kept, **({"reload": True} if params else {})}

    def new_game(self, params=None) -> dict:
        """Start again from the start position, keeping the game so far in a file; `params`
        (optional): new values of the game's parameters by name."""
        if params is not None and not (isinstance(params, dict) and all(
                isinstance(name, str) and isinstance(value, (str, int, float, bool)) for name, value in params.items())):
            raise ApiError(400, "params must map parameter names to values")
        self._leave_script()
        kept = self._start_over(params=params)
        self._changed()
        return {"kept": kept, "reload": True} if params else {"kept": kept}  # reload: the game was loaded again

    def _start_over(self, start: dict | None = None, params: dict | None = None) -> str | None:
        """A new game at the start position (or `start`, a record's), the game so far kept
        (PlaySession.new_game): where it was kept, or None."""
        try:
            return self.play.new_game(start, params)
        except KeepError as error:
            raise ApiError(500, str(error)) from None
        except GameLoadError as error:  # a refused value (ParamError) or what it breaks
            raise ApiError(400, str(error)) from None

    def _script_game(self, text: str, name: str) -> tuple[dict, object]:
        """The values of the script's `# param:` lines that differ from the game's, and the game
        loaded with them (as gdef-run --moves loads it; this one when none differ); an ApiError
        at a line that cannot be read or sets a value the game refuses."""
        from gdef_core.testing.scripts import TestFileError, read_params

        try:
            written = read_params(name, text)
        except TestFileError as error:
            raise ApiError(400, f"{error.where}: {error.message}") from None
        changed = {param: setting for param, setting in written.items()
                   if param not in self.game.params or str(self.game.params[param]).lower() != setting.value.lower()}
        if not changed:
            return {}, self.game
        try:
            return ({param: setting.value for param, setting in changed.items()},
                    self.play.variant({param: setting.value for param, setting in changed.items()}))
        except GameLoadError as error:
            first = min(changed.values(), key=lambda setting: setting.line)
            raise ApiError(400, f"{name}:{first.line}:{first.column + 1}: # param: {error}") from None

    def _script_start(self, text: str, name: str, folder: str | None, game) -> dict | None:
        """The position a script's header writes (`# from:`, `# board:` ...) in `game`, as
        State.to_json() writes it, or None when it writes none; an ApiError at the line that
        does not fit."""
        from gdef_core.runtime.start_position import StartError, script_start
        from gdef_core.testing.start_header import HeaderError, read_start

        try:
            header = read_start(text)
        except HeaderError as error:
            raise ApiError(400, f"{name}:{error.line}:{error.column + 1}: {error.message}") from None
        if not (header.is_record or header.writes_position):
            return None
        if header.is_record and folder is None:
            at = header.source_at
            raise ApiError(400, f"{name}:{at.line}:{at.column + 1}: a script sent by the page cannot start from "
                                "a record (its folder is unknown here): open the record itself")
        try:
            return script_start(game, header, os.path.join(folder or os.curdir, name)).to_json()
        except StartError as error:
            raise ApiError(400, f"{name}:{error.at.line}:{error.at.column + 1}: {error.message}") from None

    def _record_entries(self, text: str, name: str) -> tuple[list[dict], dict | None]:
        """A record's moves as script entries, and its `start` position (checked), if any."""
        try:
            data = json_input.loads(text)
        except (ValueError, RecursionError) as error:
            raise ApiError(400, f"{name}: not a JSON game record: {error}") from None
        problem = record_problem(data)
        if problem:
            raise ApiError(400, f"{name}: not a gdef-run game record: {problem}")
        if data["game"] != self.game.name:
            raise ApiError(400, f"{name} is a record of '{data['game']}', but this page plays "
                                f"'{self.game.name}'")
        start = data.get("start")
        if start is not None:
            try:
                self.game.state_from_json(start)
            except (ValueError, TypeError, KeyError, RecursionError) as error:
                raise ApiError(400, f"{name}: its start position does not fit the game: {error}") from None
        return [{"line": number, "text": entry["move"], "kind": "move", "player": entry["player"]}
                for number, entry in enumerate(data["moves"], 1)], start

    def step(self, to: int) -> dict:
        """Run or take back script entries until `to` of them have run."""
        script = self.script
        if script is None:
            raise ApiError(409, "no move script or record is loaded: open one first")
        if not isinstance(to, int) or isinstance(to, bool):
            raise ApiError(400, "'to' must be a whole number")
        to = max(0, min(to, len(script.entries)))
        while script.cursor > to:
            self._back()
        while script.cursor < to:
            self._forward()
        self._changed()
        return {"cursor": script.cursor, "result": script.results[to - 1] if to else None}

    def close_script(self) -> dict:
        self.script = None
        return {"closed": True}

    def _forward(self) -> None:
        from gdef_core.testing.assertions import AssertionSyntaxError, evaluate, parse_assertion

        script, session = self.script, self.session
        entry = script.entries[script.cursor]
        if entry["kind"] == "assert":
            try:
                outcome = evaluate(parse_assertion(entry["text"], entry["line"]), session.state)
                result = {"status": "passed" if outcome.passed else "failed",
                          "reason": "" if outcome.passed else f"expected {outcome.expected}, actual {outcome.actual}"}
            except AssertionSyntaxError as error:
                result = {"status": "failed", "reason": f"cannot read the assertion: {error.message}"}
            except GdefRuntimeError as error:
                result = {"status": "failed", "reason": f"the rules failed: {error.headline()}",
                          "error": error_json(error, self.game)}
        elif session.state.is_over:
            result = {"status": "skipped", "reason": "the game is over: this move comes after its end"}
        else:
            played = session.play(entry["text"], entry["line"])
            result = ({"status": "played", "player": played.player} if played.accepted else
                      {"status": "rejected", "player": played.player, **verdict_json(played.verdict, self.game)})
        script.results[script.cursor] = result
        script.cursor += 1

    def _back(self) -> None:
        script, session = self.script, self.session
        script.cursor -= 1
        result = script.results[script.cursor]
        if result["status"] == "played":
            session.undo()
        elif result["status"] == "rejected" and session.rejected:
            session.rejected.pop()
        script.results[script.cursor] = None

    def _leave_script(self) -> None:
        """A move of one's own leaves the script where it is: the page stops stepping."""
        self.script = None

    def _script_json(self) -> dict | None:
        script = self.script
        if script is None:
            return None
        return {"name": script.name, "cursor": script.cursor,
                "entries": [{**entry, "result": result} for entry, result in zip(script.entries, script.results)]}

    # ------------------------------------------------------------ debugging

    def debug_launch(self, text: str) -> dict:
        """"Debug this move": the game so far saved as a record (a new file of the records
        folder, so that the session can start from this very position), and the launch
        configuration of a `gdef` debug session that resumes it and stops where isMoveLegal()
        starts judging `text` (docs/debugging.md). Nothing is played, and nothing is saved for
        a text the debugger would refuse (neither a move nor a move's name)."""
        try:
            Move.parse(text)
        except MoveSyntaxError as error:
            if not looks_like_name(text):
                raise ApiError(400, f"'{text[:100]}' is not a move: {error}") from None
        session = self.session
        try:
            path = records.new_record_path(self.game.name)
            session.save(path)
        except (OSError, ValueError) as error:
            raise ApiError(500, f"cannot save the game so far for the debugger: "
                                f"{getattr(error, 'strerror', None) or error}") from None
        files = [os.path.abspath(file) for file in session.files]
        launch = {"type": "gdef", "request": "launch", "name": f"Debug move {session.state.move_number + 1}: {text}",
                  "program": files[0] if len(files) == 1 else files, "resume": path, "debugMove": text}
        return {"record": path, "launch": launch}

    # ------------------------------------------------------------ saving

    def save(self) -> dict:
        """Write the record now: to its file, else to the records folder (the same file on
        every save of this game)."""
        path = self.play.keep_record()
        if path is None:
            return {"saved": False, "reason": "nothing to save yet: no move has been played"}
        return {"saved": True, "path": path}


def verdict_json(verdict, game) -> dict:
    """Why a move is not legal, for people, with the gdef location of a run-time error."""
    out = {"kind": verdict.kind.value, "reason": verdict.reason}
    if verdict.rule is not None:
        out["rule"] = verdict.rule.to_json()
    if verdict.candidates:
        out["candidates"] = list(verdict.candidates)
    if verdict.error is not None:
        out["error"] = error_json(verdict.error, game)
    return out


def _rule_json(rule) -> dict | None:
    return rule.to_json() if rule is not None else None


def error_json(error: GdefRuntimeError, game) -> dict:
    """A run-time error of the rules: code, message, file:line:col, the source line, the stack."""
    span = error.span
    lines = next((module.text.split("\n") for module in game.program.modules if module.path == span.file), [])
    source = lines[span.line] if 0 <= span.line < len(lines) else ""
    end = span.end_column if span.end_line == span.line else len(source)
    return {"code": error.code, "message": error.message, "location": str(span), "file": span.file,
            "line": span.line + 1, "column": span.column + 1, "endColumn": max(end, span.column + 1) + 1,
            "source": source, "stack": format_stack(error.stack)}


def _script_entries(text: str) -> list[dict]:
    from gdef_core.testing.assertions import is_assertion

    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if body:
            entries.append({"line": number, "text": body, "kind": "assert" if is_assertion(body) else "move"})
    return entries
