"""The JSON API of `gdef-run --web`, over real HTTP to a real process: positions, moves and why
they are refused, computer players, undo, scripts and records, saving on Ctrl-C, and what keeps
other pages and machines out (loopback only, Host and Origin checks, the one game served)."""
from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess

import pytest

from gdef_core.cli.run import run as run_gdef
from web_support import BOOM, EXAMPLES, GDEF_RUN, ROOT, TICTACTOE
from support import ctrl_c_as_at_a_terminal

WIN_FOR_X = ["place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)", "place(2,0,X)"]
# A mark on a taken square: refused by this line of examples/tictactoe.gdef.
TAKEN_RULE = {"file": TICTACTOE, "line": 53, "column": 3, "comment": "a mark goes on an empty square",
              "code": "return CurrentPosition[x][y] == empty;",
              "text": "tictactoe.gdef:53: a mark goes on an empty square (return CurrentPosition[x][y] == empty;)"}
REJECTED = {"kind": "rejected", "reason": f"refused by {TAKEN_RULE['text']}", "rule": TAKEN_RULE}


BROKEN_MOVES = """\
name: broken
players: 2
size: 3 x 3
obj X

define moves() {
  int zero = moveNumber();
  addPlace(6 / zero, 0, X);
  addMove();
}

define isMoveLegal() -> bool { return true; }

define end() -> bool { return moveNumber() == 4; }
"""




PRESENTATION = {  # as examples/tictactoe.gdef's `show` declares it, with the default labels and names
    "style": "plain", "columns": ["0", "1", "2"], "rows": ["0", "1", "2"],
    "pieces": {"X": {"glyph": "X", "image": None, "side": 0}, "O": {"glyph": "O", "image": None, "side": 1}},
    "players": ["Player 0", "Player 1"], "visible": [], "notation": "auto", "counts": "shown"}


def test_game_state_and_legal_moves_at_the_start(web) -> None:
    run = web(TICTACTOE)
    assert run.get("/api/game") == (200, {
        "name": "tictactoe", "players": 2, "width": 3, "height": 3, "objects": ["X", "O"],
        "files": [TICTACTOE], "seed": run.get("/api/game")[1]["seed"], "record": None, "yDown": False,
        "presentation": PRESENTATION})
    status, state = run.get("/api/state")
    assert status == 200
    assert (state["player"], state["over"], state["winner"], state["board"], state["moves"]) == (0, False, None, [], [])
    assert state["agents"] == ["human", "human"] and state["computerToMove"] is False
    status, legal = run.get("/api/legal")
    assert legal["count"] == 9
    assert {m["text"] for m in legal["moves"]} == {f"place({x},{y},X)" for x in range(3) for y in range(3)}
    assert legal["moves"][0]["squares"] == [[0, 0]] and legal["moves"][0]["ops"] == [[0, 0, "X"]]
    assert run.get("/api/legal?touching=2,1") == (200, {"count": 1, "moves": [
        {"text": "place(2,1,X)", "name": "2,1", "squares": [[2, 1]], "ops": [[2, 1, "X"]]}]})
    assert run.get("/api/legal?touching=2,1;0,0")[1]["count"] == 0
    assert run.get("/api/legal?touching=2") == (400, {"error": "touching: '2' is not a square 'x,y'"})


def test_no_legal_move_comes_with_why(web) -> None:
    """A player stuck by rules whose end() goes on: `why`, and the first failure located when
    isMoveLegal() failed on a candidate (the page shows it in place of the list)."""
    run = web(str(ROOT / "tests" / "data" / "play" / "fails_every_move.gdef"))
    assert run.post("/api/move", {"move": "place(1,0,X)"})[1]["accepted"] is True
    status, legal = run.get("/api/legal")
    assert status == 200 and (legal["count"], legal["moves"], legal["failedMove"]) == (0, [], "place(0,0,X)")
    assert legal["why"].startswith("isMoveLegal() failed on 2 of its 4 candidates, the first `place(0,0,X)` at ")
    failure = legal["failure"]
    assert (failure["code"], failure["line"], failure["column"], failure["message"]) == (
        "G601", 19, 12, "division by zero (6 / 0)")
    assert "why" not in run.get("/api/legal?touching=0,0")[1]   # a narrowed list says nothing of the rest
    stuck = web(str(ROOT / "tests" / "data" / "play" / "stuck.gdef"))
    stuck.post("/api/move", {"move": "place(0,0,X)"})
    assert stuck.get("/api/legal")[1] == {"moves": [], "count": 0, "why": "isMoveLegal() refused all 3 candidates"}
    assert "why" not in web(TICTACTOE).get("/api/legal")[1]


def test_the_legal_moves_sent_are_named_as_among_all_the_legal_moves(web) -> None:
    # only the moves sent are named (a big board has millions), each as the whole list names it
    run = web(str(EXAMPLES / "chess" / "chess.gdef"))
    assert [move["name"] for move in run.get("/api/legal?touching=5,2")[1]["moves"]] == ["f2f3", "g1f3"]
    status, legal = run.get("/api/legal?limit=3")
    assert (status, legal["count"], [move["name"] for move in legal["moves"]]) == (200, 20, ["a2a3", "a2a4", "b1c3"])


def test_a_game_to_its_end_with_the_record_saved_after_each_move(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    for number, move in enumerate(WIN_FOR_X, 1):
        status, answer = run.post("/api/move", {"move": move})
        assert status == 200 and answer["accepted"] is True and answer["kind"] == "legal"
        assert len(json.loads(record.read_text())["moves"]) == number
    state = run.get("/api/state")[1]
    assert (state["over"], state["winner"], state["moveNumber"]) == (True, 0, 5)
    assert sorted(state["board"]) == [[0, 0, "X"], [1, 0, "X"], [1, 1, "O"], [2, 0, "X"], [2, 2, "O"]]
    assert run.get("/api/legal")[1] == {"count": 0, "moves": []}
    assert run.post("/api/move", {"move": "place(0,2,O)"})[1]["kind"] == "game over"
    assert run.get("/api/record")[1]["result"] == {"over": True, "winner": 0}
    code, out, err = run.interrupt()
    assert code == 0, err
    assert "Player 0 wins: three in a row." in out  # with the comment of the line of end() that decided
    assert json.loads(record.read_text())["moves"] == [{"player": i % 2, "move": m, "name": m[6:9]}
                                                       for i, m in enumerate(WIN_FOR_X)]


def test_rejected_moves_say_why_and_are_recorded(web) -> None:
    run = web(TICTACTOE)
    run.post("/api/move", {"move": "place(1,1,X)"})
    assert run.post("/api/move", {"move": "place(1,1,O)"})[1] == {
        "accepted": False, "move": "place(1,1,O)", "name": None, "player": 1, **REJECTED}
    assert run.post("/api/move", {"move": "place(5,1,O)"})[1]["reason"] == (
        "place(5,1,O) names square (5, 1), which is off the 3x3 board (x from 0 to 2, y from 0 to 2)")
    assert run.post("/api/move", {"move": "place(0,1,Q)"})[1]["kind"] == "unknown object"
    malformed = run.post("/api/move", {"move": "place(0,1"})[1]
    assert (malformed["kind"], malformed["reason"]) == (
        "malformed", "not a move: expected ',' after the y coordinate, found the end of the move (column 10)")
    state = run.get("/api/state")[1]
    assert (state["player"], len(state["moves"]), state["rejected"]) == (1, 1, 4)
    # /api/check judges without playing or recording
    assert run.get("/api/check?move=place(1,1,O)")[1] == {
        "move": "place(1,1,O)", "legal": False, **REJECTED}
    assert run.get("/api/check?move=place(0,0,O)")[1]["legal"] is True
    assert run.get("/api/state")[1]["rejected"] == 4


def test_a_run_time_error_of_the_rules_comes_with_its_gdef_location(web, tmp_path) -> None:
    (tmp_path / "boom.gdef").write_text(BOOM)
    run = web("boom.gdef", cwd=tmp_path)
    answer = run.post("/api/move", {"move": "place(1,0,X)"})[1]
    assert answer["kind"] == "runtime error"
    assert answer["reason"] == "isMoveLegal() failed: boom.gdef:8:12: error[G601]: division by zero (6 / 0)"
    error = answer["error"]
    assert (error["code"], error["location"], error["line"], error["column"]) == ("G601", "boom.gdef:8:12", 8, 12)
    assert error["source"] == "  return 6 / (x - 1) != 0 && CurrentPosition[x][OperationList[0][1]] == empty;"
    assert error["source"][error["column"] - 1:error["endColumn"] - 1] == "/"  # the span of the division
    assert error["stack"] == ["in isMoveLegal() at boom.gdef:8:12"]
    # moves() is automatic here: listing the legal moves runs isMoveLegal() on each candidate
    assert run.post("/api/move", {"move": "place(0,0,X)"})[1]["accepted"] is True


def test_a_failing_moves_is_reported_with_its_location(web, tmp_path) -> None:
    (tmp_path / "broken.gdef").write_text(BROKEN_MOVES)
    run = web("broken.gdef", cwd=tmp_path)
    legal = run.get("/api/legal")[1]
    assert (legal["moves"], legal["count"]) == ([], 0)
    assert legal["reason"] == "moves() failed: broken.gdef:8:14: error[G601]: division by zero (6 / 0)"
    assert (legal["error"]["location"], legal["error"]["source"]) == ("broken.gdef:8:14", "  addPlace(6 / zero, 0, X);")
    run.post("/api/agent", {"player": 0, "agent": "random"})
    answer = run.post("/api/computer")[1]
    assert (answer["accepted"], answer["kind"]) == (False, "runtime error")
    assert answer["reason"] == ("player 0 (random) cannot choose a move: moves() failed: "
                                "broken.gdef:8:14: error[G601]: division by zero (6 / 0)")


def test_undo_takes_back_the_persons_move_and_the_computers_reply(web) -> None:
    run = web(TICTACTOE, "--player", "1=random", "--seed", "3")
    assert run.get("/api/state")[1]["agents"] == ["human", "random"]
    assert run.post("/api/undo")[1] == {"undone": False}
    run.post("/api/move", {"move": "place(1,1,X)"})
    state = run.get("/api/state")[1]
    assert (state["player"], state["computerToMove"]) == (1, True)
    assert run.post("/api/move", {"move": "place(0,0,X)"})[1]["kind"] == "rejected"  # it is O's turn
    reply = run.post("/api/computer")[1]
    assert (reply["accepted"], reply["player"], reply["agent"]) == (True, 1, "random")
    assert reply["move"].endswith(",O)")
    assert run.post("/api/computer") == (409, {"error": "player 0 is not a computer player"})
    assert run.post("/api/undo")[1] == {"undone": True}
    state = run.get("/api/state")[1]
    assert (state["player"], state["moves"], state["board"]) == (0, [], [])


def test_the_same_seed_gives_the_same_computer_moves(web) -> None:
    games = []
    for _ in range(2):
        run = web(TICTACTOE, "--player", "0=random", "--player", "1=greedy", "--seed", "11")
        while run.get("/api/state")[1]["computerToMove"]:
            assert run.post("/api/computer")[1]["accepted"] is True
        games.append(run.get("/api/state")[1]["moves"])
    assert games[0] == games[1] and len(games[0]) >= 5


def test_players_are_chosen_from_the_page_but_never_a_program(web) -> None:
    run = web(TICTACTOE)
    assert run.post("/api/agent", {"player": 1, "agent": "mcts:iterations=50"}) == (
        200, {"player": 1, "agent": "mcts:iterations=50"})
    assert run.get("/api/state")[1]["agents"] == ["human", "mcts:iterations=50"]
    assert run.post("/api/agent", {"player": 1, "agent": "human"})[1]["agent"] == "human"
    assert run.get("/api/state")[1]["agents"] == ["human", "human"]
    assert run.post("/api/agent", {"player": 2, "agent": "random"}) == (
        400, {"error": "player must be a number from 0 to 1"})
    status, answer = run.post("/api/agent", {"player": 0, "agent": "clever"})
    assert status == 400 and "unknown agent 'clever'" in answer["error"]
    status, answer = run.post("/api/agent", {"player": 0, "agent": "cmd:rm -rf /"})
    assert status == 403 and "on the command line" in answer["error"]


def test_a_move_script_is_stepped_through_forwards_and_back(web) -> None:
    run = web(TICTACTOE)
    run.post("/api/move", {"move": "place(2,2,X)"})  # replaced by the script's game
    script = "\n".join(["# X wins", "place(0,0,X)", "place(0,0,O)  # taken", "place(1,1,O)",
                        "? turn 0", "? square 1,1 X", *WIN_FOR_X[2:], "? over winner 0", "place(0,2,O)"])
    loaded = run.post("/api/script", {"text": script, "name": "win.moves"})[1]
    assert loaded["entries"] == 10
    with open(loaded["kept"], encoding="utf-8") as handle:  # the game before, in a temporary file
        assert json.load(handle)["moves"] == [{"player": 0, "move": "place(2,2,X)", "name": "2,2"}]
    state = run.get("/api/state")[1]
    assert state["moves"] == [] and state["script"]["cursor"] == 0
    assert [e["line"] for e in state["script"]["entries"]] == list(range(2, 12))
    status, step = run.post("/api/step", {"to": 2})
    assert step["result"] == {"status": "rejected", "player": 1, **REJECTED}
    status, step = run.post("/api/step", {"to": 100})
    assert step["cursor"] == 10
    results = [e["result"]["status"] for e in run.get("/api/state")[1]["script"]["entries"]]
    assert results == ["played", "rejected", "played", "passed", "failed", "played", "played", "played",
                       "passed", "skipped"]
    failed = run.get("/api/state")[1]["script"]["entries"][4]["result"]
    assert failed["reason"] == "expected X at (1,1), actual O at (1,1)"
    assert run.get("/api/state")[1]["winner"] == 0
    run.post("/api/step", {"to": 3})
    state = run.get("/api/state")[1]
    assert ([m["move"] for m in state["moves"]], state["over"], state["rejected"]) == (
        ["place(0,0,X)", "place(1,1,O)"], False, 1)
    assert run.post("/api/step", {"to": "x"}) == (400, {"error": "'to' must be a whole number"})
    run.post("/api/move", {"move": "place(2,2,X)"})  # a move of one's own leaves the script
    assert run.get("/api/state")[1]["script"] is None
    assert run.post("/api/step", {"to": 1})[0] == 409


def test_a_record_is_stepped_through_and_one_of_another_game_refused(web, tmp_path) -> None:
    run = web(TICTACTOE)
    record = {"game": "tictactoe", "files": [TICTACTOE], "players": 2, "rejected": [],
              "moves": [{"player": i % 2, "move": m} for i, m in enumerate(WIN_FOR_X)]}
    assert run.post("/api/script", {"text": json.dumps(record), "name": "r.json"})[1] == {"entries": 5, "kept": None}
    run.post("/api/step", {"to": 5})
    assert run.get("/api/state")[1]["winner"] == 0
    status, answer = run.post("/api/script", {"text": json.dumps({**record, "game": "chess"}), "name": "c.json"})
    assert (status, answer) == (400, {"error": "c.json is a record of 'chess', but this page plays 'tictactoe'"})
    status, answer = run.post("/api/script", {"text": "{\"game\": 1}", "name": "bad.json"})
    assert status == 400 and answer["error"].startswith("bad.json: not a gdef-run game record")


def test_a_record_of_a_set_position_is_stepped_through_from_that_position(web) -> None:
    run = web(TICTACTOE)
    start = {"game": "tictactoe", "width": 3, "height": 3, "player": 1, "move_number": 1, "over": False,
             "winner": None, "vars": {}, "scores": [0, 0], "board": [[1, 1, "X"]]}
    record = {"game": "tictactoe", "files": [TICTACTOE], "players": 2, "rejected": [], "start": start,
              "moves": [{"player": 1, "move": "place(0,0,O)"}]}
    assert run.post("/api/script", {"text": json.dumps(record), "name": "r.json"})[1] == {"entries": 1, "kept": None}
    assert run.get("/api/state")[1]["board"] == [[1, 1, "X"]]
    assert run.post("/api/step", {"to": 1})[1]["result"] == {"status": "played", "player": 1}
    assert sorted(run.get("/api/state")[1]["board"]) == [[0, 0, "O"], [1, 1, "X"]]
    status, answer = run.post("/api/script", {"text": json.dumps({**record, "start": {**start, "board": [[7, 7, "X"]]}}),
                                              "name": "bad.json"})
    assert status == 400 and answer["error"].startswith("bad.json: its start position does not fit the game")


def test_web_moves_opens_the_script_ready_to_step(web, tmp_path) -> None:
    moves = tmp_path / "game.moves"
    moves.write_text("\n".join(WIN_FOR_X) + "\n")
    run = web(TICTACTOE, "--moves", str(moves))
    script = run.get("/api/state")[1]["script"]
    assert (script["name"], script["cursor"], len(script["entries"])) == ("game.moves", 0, 5)


def test_a_script_is_stepped_through_from_where_its_header_says(web, tmp_path) -> None:
    run = web(TICTACTOE)
    script = "# from: empty\n# board: place(0,0,X); place(1,0,X); place(1,1,O)  # a comment\n# turn: 0\nplace(2,0,X)\n"
    assert run.post("/api/script", {"text": script, "name": "h.moves"})[1] == {"entries": 1, "kept": None}
    assert sorted(run.get("/api/state")[1]["board"]) == [[0, 0, "X"], [1, 0, "X"], [1, 1, "O"]]
    run.post("/api/step", {"to": 1})
    assert run.get("/api/state")[1]["winner"] == 0
    status, answer = run.post("/api/script", {"text": "# board: place(7,7,X)\nplace(0,0,O)\n", "name": "bad.moves"})
    assert status == 400 and answer["error"].startswith("bad.moves:1:10: the start position does not fit tictactoe: ")
    status, answer = run.post("/api/script", {"text": "# from: r.json\n", "name": "r.moves"})
    assert (status, answer["error"]) == (400, "r.moves:1:9: a script sent by the page cannot start from a record "
                                              "(its folder is unknown here): open the record itself")
    (tmp_path / "r.json").write_text(json.dumps({"game": "tictactoe", "files": [str(ROOT / TICTACTOE)], "players": 2,
                                                 "rejected": [], "moves": [{"player": 0, "move": "place(1,1,X)"}]}))
    (tmp_path / "r.moves").write_text("# from: r.json\nplace(0,0,O)\n")
    state = web(TICTACTOE, "--moves", str(tmp_path / "r.moves")).get("/api/state")[1]
    assert (state["board"], state["player"], len(state["script"]["entries"])) == ([[1, 1, "X"]], 1, 1)


HEX = "examples/hex.gdef"


def test_a_scripts_param_lines_load_the_game_it_is_stepped_through_in(web, tmp_path) -> None:
    small = "# param: board_size=3   # a 3x3 board\n# from: empty\n# board: place(2,2,B)\nplace(0,0,W)\n"
    (tmp_path / "small.moves").write_text(small)
    run = web(HEX, "--moves", str(tmp_path / "small.moves"))  # loaded with the script's value at once
    assert (run.get("/api/game")[1]["width"], run.get("/api/state")[1]["board"]) == (3, [[2, 2, "B"]])
    run = web(HEX)
    assert run.post("/api/script", {"text": small, "name": "small.moves"})[1] == {"entries": 1, "kept": None,
                                                                                   "reload": True}
    assert (run.get("/api/game")[1]["width"], run.get("/api/state")[1]["board"]) == (3, [[2, 2, "B"]])
    status, answer = run.post("/api/script", {"text": "# param: board_size=30\nplace(0,0,B)\n", "name": "big.moves"})
    assert (status, answer["error"]) == (400, "big.moves:1:10: # param: parameter 'board_size' cannot be 30: it takes "
                                              "1 to 25")
    assert run.get("/api/game")[1]["width"] == 3  # nothing changed
    (tmp_path / "clash.moves").write_text(small)
    out, err = io.StringIO(), io.StringIO()
    code = run_gdef([str(ROOT / HEX), "--web", "--no-browser", "--moves", str(tmp_path / "clash.moves"),
                     "--param", "board_size=5"], io.StringIO(), out, err)
    assert (code, out.getvalue()) == (2, "") and err.getvalue().startswith(
        f"gdef-run: error: {tmp_path / 'clash.moves'}:1:10: the script is played with board_size=3, and --param sets "
        "board_size=5")


def test_resume_and_ctrl_c_saves_the_record(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    for move in WIN_FOR_X[:3]:
        run.post("/api/move", {"move": move})
    code, out, err = run.interrupt()
    assert code == 3
    assert "Stopped (interrupted) before the game ended, after 3 move(s)." in err
    assert f"continue with: gdef-run --resume {record}" in err
    again = web("--resume", str(record))
    state = again.get("/api/state")[1]
    assert ([m["move"] for m in state["moves"]], state["player"]) == (WIN_FOR_X[:3], 1)
    # the record names the game relative to its own folder (or absolute): the same file
    files = again.get("/api/game")[1]["files"]
    assert [(ROOT / name).resolve() for name in files] == [(ROOT / TICTACTOE).resolve()]


def test_a_new_game_keeps_the_one_before(web, tmp_path) -> None:
    record = tmp_path / "game.json"
    run = web(TICTACTOE, "--record", str(record))
    assert run.post("/api/new")[1] == {"kept": None}  # nothing played: nothing to keep
    run.post("/api/move", {"move": "place(1,1,X)"})
    assert run.post("/api/new")[1] == {"kept": f"{record}.~1~"}
    assert json.loads((tmp_path / "game.json.~1~").read_text())["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]
    state = run.get("/api/state")[1]
    assert (state["moves"], state["board"], state["player"]) == ([], [], 0)
    run.post("/api/move", {"move": "place(0,0,X)"})
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(0,0,X)", "name": "0,0"}]
    code, out, _ = run.interrupt()
    assert f"The game so far is kept in {record}.~1~." in out


def test_save_writes_the_record_where_the_page_says(web, tmp_path) -> None:
    run = web(TICTACTOE)
    assert run.post("/api/save")[1] == {"saved": False, "reason": "nothing to save yet: no move has been played"}
    run.post("/api/move", {"move": "place(1,1,X)"})
    answer = run.post("/api/save")[1]
    assert answer["saved"] is True
    with open(answer["path"], encoding="utf-8") as handle:
        assert json.load(handle)["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]


# ------------------------------------------------------------------ what keeps others out


def test_only_loopback_listens(web) -> None:
    run = web(TICTACTOE)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.2", run.port), timeout=5).close()
    socket.create_connection(("127.0.0.1", run.port), timeout=5).close()


def test_a_foreign_host_or_origin_is_refused(web) -> None:
    run = web(TICTACTOE)
    status, answer = run.get("/api/state", Host="attacker.example:80")
    assert status == 403 and "answers only to http://127.0.0.1:" in answer["error"]
    assert run.get("/", Host="attacker.example")[0] == 403
    assert run.get("/api/state", Host=f"localhost:{run.port}")[0] == 200
    status, answer = run.post("/api/move", {"move": "place(1,1,X)"}, Origin="http://attacker.example")
    assert status == 403 and "only this server's own page" in answer["error"]
    assert run.post("/api/move", {"move": "place(1,1,X)"}, Origin=f"http://127.0.0.1:{run.port}")[0] == 200
    status, answer, _ = run.request("POST", "/api/move", raw=b"move=place(1,1,O)",
                                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert (status, answer) == (415, {"error": "send the request body as JSON (Content-Type: application/json)"})
    assert run.get("/api/state")[1]["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]


def test_another_game_file_is_refused(web) -> None:
    run = web(TICTACTOE)
    status, answer = run.get("/api/state?file=examples/chess/chess.gdef")
    assert status == 403
    assert answer["error"] == ("this server plays examples/tictactoe.gdef only; start another gdef-run --web "
                               "for examples/chess/chess.gdef")
    assert run.get(f"/api/state?file={ROOT / TICTACTOE}")[0] == 200
    assert run.post("/api/move", {"move": "place(1,1,X)", "file": "examples/connect4.gdef"})[0] == 403
    assert run.get("/examples/chess/chess.gdef")[0] == 404
    assert run.get("/static/../server.py")[0] == 404
    assert run.get("/static/board.py")[0] == 404


def test_errors_are_json_never_tracebacks(web) -> None:
    run = web(TICTACTOE)
    assert run.get("/api/nothing") == (404, {"error": "no such page: /api/nothing"})
    status, answer, _ = run.request("POST", "/api/move", raw=b"{not json", headers={"Content-Type": "application/json"})
    assert status == 400 and answer["error"].startswith("the request body is not JSON")
    assert run.post("/api/move", {"move": 5}) == (400, {"error": "'move' must be a string"})
    assert run.post("/api/move", []) == (400, {"error": "the request body must be a JSON object"})
    status, answer, _ = run.request("DELETE", "/api/state")
    assert status == 501 and "error" in answer
    with socket.create_connection(("127.0.0.1", run.port), timeout=5) as raw:
        raw.sendall(b"NONSENSE\r\n\r\n")
        reply = raw.recv(4096).decode()
    assert reply.startswith('{"error": "Bad request syntax') and "Traceback" not in reply  # HTTP/0.9: no status line
    with socket.create_connection(("127.0.0.1", run.port), timeout=5) as raw:
        raw.sendall(b"GET /api/state HTTP/1.1\r\n" + b"X: y\r\n" * 101 + b"\r\n")
        reply = b"".join(iter(lambda: raw.recv(4096), b"")).decode()  # the server closes
    assert reply.startswith("HTTP/1.1 431") and reply.endswith('{"error": "Too many headers"}')


def test_the_page_and_its_files_are_served(web) -> None:
    run = web(TICTACTOE)
    status, html, headers = run.request("GET", "/")
    assert status == 200 and '<script src="/static/app.js" defer></script>' in html
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        status, _, headers = run.request("GET", f"/static/{name}")
        assert status == 200 and headers["Content-Type"].startswith(kind)


def test_a_port_in_use_is_a_clear_error(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([GDEF_RUN, "--web", "--no-browser", "--port", str(port), str(EXAMPLES / "tictactoe.gdef")],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"gdef-run: error: cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


def test_a_port_out_of_range_is_a_clear_error() -> None:
    done = subprocess.run([GDEF_RUN, "--web", "--no-browser", "--port", "70000", str(EXAMPLES / "tictactoe.gdef")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "gdef-run: error: --port 70000: a port is a number from 0 to 65535 (0: any free one)" in done.stderr


def test_without_a_display_no_browser_is_started(tmp_path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    process = subprocess.Popen([GDEF_RUN, "--web", str(EXAMPLES / "tictactoe.gdef")], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, preexec_fn=ctrl_c_as_at_a_terminal)
    try:
        assert process.stdout.readline().startswith("Serving tictactoe at http://127.0.0.1:")
        assert process.stdout.readline() == "No graphical display here: open the address in a browser yourself.\n"
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert process.returncode == 3


def test_a_new_game_with_other_parameter_values(web) -> None:
    fill = str(ROOT / "tests" / "data" / "params" / "fill.gdef")
    run = web(fill)
    game = run.get("/api/game")[1]
    assert (game["width"], game["height"]) == (4, 4)
    assert game["params"] == [
        {"name": "n", "type": "int", "default": 4, "value": 4, "range": [2, 8], "values": None},
        {"name": "komi", "type": "float", "default": 0.5, "value": 0.5, "range": [-5.0, 5.5], "values": None},
        {"name": "bonus", "type": "bool", "default": False, "value": False, "range": None, "values": None}]
    run.post("/api/move", {"move": "place(0,0,X)"})
    answer = run.post("/api/new", {"params": {"n": "3", "bonus": "true"}})[1]
    assert answer["reload"] is True and answer["kept"]
    game = run.get("/api/game")[1]
    assert (game["width"], game["height"]) == (3, 3)
    assert [(p["default"], p["value"]) for p in game["params"]] == [(4, 3), (0.5, 0.5), (False, True)]
    assert run.get("/api/legal")[1]["count"] == 8
    assert run.post("/api/new", {"params": {"n": "9"}}) == (400, {"error": "parameter 'n' cannot be 9: it takes 2 to 8"})
    assert run.post("/api/new", {"params": ["n"]}) == (400, {"error": "params must map parameter names to values"})
    assert run.get("/api/game")[1]["width"] == 3  # a refused value changes nothing
