"""The gdef bot protocol: JSON lines over a pipe, as GTP serves Go engines and UCI chess ones.

`gdef-run --protocol GAME.gdef` answers requests on stdin, one JSON object a line, with one
JSON object a line on stdout (docs/protocol.md has a transcript). A program in any language can
drive a game this way, or be a player (`--player 1=cmd:"python mybot.py"`: gdef sends it `go`
requests, see gdef_core.play.external).

Requests are {"cmd": NAME, ...}; an "id" is echoed in the answer. Answers are {"ok": true, ...}
or {"ok": false, "error": {"kind": ..., "message": ...}}; nothing else is ever printed, never a
traceback. The first line gdef prints is a hello: {"protocol": "gdef", "version": 1, "game": ...}.

At a chance node (docs/language.md, "Chance") every state answer says so ("chance": true) and
lists the outcomes with their weights; the client names one with `play`, or has the engine draw
one with `roll` (from the run's generator: `--seed` repeats the rolls).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from gdef_core import json_input

PROTOCOL = "gdef"
VERSION = 1
MAX_LINE = 16 * 1024 * 1024  # characters of one line, from a protocol client or a player program
TOO_LONG = object()  # what read_lines() gives for a line of more than MAX_LINE characters
LEGAL_LIMIT = 10_000  # legal moves in one `legal` answer; `offset` pages through the others

COMMANDS = {
    "new": "start a new game from the start position",
    "state": "the position: board, player on turn, move number, variables, result; at a chance "
             "node its outcomes with their weights",
    "info": "the game: name, players, board size, objects, variables, parameters",
    "set": "set the position from a state object (as 'state' returns it)",
    "legal": "the legal moves, in the game's order, and their count: at most 10,000 from "
             "\"offset\" (default 0), fewer with \"limit\"",
    "play": "play a move: {\"cmd\": \"play\", \"move\": \"place(1,1,X)\"}; at a chance node, name an outcome",
    "roll": "at a chance node: the engine draws an outcome by weight and plays it",
    "undo": "take back the last move",
    "go": "the engine's choice of move for the player on turn (not played); "
          "with \"state\", from that position",
    "result": "whether the game is over, the winner, the scores",
    "help": "the commands",
    "quit": "stop",
}


class ProtocolError(Exception):
    """A request that cannot be served; `kind` is a stable word for programs."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _whole(request: dict, key: str, default: int, most: int | None) -> int:
    """The request's whole number `key` (`default` when absent), at most `most`."""
    value = request.get(key, default)
    if type(value) is not int or value < 0:
        raise ProtocolError("bad request", f'"{key}" must be a whole number (0 or more)')
    return value if most is None else min(value, most)


def game_info(game) -> dict:
    from gdef_core.runtime.param_info import params_json

    return {"name": game.name, "players": game.players, "width": game.width,
            "height": game.height, "objects": list(game.objects), "variables": game.variable_names,
            "params": params_json(game), "chance": game.rules.raw_chance is not None}


def state_json(state) -> dict:
    """A state as State.to_json() writes it, with the scores, whether the next move is
    chance's (`chance`) and then its `outcomes` ({"move", "name", "weight"} in the order
    chance() proposed them; the probability of one is its weight over their sum), or, when
    chance() fails, `chance_error` (message, location, code)."""
    from gdef_core.runtime.errors import GdefRuntimeError

    data = state.to_json()
    data["scores"] = list(getattr(state, "scores", None) or [0] * state.game.players)
    data["chance"] = state.is_chance_node
    if state.is_chance_node:
        try:
            outcomes = state.chance_outcomes()
        except GdefRuntimeError as error:
            data["chance_error"] = runtime_error_json(error)
        else:
            names = state.move_names([move for move, _ in outcomes])
            data["outcomes"] = [{"move": str(move), "name": name, "weight": weight}
                                for (move, weight), name in zip(outcomes, names)]
    return data


def runtime_error_json(error) -> dict:
    """A run-time error of the rules as an answer's error: located, with its code."""
    return {"kind": "runtime error", "message": str(error), "location": error.location, "code": error.code}


class ProtocolServer:
    """Serves the game of a gdef_core.controller PlaySession, the one the terminal and the
    board page drive: `undo` and records work as there, and the engine behind `go` is the
    --player agent of the player on turn (random by default)."""

    def __init__(self, play) -> None:
        self.play = play
        play.report = _StderrReporter(play.report)  # standard output carries the answers only

    @property
    def session(self):
        return self.play.session

    def serve(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer requests until `quit` or the end of the input (exit code 0, the --record file
        written); Ctrl-C, SIGTERM and SIGHUP stop the game as in the terminal (PlaySession.guard:
        the record kept, exit code 3, a message on standard error)."""
        return self.play.guard(lambda: self._serve(stdin, stdout))

    def _serve(self, stdin: TextIO, stdout: TextIO) -> int:
        self._answer_all(stdin, stdout)
        if self.play.record is not None:  # written after every change; once more if that failed
            self.play.keep_record()
        return 0

    def _answer_all(self, stdin: TextIO, stdout: TextIO) -> None:
        write = _writer(stdout)
        write({"protocol": PROTOCOL, "version": VERSION, "game": game_info(self.session.game),
               "commands": sorted(COMMANDS)})
        for line in read_lines(stdin):
            if line is not TOO_LONG and not line.strip():
                continue
            answer, stop = self.answer_line(line)
            try:
                write(answer)
            except (ValueError, TypeError, RecursionError) as error:  # an answer that is not JSON: a bug
                write({"ok": False, "error": {"kind": "internal error", "message":
                                              f"the answer cannot be written as JSON: {error} (a bug in gdef)"}})
            if stop:
                return

    def answer_line(self, line) -> tuple[dict, bool]:
        """The answer to one request line (or TOO_LONG), and whether to stop after it. Every
        line gets one answer, a bad one an error answer, and the run goes on."""
        request_id = None
        command = None
        try:
            request = parse_line(line)
            if not isinstance(request, dict):
                raise ProtocolError("bad request", 'a request is a JSON object such as {"cmd": "state"}')
            request_id = request.get("id")
            if request_id is not None and (isinstance(request_id, bool) or not isinstance(request_id, (str, int, float))):
                request_id = None
                raise ProtocolError("bad request", "an \"id\" is a string or a number")
            command = request.get("cmd")
            if not isinstance(command, str) or command not in COMMANDS:
                shown = json.dumps(command)[:100] if isinstance(command, str) else type(command).__name__
                command = None
                raise ProtocolError("unknown command", f"unknown cmd {shown}: use one of {', '.join(COMMANDS)}")
            answer = getattr(self, f"cmd_{command}")(request)
        except ProtocolError as error:
            answer = {"ok": False, "error": {"kind": error.kind, "message": error.message}}
            command = None
        except Exception as error:  # noqa: BLE001 - a bug of gdef's must not end the client's run
            answer = {"ok": False, "error": {"kind": "internal error", "message":
                                             f"{type(error).__name__}: {error} (a bug in gdef, not in your request)"}}
            command = None
        if request_id is not None:
            answer = {"id": request_id, **answer}
        return answer, command == "quit"

    # ------------------------------------------------------------ the commands

    def cmd_new(self, request) -> dict:
        kept = self._start_over(None)
        return {"ok": True, "state": state_json(self.session.state), "kept": kept}

    def _start_over(self, start: dict | None) -> str | None:
        """A new game (at `start`, a checked position, or the start position). With --record,
        the game so far, if any move was tried, is kept as the record file's numbered backup
        (PlaySession.new_game): where, or None; without, it is dropped, as a client that asked
        for no record wants."""
        if self.play.record is None:
            if start is None:
                self.play.restart()
            else:
                self.play.set_position(self.session.game.state_from_json(start))
            return None
        try:
            kept = self.play.new_game(start)
        except OSError as error:  # the controller's KeepError: nothing was changed
            raise ProtocolError("not kept", str(error)) from None
        self.play.autosave()
        return kept

    def cmd_state(self, request) -> dict:
        return {"ok": True, "state": state_json(self.session.state)}

    def cmd_info(self, request) -> dict:
        return {"ok": True, "game": game_info(self.session.game)}

    def cmd_set(self, request) -> dict:
        kept = self._set(request.get("state"))
        return {"ok": True, "state": state_json(self.session.state), "kept": kept}

    def _set(self, data) -> str | None:
        """A new game at the position `data`; where the game so far was kept (_start_over)."""
        if not isinstance(data, dict):
            raise ProtocolError("bad request", '"state" must be a state object, as "state" answers it')
        game = self.session.game
        try:
            start = game.state_from_json(data).to_json()
        except (ValueError, TypeError, KeyError) as error:
            raise ProtocolError("bad state", str(error)) from None
        return self._start_over(start)

    def cmd_legal(self, request) -> dict:
        """A page of the legal moves (`offset`, `limit`: at most LEGAL_LIMIT, a big board's
        two million would be a line of tens of megabytes) and their `count`."""
        state = self.session.state
        offset = _whole(request, "offset", 0, None)
        limit = _whole(request, "limit", LEGAL_LIMIT, LEGAL_LIMIT)
        found = self._legal(state)
        page = state.moves_of(found[offset:offset + limit])
        # Named as in the whole list: a page of a big board's is named without naming them all.
        names = state.move_names(page) if len(page) == len(found) else state.names_in_position(page)
        answer = {"ok": True, "moves": [str(move) for move in page], "names": names,
                  "chance": state.is_chance_node, "count": len(found), "offset": offset}
        if state.is_chance_node:   # the outcomes, whose weights say how likely each is
            answer["weights"] = [weight for _, weight in state.chance_outcomes()][offset:offset + limit]
        return answer

    def _legal(self, state) -> list:
        from gdef_core.runtime.errors import GdefRuntimeError

        try:
            return state.legal_ops()
        except GdefRuntimeError as error:
            raise ProtocolError("runtime error", str(error)) from None

    def cmd_play(self, request) -> dict:
        text = request.get("move")
        if not isinstance(text, str):
            raise ProtocolError("bad request", '"move" must be the move\'s text, e.g. "place(1,1,X)" or "pass"')
        played = self.play.play(text)
        if not played.accepted:
            verdict = played.verdict
            error = {"kind": verdict.kind.value, "message": verdict.reason}
            if verdict.rule is not None:
                error["rule"] = verdict.rule.to_json()
            if verdict.candidates:
                error["candidates"] = list(verdict.candidates)
            if verdict.error is not None:
                error["location"] = verdict.error.location
                error["code"] = verdict.error.code
            return {"ok": False, "error": error}
        return {"ok": True, "move": played.text, "name": played.name, "chance": played.chance,
                "state": state_json(self.session.state)}

    def cmd_roll(self, request) -> dict:
        """Chance's move: an outcome drawn by weight from the run's generator (PlaySession.roll,
        as gdef-run rolls), played."""
        from gdef_core.runtime.errors import GdefRuntimeError

        state = self.session.state
        if state.is_over:
            raise ProtocolError("game over", "the game is over: no more moves")
        if not state.is_chance_node:
            raise ProtocolError("not chance", f"the next move is player {state.current_player}'s, not "
                                              "chance's: play it with \"play\"")
        try:
            state.chance_outcomes()
        except GdefRuntimeError as error:
            return {"ok": False, "error": runtime_error_json(error)}
        before = len(self.session.moves)
        if not self.play.roll() or len(self.session.moves) == before:
            rejected = self.session.rejected[-1] if self.session.rejected else {}
            raise ProtocolError("rejected", f"chance's outcome {rejected.get('move', '')} was rejected: "
                                            f"{rejected.get('reason', 'the rules failed (see standard error)')}")
        entry = self.session.moves[-1]
        return {"ok": True, "move": entry["move"], "name": entry["name"], "chance": True,
                "state": state_json(self.session.state)}

    def cmd_undo(self, request) -> dict:
        if not self.play.undo():
            raise ProtocolError("nothing to undo", "no move has been played")
        return {"ok": True, "state": state_json(self.session.state)}

    def cmd_go(self, request) -> dict:
        from gdef_core.play.errors import AgentError
        from gdef_core.runtime.errors import GdefRuntimeError

        if "state" in request:
            self._set(request["state"])
        state = self.session.state
        if state.is_over:
            raise ProtocolError("game over", "the game is over: no more moves")
        try:
            move = self.play.engine_move(state)
        except AgentError as error:
            raise ProtocolError("no move", str(error)) from None
        except GdefRuntimeError as error:
            raise ProtocolError("runtime error", str(error)) from None
        return {"ok": True, "move": str(move), "name": state.move_name(move), "chance": state.is_chance_node}

    def cmd_result(self, request) -> dict:
        state = self.session.state
        return {"ok": True, "over": state.is_over, "winner": state.winner,
                "scores": state_json(state)["scores"]}

    def cmd_help(self, request) -> dict:
        return {"ok": True, "commands": COMMANDS}

    def cmd_quit(self, request) -> dict:
        return {"ok": True}


class _StderrReporter:
    """A front end's Reporter whose `say` (the course of the game) goes to standard error too."""

    def __init__(self, report) -> None:
        self._report = report

    def say(self, text: str = "") -> None:
        self._report.complain(text)

    def __getattr__(self, name: str):
        return getattr(self._report, name)


def read_lines(stream: TextIO, limit: int = MAX_LINE):
    """The lines of `stream`, each of at most `limit` characters (not counting its end); a
    longer line is given as TOO_LONG, once, as soon as it is known to be too long, and the rest
    of it is read and dropped: memory stays bounded and the line after it is read whole."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        yield TOO_LONG
        while line and not line.endswith("\n"):
            line = stream.readline(limit)


def parse_line(line) -> object:
    """One line of JSON, strictly: no NaN or Infinity, no number too long to read, no nesting
    too deep; anything else is a ProtocolError("bad request")."""
    if line is TOO_LONG:
        raise ProtocolError("bad request", f"a line is limited to {MAX_LINE:,} characters")
    try:
        return json_input.loads(line, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)[:200]
        raise ProtocolError("bad request", f"not a JSON object: {reason}") from None


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is too large")
    return value


def _writer(stdout: TextIO) -> Callable[[dict], None]:
    def write(message: dict) -> None:
        stdout.write(json.dumps(message, allow_nan=False, default=str) + "\n")
        stdout.flush()
    return write
