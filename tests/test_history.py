"""Position history (spec 15.4): repetitions() counts the earlier positions equal to the one
end() has reached (board, game variables as end() set them, player to move as setNextPlayer
chose), nextBoardSeen() sees every earlier board including the current one (and, while
hasLegalMove() judges, the position end() has just reached); the history follows the state
through clone, undo, records, --resume, to_json, legal-move search and perft."""
from __future__ import annotations

import json

import pytest

from gdef_core.runtime.perft import perft
from gdef_core.runtime import load_game
from gdef_core.runtime.session import Session


def make(tmp_path, text: str, name: str = "game"):
    path = tmp_path / f"{name}.gdef"
    path.write_text(text, encoding="utf-8")
    return load_game([str(path)])


PASSING = """name: passing
players: 2
size: 1 x 1
{extra}
define isMoveLegal() -> bool {{ return operationsNum() == 0; }}
define end() -> bool {{
  {body}
  return false;
}}
"""


def scores_after_passes(game, count: int) -> list:
    state = game.new_state()
    seen = []
    for _ in range(count):
        state.apply("pass")
        seen.append(state.scores[0])
    return seen


def test_repetitions_counts_the_player_to_move(tmp_path) -> None:
    game = make(tmp_path, PASSING.format(extra="", body="setScore(0, repetitions());"))
    # positions: (empty, 0 to move) at the start, then (empty, 1), (empty, 0), (empty, 1) ...
    assert scores_after_passes(game, 5) == [0, 1, 1, 2, 2]


def test_repetitions_sees_the_player_set_next_player_chose(tmp_path) -> None:
    game = make(tmp_path, PASSING.format(extra="", body="setNextPlayer(0); setScore(0, repetitions());"))
    assert scores_after_passes(game, 3) == [1, 2, 3]   # player 0 always moves: the start again


def test_repetitions_sees_the_variables_as_end_set_them_so_far(tmp_path) -> None:
    body = "setScore(0, repetitions()); phase = 1 - phase; setScore(1, repetitions());"
    game = make(tmp_path, PASSING.format(extra="int phase = 0;", body=body))
    state = game.new_state()
    state.apply("pass")   # phase 0 -> 1; (empty, player 1, phase 0) is new, so is phase 1
    assert state.scores == [0, 0]
    state.apply("pass")   # back to (empty, player 0, phase 0): the start
    assert state.scores == [0, 1]
    state.apply("pass")   # (empty, player 1, phase 1) was seen once, after the first pass
    assert state.scores == [0, 1]


def test_threefold_repetition_ends_the_game(tmp_path) -> None:
    game = make(tmp_path, PASSING.format(extra="", body="if (repetitions() >= 2) { return true; }"))
    state = game.new_state()
    for _ in range(3):   # the start position (player 0 to move) comes back after moves 2 and 4
        state.apply("pass")
        assert not state.is_over
    state.apply("pass")
    assert state.is_over and state.winner is None and state.move_number == 4


SUPERKO = """name: superko
players: 2
size: 2 x 1
obj X
define isMoveLegal() -> bool {
  if (operationsNum() == 0) { return true; }
  return !nextBoardSeen();
}
define end() -> bool { return moveNumber() == 6; }
"""


def test_next_board_seen_includes_the_current_board(tmp_path) -> None:
    game = make(tmp_path, SUPERKO)
    state = game.new_state()
    assert state.check("place(0,0,X)")
    state.apply("place(0,0,X)")
    assert not state.check("place(0,0,X)")        # leaves the board as it is: seen now
    assert not state.check("clear(0,0)")          # the empty start board
    assert state.check("place(1,0,X)") and state.check("pass")
    assert [str(m) for m in state.legal_moves()] == ["place(1,0,X)", "pass"]


def test_next_board_seen_counts_the_position_end_reached_while_has_legal_move_judges(tmp_path) -> None:
    game = make(tmp_path, """name: stuck
players: 2
size: 1 x 1
obj X
define isMoveLegal() -> bool { return !nextBoardSeen(); }
define end() -> bool {
  if (!hasLegalMove()) { setWinner(onTurn()); return true; }
  return false;
}
""")
    state = game.new_state()
    state.apply("place(0,0,X)")
    # The next player could only place X again (the board just reached), clear (the start
    # board) or pass (the board just reached): no legal move, so player 0 wins.
    assert state.is_over and state.winner == 0


def test_history_follows_clones_undo_and_perft(tmp_path) -> None:
    game = make(tmp_path, SUPERKO)
    start = game.new_state()
    after = start.clone()
    after.apply("place(0,0,X)")
    assert start.check("place(0,0,X)") and start.history_length == 1 and after.history_length == 2
    # Counted by hand: a board comes back only by passing.
    assert perft(game.new_state(), 3) == [3, 7, 15]
    session = Session(game, [])
    assert session.play("place(0,0,X)").accepted and session.play("place(1,0,X)").accepted
    assert session.play("clear(0,0)").accepted
    assert not session.play("clear(1,0)").accepted   # the empty start board
    assert session.undo()                              # back to XX
    assert not session.play("clear(1,0)").accepted    # X. was seen after the first move
    assert session.play("pass").accepted
    assert session.state.history_length == 4


def test_history_survives_records_resume_and_json(tmp_path) -> None:
    game = make(tmp_path, SUPERKO)
    session = Session(game, [])
    for move in ("place(0,0,X)", "place(1,0,X)", "clear(0,0)"):
        assert session.play(move).accepted
    record = json.loads(json.dumps(session.record()))
    again = Session(game, [])
    again.resume(record)
    assert again.state == session.state
    assert not again.state.check("clear(1,0)")           # the empty start board: seen
    data = json.loads(json.dumps(session.state.to_json()))
    assert [len(p["board"]) for p in data["history"]] == [0, 1, 2, 1]
    restored = game.state_from_json(data)
    assert restored == session.state and not restored.check("clear(1,0)")
    with pytest.raises(ValueError, match="history"):
        game.state_from_json({**data, "history": data["history"][:-1]})


def test_games_that_never_ask_keep_no_history(tmp_path) -> None:
    game = load_game(["examples/tictactoe.gdef"])
    state = game.new_state()
    state.apply(state.legal_moves()[0])
    assert state.history_length == 0 and "history" not in state.to_json()
