"""`gdef-run --web` under attack, over real sockets to a real process: refused requests whose
bodies hold other requests, half-sent bodies, slow and idle connections, budgets no page may
ask for, framing, and the run's secret token (issue 32, items 1-4; the cross-site form post
in a real browser is tests/test_web_cross_site.py)."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import threading
import time

import pytest

from gdef_core.web.server import CLIENT_SECONDS, MAX_CONNECTIONS
from web_support import TICTACTOE, WebRun




def smuggled(run: WebRun, move: str) -> bytes:
    """A whole request that plays `move`, token included, to be hidden in another's body."""
    body = json.dumps({"move": move}).encode()
    return (f"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{run.port}\r\nX-Gdef-Token: {run.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


def exchange(run: WebRun, data: bytes) -> bytes:
    """Sends `data` on one connection and reads until the server closes it (at most 30 s)."""
    with socket.create_connection(("127.0.0.1", run.port), timeout=30) as raw:
        raw.sendall(data)
        return b"".join(iter(lambda: raw.recv(65536), b""))


def head(run: WebRun, path: str, body: bytes, **headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{run.port}", f"X-Gdef-Token: {run.token}",
             *(f"{name.replace('_', '-')}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@pytest.mark.parametrize("refusal, status", [
    ({"Origin": "http://attacker.example", "Content_Type": "text/plain"}, b"403"),
    ({"Content_Type": "text/plain"}, b"415"),
    ({"Content_Type": "application/json", "Sec_Fetch_Site": "cross-site"}, b"403"),
])
def test_a_refused_post_never_runs_the_request_in_its_body(web, refusal, status) -> None:
    run = web(TICTACTOE)
    inner = smuggled(run, "place(1,1,X)")
    reply = exchange(run, head(run, "/api/move", inner, Content_Length=str(len(inner)), **refusal))
    assert reply.startswith(b"HTTP/1.1 " + status) and reply.count(b"HTTP/1.1 ") == 1
    assert b"Connection: close" in reply
    assert run.get("/api/state")[1]["moves"] == []


def test_a_body_too_large_to_read_closes_the_connection_unread(web) -> None:
    run = web(TICTACTOE)
    inner = smuggled(run, "place(1,1,X)")
    reply = exchange(run, head(run, "/api/move", inner, Content_Type="application/json",
                               Content_Length=str(10 ** 9)))
    assert reply.startswith(b"HTTP/1.1 413") and reply.count(b"HTTP/1.1 ") == 1
    assert reply.endswith(b'{"error": "the request body is larger than 16 MB"}')
    assert run.get("/api/state")[1]["moves"] == []


@pytest.mark.parametrize("headers, status", [
    ({"Transfer-Encoding": "chunked"}, b"411"),
    ({"Content-Length": "5, 5"}, b"400"),
    ({"Content-Length": "9" * 5000}, b"413"),
])
def test_bodies_of_unclear_length_are_refused_and_the_connection_closed(web, headers, status) -> None:
    run = web(TICTACTOE)
    inner = smuggled(run, "place(1,1,X)")
    reply = exchange(run, head(run, "/api/move", inner, Content_Type="application/json", **headers))
    assert reply.startswith(b"HTTP/1.1 " + status) and reply.count(b"HTTP/1.1 ") == 1
    assert run.get("/api/state")[1]["moves"] == []


def test_a_half_sent_body_freezes_nothing_and_times_out(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    run.post("/api/move", {"move": "place(0,0,X)"})
    slow = socket.create_connection(("127.0.0.1", run.port), timeout=CLIENT_SECONDS * 6)
    slow.sendall(head(run, "/api/move", b'{"move": "pla', Content_Type="application/json", Content_Length="100"))
    # the other requests are answered meanwhile, the page included
    status, page, _ = run.request("GET", "/")
    assert status == 200 and "<!doctype html>" in page
    assert run.get("/api/state")[1]["moveNumber"] == 1
    assert run.post("/api/move", {"move": "place(1,1,O)"})[1]["accepted"] is True
    # the slow client is told, and let go, once its time is up
    reply = b"".join(iter(lambda: slow.recv(65536), b""))
    slow.close()
    assert reply.startswith(b"HTTP/1.1 408")
    assert reply.endswith(f'{{"error": "the request body did not arrive within {CLIENT_SECONDS:g} s"}}'.encode())


def test_sigterm_stops_and_saves_while_a_body_is_half_sent(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    run.post("/api/move", {"move": "place(0,0,X)"})
    with socket.create_connection(("127.0.0.1", run.port), timeout=30) as slow:
        slow.sendall(head(run, "/api/move", b'{"mo', Content_Type="application/json", Content_Length="100"))
        time.sleep(1)  # the server is reading that body by now
        run.process.send_signal(signal.SIGTERM)
        code = run.process.wait(timeout=30)
    assert code == 3
    assert "Stopped (stopped by SIGTERM) before the game ended, after 1 move(s)." in run.process.stderr.read()
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(0,0,X)", "name": "0,0"}]


def test_budgets_from_the_page_are_capped(web) -> None:
    run = web(TICTACTOE)
    for agent, option in (("mcts:time=1000000000", "time=60"), ("mcts:iterations=1000000000", "iterations=100000"),
                          ("mcts:cap=99999999", "cap=10000")):
        status, answer = run.post("/api/agent", {"player": 0, "agent": agent})
        assert (status, answer) == (400, {"error": f"agent '{agent}': the page may ask for at most {option}; give a "
                                                   "bigger budget on the command line (gdef-run --player 0=...)"})
    assert run.get("/api/state")[1]["agents"] == ["human", "human"]
    assert run.post("/api/agent", {"player": 0, "agent": "mcts:time=60"})[0] == 200


def test_the_server_answers_while_the_computer_thinks_and_sigterm_stops_it(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    run.post("/api/move", {"move": "place(0,0,X)"})
    assert run.post("/api/agent", {"player": 1, "agent": "mcts:time=60"})[0] == 200
    thinking = threading.Thread(target=lambda: _ignore_errors(run.post, "/api/computer"), daemon=True)
    thinking.start()
    for _ in range(300):  # until the computer is thinking (bounded)
        status, answer = run.get("/api/legal")
        if status == 409:
            break
        time.sleep(0.1)
    assert (status, answer) == (409, {"error": "player 1 (mcts:time=60.0) is choosing its move: ask again once it "
                                               "has moved"})
    state = run.get("/api/state")
    assert state[0] == 200 and state[1]["moveNumber"] == 1 and state[1]["computerToMove"] is True
    assert run.request("GET", "/")[0] == 200
    run.process.send_signal(signal.SIGTERM)
    assert run.process.wait(timeout=40) == 3  # long before the 60 s of thinking
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(0,0,X)", "name": "0,0"}]


def _think(run) -> tuple[threading.Thread, list]:
    """POST /api/computer in a thread; returns it and the list its answer goes to, once the
    computer is thinking (bounded wait)."""
    answers: list = []
    thinking = threading.Thread(target=lambda: answers.append(run.post("/api/computer")), daemon=True)
    thinking.start()
    for _ in range(300):
        if run.get("/api/legal")[0] == 409:
            return thinking, answers
        time.sleep(0.1)
    raise AssertionError("the computer never started thinking")


def test_move_now_and_undo_reach_a_thinking_computer(web) -> None:
    """POST /api/move-now makes mcts (ten minutes a move) play at once; POST /api/undo while it
    thinks stops it without a move and takes back the person's move."""
    run = web(TICTACTOE, "--player", "1=mcts:time=600")
    assert run.post("/api/move-now") == (200, {"stopped": False, "reason": "no computer player is thinking"})
    run.post("/api/move", {"move": "place(0,0,X)"})
    thinking, answers = _think(run)
    assert run.post("/api/move-now") == (200, {"stopped": True, "thinking": "player 1 (mcts:time=600.0)"})
    thinking.join(timeout=30)
    ((status, answer),) = answers
    assert status == 200 and answer["accepted"] is True and answer["player"] == 1
    assert [m["player"] for m in run.get("/api/state")[1]["moves"]] == [0, 1]
    run.post("/api/move", {"move": "place(2,2,X)" if answer["move"] != "place(2,2,O)" else "place(0,2,X)"})
    thinking, answers = _think(run)
    assert run.post("/api/undo") == (200, {"undone": True, "stoppedThinking": True})
    thinking.join(timeout=30)
    ((status, answer),) = answers
    assert (status, answer["accepted"], answer["kind"]) == (200, False, "abandoned")
    assert [m["player"] for m in run.get("/api/state")[1]["moves"]] == [0, 1]


def _ignore_errors(call, *args) -> None:
    try:
        call(*args)
    except (OSError, http.client.HTTPException, ValueError):
        pass  # the server stopped while the computer thought


def test_no_site_may_frame_the_page(web) -> None:
    run = web(TICTACTOE)
    for path in ("/", "/api/state", "/api/nothing"):
        headers = run.request("GET", path)[2]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"


def test_the_api_needs_the_runs_token(web) -> None:
    run = web(TICTACTOE)
    assert run.url == f"http://127.0.0.1:{run.port}/?token={run.token}"
    refusal = (f"the API needs this run's token: open the address gdef-run printed (http://127.0.0.1:{run.port}"
               "/?token=...), or send the token in the X-Gdef-Token header")
    for token in (None, "", run.token[:-1], run.token + "x", "é"):
        assert run.request("GET", "/api/state", headers={"X-Gdef-Token": token})[:2] == (403, {"error": refusal})
        status, answer, _ = run.request("POST", "/api/move", {"move": "place(1,1,X)"}, headers={"X-Gdef-Token": token})
        assert (status, answer) == (403, {"error": refusal})
    assert run.request("GET", "/", headers={"X-Gdef-Token": None})[0] == 200  # the page itself holds no secret
    assert run.get("/api/state")[1]["moves"] == []
    other = web(TICTACTOE)
    assert other.token != run.token  # one secret per run
    assert run.request("GET", "/api/state", headers={"X-Gdef-Token": other.token})[0] == 403


def test_connections_are_bounded(web) -> None:
    run = web(TICTACTOE)
    idle = [socket.create_connection(("127.0.0.1", run.port), timeout=30) for _ in range(MAX_CONNECTIONS + 30)]
    try:
        time.sleep(1)  # lets the server accept what it will
        threads = len(os.listdir(f"/proc/{run.process.pid}/task"))
        assert threads <= MAX_CONNECTIONS + 5
    finally:
        for connection in idle:
            connection.close()
    assert run.get("/api/state")[0] == 200
