"""state.random_move(rng): a legal move, every legal move equally likely, found without
judging every candidate; what random agents and mcts playouts use."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from gdef_core import GdefRuntimeError, load_game

from support import EXAMPLES, ROOT

DATA = ROOT / "tests" / "data" / "play"


@pytest.mark.parametrize("example", ["tictactoe.gdef", "connect4.gdef", "gomoku.gdef", "checkers.gdef",
                                     "reversi.gdef", "breakthrough.gdef"])
def test_random_moves_are_legal_moves(example):
    game = load_game([str(EXAMPLES / example)])
    rng = random.Random(1)
    state = game.new_state()
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_moves()
        move = state.random_move(rng)
        assert move in legal
        checked = state.clone()
        checked._legal = None          # the slow path: judged again by isMoveLegal()
        checked.apply(str(move))
        state.apply(move)
        assert state == checked


def test_every_legal_move_is_equally_likely():
    game = load_game([str(EXAMPLES / "tictactoe.gdef")])
    state = game.new_state()
    state.apply("place(1,1,X)")
    rng = random.Random(7)
    counts = Counter(str(state.random_move(rng)) for _ in range(8000))
    assert set(counts) == {str(move) for move in state.legal_moves()}   # the 8 empty squares
    assert all(900 <= n <= 1100 for n in counts.values()), counts       # 1000 expected each


def test_duplicate_and_off_board_candidates_do_not_bias_the_choice():
    game = load_game([str(DATA / "duplicates.gdef")])
    state = game.new_state()
    assert [str(m) for m in state.legal_moves()] == ["place(0,0,X)", "place(1,0,X)"]
    rng = random.Random(3)
    counts = Counter(str(state.random_move(rng)) for _ in range(4000))
    assert set(counts) == {"place(0,0,X)", "place(1,0,X)"}
    assert 1850 <= counts["place(1,0,X)"] <= 2150, counts


def test_same_seed_same_moves():
    game = load_game([str(EXAMPLES / "connect4.gdef")])
    first = [str(game.new_state().random_move(random.Random(5))) for _ in range(3)]
    assert len(set(first)) == 1


def test_none_without_a_legal_move_or_after_the_end():
    stuck = load_game([str(DATA / "stuck.gdef")]).new_state()
    stuck.apply("place(0,0,X)")
    assert stuck.random_move(random.Random(0)) is None
    over = load_game([str(EXAMPLES / "tictactoe.gdef")]).new_state()
    for move in ("place(0,0,X)", "place(0,1,O)", "place(1,0,X)", "place(1,1,O)", "place(2,0,X)"):
        over.apply(move)
    assert over.is_over and over.random_move(random.Random(0)) is None


def test_a_failing_moves_generator_is_a_located_error():
    state = load_game([str(DATA / "moves_fail.gdef")]).new_state()
    state.apply("place(0,0,X)")
    with pytest.raises(GdefRuntimeError) as caught:
        state.random_move(random.Random(0))
    assert caught.value.location.endswith("moves_fail.gdef:17:14")


def test_candidates_naming_constant_squares_off_the_board_are_dropped():
    state = load_game([str(DATA / "constant_off_board.gdef")]).new_state()
    assert [str(move) for move in state.legal_moves()] == ["place(1,0,X)"]
    assert str(state.random_move(random.Random(0))) == "place(1,0,X)"
