"""A debug session: a game played as `gdef-run --moves` plays it (a PlaySession running the move
script, its `?` lines checked), in a thread of its own, with the rules' reference build under
sys.settrace so that it stops on gdef statements.

Only a debug session traces: the tracer is set in the game thread of this session and nowhere
else, so playing and simulating run exactly as before. Rules are deterministic, so going back
(step back, reverse continue) re-runs the game from the start, silently, to an earlier stop:
every statement the rules run is numbered (its tick), and a stop is a tick.

The debugger stops only where the rules judge the game's actual moves (isMoveLegal() of the
move being played, end() after it, setup(), moves() and the listings a `?` line asks for): the
legal moves listed only to name a move, and the moves of a resumed record, run untraced
(_QUIET_CALLERS). A move written by its name is read first and played as its operations, so that
isMoveLegal() judges it where the debugger sees it (docs/debugging.md, "What the debugger stops in").

The front end (gdef_dap) calls the public methods from its own thread; what happens is said
through a Listener. While the game thread is stopped, the front end may read the Stop.
"""
from __future__ import annotations

import os
import re
import sys
import threading
import types
from dataclasses import dataclass, field
from typing import Protocol

from gdef_core.controller.play_session import EXIT_INTERNAL, PlayOptions, PlaySession
from gdef_core.debug import expressions
from gdef_core.debug.statements import Statement, StatementMap, same_file
from gdef_core.debug.watches import Watches
from gdef_core.moves import Move, MoveSyntaxError
from gdef_core.runtime import notation
from gdef_core.runtime.errors import Fail, GdefRuntimeError
from gdef_core.runtime.game import State
from gdef_core.runtime.rules import FILENAME_PREFIX
from gdef_core.runtime.session import RecordError, Session, load_record
from gdef_core.runtime.start_position import StartError, first_line, script_start
from gdef_core.span import Span
from gdef_core.testing.scripts import TestFileError, script_params
from gdef_core.testing.start_header import HeaderError, StartHeader, read_start

# The entry points of compiled rules (gdef_core.runtime.codegen) and how a stop names them.
_ENTRIES = {"_e_isMoveLegal": "isMoveLegal()", "_e_end": "end()", "_e_moves": "moves()",
            "_e_setup": "setup()", "_e_filter": "isMoveLegal()", "_e_default": "isMoveLegal()",
            "_e_chance": "chance()"}
_CELL_SOURCES = ("raw_legal", "raw_end", "raw_moves", "raw_setup", "raw_filter", "raw_chance")
MAX_CHECKED_BREAKPOINTS = 100  # of a file with a condition or log message (each is checked by the checker)
MAX_LOG_OUTPUT = 100_000  # characters of logpoint output a session writes at most
# Rules called below these run untraced: listings made only to name or read a move's name, and
# the replay of a resumed record (its position is where the session starts).
_QUIET_CALLERS = frozenset(function.__code__ for function in (
    State.read_move, State.move_name, State.move_names, State.names_in_position, notation.move_name,
    notation.move_names, notation.names_in_position, notation.read_exact_name, notation.read_move_name,
    Session.from_record))


class DebugLoadError(Exception):
    """The game cannot be debugged (its files, its errors, its move script): the message says why."""


class Listener(Protocol):
    def stopped(self, stop: "Stop") -> None: ...

    def output(self, category: str, text: str) -> None: ...

    def waiting(self) -> None: ...

    def finished(self, exit_code: int) -> None: ...


@dataclass
class Breakpoint:
    line: int                   # 0-based: as asked, or the statement line of a refused condition
    verified_line: int | None   # the statement line it stands on, or None (unverified)
    condition: str | None = None
    hit_condition: str | None = None
    log_message: str | None = None
    hits: int = 0
    message: str | None = None  # why it is not verified
    failed: bool = False        # its condition failed to evaluate once (said then, not again)


@dataclass
class Frame:
    """One gdef call of a stop, or (python None) the entry point the game called."""

    name: str
    span: Span | None
    python: types.FrameType | None = None


@dataclass
class Stop:
    reason: str                 # entry, breakpoint, step, pause, exception
    description: str
    frames: list[Frame]         # innermost first; the last is the entry point
    tick: int
    text: str | None = None     # the exception's message
    error_code: str | None = None  # the run-time error's code (G6xx) of an exception stop
    cells: dict = field(default_factory=dict)  # the rules' shared cells: B, N, OPS, V, T, MN, CTX ...


@dataclass
class LaunchOptions:
    program: list[str]
    moves: str | None = None
    record: str | None = None
    stop_on_entry: bool = False
    resume: str | None = None      # a record (gdef-run's JSON) whose position the session starts from
    debug_move: str | None = None  # played after the moves, stopping where isMoveLegal() starts judging it
    params: dict[str, str] = field(default_factory=dict)  # the game's parameters (gdef-run --param)
    no_debug: bool = False         # play without stopping (the editor's "run without debugging")


class _Rewind(BaseException):
    """Raised in the game thread to start the game again and stop at `target`."""

    def __init__(self, target: int, reason: str, collect: bool = False) -> None:
        super().__init__(target)
        self.target, self.reason, self.collect = target, reason, collect


class _Quit(BaseException):
    """Raised in the game thread when the session ends."""


class DebugSession:
    def __init__(self, launch: LaunchOptions, listener: Listener) -> None:
        self.launch = launch
        self.listener = listener
        self.script = _read_script(launch.moves) if launch.moves else []
        self.script_name = launch.moves or "debug console"
        self.start_header = _read_start(self.script_name, self.script)  # where the script's header starts the game
        # the game's parameters: the launch's and the script's `# param:` lines (by name, to locate a refused one)
        self.params, self.script_params = _script_params(self.script_name, self.script, launch.params)
        if launch.resume:
            _check_record(launch.resume)
            if self.start_header.is_record or self.start_header.writes_position:
                where = self.start_header.source_at or first_line(self.start_header)
                raise DebugLoadError(f"{self.script_name}:{where.line}:{where.column + 1}: the script's header writes "
                                     f"where it starts, and 'resume' names {launch.resume}: drop one of them")
        if launch.record:
            _check_record_target(launch.record)
        # script lines, then the move to debug, then moves typed while waiting
        self.inputs: list[str] = list(self.script) + ([launch.debug_move] if launch.debug_move else [])
        self._check_game()
        self.breakpoints: dict[str, list[Breakpoint]] = {}  # file -> breakpoints
        self.break_on_errors = True
        self.break_on_assertions = True
        self.cond = threading.Condition()
        self.stop: Stop | None = None
        self._command: tuple | None = None
        self.waiting_for_move = False
        self._pause = False
        self._quit = False
        self._thread: threading.Thread | None = None
        self.ended = False  # the game thread has finished: the game is over or the session ended
        self._logged = 0
        self._first_record = True
        self.watches = Watches(list(launch.program))
        self.map: StatementMap | None = None
        self.play: PlaySession | None = None

    # ------------------------------------------------------------ the front end's calls

    @property
    def started(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._main, name="gdef game", daemon=True)
        self._thread.start()

    def set_breakpoints(self, path: str, specs: list[dict]) -> list[Breakpoint]:
        """Replace the breakpoints of a file; specs: {line (0-based), condition, hit_condition,
        log_message}."""
        found = []
        checked = 0
        for spec in specs:
            checked += bool(spec.get("condition") or spec.get("log_message"))
            if checked > MAX_CHECKED_BREAKPOINTS and (spec.get("condition") or spec.get("log_message")):
                found.append(Breakpoint(spec["line"], None, message=f"more than {MAX_CHECKED_BREAKPOINTS} breakpoints "
                                        "of this file have a condition or a log message: this one is not set"))
                continue
            found.append(self._breakpoint(path, spec))
        with self.cond:
            self.breakpoints[same_file(path)] = found
        return found

    def _breakpoint(self, path: str, spec: dict) -> Breakpoint:
        """A breakpoint standing on the statement at or after its line, unverified (with the
        reason) when there is none or its condition, hit count or log message is not valid there."""
        program_map = self.map or self._static_map
        line = spec["line"]
        breakpoint = Breakpoint(line, program_map.resolve(path, line), spec.get("condition"),
                                spec.get("hit_condition"), spec.get("log_message"))
        if breakpoint.verified_line is None:
            breakpoint.message = ("no statement on or after this line in its function" if program_map.has_file(path)
                                  else "this file is not part of the game being debugged")
            return breakpoint
        function = program_map.function_at(path, breakpoint.verified_line)
        game = self._static_game
        mistakes = []
        if breakpoint.condition:
            mistake = self.watches.mistake(breakpoint.condition, game, function, bool_only=True)
            mistakes += [f"the condition '{_short(breakpoint.condition)}': {mistake}"] if mistake else []
        if breakpoint.hit_condition and _HIT_CONDITION.fullmatch(breakpoint.hit_condition) is None:
            mistakes.append(f"the hit count '{_short(breakpoint.hit_condition)}' is not N, >= N, > N, <= N, < N, "
                            "== N or % N")
        for part in expressions.interpolated(breakpoint.log_message or ""):
            mistake = self.watches.mistake(part, game, function)
            mistakes += [f"{{{_short(part)}}} of the log message: {mistake}"] if mistake else []
        if mistakes:
            breakpoint.line, breakpoint.verified_line = breakpoint.verified_line, None
            breakpoint.message = "; ".join(mistakes)
        return breakpoint

    def resume(self, how: str) -> None:
        """how: continue, over, in, out, back (one statement back), reverse (to the previous
        breakpoint hit)."""
        with self.cond:
            if self.stop is None:
                raise ValueError("the game is not stopped")
            self._command = (how,)
            self.stop = None    # from now on, not when the game thread wakes up,
            self._pause = False  # and a pause asked while stopped is dropped now: one asked after this counts
            self.cond.notify_all()

    def pause(self) -> None:
        with self.cond:
            self._pause = True
            self.cond.notify_all()

    def play_move(self, text: str) -> None:
        """A move typed while the game waits for one (the script ran out)."""
        with self.cond:
            if not self.waiting_for_move:
                raise ValueError("the game is not waiting for a move")
            self.inputs.append(text)
            self.cond.notify_all()

    def quit(self) -> None:
        with self.cond:
            self._quit = True
            self._command = ("quit",)
            self.cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def evaluate(self, text: str, frame_index: int = 0):
        """The value of a gdef expression in a frame of the stop (read-only)."""
        stop = self.stop
        if stop is None:
            raise expressions.EvaluationError("the game is not stopped")
        frame = stop.frames[frame_index] if 0 <= frame_index < len(stop.frames) else None
        function = frame.name if frame is not None and frame.python is not None else None
        return self._evaluate(text, self._scope(stop, frame_index), function)

    def _evaluate(self, text: str, scope: expressions.Scope, function: str | None):
        """A bare name is looked up (arrays and boards too); anything else is compiled."""
        name = text.strip()
        if name.isidentifier():
            try:
                return expressions.lookup(name, scope)
            except expressions.EvaluationError:
                pass  # the checker says why, in its words
        return self.watches.evaluate(name, scope, function)

    # ------------------------------------------------------------ the game thread

    def _check_game(self) -> None:
        from gdef_core.loader import GdefFileError, load_program
        from gdef_core.runtime.errors import GameLoadError
        from gdef_core.runtime.game import game_from_program

        try:
            program = load_program(self.launch.program, params=self.params)
        except GdefFileError as error:
            raise DebugLoadError(str(error)) from None
        written = [f"{self.script_name}:{line.line}:{line.column + 1}: # param: {program.param_errors[name]}"
                   for name, line in self.script_params.items() if name in program.param_errors]
        if written:
            raise DebugLoadError("; ".join(written))
        if program.param_errors:
            if program.ok:  # each refused value at its parameter's declaration
                raise DebugLoadError("; ".join(f"{program.params[name].span}: {why}" if name in program.params
                                               else why for name, why in program.param_errors.items()))
            program.param_errors.clear()  # the game's own errors say more (a broken declaration is no parameter)
        try:
            game = game_from_program(program, optimize=False)
        except GameLoadError as error:
            raise DebugLoadError(str(error)) from None
        self._static_map = StatementMap(program, game.rules.compiled)
        self._static_game = game
        if self.start_header.is_record or self.start_header.writes_position:
            _check_start(game, self.start_header, self.script_name)

    def _main(self) -> None:
        target = None
        code = None
        while True:
            try:
                code = self._run(target)
            except _Rewind as rewind:
                target = rewind
                continue
            except _Quit:
                code = None
            except Exception as error:  # a bug of the debugger: said, and the session ends cleanly
                sys.settrace(None)
                self.listener.output("stderr", f"The debugger failed (a bug of gdef: please report it): "
                                               f"{type(error).__name__}: {error}\n")
                code = EXIT_INTERNAL
            break
        self.ended = True
        if code is not None:
            self.listener.finished(code)

    def _run(self, rewind: _Rewind | None) -> int:
        """Play the game once from the start; on a rewind, silently up to its target."""
        options = PlayOptions(files=list(self.launch.program), optimize=False, resume=self.launch.resume,
                              params=dict(self.params),
                              record=self.launch.record if self._first_record else None,
                              prog="gdef-dap", record_setting="the launch's \"record\"")
        self.target = rewind
        self.silent = rewind is not None
        self.hit_ticks: list[int] = []
        self.tick = 0
        self.entries = 0
        self.step: tuple | None = None
        self.last_statement: dict = {}  # frame -> the statement it is at
        self.reported = None
        self.line_number, self.line_text = 0, ""
        self.debug_move_tick: int | None = None  # the first statement of isMoveLegal() judging debug_move
        self.play = None
        for breakpoints in self.breakpoints.values():
            for breakpoint in breakpoints:
                breakpoint.hits = 0
        self.filename = None
        sys.settrace(None if self.launch.no_debug else self._trace)
        try:
            play = _DebugPlay.start(options, _Reporter(self))
            if isinstance(play, int):
                return play
            play.record = self.launch.record  # never the resumed record, unless named
            self._first_record = False
            play.debugger = self
            self.play = play
            if self.filename != play.game.rules.filename:
                self._bind(play.game)
            return play.run_script(self._lines(), self.script_name, self.start_header)
        finally:
            sys.settrace(None)

    def _bind(self, game) -> None:
        self.game = game
        self.map = StatementMap(game.program, game.rules.compiled)
        self.filename = game.rules.filename
        self.cells = {}
        for attribute in _CELL_SOURCES:
            function = getattr(game.rules, attribute, None)
            if function is not None and function.__closure__:
                self.cells.update(zip(function.__code__.co_freevars, function.__closure__))

    def _bind_from(self, frame) -> None:
        """Bind the Game whose rules run in `frame`: the `self` of a caller (Game.new_state)."""
        walker = frame
        while walker is not None:
            owner = walker.f_locals.get("self")
            rules = getattr(owner, "rules", None)
            if getattr(rules, "filename", None) == frame.f_code.co_filename:
                self._bind(owner)
                return
            walker = walker.f_back

    def _lines(self):
        """The script's lines, then the moves typed in the debug console, as they come."""
        i = 0
        while True:
            if self._quit:  # seen here too when nothing traces (noDebug): terminate ends the game at once
                raise _Quit()
            if i < len(self.inputs):
                self.line_number, self.line_text = i + 1, self.inputs[i]
                i += 1
                yield self.line_text
                continue
            if self.play.session.state.is_over:
                return
            self._wait_for_move(i)

    def _wait_for_move(self, count: int) -> None:
        if self.target is not None:  # a rewind past every move played: stop where the moves ran out
            self._reach_target(None)
            return
        with self.cond:
            self.waiting_for_move = True
        self.listener.waiting()
        with self.cond:
            while len(self.inputs) <= count and not self._quit and not self._pause:
                self.cond.wait()
            self.waiting_for_move = False
            quit_, pause = self._quit, self._pause
            self._pause = False
        if quit_:
            raise _Quit()
        if pause:
            number = self.play.session.state.move_number + 1
            self._stop("pause", "Paused while waiting for a move", None, waiting=f"waiting for move {number}")

    # ------------------------------------------------------------ tracing

    def _trace(self, frame, event, arg):
        code = frame.f_code
        if self.filename is None and code.co_filename.startswith(FILENAME_PREFIX):
            self._bind_from(frame)  # setup() runs while the PlaySession is being made
        if code.co_filename != self.filename:
            return None
        if not code.co_name.startswith(("u_", "u1_")) or _quiet(frame.f_back):
            return None
        if frame.f_back is None or not _traced(frame.f_back, self.filename):
            self.entries += 1  # a new call of an entry point
            if (frame.f_back is not None and frame.f_back.f_code.co_name == "_e_isMoveLegal"
                    and self.launch.debug_move and self.line_number == len(self.script) + 1):
                self.debug_move_tick = self.tick + 1
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            statement = self.map.by_line.get(frame.f_lineno)
            if statement is not None:  # a new one, not the rest of the one before
                last = self.last_statement.get(frame)
                if last is None or last.span != statement.span:
                    self.last_statement[frame] = statement
                    self._statement(frame, statement, last)
        elif event == "exception":
            self._exception(frame, arg[1])
        elif event == "return":
            self.last_statement.pop(frame, None)
        return self._local

    def _statement(self, frame, statement: Statement, last: Statement | None) -> None:
        if self._quit:
            raise _Quit()
        self.tick += 1
        hit = self._breakpoint_hit(frame, statement, last)
        target = self.target
        if target is not None:
            if self.tick < target.target:
                if hit:
                    self.hit_ticks.append(self.tick)
                return
            self._reach_target(frame)
            return
        if self._pause:
            self._pause = False
            self._stop("pause", "Paused", frame)
        elif self.tick == 1 and self.launch.stop_on_entry:
            self._stop("entry", "Stopped at the first statement", frame)
        elif self.tick == self.debug_move_tick:
            self._stop("entry", f"Stopped where isMoveLegal() judges {self.launch.debug_move}", frame)
        elif hit:
            self._stop("breakpoint", "Breakpoint", frame)
        elif self.step is not None and self._step_done(frame):
            self._stop("step", "Step", frame)

    def _reach_target(self, frame) -> None:
        target = self.target
        self.target = None
        self.silent = False
        if target.collect:  # reverse continue: back to the last breakpoint hit before here
            earlier = [tick for tick in self.hit_ticks if tick < target.target]
            raise _Rewind(earlier[-1] if earlier else 1, "breakpoint" if earlier else "entry")
        self._stop(target.reason, {"step": "Stepped back", "breakpoint": "Breakpoint"}.get(
            target.reason, "Back at the first statement (no breakpoint was hit before)"), frame)

    def _step_done(self, frame) -> bool:
        how, depth, entry = self.step
        if how == "in" or entry != self.entries:
            return True
        here = _depth(frame, self.filename)
        return here <= depth if how == "over" else here < depth

    def _breakpoint_hit(self, frame, statement: Statement, last: Statement | None) -> bool:
        """Whether a breakpoint stops here (its hits counted, logpoints written)."""
        line = statement.span.line
        if last is not None and last.span.line == line and last.span.file == statement.span.file:
            return False  # a second statement of the same line
        breakpoints = self.breakpoints.get(same_file(statement.span.file))
        if not breakpoints:
            return False
        stops = False
        for breakpoint in breakpoints:
            if breakpoint.verified_line != line:
                continue
            scope = None
            if breakpoint.condition:
                scope = self._live_scope(frame)
                try:
                    if not expressions.truth(self._evaluate(breakpoint.condition, scope, statement.function)):
                        continue
                except expressions.EvaluationError as error:
                    if not breakpoint.failed and not self.silent:  # once, not at every hit of a loop
                        breakpoint.failed = True
                        self._say("stderr", f"{statement.span}: the breakpoint's condition '{breakpoint.condition}' "
                                            f"cannot be evaluated: {error} (said once; the breakpoint does not stop "
                                            "where it cannot be evaluated)\n")
                    continue
            breakpoint.hits += 1
            if breakpoint.hit_condition and not _hits_met(breakpoint.hit_condition, breakpoint.hits):
                continue
            if breakpoint.log_message is not None:
                if not self.silent:
                    scope = scope or self._live_scope(frame)
                    text = expressions.interpolate(breakpoint.log_message,
                                                   lambda part: self._evaluate(part, scope, statement.function))
                    self._say("console", text + "\n")
                continue
            stops = True
        return stops

    def _exception(self, frame, error) -> None:
        if not isinstance(error, (Fail, RecursionError)) or error is self.reported:
            return
        self.reported = error
        if not self.break_on_errors or self.target is not None:
            return
        walker = frame.f_back
        while walker is not None:  # a search for legal moves counts a failing candidate as illegal
            if walker.f_code.co_filename == self.filename and walker.f_code.co_name == "_e_filter":
                return
            walker = walker.f_back
        chain = []
        walker = frame
        while walker is not None:
            if _traced(walker, self.filename):
                chain.append(walker)
            walker = walker.f_back
        tb = None
        for walker in chain:
            tb = types.TracebackType(tb, walker, walker.f_lasti, walker.f_lineno)
        copy = Fail(error.code, error.message, error.loc) if isinstance(error, Fail) else RecursionError()
        located = self.game.rules.error(copy.with_traceback(tb))
        self._stop("exception", f"{located.code}: {located.message}", frame,
                   text=located.headline(), span=located.span, code=located.code)

    # ------------------------------------------------------------ stops

    def _stop(self, reason: str, description: str, frame, text: str | None = None,
              span: Span | None = None, waiting: str | None = None, code: str | None = None) -> None:
        """Stop the game thread until the front end says how to go on (`waiting`: the name of
        the stop while the game waits for a move)."""
        frames = [Frame(waiting, None)] if waiting else self._frames(frame)
        if span is not None and frames and frames[0].python is not None:
            frames[0].span = span
        cells = self._state_cells() if frame is None else \
            {name: cell.cell_contents for name, cell in self.cells.items() if _has_value(cell)}
        stop = Stop(reason, description, frames, self.tick, text, error_code=code, cells=cells)
        with self.cond:
            self.stop = stop
            self._command = None
        self.listener.stopped(stop)
        with self.cond:
            while self._command is None:
                self.cond.wait()
            command = self._command[0]
            self.stop = None
        if command == "quit":
            raise _Quit()
        if command == "back":
            raise _Rewind(max(stop.tick - 1, 1), "step")
        if command == "reverse":
            raise _Rewind(stop.tick, "breakpoint", collect=True)
        depth = _depth(frame, self.filename) if frame is not None else 0
        self.step = None if command == "continue" else (command, depth, self.entries)

    def _state_cells(self) -> dict:
        """Outside the rules (a failed `?` line, a pause while waiting): the game's position,
        as the rules' cells would hold it."""
        play = self.play
        if play is None:
            return {}
        state = play.session.state
        board = state.board
        squares = [board[x, y] for x in range(board.width) for y in range(board.height)]
        objects = {str(obj): obj for obj in (self.game.empty, *self.game.objects.values())}
        return {"B": [objects.get(square, square) for square in squares], "V": list(state.variables.values()),
                "T": state.current_player, "MN": state.move_number}

    def _frames(self, frame) -> list[Frame]:
        frames = []
        entry = None
        walker = frame
        while walker is not None:
            code = walker.f_code
            if code.co_filename == self.filename:
                if code.co_name.startswith(("u_", "u1_")):
                    name = code.co_name.split("_", 1)[1]
                    frames.append(Frame(name, self.map.where(walker.f_lineno, name), walker))
                elif code.co_name in _ENTRIES:
                    entry = code.co_name
            walker = walker.f_back
        frames.append(self._entry_frame(entry))
        return frames

    def _entry_frame(self, entry: str | None) -> Frame:
        session = self.play.session if self.play is not None else None
        number = session.state.move_number + 1 if session is not None else 1  # as moveNumber() will count it
        text = self.line_text.split("#", 1)[0].strip()
        if entry is None:
            name = f"{os.path.basename(self.script_name)} line {self.line_number}: {text}" if self.line_number else "the start"
        elif entry == "_e_setup":
            name = "setup()"
        elif entry == "_e_end":
            name = f"end() after move {number}: {text}"
        elif entry == "_e_isMoveLegal":
            name = f"isMoveLegal() judging move {number}: {text}"
        elif entry == "_e_chance":
            name = f"chance() proposing the outcomes of move {number}"
        else:
            name = f"{_ENTRIES[entry]} listing the legal moves before move {number}"
        span = None
        if self.launch.moves and 0 < self.line_number <= len(self.script):
            span = Span(self.launch.moves, self.line_number - 1, 0, self.line_number - 1, len(self.line_text))
        return Frame(name, span)

    def _scope(self, stop: Stop, index: int) -> expressions.Scope:
        frames = stop.frames
        frame = frames[index].python if 0 <= index < len(frames) else None
        return expressions.Scope(frame.f_locals if frame is not None else {}, stop.cells, self.game)

    def _live_scope(self, frame) -> expressions.Scope:
        cells = {name: cell.cell_contents for name, cell in self.cells.items() if _has_value(cell)}
        return expressions.Scope(frame.f_locals, cells, self.game)

    def _say(self, category: str, text: str) -> None:
        if self.silent:
            return
        if category == "console":
            if self._logged > MAX_LOG_OUTPUT:
                return
            self._logged += len(text)
            if self._logged > MAX_LOG_OUTPUT:
                text = "(logpoint output stops here: more than 100,000 characters)\n"
        self.listener.output(category, text)


class _DebugPlay(PlaySession):
    """A PlaySession whose failed `?` lines stop the debugger as an exception does, and whose
    moves written by name are played as their operations."""

    debugger: DebugSession

    def play(self, text: str, line: int | None = None):
        """A name is read from the legal moves (untraced) and the move found is played as its
        operations: a move found among the legal moves would not be judged again, so isMoveLegal()
        would never run for it where the debugger stops."""
        try:
            Move.parse(text)
        except MoveSyntaxError:
            found = self.session.state.read_move(text)
            if isinstance(found, Move):
                text = str(found)
        return super().play(text, line)

    def check_assertion(self, text: str, name: str, number: int) -> bool:
        passed = super().check_assertion(text, name, number)
        debugger = self.debugger
        if not passed and debugger.break_on_assertions and debugger.target is None and not debugger.launch.no_debug:
            debugger._stop("exception", f"assertion failed: {text}", None,
                           text=f"{name}:{number}: assertion failed: {text}")
        return passed


class _Reporter:
    """The PlaySession's reports as the debugger's output (none while re-running)."""

    def __init__(self, debugger: DebugSession) -> None:
        self.debugger = debugger

    def say(self, text: str = "") -> None:
        self.debugger._say("stdout", text + "\n")

    def complain(self, text: str) -> None:
        self.debugger._say("stderr", text + "\n")

    def show_error(self, error: GdefRuntimeError, game) -> None:
        self.complain(str(error))

    def show_definition(self, program, error) -> None:
        self.complain(str(error))

    def show_board(self, session) -> None:
        """The board, a big one around the last move (as gdef-run draws it)."""
        from gdef_core.runtime.render import render_board, window_around

        state, game = session.state, session.game
        window = window_around(game.width, game.height, session.last_square())
        self.say(render_board(state.board, list(game.objects), scores=state.scores, window=window))


def _read_script(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DebugLoadError(f"cannot read the move script {path}: {getattr(error, 'strerror', None) or error}") from None


def _read_start(name: str, script: list[str]) -> StartHeader:
    """The start the script's header writes (testing.start_header), read at launch."""
    try:
        return read_start("\n".join(script))
    except HeaderError as error:
        raise DebugLoadError(f"{name}:{error.line}:{error.column + 1}: {error.message}") from None


def _script_params(name: str, script: list[str], given: dict) -> tuple[dict, dict]:
    """The parameters the game is loaded with: the launch's "params" and the script's `# param:`
    lines, which must agree (testing.scripts.script_params), and those lines by name."""
    try:
        return script_params(name, "\n".join(script), given, 'the launch\'s "params"')
    except TestFileError as error:
        raise DebugLoadError(f"{error.where}: {error.message}") from None


def _check_start(game, header: StartHeader, name: str) -> None:
    """The start the header writes fits the game (as `gdef-run --moves` will find when it plays)."""
    try:
        script_start(game, header, name)
    except StartError as error:
        raise DebugLoadError(f"{name}:{error.at.line}:{error.at.column + 1}: {error.message}") from None


def _check_record(path: str) -> None:
    try:
        load_record(path)
    except RecordError as error:
        raise DebugLoadError(str(error)) from None


def _short(text: str, most: int = 50) -> str:
    """An expression quoted in a message: its start when it is long."""
    return text if len(text) <= most else text[:most].rstrip() + " ..."


def _check_record_target(path: str) -> None:
    """A record can be written at `path` (an existing file there is kept aside when it is)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise DebugLoadError(f"the record {path} is a folder: give a file name")
    if not os.path.isdir(folder):
        raise DebugLoadError(f"cannot write the record {path}: there is no folder {folder}")


def _quiet(frame) -> bool:
    """Whether `frame` runs below a caller whose rules calls are not traced (_QUIET_CALLERS)."""
    while frame is not None:
        if frame.f_code in _QUIET_CALLERS:
            return True
        frame = frame.f_back
    return False


def _traced(frame, filename: str) -> bool:
    code = frame.f_code
    return code.co_filename == filename and code.co_name.startswith(("u_", "u1_"))


def _depth(frame, filename: str) -> int:
    depth = 0
    while frame is not None:
        depth += _traced(frame, filename)
        frame = frame.f_back
    return depth


def _has_value(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


_HIT_CONDITION = re.compile(r"\s*(>=|<=|==|>|<|%)?\s*\d+\s*")


def _hits_met(condition: str, hits: int) -> bool:
    """A hit condition: `N` (the Nth hit), `>= N`, `> N`, `== N`, `% N` (every Nth)."""
    text = condition.strip()
    for operator in (">=", "<=", "==", ">", "<", "%"):
        if text.startswith(operator):
            number = _number(text[len(operator):])
            return {">=": hits >= number, "<=": hits <= number, "==": hits == number, ">": hits > number,
                    "<": hits < number, "%": number > 0 and hits % number == 0}[operator]
    return hits == _number(text)


def _number(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        return -1
