"""Squares that count (docs/language.md, "Squares that count"): the checker's codes for counts
used wrongly, the count operation in move text, CurrentCount / NextCount / PreviousCount,
isCountOperation and OperationList[i][3], place and clear resetting a count, counts in the
position history, records, undo, JSON states and the console board."""
from __future__ import annotations

import json
import re

import pytest

from gdef_core import parse
from gdef_core.cli.run import main as gdef_run
from gdef_core.moves import Move, MoveSyntaxError
from gdef_core.runtime import GdefRuntimeError, VerdictKind, load_game
from gdef_core.runtime.render import render_board
from gdef_core.semantics.checker import check

from support import EXAMPLES

KALAH = str(EXAMPLES / "kalah.gdef")

# One player adds one to a count, puts a stone S down or takes it away; the stone's square
# keeps no count. `before` is the count (0, 0) had before the last move.
COUNTER = """players: 1
size: 3 x 1
obj S
int before = 0;
define setup() { addCount(2, 0, 5); addPlace(1, 0, S); }
define isMoveLegal() -> bool {
  if (operationsNum() != 1) { return false; }
  int x = OperationList[0][0];
  if (isCountOperation(0)) {
    return !isPlaceOperation(0) && OperationList[0][2] == empty
        && OperationList[0][3] == CurrentCount[x][0] + 1 && NextCount[x][0] == OperationList[0][3];
  }
  return OperationList[0][3] == 0;
}
define end() -> bool {
  before = PreviousCount[0][0];
  return CurrentCount[0][0] >= 3;
}
"""


def game_file(tmp_path, text: str, name: str = "counter.gdef") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def errors_of(text: str) -> list[tuple[str, int, int]]:
    result = parse(text, "c.gdef")
    return [(d.code, d.span.line + 1, d.span.column + 1) for d in check([result.module], result.diagnostics).errors]


def test_the_checker_types_counts_as_ints_and_places_addcount_like_addplace():
    assert errors_of("""players: 2
size: 3 x 3
obj X
define isMoveLegal() -> bool {
  obj o = CurrentCount[0][0];
  if (NextCount[1][1] == X) { return false; }
  return CurrentCount[0] == 1;
}
define end() -> bool { addCount(0, 0, 1); return PreviousCount[0][0] > 0 && OperationList[0][3] > 0; }
define moves() { addCount(0, 0, 1); addMove(); }
define setup() { addCount(0, 0, 1); addMove(); }
""") == [("G304", 5, 11), ("G301", 6, 7), ("G309", 7, 10), ("G411", 11, 37)]   # addCount in end(): a consequence


def test_counts_are_read_written_and_judged(tmp_path):
    game = load_game(game_file(tmp_path, COUNTER))
    state = game.new_state()
    assert (state.board.count(2, 0), state.board[1, 0], state.board.count(1, 0)) == (5, "S", 0)
    assert state.check("count(0,0,1)") and not state.check("count(0,0,2)")
    assert state.check("count(2,0,6)") and not state.check("count(2,0,5)")
    state.apply("count(0,0,1)")
    state.apply("count(0,0,2)")
    assert state.board.count(0, 0) == 2 and state.variables["before"] == 1 and not state.is_over
    state.apply("count(1,0,1)")   # the count beside the stone: the object stays
    assert (state.board[1, 0], state.board.count(1, 0)) == ("S", 1)
    state.apply("place(1,0,S)")   # a place resets the count
    assert state.board.count(1, 0) == 0
    state.apply("count(2,0,6)")
    state.apply("clear(2,0)")     # so does a clear
    assert state.board.count(2, 0) == 0 and state.board.counts() == [(0, 0, 2)]
    state.apply("count(0,0,3)")
    assert state.is_over


def test_count_operations_in_move_text(tmp_path):
    assert str(Move.parse("count(1, 0, -4);place(0,0,S)")) == "count(1,0,-4); place(0,0,S)"
    with pytest.raises(MoveSyntaxError, match=r"expected the count \(an integer\), found 'x' \(column 12\)"):
        Move.parse("count(1,0, x)")
    with pytest.raises(MoveSyntaxError, match="the count 9223372036854775808 is not an int"):
        Move.parse("count(1,0,9223372036854775808)")
    state = load_game(game_file(tmp_path, COUNTER)).new_state()
    verdict = state.check("count(3,0,1)")
    assert verdict.kind is VerdictKind.OFF_BOARD
    tictactoe = load_game(str(EXAMPLES / "tictactoe.gdef")).new_state()
    verdict = tictactoe.check("count(1,1,1)")
    assert verdict.kind is VerdictKind.MALFORMED
    assert verdict.reason == "count(1,1,1): the squares of tictactoe hold no counts (its rules never read or write one)"


def test_a_count_off_the_board_is_a_located_error(tmp_path):
    game = load_game(game_file(tmp_path, """players: 1
size: 2 x 1
define isMoveLegal() -> bool {
  return CurrentCount[OperationList[0][0] + 2][0] == 0;
}
define end() -> bool { return false; }
"""))
    verdict = game.new_state().check("count(1,0,1)")
    assert verdict.kind is VerdictKind.RUNTIME_ERROR
    error: GdefRuntimeError = verdict.error
    assert (error.code, error.span.line + 1, error.span.column + 1) == ("G603", 4, 10)
    assert "square (3, 0) is off the board" in error.message


REPEATS = """players: 1
size: 2 x 1
obj S
define isMoveLegal() -> bool { return !nextBoardSeen() || isPlaceOperation(0); }
define end() -> bool { return repetitions() >= 1; }
"""


def test_positions_are_compared_with_their_counts(tmp_path):
    """Two positions equal but for a count are different positions (repetitions(),
    nextBoardSeen()), and the history, counts included, goes through to_json() and back."""
    game = load_game(game_file(tmp_path, REPEATS + "define moves() { addCount(0, 0, 0); addMove(); addCount(0, 0, 1); addMove(); }\n"))
    state = game.new_state()
    assert not state.check("count(0,0,0)")    # its board is the current one: seen
    state.apply("count(0,0,1)")
    assert not state.is_over                   # a new position: the count differs
    copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state and copy.to_json()["history"][1]["counts"] == [[0, 0, 1]]
    assert not state.check("count(0,0,0)")     # the start position's board, counts included
    state.apply("count(1,0,7)")
    assert [str(m) for m in state.legal_moves()] == ["count(0,0,0)"]   # count(0,0,1): seen
    point = state.undo_point(Move.parse("place(1,0,S)"))
    state.apply("place(1,0,S)")
    assert state.board.count(1, 0) == 0
    state.restore(point)
    assert state.board.count(1, 0) == 7 and state.to_json()["counts"] == [[0, 0, 1], [1, 0, 7]]
    with pytest.raises(ValueError, match="count \\[5, 0, 1\\] does not fit this game"):
        game.state_from_json({**state.to_json(), "counts": [[5, 0, 1]]})


def test_the_console_draws_counts_right_aligned_after_the_glyph_or_alone(tmp_path):
    game = load_game(game_file(tmp_path, COUNTER))
    state = game.state_from_json({**game.new_state().to_json(), "counts": [[0, 0, 1], [1, 0, 12], [2, 0, 5]]})
    drawn = render_board(state.board, list(game.objects), presentation=game.presentation)
    assert drawn.splitlines() == ["    0   1   2", "0   1 S12   5 0", "    0   1   2"]
    hidden = load_game(game_file(tmp_path, COUNTER + "show { counts: hidden; }\n", "hidden.gdef"))
    drawn = render_board(hidden.new_state().board, ["S"], presentation=hidden.presentation)
    assert drawn.splitlines() == ["  0 1 2", "0 . S . 0", "  0 1 2"]


def test_the_show_counts_word_is_checked():
    assert errors_of("players: 1\nsize: 1 x 1\nshow { counts: none; }\n"
                     "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return true; }\n") \
        == [("G804", 3, 16)]


def test_kalah_moves_are_named_by_the_pit_sown_and_drawn_with_their_seeds():
    game = load_game(KALAH)
    state = game.new_state()
    moves = state.legal_moves()
    assert state.move_names(moves) == ["b1", "c1", "d1", "e1", "f1", "g1"]
    state.apply(state.read_move("d1"))
    assert render_board(state.board, [], presentation=game.presentation).splitlines() == [
        "  a b c d e f g h", "2 . 4 4 4 4 4 4 . 2", "1 . 4 4 . 5 5 5 1 1", "  a b c d e f g h"]


def test_a_record_of_counts_resumes(tmp_path, capsys):
    record = tmp_path / "kalah.json"
    script = tmp_path / "first.moves"
    script.write_text("d1\ng1\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        gdef_run([KALAH, "--moves", str(script), "--record", str(record), "--no-color"])
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert [(entry["name"], entry["move"]) for entry in saved["moves"]] == [
        ("d1", "count(3,0,0); count(4,0,5); count(5,0,5); count(6,0,5); count(7,0,1)"),
        ("g1", "count(6,0,0); count(7,0,2); count(6,1,5); count(5,1,5); count(4,1,5); count(3,1,5)")]
    script.write_text("? count 7,0 2\n? count 3,1 5\n? turn 1\nb2\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        gdef_run(["--resume", str(record), "--moves", str(script), "--no-color"])
    assert exited.value.code == 3, capsys.readouterr().err
    assert [entry["name"] for entry in json.loads(record.read_text(encoding="utf-8"))["moves"]] == ["d1", "g1", "b2"]


def test_a_game_of_its_own_currentcount_keeps_it_and_keeps_no_counts(tmp_path):
    """The count built-ins are soft: a game variable called CurrentCount is the game's (G421
    warns), and the game keeps no counts."""
    path = game_file(tmp_path, """players: 1
size: 2 x 1
int CurrentCount = 3;
define isMoveLegal() -> bool { return CurrentCount == 3; }
define end() -> bool { return true; }
""", "own.gdef")
    result = parse(open(path, encoding="utf-8").read(), path)
    assert [(d.code, d.span.line + 1) for d in check([result.module], result.diagnostics).diagnostics] == [("G421", 3)]
    game = load_game(path)
    assert not game.counting and game.new_state().check("pass")


def test_gdef_check_play_changes_counts_to_find_legal_moves_moves_misses(tmp_path, capsys):
    """gdef-check --play changes a generated count by one: a count of two more, legal but never
    proposed, is reported at moves() (G704)."""
    from gdef_core.cli.check import main as gdef_check

    path = game_file(tmp_path, """players: 1
size: 1 x 1
define moves() { addCount(0, 0, CurrentCount[0][0] + 1); addMove(); }
define isMoveLegal() -> bool {
  return operationsNum() == 1 && isCountOperation(0)
      && (NextCount[0][0] == CurrentCount[0][0] + 1 || NextCount[0][0] == CurrentCount[0][0] + 2);
}
define end() -> bool { return CurrentCount[0][0] > 6; }
""", "misses.gdef")
    code = gdef_check([path, "--play", "5", "--play-out", str(tmp_path / "out"), "--format", "json"])
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert code == 0 and [(d["code"], d["line"]) for d in found] == [("G704", 3)]
    assert re.match(r"the legal move count\(0,0,\d+\) is never proposed by moves\(\)", found[0]["message"])
