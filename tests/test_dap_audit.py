"""gdef-dap checked against the Debug Adapter Protocol's text and issue 28 as an outside checker
would: clients that count lines from 0 and send URIs (initialize's arguments), each capability
advertised answering, bad breakpoint conditions reported where they are set, variables paging and
references that die with the stop, `noDebug`, and a stream that goes wrong and goes on."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dap_support import GAME, GAMES, HELPERS, ROOT, Client, client, initialized_client, launch  # noqa: F401 (client: the fixture)


def test_bad_conditions_hit_counts_and_log_messages_are_unverified_with_the_reason(client):
    _, verified = launch(client, "wins.moves", {
        HELPERS: [{"line": 7, "condition": "x ==="}, {"line": 7, "condition": "count + 1"},
                  {"line": 7, "condition": "nosuch == 1"}, {"line": 7, "hitCondition": "banana"},
                  {"line": 7, "logMessage": "x is {x}, {nosuch}"}, {"line": 7, "condition": "x == 2"},
                  {"line": 7, "hitCondition": ">= 2", "logMessage": "at {x}"}],
        "/nowhere/else.gdef": [{"line": 3}]})
    assert verified[HELPERS] == [
        {"verified": False, "line": 7, "message": "the condition 'x ===': column 5: expected an expression, found '='"},
        {"verified": False, "line": 7, "message": "the condition 'count + 1': a condition must be a bool, not int"},
        {"verified": False, "line": 7, "message": "the condition 'nosuch == 1': column 1: 'nosuch' is not declared"},
        {"verified": False, "line": 7, "message": "the hit count 'banana' is not N, >= N, > N, <= N, < N, == N or % N"},
        {"verified": False, "line": 7, "message": "{nosuch} of the log message: column 1: 'nosuch' is not declared"},
        {"verified": True, "line": 7},
        {"verified": True, "line": 7}]
    assert verified["/nowhere/else.gdef"] == [
        {"verified": False, "line": 3, "message": "this file is not part of the game being debugged"}]
    client.stopped("breakpoint")   # x == 2, and nothing said about the refused ones while running
    assert client.frames()[0] == ("countInRow()", "helpers.gdef", 7)
    said = [event["body"]["output"] for event in client.events if event["event"] == "output"]
    assert said == ["at 1\n", "at 2\n"]
    client.request("disconnect", {"terminateDebuggee": True})
    assert client.close() == 0


def test_a_client_counting_from_0_with_uris_and_no_value_types(client):
    """As a client that sets linesStartAt1/columnsStartAt1 false, pathFormat "uri" and no
    supportsVariableType: lines, columns and paths in its terms, no `type` in values."""
    client.request("initialize", {"adapterID": "gdef", "clientID": "zero", "linesStartAt1": False,
                                  "columnsStartAt1": False, "pathFormat": "uri"})
    client.request("launch", {"program": GAME, "moves": str(GAMES / "wins.moves")})
    client.event("initialized")
    helpers = Path(HELPERS).as_uri()
    answer = client.request("setBreakpoints", {"source": {"path": helpers}, "breakpoints": [{"line": 6}, {"line": 0}]})
    assert answer["body"]["breakpoints"] == [
        {"verified": True, "line": 6},
        {"verified": False, "line": 0, "message": "no statement on or after this line in its function"}]
    client.request("setBreakpoints", {"source": {"path": helpers}, "lines": [-1]}, ok=False)
    client.request("configurationDone")
    client.stopped("breakpoint")
    top, caller = client.request("stackTrace", {"threadId": 1})["body"]["stackFrames"][:2]
    assert (top["name"], top["line"], top["column"], top["source"]["path"]) == ("countInRow()", 6, 4, helpers)
    assert (caller["name"], caller["line"], caller["column"]) == ("check()", 26, 14)
    assert caller["source"]["path"] == Path(GAME).as_uri()
    local = client.variables()["Locals"]["x"]
    assert local == {"name": "x", "value": "0", "variablesReference": 0, "evaluateName": "x"}
    hover = client.request("evaluate", {"expression": "count", "frameId": top["id"], "context": "hover"})["body"]
    assert hover == {"result": "0", "variablesReference": 0}
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_run_time_error_and_a_failed_assertion_as_exception_info(client):
    capabilities, _ = launch(client, "fails.moves", {})
    assert capabilities["supportsExceptionInfoRequest"] is True
    client.stopped("exception")
    info = client.request("exceptionInfo", {"threadId": 1})["body"]
    assert info["exceptionId"] == "G601"
    assert info["breakMode"] == "always"
    assert info["description"] == "G601: division by zero (10 / 0)"
    assert info["details"]["typeName"] == "run-time error"
    assert info["details"]["message"].endswith("rows.gdef:28:18: error[G601]: division by zero (10 / 0)")
    client.request("continue", {"threadId": 1})
    client.stopped("exception")
    info = client.request("exceptionInfo", {"threadId": 1})["body"]
    assert (info["exceptionId"], info["description"]) == ("assertion", "assertion failed: ? turn 0")
    client.request("continue", {"threadId": 1})
    client.request("exceptionInfo", {"threadId": 1}, ok=False)   # not stopped at all
    client.request("disconnect", {})
    assert client.close() == 0


def test_variables_paging_and_references_that_end_with_the_stop(client):
    launch(client, "wins.moves", {GAME: [{"line": 29}]})
    client.stopped("breakpoint")
    scopes = client.request("scopes", {"frameId": client.top()})["body"]["scopes"]
    locals_ = scopes[0]["variablesReference"]
    every = client.request("variables", {"variablesReference": locals_})["body"]["variables"]
    assert [v["name"] for v in every] == ["y", "inRow", "spare"]
    page = client.request("variables", {"variablesReference": locals_, "start": 1, "count": 1})["body"]["variables"]
    assert [v["name"] for v in page] == ["inRow"]
    rest = client.request("variables", {"variablesReference": locals_, "start": 2})["body"]["variables"]
    assert [v["name"] for v in rest] == ["spare"]
    client.request("variables", {"variablesReference": locals_, "start": -1}, ok=False)
    client.request("variables", {"variablesReference": locals_, "count": -2}, ok=False)
    frames = client.request("stackTrace", {"threadId": 1, "startFrame": 1, "levels": 1})["body"]
    assert ([frame["name"] for frame in frames["stackFrames"]], frames["totalFrames"]) == (["end()"], 3)
    assert client.request("stackTrace", {"threadId": 1, "startFrame": 5})["body"] == {"stackFrames": [], "totalFrames": 3}
    client.request("stackTrace", {"threadId": 1, "startFrame": -1}, ok=False)
    top = client.top()
    client.request("next", {"threadId": 1})
    client.stopped("step")
    client.request("variables", {"variablesReference": locals_}, ok=False)   # from the stop before
    answer = client.request("scopes", {"frameId": top}, ok=False)
    assert answer["message"] == f"there is no frame {top} (frames live until the game runs again)"
    client.request("evaluate", {"expression": "y", "frameId": top}, ok=False)
    assert client.top() > top
    again = client.request("scopes", {"frameId": client.top()})["body"]["scopes"]
    assert min(scope["variablesReference"] for scope in again) > max(scope["variablesReference"] for scope in scopes)
    client.request("disconnect", {})
    assert client.close() == 0


def test_no_debug_plays_the_game_without_stopping(client):
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": GAME, "moves": str(GAMES / "fails.moves"), "noDebug": True,
                              "stopOnEntry": True})
    client.event("initialized")
    client.request("setBreakpoints", {"source": {"path": HELPERS}, "breakpoints": [{"line": 7}]})
    client.request("configurationDone")
    said = ""
    while "moves ran out" not in said:
        said += client.event("output")["body"]["output"]
    assert not [event for event in client.events if event["event"] == "stopped"]
    assert "error[G601]: division by zero (10 / 0)" in said
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_stream_that_goes_wrong_is_skipped_and_the_adapter_goes_on():
    client = Client()
    try:
        client.send_raw(b"Content-Length: %d\r\n\r\n" % (17 * 1024 * 1024) + b" " * (17 * 1024 * 1024))
        assert client.request("initialize", {"adapterID": "gdef"})["body"]["supportsStepBack"] is True
        client.send_raw(b"Content-Length: abc\r\n\r\n{\"seq\": 99}")
        client.request("threads")
        client.send_raw(b"X-Long: " + b"x" * 20000 + b"\r\n\r\n")
        client.request("threads")
        said = [event["body"]["output"] for event in client.events if event["event"] == "output"]
        assert said == ["gdef-dap: a message of the client was skipped: a message of 17,825,792 bytes is more "
                        "than 16,777,216: skipped\n",
                        "gdef-dap: a message of the client was skipped: bad Content-Length: 'abc'\n",
                        "gdef-dap: a message of the client was skipped: the header is too long\n"]
        client.request("disconnect", {})
        assert client.close() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.close()


def test_debug_this_move_from_the_web_board_stops_in_is_move_legal(web, client, tmp_path, monkeypatch):
    """The chain a person follows: a move refused on `gdef-run --web`'s board, its "Debug this
    move" (/api/debug) launch configuration given as it is to gdef-dap."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    run = web(GAME)
    for move in ("place(0,0,X)", "place(1,1,O)"):
        assert run.post("/api/move", {"move": move})[1]["accepted"] is True
    assert run.post("/api/move", {"move": "place(1,1,X)"})[1]["kind"] == "rejected"
    status, answer = run.post("/api/debug", {"move": "place(1,1,X)"})
    assert status == 200
    launch_arguments = answer["launch"]
    assert launch_arguments["resume"] == answer["record"] and answer["record"].startswith(str(tmp_path))
    status, refused = run.post("/api/debug", {"move": "place(1,1"})
    assert status == 400 and refused["error"].startswith("'place(1,1' is not a move: ")
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", launch_arguments)
    client.event("initialized")
    client.request("configurationDone")
    assert client.stopped("entry")["description"] == "Stopped where isMoveLegal() judges place(1,1,X)"
    assert client.frames() == [("isMoveLegal()", "rows.gdef", 20),
                               ("isMoveLegal() judging move 3: place(1,1,X)", None, 0)]
    assert client.variables()["Move"]["[0]"]["value"] == "place(1,1,X)"
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_second_configuration_done_does_not_play_the_game_twice(client):
    launch(client, "wins.moves", {}, stop_on_entry=True)
    answer = client.request("configurationDone", ok=False)
    assert answer["message"] == "configurationDone came before: the game has started"
    client.stopped("entry")
    client.request("continue", {"threadId": 1})
    client.event("terminated")
    assert not [event for event in client.events if event["event"] == "stopped"]
    said = [event["body"]["output"] for event in client.events if event["event"] == "output"]
    assert said.count("1. player 0: 0,0 (place(0,0,X))\n") == 1, said
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_condition_failing_at_run_time_is_said_once_and_other_threads_do_not_exist(client):
    # `10 / (x - 1) > 0` divides by zero at x == 1 on every call of countInRow: said the first time only
    launch(client, "wins.moves", {HELPERS: [{"line": 7, "condition": "10 / (x - 1) > 100"}]})
    client.event("terminated")
    said = [event["body"]["output"] for event in client.events if event["event"] == "output"]
    failures = [text for text in said if "cannot be evaluated" in text]
    assert failures == [f"{HELPERS}:7:5: the breakpoint's condition '10 / (x - 1) > 100' cannot be evaluated: "
                        "error[G601]: division by zero (10 / 0) (said once; the breakpoint does not stop where "
                        "it cannot be evaluated)\n"]
    for command in ("stackTrace", "pause", "exceptionInfo", "continue"):
        answer = client.request(command, {"threadId": 2}, ok=False)
        assert answer["message"] == "there is no thread 2"
    client.request("disconnect", {})
    assert client.close() == 0


def test_an_assignment_in_watch_hover_or_repl_is_refused_as_a_write(client):
    launch(client, "wins.moves", {GAME: [{"line": 29}]})
    client.stopped("breakpoint")
    for context in ("watch", "hover", "repl"):
        for text in ("placed = 3", "inRow=1", " spare [0] = 2"):
            answer = client.request("evaluate", {"expression": text, "frameId": client.top(), "context": context}, ok=False)
            assert answer["message"] == f"'{text.strip()}' assigns: the debugger's expressions are read-only"
    assert client.request("evaluate", {"expression": "placed == 1", "frameId": client.top(), "context": "watch"})["body"][
        "result"] == "true"
    assert client.request("evaluate", {"expression": "placed", "frameId": client.top(), "context": "repl"})["body"][
        "result"] == "1"
    client.request("disconnect", {})
    assert client.close() == 0


SPIN = """\
name: spin
players: 2
size: 3 x 3
obj X

define spin() -> int {
  int i = 0;
  while (i < 1000000000) {
    i = i + 1;
  }
  return i;
}

define isMoveLegal() -> bool { return true; }

define end() -> bool { return spin() > 0; }
"""


def test_pause_and_terminate_a_game_running_a_long_loop(client, tmp_path):
    game = tmp_path / "spin.gdef"
    game.write_text(SPIN)
    moves = tmp_path / "spin.moves"
    moves.write_text("place(0,0,X)\n")
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": str(game), "moves": str(moves)})
    client.event("initialized")
    client.request("setBreakpoints", {"source": {"path": str(game)}, "breakpoints": [{"line": 9, "hitCondition": "3"}]})
    client.request("configurationDone")
    client.stopped("breakpoint")    # in the loop: then it runs on, without breakpoints, until paused
    client.request("setBreakpoints", {"source": {"path": str(game)}, "breakpoints": []})
    client.request("continue", {"threadId": 1})
    client.request("pause", {"threadId": 1})
    client.stopped("pause")
    frames = client.frames()
    assert frames[0][:2] == ("spin()", "spin.gdef") and frames[0][2] in (8, 9)
    assert frames[1:] == [("end()", "spin.gdef", 16), ("end() after move 1: place(0,0,X)", "spin.moves", 1)]
    assert int(client.request("evaluate", {"expression": "i", "frameId": client.top()})["body"]["result"]) >= 0
    client.request("continue", {"threadId": 1})
    client.request("stackTrace", {"threadId": 1}, ok=False)   # running again
    client.request("terminate", {})
    client.event("terminated")
    client.request("terminate", {})   # once is enough: no second `terminated`
    client.request("disconnect", {"terminateDebuggee": True})
    assert not [event for event in client.events if event["event"] == "terminated"]
    assert client.close() == 0


def test_a_record_that_cannot_be_written_is_a_launch_error_and_an_ended_game_says_so(client, tmp_path):
    client.request("initialize", {"adapterID": "gdef"})
    missing = tmp_path / "no" / "such" / "record.json"
    answer = client.request("launch", {"program": GAME, "record": str(missing)}, ok=False)
    assert answer["message"] == (f"cannot debug {GAME}: cannot write the record {missing}: "
                                 f"there is no folder {missing.parent}")
    answer = client.request("launch", {"program": GAME, "record": str(tmp_path)}, ok=False)
    assert answer["message"] == f"cannot debug {GAME}: the record {tmp_path} is a folder: give a file name"
    record = tmp_path / "game.json"
    client.request("launch", {"program": GAME, "moves": str(GAMES / "wins.moves"), "record": str(record)})
    client.event("initialized")
    client.request("configurationDone")
    assert client.event("exited")["body"] == {"exitCode": 0}
    client.event("terminated")
    assert client.request("stackTrace", {"threadId": 1}, ok=False)["message"] == "the game has ended"
    assert len(json.loads(record.read_text())["moves"]) == 5
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_move_typed_by_its_name_in_the_debug_console_is_played(client):
    launch(client, "fails.moves", {}, filters=())
    said = ""
    while "moves ran out" not in said:
        said += client.event("output")["body"]["output"]
    client.request("evaluate", {"expression": "place(", "context": "repl"}, ok=False)
    answer = client.request("evaluate", {"expression": "placed", "context": "watch"}, ok=False)
    assert answer["message"] == ("the game waits for a move: type one in the debug console, or pause to look at the "
                                 "position (expressions are evaluated where it is stopped)")
    client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": [{"line": 20}]})
    played = client.request("evaluate", {"expression": "1,1", "context": "repl"})   # O's mark at 1,1, by name
    assert played["body"]["result"] == "played 1,1"
    client.stopped("breakpoint")
    assert client.frames() == [("isMoveLegal()", "rows.gdef", 20), ("isMoveLegal() judging move 2: 1,1", None, 0)]
    assert client.variables()["Move"]["[0]"]["value"] == "place(1,1,O)"
    client.request("disconnect", {})
    assert client.close() == 0


BIG = """\
name: big
players: 2
size: 3 x 3
obj X

define isMoveLegal() -> bool {
  int a[5000] = 0;
  a[4999] = 7;
  return a[4999] == 7;
}

define end() -> bool { return true; }
"""


def test_a_big_array_is_paged_and_never_sent_whole(client, tmp_path):
    game = tmp_path / "big.gdef"
    game.write_text(BIG)
    client.request("initialize", {"adapterID": "gdef", "supportsVariablePaging": True})
    client.request("launch", {"program": str(game)})
    client.event("initialized")
    client.request("setBreakpoints", {"source": {"path": str(game)}, "breakpoints": [{"line": 9}]})
    client.request("configurationDone")
    said = ""
    while "moves ran out" not in said:
        said += client.event("output")["body"]["output"]
    client.request("evaluate", {"expression": "place(0,0,X)", "context": "repl"})
    client.stopped("breakpoint")
    array = client.variables()["Locals"]["a"]
    assert (array["value"], array["indexedVariables"]) == ("[5000 elements]", 5000)
    reference = array["variablesReference"]
    page = client.request("variables", {"variablesReference": reference, "filter": "indexed", "start": 4990,
                                        "count": 20})["body"]["variables"]
    assert [(v["name"], v["value"], v["evaluateName"]) for v in page][-2:] == [("[4998]", "0", "a[4998]"),
                                                                              ("[4999]", "7", "a[4999]")]
    assert len(page) == 10
    whole = client.request("variables", {"variablesReference": reference})["body"]["variables"]
    assert len(whole) == 1001 and whole[999]["name"] == "[999]"
    assert whole[-1] == {"name": "...", "value": "4,000 more, not shown: ask for them by start and count, or "
                                                 "evaluate one", "variablesReference": 0}
    evaluated = client.request("evaluate", {"expression": "a", "frameId": client.top(), "context": "watch"})["body"]
    assert evaluated["indexedVariables"] == 5000
    client.request("disconnect", {})
    assert client.close() == 0


VSCODE_INITIALIZE = {"clientID": "vscode", "clientName": "Visual Studio Code", "adapterID": "gdef", "pathFormat": "path",
                     "linesStartAt1": True, "columnsStartAt1": True, "supportsVariableType": True,
                     "supportsVariablePaging": True, "supportsRunInTerminalRequest": True, "locale": "en",
                     "supportsProgressReporting": True, "supportsInvalidatedEvent": True,
                     "supportsMemoryReferences": True, "supportsArgsCanBeInterpretedByShell": True,
                     "supportsMemoryEvent": True, "supportsStartDebuggingRequest": True, "supportsANSIStyling": True}
NVIM_DAP_INITIALIZE = {"clientID": "neovim", "clientName": "neovim", "adapterID": "gdef", "pathFormat": "path",
                       "columnsStartAt1": True, "linesStartAt1": True, "supportsRunInTerminalRequest": True,
                       "supportsVariableType": True, "supportsProgressReporting": True,
                       "supportsStartDebuggingRequest": True, "locale": "en_US.UTF-8"}


def test_sessions_as_vs_code_and_nvim_dap_send_them(client_for):
    """Each editor's own initialize arguments and launch configuration (with the keys the editor
    adds), its order of requests after `initialized`, a stop looked at, a step and the end."""
    for initialize, extra in ((VSCODE_INITIALIZE, {"__configurationTarget": 6, "__sessionId": "4f1c"}),
                              (NVIM_DAP_INITIALIZE, {})):
        client = client_for()
        capabilities = client.request("initialize", initialize)["body"]
        filters = [f["filter"] for f in capabilities["exceptionBreakpointFilters"] if f["default"]]
        client.request("launch", {"type": "gdef", "request": "launch", "name": "Debug game", "program": GAME,
                                  "moves": str(GAMES / "wins.moves"), **extra})
        client.event("initialized")
        answer = client.request("setBreakpoints", {"source": {"name": "helpers.gdef", "path": HELPERS},
                                                   "breakpoints": [{"line": 7}], "lines": [7], "sourceModified": False})
        assert answer["body"]["breakpoints"] == [{"verified": True, "line": 7}]
        client.request("setExceptionBreakpoints", {"filters": filters})
        client.request("configurationDone")
        client.stopped("breakpoint")
        assert client.request("threads")["body"]["threads"] == [{"id": 1, "name": "game"}]
        frames = client.request("stackTrace", {"threadId": 1, "startFrame": 0, "levels": 20})["body"]
        assert [frame["name"] for frame in frames["stackFrames"]] == [
            "countInRow()", "check()", "end()", "end() after move 1: place(0,0,X)"]
        assert client.variables(frames["stackFrames"][0]["id"])["Locals"]["x"]["type"] == "int"
        client.request("next", {"threadId": 1, "granularity": "statement"})
        client.stopped("step")
        client.request("setBreakpoints", {"source": {"path": HELPERS}, "breakpoints": []})
        client.request("continue", {"threadId": 1})
        assert client.event("exited")["body"] == {"exitCode": 0}
        client.event("terminated")
        client.request("disconnect", {"restart": False, "terminateDebuggee": True, "suspendDebuggee": False})
        assert client.close() == 0


@pytest.fixture
def client_for():
    clients = []

    def start() -> Client:
        clients.append(Client())
        return clients[-1]

    yield start
    for client in clients:
        if client.process.poll() is None:
            client.process.kill()
            client.close()


def test_reverse_continue_without_an_earlier_hit_says_where_it_stopped(client):
    launch(client, "wins.moves", {}, stop_on_entry=True)
    assert client.stopped("entry")["description"] == "Stopped at the first statement"
    client.request("next", {"threadId": 1})
    client.stopped("step")
    client.request("reverseContinue", {"threadId": 1})
    body = client.stopped("entry")
    assert body["description"] == "Back at the first statement (no breakpoint was hit before)"
    assert client.frames()[0] == ("isMoveLegal()", "rows.gdef", 20)
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_refused_parameter_is_named_at_its_declaration_and_a_broken_game_says_its_errors(client, tmp_path):
    game = tmp_path / "spin.gdef"
    game.write_text(SPIN.replace("obj X\n", "obj X\nparam int n = 3 in 1 to 9;\n"))
    client.request("initialize", {"adapterID": "gdef"})
    answer = client.request("launch", {"program": str(game), "params": {"n": 12}}, ok=False)
    assert answer["message"] == f"cannot debug {game}: {game}:5:1: parameter 'n' cannot be 12: it takes 1 to 9"
    game.write_text(SPIN.replace("obj X\n", "obj X\nparam int n = 3 in 1 to;\n"))
    answer = client.request("launch", {"program": str(game), "params": {"n": 2}}, ok=False)
    assert answer["message"].startswith(f"cannot debug {game}: the game has 1 error:\n{game}:5:")
    client.request("disconnect", {})
    assert client.close() == 0


def test_an_expression_too_long_to_check_in_a_moment_is_refused_at_once(client):
    long = "y == 0" + " && y == 0" * 1200
    _, verified = launch(client, "wins.moves", {GAME: [{"line": 29, "condition": long}, {"line": 29}]})
    assert verified[GAME][0] == {"verified": False, "line": 29, "message": "the condition 'y == 0 && y == 0 && y == 0 "
                                 "&& y == 0 && y == 0 && ...': an expression is at most 10,000 characters (this one "
                                 "has 12,006)"}
    client.stopped("breakpoint")
    huge = "[" + "0," * 1_000_000 + "]"
    answer = client.request("evaluate", {"expression": huge, "frameId": client.top(), "context": "watch"}, ok=False)
    assert answer["message"] == "an expression is at most 10,000 characters (this one has 2,000,002)"
    client.request("disconnect", {})
    assert client.close() == 0


def test_conditions_are_checked_once_and_at_most_a_hundred_per_file(client):
    launch(client, "wins.moves", {})
    many = [{"line": 29, "condition": f"y == {i}"} for i in range(101)]
    answer = client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": many})["body"]["breakpoints"]
    assert answer[:100] == [{"verified": True, "line": 29}] * 100
    assert answer[100] == {"verified": False, "line": 29, "message": "more than 100 breakpoints of this file have a "
                                                                     "condition or a log message: this one is not set"}
    again = client.request("setBreakpoints", {"source": {"path": GAME}, "breakpoints": many[:3] + [{"line": 29}]})
    assert again["body"]["breakpoints"] == [{"verified": True, "line": 29}] * 4
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_move_typed_while_the_game_is_stopped_says_when_moves_are_played(client):
    launch(client, "wins.moves", {GAME: [{"line": 29}]})
    client.stopped("breakpoint")
    answer = client.request("evaluate", {"expression": "place(1,1,O)", "context": "repl", "frameId": client.top()},
                            ok=False)
    assert answer["message"] == ("column 1: no function named 'place'; did you mean 'addPlace'?; a move is played when "
                                 "the game waits for one (when the moves have run out): continue to there first")
    client.request("disconnect", {})
    assert client.close() == 0


def test_gdef_dap_answers_version_and_ends_quietly_on_ctrl_c():
    from support import ctrl_c_as_at_a_terminal

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shown = subprocess.run([sys.executable, "-m", "gdef_dap", "--version"], capture_output=True, text=True, env=env,
                           timeout=60)
    assert (shown.returncode, shown.stdout.split()[0]) == (0, "gdef-dap")
    process = subprocess.Popen([sys.executable, "-m", "gdef_dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, preexec_fn=ctrl_c_as_at_a_terminal)
    try:
        body = b'{"seq": 1, "type": "request", "command": "initialize", "arguments": {"adapterID": "gdef"}}'
        process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        process.stdin.flush()
        assert process.stdout.readline().startswith(b"Content-Length: ")   # it is up and reading
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert (process.returncode, err) == (130, b"")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


# Each capability gdef-dap claims, and a request that uses it (answered as something it knows).
CLAIMED = {"supportsConfigurationDoneRequest": "configurationDone", "supportsConditionalBreakpoints": "setBreakpoints",
           "supportsHitConditionalBreakpoints": "setBreakpoints", "supportsLogPoints": "setBreakpoints",
           "supportsStepBack": "stepBack", "supportsEvaluateForHovers": "evaluate",
           "supportsTerminateRequest": "terminate", "supportsExceptionInfoRequest": "exceptionInfo"}
NOT_CLAIMED = ("setVariable", "restart", "setFunctionBreakpoints", "setDataBreakpoints", "completions", "source",
               "loadedSources", "cancel", "attach", "breakpointLocations", "stepInTargets", "goto", "gotoTargets",
               "setExpression", "modules", "disassemble", "readMemory", "restartFrame")


def test_every_capability_claimed_has_its_request_and_the_others_are_refused(client):
    capabilities, _ = launch(client, "wins.moves", {GAME: [{"line": 29}]})
    claimed = {name for name, value in capabilities.items() if name.startswith("supports") and value is True}
    assert claimed == set(CLAIMED)
    client.stopped("breakpoint")
    for command in NOT_CLAIMED:
        answer = client.request(command, {"threadId": 1}, ok=False)
        assert answer["message"] == f"unknown request '{command}'"
    for command in sorted(set(CLAIMED.values())):   # terminate last: it needs no arguments
        seq = client.send({"type": "request", "command": command, "arguments": {}})
        answer = client.response(seq, command, ok=command == "terminate")   # the others miss theirs
        assert not answer.get("message", "").startswith("unknown request"), answer
    client.request("disconnect", {})
    assert client.close() == 0


def said_until(client: Client, event: str) -> str:
    """The output events' text up to the first `event`."""
    said = ""
    while True:
        message = client._next()
        if message["type"] == "event" and message["event"] == event:
            return said
        if message["type"] == "event" and message["event"] == "output":
            said += message["body"]["output"]


def test_a_no_debug_game_refuses_pause_and_terminate_ends_it_before_the_next_line(client, tmp_path):
    slow = tmp_path / "slow.gdef"
    slow.write_text("name: slow\nplayers: 1\nsize: 2 x 1\nobj X\n"
                    "define isMoveLegal() -> bool {\n  int i = 0;\n  while (i < 300000) { i = i + 1; }\n"
                    "  return true;\n}\ndefine end() -> bool { return false; }\n")
    moves = tmp_path / "slow.moves"
    moves.write_text("place(0,0,X)\n" * 200)
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": str(slow), "moves": str(moves), "noDebug": True})
    client.event("initialized")
    client.request("configurationDone")
    said = ""
    while "1. player 0" not in said:
        said += client.event("output")["body"]["output"]
    answer = client.request("pause", {"threadId": 1}, ok=False)
    assert answer["message"] == ("the game runs without debugging (noDebug), so it never stops: start it with "
                                 "debugging to pause it")
    played = said.count(". player 0") + sum(event["body"]["output"].count(". player 0")
                                            for event in client.events if event["event"] == "output")
    client.events.clear()
    client.request("terminate", {})
    client.request("disconnect", {})
    while (message := client.messages.get(timeout=30)) is not None:
        client.events.append(message)
    later = "".join(event["body"]["output"] for event in client.events if event.get("event") == "output")
    assert later.count(". player 0") <= 2 and played < 200   # the move under way, at most one after it
    assert [event["event"] for event in client.events if event.get("event") in ("terminated", "stopped")] == [
        "terminated"]
    assert client.close() == 0


def test_a_record_the_debugger_cannot_write_is_named_as_the_launchs(client, tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": GAME, "moves": str(GAMES / "wins.moves"), "record": str(link)})
    client.event("initialized")
    client.request("configurationDone")
    said = said_until(client, "exited")
    assert f"gdef-dap: error: the launch's \"record\" {link} is a symbolic link: a record is never written" in said
    assert "gdef-run" not in said and target.read_text() == "{}"
    client.request("disconnect", {})
    assert client.close() == 0


def test_a_move_scripts_header_starts_the_debugged_game_where_it_says(client, tmp_path):
    moves = tmp_path / "end.moves"
    moves.write_text("# from: empty   # row 0 nearly full\n# board: place(0,0,X); place(1,0,X)\n# turn: 0\n"
                     "place(2,0,X)\n? over winner 0\n")
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": GAME, "moves": str(moves)})
    client.event("initialized")
    client.request("configurationDone")
    assert client.event("exited")["body"] == {"exitCode": 0}
    client.request("disconnect", {})
    assert client.close() == 0
    with initialized_client() as again:
        moves.write_text("# board: place(0,0,X)\n# board: place(7,7,X)\nplace(2,0,X)\n")
        answer = again.request("launch", {"program": GAME, "moves": str(moves)}, ok=False)
        assert answer["message"] == (f"cannot debug {GAME}: {moves}:2:10: the start position does not fit rows: "
                                     "place(7,7,X) names square (7, 7), which is off the 3x3 board (x from 0 to 2, "
                                     "y from 0 to 2)")
        moves.write_text("# turn: O\nplace(2,0,X)\n")
        answer = again.request("launch", {"program": GAME, "moves": str(moves)}, ok=False)
        assert answer["message"] == f"cannot debug {GAME}: {moves}:1:9: `O` is not a player: write `# turn: P | chance then P`"
        record = tmp_path / "so-far.json"
        record.write_text(json.dumps({"game": "rows", "files": [GAME], "players": 2, "rejected": [],
                                      "moves": [{"player": 0, "move": "place(1,1,X)"}]}))
        moves.write_text("\n# turn: 1\nplace(2,0,O)\n")
        answer = again.request("launch", {"program": GAME, "moves": str(moves), "resume": str(record)}, ok=False)
        assert answer["message"] == (f"cannot debug {GAME}: {moves}:2:9: the script's header writes where it starts, "
                                     f"and 'resume' names {record}: drop one of them")


SIZED = """\
name: sized
players: 2
param int n = 3 in 1 to 9;
size: n x n
obj X

define isMoveLegal() -> bool {
  return true;
}

define end() -> bool { return moveNumber() >= 8; }
"""


def test_a_scripts_param_lines_load_the_debugged_game_and_moves_are_numbered_as_move_number_counts(client, tmp_path):
    game, moves = tmp_path / "sized.gdef", tmp_path / "far.moves"
    game.write_text(SIZED)
    moves.write_text("# param: n=5   # a 5x5 board\n# move: 7\nplace(4,4,X)\n")
    client.request("initialize", {"adapterID": "gdef"})
    client.request("launch", {"program": str(game), "moves": str(moves)})
    client.event("initialized")
    client.request("setBreakpoints", {"source": {"path": str(game)}, "breakpoints": [{"line": 8}]})
    client.request("configurationDone")
    client.stopped("breakpoint")  # place(4,4,X) is on the board: n is 5
    assert client.frames() == [("isMoveLegal()", "sized.gdef", 8),
                               ("isMoveLegal() judging move 8: place(4,4,X)", "far.moves", 3)]
    client.request("continue", {"threadId": 1})
    assert client.event("exited")["body"] == {"exitCode": 0}
    client.request("disconnect", {})
    assert client.close() == 0
    with initialized_client() as again:
        answer = again.request("launch", {"program": str(game), "moves": str(moves), "params": {"n": 4}}, ok=False)
        assert answer["message"] == (f"cannot debug {game}: {moves}:1:10: the script is played with n=5, and the "
                                     "launch's \"params\" sets n=4: its moves are written for its own value (drop one "
                                     "of the two)")
        moves.write_text("# param: n=12\nplace(4,4,X)\n")
        answer = again.request("launch", {"program": str(game), "moves": str(moves)}, ok=False)
        assert answer["message"] == f"cannot debug {game}: {moves}:1:10: # param: parameter 'n' cannot be 12: it takes 1 to 9"
