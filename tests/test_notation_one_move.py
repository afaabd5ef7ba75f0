"""Naming one move (State.move_name without the legal list, names_in_position) gives exactly the
name the whole list of legal moves gives it (move_names), and a name typed exactly is read back
(read_exact_name), while judging only the candidates that could share one of its names: on a
1000 x 1000 board the legal moves are never listed."""
from __future__ import annotations

import random

import pytest

from gdef_core import load_game
from gdef_core.runtime.game import State
from gdef_core.runtime.notation import read_exact_name
from gdef_core.runtime.session import Session

from support import EXAMPLES

# (game, plies of a seeded random game whose every position is checked)
GAMES = [
    ("chess/chess.gdef", 40), ("chess/kiwipete.gdef", 12), ("chess/position3.gdef", 20),
    ("checkers.gdef", 40), ("go/go9.gdef", 30), ("reversi.gdef", 40), ("backgammon.gdef", 16),
    ("tictactoe-split/tictactoe.gdef", 9), ("connect4.gdef", 20), ("kalah.gdef", 20),
    ("einstein.gdef", 16), ("breakthrough.gdef", 20), ("hex.gdef", 10),
]

# Drops of two pieces on one square, a move with two arrivals that only `#N` tells apart,
# captures that tell two moves apart and a move that changes nothing (named by its operations).
SHARED = """\
name: shared
players: 2
size: 3 x 2
obj P
obj Q
obj E
start { (0,0: P), (1,0: E), (1,1: E) }
show {
  columns: "abc";
  rows: from 1;
  P: "p" side 0;
  E: "e" side 1;
}
define moves() {
  addClear(0, 0); addClear(1, 0); addPlace(2, 0, P); addMove();
  addClear(0, 0); addClear(1, 1); addPlace(2, 0, P); addMove();
  addPlace(2, 1, P); addMove();
  addPlace(2, 1, Q); addMove();
  addPlace(2, 1, Q); addPlace(0, 1, Q); addMove();
  addPlace(2, 1, Q); addPlace(1, 1, Q); addMove();
  addPlace(0, 0, P); addMove();
  addClear(1, 1); addMove();
  addMove();
}
define isMoveLegal() -> bool { return isGenerated(); }
define end() -> bool { return false; }
"""


def assert_each_named_as_in_the_list(state: State) -> None:
    legal = state.legal_moves()
    names = state.move_names(legal)
    assert [state.move_name(move) for move in legal] == names
    assert state.names_in_position(legal) == names
    assert state.names_in_position(legal[1::3]) == names[1::3]
    # an outcome, or a move named by its operations (read as operations), is left to read_move_name
    assert [read_exact_name(state, name) for name in names] == [
        None if state.is_chance_node or "(" in name else move for move, name in zip(legal, names)]
    assert [state.read_move(name) for name in names] == legal
    for move in state.candidate_moves():  # a candidate the rules refuse keeps its short form
        if move not in legal:
            assert state.move_name(move) == state.move_name(move, legal)


@pytest.mark.parametrize("name, plies", GAMES, ids=[name for name, _ in GAMES])
def test_one_move_is_named_as_the_whole_list_names_it(name: str, plies: int) -> None:
    state = load_game(str(EXAMPLES / name)).new_state()
    rng = random.Random(7)
    for _ in range(plies):
        if state.is_over:
            break
        assert_each_named_as_in_the_list(state)
        state.apply(state.random_move(rng))


def test_shared_short_names_get_the_same_longer_forms_one_at_a_time(tmp_path) -> None:
    rules = tmp_path / "shared.gdef"
    rules.write_text(SHARED)
    state = load_game(str(rules)).new_state()
    names = state.move_names(state.legal_moves())
    assert names == ["a1c1xb1", "a1c1xb2", "P@c2", "Q@c2#1", "Q@c2#2", "Q@c2#3", "place(0,0,P)", "xb2", "pass"]
    assert_each_named_as_in_the_list(state)


def test_naming_a_move_on_a_million_squares_judges_only_its_neighbours(tmp_path, monkeypatch) -> None:
    rules = tmp_path / "big.gdef"
    rules.write_text("name: big\nplayers: 2\nsize: 1000 x 1000\nobj X\nobj O\n"
                     "define isMoveLegal() -> bool { return operationsNum() == 1; }\n"
                     "define end() -> bool { return false; }\n")
    game = load_game(str(rules))
    judged: list[int] = []
    judge = State.legal_of
    monkeypatch.setattr(State, "legal_of", lambda state, ops: judged.append(len(ops)) or judge(state, ops))
    session = Session(game, [str(rules)], game.new_state())
    assert session.play("place(12,7,X)").name == "X@12,7"   # an O could go there too
    assert session.play("place(12,7,O)").name == "12,7"   # the only move that changes 12,7 to O
    assert session.play("clear(12,7)").name == "x12,7"
    assert session.play("X@13,7").accepted   # a name typed: read among the neighbours too
    assert [entry["name"] for entry in session.moves] == ["X@12,7", "12,7", "x12,7", "X@13,7"]
    assert session.moves[-1]["move"] == "place(13,7,X)"
    # each move judged its own square's candidates, those of the squares its name reads
    # (1,2,7,12 as columns and rows) and the pass: never the 2,000,001 candidates
    assert 0 < max(judged) < 100
    assert "_places" not in game.__dict__   # no Move was made for every candidate


# Labels inside other labels: `a1c` and `1xb1` make a1c-1xb1 read `a1c1xb1`, the name a1c1
# gets with its capture on b1, although the two moves share no square.
LABELS_INSIDE_LABELS = """\
name: inside
players: 2
size: 4 x 2
obj P
obj E
start { (0,0: P), (0,1: P), (1,0: E), (1,1: E) }
show {
  columns: "a", "b", "c", "1xb";
  rows: "1", "1c";
  P: "p" side 0;
  E: "e" side 1;
}
define moves() {
  addClear(0, 0); addClear(1, 0); addPlace(2, 0, P); addMove();
  addClear(0, 0); addClear(1, 1); addPlace(2, 0, P); addMove();
  addClear(0, 1); addPlace(3, 0, P); addMove();
}
define isMoveLegal() -> bool { return isGenerated(); }
define end() -> bool { return false; }
"""


def test_a_move_sharing_no_square_but_a_name_is_found_by_its_labels(tmp_path) -> None:
    rules = tmp_path / "inside.gdef"
    rules.write_text(LABELS_INSIDE_LABELS)
    state = load_game(str(rules)).new_state()
    assert state.move_names(state.legal_moves()) == ["a1c1xb1#1", "a1c1xb1c", "a1c1xb1#2"]
    assert_each_named_as_in_the_list(state)
