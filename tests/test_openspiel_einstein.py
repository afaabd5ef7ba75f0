"""examples/einstein.gdef against OpenSpiel's einstein_wurfelt_nicht, both through pyspiel: along
seeded games (chance drawn by OpenSpiel's probabilities, players at random), at every node the
same player (pyspiel.PlayerId.CHANCE at chance nodes), the same board, the same chance outcomes
with the same probabilities (our outcome k is OpenSpiel's chance action k: the k-th placement
in lexicographic order, the roll k + 1), the same legal moves, and the same returns at the end.
OpenSpiel's cell (row r, column c) is our square (c, 4 - r), as the example's header says."""
from __future__ import annotations

import re

from openspiel_support import play_alongside
from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

import gdef_core.interop.openspiel  # noqa: E402,F401  (registers "gdef")

EINSTEIN = str(EXAMPLES / "einstein.gdef")
GAMES, SEED = 60, 7
_STEP = re.compile(r"clear\((\d),(\d)\); place\((\d),(\d),([BW]\d)\)")
# OpenSpiel's six directions (row, column offsets), Black's three first.
_DIRECTIONS = [(1, 1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1)]


def spiel_action(text: str, board) -> int:
    """OpenSpiel's action of one of our moves, as our adapter writes it (`board`: ours before it)."""
    x, y, tx, ty, cube = _STEP.fullmatch(text).groups()
    r, c, r2, c2 = 4 - int(y), int(x), 4 - int(ty), int(tx)
    direction = _DIRECTIONS.index((r2 - r, c2 - c))
    capture = board[int(tx), int(ty)] != "empty"
    return ((r * 5 + c) * 6 + direction) * 2 + capture


def board_text(state) -> str:
    """Our board as OpenSpiel's einstein_wurfelt_nicht draws its state (`|b3||__|...`)."""
    board = state.pos.inner.board
    rows = []
    for r in range(5):
        cells = [board[c, 4 - r] for c in range(5)]
        rows.append("".join("|__|" if cell == "empty" else f"|{cell.lower()}|" for cell in cells))
    return "\n".join(rows) + "\n"


def same_board(ours, theirs, where: str) -> None:
    assert board_text(ours) == str(theirs), where


def einstein_actions(ours, theirs, player: int, where: str) -> dict[int, int]:
    """OpenSpiel's action of each of our legal actions -> ours; each moves the same cube."""
    board = ours.pos.inner.board
    mine = {}
    for a in ours.legal_actions():
        text = ours.action_to_string(player, a)
        action = spiel_action(text, board)
        mine[action] = a
        cube = _STEP.fullmatch(text).group(5)
        assert theirs.action_to_string(player, action).startswith(cube + "-"), where
    return mine


def test_einstein_plays_as_openspiel():
    ours_game = pyspiel.load_game("gdef", {"path": EINSTEIN})
    theirs_game = pyspiel.load_game("einstein_wurfelt_nicht")
    assert ours_game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    winners = play_alongside(ours_game.new_initial_state, theirs_game, games=GAMES, seed=SEED, label="einstein",
                             same=same_board, actions=einstein_actions, final=same_board)
    assert winners == {(1.0, -1.0), (-1.0, 1.0)}  # both sides won some


def test_the_chance_actions_are_openspiel_s():
    """Placement k puts the k-th permutation of 1..6 (lexicographic) on the corner squares row by
    row, as OpenSpiel's UnrankPermutation does; roll action k shows k + 1."""
    state = pyspiel.load_game("gdef", {"path": EINSTEIN}).new_initial_state()
    first = state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
    assert first == "place(0,4,B1); place(1,4,B2); place(2,4,B3); place(0,3,B4); place(1,3,B5); place(0,2,B6)"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 719).endswith("place(1,3,B2); place(0,2,B1)")
    state.apply_action(1)   # Black: 1 2 3 4 6 5
    state.apply_action(0)   # White: 1 2 3 4 5 6
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == list(range(6))
    assert str(state).endswith("\nChance moves, then White.")
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "place(5,2,D4)"
    theirs = pyspiel.load_game("einstein_wurfelt_nicht").new_initial_state()
    for action in (1, 0, 3):
        theirs.apply_action(action)
    state.apply_action(3)
    assert state.current_player() == theirs.current_player() == 1
    assert board_text(state) == str(theirs)
