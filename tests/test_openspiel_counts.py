"""Games whose squares count, against OpenSpiel: examples/kalah.gdef is OpenSpiel's `mancala`
along seeded random games, at every node the same legal moves (a move is named by the pit it
sows, OpenSpiel's action), the same player on turn, the same seeds in every pit, and the same
returns at the end."""
from __future__ import annotations

import pytest

from openspiel_support import ApiState, play_alongside
from support import EXAMPLES, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

from gdef_core import load_game  # noqa: E402

KALAH = str(EXAMPLES / "kalah.gdef")
# OpenSpiel's pit p is our square (KALAH_PITS[p]); its action is the pit sown.
KALAH_PITS = [(0, 1), *((p, 0) for p in range(1, 8)), *((14 - p, 1) for p in range(8, 14))]


def kalah_pits(state) -> list[int]:
    return [state.board.count(x, y) for x, y in KALAH_PITS]


def spiel_pits(state) -> list[int]:
    """The seeds of OpenSpiel's pits 0..13, read from its observation tensor."""
    return [int(v) for v in state.observation_tensor(0)[:14]]


def kalah_action(move) -> int:
    """OpenSpiel's action of one of our moves: the pit it sows, its first operation's square."""
    first = move.ops[0]
    return KALAH_PITS.index((first.x, first.y))


def sown_square(ours, player: int, action: int) -> tuple[int, int]:
    """The square an action of our pyspiel adapter sows first: its first operation's, `count(x,y,n)`."""
    first = ours.action_to_string(player, action).split(";")[0]
    x, y = (int(v) for v in first[len("count("):].split(",")[:2])
    return x, y


def same_pits(ours, theirs, where: str) -> None:
    assert kalah_pits(ours.state) == spiel_pits(theirs), where


def kalah_moves(ours, theirs, player: int, where: str) -> dict:
    """OpenSpiel's action (the pit sown) -> our move, each named by that pit."""
    mine = {kalah_action(move): move for move in ours.state.legal_moves()}
    assert all(ours.state.move_name(move) == ours.state.game.presentation.square(*KALAH_PITS[a])
               for a, move in mine.items()), where
    return mine


@pytest.mark.parametrize("seed", [1, 2])
def test_kalah_plays_as_openspiel_mancala(seed):
    game = load_game(KALAH)
    play_alongside(lambda: ApiState(game.new_state()), pyspiel.load_game("mancala"), games=40, seed=seed,
                   label=f"seed {seed}", same=same_pits, actions=kalah_moves, final=same_pits)


def test_kalah_through_the_gdef_adapter_plays_as_mancala():
    """The same through `pyspiel.load_game("gdef", ...)`: our actions, mapped by the move each
    stands for to OpenSpiel's pits, and the observation's count plane holding the seeds."""
    import numpy as np
    import gdef_core.interop.openspiel  # noqa: F401  (registers "gdef")

    ours_game, theirs_game = pyspiel.load_game("gdef", {"path": KALAH}), pyspiel.load_game("mancala")
    shape = ours_game.observation_tensor_shape()
    assert shape == [3, 8, 2]   # no objects, two players' planes, the counts

    def same_count_plane(ours, theirs, where: str) -> None:
        counts = np.array(ours.observation_tensor()).reshape(shape)[2]
        assert [int(counts[x, y]) for x, y in KALAH_PITS] == spiel_pits(theirs), where

    def pit_actions(ours, theirs, player: int, where: str) -> dict[int, int]:
        return {KALAH_PITS.index(sown_square(ours, player, action)): action for action in ours.legal_actions()}

    play_alongside(ours_game.new_initial_state, theirs_game, games=10, seed=3, label="adapter",
                   same=same_count_plane, actions=pit_actions)


OWARE = str(EXAMPLES / "oware.gdef")
# OpenSpiel's house h is our square OWARE_HOUSES[h]; the stores hold what each player captured.
OWARE_HOUSES = [*((h + 1, 0) for h in range(6)), *((12 - h, 1) for h in range(6, 12))]
OWARE_STORES = [(7, 0), (0, 1)]


def oware_position(state) -> tuple[list[int], list[int]]:
    return ([state.board.count(x, y) for x, y in OWARE_HOUSES], [state.board.count(x, y) for x, y in OWARE_STORES])


def spiel_oware(state) -> tuple[list[int], list[int]]:
    """OpenSpiel's seeds per house and scores, from its observation tensor (each / 48)."""
    values = [round(v * 48) for v in state.observation_tensor(0)]
    return values[:12], values[12:]


def oware_action(move, player: int) -> int:
    first = move.ops[0]
    return OWARE_HOUSES.index((first.x, first.y)) - 6 * player


def same_houses(ours, theirs, where: str) -> None:
    assert oware_position(ours.state) == spiel_oware(theirs), where


def oware_moves(ours, theirs, player: int, where: str) -> dict:
    return {oware_action(move, player): move for move in ours.state.legal_moves()}


def swept(ours, theirs, where: str) -> None:
    assert oware_position(ours.state) == spiel_oware(theirs) == ([0] * 12, ours.state.scores), where


@pytest.mark.parametrize("seed", [1, 2])
def test_oware_plays_as_openspiel_oware(seed):
    """At every node the same houses, stores, legal moves and player; at the end the same
    returns and the same board after the final sweep (every house empty, the seeds left in the
    stores: end()'s consequences), and our final scores are OpenSpiel's."""
    game = load_game(OWARE)
    play_alongside(lambda: ApiState(game.new_state()), pyspiel.load_game("oware"), games=15, seed=seed,
                   label=f"seed {seed}", same=same_houses, actions=oware_moves, final=swept)


def test_oware_through_the_gdef_adapter_ends_on_the_swept_board():
    """Through `pyspiel.load_game("gdef", ...)`: the observation's count plane holds OpenSpiel's
    houses and scores at every node, the terminal one too (after the final sweep, which
    end() makes on the board)."""
    import numpy as np
    import gdef_core.interop.openspiel  # noqa: F401  (registers "gdef")

    ours_game, theirs_game = pyspiel.load_game("gdef", {"path": OWARE}), pyspiel.load_game("oware")
    shape = ours_game.observation_tensor_shape()

    def same_count_plane(ours, theirs, where: str) -> None:
        counts = np.array(ours.observation_tensor(0)).reshape(shape)[-1]
        assert ([int(counts[x, y]) for x, y in OWARE_HOUSES], [int(counts[x, y]) for x, y in OWARE_STORES]) \
            == spiel_oware(theirs), where

    def swept_plane(ours, theirs, where: str) -> None:
        same_count_plane(ours, theirs, where)
        assert spiel_oware(theirs)[0] == [0] * 12, where

    def house_actions(ours, theirs, player: int, where: str) -> dict[int, int]:
        return {OWARE_HOUSES.index(sown_square(ours, player, action)) - 6 * player: action
                for action in ours.legal_actions()}

    play_alongside(ours_game.new_initial_state, theirs_game, games=5, seed=4, label="adapter",
                   same=same_count_plane, actions=house_actions, final=swept_plane)


@pytest.mark.parametrize("path, name, depth", [(KALAH, "mancala", 5), (OWARE, "oware", 4)])
def test_perft_counts_as_openspiel(path, name, depth):
    from gdef_core.runtime.perft import perft

    def spiel_perft(state, d: int) -> int:
        if d == 0 or state.is_terminal():
            return 1 if d == 0 else 0
        total = 0
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            total += spiel_perft(after, d - 1)
        return total

    start = pyspiel.load_game(name).new_initial_state()
    assert perft(load_game(path).new_state(), depth) == [spiel_perft(start, d) for d in range(1, depth + 1)]
