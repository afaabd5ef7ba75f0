"""The adapter: each request a small handler over gdef_core.debug's DebugSession; the session's
stops, output and end become events. Lines and columns are 1-based here (the protocol's
default), 0-based in the engine. A malformed request gets an error response, never a crash."""
from __future__ import annotations

import os
from collections.abc import Callable

from gdef_core.debug.engine import DebugLoadError, DebugSession, LaunchOptions, Stop
from gdef_core.debug.expressions import EvaluationError, show
from gdef_core.debug.values import Node, scopes, value_node
from gdef_dap.framing import FramingError, Stream

THREAD_ID = 1
EXCEPTION_FILTERS = [
    {"filter": "runtime", "label": "Run-time errors", "default": True,
     "description": "Stop where a rule fails (the G6xx error, e.g. division by zero)"},
    {"filter": "assertion", "label": "Failed assertions", "default": True,
     "description": "Stop at a `?` line of the move script that fails"},
]
CAPABILITIES = {
    "supportsConfigurationDoneRequest": True,
    "supportsConditionalBreakpoints": True,
    "supportsHitConditionalBreakpoints": True,
    "supportsLogPoints": True,
    "supportsStepBack": True,
    "supportsEvaluateForHovers": True,
    "supportsTerminateRequest": True,
    "exceptionBreakpointFilters": EXCEPTION_FILTERS,
}
STEPS = {"continue": "continue", "next": "over", "stepIn": "in", "stepOut": "out",
         "stepBack": "back", "reverseContinue": "reverse"}


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
        arguments = message.get("arguments")
        if arguments is None:
            arguments = {}
        handler = self.handlers.get(command) if isinstance(command, str) else None
        try:
            if handler is None:
                raise RequestError(f"unknown request {command!r}")
            if not isinstance(arguments, dict):
                raise RequestError("'arguments' must be an object")
            body = handler(arguments)
        except RequestError as error:
            self.respond(seq, command, False, message=str(error))
            return
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            self.respond(seq, command, False, message=f"malformed {command} request: {error}")
            return
        self.respond(seq, command, True, body)
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
        self.event("output", {"category": category, "output": text})

    # ------------------------------------------------------------ the session's events

    def stopped(self, stop: Stop) -> None:
        self.handles.clear()
        body = {"reason": stop.reason, "threadId": THREAD_ID, "allThreadsStopped": True,
                "description": stop.description}
        if stop.text:
            body["text"] = stop.text
        self.event("stopped", body)

    def waiting(self) -> None:
        self.output("console", "The moves ran out: type a move in the debug console (for example "
                               "place(1,1,X)) to play it.\n")

    def finished(self, exit_code: int) -> None:
        self.event("exited", {"exitCode": exit_code})
        self.event("terminated")

    # ------------------------------------------------------------ requests

    def initialize(self, arguments: dict) -> dict:
        if arguments.get("linesStartAt1") is False or arguments.get("columnsStartAt1") is False:
            raise RequestError("gdef-dap counts lines and columns from 1 (linesStartAt1, columnsStartAt1)")
        return CAPABILITIES

    def launch(self, arguments: dict) -> dict | None:
        if self.session is not None:
            raise RequestError("a game is already being debugged")
        program = arguments.get("program")
        programs = [program] if isinstance(program, str) else program
        if not programs or not all(isinstance(p, str) for p in programs):
            raise RequestError("launch needs 'program': the game's .gdef file (or a list of its files)")
        for name in ("moves", "record"):
            if arguments.get(name) is not None and not isinstance(arguments[name], str):
                raise RequestError(f"'{name}' must be a file name")
        if arguments.get("params"):
            raise RequestError("'params': this game language has no launch parameters yet")
        options = LaunchOptions(programs, arguments.get("moves") or None, arguments.get("record") or None,
                                bool(arguments.get("stopOnEntry", False)))
        try:
            self.session = DebugSession(options, self)
        except DebugLoadError as error:
            raise RequestError(f"cannot debug {', '.join(programs)}: {error}") from None
        self.after = lambda: self.event("initialized")
        return None

    def need_session(self) -> DebugSession:
        if self.session is None:
            raise RequestError("launch a game first")
        return self.session

    def set_breakpoints(self, arguments: dict) -> dict:
        session = self.need_session()
        path = arguments["source"].get("path")
        if not isinstance(path, str):
            raise RequestError("setBreakpoints needs source.path")
        asked = arguments.get("breakpoints")
        if asked is None:
            asked = [{"line": line} for line in arguments.get("lines") or []]
        specs = []
        for spec in asked:
            line = spec["line"]
            if not isinstance(line, int) or line < 1:
                raise RequestError(f"a breakpoint line must be a number from 1, not {line!r}")
            specs.append({"line": line - 1, "condition": spec.get("condition") or None,
                          "hit_condition": spec.get("hitCondition") or None, "log_message": spec.get("logMessage")})
        found = session.set_breakpoints(path, specs)
        result = []
        for breakpoint in found:
            if breakpoint.verified_line is None:
                result.append({"verified": False, "line": breakpoint.line + 1,
                               "message": "no statement on or after this line in its function"})
            else:
                result.append({"verified": True, "line": breakpoint.verified_line + 1})
        return {"breakpoints": result}

    def set_exception_breakpoints(self, arguments: dict) -> dict:
        session = self.need_session()
        filters = arguments.get("filters") or []
        session.break_on_errors = "runtime" in filters
        session.break_on_assertions = "assertion" in filters
        return {}

    def configuration_done(self, arguments: dict) -> None:
        self.after = self.need_session().start

    def threads(self, arguments: dict) -> dict:
        return {"threads": [{"id": THREAD_ID, "name": "game"}]}

    def stop(self) -> Stop:
        stop = self.need_session().stop
        if stop is None:
            raise RequestError("the game is running: pause it first")
        return stop

    def stack_trace(self, arguments: dict) -> dict:
        stop = self.stop()
        frames = []
        for index, frame in enumerate(stop.frames):
            item = {"id": index + 1, "name": frame.name, "line": 0, "column": 0}
            if frame.python is not None:
                item["name"] = f"{frame.name}()"
            else:
                item["presentationHint"] = "label"
            if frame.span is not None:
                item.update(line=frame.span.line + 1, column=frame.span.column + 1,
                            source={"name": os.path.basename(frame.span.file),
                                    "path": os.path.abspath(frame.span.file)})
            frames.append(item)
        start = arguments.get("startFrame") or 0
        levels = arguments.get("levels") or len(frames)
        return {"stackFrames": frames[start:start + levels], "totalFrames": len(frames)}

    def frame_index(self, stop: Stop, frame_id) -> int:
        if not isinstance(frame_id, int) or not 1 <= frame_id <= len(stop.frames):
            raise RequestError(f"there is no frame {frame_id!r}")
        return frame_id - 1

    def scopes(self, arguments: dict) -> dict:
        stop = self.stop()
        index = self.frame_index(stop, arguments["frameId"])
        session = self.need_session()
        found = []
        for group in scopes(session._scope(stop, index), stop.frames[index].python is not None):
            reference = self.handle(lambda nodes=group.nodes: nodes)
            found.append({"name": group.name, "variablesReference": reference, "expensive": False,
                          "presentationHint": "locals" if group.name == "Locals" else None})
        return {"scopes": found}

    def handle(self, children: Callable[[], list[Node]]) -> int:
        reference = len(self.handles) + 1
        self.handles[reference] = children
        return reference

    def variables(self, arguments: dict) -> dict:
        self.stop()
        children = self.handles.get(arguments["variablesReference"])
        if children is None:
            raise RequestError(f"there is no variablesReference {arguments['variablesReference']!r}")
        return {"variables": [self.variable(node) for node in children()]}

    def variable(self, node: Node) -> dict:
        item = {"name": node.name, "value": node.value, "type": node.type,
                "variablesReference": self.handle(node.children) if node.children else 0}
        if node.evaluate_name:
            item["evaluateName"] = node.evaluate_name
        return item

    def stepper(self, how: str) -> Callable[[dict], dict]:
        """The handler of continue, next, stepIn, stepOut, stepBack or reverseContinue."""

        def step(arguments: dict) -> dict:
            session = self.need_session()
            if arguments.get("threadId", THREAD_ID) != THREAD_ID:
                raise RequestError(f"there is no thread {arguments.get('threadId')!r}")
            if session.stop is None:
                raise RequestError("the game is not stopped")
            self.handles.clear()
            self.after = lambda: session.resume(how)  # once answered: the stop may come at once
            return {"allThreadsContinued": True} if how == "continue" else {}

        return step

    def pause(self, arguments: dict) -> None:
        self.need_session().pause()

    def evaluate(self, arguments: dict) -> dict:
        session = self.need_session()
        text = arguments["expression"]
        if not isinstance(text, str):
            raise RequestError("'expression' must be a string")
        if arguments.get("context") == "repl" and session.waiting_for_move:
            from gdef_core.runtime.moves import Move, MoveSyntaxError

            try:
                Move.parse(text)
            except MoveSyntaxError as error:
                raise RequestError(f"not a move: {error}") from None
            self.after = lambda: session.play_move(text)
            return {"result": f"played {text.strip()}", "variablesReference": 0}
        stop = session.stop
        if stop is None:
            raise RequestError("the game is running: expressions are evaluated where it is stopped")
        frame_id = arguments.get("frameId")
        index = self.frame_index(stop, frame_id) if frame_id is not None else 0
        try:
            value = session.evaluate(text, index)
        except EvaluationError as error:
            raise RequestError(str(error)) from None
        node = value_node(text, value, text) if isinstance(value, (list, tuple)) else None
        return {"result": node.value if node else show(value),
                "variablesReference": self.handle(node.children) if node else 0}

    def disconnect(self, arguments: dict) -> None:
        if self.session is not None:
            self.session.quit()
        self.running = False

    def terminate(self, arguments: dict) -> None:
        session = self.need_session()
        session.quit()
        self.event("terminated")

