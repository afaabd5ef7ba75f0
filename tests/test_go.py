"""examples/go against OpenSpiel's `go` (board_size=9, komi=7.5, and other sizes and komis
through both games' parameters), a reference nobody here wrote.

A move of ours is one stone (or a pass): the stones it captures are consequences, made by
end() (and, to judge the move, by isMoveLegal() on ResultPosition), never part of the move.
Along seeded random games, at every ply: our legal moves are OpenSpiel's legal actions (an
action a is the point (a % 9, a // 9), action 81 the pass), less the moves that repeat an
earlier board (OpenSpiel plays them and ends the game as a draw; our positional superko forbids
them: the one difference rules.gdef's header states); after each move both boards are the same
(captures agree); both agree on the end, and our winner is the player OpenSpiel's returns favour.
Then small positions: a capture, a suicide refused, a ko refused, area scoring with komi; and
the first hundred plies of a 19x19 game.
"""
from __future__ import annotations

import random

import pytest

from support import ROOT, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")

import gdef_core.interop.openspiel  # noqa: E402,F401  (registers "gdef")
from gdef_core import GameLoadError, Move, load_game  # noqa: E402

GO = ROOT / "examples" / "go"
SIZE = 9
PASS = SIZE * SIZE


@pytest.fixture(scope="module")
def game():
    return load_game([str(GO / "go9.gdef")])


@pytest.fixture(scope="module")
def game19():
    return load_game([str(GO / "go19.gdef")])


@pytest.fixture(scope="module")
def spiel_game():
    return pyspiel.load_game("go", {"board_size": SIZE, "komi": 7.5})


def point_of(action: int, size: int) -> tuple[int, int] | None:
    return None if action == size * size else (action % size, action // size)


def point(action: int) -> tuple[int, int] | None:
    """Our point of an OpenSpiel action; None for the pass."""
    return None if action == PASS else (action % SIZE, action // SIZE)


def placed(move) -> tuple[int, int] | None:
    """The point a move of ours puts its stone on; None for the pass."""
    return next(((op.x, op.y) for op in move.ops if op.obj is not None), None)


def spiel_board(theirs) -> dict[tuple[int, int], str]:
    """OpenSpiel's stones as {(x, y): "B" | "W"}, read from its observation planes."""
    size = theirs.get_game().get_parameters()["board_size"]
    planes = theirs.observation_tensor(0)
    cells = size * size
    stones = {}
    for cell in range(cells):
        if planes[cell]:
            stones[point_of(cell, size)] = "B"
        elif planes[cells + cell]:
            stones[point_of(cell, size)] = "W"
    return stones


def our_board(state) -> dict[tuple[int, int], str]:
    return {(x, y): str(o) for x, y, o in state.board.occupied()}


def repeats_a_board(theirs, action: int) -> bool:
    """Whether OpenSpiel ends the game as a superko draw after `action` (komi 7.5 allows no
    other draw)."""
    child = theirs.child(action)
    return child.is_terminal() and child.returns() == [0.0, 0.0]


def assert_same_legal_moves(ours: set, theirs, where: str) -> None:
    """Ours are OpenSpiel's legal actions less those that repeat a board (only those are
    cloned and tried, to keep the test fast)."""
    size = theirs.get_game().get_parameters()["board_size"]
    actions = {None if a == size * size else (a % size, a // size): a for a in theirs.legal_actions()}
    assert ours <= set(actions), f"{where}, ply {theirs.move_number()}: {ours - set(actions)}\n{theirs}"
    for p in set(actions) - ours:
        assert repeats_a_board(theirs, actions[p]), f"{where}, ply {theirs.move_number()}: {p}\n{theirs}"


def winner_of(theirs) -> int | None:
    black, white = theirs.returns()
    return None if black == white else (0 if black > white else 1)


def random_game(ours, theirs, seed: int, where: str) -> int:
    """Plays a seeded random game in both, comparing them at every ply; -> the stones captured.
    A placement chosen uniformly, or (with probability 0.15 in odd seeds, and always when there
    is no placement) a pass: even seeds reach OpenSpiel's move limit, odd ones mostly end by
    two passes in a row."""
    size = theirs.get_game().get_parameters()["board_size"]
    rng = random.Random(seed)
    pass_rate = 0.15 if seed % 2 else 0.0
    captures = 0
    while not theirs.is_terminal():
        assert not ours.is_over and ours.current_player == theirs.current_player()
        legal = ours.legal_moves()
        moves = {placed(move): move for move in legal}
        assert len(moves) == len(legal)
        assert all(len(move.ops) <= 1 for move in legal)   # one stone or a pass: captures follow
        assert_same_legal_moves(set(moves), theirs, where)
        placements = sorted(p for p in moves if p is not None)
        chosen = None if not placements or rng.random() < pass_rate else rng.choice(placements)
        move = moves[chosen]
        stones = len(our_board(ours)) + (chosen is not None)
        theirs.apply_action(size * size if chosen is None else chosen[0] + size * chosen[1])
        ours.apply(move)
        assert our_board(ours) == spiel_board(theirs), f"{where}, after {move}"
        captures += stones - len(our_board(ours))
        assert ours.is_over == theirs.is_terminal()
    assert ours.winner == winner_of(theirs)
    black, white = ours.scores
    assert (black > white) == (ours.winner == 0) and (black == white) == (ours.winner is None)
    if pass_rate == 0.0:   # these games run to OpenSpiel's move limit
        assert ours.move_number == theirs.get_game().max_game_length() == 2 * size * size
    return captures


@pytest.mark.parametrize("seed", range(10))
def test_random_games_agree_with_openspiel_at_every_ply(game, spiel_game, seed):
    captures = random_game(game.new_state(), spiel_game.new_initial_state(), seed, f"seed {seed}")
    if seed % 2 == 0:   # the games that run to the move limit capture
        assert captures > 0


# The same game at other sizes and komis, through both games' parameters (an integer komi
# allows a draw; OpenSpiel's go takes sizes 2 to 19).
@pytest.mark.parametrize("size, komi, seed", [(5, 0.5, 1), (5, 0.0, 2), (7, 6.5, 3), (7, 0.0, 4),
                                              (13, 6.5, 5), (13, -3.5, 6), (2, 1.0, 7)])
def test_parameters_agree_with_openspiel(size, komi, seed):
    ours = load_game([str(GO / "go9.gdef")], params={"board_size": size, "komi": komi})
    assert (ours.width, ours.height) == (size, size)
    theirs = pyspiel.load_game("go", {"board_size": size, "komi": komi})
    where = f"size {size}, komi {komi}, seed {seed}"
    random_game(ours.new_state(), theirs.new_initial_state(), seed, where)


@pytest.mark.parametrize("size, komi, seed", [(5, 0.5, 11), (9, 7.5, 12), (13, 6.5, 13)])
def test_the_openspiel_adapter_takes_the_parameters(size, komi, seed):
    """Our OpenSpiel adapter, loaded as OpenSpiel users load go (`board_size`, `komi`): the
    same legal actions (less the superko repeats) and the same returns as OpenSpiel's go."""
    ours_game = pyspiel.load_game("gdef", {"path": str(GO / "go9.gdef"), "board_size": size, "komi": komi})
    assert (ours_game.get_parameters()["board_size"], ours_game.get_parameters()["komi"]) == (size, komi)
    assert ours_game.num_distinct_actions() == size * size * 3 + 1   # one stone or a pass: the small range
    theirs_game = pyspiel.load_game("go", {"board_size": size, "komi": komi})
    rng = random.Random(seed)
    ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
    while not theirs.is_terminal():
        player = theirs.current_player()
        assert not ours.is_terminal() and ours.current_player() == player
        mine = {}
        for action in ours.legal_actions():
            text = ours.action_to_string(player, action)
            p = None if text == "pass" else placed(Move.parse(text))
            mine[size * size if p is None else p[0] + size * p[1]] = action
        assert set(mine) <= set(theirs.legal_actions())
        for extra in set(theirs.legal_actions()) - set(mine):
            assert repeats_a_board(theirs, extra), f"size {size}, ply {theirs.move_number()}: {extra}"
        placements = sorted(a for a in mine if a != size * size)
        chosen = rng.choice(placements) if placements and rng.random() > 0.05 else size * size
        theirs.apply_action(chosen)
        ours.apply_action(mine[chosen])
    assert ours.is_terminal() and ours.returns() == theirs.returns()


def test_the_parameters_are_checked():
    for wrong in ({"board_size": 20}, {"board_size": 1}, {"komi": 2000.0}):
        with pytest.raises(GameLoadError):
            load_game([str(GO / "go9.gdef")], params=wrong)


def play(game, spiel_game, points):
    """Plays the same points in both (None: a pass); our move is the legal one placing there."""
    ours, theirs = game.new_state(), spiel_game.new_initial_state()
    for p in points:
        move = next(m for m in ours.legal_moves() if placed(m) == p)
        ours.apply(move)
        theirs.apply_action(PASS if p is None else p[0] + SIZE * p[1])
    assert our_board(ours) == spiel_board(theirs)
    return ours, theirs


def test_a_capture_removes_the_group(game, spiel_game):
    # White's two stones on (0,0) and (1,0); Black takes their last liberty on (2,0).
    ours, theirs = play(game, spiel_game, [(0, 1), (0, 0), (1, 1), (1, 0)])
    assert ours.check("place(2,0,B)")
    assert not ours.check("place(2,0,B); clear(0,0); clear(1,0)")   # captures are not typed
    assert not ours.check("place(2,0,B); clear(0,0)")
    move = ours.read_move("C1")   # the stone's name: the captured stones follow
    assert [str(op) for op in move.ops] == ["place(2,0,B)"]
    ours.apply(move)
    assert our_board(ours) == {(0, 1): "B", (1, 1): "B", (2, 0): "B"}
    theirs.apply_action(2)
    assert our_board(ours) == spiel_board(theirs)


def test_suicide_is_refused(game, spiel_game):
    # Black on (1,0) and (0,1): White may not play into the corner (0,0).
    ours, theirs = play(game, spiel_game, [(1, 0), (8, 8), (0, 1)])
    assert ours.current_player == 1
    assert not ours.check("place(0,0,W)")
    assert 0 not in theirs.legal_actions()
    # but Black may fill its own eye while the group keeps a liberty
    ours, theirs = play(game, spiel_game, [(1, 0), (8, 8), (0, 1), (8, 7), (0, 0)])
    assert our_board(ours)[(0, 0)] == "B"


KO = [(1, 2), (2, 2), (0, 1), (1, 1), (1, 0), (2, 0), (8, 8), (3, 1)]
#   y=2  . B W .      Black takes on (2,1), capturing (1,1); White may not take back at once.
#   y=1  B W . W
#   y=0  . B W .


def test_ko_is_refused_until_the_board_has_changed(game, spiel_game):
    ours, theirs = play(game, spiel_game, KO)
    ours.apply("place(2,1,B)")
    theirs.apply_action(2 + SIZE * 1)
    assert our_board(ours) == spiel_board(theirs) and (1, 1) not in our_board(ours)
    assert not ours.check("place(1,1,W)")
    assert (1, 1) not in {placed(m) for m in ours.legal_moves()}
    assert 1 + SIZE * 1 not in theirs.legal_actions()
    # after a move elsewhere by each side the board is new, and the retake is legal
    for p in [(8, 0), (7, 8)]:
        ours.apply(f"place({p[0]},{p[1]},{'W' if ours.current_player else 'B'})")
        theirs.apply_action(p[0] + SIZE * p[1])
    assert ours.check("place(1,1,W)")
    assert 1 + SIZE * 1 in theirs.legal_actions()


# Two kos, the left one held by White (its stone on (1,1)), the right one by Black ((7,7)).
DOUBLE_KO = [(7, 7), (1, 1), (1, 2), (2, 2), (0, 1), (3, 1), (1, 0), (2, 0),
             (6, 6), (7, 6), (5, 7), (8, 7), (6, 8), (7, 8)]


def test_superko_forbids_what_openspiel_scores_as_a_draw(game, spiel_game):
    # Black takes the left ko, White the right one, Black passes (which frees OpenSpiel's ko
    # point), White takes back the left ko: Black's retaking of the right ko now recreates
    # the board the game started these moves from.
    ours, theirs = play(game, spiel_game, DOUBLE_KO + [(2, 1), (6, 7), None, (1, 1)])
    assert not ours.is_over and ours.current_player == 0
    retake = 7 + SIZE * 7
    assert retake in theirs.legal_actions() and repeats_a_board(theirs, retake)
    assert not ours.check("place(7,7,B)")
    assert (7, 7) not in {placed(m) for m in ours.legal_moves()}
    assert ours.check("place(4,4,B)")


@pytest.mark.parametrize("points, scores, winner", [
    # one black stone: the whole board is Black's
    ([(4, 4), None, None], [81, 7.5], 0),
    # one stone each: every empty point reaches both colours and counts for nobody
    ([(2, 2), (6, 6), None, None], [1, 8.5], 1),
    # walls on columns 4 (Black) and 5 (White): 45 to 36; komi leaves Black 1.5 ahead
    ([p for y in range(9) for p in ((4, y), (5, y))] + [None, None], [45, 43.5], 0),
    # walls on columns 3 (Black) and 4 (White): 36 to 45 + 7.5
    ([p for y in range(9) for p in ((3, y), (4, y))] + [None, None], [36, 52.5], 1),
])
def test_area_scoring_with_komi(game, spiel_game, points, scores, winner):
    ours, theirs = play(game, spiel_game, points)
    assert ours.is_over and theirs.is_terminal()
    assert ours.scores == scores
    assert ours.winner == winner == winner_of(theirs)


def test_two_passes_end_the_game_but_one_does_not(game, spiel_game):
    ours, theirs = play(game, spiel_game, [None, (4, 4), None])
    assert not ours.is_over and not theirs.is_terminal()
    ours, theirs = play(game, spiel_game, [(4, 4), None, None])
    assert ours.is_over and theirs.is_terminal()
    assert ours.check("pass").kind.name == "GAME_OVER"


def test_go19_agrees_with_openspiel_for_the_first_hundred_plies(game19):
    rng = random.Random(19)
    ours = game19.new_state()
    theirs = pyspiel.load_game("go", {"board_size": 19, "komi": 7.5}).new_initial_state()
    for _ in range(100):
        moves = {placed(move): move for move in ours.legal_moves()}
        assert_same_legal_moves(set(moves), theirs, "19x19")
        x, y = rng.choice(sorted(p for p in moves if p is not None))
        ours.apply(moves[(x, y)])
        theirs.apply_action(x + 19 * y)
        planes = theirs.observation_tensor(0)
        stones = {(c % 19, c // 19): "B" if planes[c] else "W"
                  for c in range(361) if planes[c] or planes[361 + c]}
        assert our_board(ours) == stones


def test_go19_uses_the_same_rules(game19):
    state = game19.new_state()
    assert len(state.legal_moves()) == 19 * 19 + 1
    state.apply("place(0,1,B)")
    state.apply("place(0,0,W)")
    state.apply("place(1,0,B)")
    assert state.board[0, 0] == "empty" and state.board[1, 0] == "B"
