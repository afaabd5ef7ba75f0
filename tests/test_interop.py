"""The OpenSpiel and PettingZoo adapters (gdef_core.interop): each framework's own conformance
test on every example, searches and games played through their APIs, the action numbering."""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support import ROOT, need_module

pyspiel = need_module("pyspiel", "pip install -e '.[interop]'")
need_module("pettingzoo", "pip install -e '.[interop]'")

from open_spiel.python.algorithms import mcts  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import gdef_core.interop.openspiel as gdef_openspiel  # noqa: E402
from gdef_core.interop.actions import ActionMap, ActionRangeError  # noqa: E402
from gdef_core.interop.pettingzoo import env as gdef_env  # noqa: E402
from gdef_core.runtime import Move, load_game  # noqa: E402


def _games() -> list[str]:
    """Every example that is a game (libraries that are only `use`d are skipped)."""
    found = []
    for path in sorted((ROOT / "examples").rglob("*.gdef")):
        text = path.read_text(encoding="utf-8")
        if "players:" in text:
            found.append(str(path))
    return found


# The action numbering (docs/interop.md, "Actions") tells apart `move_variants` (default 4)
# legal moves with the same first operation and the same last square; a backgammon turn (up
# to four checker moves, over a hundred turns sharing both in one position) needs more.
ADAPTER_PARAMS = {"backgammon": {"move_variants": 256}}


def _adapter_params(path: str) -> dict:
    return ADAPTER_PARAMS.get(Path(path).stem, {})


GAMES = _games()
TICTACTOE = str(ROOT / "examples/tictactoe.gdef")
CHECKERS = str(ROOT / "examples/checkers.gdef")
CHESS = str(ROOT / "examples/chess/chess.gdef")
GO9 = str(ROOT / "examples/go/go9.gdef")


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_openspiel_random_sim_test_passes_on_every_example(path):
    game = pyspiel.load_game("gdef", {"path": path, **_adapter_params(path)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_position_beyond_the_action_scheme_names_the_game():
    game = load_game(str(ROOT / "examples/backgammon.gdef"))
    state = game.new_state()
    state.apply("place(9,1,D6); place(10,1,D1)")   # X opens with 6 and 1
    assert ActionMap(game).legal(state)
    state.apply(state.legal_moves()[0])
    state.apply("D3+D3")                            # O's double 3: its turns share first and last squares
    with pytest.raises(ActionRangeError, match=r"^backgammon: 28 legal moves start with count\(12,2,1\) "
                                               r"and end on the square of clear\(10,1\); the action "
                                               r"numbering tells apart 4 \(move_variants\): load the "
                                               r"game with move_variants of at least 28$"):
        ActionMap(game).legal(state)
    wider = ActionMap(game, 28)
    legal = wider.legal(state)
    assert len(legal) == len(state.legal_moves())
    assert wider.size == 421 + 420 * 42 * 28    # C + 1 + C * S * V: C = 42 squares x (8 objects + 2)


def test_move_variants_is_a_parameter_of_both_adapters():
    path = str(ROOT / "examples/backgammon.gdef")
    game = pyspiel.load_game("gdef", {"path": path, "move_variants": 256})
    assert game.num_distinct_actions() == 421 + 420 * 42 * 256
    assert game.get_parameters()["move_variants"] == 256
    environment = gdef_env(path, move_variants=256)
    environment.reset(seed=1)
    assert environment.action_space("player_0").n == game.num_distinct_actions()
    with pytest.raises(ValueError, match="move_variants must be at least 1"):
        pyspiel.load_game("gdef", {"path": path, "move_variants": 0})


def test_load_is_load_game():
    via_load = gdef_openspiel.load(TICTACTOE)
    via_pyspiel = pyspiel.load_game("gdef", {"path": TICTACTOE})
    assert type(via_load) is type(via_pyspiel)
    assert via_load.get_parameters() == via_pyspiel.get_parameters()
    assert via_load.num_distinct_actions() == via_pyspiel.num_distinct_actions() == 28
    assert via_load.num_players() == 2
    assert via_load.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_tictactoe_actions_and_returns():
    game = gdef_openspiel.load(TICTACTOE)
    state = game.new_initial_state()
    # 3x3 board, objects X and O: place(x,y,X) is (3x + y) * 3 + 1, place(x,y,O) ... + 2.
    assert state.legal_actions() == [1, 4, 7, 10, 13, 16, 19, 22, 25]
    assert state.action_to_string(0, 13) == "place(1,1,X)"
    for action in (13, 2, 4, 11, 22):   # X (1,1), O (0,0), X (0,1), O (1,0), X (2,1): row y=1
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_observation_tensor_has_a_plane_per_object_and_per_player():
    game = gdef_openspiel.load(TICTACTOE)
    state = game.new_initial_state()
    state.apply_action(13)   # place(1,1,X)
    planes = np.array(state.observation_tensor(0)).reshape(4, 3, 3)   # X, O, player 0, player 1
    assert planes[0].sum() == 1 and planes[0, 1, 1] == 1
    assert planes[1].sum() == 0
    assert planes[2].sum() == 0 and planes[3].sum() == 9     # player 1 to move


def test_serialisation_round_trip_keeps_the_position():
    game = gdef_openspiel.load(CHECKERS)
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(state)
    assert restored.legal_actions() == state.legal_actions()
    assert restored.history() == state.history()


def test_openspiel_mcts_bot_plays_a_gdef_game_to_the_end():
    game = gdef_openspiel.load(str(ROOT / "examples/connect4.gdef"))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [mcts.MCTSBot(game, 1.4, 30, evaluator, random_state=np.random.RandomState(p))
            for p in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == 0.0
    assert len(state.history()) <= 42


def test_mcts_beats_random_at_tictactoe_through_openspiel():
    game = gdef_openspiel.load(TICTACTOE)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = mcts.MCTSBot(game, 1.4, 200, evaluator, random_state=rng, solve=True)
    losses = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        losses += state.returns()[0] < 0
    assert losses == 0


def test_bad_path_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="cannot|no such|not found|does not exist"):
        pyspiel.load_game("gdef", {"path": str(tmp_path / "missing.gdef")})
    broken = tmp_path / "broken.gdef"
    broken.write_text("name: b\nplayers: 2\nsize: 3 x 3\nobj X\n"
                      "define isMoveLegal() -> bool { return 1; }\ndefine end() -> bool { return false; }\n")
    with pytest.raises(ValueError, match=r"broken\.gdef:5:\d+: error\[G"):
        pyspiel.load_game("gdef", {"path": str(broken)})
    with pytest.raises(ValueError, match="give the game file"):
        pyspiel.load_game("gdef")


def test_max_game_length_stops_a_game_as_a_draw():
    game = pyspiel.load_game("gdef", {"path": CHECKERS, "max_game_length": 3})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 3
    assert state.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ the action numbering


def test_a_move_keeps_its_action_in_every_position():
    """Position-independence: the same multi-operation move has one number wherever it is legal."""
    game = load_game([CHECKERS])
    actions = ActionMap(game)
    seen: dict[str, int] = {}
    state = game.new_state()
    rng = np.random.RandomState(0)
    for _ in range(40):
        if state.is_over:
            break
        legal = actions.legal(state)
        assert len(set(legal)) == len(legal) and all(0 <= a < actions.size for a in legal)
        for action, move in legal.items():
            assert seen.setdefault(str(move), action) == action
        state.apply(legal[list(legal)[rng.randint(len(legal))]])


def test_one_operation_generators_get_the_small_range():
    # connect four's moves() proposes one place at a time: squares x objects + pass.
    assert ActionMap(load_game([str(ROOT / "examples/connect4.gdef")])).size == 7 * 6 * 3 + 1
    assert ActionMap(load_game([CHECKERS])).size > 8 * 8 * 5 + 1
    move = Move.parse("place(3,0,X)")   # connect four's discs are X and O
    assert ActionMap(load_game([str(ROOT / "examples/connect4.gdef")])).describe(
        (3 * 6 + 0) * 3 + 1) == str(move)


# ------------------------------------------------------------------ PettingZoo


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_pettingzoo_api_test_passes_on_every_example(path):
    with pytest.warns(UserWarning):   # PettingZoo warns of every Dict observation (masks)
        api_test(gdef_env(path, **_adapter_params(path)), num_cycles=30, verbose_progress=False)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_every_observation_is_in_the_declared_space(path):
    """Each agent's observation, at every turn of a seeded random game, fits its declared space:
    the dtype (int8, int64 where squares count) and the bounds (0/1, any int in the count plane)."""
    environment = gdef_env(path, **_adapter_params(path))
    environment.reset(seed=3)
    chooser = random.Random(3)
    counted = environment.unwrapped.game.counting
    for turn, agent in enumerate(environment.agent_iter(max_iter=150)):
        for each in environment.agents:
            observation = environment.observe(each)
            assert environment.observation_space(each).contains(observation), (turn, each)
            assert observation["observation"].dtype == (np.int64 if counted else np.int8)
        observation, _, terminated, truncated, _ = environment.last()
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(None if terminated or truncated else int(chooser.choice(legal)))


def test_pettingzoo_game_with_action_masks_to_the_end():
    environment = gdef_env(TICTACTOE)
    environment.reset(seed=1)
    rewards = {agent: 0.0 for agent in environment.possible_agents}
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        rewards[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.shape == (28,) and mask.dtype == np.int8
        action = int(np.flatnonzero(mask)[0])     # the first legal move, every time
        environment.step(action)
        steps += 1
    # First legal square each time: X (0,0), O (0,1), X (0,2), O (1,0), X (1,1), O (1,2),
    # X (2,0): X wins on the diagonal (0,2)-(1,1)-(2,0).
    assert steps == 7
    assert rewards == {"player_0": 1.0, "player_1": -1.0}


def test_pettingzoo_illegal_action_ends_the_game_with_a_penalty():
    environment = gdef_env(TICTACTOE)
    environment.reset()
    environment.step(2)   # place(0,0,O) is not player 0's move
    assert all(environment.terminations.values())
    assert environment.rewards["player_0"] == -1


# ------------------------------------------------------------------ the board as text


def _action(legal: dict, move: str) -> int:
    return next(action for action, legal_move in legal.items() if str(legal_move) == move)


def _drawn_by_gdef_run(path: str, moves: list[str]) -> str:
    """What gdef-run prints at the terminal (no colour on a pipe, UTF-8 glyphs) after `moves`."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.run", path], input="\n".join([*moves, "quit"]) + "\n",
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    return done.stdout


@pytest.mark.parametrize("path, move, drawn", [
    (CHESS, "e2e4", "  a b c d e f g h\n8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ 8\n7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟ 7\n6 . . . . . . . . 6\n"
                    "5 . . . . . . . . 5\n4 . . . . ♙ . . . 4\n3 . . . . . . . . 3\n2 ♙ ♙ ♙ ♙ . ♙ ♙ ♙ 2\n"
                    "1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖ 1\n  a b c d e f g h\nBlack to move."),
    (GO9, "E5", None),
], ids=["chess", "go9"])
def test_observation_string_and_render_draw_the_board_as_gdef_run_does(path, move, drawn):
    game = gdef_openspiel.load(path)
    state = game.new_initial_state()
    inner = state.pos.inner
    action = _action(state.pos.legal_moves(), str(inner.read_move(move)))
    state.apply_action(action)
    text = state.observation_string(1)
    assert text == str(state)
    environment = gdef_env(path, render_mode="ansi")
    environment.reset()
    environment.step(action)  # one action numbering for both
    assert environment.render() == text
    if drawn is not None:
        assert text == drawn
    # the same labels, glyphs and orientation; the terminal may add which objects a player has
    assert text.removesuffix(".") in _drawn_by_gdef_run(path, [move])


# ---------------------------------------------------------------- declared parameters

FILL = str(ROOT / "tests" / "data" / "params" / "fill.gdef")


def test_openspiel_takes_the_games_parameters_by_name():
    game = pyspiel.load_game("gdef", {"path": FILL, "n": 3, "bonus": True})
    assert game.get_parameters() == {"path": FILL, "max_game_length": 10000, "returns": "winner",
                                     "max_chance_outcomes": 4096, "move_variants": 4, "n": 3, "komi": 0.5, "bonus": True}
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 8
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [-1.0, 1.0]  # bonus: the full board is player 1's
    again = pyspiel.load_game(str(game))  # the game string carries the values
    assert again.get_parameters()["n"] == 3 and len(again.new_initial_state().legal_actions()) == 8
    copy, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.is_terminal() and restored.returns() == [-1.0, 1.0]
    assert len(gdef_openspiel.load(FILL, n=5).new_initial_state().legal_actions()) == 24
    with pytest.raises(ValueError, match="parameter 'n' cannot be 30: it takes 2 to 8"):
        pyspiel.load_game("gdef", {"path": FILL, "n": 30})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'size'"):
        pyspiel.load_game("gdef", {"path": FILL, "size": 3})


def test_a_float_parameter_takes_an_int_from_pettingzoo_and_pyspiel():
    """docs/interop.md: an int for a float parameter is that float, through the wrapped
    pyspiel.load_game (which OpenSpiel alone would refuse) and PettingZoo's keywords."""
    assert pyspiel.load_game("gdef", {"path": FILL, "komi": 2}).get_parameters()["komi"] == 2.0
    assert pyspiel.load_game("gdef", {"path": FILL, "komi": 2.0}).get_parameters()["komi"] == 2.0
    env = gdef_env(FILL, komi=2).unwrapped
    assert env.game.params["komi"] == 2.0 and type(env.game.params["komi"]) is float
    with pytest.raises(ValueError, match="parameter 'komi' cannot be 6: it takes -5.0 to 5.5"):
        gdef_env(FILL, komi=6)


def test_pettingzoo_takes_the_games_parameters_as_keyword_arguments():
    env = gdef_env(FILL, n=3).unwrapped
    env.reset(seed=0)
    assert (env.game.width, env.game.height) == (3, 3) and env.game.params["n"] == 3
    assert int(env.observe("player_0")["action_mask"].sum()) == 8
    with pytest.raises(ValueError, match="parameter 'n' cannot be 1: it takes 2 to 8"):
        gdef_env(FILL, n=1)
