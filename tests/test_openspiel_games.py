"""Differential tests against OpenSpiel: along seeded random games, our examples and OpenSpiel's
implementations of the same games must offer the same set of resulting positions at every step,
end at the same moment and name the same winner.

OpenSpiel describes moves as actions and positions as text; each game's mapping to our
coordinates is the one its example's header comment states. OpenSpiel's checkers splits a
multiple capture into one action per jump (the same player stays on turn); such actions are
followed to the end of the turn, since our checkers makes the whole capture one move.
"""
from __future__ import annotations

import random

import pytest

from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402


def _grid_rows(text: str, rows: int) -> list[str]:
    return [line for line in text.split("\n") if line][:rows]


def tictactoe_position(text: str) -> frozenset:
    """Three lines of 'x', 'o', '.': line r, character c is our square (c, r)."""
    names = {"x": "X", "o": "O"}
    return frozenset((c, r, names[ch]) for r, line in enumerate(_grid_rows(text, 3))
                     for c, ch in enumerate(line) if ch in names)


def connect_four_position(text: str) -> frozenset:
    """Six lines, the top row first: line i is row 5 - i, counted from the bottom as ours."""
    names = {"x": "X", "o": "O"}
    return frozenset((c, 5 - i, names[ch]) for i, line in enumerate(_grid_rows(text, 6))
                     for c, ch in enumerate(line) if ch in names)


def _labelled_rows(text: str, names: dict[str, str]) -> frozenset:
    """Lines '8.+.+.+.+': the row number (our y + 1), then columns a..h (our x 0..7)."""
    squares = set()
    for line in _grid_rows(text, 8):
        y = int(line[0]) - 1
        squares.update((x, y, names[ch]) for x, ch in enumerate(line[1:9]) if ch in names)
    return frozenset(squares)


def checkers_position(text: str) -> frozenset:
    return _labelled_rows(text, {"o": "W", "8": "WK", "+": "B", "*": "BK"})


def breakthrough_position(text: str) -> frozenset:
    return _labelled_rows(text, {"b": "B", "w": "W"})


def othello_position(text: str) -> frozenset:
    """After a title and the column letters: '4 - - - o x - - - 4', row 4 being our y = 3."""
    names = {"x": "B", "o": "W"}
    squares = set()
    for line in text.split("\n"):
        parts = line.split()
        if len(parts) == 10 and parts[0].isdigit():
            y = int(parts[0]) - 1
            squares.update((x, y, names[ch]) for x, ch in enumerate(parts[1:9]) if ch in names)
    return frozenset(squares)


CASES = {
    # OpenSpiel name: (example, position parser, games, seed)
    "tic_tac_toe": ("tictactoe.gdef", tictactoe_position, 100, 1),
    "connect_four": ("connect4.gdef", connect_four_position, 40, 2),
    "checkers": ("checkers.gdef", checkers_position, 12, 3),
    "othello": ("reversi.gdef", othello_position, 8, 4),
    "breakthrough": ("breakthrough.gdef", breakthrough_position, 10, 5),
}


def spiel_key(state, position) -> tuple:
    """(position, over, winner, player on turn) of an OpenSpiel state."""
    if state.is_terminal():
        returns = state.returns()
        best = max(returns)
        winner = returns.index(best) if best > 0 else None
        return position(str(state)), True, winner, None
    return position(str(state)), False, None, state.current_player()


def our_key(state) -> tuple:
    position = frozenset(state.board.occupied())
    if state.is_over:
        return position, True, state.winner, None
    return position, False, None, state.current_player


def spiel_turns(state, position) -> dict:
    """key of each position the player on turn can reach in one turn -> the actions to it."""
    mover = state.current_player()
    reached: dict[tuple, list[int]] = {}

    def expand(current, actions):
        for action in current.legal_actions():
            after = current.clone()
            after.apply_action(action)
            if not after.is_terminal() and after.current_player() == mover:
                expand(after, [*actions, action])       # a capture that goes on
            else:
                reached.setdefault(spiel_key(after, position), [*actions, action])

    expand(state, [])
    return reached


def our_turns(state) -> dict:
    """key of each position reached by a legal move -> the move."""
    reached = {}
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        key = our_key(after)
        assert key not in reached, f"moves {reached[key]} and {move} have the same effect"
        reached[key] = move
    return reached


@pytest.mark.parametrize("name", list(CASES))
def test_same_moves_end_and_winner_as_openspiel(name):
    example, position, games, seed = CASES[name]
    game = load_game([str(EXAMPLES / example)])
    spiel_game = pyspiel.load_game(name)
    rng = random.Random(seed)
    for number in range(games):
        ours, theirs = game.new_state(), spiel_game.new_initial_state()
        assert our_key(ours) == spiel_key(theirs, position)
        step = 0
        while not ours.is_over:
            our_moves = our_turns(ours)
            their_moves = spiel_turns(theirs, position)
            where = f"{name} game {number} step {step}"
            assert set(our_moves) == set(their_moves), (
                f"{where}: only ours: {[str(our_moves[k]) for k in set(our_moves) - set(their_moves)]}, "
                f"only OpenSpiel's: {[their_moves[k] for k in set(their_moves) - set(our_moves)]}")
            key = rng.choice(sorted(our_moves, key=lambda k: str(our_moves[k])))
            ours.apply(our_moves[key])
            for action in their_moves[key]:
                theirs.apply_action(action)
            assert our_key(ours) == spiel_key(theirs, position) == key, where
            step += 1
        assert theirs.is_terminal()


def test_parsers_read_openspiel_start_positions():
    """The mappings themselves, on positions whose squares the examples' headers name."""
    assert len(checkers_position(str(pyspiel.load_game("checkers").new_initial_state()))) == 24
    assert (0, 0, "W") in checkers_position(str(pyspiel.load_game("checkers").new_initial_state()))
    assert othello_position(str(pyspiel.load_game("othello").new_initial_state())) == {
        (3, 3, "W"), (4, 3, "B"), (3, 4, "B"), (4, 4, "W")}
    start = breakthrough_position(str(pyspiel.load_game("breakthrough").new_initial_state()))
    assert (0, 7, "B") in start and (0, 0, "W") in start and len(start) == 32
    state = pyspiel.load_game("connect_four").new_initial_state()
    state.apply_action(2)
    assert connect_four_position(str(state)) == {(2, 0, "X")}
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    state.apply_action(5)
    assert tictactoe_position(str(state)) == {(2, 1, "X")}
