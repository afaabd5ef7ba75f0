"""The reliability fuzzing campaign (scripts/fuzz.sh): hostile inputs to every entry point of
the core for a chosen time, counting inputs and failures by kind.

A failure is anything the promise forbids: an internal error (an exception other than the
documented, located ones), a hang (an input taking more than --hang seconds) or a memory
blow-up (more than --memory MB). Failing inputs are written to --out for replay.

The `web` and `protocol` targets speak to real processes (one `gdef-run --web` and one
`gdef-run --protocol`, started at the first such input and again after any death): hostile HTTP
requests over real sockets, hostile request lines over a pipe. There a failure is an answer 500
or an "internal error", no answer (or more than one to a protocol line), or the process dying.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gdef_core import parse  # noqa: E402
from gdef_core.loader import GdefFileError, load_program  # noqa: E402
from gdef_core.runtime.errors import GameLoadError, GdefRuntimeError  # noqa: E402
from gdef_core.runtime.game import IllegalMoveError, game_from_program  # noqa: E402
from gdef_core.runtime.moves import Move, MoveSyntaxError  # noqa: E402
from gdef_core.runtime.session import RecordError, load_record  # noqa: E402

EXAMPLES = {p: p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.gdef"))}
SNIPPETS = ["(", ")", "{", "}", "[", "]", ";", ",", "=", "==", "!", "-", "/*", "*/", "//", "define ",
            "int ", "float ", "obj ", "return ", "if ", "else ", "while ", "start ", "use \"", "x", "X",
            "empty", "0", "07", "9223372036854775808", "1.5", "\n", "\r", "\r\n", "\x00", "é", "\ud800",
            "CurrentPosition[", "OperationList[0][", "setWinner(", "addMove()", "addPlace(0, 0, X);",
            "hasLegalMove()", "9" * 5000, "(" * 400, "-" * 400, 'use "/dev/zero"\n',
            'use "/proc/self/environ"\n', 'use "a\x00.gdef"\n', 'use "\ud800.gdef"\n',
            "while (true) { }", "define f() -> int { return f(); }", "1.0 % 0.0", "1 / 0"]


class Hang(Exception):
    pass


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(text))
        kind = rng.random()
        if kind < 0.4:
            text = text[:at] + text[at + rng.randint(1, 12):]
        elif kind < 0.9:
            text = text[:at] + rng.choice(SNIPPETS) + text[at:]
        else:
            text = text[:at]
    return text


def rules_input(rng: random.Random, folder: str) -> None:
    path, text = rng.choice(list(EXAMPLES.items()))
    target = os.path.join(folder, path.name)
    program = load_program([target], overlay={target: mutate(rng, text)})
    try:
        game = game_from_program(program, max_steps=50_000, max_depth=100)
    except GameLoadError:
        return
    state = game.new_state()
    for _ in range(rng.randint(1, 20)):
        move = state.random_move(rng)
        if move is None:
            return
        state.apply(move)
        clone = state.from_json(game, json.loads(json.dumps(state.to_json(), allow_nan=False)))
        assert clone == state, "to_json/from_json does not round-trip"


def text_input(rng: random.Random, folder: str) -> None:
    text = "".join(rng.choice(SNIPPETS) if rng.random() < 0.3 else chr(rng.randint(0, 0x2FFF))
                   for _ in range(rng.randint(0, 200)))
    parse(text, "fuzz.gdef")


def move_input(rng: random.Random, folder: str) -> None:
    text = mutate(rng, rng.choice(["place(1,1,X)", "clear(0,0); place(3,3,W)", "pass"]))
    try:
        Move.parse(text)
    except MoveSyntaxError:
        pass


def record_input(rng: random.Random, folder: str) -> None:
    record = {"game": "tictactoe", "files": [str(ROOT / "examples" / "tictactoe.gdef")], "players": 2,
              "moves": [{"player": 0, "move": "place(1,1,X)"}], "rejected": []}
    text = mutate(rng, json.dumps(record))
    path = os.path.join(folder, "record.json")
    Path(path).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_record(path)
    except RecordError:
        pass


def path_input(rng: random.Random, folder: str) -> None:
    odd = rng.choice(["/dev/zero", "/dev/urandom", "/dev/null", folder, "a\x00b.gdef", "\ud800.gdef",
                      "/proc/self/environ", os.path.join(folder, "fifo.gdef")])
    if odd.endswith("fifo.gdef") and not os.path.exists(odd):
        os.mkfifo(odd)
    try:
        load_program([odd])
    except GdefFileError:
        pass


class Internal(Exception):
    """A served process broke its promise: an answer 500, an internal error, no answer, death."""


class Served:
    """One gdef-run process for the web or protocol target, started when first needed and
    again after it dies; its standard error is kept in a file to look for internal errors."""

    def __init__(self, *argv: str) -> None:
        self.argv = argv
        self.process: subprocess.Popen | None = None
        self.err_seen = 0

    def start(self, folder: str) -> tuple[subprocess.Popen, bool]:
        """The process, and whether it was started just now."""
        if self.process is not None and self.process.poll() is None:
            return self.process, False
        self.err_path = os.path.join(folder, f"served-{os.getpid()}-{time.monotonic_ns()}.err")
        self.err = open(self.err_path, "w+", encoding="utf-8", errors="replace")
        argv = [sys.executable, "-m", "gdef_core.cli.run", *(a.replace("{folder}", folder) for a in self.argv)]
        self.process = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                        stderr=self.err, env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.err_seen = 0
        return self.process, True

    def complaints(self) -> str:
        """What the process printed on standard error since the last look, if it says internal error."""
        self.err.seek(self.err_seen)
        text = self.err.read()
        self.err_seen = self.err.tell()
        return text if "internal error" in text or "Traceback" in text else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


WEB = Served("--web", "--no-browser", "examples/tictactoe.gdef", "--record", "{folder}/web-record.json", "--seed", "1")
PROTOCOL = Served("--protocol", "examples/tictactoe.gdef", "--seed", "1")
_web_address: dict = {}

API_GETS = ["/api/game", "/api/state", "/api/record", "/api/legal", "/api/legal?touching=1,1;0,0&limit=3",
            "/api/check?move=place(1,1,X)", "/", "/static/app.js", "/favicon.ico", "/api/nothing", "/static/../x"]
API_POSTS = {"/api/move": {"move": "place(1,1,X)"}, "/api/computer": {}, "/api/undo": {}, "/api/new": {},
             "/api/agent": {"player": 1, "agent": "random"}, "/api/step": {"to": 2}, "/api/script/close": {},
             "/api/save": {}, "/api/script": {"text": "place(0,0,X)\n? turn 1\nplace(2,2,O)\n", "name": "x.moves"}}
AGENTS = ["random", "greedy", "human", "mcts:iterations=20", "mcts:time=1000000000", "cmd:ls", "clever", ""]


def web_input(rng: random.Random, folder: str) -> None:
    process, new = WEB.start(folder)
    if new:
        line = process.stdout.readline().decode("utf-8", "replace")
        found = [part for part in line.split() if part.startswith("http://127.0.0.1:")]
        if not found:
            raise Internal(f"gdef-run --web did not start: {line!r} {WEB.complaints()}")
        port, _, token = found[0].removeprefix("http://127.0.0.1:").partition("/?token=")
        _web_address[process.pid] = (int(port), token)
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    port, token = _web_address[process.pid]
    request = _web_request(rng, port, token)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request)
        connection.shutdown(socket.SHUT_WR)
        reply = b"".join(iter(lambda: connection.recv(65536), b""))
    complaints = WEB.complaints()
    if complaints or process.poll() is not None:
        raise Internal(f"gdef-run --web: {complaints or f'exited with {process.returncode}'}\nrequest: {request[:2000]!r}")
    if not reply:
        raise Internal(f"no answer to {request[:2000]!r}")
    if reply.startswith(b"HTTP/1.1 500") or b"internal error" in reply:
        raise Internal(f"answer {reply[:500]!r}\nrequest: {request[:2000]!r}")


def _web_request(rng: random.Random, port: int, token: str) -> bytes:
    if rng.random() < 0.5:
        method, path, body = "GET", rng.choice(API_GETS), b""
    else:
        path = rng.choice(list(API_POSTS))
        data = dict(API_POSTS[path])
        if path == "/api/agent":
            data["agent"] = rng.choice(AGENTS)
        elif path == "/api/script" and rng.random() < 0.5:
            data["text"] = mutate(rng, json.dumps({"game": "tictactoe", "files": ["examples/tictactoe.gdef"],
                                                   "players": 2, "rejected": [],
                                                   "moves": [{"player": 0, "move": "place(1,1,X)"}]}))
        text = json.dumps(data)
        method, body = "POST", mutate(rng, text).encode("utf-8", "surrogatepass") if rng.random() < 0.5 else text.encode()
    if rng.random() < 0.2:
        path = mutate(rng, path)
    if rng.random() < 0.05:
        method = rng.choice(["PUT", "HEAD", "DELETE", "", "G\x00T", "POST /x HTTP/1.1\r\n"])
    headers = {"Host": f"127.0.0.1:{port}", "X-Gdef-Token": token, "Content-Type": "application/json",
               "Content-Length": str(len(body))}
    for name, odd in (("Host", "attacker.example"), ("X-Gdef-Token", token[:-1]), ("Content-Type", "text/plain"),
                      ("Content-Length", rng.choice(["-1", "abc", str(len(body) + 3), "9" * 40, "1, 1"])),
                      ("Origin", "http://attacker.example"), ("Sec-Fetch-Site", "cross-site"),
                      ("Transfer-Encoding", "chunked"), ("Expect", "100-continue")):
        if rng.random() < 0.05:
            headers[name] = odd
    if rng.random() < 0.1:
        headers.pop(rng.choice(list(headers)))
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return head.encode("utf-8", "surrogatepass") + body


PROTOCOL_REQUESTS = [{"cmd": "state"}, {"cmd": "legal"}, {"cmd": "play", "move": "place(1,1,X)"},
                     {"cmd": "play", "move": "place(0,0,O)"}, {"cmd": "undo"}, {"cmd": "new"}, {"cmd": "go"},
                     {"cmd": "result"}, {"cmd": "help"}, {"cmd": "set", "state": {
                         "game": "tictactoe", "width": 3, "height": 3, "player": 1, "move_number": 1, "over": False,
                         "winner": None, "vars": {}, "board": [[1, 1, "X"]], "scores": [0, 0]}},
                     {"cmd": "go", "state": {"board": [], "player": 0}}]
PROTOCOL_IDS = [None, 1, "a", -2.5, [1], {"x": 1}, True]


def protocol_input(rng: random.Random, folder: str) -> None:
    process, new = PROTOCOL.start(folder)
    if new and b'"protocol"' not in process.stdout.readline():
        raise Internal(f"gdef-run --protocol did not start: {PROTOCOL.complaints()}")
    try:
        _protocol_line(rng, process)
    except (Hang, Internal):
        PROTOCOL.stop()  # an answer may still come: the next input starts on a new engine
        raise


def _protocol_line(rng: random.Random, process) -> None:
    request = dict(rng.choice(PROTOCOL_REQUESTS))
    request_id = rng.choice(PROTOCOL_IDS)
    if request_id is not None:
        request["id"] = request_id
    line = json.dumps(request)
    if rng.random() < 0.7:
        line = mutate(rng, line)
    line = line.replace("\n", " ").replace("\r", " ")
    if not line.strip():
        return
    try:
        process.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        process.stdin.flush()
    except BrokenPipeError:
        raise Internal(f"gdef-run --protocol stopped ({PROTOCOL.complaints()}) before {line[:2000]!r}") from None
    answers = _protocol_answers(process)
    complaints = PROTOCOL.complaints()
    if complaints:
        raise Internal(f"gdef-run --protocol: {complaints}\nline: {line[:2000]!r}")
    if len(answers) != 1:
        raise Internal(f"{len(answers)} answers to {line[:2000]!r}: {answers[:3]!r}")
    answer = json.loads(answers[0])
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        raise Internal(f"answer {answers[0][:500]!r} to {line[:2000]!r}")
    if answer["ok"] is False and answer["error"]["kind"] == "internal error":
        raise Internal(f"answer {answers[0][:500]!r} to {line[:2000]!r}")
    if process.poll() not in (None, 0):
        raise Internal(f"gdef-run --protocol exited with {process.returncode} after {line[:2000]!r}")


def _protocol_answers(process) -> list[bytes]:
    """The lines gdef-run --protocol printed: the first waited for, then any others for 0.05 s."""
    answers = []
    wait = 30.0
    while True:
        ready, _, _ = select.select([process.stdout], [], [], wait)
        if not ready:
            return answers
        line = process.stdout.readline()
        if not line:
            return answers
        answers.append(line)
        wait = 0.05


GENERATORS = {"rules": rules_input, "text": text_input, "moves": move_input, "records": record_input,
              "paths": path_input, "web": web_input, "protocol": protocol_input}
EXPECTED = (GdefRuntimeError, IllegalMoveError)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang", type=float, default=10.0, help="seconds before an input counts as a hang")
    parser.add_argument("--memory", type=int, default=2048, help="MB of address space allowed")
    parser.add_argument("--out", default="fuzz-failures", help="folder for failing inputs")
    parser.add_argument("--targets", default=",".join(GENERATORS),
                        help=f"comma-separated, of {', '.join(GENERATORS)} (default: all)")
    args = parser.parse_args()
    targets = [name.strip() for name in args.targets.split(",") if name.strip()]
    if not targets or any(name not in GENERATORS for name in targets):
        parser.error(f"--targets {args.targets}: choose among {', '.join(GENERATORS)}")
    limit = args.memory * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def alarm(signum, frame):
        raise Hang()

    signal.signal(signal.SIGALRM, alarm)
    rng = random.Random(args.seed)
    tried: collections.Counter = collections.Counter()
    failures: collections.Counter = collections.Counter()
    end = time.monotonic() + args.minutes * 60
    with tempfile.TemporaryDirectory() as folder:
        while time.monotonic() < end:
            name = rng.choice(targets)
            state = rng.getstate()
            tried[name] += 1
            signal.setitimer(signal.ITIMER_REAL, args.hang)
            kind = None
            try:
                GENERATORS[name](rng, folder)
            except EXPECTED:
                pass
            except Hang:
                kind = "hang"
            except MemoryError:
                kind = "memory"
            except RecursionError:
                kind = "internal error (RecursionError)"
            except Exception as error:  # noqa: BLE001 - counting what breaks the promise
                kind = f"internal error ({type(error).__name__})"
                detail = traceback.format_exc()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if kind is not None:
                failures[kind] += 1
                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, f"{name}-{sum(tried.values())}.txt"), "w") as out:
                    out.write(f"{kind}\ngenerator {name}, random state {state!r}\n")
                    if kind.startswith("internal"):
                        out.write(detail)
    WEB.stop()
    PROTOCOL.stop()
    print(f"inputs tried: {sum(tried.values()):,} in {args.minutes:g} min "
          f"({', '.join(f'{k} {v:,}' for k, v in sorted(tried.items()))})")
    if not failures:
        print("failures: none (no internal errors, hangs or memory blow-ups)")
        return 0
    print("failures by kind:")
    for kind, count in failures.most_common():
        print(f"  {kind}: {count:,}")
    print(f"failing inputs are described in {args.out}/")
    return 1


if __name__ == "__main__":
    sys.exit(main())
