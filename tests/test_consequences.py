"""Consequences of a move (docs/language.md, "Consequences of a move"): addPlace/addClear in
end() change the position at once, in isMoveLegal() the scratch copy ResultPosition; the
checker's G420 (addCount's too); the step budget; undo, records and --resume recompute them (Go's captures)."""
from __future__ import annotations

import json
import subprocess

import pytest

from debug_support import Listener
from support import ROOT, console_script
from gdef_core import IllegalMoveError, load_game, parse
from gdef_core.debug.engine import DebugSession, LaunchOptions
from gdef_core.debug.values import scopes
from gdef_core.semantics.checker import check

GDEF_RUN = console_script("gdef-run")
GO9 = str(ROOT / "examples" / "go" / "go9.gdef")

# end() makes consequences: what it saw is kept in game variables for the test to read.
END_GAME = """players: 1
size: 4 x 1
obj X
bool shown = false;    // CurrentPosition and ResultPosition showed the consequence at once
bool kept = false;     // PreviousPosition and OperationList still described the player's move
define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  int x = OperationList[0][0];
  if (x == 0) {
    addPlace(1, 0, X);
    shown = CurrentPosition[1][0] == X && ResultPosition[1][0] == X;
    kept = PreviousPosition[1][0] == empty && operationsNum() == 1 && OperationList[0][0] == 0;
  }
  if (x == 2) { addClear(0, 0); addPlace(3, 0, X); return true; }   // the end: consequences kept
  if (x == 3) { addClear(0, 0); return 1 / (x - 3) == 0; }          // fails: discarded with the move
  return false;
}
"""


def squares(state) -> str:
    return "".join("X" if str(state.board[x, 0]) == "X" else "." for x in range(state.game.width))


def test_end_changes_the_position_at_once(tmp_path):
    path = tmp_path / "end.gdef"
    path.write_text(END_GAME)
    state = load_game(str(path)).new_state()
    state.apply("place(0,0,X)")
    assert squares(state) == "XX.."
    assert state.variables["shown"] and state.variables["kept"]
    with pytest.raises(IllegalMoveError) as failed:
        state.apply("place(3,0,X)")
    assert failed.value.verdict.error.code == "G601"
    assert squares(state) == "XX.." and state.move_number == 1   # nothing of the move is left
    state.apply("place(2,0,X)")
    assert state.is_over and squares(state) == ".XXX"


# isMoveLegal() makes consequences on a scratch copy: ResultPosition starts as NextPosition,
# and the game never sees them.
JUDGE_GAME = """players: 1
size: 3 x 1
obj X
define isMoveLegal() -> bool {
  if (operationsNum() != 1) { return false; }
  int x = OperationList[0][0];
  if (ResultPosition[x][0] != X || NextPosition[x][0] != X) { return false; }
  addClear(x, 0);
  if (x > 0) { addPlace(x - 1, 0, X); }
  return ResultPosition[x][0] == empty && NextPosition[x][0] == X && CurrentPosition[x][0] == empty
    && (x == 0 || ResultPosition[x - 1][0] == X);
}
define end() -> bool { return false; }
"""


def test_is_move_legal_changes_a_scratch_copy_only(tmp_path):
    path = tmp_path / "judge.gdef"
    path.write_text(JUDGE_GAME)
    state = load_game(str(path)).new_state()
    assert [str(move) for move in state.legal_moves()] == ["place(0,0,X)", "place(1,0,X)", "place(2,0,X)"]
    assert all(str(state.board[x, 0]) == "empty" for x in range(3))
    state.apply("place(2,0,X)")   # the consequences of the judgement were not made
    assert [str(state.board[x, 0]) for x in range(3)] == ["empty", "empty", "X"]


# A function reached from moves() and isMoveLegal() that calls addClear, or addCount: G420, both paths.
DOUBLE = """players: 2
size: 3 x 3
obj X
define take(int x, int y) {
  addClear(x, y);
}
define moves() { addPlace(0, 0, X); take(1, 1); addMove(); }
define isMoveLegal() -> bool { judge(); return true; }
define judge() { take(0, 0); }
define end() -> bool { take(2, 2); addPlace(0, 1, X); return false; }
"""
DOUBLE_COUNT = """players: 2
size: 3 x 3
define sow(int x, int y) {
  addCount(x, y, 1);
}
define moves() { sow(1, 1); addMove(); }
define isMoveLegal() -> bool { judge(); return true; }
define judge() { sow(0, 0); }
define end() -> bool { sow(2, 2); return ResultCount[2][2] == 1; }
"""


@pytest.mark.parametrize("text, line, message", [
    (DOUBLE, 5, "'addClear()' builds a candidate move when moves() reaches it (moves() -> take() -> addClear()) "
                "but changes ResultPosition when isMoveLegal() does (isMoveLegal() -> judge() -> take() -> "
                "addClear()): write one function for each"),
    (DOUBLE_COUNT, 4, "'addCount()' builds a candidate move when moves() reaches it (moves() -> sow() -> addCount()) "
                      "but changes ResultCount when isMoveLegal() does (isMoveLegal() -> judge() -> sow() -> "
                      "addCount()): write one function for each"),
], ids=["clear", "count"])
def test_a_consequence_reached_from_moves_and_is_move_legal_is_g420(text, line, message):
    result = parse(text, "double.gdef")
    errors = check([result.module], result.diagnostics).errors
    assert [(d.code, d.span.line + 1, d.span.column + 1, d.span.end_column + 1) for d in errors] == [("G420", line, 3, 11)]
    assert errors[0].message == message


def test_addmove_is_still_g411_in_end():
    result = parse("players: 1\nsize: 2 x 2\nobj X\ndefine isMoveLegal() -> bool { return true; }\n"
                   "define end() -> bool { addClear(0, 0); addMove(); return false; }\n", "g411.gdef")
    errors = check([result.module], result.diagnostics).errors
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in errors] == [("G411", 5, 40)]


@pytest.mark.parametrize("consequence, fails", [("addClear(0, 0);", True), ("", False)])
def test_each_consequence_is_a_step(tmp_path, consequence, fails):
    path = tmp_path / "steps.gdef"
    path.write_text("players: 1\nsize: 2 x 1\nobj X\n"
                    "define isMoveLegal() -> bool { return true; }\n"
                    f"define end() -> bool {{ for (int i = 0; i < 40; i = i + 1) {{ {consequence} }} return false; }}\n")
    state = load_game(str(path), max_steps=60).new_state()
    if fails:
        with pytest.raises(IllegalMoveError) as failed:
            state.apply("place(1,0,X)")
        assert failed.value.verdict.error.code == "G607"
    else:
        state.apply("place(1,0,X)")


def test_a_consequence_off_the_board_is_g603(tmp_path):
    path = tmp_path / "off.gdef"
    path.write_text("players: 1\nsize: 2 x 1\nobj X\n"
                    "define isMoveLegal() -> bool { addPlace(5, 0, X); return true; }\n"
                    "define end() -> bool { return false; }\n")
    verdict = load_game(str(path)).new_state().check("place(0,0,X)")
    assert verdict.error.code == "G603"
    assert (verdict.error.span.line + 1, verdict.error.span.column + 1) == (4, 32)


# Go on 5 x 5: Black A2, White A1, Black B1 takes the white stone on A1 (typed as the stone
# alone); the console shows the board without it.
CAPTURE = ["A2", "A1", "B1"]
BEFORE = "1 W + + + + 1"
AFTER = "1 + B + + + 1"


def run(*args: str, typed: str = "") -> str:
    done = subprocess.run([GDEF_RUN, *args, "--ascii"], input=typed, capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    return done.stdout


def test_the_console_shows_the_capture_and_undo_brings_it_back(tmp_path):
    out = run(GO9, "--param", "board_size=5", "--record", str(tmp_path / "game.json"),
              typed="\n".join([*CAPTURE, "undo", "quit"]) + "\n")
    after_capture, after_undo = out.split("Black> B1\n", 1)[1].split("Took back the last move.", 1)
    assert AFTER in after_capture and BEFORE not in after_capture
    assert BEFORE in after_undo.split("Black>", 1)[0]


def test_the_record_holds_the_stone_and_resume_recomputes_the_capture(tmp_path):
    record = tmp_path / "game.json"
    run(GO9, "--param", "board_size=5", "--record", str(record), typed="\n".join([*CAPTURE, "quit"]) + "\n")
    saved = json.loads(record.read_text())
    assert [(m["move"], m["name"]) for m in saved["moves"]] == [
        ("place(0,1,B)", "A2"), ("place(0,0,W)", "A1"), ("place(1,0,B)", "B1")]
    out = run("--resume", str(record), typed="quit\n")
    board = out.split("White>", 1)[0]
    assert AFTER in board and BEFORE not in board


def test_the_debugger_shows_result_position_while_the_capture_is_judged(tmp_path):
    """Stopped in isMoveLegal() after Go's capture() on the scratch copy: ResultPosition is a
    board without the white stone on A1, NextPosition and CurrentPosition still hold it."""
    script = tmp_path / "capture.moves"
    script.write_text("A2\nA1\n", encoding="utf-8")
    rules = str(ROOT / "examples" / "go" / "rules.gdef")
    line = next(i for i, text in enumerate(open(rules, encoding="utf-8").read().split("\n"))
                if "if (suicide(x, y, me))" in text)
    listener = Listener()
    session = DebugSession(LaunchOptions([GO9], str(script), debug_move="B1", params={"board_size": "5"}),
                           listener)
    session.start()
    try:
        kind, stop = listener.next()
        assert kind == "stopped"
        session.set_breakpoints(rules, [{"line": line}])
        session.resume("continue")
        kind, stop = listener.next()
        assert (kind, stop.reason) == ("stopped", "breakpoint")
        boards = {node.name: node for group in scopes(session._scope(stop, 0), True) if group.name == "Positions"
                  for node in group.nodes}
        assert list(boards) == ["CurrentPosition", "NextPosition", "ResultPosition"]
        corner = {name: board.children()[-1].children()[0].value for name, board in boards.items()}
        assert corner == {"CurrentPosition": "W", "NextPosition": "W", "ResultPosition": "empty"}
        assert boards["ResultPosition"].children()[-1].children()[1].value == "B"   # the stone played
    finally:
        session.quit()


# end() clears the square its move took: repetitions() and hasLegalMove() see the position with
# that consequence (the start position again, with a legal move).
SEEN_GAME = """players: 1
size: 1 x 1
obj X
define isMoveLegal() -> bool { return CurrentPosition[0][0] == empty && !nextBoardSeen(); }
define end() -> bool {
  addClear(0, 0);
  if (repetitions() == 1 && hasLegalMove()) { setWinner(0); }   // without it: 0, and no move
  return true;
}
"""


def test_repetitions_and_has_legal_move_see_the_consequences(tmp_path):
    path = tmp_path / "seen.gdef"
    path.write_text(SEEN_GAME)
    state = load_game(str(path)).new_state()
    state.apply("place(0,0,X)")
    assert str(state.board[0, 0]) == "empty" and state.is_over and state.winner == 0
