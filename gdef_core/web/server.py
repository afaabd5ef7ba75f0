"""`gdef-run --web`: the board page and its JSON API over HTTP, on 127.0.0.1 only.

The standard library's ThreadingHTTPServer is enough for one person's browser: no dependency,
nothing to configure. What keeps other pages and machines out:
- the socket is bound to 127.0.0.1, never to all interfaces;
- the Host header must name this server (127.0.0.1:PORT or localhost:PORT): a web page that
  rebinds its own domain name to 127.0.0.1 (DNS rebinding) is refused;
- a POST must be JSON (a cross-site form or a "simple" fetch cannot send that without a CORS
  preflight, which is never granted) and, when the browser says where it comes from (Origin),
  come from this server's own page;
- only the game given on the command line is served: a request naming another game file gets
  403, and static files come from a fixed list inside the package.
Every answer of the API is JSON, errors included (`{"error": "..."}`), never a traceback.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from gdef_core.web.board import ApiError, Board

HOST = "127.0.0.1"
MAX_BODY = 16 * 1024 * 1024  # a move script or record sent by the page
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
EXIT_USAGE = 2


class WebServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False  # never share a port with another server

    def __init__(self, board: Board, port: int = 0) -> None:
        super().__init__((HOST, port), Handler)
        self.board = board
        self.hosts = {f"{HOST}:{self.server_port}", f"localhost:{self.server_port}"}
        self.served = {os.path.realpath(path) for path in board.session.files}

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_port}/"

    def handle_error(self, request, client_address) -> None:
        """A browser that leaves mid-answer is normal; anything else is one line, no traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"gdef-run: internal error while answering a request: {type(error).__name__}: {error}\n")


class Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"

    # ------------------------------------------------------------ routing

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _get(self, path: str, query: dict) -> object:
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
        return routes[path]()

    def _post(self, path: str, query: dict) -> object:
        board = self.server.board
        body = self._json_body()
        self._check_file(body.get("file"))
        routes = {
            "/api/move": lambda: board.move(_text(body, "move")),
            "/api/computer": board.computer,
            "/api/undo": board.undo,
            "/api/new": board.new_game,
            "/api/agent": lambda: board.set_agent(body.get("player"), _text(body, "agent")),
            "/api/script": lambda: board.load_script(_text(body, "text", 10 ** 9), body.get("name") or "moves"),
            "/api/step": lambda: board.step(body.get("to")),
            "/api/script/close": board.close_script,
            "/api/save": board.save,
        }
        if path not in routes:
            raise ApiError(404, f"no such request: POST {path}")
        return routes[path]()

    # ------------------------------------------------------------ checks

    def _answer(self, route) -> None:
        try:
            self._check_host()
            parts = urlsplit(self.path)
            query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
            self._check_file(query.get("file"))
            if self.command == "POST":
                self._check_origin()
            with self.server.board.lock:
                result = route(parts.path, query)
        except ApiError as error:
            self._send_json(error.status, {"error": error.message})
            return
        except Exception as error:  # noqa: BLE001 - the promise is: JSON, never a traceback
            sys.stderr.write(f"gdef-run: internal error on {self.command} {self.path}: "
                             f"{type(error).__name__}: {error}\n")
            self._send_json(500, {"error": f"internal error: {type(error).__name__}: {error} "
                                           "(a bug in gdef, not in your game)"})
            return
        if isinstance(result, _Static):
            self._send_static(result.name)
        else:
            self._send_json(200, result)

    def _check_host(self) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.server.hosts:
            raise ApiError(403, f"this server answers only to http://{HOST}:{self.server.server_port}/ "
                                f"(the request was for host '{host[:100]}')")

    def _check_origin(self) -> None:
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower().removeprefix("http://") not in self.server.hosts:
            raise ApiError(403, f"requests from '{origin[:100]}' are refused: only this server's own page may "
                                "change the game")

    def _check_file(self, file) -> None:
        """A request may name the game file it expects; any other than the one served is refused."""
        if file is None:
            return
        if not isinstance(file, str) or os.path.realpath(file) not in self.server.served:
            served = ", ".join(self.server.board.session.files)
            raise ApiError(403, f"this server plays {served} only; start another gdef-run --web for {file!s:.200}")

    def _json_body(self) -> dict:
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise ApiError(400, "Content-Length is not a number") from None
        if length > MAX_BODY:
            raise ApiError(413, f"the request body is larger than {MAX_BODY // (1024 * 1024)} MB")
        raw = self.rfile.read(length) if length > 0 else b"{}"
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise ApiError(400, f"the request body is not JSON: {error}") from None
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return body

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
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:")
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
    from gdef_core.web.board import LEGAL_LIMIT

    if text is None:
        return LEGAL_LIMIT
    try:
        return max(0, min(int(text), LEGAL_LIMIT))
    except ValueError:
        raise ApiError(400, f"limit: '{text[:40]}' is not a whole number") from None


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
    with board.lock:  # a move being played finishes first
        if play.session.state.is_over:
            return play.finish()
        return play.stop(why)


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
        board.load_script(text, "<stdin>" if path == "-" else os.path.basename(path))
    except OSError as error:
        play.complain(f"gdef-run: error: {path}: cannot read the moves: {error.strerror or error}")
        return False
    except ApiError as error:
        play.complain(f"gdef-run: error: {error.message}")
        return False
    return True
