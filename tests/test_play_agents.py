"""The computer players: random is reproducible, greedy wins and blocks, mcts plays well,
and every agent says clearly when the player on turn has no legal move."""
from __future__ import annotations

import time

import pytest

from gdef_core.play.agents import GreedyAgent, RandomAgent
from gdef_core.play.errors import NoLegalMoveError
from gdef_core.play.mcts import MctsAgent
from gdef_core.play.simulate import simulate
from gdef_core.play.spec import parse_agent
from gdef_core import load_game

from support import ROOT

CONNECT4 = str(ROOT / "examples" / "connect4.gdef")
STUCK = str(ROOT / "tests" / "data" / "play" / "stuck.gdef")
FAILS = str(ROOT / "tests" / "data" / "play" / "fails_every_move.gdef")


@pytest.fixture(scope="module")
def connect4():
    return load_game([CONNECT4])


def position(game, player: int, squares: dict[tuple[int, int], str], move_number: int):
    """A connect-four state with the given discs and `player` on turn."""
    return game.state_from_json({
        "game": game.name, "width": game.width, "height": game.height, "player": player,
        "move_number": move_number, "over": False, "winner": None, "vars": {},
        "board": [[x, y, obj] for (x, y), obj in squares.items()]})


def play_out(game, agents, seed_moves: int = 200) -> list[str]:
    state = game.new_state()
    moves = []
    while not state.is_over and len(moves) < seed_moves:
        move = agents[state.current_player].choose(state)
        moves.append(str(move))
        state.apply(move)
    return moves


def test_random_agent_is_reproducible_from_its_seed(connect4):
    first = play_out(connect4, [RandomAgent(7), RandomAgent(8)])
    again = play_out(connect4, [RandomAgent(7), RandomAgent(8)])
    other = play_out(connect4, [RandomAgent(9), RandomAgent(8)])
    assert first == again
    assert first != other


def test_agents_do_not_change_the_state_they_are_given(connect4):
    state = connect4.new_state()
    state.apply("place(3,0,X)")
    before = state.clone()
    for agent in (RandomAgent(1), GreedyAgent(1), MctsAgent(1, iterations=20)):
        agent.choose(state)
        assert state == before


# X on (0,0), (1,0), (2,0): whoever is on turn, (3,0) decides the game.
THREE_IN_A_ROW = {(0, 0): "X", (1, 0): "X", (2, 0): "X", (0, 1): "O", (1, 1): "O", (6, 0): "O"}


@pytest.mark.parametrize("seed", range(10))
def test_greedy_wins_at_once(connect4, seed):
    state = position(connect4, 0, THREE_IN_A_ROW, 6)
    assert str(GreedyAgent(seed).choose(state)) == "place(3,0,X)"


@pytest.mark.parametrize("seed", range(10))
def test_greedy_blocks_an_immediate_loss(connect4, seed):
    squares = {(0, 0): "X", (1, 0): "X", (2, 0): "X", (6, 0): "O", (6, 1): "O"}
    state = position(connect4, 1, squares, 5)
    assert str(GreedyAgent(seed).choose(state)) == "place(3,0,O)"


def test_greedy_avoids_a_move_that_lets_the_opponent_win(connect4):
    # X has (0,1), (1,1), (2,1): a disc of O on (3,0) would let X win on (3,1).
    squares = {(0, 0): "O", (1, 0): "O", (2, 0): "X", (0, 1): "X", (1, 1): "X", (2, 1): "X"}
    state = position(connect4, 1, squares, 6)
    greedy = {str(GreedyAgent(seed).choose(state)) for seed in range(40)}
    randomly = {str(RandomAgent(seed).choose(state)) for seed in range(40)}
    assert "place(3,0,O)" in randomly
    assert "place(3,0,O)" not in greedy
    assert len(greedy) == 6   # the six other columns, chosen at random


def test_mcts_wins_at_once(connect4):
    state = position(connect4, 0, THREE_IN_A_ROW, 6)
    assert str(MctsAgent(3, iterations=200).choose(state)) == "place(3,0,X)"


def test_mcts_is_reproducible_with_an_iteration_budget(connect4):
    state = connect4.new_state()
    choices = {str(MctsAgent(5, iterations=60).choose(state)) for _ in range(3)}
    assert len(choices) == 1


def test_mcts_time_budget_is_kept(connect4):
    agent = MctsAgent(5, time_limit=0.2)
    started = time.perf_counter()
    agent.choose(connect4.new_state())
    assert 0.2 <= time.perf_counter() - started < 2.0


def test_mcts_beats_random_in_90_of_100_connect_four_games(connect4):
    """50 games moving first and 50 moving second, 100 iterations a move, seeded: mcts wins
    all 100 (about 13 s on 2 busy cores)."""
    mcts, rand = parse_agent("mcts:iterations=100"), parse_agent("random")
    first = simulate(connect4, [mcts, rand], 50, seed=1, jobs=2)
    second = simulate(connect4, [rand, mcts], 50, seed=2, jobs=2)
    assert first.wins[0] + second.wins[1] >= 90


@pytest.mark.parametrize("agent", [RandomAgent(0), GreedyAgent(0), MctsAgent(0, iterations=10)],
                         ids=lambda agent: agent.name)
def test_no_legal_move_is_reported_clearly(agent):
    game = load_game([STUCK])
    state = game.new_state()
    state.apply("place(0,0,X)")
    with pytest.raises(NoLegalMoveError, match="player 1 has no legal move after 1 moves") as caught:
        agent.choose(state)
    assert "hasLegalMove" in str(caught.value)
    assert "(isMoveLegal() refused all 3 candidates)" in str(caught.value)


@pytest.mark.parametrize("agent", [RandomAgent(0), GreedyAgent(0), MctsAgent(0, iterations=10)],
                         ids=lambda agent: agent.name)
def test_no_legal_move_because_the_rules_fail_names_the_failure(agent):
    """Every candidate refused by a division by zero: the error says so, where, and what to fix
    (not the hasLegalMove() advice meant for a game that forgets a stuck player)."""
    state = load_game([FAILS]).new_state()
    state.apply("place(1,0,X)")
    with pytest.raises(NoLegalMoveError) as caught:
        agent.choose(state)
    message = str(caught.value)
    assert message.startswith("player 1 has no legal move after 1 moves: isMoveLegal() failed on 2 of its 4 "
                              "candidates, the first `place(0,0,X)` at ")
    assert "fails_every_move.gdef:19:12: error[G601]: division by zero (6 / 0)" in message
    assert message.endswith("fix the failure, or make isMoveLegal() return false where it should refuse")
    assert "hasLegalMove" not in message
