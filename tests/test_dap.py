"""gdef-dap over a real stdio connection, driven as an editor drives it (issue 28)."""
from __future__ import annotations

import json
import subprocess
import sys

from dap_support import EXAMPLES, GAME, GAMES, HELPERS, ROOT, Client, client, launch  # noqa: F401 (client: the fixture)


def test_a_session_as_an_editor_drives_it(client):
    # a breakpoint in the helper that end() calls (line 7: `if (CurrentPosition[x][y] == m)`),
    # one outside functions (unverified), one on the `define` line (it moves to the first
    # statement; its condition never holds)
    capabilities, verified = launch(client, "wins.moves", {HELPERS: [{"line": 7}, {"line": 2},
                                                                     {"line": 4, "condition": "y == 5"}]})
    assert capabilities["supportsStepBack"] and capabilities["supportsConditionalBreakpoints"]
    assert {f["filter"] for f in capabilities["exceptionBreakpointFilters"]} == {"runtime", "assertion"}
    answer = verified[HELPERS]
    assert answer[0] == {"verified": True, "line": 7}
    assert answer[1]["verified"] is False
    assert answer[2] == {"verified": True, "line": 5}
    client.stopped("breakpoint")
    assert client.frames() == [("countInRow()", "helpers.gdef", 7), ("check()", "rows.gdef", 27),
                               ("end()", "rows.gdef", 35), ("end() after move 1: place(0,0,X)", "wins.moves", 2)]
    scopes = client.variables()
    assert scopes["Locals"]["y"]["value"] == "0" and scopes["Locals"]["m"]["value"] == "X"
    assert scopes["Locals"]["x"]["value"] == "0" and scopes["Locals"]["count"]["value"] == "0"
    assert scopes["Game variables"]["placed"]["value"] == "1"
    assert scopes["Move"]["[0]"]["value"] == "place(0,0,X)"
    rows = client.children(scopes["Positions"]["CurrentPosition"])
    assert [(name, row["value"]) for name, row in rows.items()] == [("y=2", ". . ."), ("y=1", ". . ."), ("y=0", "X . .")]
    assert client.children(rows["y=0"])["[0][0]"]["value"] == "X"
    evaluate = client.request("evaluate", {"expression": "CurrentPosition[x][y] == m", "frameId": client.top(),
                                           "context": "watch"})["body"]
    assert evaluate["result"] == "true"
    client.request("evaluate", {"expression": "nosuchname", "frameId": client.top(), "context": "hover"}, ok=False)

    client.request("setBreakpoints", {"source": {"path": HELPERS}, "breakpoints": []})
    client.request("next", {"threadId": 1})
    client.stopped("step")
    assert client.frames()[0] == ("countInRow()", "helpers.gdef", 8)   # count = count + 1
    client.request("next", {"threadId": 1})
    client.stopped("step")
    assert client.frames()[0] == ("countInRow()", "helpers.gdef", 6)   # the loop's step
    client.request("stepOut", {"threadId": 1})
    client.stopped("step")
    assert client.frames()[0] == ("check()", "rows.gdef", 28)          # after `int inRow = countInRow(...)`
    client.request("stepBack", {"threadId": 1})
    client.stopped("step")
    assert client.frames()[0] == ("countInRow()", "helpers.gdef", 11)  # return count
    assert client.variables()["Locals"]["count"]["value"] == "1"
    client.request("stepOut", {"threadId": 1})
    client.stopped("step")
    client.request("stepOut", {"threadId": 1})
    client.stopped("step")
    assert client.frames()[0] == ("end()", "rows.gdef", 39)            # return moveNumber() == 9
    client.request("stepIn", {"threadId": 1})
    client.stopped("step")   # the next statement the game runs: isMoveLegal() judging move 2 (the
    assert client.frames()[0] == ("isMoveLegal()", "rows.gdef", 20)  # listing that names it is not traced)
    assert client.frames()[-1][0] == "isMoveLegal() judging move 2: place(0,1,O)"
    assert "NextPosition" in client.variables()["Positions"]

    # a conditional breakpoint in end(): the first time y is 1
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": 35, "condition": "y == 1"}]})
    client.request("continue", {"threadId": 1})
    client.stopped("breakpoint")
    assert client.frames()[-1][0] == "end() after move 2: place(0,1,O)"
    assert client.variables()["Locals"]["y"]["value"] == "1"
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": []})
    client.request("continue", {"threadId": 1})
    assert client.event("exited")["body"]["exitCode"] == 0
    client.event("terminated")
    output = "".join(e["body"]["output"] for e in client.events if e["event"] == "output")
    assert "5. player 0: 2,0 (place(2,0,X))" in output and "Player 0 wins." in output
    assert output.count("1. player 0: ") == 1  # the re-run of step back said nothing
    client.request("disconnect", {})
    assert client.close() == 0


def test_break_on_a_run_time_error_and_on_a_failed_assertion(client):
    launch(client, "fails.moves", {})
    body = client.stopped("exception")
    assert body["text"].endswith("error[G601]: division by zero (10 / 0)")
    assert "rows.gdef:28:18" in body["text"]
    assert client.frames() == [("check()", "rows.gdef", 28), ("end()", "rows.gdef", 35),
                               ("end() after move 2: place(2,2,O)", "fails.moves", 3)]
    assert client.variables()["Locals"]["inRow"]["value"] == "1"
    client.request("continue", {"threadId": 1})
    body = client.stopped("exception")   # the move was refused, so `? turn 0` fails
    assert body["description"] == "assertion failed: ? turn 0"
    assert client.frames() == [("fails.moves line 4: ? turn 0", "fails.moves", 4)]
    client.request("continue", {"threadId": 1})
    # the moves ran out: a move typed in the debug console is played
    waiting = client.event("output")
    while "moves ran out" not in waiting["body"]["output"]:
        waiting = client.event("output")
    client.request("evaluate", {"expression": "place(", "context": "repl"}, ok=False)
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": 35, "logMessage": "y is {y}"},
                                                                                {"line": 38, "hitCondition": "1"}]})
    played = client.request("evaluate", {"expression": "place(1,1,O)", "context": "repl"})
    assert played["body"]["result"] == "played place(1,1,O)"
    client.stopped("breakpoint")
    assert client.frames()[-1] == ("end() after move 2: place(1,1,O)", None, 0)
    logged = [e["body"]["output"] for e in client.events if e["event"] == "output"]
    assert "y is 1\n" in logged
    client.request("terminate", {})
    client.event("terminated")
    client.request("disconnect", {})
    assert client.close() == 0


def test_stop_on_entry_and_reverse_continue(client):
    launch(client, "wins.moves", {GAME: [{"line": 34}]}, stop_on_entry=True)   # end(): int y = ...
    client.stopped("entry")
    assert client.frames()[:1] == [("isMoveLegal()", "rows.gdef", 20)]
    for move in (1, 2):
        client.request("continue", {"threadId": 1})
        client.stopped("breakpoint")
        assert client.frames()[-1][0].startswith(f"end() after move {move}")
    client.request("reverseContinue", {"threadId": 1})
    client.stopped("breakpoint")
    assert client.frames()[-1][0].startswith("end() after move 1")
    assert client.frames()[0] == ("end()", "rows.gdef", 34)
    client.request("reverseContinue", {"threadId": 1})
    client.stopped("entry")   # no earlier hit: back to the first statement
    assert client.frames()[0] == ("isMoveLegal()", "rows.gdef", 20)
    client.request("disconnect", {})
    assert client.close() == 0


def test_malformed_requests_get_error_responses(client):
    client.request("nonsense", {}, ok=False)
    client.request("stackTrace", {"threadId": 1}, ok=False)           # before launch
    client.request("launch", {}, ok=False)                             # no program
    client.request("launch", {"program": str(GAMES / "missing.gdef")}, ok=False)
    client.request("launch", {"program": GAME, "moves": 3}, ok=False)
    client.request("initialize", {"adapterID": "gdef", "pathFormat": "url"}, ok=False)
    seq = client.send({"type": "request", "command": "evaluate", "arguments": ["a list"]})
    assert "arguments must be an object" in client.response(seq, "evaluate", ok=False)["message"]
    answer = client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": True}]}, ok=False)
    assert answer["message"] == "malformed setBreakpoints request: arguments.breakpoints[0].line must be an integer"
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json")
    assert "not JSON" in client.event("output")["body"]["output"]
    client.request("launch", {"program": GAME, "moves": str(GAMES / "wins.moves")})
    client.event("initialized")
    client.request("setBreakpoints", {"source": {}, "breakpoints": [{"line": 3}]}, ok=False)
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": "three"}]}, ok=False)
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{}]}, ok=False)
    client.request("scopes", {"frameId": 1}, ok=False)                  # not stopped
    client.request("next", {"threadId": 1}, ok=False)
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": 20}]})
    client.request("configurationDone")
    client.stopped("breakpoint")
    client.request("scopes", {"frameId": 99}, ok=False)
    client.request("variables", {"variablesReference": 12345}, ok=False)
    client.request("evaluate", {"expression": "CurrentPosition[9][0]", "frameId": client.top()}, ok=False)
    client.request("next", {"threadId": 7}, ok=False)
    client.send_raw(b"Content-Length: nine\r\n\r\n")               # skipped (test_dap_audit); then the end of stdin ends it
    assert client.close() == 0


def test_gdef_dap_is_also_gdef_dap_subcommand():
    client = Client(("-m", "gdef_core.cli.main", "dap"))
    try:
        assert client.request("initialize", {"adapterID": "gdef"})["body"]["supportsLogPoints"] is True
        client.request("disconnect", {})
        assert client.close() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()


def test_the_protocol_types_are_generated_from_the_committed_schema():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "generate_dap_types.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    from gdef_dap import protocol
    from gdef_dap.protocol_codec import from_json

    arguments = from_json(protocol.StackTraceArguments, {"threadId": 1, "format": {"line": True}})
    assert arguments.format == protocol.StackFrameFormat(line=True)


def test_pause_while_the_game_waits_for_a_move(client):
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": GAME})   # no move script: the game waits at once
    client.event("initialized")
    client.request("configurationDone")

    def prompted() -> None:
        output = client.event("output")
        while "moves ran out" not in output["body"]["output"]:
            output = client.event("output")

    prompted()
    client.request("pause", {"threadId": 1})
    client.stopped("pause")
    assert client.frames() == [("waiting for move 1", None, 0)]
    client.request("continue", {"threadId": 1})
    prompted()
    client.request("evaluate", {"expression": "place(1,1,X)", "context": "repl"})
    prompted()
    client.request("pause", {"threadId": 1})
    client.stopped("pause")
    assert client.frames() == [("waiting for move 2", None, 0)]
    rows = client.children(client.variables()["Positions"]["CurrentPosition"])
    assert [row["value"] for row in rows.values()] == [". . .", ". X .", ". . ."]
    client.request("disconnect", {})
    assert client.close() == 0


def test_debug_a_refused_move_on_a_recorded_position(client, tmp_path):
    # what "Debug this move" on the board starts: the game so far as a record, the refused move
    from gdef_core import load_game
    from gdef_core.runtime.session import Session

    session = Session(load_game([GAME]), [GAME])
    for move in ("place(0,0,X)", "place(1,1,O)"):
        assert session.play(move).accepted
    record = tmp_path / "so-far.json"
    session.save(str(record))
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": GAME, "resume": str(tmp_path / "missing.json"),
                              "debugMove": "place(1,1,X)"}, ok=False)
    answer = client.request("launch", {"program": GAME, "resume": str(record), "debugMove": "place(1,1"}, ok=False)
    assert answer["message"].startswith("'debugMove' is not a move: ")
    client.request("launch", {"program": GAME, "resume": str(record), "debugMove": "place(1,1,X)"})
    client.event("initialized")
    client.request("configurationDone")
    body = client.stopped("entry")
    assert body["description"] == "Stopped where isMoveLegal() judges place(1,1,X)"
    position = client.event("gdef/position")["body"]
    assert position == {"title": "isMoveLegal() judging move 3: place(1,1,X)", "board": [[0, 0, "X"], [1, 1, "O"]],
                        "player": 0, "moveNumber": 2, "move": [[1, 1, "X"]]}
    assert client.frames() == [("isMoveLegal()", "rows.gdef", 20), ("isMoveLegal() judging move 3: place(1,1,X)", None, 0)]
    client.request("next", {"threadId": 1})
    client.stopped("step")
    assert client.event("gdef/position")["body"]["title"] == position["title"]
    client.request("continue", {"threadId": 1})
    said = [client.event("output")["body"]["output"]]
    while "moves ran out" not in said[-1]:
        said.append(client.event("output")["body"]["output"])
    assert any("rejected 'place(1,1,X)' (player 0): refused by rows.gdef:23" in text for text in said), said
    client.request("disconnect", {})
    assert client.close() == 0


def test_launch_with_the_games_parameters(client):
    hexgame = str(EXAMPLES / "hex.gdef")
    client.request("initialize", {"adapterID": "gdef"})
    answer = client.request("launch", {"program": hexgame, "params": {"board_size": 99}}, ok=False)
    assert "board_size" in answer["message"] and "1 to 25" in answer["message"], answer["message"]
    assert "nope" in client.request("launch", {"program": hexgame, "params": {"nope": 1}}, ok=False)["message"]
    answer = client.request("launch", {"program": hexgame, "params": [5]}, ok=False)
    assert answer["message"] == "malformed launch request: arguments.params must be an object"
    answer = client.request("launch", {"program": hexgame, "params": {"board_size": [5]}}, ok=False)
    assert answer["message"] == "'params': the value of 'board_size' must be a number, true/false or a string"
    client.request("launch", {"program": hexgame, "params": {"board_size": 5}, "debugMove": "place(4,4,B)"})
    client.event("initialized")
    client.request("configurationDone")
    client.stopped("entry")
    assert client.request("evaluate", {"expression": "board_size", "frameId": client.top()})["body"]["result"] == "5"
    client.request("continue", {"threadId": 1})   # (4,4) is on a 5 x 5 board: played
    said = [client.event("output")["body"]["output"]]
    while "moves ran out" not in said[-1]:
        said.append(client.event("output")["body"]["output"])
    assert not any("rejected" in text for text in said), said
    client.request("disconnect", {})
    assert client.close() == 0
