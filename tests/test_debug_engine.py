"""The debugger's engine (gdef_core.debug) without the protocol: what the adapter's test does
not reach."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from debug_support import Listener
from gdef_core.debug.engine import DebugLoadError, DebugSession, LaunchOptions
from gdef_core.debug.values import scopes

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = str(ROOT / "examples" / "checkers.gdef")


def line_of(path: str, start: str, after: int = 0) -> int:
    """The 1-based line of the first line starting with `start`, plus `after`."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start)) + after


def where(stop) -> list[tuple[str, int | None]]:
    return [(frame.name, frame.span.line + 1 if frame.span else None) for frame in stop.frames]


def test_stop_on_entry_stops_in_setup_and_step_back_returns_there(tmp_path):
    script = tmp_path / "two.moves"
    script.write_text("clear(0,2); place(1,3,W)   # a first move\n", encoding="utf-8")
    listener = Listener()
    session = DebugSession(LaunchOptions([CHECKERS], str(script), stop_on_entry=True), listener)
    session.start()
    try:
        kind, stop = listener.next()
        assert (kind, stop.reason) == ("stopped", "entry")
        assert where(stop) == [("setup", line_of(CHECKERS, "define setup()", 1)), ("setup()", None)]
        assert [group.name for group in scopes(session._scope(stop, 0), True)] == \
            ["Locals", "Game variables", "Positions"]
        end = line_of(CHECKERS, "define end()")  # its next two lines are a comment
        session.set_breakpoints(CHECKERS, [{"line": end}])  # 0-based: the line after `define end()`
        session.resume("continue")
        kind, stop = listener.next()
        assert stop.reason == "breakpoint"
        assert where(stop) == [("end", end + 3), ("end() after move 1: clear(0,2); place(1,3,W)", 1)]
        session.resume("back")
        kind, stop = listener.next()
        assert (stop.reason, stop.frames[-1].name.split(" ")[0]) == ("step", "isMoveLegal()")
    finally:
        session.quit()
    assert sys.gettrace() is None  # this thread was never traced


def test_a_game_with_errors_cannot_be_debugged(tmp_path):
    broken = tmp_path / "broken.gdef"
    broken.write_text("name: b\nplayers: 2\nsize: 3 x 3\ndefine end() -> bool { return nope; }\n", encoding="utf-8")
    with pytest.raises(DebugLoadError, match="nope"):
        DebugSession(LaunchOptions([str(broken)]), Listener())
    with pytest.raises(DebugLoadError, match="cannot read the move script"):
        DebugSession(LaunchOptions([CHECKERS], str(tmp_path / "missing.moves")), Listener())


ROWS = str(ROOT / "tests" / "data" / "debug" / "rows.gdef")
HELPERS = str(ROOT / "tests" / "data" / "debug" / "helpers.gdef")


def test_watches_are_gdef_expressions_checked_and_compiled_and_change_nothing():
    from gdef_core.debug.expressions import EvaluationError, show

    listener = Listener()
    session = DebugSession(LaunchOptions([ROWS], str(ROOT / "tests" / "data" / "debug" / "wins.moves")), listener)
    session.set_breakpoints(HELPERS, [{"line": 6}])  # `if (CurrentPosition[x][y] == m)`
    session.start()
    try:
        kind, stop = listener.next()
        assert where(stop)[0] == ("countInRow", 7)

        def value(text: str, frame: int = 0) -> str:
            return show(session.evaluate(text, frame))

        assert value("y * 10 + 2") == "2"
        assert value("countInRow(0, m) + placed") == "2"   # a function of the game, a game variable
        assert value("markOf(onTurn())") == "X"
        assert value("CurrentPosition[x][y] == m && x == 0") == "true"
        assert value("1.5 * 2") == "3.0"
        assert value("y + 100", 1) == "100"   # in the frame of check(), whose y is 0
        for text, message in [("placed / 0", "error[G601]: division by zero (1 / 0)"),
                              ("nosuch + 1", "column 1: 'nosuch' is not declared"),
                              ("x +", "column 4: expected an expression"),
                              ("setWinner(0)", "column 1: 'setWinner' returns nothing"),
                              ("CurrentPosition[5][5]", "error[G603]: square (5, 5) is off the board")]:
            with pytest.raises(EvaluationError) as raised:
                session.evaluate(text, 0)
            assert str(raised.value).startswith(message), (text, str(raised.value))
        with pytest.raises(EvaluationError, match="G611"):
            session.evaluate("end()", 0)   # end() assigns a game variable: refused, nothing changed
        assert value("placed") == "1"
        assert value("CurrentPosition[0][0]") == "X" and value("CurrentPosition[1][0]") == "empty"
    finally:
        session.quit()


def stops_until_finished(session, listener) -> list:
    """Every stop until the game ends (each one continued), then the exit code."""
    stops = []
    while True:
        kind, stop = listener.next()
        if kind == "finished":
            return stops + [stop]
        if kind == "waiting":
            session.quit()
            return stops + ["waiting"]
        stops.append(stop.frames[-1].name)
        session.resume("continue")


def test_isMoveLegal_stops_only_where_a_move_of_the_game_is_judged(tmp_path):
    # naming a move lists the legal moves (isMoveLegal() for every candidate): untraced; a move
    # written by its name (`1,1`) is judged where the debugger sees it all the same
    script = tmp_path / "named.moves"
    script.write_text("place(0,0,X)\n1,1\n? moves 7\n", encoding="utf-8")
    listener = Listener()
    session = DebugSession(LaunchOptions([ROWS], str(script)), listener)
    session.set_breakpoints(ROWS, [{"line": 20}])  # isMoveLegal(): int x = ...
    session.start()
    try:
        stops = stops_until_finished(session, listener)
    finally:
        session.quit()
    assert stops[:2] == ["isMoveLegal() judging move 1: place(0,0,X)", "isMoveLegal() judging move 2: 1,1"]
    # the `? moves 7` line asks for the listing: each candidate is judged where it can be seen
    from gdef_core import load_game

    state = load_game([ROWS]).new_state()
    for move in ("place(0,0,X)", "place(1,1,O)"):
        state.apply(move)
    candidates = len([move for move in state.candidate_moves() if str(move) != "pass"])  # pass: only when
    # nothing else is legal (spec section 12)
    assert stops[2:] == ["isMoveLegal() listing the legal moves before move 3"] * candidates + ["waiting"]


def test_debug_move_on_a_resumed_record_stops_where_isMoveLegal_judges_it(tmp_path):
    from gdef_core import load_game
    from gdef_core.runtime.session import Session

    session = Session(load_game([ROWS]), [ROWS])
    for move in ("place(0,0,X)", "place(1,1,O)"):
        assert session.play(move).accepted
    record = tmp_path / "so-far.json"
    session.save(str(record))
    before = record.read_bytes()
    listener = Listener()
    debugger = DebugSession(LaunchOptions([ROWS], resume=str(record), debug_move="place(1,1,X)"), listener)
    debugger.set_breakpoints(ROWS, [{"line": 33}])  # end(): the replayed moves do not stop there
    debugger.start()
    try:
        kind, stop = listener.next()
        assert (kind, stop.reason, stop.description) == \
            ("stopped", "entry", "Stopped where isMoveLegal() judges place(1,1,X)")
        assert where(stop) == [("isMoveLegal", 20), ("isMoveLegal() judging move 3: place(1,1,X)", None)]
        assert show_square(debugger, stop, "CurrentPosition[1][1]") == "O"
        debugger.resume("over")
        kind, stop = listener.next()
        assert where(stop)[0] == ("isMoveLegal", 21)
        debugger.resume("back")   # back to the first statement of the move's judgement
        kind, stop = listener.next()
        assert where(stop)[0] == ("isMoveLegal", 20)
        debugger.resume("continue")   # refused: the game waits for a move
        assert listener.next()[0] == "waiting"
    finally:
        debugger.quit()
    assert record.read_bytes() == before   # the resumed record is not written


def show_square(debugger, stop, text: str) -> str:
    from gdef_core.debug.expressions import show

    return show(debugger.evaluate(text, 0))


def test_a_resumed_record_replays_untraced_after_setup(tmp_path):
    from gdef_core import load_game
    from gdef_core.runtime.session import Session

    session = Session(load_game([CHECKERS]), [CHECKERS])
    assert session.play("clear(0,2); place(1,3,W)").accepted
    record = tmp_path / "one.json"
    session.save(str(record))

    def logged_until_waiting(resume: str | None) -> list[str]:
        """The logpoint lines of setup() and end() until the game waits for a move."""
        listener = Listener()
        lines = []
        listener.output = lambda category, text: lines.append(text)
        debugger = DebugSession(LaunchOptions([CHECKERS], resume=resume), listener)
        debugger.set_breakpoints(CHECKERS, [{"line": line_of(CHECKERS, "define setup()"), "log_message": "setup"},
                                            {"line": line_of(CHECKERS, "define end()"), "log_message": "end"}])
        debugger.start()
        try:
            assert listener.next()[0] == "waiting"
        finally:
            debugger.quit()
        return [line for line in lines if line in ("setup\n", "end\n")]

    fresh = logged_until_waiting(None)
    assert fresh and set(fresh) == {"setup\n"}
    # the record's setup() and its move (end() after it) are replayed untraced: the same lines
    assert logged_until_waiting(str(record)) == fresh


def test_a_stop_in_kalah_shows_its_counts_and_its_move_of_counts(tmp_path):
    """Squares that count in the debugger: the Move scope writes count operations, Positions
    holds the counts beside the objects, and watches read them."""
    from gdef_core.debug.expressions import show

    kalah = str(ROOT / "examples" / "kalah.gdef")
    script = tmp_path / "one.moves"
    script.write_text("d1\n", encoding="utf-8")
    listener = Listener()
    session = DebugSession(LaunchOptions([kalah], str(script)), listener)
    session.set_breakpoints(kalah, [{"line": line_of(kalah, "define end()")}])
    session.start()
    try:
        kind, stop = listener.next()
        assert stop.reason == "breakpoint"
        groups = {group.name: group.nodes for group in scopes(session._scope(stop, 0), True)}
        assert [node.value for node in groups["Move"]][:2] == ["count(3,0,0)", "count(4,0,5)"]
        assert [node.name for node in groups["Positions"]] == [
            "CurrentPosition", "CurrentCount", "PreviousPosition", "PreviousCount", "ResultPosition", "ResultCount"]
        rows = groups["Positions"][1].children()
        assert [row.value for row in rows] == ["0 4 4 4 4 4 4 0", "0 4 4 0 5 5 5 1"]
        assert [show(session.evaluate(text, 0)) for text in
                ("CurrentCount[7][0]", "PreviousCount[3][0]", "OperationList[0][3]", "OperationList[1][3]",
                 "ResultCount[7][0]")] \
            == ["1", "4", "0", "5", "1"]
    finally:
        session.quit()
