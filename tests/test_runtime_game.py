"""The game API (docs/runtime.md): states, moves, verdicts, transactional apply, game variables,
turn control, setup, legal-move enumeration (spec sections 2, 12, 13, 14)."""
from __future__ import annotations

import json

import pytest

import gdef_core
from gdef_core.runtime import (PASS, GameLoadError, GdefRuntimeError, IllegalMoveError, Move,
                               MoveSyntaxError, Op, VerdictKind, load_game)

from support import ROOT

DATA = ROOT / "tests" / "data" / "runtime"
TICTACTOE = str(DATA / "tictactoe.gdef")


def write(tmp_path, text: str, name: str = "game.gdef") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ moves


@pytest.mark.parametrize("text, ops", [
    ("place(1,1,X)", (Op(1, 1, "X"),)),
    ("  clear( 0 , 2 ) ;place(1,1,X);", (Op(0, 2), Op(1, 1, "X"))),
    ("place(-1,10,empty)", (Op(-1, 10, "empty"),)),
    ("pass", ()),
])
def test_move_text_round_trip(text: str, ops) -> None:
    move = Move.parse(text)
    assert move.ops == ops
    assert Move.parse(str(move)) == move
    assert str(PASS) == "pass" and Move.parse("pass") is PASS


@pytest.mark.parametrize("text, column, expected", [
    ("", 1, "empty move"),
    ("place(1,1)", 10, "',' after the y coordinate"),
    ("place(1,x,X)", 9, "the y coordinate"),
    ("move(1,1,X)", 1, "'place(x,y,OBJ)'"),
    ("place(1,1,X) place(2,2,X)", 14, "';' between operations"),
    ("pass; place(1,1,X)", 5, "nothing after 'pass'"),
    ("clear(1,1,X)", 10, "')'"),
])
def test_malformed_move_text_says_what_and_where(text: str, column: int, expected: str) -> None:
    with pytest.raises(MoveSyntaxError) as raised:
        Move.parse(text)
    assert raised.value.column == column and expected in raised.value.message


# ------------------------------------------------------------------ verdicts and apply


def test_public_api_is_exported_from_gdef_core() -> None:
    game = gdef_core.load_game([TICTACTOE])
    assert isinstance(game, gdef_core.Game) and gdef_core.Move is Move


def test_verdict_kinds_and_reasons() -> None:
    state = load_game([TICTACTOE]).new_state()
    assert state.check("place(1,1,X)").kind is VerdictKind.LEGAL
    cases = {
        "place(1,1,": (VerdictKind.MALFORMED, "not a move"),
        "place(3,0,X)": (VerdictKind.OFF_BOARD, "square (3, 0), which is off the 3x3 board"),
        "place(0,0,Z)": (VerdictKind.UNKNOWN_OBJECT, "'Z', which is not an object of this game"),
        "place(1,1,O)": (VerdictKind.REJECTED,
                         "refused by tictactoe.gdef:15 (if (onTurn() == 0) { return placed == X; })"),
        "pass": (VerdictKind.REJECTED, "refused by tictactoe.gdef:10 "
                                       "(if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; })"),
    }
    for text, (kind, reason) in cases.items():
        verdict = state.check(text)
        assert (verdict.kind, bool(verdict)) == (kind, False) and reason in verdict.reason, text
        with pytest.raises(IllegalMoveError) as raised:
            state.apply(text)
        assert raised.value.verdict.kind is kind
    assert state.move_number == 0 and state.current_player == 0


def test_a_full_game_to_a_win_and_a_draw() -> None:
    game = load_game([TICTACTOE])
    state = game.new_state()
    for text in ["place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)", "place(2,0,X)"]:
        state.apply(Move.parse(text))
    assert state.is_over and state.winner == 0 and state.move_number == 5
    assert state.check("place(0,2,O)").kind is VerdictKind.GAME_OVER
    assert state.legal_moves() == [] and not state.has_legal_move()
    draw = game.new_state()
    for text in ["place(0,0,X)", "place(1,1,O)", "place(2,2,X)", "place(0,1,O)", "place(2,1,X)",
                 "place(2,0,O)", "place(0,2,X)", "place(1,2,O)", "place(1,0,X)"]:
        draw.apply(text)
    assert draw.is_over and draw.winner is None


def test_board_view_is_read_only_and_named() -> None:
    state = load_game([TICTACTOE]).new_state()
    state.apply("place(2,1,X)")
    board = state.board
    assert board[2, 1] == "X" and board[0, 0] == "empty" and (board.width, board.height) == (3, 3)
    assert board.occupied() == [(2, 1, "X")]
    assert board.rows()[1] == ["empty", "empty", "X"]
    with pytest.raises(TypeError):
        board[0, 0] = "O"
    with pytest.raises(IndexError):
        board[3, 0]


def test_clone_is_independent_and_json_round_trips() -> None:
    game = load_game([TICTACTOE])
    state = game.new_state()
    state.apply("place(1,1,X)")
    copy = state.clone()
    copy.apply("place(0,0,O)")
    assert state.board[0, 0] == "empty" and state.move_number == 1 and copy.move_number == 2
    data = json.loads(json.dumps(copy.to_json()))
    again = game.state_from_json(data)
    assert again == copy and again.to_json() == data
    again.apply("place(2,2,X)")
    assert again != copy
    with pytest.raises(ValueError):
        game.state_from_json({**data, "board": [[5, 5, "X"]]})
    with pytest.raises(ValueError):
        game.state_from_json({**data, "player": 2})


# ------------------------------------------------------------------ section 14 and friends

VARIABLES = """name: counters
players: 3
size: 4 x 1
obj P
int placed = 0;
float ratio = 1;
bool flag = true;
obj last = empty;
define setup() {
  addPlace(3, 0, P);
  placed = 10 / 3;
  setNextPlayer(2);
}
define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && NextPosition[OperationList[0][0]][0] == P
      && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  placed = placed + 1;
  ratio = ratio / 2;
  flag = !flag;
  last = OperationList[0][2];
  if (OperationList[0][0] == 0) { setNextPlayer(onTurn()); }
  if (placed == 6) { setWinner(onTurn()); return true; }
  return false;
}
"""


def test_game_variables_setup_and_turn_control(tmp_path) -> None:
    game = load_game([write(tmp_path, VARIABLES)])
    state = game.new_state()
    assert state.board[3, 0] == "P" and state.current_player == 2 and state.move_number == 0
    assert state.variables == {"placed": 3, "ratio": 1.0, "flag": True, "last": "empty"}
    state.apply("place(1,0,P)")
    assert state.current_player == 0        # 2 -> 0: the cycle
    assert state.variables == {"placed": 4, "ratio": 0.5, "flag": False, "last": "P"}
    snapshot = state.clone()
    state.apply("place(0,0,P)")
    assert state.current_player == 0        # setNextPlayer(onTurn()): the same player again
    assert snapshot.variables["placed"] == 4 and state.variables["placed"] == 5
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.variables == state.variables and type(restored.variables["ratio"]) is float
    restored.apply("place(2,0,P)")
    assert restored.is_over and restored.winner == 0 and restored.current_player == 0


def test_failing_setup_stops_the_game_with_a_located_error(tmp_path) -> None:
    text = VARIABLES.replace("addPlace(3, 0, P);", "addPlace(4, 0, P);")
    game = load_game([write(tmp_path, text)])
    with pytest.raises(GdefRuntimeError) as raised:
        game.new_state()
    error = raised.value
    line = text.count("\n", 0, text.index("addPlace(4")) + 1
    assert (error.code, error.span.line + 1, error.span.column + 1) == ("G603", line, 3)
    assert [frame.function for frame in error.stack] == ["setup"]


def test_move_number_counts_the_move_inside_end(tmp_path) -> None:
    path = write(tmp_path, """name: nine
players: 2
size: 3 x 3
obj X
define isMoveLegal() -> bool { return moveNumber() < 9 && operationsNum() == 0; }
define end() -> bool { return moveNumber() == 3; }
""")
    state = load_game([path]).new_state()
    state.apply("pass")
    state.apply("pass")
    assert not state.is_over
    state.apply("pass")
    assert state.is_over and state.winner is None and state.move_number == 3


def test_legal_moves_default_candidates_in_order() -> None:
    state = load_game([TICTACTOE]).new_state()
    assert [str(m) for m in state.legal_moves()] == [f"place({x},{y},X)" for x in range(3) for y in range(3)]
    state.apply("place(1,1,X)")
    moves = state.legal_moves()
    assert len(moves) == 8 and all(m.ops[0].obj == "O" for m in moves)
    chosen = moves[3]
    state.apply(chosen)   # a move from legal_moves() applies without being judged twice
    assert state.board[chosen.ops[0].x, chosen.ops[0].y] == "O"


GENERATOR = """name: hop
players: 2
size: 5 x 1
obj A
obj B
start { (0,0: A), (4,0: B) }
define mine() -> obj { if (onTurn() == 0) { return A; } return B; }
define moves() {
  int x = 0;
  while (x < 5) {
    if (CurrentPosition[x][0] == mine()) {
      addClear(x, 0); addPlace(x + 1, 0, mine()); addMove();
      addClear(x, 0); addPlace(x - 1, 0, mine()); addMove();
      addClear(x, 0); addPlace(x + 1, 0, mine()); addMove();
    }
    x = x + 1;
  }
  addPlace(0, 0, mine());
}
define isMoveLegal() -> bool {
  if (operationsNum() != 2) { return false; }
  int to = OperationList[1][0];
  return CurrentPosition[to][0] == empty;
}
define end() -> bool {
  if (!hasLegalMove()) { setWinner(onTurn()); return true; }
  return false;
}
"""


def test_moves_generator_drops_off_board_and_duplicate_candidates(tmp_path) -> None:
    state = load_game([write(tmp_path, GENERATOR)]).new_state()
    assert [str(m) for m in state.legal_moves()] == ["clear(0,0); place(1,0,A)"]
    state.apply("clear(0,0); place(1,0,A)")
    assert [str(m) for m in state.legal_moves()] == ["clear(4,0); place(3,0,B)"]


def test_has_legal_move_ends_the_game_when_the_next_player_is_stuck(tmp_path) -> None:
    state = load_game([write(tmp_path, GENERATOR)]).new_state()
    for text in ["clear(0,0); place(1,0,A)", "clear(4,0); place(3,0,B)", "clear(1,0); place(2,0,A)"]:
        state.apply(text)
        assert not state.is_over
    # B on 3, A on 2: B can only go right to 4
    state.apply("clear(3,0); place(4,0,B)")
    state.apply("clear(2,0); place(3,0,A)")   # B on 4 is stuck: A's player wins
    assert state.is_over and state.winner == 0


def test_failure_in_moves_is_reported(tmp_path) -> None:
    text = GENERATOR.replace("addPlace(0, 0, mine());", "addPlace(0, 0, mine()); int z = 1 / (x - 5);")
    state = load_game([write(tmp_path, text)]).new_state()
    with pytest.raises(GdefRuntimeError) as raised:
        state.legal_moves()
    assert raised.value.code == "G601" and raised.value.stack[0].function == "moves"
    # inside end(), hasLegalMove() runs moves(): its failure rejects the move being applied
    with pytest.raises(IllegalMoveError) as rejected:
        state.apply("clear(0,0); place(1,0,A)")
    assert rejected.value.verdict.error.code == "G601"
    assert [f.function for f in rejected.value.verdict.error.stack] == ["moves", "end"]
    assert state.board[0, 0] == "A" and state.move_number == 0


# ------------------------------------------------------------------ loading


def test_load_errors_carry_the_diagnostics(tmp_path) -> None:
    with pytest.raises(GameLoadError) as raised:
        load_game([str(ROOT / "tests" / "data" / "checker" / "original_tictactoe.gdef")])
    codes = [d.code for d in raised.value.diagnostics if d.is_error]
    assert codes == ["G301"] and "original_tictactoe.gdef:17:" in str(raised.value)
    library = write(tmp_path, "define helper() -> int { return 1; }\n", "lib.gdef")
    with pytest.raises(GameLoadError, match="library"):
        load_game([library])


def test_failing_game_variable_initialiser_is_a_load_error(tmp_path) -> None:
    text = VARIABLES.replace("int placed = 0;", "int placed = 1 / 0;")
    with pytest.raises(GameLoadError) as raised:
        load_game([write(tmp_path, text)])
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in raised.value.diagnostics] == [("G601", 5, 16)]
    assert "initial value fails" in str(raised.value)


def test_several_files_make_one_game(tmp_path) -> None:
    main = write(tmp_path, """name: split
players: 2
size: 2 x 2
obj X
define isMoveLegal() -> bool { return helperAllows(); }
define end() -> bool { return true; }
""", "main.gdef")
    helper = write(tmp_path, "define helperAllows() -> bool { return operationsNum() == 1; }\n", "helper.gdef")
    game = load_game([main, helper])
    assert game.files == [main, helper]
    state = game.new_state()
    state.apply("place(0,0,X)")
    assert state.is_over and state.winner is None


def test_run_time_guards_back_up_the_checker(tmp_path) -> None:
    """Assignments to game variables while judging, and built-ins outside their entry points,
    are checker errors (G412, G411); compiled anyway, they fail at run time (G611)."""
    from gdef_core.loader import load_program
    from gdef_core.runtime import Game

    path = write(tmp_path, """name: guards
players: 2
size: 2 x 1
obj X
int count = 0;
define isMoveLegal() -> bool {
  if (OperationList[0][0] == 0) { count = 1; }
  if (OperationList[0][0] == 1) { addMove(); }
  return true;
}
define end() -> bool { return false; }
""")
    program = load_program([path])
    assert {d.code for d in program.errors} == {"G411", "G412"}
    state = Game(program).new_state()
    first, second = state.check("place(0,0,X)").error, state.check("place(1,0,X)").error
    assert (first.code, first.span.line, first.span.column) == ("G611", 6, 34)
    assert "assigning the game variable 'count' is not allowed while isMoveLegal() runs" in first.message
    assert (second.code, second.span.line) == ("G611", 7)
    assert "addMove() is not allowed while isMoveLegal() runs (only in moves())" in second.message


def test_has_legal_move_asks_about_the_player_set_next(tmp_path) -> None:
    """Player 1 may only pass, player 0 only place: after player 0's move, end() makes player 0
    move again, so hasLegalMove() asks about player 0 (who can move while squares are empty)."""
    path = write(tmp_path, """name: again
players: 2
size: 2 x 1
obj X
define isMoveLegal() -> bool {
  if (onTurn() == 1) { return operationsNum() == 0; }
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  if (onTurn() == 0) { setNextPlayer(0); }
  if (!hasLegalMove()) { setWinner(onTurn()); return true; }
  return false;
}
""")
    state = load_game([path]).new_state()
    state.apply("place(0,0,X)")
    assert not state.is_over and state.current_player == 0
    state.apply("place(1,0,X)")   # player 0 would move again, but the board is full
    assert state.is_over and state.winner == 0
