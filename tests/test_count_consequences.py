"""Counts as consequences of a move (docs/language.md, "Consequences of a move"): addCount in
end() sets a count at once, in isMoveLegal() on the scratch copy whose counts ResultCount reads;
the order of consequences on one square; the checker (G309, G201 gone; G420 for addCount is
tests/test_consequences.py's); the step budget,
G603, a failed end() and undo; nextBoardSeen() and repetitions() after count consequences;
the debugger's ResultCount. (Both native routes: tests/test_native_consequences.py.)"""
from __future__ import annotations

import pytest

from support import EXAMPLES
from gdef_core import IllegalMoveError, load_game, parse
from gdef_core.semantics.checker import check


def game_of(tmp_path, text: str, name: str = "game", **options):
    path = tmp_path / f"{name}.gdef"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path), **options)


def counts(state) -> list[int]:
    return [state.board.count(x, 0) for x in range(state.game.width)]


def objects(state) -> str:
    return "".join("X" if str(state.board[x, 0]) == "X" else "." for x in range(state.game.width))


# end() sets counts at once: what it saw is kept in game variables for the test to read.
END_GAME = """players: 1
size: 4 x 1
obj X
bool shown = false;    // CurrentCount and ResultCount showed the count at once, the object stayed
bool kept = false;     // PreviousCount and OperationList still described the player's move
define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  int x = OperationList[0][0];
  if (x == 0) {
    addCount(0, 0, 5);
    shown = CurrentCount[0][0] == 5 && ResultCount[0][0] == 5 && CurrentPosition[0][0] == X;
    kept = PreviousCount[0][0] == 0 && operationsNum() == 1 && OperationList[0][3] == 0;
    addCount(1, 0, 3); addClear(1, 0);   // a later clear resets the count: 0
    addClear(2, 0); addCount(2, 0, 4);   // a later count is kept: 4
  }
  if (x == 1) { addPlace(2, 0, X); }     // a place resets the count
  if (x == 3) { addCount(0, 0, 9); return 1 / (x - 3) == 0; }   // fails: discarded with the move
  return false;
}
"""


def test_add_count_in_end_sets_the_count_at_once_in_the_order_made(tmp_path):
    state = game_of(tmp_path, END_GAME).new_state()
    state.apply("place(0,0,X)")
    assert (objects(state), counts(state)) == ("X...", [5, 0, 4, 0])
    assert state.variables["shown"] and state.variables["kept"]
    with pytest.raises(IllegalMoveError) as failed:
        state.apply("place(3,0,X)")
    assert failed.value.verdict.error.code == "G601"
    assert (objects(state), counts(state), state.move_number) == ("X...", [5, 0, 4, 0], 1)
    state.apply("place(1,0,X)")
    assert (objects(state), counts(state)) == ("XXX.", [5, 0, 0, 0])


def test_undo_restores_the_counts_end_changed(tmp_path):
    state = game_of(tmp_path, END_GAME).new_state()
    start = state.clone()
    move = state.legal_moves()[0]
    point = state.undo_point(move)
    state.apply(move)
    assert counts(state) == [5, 0, 4, 0]
    state.restore(point)
    assert state == start and counts(state) == [0, 0, 0, 0]


# isMoveLegal() sets counts on the scratch copy: ResultCount starts as NextCount and the game
# never sees them. A move is judged by the counts after its consequences (the square sown is
# emptied into the next one, which may not reach 3).
JUDGE_GAME = """players: 1
size: 3 x 1
define moves() {
  for (int x = 0; x < 3; x = x + 1) { addCount(x, 0, CurrentCount[x][0] + 1); addMove(); }
}
define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  if (ResultCount[x][0] != NextCount[x][0] || NextCount[x][0] != CurrentCount[x][0] + 1) { return false; }
  addCount(x, 0, 0);
  if (x + 1 < 3) { addCount(x + 1, 0, ResultCount[x + 1][0] + NextCount[x][0]); }
  int last = ResultCount[2][0];
  return ResultCount[x][0] == 0 && NextCount[x][0] == OperationList[0][3] && last < 3;
}
define end() -> bool { return false; }
"""


def test_is_move_legal_sets_counts_of_a_scratch_copy_only(tmp_path):
    state = game_of(tmp_path, JUDGE_GAME).new_state()
    assert [str(move) for move in state.legal_moves()] == ["count(0,0,1)", "count(1,0,1)", "count(2,0,1)"]
    state.apply("count(2,0,1)")   # the consequences of the judgement were not made
    state.apply("count(2,0,2)")
    assert counts(state) == [0, 0, 2]
    # count(1,0,1) would empty (1, 0) into (2, 0): 3 there after its consequences, refused
    assert [str(move) for move in state.legal_moves()] == ["count(0,0,1)", "count(2,0,3)"]
    assert not state.check("count(1,0,1)").legal
    assert counts(state) == [0, 0, 2]


@pytest.mark.parametrize("text, expected", [
    # a count board is indexed twice and holds ints
    ("define isMoveLegal() -> bool { return ResultCount[0] == 0; }", [("G309", 4, 39)]),
    ("define isMoveLegal() -> bool { return ResultCount[0][0] == X; }", [("G301", 4, 39)]),
    # addCount is allowed wherever addPlace is: no G411 in end() and isMoveLegal()
    ("define isMoveLegal() -> bool { addCount(0, 0, 1); return ResultCount[0][0] == 1; }", []),
])
def test_the_checker_reads_result_count_as_a_count_board(text, expected):
    result = parse("players: 1\nsize: 2 x 2\nobj X\n" + text + "\n"
                   "define end() -> bool { addCount(1, 1, ResultCount[1][1] + 1); return false; }\n", "board.gdef")
    errors = check([result.module], result.diagnostics).errors
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in errors] == expected, errors


@pytest.mark.parametrize("consequence, fails", [("addCount(0, 0, i);", True), ("", False)])
def test_each_count_consequence_is_a_step(tmp_path, consequence, fails):
    game = game_of(tmp_path, "players: 1\nsize: 2 x 1\nobj X\n"
                   "define isMoveLegal() -> bool { return true; }\n"
                   f"define end() -> bool {{ for (int i = 0; i < 40; i = i + 1) {{ {consequence} }} return false; }}\n",
                   max_steps=60)
    state = game.new_state()
    if fails:
        with pytest.raises(IllegalMoveError) as failed:
            state.apply("place(1,0,X)")
        assert failed.value.verdict.error.code == "G607"
        assert counts(state) == [0, 0]
    else:
        state.apply("place(1,0,X)")


@pytest.mark.parametrize("entry, line, column", [("isMoveLegal", 4, 32), ("end", 5, 24)])
def test_a_count_consequence_off_the_board_is_g603(tmp_path, entry, line, column):
    legal = "addCount(0, 5, 1); " if entry == "isMoveLegal" else ""
    ending = "addCount(0, 5, 1); " if entry == "end" else ""
    game = game_of(tmp_path, "players: 1\nsize: 2 x 1\nobj X\n"
                   f"define isMoveLegal() -> bool {{ {legal}return true; }}\n"
                   f"define end() -> bool {{ {ending}return false; }}\n")
    state = game.new_state()
    if entry == "isMoveLegal":
        error = state.check("place(0,0,X)").error
    else:
        with pytest.raises(IllegalMoveError) as failed:
            state.apply("place(0,0,X)")
        error = failed.value.verdict.error
    assert error.code == "G603" and "square (0, 5) is off the board" in error.message
    assert (error.span.line + 1, error.span.column + 1) == (line, column)


# nextBoardSeen() compares ResultPosition with its counts: three is taken back to one, a board
# already seen, so the third move is refused.
SEEN_JUDGED = """players: 1
size: 1 x 1
define moves() { addCount(0, 0, CurrentCount[0][0] + 1); addMove(); }
define isMoveLegal() -> bool {
  if (NextCount[0][0] == 3) { addCount(0, 0, 1); }
  return !nextBoardSeen();
}
define end() -> bool { return false; }
"""

# repetitions() sees the count end() set: two falls back to zero, the start position again.
SEEN_ENDED = """players: 1
size: 1 x 1
define moves() { addCount(0, 0, CurrentCount[0][0] + 1); addMove(); }
define isMoveLegal() -> bool { return true; }
define end() -> bool {
  if (CurrentCount[0][0] == 2) { addCount(0, 0, 0); }
  if (repetitions() >= 1) { setWinner(0); return true; }
  return false;
}
"""


def test_next_board_seen_compares_the_counts_after_the_consequences(tmp_path):
    state = game_of(tmp_path, SEEN_JUDGED).new_state()
    state.apply("count(0,0,1)")
    state.apply("count(0,0,2)")
    assert state.legal_moves() == [] and not state.check("count(0,0,3)").legal


def test_repetitions_see_the_count_end_set(tmp_path):
    state = game_of(tmp_path, SEEN_ENDED).new_state()
    state.apply("count(0,0,1)")
    state.apply("count(0,0,2)")
    assert state.is_over and state.winner == 0 and counts(state) == [0]


def test_oware_sweeps_the_board_when_the_game_ends():
    """examples/oware.gdef: the seeds left go to the stores on the board (the whole game that
    ends examples/oware.test.moves, whose last move leaves 17 seeds on South's side, 6 on
    North's)."""
    last = (EXAMPLES / "oware.test.moves").read_text(encoding="utf-8").rsplit("\n[", 1)[1]
    moves = [text for line in last.splitlines()[1:] if (text := line.split("#", 1)[0].strip()) and text[0] != "?"]
    state = load_game(str(EXAMPLES / "oware.gdef")).new_state()
    for move in moves:
        state.apply(move)
    assert state.is_over and state.winner == 0
    houses = [state.board.count(x, y) for x in range(1, 7) for y in (0, 1)]
    assert houses == [0] * 12 and (state.board.count(7, 0), state.board.count(0, 1)) == (42, 6)
    assert state.scores == [42, 6]


def test_the_debugger_shows_result_count_while_a_move_is_judged(tmp_path):
    """Stopped in JUDGE_GAME's isMoveLegal() after its addCount calls: ResultCount is a board
    beside ResultPosition, with the square sown emptied on the scratch copy only."""
    from gdef_core.debug.engine import DebugSession, LaunchOptions
    from gdef_core.debug.values import scopes
    from test_consequences import Listener  # noqa: PLC0415 (the one listener of those tests)

    rules = tmp_path / "judge.gdef"
    rules.write_text(JUDGE_GAME, encoding="utf-8")
    script = tmp_path / "judge.moves"
    script.write_text("count(2,0,1)\n", encoding="utf-8")
    line = JUDGE_GAME.split("\n").index("  int last = ResultCount[2][0];") + 1
    listener = Listener()
    session = DebugSession(LaunchOptions([str(rules)], str(script), debug_move="count(2,0,2)"), listener)
    session.start()
    try:
        kind, stop = listener.next()
        assert kind == "stopped"
        session.set_breakpoints(str(rules), [{"line": line}])
        session.resume("continue")
        kind, stop = listener.next()
        assert (kind, stop.reason) == ("stopped", "breakpoint")
        boards = {node.name: node for group in scopes(session._scope(stop, 0), True) if group.name == "Positions"
                  for node in group.nodes}
        assert list(boards) == ["CurrentPosition", "CurrentCount", "NextPosition", "NextCount",
                                "ResultPosition", "ResultCount"]
        assert {name: boards[name].children()[0].value for name in ("CurrentCount", "NextCount", "ResultCount")} \
            == {"CurrentCount": "0 0 1", "NextCount": "0 0 2", "ResultCount": "0 0 0"}
    finally:
        session.quit()
