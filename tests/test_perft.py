"""perft: move-sequence counts of our examples against OpenSpiel's implementations of the same
games, counted live by pyspiel (a multi-jump of checkers, several OpenSpiel actions by one
player, counts as one move, as in our checkers)."""
from __future__ import annotations

import pytest

from gdef_core.runtime.perft import perft
from gdef_core import load_game

from support import EXAMPLES, ROOT, need_module


def spiel_perft(state, depth: int) -> list[int]:
    """Sequences of `depth` turns, a turn being the actions of one player in a row."""
    counts = [0] * depth

    def turns(current, mover):
        for action in current.legal_actions():
            after = current.clone()
            after.apply_action(action)
            if not after.is_terminal() and after.current_player() == mover:
                yield from turns(after, mover)
            else:
                yield after

    def walk(current, level: int) -> None:
        if current.is_terminal():
            return
        for after in turns(current, current.current_player()):
            counts[level] += 1
            if level + 1 < depth:
                walk(after, level + 1)

    walk(state, 0)
    return counts


def test_tictactoe_known_counts():
    game = load_game([str(EXAMPLES / "tictactoe.gdef")])
    assert perft(game.new_state(), 6) == [9, 72, 504, 3024, 15120, 54720]


@pytest.mark.parametrize("example, name, depth", [
    ("tictactoe.gdef", "tic_tac_toe", 6),
    ("connect4.gdef", "connect_four", 4),
    ("checkers.gdef", "checkers", 5),
    ("reversi.gdef", "othello", 5),
    ("breakthrough.gdef", "breakthrough", 3),
])
def test_counts_match_openspiel(example, name, depth):
    pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")
    game = load_game([str(EXAMPLES / example)])
    assert perft(game.new_state(), depth) == spiel_perft(pyspiel.load_game(name).new_initial_state(), depth)


def test_perft_from_a_later_position_and_at_the_end():
    game = load_game([str(EXAMPLES / "tictactoe.gdef")])
    state = game.new_state()
    for move in ("place(0,0,X)", "place(1,0,O)", "place(1,1,X)", "place(2,0,O)"):
        state.apply(move)
    # X wins at once with (2,2): that sequence stops there and counts nothing deeper.
    assert perft(state, 2) == [5, 16]
    state.apply("place(2,2,X)")
    assert state.is_over and perft(state, 3) == [0, 0, 0]
    assert perft(game.new_state(), 0) == []


def test_a_move_whose_end_fails_is_not_counted():
    game = load_game([str(ROOT / "tests" / "data" / "play" / "end_fails.gdef")])
    state = game.new_state()
    assert len(state.legal_moves()) == 3          # isMoveLegal() allows all three
    assert perft(state, 2) == [2, 0]              # end() fails after the third
