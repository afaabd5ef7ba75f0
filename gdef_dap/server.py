"""The adapter: each request a small handler over gdef_core.debug's DebugSession; the session's
stops, output and end become events. Lines, columns and paths are as the client's `initialize`
asks (1-based and file paths: the protocol's defaults), 0-based in the engine. A malformed
request gets an error response, never a crash."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from urllib.request import url2pathname

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
    supportsEvaluateForHovers=True, supportsTerminateRequest=True, supportsExceptionInfoRequest=True,
    exceptionBreakpointFilters=EXCEPTION_FILTERS)
MAX_VARIABLES = 1000  # children in one variables response: a client pages through more (indexedVariables)
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
    "terminate": protocol.TerminateArguments, "exceptionInfo": protocol.ExceptionInfoArguments,
}


class RequestError(Exception):
    """The request cannot be done; the message goes back in the error response."""


class Server:
    def __init__(self, reader, writer) -> None:
        self.stream = Stream(reader, writer)
        self.session: DebugSession | None = None
        self.handles: dict[int, Callable[[], Sequence[Node]]] = {}  # variablesReference -> children
        self.last_handle = 0  # references only grow: one from before a step is never another's
        self.frame_ids: tuple[Stop | None, int] = (None, 1)  # the stop whose frames are numbered, its first id
        self.next_frame_id = 1  # frame ids only grow too
        self.client = Client()
        self.running = True
        self.terminated = False  # the `terminated` event was sent (once per session)
        self.after: Callable[[], None] | None = None  # what a request does once it is answered
        self.handlers = {
            "initialize": self.initialize, "launch": self.launch, "setBreakpoints": self.set_breakpoints,
            "setExceptionBreakpoints": self.set_exception_breakpoints,
            "configurationDone": self.configuration_done, "threads": self.threads,
            "stackTrace": self.stack_trace, "scopes": self.scopes, "variables": self.variables,
            "pause": self.pause, "evaluate": self.evaluate, "disconnect": self.disconnect,
            "terminate": self.terminate, "exceptionInfo": self.exception_info,
            **{command: self.stepper(how) for command, how in STEPS.items()},
        }

    # ------------------------------------------------------------ the loop

    def serve(self) -> int:
        while self.running:
            try:
                message = self.stream.read()
            except FramingError as error:
                self.output("stderr", f"gdef-dap: a message of the client was skipped: {error}\n")
                continue
            except (ValueError, RecursionError) as error:
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
        self.frame_ids = (stop, self.next_frame_id)
        self.next_frame_id += len(stop.frames)
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
        self.terminated = True
        self.event("terminated")

    # ------------------------------------------------------------ requests

    def initialize(self, arguments: protocol.InitializeRequestArguments) -> protocol.Capabilities:
        if arguments.pathFormat not in (None, "path", "uri"):
            raise RequestError(f"unknown pathFormat {arguments.pathFormat!r}: gdef-dap takes 'path' or 'uri'")
        self.client = Client(0 if arguments.linesStartAt1 is False else 1,
                             0 if arguments.columnsStartAt1 is False else 1,
                             arguments.pathFormat == "uri", bool(arguments.supportsVariableType))
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
                                arguments.resume or None, move, params, bool(arguments.noDebug))
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
        if arguments.source.path is None:
            raise RequestError("setBreakpoints needs source.path")
        path = self.client.path(arguments.source.path)
        asked = arguments.breakpoints
        if asked is None:
            asked = [protocol.SourceBreakpoint(line) for line in arguments.lines or []]
        first = self.client.lines_from
        for spec in asked:
            if spec.line < first:
                raise RequestError(f"a breakpoint line counts from {first}, not {spec.line}")
        found = session.set_breakpoints(path, [
            {"line": spec.line - first, "condition": spec.condition or None,
             "hit_condition": spec.hitCondition or None, "log_message": spec.logMessage} for spec in asked])
        return protocol.SetBreakpointsResponseBody([
            protocol.Breakpoint(False, line=breakpoint.line + first, message=breakpoint.message)
            if breakpoint.verified_line is None else protocol.Breakpoint(True, line=breakpoint.verified_line + first)
            for breakpoint in found])

    def set_exception_breakpoints(self, arguments: protocol.SetExceptionBreakpointsArguments) -> None:
        session = self.need_session()
        session.break_on_errors = "runtime" in arguments.filters
        session.break_on_assertions = "assertion" in arguments.filters

    def configuration_done(self, arguments) -> None:
        session = self.need_session()
        if session.started:
            raise RequestError("configurationDone came before: the game has started")
        self.after = session.start

    def threads(self, arguments) -> protocol.ThreadsResponseBody:
        return protocol.ThreadsResponseBody([protocol.Thread(THREAD_ID, "game")])

    def stop(self) -> Stop:
        session = self.need_session()
        stop = session.stop
        if stop is None:
            raise RequestError(not_stopped(session))
        return stop

    def stack_trace(self, arguments: protocol.StackTraceArguments) -> protocol.StackTraceResponseBody:
        thread(arguments.threadId)
        stop = self.stop()
        frames = []
        for index, frame in enumerate(stop.frames):
            item = protocol.StackFrame(self.first_frame_id(stop) + index, f"{frame.name}()" if frame.python is not None else frame.name, 0, 0,
                                       presentationHint=None if frame.python is not None else "label")
            if frame.span is not None:
                item.line = frame.span.line + self.client.lines_from
                item.column = frame.span.column + self.client.columns_from
                item.source = protocol.Source(os.path.basename(frame.span.file), self.client.source(frame.span.file))
            frames.append(item)
        start = arguments.startFrame or 0
        levels = arguments.levels or len(frames)   # 0 or none: all
        if start < 0 or levels < 0:
            raise RequestError("startFrame and levels count from 0")
        return protocol.StackTraceResponseBody(frames[start:start + levels], len(frames))

    def first_frame_id(self, stop: Stop) -> int:
        """Frames are numbered on from the last stop's: an id from before a step is never another's."""
        owner, first = self.frame_ids
        if owner is not stop:
            raise RequestError("the game is running: pause it first")
        return first

    def frame_index(self, stop: Stop, frame_id: int) -> int:
        first = self.first_frame_id(stop)
        if not first <= frame_id < first + len(stop.frames):
            raise RequestError(f"there is no frame {frame_id} (frames live until the game runs again)")
        return frame_id - first

    def scopes(self, arguments: protocol.ScopesArguments) -> protocol.ScopesResponseBody:
        stop = self.stop()
        index = self.frame_index(stop, arguments.frameId)
        session = self.need_session()
        return protocol.ScopesResponseBody([
            protocol.Scope(group.name, self.handle(lambda nodes=group.nodes: nodes), False,
                           presentationHint="locals" if group.name == "Locals" else None)
            for group in scopes(session._scope(stop, index), stop.frames[index].python is not None)])

    def handle(self, children: Callable[[], Sequence[Node]]) -> int:
        self.last_handle += 1
        self.handles[self.last_handle] = children
        return self.last_handle

    def variables(self, arguments: protocol.VariablesArguments) -> protocol.VariablesResponseBody:
        self.stop()
        children = self.handles.get(arguments.variablesReference)
        if children is None:
            raise RequestError(f"there is no variablesReference {arguments.variablesReference}")
        start, count = arguments.start or 0, arguments.count or 0   # count 0 or none: all
        if start < 0 or count < 0:
            raise RequestError("start and count of variables count from 0")
        nodes = children()
        end = min(start + (count or MAX_VARIABLES), start + MAX_VARIABLES, len(nodes))
        shown = [self.variable(node) for node in nodes[start:end]]
        if end < len(nodes) and not count:
            shown.append(protocol.Variable("...", f"{len(nodes) - end:,} more, not shown: ask for them by "
                                                  "start and count, or evaluate one", 0))
        return protocol.VariablesResponseBody(shown)

    def variable(self, node: Node) -> protocol.Variable:
        return protocol.Variable(node.name, node.value, self.handle(node.children) if node.children else 0,
                                 type=self.client.typed(node.type), evaluateName=node.evaluate_name,
                                 indexedVariables=node.elements or None)

    def stepper(self, how: str) -> Callable:
        """The handler of continue, next, stepIn, stepOut, stepBack or reverseContinue."""

        def step(arguments) -> protocol.ContinueResponseBody | None:
            session = self.need_session()
            thread(arguments.threadId)
            if session.stop is None:
                raise RequestError("the game is not stopped")
            self.handles.clear()
            self.after = lambda: session.resume(how)  # once answered: the stop may come at once
            return protocol.ContinueResponseBody(allThreadsContinued=True) if how == "continue" else None

        return step

    def pause(self, arguments: protocol.PauseArguments) -> None:
        thread(arguments.threadId)
        session = self.need_session()
        if session.launch.no_debug:  # nothing traces the rules, so no stopped event could follow
            raise RequestError("the game runs without debugging (noDebug), so it never stops: start it with "
                               "debugging to pause it")
        session.pause()

    def evaluate(self, arguments: protocol.EvaluateArguments) -> protocol.EvaluateResponseBody:
        session = self.need_session()
        text = arguments.expression
        if arguments.context == "repl" and session.waiting_for_move:
            try:
                Move.parse(text)
            except MoveSyntaxError as error:
                if not looks_like_name(text):   # a name is read when it is played, as gdef-run reads it
                    raise RequestError(f"not a move: {error}") from None
            self.after = lambda: session.play_move(text)
            return protocol.EvaluateResponseBody(f"played {text.strip()}", 0)
        stop = session.stop
        if stop is None:
            raise RequestError(f"{not_stopped(session)} (expressions are evaluated where it is stopped)")
        index = self.frame_index(stop, arguments.frameId) if arguments.frameId is not None else 0
        try:
            value = session.evaluate(text, index)
        except EvaluationError as error:
            if arguments.context == "repl" and is_move(text):
                raise RequestError(f"{error}; a move is played when the game waits for one (when the moves "
                                   "have run out): continue to there first") from None
            raise RequestError(str(error)) from None
        node = value_node(text, value, text)
        return protocol.EvaluateResponseBody(node.value, self.handle(node.children) if node.children else 0,
                                             type=self.client.typed(node.type), indexedVariables=node.elements or None)

    def exception_info(self, arguments: protocol.ExceptionInfoArguments) -> protocol.ExceptionInfoResponseBody:
        thread(arguments.threadId)
        stop = self.stop()
        if stop.reason != "exception":
            raise RequestError("the game is not stopped at an exception")
        kind = stop.error_code or "assertion"
        return protocol.ExceptionInfoResponseBody(
            kind, "always", stop.description,
            protocol.ExceptionDetails(stop.text, typeName="run-time error" if stop.error_code else "failed assertion"))

    def disconnect(self, arguments: protocol.DisconnectArguments) -> None:
        if self.session is not None:
            self.session.quit()
        self.running = False

    def terminate(self, arguments: protocol.TerminateArguments) -> None:
        session = self.need_session()
        session.quit()
        if not self.terminated:
            self.terminated = True
            self.event("terminated")


def not_stopped(session: DebugSession) -> str:
    """Why there is no stop to look at."""
    if session.ended:
        return "the game has ended"
    if session.waiting_for_move:
        return "the game waits for a move: type one in the debug console, or pause to look at the position"
    return "the game is running: pause it first"


def is_move(text: str) -> bool:
    try:
        Move.parse(text)
    except MoveSyntaxError:
        return False
    return True


def thread(thread_id: int) -> None:
    """The game is the adapter's one thread; any other id is an error."""
    if thread_id != THREAD_ID:
        raise RequestError(f"there is no thread {thread_id}")


@dataclass
class Client:
    """How the client counts lines and columns and writes paths (its `initialize` arguments)."""

    lines_from: int = 1
    columns_from: int = 1
    uris: bool = False          # pathFormat "uri": file:// URIs instead of paths
    types: bool = False         # supportsVariableType: a value's type may be sent

    def path(self, given: str) -> str:
        """A path the client sent, as a file path."""
        if self.uris and given.startswith("file:"):
            return url2pathname(urlparse(given).path)
        return given

    def source(self, path: str) -> str:
        """A file's path as the client wants it."""
        absolute = os.path.abspath(path)
        return Path(absolute).as_uri() if self.uris else absolute

    def typed(self, kind: str | None) -> str | None:
        return kind or None if self.types else None


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
