"""`gdef-run --web`: the board page and its JSON API over HTTP, on 127.0.0.1 only.

The standard library's ThreadingHTTPServer is enough for one person's browser: no dependency,
nothing to configure. What keeps other pages, machines and local programs out:
- the socket is bound to 127.0.0.1, never to all interfaces;
- the Host header must name this server (127.0.0.1:PORT or localhost:PORT): a web page that
  rebinds its own domain name to 127.0.0.1 (DNS rebinding) is refused;
- the API takes a secret token drawn for each run, which only the address printed (and opened)
  carries, as Jupyter does: a page or a local program that was not given it can do nothing;
- a POST must be JSON (a cross-site form or a "simple" fetch cannot send that without a CORS
  preflight, which is never granted) and, when the browser says where it comes from (Origin,
  Sec-Fetch-Site), come from this server's own page; no other site may frame the page;
- every request's body is read in full before the request is judged, and every refusal closes
  the connection, so no byte of a refused request is ever taken for a request of its own;
- only the game given on the command line is served: a request naming another game file gets
  403, and static files come from a fixed list inside the package.
What keeps it answering: at most MAX_CONNECTIONS connections are served at once (more wait to
be accepted), a request must arrive in full within CLIENT_SECONDS, bodies are read before the
board's lock is taken, and while a computer player thinks other requests are answered (409, or
the position from before) instead of waiting, but for *Move now* (answered at once) and *Undo*
(which stops the search, waits for it and takes back). Every answer of the API is JSON, errors included
(`{"error": "..."}`), never a traceback. docs/web.md.
"""
from __future__ import annotations

import hmac
import io
import json
import os
import secrets
import sys
import threading
import time
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from gdef_core.web.board import LEGAL_LIMIT, ApiError, Board
from gdef_core import json_input

HOST = "127.0.0.1"
MAX_BODY = 16 * 1024 * 1024  # a move script or record sent by the page
MAX_CONNECTIONS = 32  # served at once; a browser opens at most 6 to one server
CLIENT_SECONDS = 10.0  # for a whole request (line, headers, body) once a connection is idle, and for an answer
LOCK_SECONDS = 30.0  # how long a request waits for the one before it
STATE_POLL_SECONDS = 0.05  # a state asked while the lock is taken: look for a thinking computer this often
STOP_SECONDS = 10.0  # how long stopping waits for a request being answered before saving anyway
TOKEN_HEADER = "X-Gdef-Token"
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
EXIT_USAGE = 2


class WebServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # stopping never waits for a slow client
    allow_reuse_address = False  # never share a port with another server
    request_queue_size = 64

    def __init__(self, board: Board, port: int = 0) -> None:
        super().__init__((HOST, port), Handler)
        self.board = board
        self.token = secrets.token_urlsafe(32)
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.open: set = set()  # the connections accepted and not yet closed
        self.open_lock = threading.Lock()
        self.hosts = {f"{HOST}:{self.server_port}", f"localhost:{self.server_port}"}
        self.served = {os.path.realpath(path) for path in board.session.files}

    @property
    def url(self) -> str:
        """The page's address, with the run's token: only who is given it can use the API."""
        return f"http://{HOST}:{self.server_port}/?token={self.token}"

    def get_request(self):
        """A connection is accepted only when a handler is free: the others wait in the
        listening queue (a slow one frees its handler within CLIENT_SECONDS)."""
        self.slots.acquire()
        try:
            request, address = super().get_request()
        except BaseException:
            self.slots.release()
            raise
        with self.open_lock:
            self.open.add(request)
        return request, address

    def shutdown_request(self, request) -> None:
        """Where every accepted connection ends (twice when Ctrl-C comes as a handler starts):
        its handler is free again."""
        try:
            super().shutdown_request(request)
        finally:
            with self.open_lock:
                ended = request in self.open
                self.open.discard(request)
            if ended:
                self.slots.release()

    def handle_error(self, request, client_address) -> None:
        """A browser that leaves mid-answer is normal; anything else is one line, no traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"gdef-run: internal error while answering a request: {type(error).__name__}: {error}\n")


class _DeadlineReader(io.RawIOBase):
    """The connection's bytes, until the handler's deadline: a client sending a byte now and
    then cannot keep a handler busy for longer than CLIENT_SECONDS per request."""

    def __init__(self, handler: "Handler") -> None:
        super().__init__()
        self.handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.handler.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the request did not arrive within {CLIENT_SECONDS:g} s")
        self.handler.connection.settimeout(left)
        return self.handler.connection.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"
    deadline = 0.0

    def setup(self) -> None:
        super().setup()
        self.rfile.close()
        self.rfile = io.BufferedReader(_DeadlineReader(self), 64 * 1024)

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + CLIENT_SECONDS
        super().handle_one_request()

    # ------------------------------------------------------------ routing

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _get(self, path: str, query: dict, body: dict) -> object:
        board = self.server.board
        if path in ("/", "/index.html"):
            return _Static("index.html")
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            if name not in STATIC:
                raise ApiError(404, f"no such file: {path}")
            return _Static(name)
        if path == "/favicon.ico":
            return _Static(None)
        routes = {
            "/api/game": board.info,
            "/api/state": board.state,
            "/api/record": board.record,
            "/api/legal": lambda: board.legal(_squares(query.get("touching", "")), _limit(query.get("limit"))),
            "/api/check": lambda: board.check(_required(query, "move")),
        }
        if path not in routes:
            raise ApiError(404, f"no such page: {path}")
        if path == "/api/game":
            return board.info()  # what does not change: no need to wait for a move
        if path == "/api/state":
            return self._state()
        return self._locked(routes[path])

    def _state(self) -> object:
        """The position, or while a computer player thinks the position it thinks about. Its
        request takes the lock a moment before it says it thinks: a state asked meanwhile waits
        for either, never for the whole search."""
        board = self.server.board
        deadline = time.monotonic() + LOCK_SECONDS
        while not board.stopping.is_set():
            snapshot = board.thinking_state
            if snapshot is not None:
                return snapshot
            if board.lock.acquire(timeout=STATE_POLL_SECONDS):
                try:
                    return board.state()
                finally:
                    board.lock.release()
            if time.monotonic() > deadline:
                raise ApiError(503, f"another request has taken more than {LOCK_SECONDS:g} s: ask again later")
        raise ApiError(503, "the server is stopping")

    def _post(self, path: str, query: dict, body: dict) -> object:
        board = self.server.board
        routes = {
            "/api/move": lambda: board.move(_text(body, "move")),
            "/api/computer": board.computer,
            "/api/roll": board.roll,
            "/api/undo": board.undo,
            "/api/new": lambda: board.new_game(body.get("params")),
            "/api/agent": lambda: board.set_agent(body.get("player"), _text(body, "agent")),
            "/api/script": lambda: board.load_script(_text(body, "text", MAX_BODY), body.get("name") or "moves"),
            "/api/step": lambda: board.step(body.get("to")),
            "/api/script/close": board.close_script,
            "/api/save": board.save,
            "/api/debug": lambda: board.debug_launch(_text(body, "move")),
        }
        if path == "/api/move-now":
            return board.move_now()  # without the lock: the thinking request holds it
        if path not in routes:
            raise ApiError(404, f"no such request: POST {path}")
        if path == "/api/undo" and board.abandon_thinking():
            return {**self._locked(board.undo, after_thinking=True), "stoppedThinking": True}
        return self._locked(routes[path])

    def _locked(self, work, after_thinking: bool = False) -> object:
        """Requests that read or change the game take turns; none waits for a thinking computer
        but one that has told it to stop (`after_thinking`)."""
        board = self.server.board
        if board.stopping.is_set():
            raise ApiError(503, "the server is stopping")
        if board.thinking is not None and not after_thinking:
            raise ApiError(409, f"{board.thinking} is choosing its move: ask again once it has moved")
        if not board.lock.acquire(timeout=LOCK_SECONDS):
            raise ApiError(503, f"another request has taken more than {LOCK_SECONDS:g} s: ask again later")
        try:
            return work()
        finally:
            board.lock.release()

    # ------------------------------------------------------------ checks

    def _answer(self, route) -> None:
        try:
            raw = self._read_body()
            self._check_host()
            parts = urlsplit(self.path)
            query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
            if parts.path.startswith("/api/"):
                self._check_site()
                self._check_token()
            self._check_file(query.get("file"))
            body: dict = {}
            if self.command == "POST":
                self._check_origin()
                body = _json_object(self.headers.get("Content-Type"), raw)
                self._check_file(body.get("file"))
            result = route(parts.path, query, body)
        except ApiError as error:
            self._send_json(error.status, {"error": error.message})
            return
        except Exception as error:  # noqa: BLE001 - the promise is: JSON, never a traceback
            sys.stderr.write(f"gdef-run: internal error on {self.command} {self.path[:200]}: "
                             f"{type(error).__name__}: {error}\n")
            self._send_json(500, {"error": f"internal error: {type(error).__name__}: {error} "
                                           "(a bug in gdef, not in your game)"})
            return
        if isinstance(result, _Static):
            self._send_static(result.name)
        else:
            self._send_json(200, result)

    def _read_body(self) -> bytes:
        """The whole body, read before anything is judged, so that none of it is left to be
        taken for the next request; a body that cannot be read so is refused and the
        connection closed (every refusal closes it: _send)."""
        if self.headers.get("Transfer-Encoding") is not None:
            raise ApiError(411, "send the body with a Content-Length (chunked bodies are not read)")
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            return b""
        text = lengths[0].strip()
        if len(lengths) > 1 or not (text.isascii() and text.isdigit()):
            raise ApiError(400, "give one Content-Length, a whole number of bytes")
        if len(text) > 12 or int(text) > MAX_BODY:
            raise ApiError(413, f"the request body is larger than {MAX_BODY // (1024 * 1024)} MB")
        length = int(text)
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise ApiError(408, f"the request body did not arrive within {CLIENT_SECONDS:g} s") from None
        if len(raw) < length:
            raise ApiError(400, f"the request body ended after {len(raw):,} of the {length:,} bytes its "
                                "Content-Length announced")
        return raw

    def _check_host(self) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.server.hosts:
            raise ApiError(403, f"this server answers only to http://{HOST}:{self.server.server_port}/ "
                                f"(the request was for host '{host[:100]}')")

    def _check_site(self) -> None:
        """Browsers say whether a request comes from another site; such requests are refused."""
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            raise ApiError(403, f"requests from other sites ({site[:40]}) are refused: only this server's "
                                "own page may use the game")

    def _check_token(self) -> None:
        given = (self.headers.get(TOKEN_HEADER) or "").encode("latin-1", "replace")
        if not hmac.compare_digest(given, self.server.token.encode("ascii")):
            raise ApiError(403, f"the API needs this run's token: open the address gdef-run printed "
                                f"(http://{HOST}:{self.server.server_port}/?token=...), or send the token "
                                f"in the {TOKEN_HEADER} header")

    def _check_origin(self) -> None:
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower().removeprefix("http://") not in self.server.hosts:
            raise ApiError(403, f"requests from '{origin[:100]}' are refused: only this server's own page may "
                                "change the game")

    def _check_file(self, file) -> None:
        """A request may name the game file it expects; any other than the one served is refused."""
        if file is None:
            return
        if not isinstance(file, str) or "\0" in file or os.path.realpath(file) not in self.server.served:
            served = ", ".join(self.server.board.session.files)
            raise ApiError(403, f"this server plays {served} only; start another gdef-run --web for {file!s:.200}")

    # ------------------------------------------------------------ answers

    def _send_json(self, status: int, data) -> None:
        payload = json.dumps(data, allow_nan=False).encode("utf-8")
        self._send(status, "application/json; charset=utf-8", payload)

    def _send_static(self, name: str | None) -> None:
        if name is None:
            self._send(204, None, b"")
            return
        payload = resources.files("gdef_core.web").joinpath("static", name).read_bytes()
        self._send(200, STATIC[name], payload)

    def _send(self, status: int, content_type: str | None, payload: bytes) -> None:
        """The answer, within CLIENT_SECONDS; a refusal (status 400 and above) closes the
        connection, so that the request refused cannot leave anything behind."""
        self.connection.settimeout(CLIENT_SECONDS)
        if status >= 400:
            self.close_connection = True
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors found before routing (a malformed request line, an unknown method) as JSON too."""
        self.close_connection = True
        try:
            self._send_json(code, {"error": message or self.responses.get(code, ("error",))[0]})
        except OSError:
            pass

    def version_string(self) -> str:
        return "gdef-run"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Quiet: the terminal shows the moves, not every request."""


class _Static:
    __slots__ = ("name",)

    def __init__(self, name: str | None) -> None:
        self.name = name


def _required(query: dict, key: str) -> str:
    if key not in query:
        raise ApiError(400, f"give '{key}' in the query string")
    return query[key]


def _text(body: dict, key: str, limit: int = 100_000) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise ApiError(400, f"'{key}' must be a string")
    if len(value) > limit:
        raise ApiError(413, f"'{key}' is longer than {limit:,} characters")
    return value


def _squares(text: str) -> list[tuple[int, int]]:
    """`1,2;3,4` -> [(1, 2), (3, 4)]."""
    squares = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        try:
            x, y = (int(v) for v in part.split(","))
        except ValueError:
            raise ApiError(400, f"touching: '{part[:40]}' is not a square 'x,y'") from None
        squares.append((x, y))
    return squares


def _limit(text: str | None) -> int:
    if text is None:
        return LEGAL_LIMIT
    try:
        return max(0, min(int(text), LEGAL_LIMIT))
    except ValueError:
        raise ApiError(400, f"limit: '{text[:40]}' is not a whole number") from None


def _json_object(content_type: str | None, raw: bytes) -> dict:
    """A POST's body: a JSON object (empty: {}), sent as application/json and nothing else."""
    if (content_type or "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    try:
        body = json_input.loads(raw.decode("utf-8") or "{}", parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ApiError(400, f"the request body is not JSON: {str(error)[:200]}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return body


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def serve(play, args, stdin) -> int:
    """Serve the game of `play` (a gdef_core.controller PlaySession) until Ctrl-C; then save
    the record as the terminal does (a finished game: `Player N wins.`, exit 0; an unfinished
    one: where to --resume, exit 3). `args`: gdef-run's options (--port, --no-browser, --moves,
    --y-down); `stdin` is read for `--moves -`."""
    board = Board(play, y_down=bool(args.y_down))
    if args.moves is not None and not _open_script(play, board, args.moves, stdin):
        return EXIT_USAGE
    if not 0 <= (args.port or 0) <= 65535:
        play.complain(f"gdef-run: error: --port {args.port}: a port is a number from 0 to 65535 (0: any free one)")
        return EXIT_USAGE
    try:
        server = WebServer(board, args.port or 0)
    except OSError as error:
        play.complain(f"gdef-run: error: cannot listen on {HOST}:{args.port or 0}: {error.strerror or error}")
        return EXIT_USAGE
    play.say(f"Serving {board.game.name} at {server.url} (Ctrl-C stops and saves the record)")
    if not args.no_browser:
        if _has_display():
            threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
        else:
            play.say("No graphical display here: open the address in a browser yourself.")
    try:
        server.serve_forever(poll_interval=0.2)
        why = "stopped"
    except KeyboardInterrupt as signal_:
        play.say()
        why = f"stopped by {signal_}" if str(signal_) else "interrupted"
    finally:
        server.server_close()
    board.stopping.set()  # a computer player thinking stops, no request starts
    locked = board.lock.acquire(timeout=STOP_SECONDS)  # a move being played finishes first
    if not locked:
        play.complain(f"gdef-run: a request has run for more than {STOP_SECONDS:g} s: "
                      "the record is saved without waiting for it")
    try:
        if play.session.state.is_over:
            return play.finish()
        return play.stop(why)
    finally:
        if locked:
            board.lock.release()


def _has_display() -> bool:
    """Whether a browser can show a window: without one (an SSH session), Python's webbrowser
    would start a text browser such as lynx inside the terminal the server prints to."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _open_script(play, board: Board, path: str, stdin) -> bool:
    """`--web --moves FILE`: the page opens with FILE ready to step through."""
    from gdef_core.files import read_text

    try:
        text = stdin.read() if path == "-" else read_text(path)
        board.load_script(text, "<stdin>" if path == "-" else os.path.basename(path),
                          os.curdir if path == "-" else os.path.dirname(path) or os.curdir)
    except OSError as error:
        play.complain(f"gdef-run: error: {path}: cannot read the moves: {error.strerror or error}")
        return False
    except ApiError as error:
        play.complain(f"gdef-run: error: {error.message}")
        return False
    return True
