"""examples/hex.gdef against OpenSpiel's hex at sizes 5, 7 and 11, the size set through the
game's `board_size` parameter as OpenSpiel users set it (`pyspiel.load_game("gdef", {"path":
..., "board_size": 7})`): along seeded random games, at every node the same legal moves and the
same player on turn, and the same returns at the end. OpenSpiel's cell (row r, column c),
action r * size + c, is our square (c, size - 1 - r), as the example's header says."""
from __future__ import annotations

import random
import re

import pytest

from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

import gdef_core.interop.openspiel  # noqa: E402,F401  (registers "gdef")

HEX = str(EXAMPLES / "hex.gdef")
# size: (games, seed); the games shrink as the boards grow, to keep the run short
CASES = {5: (100, 1), 7: (50, 2), 11: (25, 3)}
_PLACE = re.compile(r"place\((\d+),(\d+),([BW])\)")


def spiel_action(text: str, size: int, player: int) -> int:
    """OpenSpiel's action of one of our moves, written as our adapter writes it."""
    x, y, stone = _PLACE.fullmatch(text).groups()
    assert stone == "BW"[player], text
    return (size - 1 - int(y)) * size + int(x)


@pytest.mark.parametrize("size", sorted(CASES))
def test_hex_plays_as_openspiel_at_every_size(size):
    games, seed = CASES[size]
    ours_game = pyspiel.load_game("gdef", {"path": HEX, "board_size": size})
    assert ours_game.get_parameters()["board_size"] == size
    theirs_game = pyspiel.load_game("hex", {"board_size": size})
    rng = random.Random(seed)
    for number in range(games):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        step = 0
        while not theirs.is_terminal():
            where = f"size {size} game {number} step {step}"
            assert not ours.is_terminal(), where
            player = theirs.current_player()
            assert ours.current_player() == player, where
            mine = {spiel_action(ours.action_to_string(player, a), size, player): a for a in ours.legal_actions()}
            assert sorted(mine) == theirs.legal_actions(), where
            action = rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(mine[action])
            step += 1
        assert ours.is_terminal() and ours.returns() == theirs.returns(), f"size {size} game {number}"


def test_the_mapping_of_cells():
    """OpenSpiel's action 1 on a 5 x 5 board is row 0, column 1: our square (1, 4), the top row."""
    game = pyspiel.load_game("hex", {"board_size": 5})
    state = game.new_initial_state()
    state.apply_action(1)
    assert str(state).split("\n")[0].split() == [".", "x", ".", ".", "."]
    assert spiel_action("place(1,4,B)", 5, 0) == 1
