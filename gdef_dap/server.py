"""The adapter: each request a small handler over gdef_core.debug's DebugSession; the session's
stops, output and end become events. Lines and columns are 1-based here (the protocol's
default), 0-based in the engine. A malformed request gets an error response, never a crash."""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gdef_core.debug.engine import DebugLoadError, DebugSession, LaunchOptions, Stop
from gdef_core.debug.expressions import EvaluationError
from gdef_core.moves import Move, MoveSyntaxError, looks_like_name
from gdef_core.debug.values import Node, position_view, scopes, value_node
from gdef_dap import protocol
from gdef_dap.framing import FramingError, Stream
from gdef_dap.protocol_codec import ProtocolError, from_json, to_json

THREAD_ID = 1
EXCEPTION_FILTERS = [
    protocol.ExceptionBreakpointsFilter("runtime", "Run-time errors", default=True,
                                        description="Stop where a rule fails (the G6xx error, e.g. division by zero)"),
    protocol.ExceptionBreakpointsFilter("assertion", "Failed assertions", default=True,
                                        description="Stop at a `?` line of the move script that fails"),
]
CAPABILITIES = protocol.Capabilities(
    supportsConfigurationDoneRequest=True, supportsConditionalBreakpoints=True,
    supportsHitConditionalBreakpoints=True, supportsLogPoints=True, supportsStepBack=True,
    supportsEvaluateForHovers=True, supportsTerminateRequest=True,
    exceptionBreakpointFilters=EXCEPTION_FILTERS)
POSITION_EVENT = "gdef/position"  # after each stop: the position being debugged, for a board view
STEPS = {"continue": "continue", "next": "over", "stepIn": "in", "stepOut": "out",
         "stepBack": "back", "reverseContinue": "reverse"}


@dataclass
class LaunchArguments:
    """The `launch` arguments of gdef's debugger (docs/debugging.md)."""

    program: Any                # the game's .gdef file, or a list of its files
    moves: str | None = None
    record: str | None = None
    stopOnEntry: bool | None = None
    resume: str | None = None       # start from a record's position (gdef-run --resume)
    debugMove: str | None = None    # play it last, stopping where isMoveLegal() starts judging it
    params: dict | None = None      # the game's parameters by name (gdef-run --param NAME=VALUE)
    noDebug: bool | None = None


# Each request's arguments, checked against its protocol type before its handler runs.
ARGUMENTS = {
    "initialize": protocol.InitializeRequestArguments, "launch": LaunchArguments,
    "setBreakpoints": protocol.SetBreakpointsArguments,
    "setExceptionBreakpoints": protocol.SetExceptionBreakpointsArguments,
    "configurationDone": protocol.ConfigurationDoneArguments, "stackTrace": protocol.StackTraceArguments,
    "scopes": protocol.ScopesArguments, "variables": protocol.VariablesArguments,
    "continue": protocol.ContinueArguments, "next": protocol.NextArguments, "stepIn": protocol.StepInArguments,
    "stepOut": protocol.StepOutArguments, "stepBack": protocol.StepBackArguments,
    "reverseContinue": protocol.ReverseContinueArguments, "pause": protocol.PauseArguments,
    "evaluate": protocol.EvaluateArguments, "disconnect": protocol.DisconnectArguments,
    "terminate": protocol.TerminateArguments,
}


class RequestError(Exception):
    """The request cannot be done; the message goes back in the error response."""


class Server:
    def __init__(self, reader, writer) -> None:
        self.stream = Stream(reader, writer)
        self.session: DebugSession | None = None
        self.handles: dict[int, Callable[[], list[Node]]] = {}  # variablesReference -> children
        self.running = True
        self.after: Callable[[], None] | None = None  # what a request does once it is answered
        self.handlers = {
            "initialize": self.initialize, "launch": self.launch, "setBreakpoints": self.set_breakpoints,
            "setExceptionBreakpoints": self.set_exception_breakpoints,
            "configurationDone": self.configuration_done, "threads": self.threads,
            "stackTrace": self.stack_trace, "scopes": self.scopes, "variables": self.variables,
            "pause": self.pause, "evaluate": self.evaluate, "disconnect": self.disconnect,
            "terminate": self.terminate,
            **{command: self.stepper(how) for command, how in STEPS.items()},
        }

    # ------------------------------------------------------------ the loop

    def serve(self) -> int:
        while self.running:
            try:
                message = self.stream.read()
            except FramingError as error:
                self.output("stderr", f"gdef-dap: cannot read the client's messages: {error}\n")
                break
            except ValueError as error:
                self.output("stderr", f"gdef-dap: a message is not JSON: {error}\n")
                continue
            if message is None:
                break
            self.dispatch(message)
        if self.session is not None:
            self.session.quit()
        return 0

    def dispatch(self, message) -> None:
        if not isinstance(message, dict) or message.get("type") != "request":
            self.output("stderr", "gdef-dap: ignored a message that is not a request\n")
            return
        seq = message.get("seq") if isinstance(message.get("seq"), int) else 0
        command = message.get("command")
        handler = self.handlers.get(command) if isinstance(command, str) else None
        try:
            if handler is None:
                raise RequestError(f"unknown request {command!r}")
            arguments = message.get("arguments")
            kind = ARGUMENTS.get(command)
            if kind is not None:
                arguments = from_json(kind, {} if arguments is None else arguments)
            body = handler(arguments)
        except RequestError as error:
            self.respond(seq, command, False, message=str(error))
            return
        except ProtocolError as error:
            self.respond(seq, command, False, message=f"malformed {command} request: {error}")
            return
        except Exception as error:  # a bug of gdef-dap: answered, and the session goes on
            self.respond(seq, command, False, message=f"gdef-dap failed on {command} (a bug: please report it): "
                                                       f"{type(error).__name__}: {error}")
            return
        self.respond(seq, command, True, to_json(body) if body is not None else None)
        after, self.after = self.after, None
        if after is not None:
            try:
                after()
            except ValueError as error:  # the game stopped being stopped meanwhile (terminated)
                self.output("stderr", f"gdef-dap: {error}\n")

    def respond(self, seq: int, command, success: bool, body: dict | None = None, message: str | None = None) -> None:
        response = {"type": "response", "request_seq": seq, "command": command, "success": success}
        if body is not None:
            response["body"] = body
        if message is not None:
            response["message"] = message
            response["body"] = {"error": {"id": 1, "format": message.replace("{", "{{").replace("}", "}}")}}
        self.stream.send(response)

    def event(self, name: str, body: dict | None = None) -> None:
        self.stream.send({"type": "event", "event": name, **({"body": body} if body is not None else {})})

    def output(self, category: str, text: str) -> None:
        self.event("output", to_json(protocol.OutputEventBody(text, category)))

    # ------------------------------------------------------------ the session's events

    def stopped(self, stop: Stop) -> None:
        self.handles.clear()
        self.event("stopped", to_json(protocol.StoppedEventBody(
            stop.reason, stop.description, THREAD_ID, text=stop.text, allThreadsStopped=True)))
        session = self.session
        view = position_view(session._scope(stop, 0), stop.frames[-1].name) if session is not None else None
        if view is not None:
            self.event(POSITION_EVENT, view)

    def waiting(self) -> None:
        self.output("console", "The moves ran out: type a move in the debug console (for example "
                               "place(1,1,X)) to play it.\n")

    def finished(self, exit_code: int) -> None:
        self.event("exited", to_json(protocol.ExitedEventBody(exit_code)))
        self.event("terminated")

    # ------------------------------------------------------------ requests

    def initialize(self, arguments: protocol.InitializeRequestArguments) -> protocol.Capabilities:
        if arguments.linesStartAt1 is False or arguments.columnsStartAt1 is False:
            raise RequestError("gdef-dap counts lines and columns from 1 (linesStartAt1, columnsStartAt1)")
        return CAPABILITIES

    def launch(self, arguments: LaunchArguments) -> None:
        if self.session is not None:
            raise RequestError("a game is already being debugged")
        program = arguments.program
        programs = [program] if isinstance(program, str) else program
        if not programs or not isinstance(programs, list) or not all(isinstance(p, str) for p in programs):
            raise RequestError("launch needs 'program': the game's .gdef file (or a list of its files)")
        params = launch_params(arguments.params)
        move = arguments.debugMove
        if move is not None:
            try:
                Move.parse(move)
            except MoveSyntaxError as error:
                if not looks_like_name(move):
                    raise RequestError(f"'debugMove' is not a move: {error}") from None
        options = LaunchOptions(programs, arguments.moves or None, arguments.record or None, bool(arguments.stopOnEntry),
                                arguments.resume or None, move, params)
        try:
            self.session = DebugSession(options, self)
        except DebugLoadError as error:
            raise RequestError(f"cannot debug {', '.join(programs)}: {error}") from None
        self.after = lambda: self.event("initialized")

    def need_session(self) -> DebugSession:
        if self.session is None:
            raise RequestError("launch a game first")
        return self.session

    def set_breakpoints(self, arguments: protocol.SetBreakpointsArguments) -> protocol.SetBreakpointsResponseBody:
        session = self.need_session()
        path = arguments.source.path
        if path is None:
            raise RequestError("setBreakpoints needs source.path")
        asked = arguments.breakpoints
        if asked is None:
            asked = [protocol.SourceBreakpoint(line) for line in arguments.lines or []]
        for spec in asked:
            if spec.line < 1:
                raise RequestError(f"a breakpoint line counts from 1, not {spec.line}")
        found = session.set_breakpoints(path, [
            {"line": spec.line - 1, "condition": spec.condition or None, "hit_condition": spec.hitCondition or None,
             "log_message": spec.logMessage} for spec in asked])
        return protocol.SetBreakpointsResponseBody([
            protocol.Breakpoint(False, line=breakpoint.line + 1,
                                message="no statement on or after this line in its function")
            if breakpoint.verified_line is None else protocol.Breakpoint(True, line=breakpoint.verified_line + 1)
            for breakpoint in found])

    def set_exception_breakpoints(self, arguments: protocol.SetExceptionBreakpointsArguments) -> None:
        session = self.need_session()
        session.break_on_errors = "runtime" in arguments.filters
        session.break_on_assertions = "assertion" in arguments.filters

    def configuration_done(self, arguments) -> None:
        self.after = self.need_session().start

    def threads(self, arguments) -> protocol.ThreadsResponseBody:
        return protocol.ThreadsResponseBody([protocol.Thread(THREAD_ID, "game")])

    def stop(self) -> Stop:
        stop = self.need_session().stop
        if stop is None:
            raise RequestError("the game is running: pause it first")
        return stop

    def stack_trace(self, arguments: protocol.StackTraceArguments) -> protocol.StackTraceResponseBody:
        stop = self.stop()
        frames = []
        for index, frame in enumerate(stop.frames):
            item = protocol.StackFrame(index + 1, f"{frame.name}()" if frame.python is not None else frame.name, 0, 0,
                                       presentationHint=None if frame.python is not None else "label")
            if frame.span is not None:
                item.line, item.column = frame.span.line + 1, frame.span.column + 1
                item.source = protocol.Source(os.path.basename(frame.span.file), os.path.abspath(frame.span.file))
            frames.append(item)
        start = arguments.startFrame or 0
        levels = arguments.levels or len(frames)
        return protocol.StackTraceResponseBody(frames[start:start + levels], len(frames))

    def frame_index(self, stop: Stop, frame_id: int) -> int:
        if not 1 <= frame_id <= len(stop.frames):
            raise RequestError(f"there is no frame {frame_id}")
        return frame_id - 1

    def scopes(self, arguments: protocol.ScopesArguments) -> protocol.ScopesResponseBody:
        stop = self.stop()
        index = self.frame_index(stop, arguments.frameId)
        session = self.need_session()
        return protocol.ScopesResponseBody([
            protocol.Scope(group.name, self.handle(lambda nodes=group.nodes: nodes), False,
                           presentationHint="locals" if group.name == "Locals" else None)
            for group in scopes(session._scope(stop, index), stop.frames[index].python is not None)])

    def handle(self, children: Callable[[], list[Node]]) -> int:
        reference = len(self.handles) + 1
        self.handles[reference] = children
        return reference

    def variables(self, arguments: protocol.VariablesArguments) -> protocol.VariablesResponseBody:
        self.stop()
        children = self.handles.get(arguments.variablesReference)
        if children is None:
            raise RequestError(f"there is no variablesReference {arguments.variablesReference}")
        return protocol.VariablesResponseBody([self.variable(node) for node in children()])

    def variable(self, node: Node) -> protocol.Variable:
        return protocol.Variable(node.name, node.value, self.handle(node.children) if node.children else 0,
                                 type=node.type or None, evaluateName=node.evaluate_name)

    def stepper(self, how: str) -> Callable:
        """The handler of continue, next, stepIn, stepOut, stepBack or reverseContinue."""

        def step(arguments) -> protocol.ContinueResponseBody | None:
            session = self.need_session()
            if arguments.threadId != THREAD_ID:
                raise RequestError(f"there is no thread {arguments.threadId}")
            if session.stop is None:
                raise RequestError("the game is not stopped")
            self.handles.clear()
            self.after = lambda: session.resume(how)  # once answered: the stop may come at once
            return protocol.ContinueResponseBody(allThreadsContinued=True) if how == "continue" else None

        return step

    def pause(self, arguments: protocol.PauseArguments) -> None:
        self.need_session().pause()

    def evaluate(self, arguments: protocol.EvaluateArguments) -> protocol.EvaluateResponseBody:
        session = self.need_session()
        text = arguments.expression
        if arguments.context == "repl" and session.waiting_for_move:
            try:
                Move.parse(text)
            except MoveSyntaxError as error:
                raise RequestError(f"not a move: {error}") from None
            self.after = lambda: session.play_move(text)
            return protocol.EvaluateResponseBody(f"played {text.strip()}", 0)
        stop = session.stop
        if stop is None:
            raise RequestError("the game is running: expressions are evaluated where it is stopped")
        index = self.frame_index(stop, arguments.frameId) if arguments.frameId is not None else 0
        try:
            value = session.evaluate(text, index)
        except EvaluationError as error:
            raise RequestError(str(error)) from None
        node = value_node(text, value, text)
        return protocol.EvaluateResponseBody(node.value, self.handle(node.children) if node.children else 0,
                                             type=node.type or None)

    def disconnect(self, arguments: protocol.DisconnectArguments) -> None:
        if self.session is not None:
            self.session.quit()
        self.running = False

    def terminate(self, arguments: protocol.TerminateArguments) -> None:
        session = self.need_session()
        session.quit()
        self.event("terminated")


def launch_params(given: dict | None) -> dict[str, str]:
    """`params` of a launch as gdef-run's --param takes them: {"board_size": 7} -> {"board_size": "7"}
    (a JSON true is the parameter value true); the game itself refuses names and values it does not allow."""
    values = {}
    for name, value in (given or {}).items():   # an object: the request's type check says so
        if isinstance(value, bool):
            values[name] = "true" if value else "false"
        elif isinstance(value, (int, float, str)):
            values[name] = str(value)
        else:
            raise RequestError(f"'params': the value of {name!r} must be a number, true/false or a string")
    return values
