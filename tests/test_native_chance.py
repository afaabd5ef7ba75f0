"""The native backend on chance nodes (docs/language.md, "Chance"): chance() and its built-ins
compiled, perft counting each outcome as one move, the outcomes and their weights at a chance
node, random games drawing outcomes by weight from the kernel's per-game generator, and a
failure of chance() replayed through the Python backend for its located error.

Compared with the Python backend, the reference, on both routes of the native backend (the C
route where a C compiler exists, numba with gdef[fast]; a missing one is skipped).
"""
from __future__ import annotations

import random

import pytest

from support import ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.play.games import kernel_seed  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import GdefRuntimeError  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

from native_support import ROUTES, compile_rules, kernel_perft, replay_native_games, use_route  # noqa: E402


@pytest.fixture(scope="module", params=ROUTES, ids=[f"route_{route}" for route in ROUTES], autouse=True)
def route(request):
    with use_route(request.param):
        yield request.param


# A race of two runners on rows 0 and 1, one die on square (7, 2). The game starts with a roll
# (setup()); after each player's move the die is rolled again. The die is loaded: D2 has weight
# 2, and D3 is proposed twice (weights 1 and 2, merged into 3). Player 1 sometimes gets a fourth
# outcome, an empty die square (counted as 3), which reads a game variable and onTurn() in
# chance(). A D1 early in the game is rolled again at once (chanceNext() after a chance
# outcome: two chance nodes in a row). A player moves the runner by the die or by one.
DICE_RACE = (ROOT / "tests" / "data" / "play" / "dice_race.gdef").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def compiled(route, tmp_path_factory):
    """(game, native rules) of DICE_RACE, compiled on `route` into a temporary cache."""
    path = tmp_path_factory.mktemp("gdef-native-chance")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path / "cache"))
        yield compile_rules(path, "dicerace", DICE_RACE)


def python_positions(game, count: int, seed: int):
    """The states of `count` random games played by the Python backend (chance nodes drawn by
    weight, players' moves uniformly), every position once."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while not state.is_over:
            yield state.clone()
            state.apply(state.random_move(rng))


def test_perft_counts_each_outcome_as_one_move(compiled):
    game, native = compiled
    start = game.new_state()
    assert start.is_chance_node
    counts = perft(start, 7)
    assert counts[:3] == [3, 7, 19]   # three faces; then a player's two moves (one after a D1)
    assert kernel_perft(native, start, 7) == native.perft(start, 7) == counts


def test_perft_from_a_player_turn_and_from_a_chance_node_in_the_middle(compiled):
    game, native = compiled
    state = game.new_state()
    state.apply("place(7,2,D2)")   # a roll: player 0 moves
    assert not state.is_chance_node and state.player == 0
    assert kernel_perft(native, state, 6) == perft(state, 6)
    state.apply("clear(0,0); place(2,0,R)")   # player 0's move: the die is rolled for player 1
    assert state.is_chance_node and state.player == 1
    assert native.chance_outcomes(state) == state.chance_outcomes()
    assert kernel_perft(native, state, 6) == perft(state, 6)


def test_outcomes_weights_and_legal_moves_agree_at_every_position(compiled):
    game, native = compiled
    chance_nodes = decisions = 0
    sizes = set()
    for state in python_positions(game, 12, seed=5):
        if state.is_chance_node:
            chance_nodes += 1
            outcomes = state.chance_outcomes()
            sizes.add(len(outcomes))
            assert native.chance_outcomes(state) == outcomes
            assert native.legal_moves(state) == [move for move, _ in outcomes]
            assert native.judge(state, [outcomes[0][0], "place(7,2,R)"]) == [True, False]
        else:
            decisions += 1
            assert native.chance_outcomes(state) == []
            assert native.legal_moves(state) == state.legal_moves()
    assert chance_nodes > 50 and decisions > 50 and sizes == {3, 4}   # 4: player 1's empty die square
    weights = dict((str(move), w) for move, w in game.new_state().chance_outcomes())
    assert weights == {"place(7,2,D1)": 1, "place(7,2,D2)": 2, "place(7,2,D3)": 3}


def test_native_games_replay_in_python_with_the_same_end(compiled):
    """Every outcome the kernel drew is one the Python backend offers at that chance node."""
    game, native = compiled
    outcomes = replay_native_games(game, native, game.new_state(), 40)
    assert {0, 1} <= {o.winner for o in outcomes}


def test_mcts_native_playouts_from_a_chance_node(compiled):
    """mcts's native playouts start at a chance node as gdef-sim's games do, and a native mcts
    plays legal moves through the rolls."""
    from gdef_core.play import mcts
    from gdef_core.play.mcts import MctsAgent
    from gdef_core.play.native_sim import native_playout

    game, native = compiled
    start = game.new_state()
    winners = [o.winner for o in native_games(native, range(8), 9, None, start)]
    assert [native_playout(native, start, kernel_seed(9, k, 0), None) for k in range(8)] == winners
    mcts._native_rules[game] = native   # the rules compiled here, not a second compile
    agent = MctsAgent(2, iterations=60, playouts="native")
    rng = random.Random(2)
    state = start.clone()
    while not state.is_over:
        if state.is_chance_node:
            state.apply(state.sample_chance(rng))
        else:
            move = agent.choose(state)
            assert move in state.legal_moves()
            state.apply(move)


def _splitmix_draw(seed: int) -> float:
    """The first number of the kernels' splitmix64 stream seeded `seed` (kernel.py: _rand)."""
    mask = 2**64 - 1
    z = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return (z >> 11) / 2**53


def test_the_kernel_draws_an_outcome_by_weight(compiled):
    """The game starts at a chance node, so its first move is the outcome whose running sum of
    weights (1, 2, 3) exceeds int(first draw * 6): D1 for 0, D2 for 1-2, D3 for 3-5."""
    game, native = compiled
    start = game.new_state()
    seen = []
    for seed in range(60):
        first = native.recorded_moves(seed, start, 1)
        t = int(_splitmix_draw(seed) * 6)
        assert [str(move) for move in first] == [f"place(7,2,D{1 if t < 1 else 2 if t < 3 else 3})"], seed
        seen.append(str(first[0]))
    assert {seen.count(f"place(7,2,D{k})") for k in (1, 2, 3)} != {20}   # not uniform: weighted


def test_gdef_sim_totals_do_not_depend_on_how_the_games_are_cut(compiled):
    """gdef-sim's kernel: game g depends on (seed, g) alone, chance nodes included, so the
    totals are the same in one call or in several (and so for any --jobs)."""
    game, native = compiled
    start = game.new_state()
    whole = native.simulate(11, 0, 30, start, None)
    parts = [native.simulate(11, a, b, start, None) for a, b in ((0, 7), (7, 20), (20, 30))]
    assert whole.games == 30 and whole.left == []
    assert whole.total_length == sum(p.total_length for p in parts)
    assert whole.wins == [sum(p.wins[k] for p in parts) for k in range(2)]
    assert whole.total_scores == [sum(p.total_scores[k] for p in parts) for k in range(2)]
    assert native.simulate(11, 0, 30, start, None) == whole   # reproducible
    outcomes = native_games(native, range(30), 11, None, start)
    assert sum(o.length for o in outcomes) == whole.total_length


def test_the_move_cap_counts_chance_outcomes(compiled):
    game, native = compiled
    seeds = np.array([kernel_seed(4, k, 0) for k in range(5)], dtype=np.uint64)
    playouts = native.playouts(seeds, game.new_state(), 3)
    assert list(playouts.lengths) == [3] * 5 and list(playouts.status) == [1] * 5   # capped


# DICE_RACE whose chance() fails from move 2 on, in the way game variable `failure` says.
FAILING = DICE_RACE.replace("int rolls = 0;", "int rolls = 0;\nint failure = 0;").replace("define chance() {", """define chance() {
  if (moveNumber() >= 2) {
    if (failure == 0) { addPlace(7, 2, D1); addOutcome(0); }            // a weight below 1
    if (failure == 1) { addPlace(7, 2, D1); addOutcome(2147483649); }   // above 2^31
    if (failure == 2) { addPlace(7, 2, D1); }                           // no outcome finished
    if (failure == 3) { addPlace(9, 2, D1); addOutcome(1); }            // off the board
    return;
  }""")


@pytest.fixture(scope="module")
def failing(route, tmp_path_factory):
    path = tmp_path_factory.mktemp("gdef-native-chance-failing")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path / "cache"))
        yield compile_rules(path, "failing", FAILING)


@pytest.mark.parametrize("failure, code", [(0, "G616"), (1, "G616"), (2, "G615"), (3, "G603")])
def test_a_failing_chance_is_replayed_for_its_located_error(failing, failure, code):
    """At the first chance node after move 2, chance() fails: the kernel stops the game and
    gdef-sim's replay through the Python backend raises the located error; the outcomes asked
    natively fall back to the Python backend, which raises it too."""
    game, native = failing
    data = game.new_state().to_json()
    start = game.state_from_json({**data, "vars": {**data["vars"], "failure": failure}})
    seeds = np.array([kernel_seed(1, k, 0) for k in range(3)], dtype=np.uint64)
    assert list(native.playouts(seeds, start, None).status) == [3, 3, 3]   # FAILED
    for outcome in native_games(native, range(3), 1, None, start):
        assert isinstance(outcome, GdefRuntimeError), outcome
        assert outcome.code == code
    state = start.clone()
    state.apply("place(7,2,D2)")
    state.apply(state.legal_moves()[0])
    assert state.is_chance_node
    with pytest.raises(GdefRuntimeError) as raised:
        native.chance_outcomes(state)
    assert raised.value.code == code


def test_chance_with_a_history_is_left_to_the_python_backend(tmp_path):
    """repetitions() or nextBoardSeen() with chance: not compiled natively (said), the Python
    backend plays it."""
    from gdef_core.native import NativeRules
    from gdef_core.runtime import load_game

    text = DICE_RACE.replace("define isMoveLegal() -> bool { return isGenerated(); }",
                             "define isMoveLegal() -> bool { return isGenerated() && !nextBoardSeen(); }")
    path = tmp_path / "history.gdef"
    path.write_text(text, encoding="utf-8")
    said: list[str] = []
    assert NativeRules.load(load_game(str(path)), said.append) is None
    assert "chance in a game that keeps its history" in said[-1]


def test_both_routes_draw_the_same_outcomes(compiled, route):
    """The C route and numba draw the same numbers at chance nodes too: the same games. Once,
    under route_numba (whose compiled rules the tests above made)."""
    if route != "numba":
        pytest.skip("compares the C route with numba: runs under route_numba")
    from gdef_core.native import NativeRules

    game, native = compiled
    c_rules = NativeRules.load(game, None, route="c")
    assert c_rules is not None and c_rules.route == "c"
    seeds = np.array([kernel_seed(6, k, 0) for k in range(50)], dtype=np.uint64)
    ours, theirs = native.playouts(seeds, game.new_state(), None), c_rules.playouts(seeds, game.new_state(), None)
    assert list(ours.lengths) == list(theirs.lengths) and list(ours.winners) == list(theirs.winners)
    assert native.recorded_moves(int(seeds[3]), game.new_state(), None) == \
        c_rules.recorded_moves(int(seeds[3]), game.new_state(), None)


def _example_rules(tmp_path_factory, name: str):
    """(game, native rules) of examples/NAME.gdef, compiled into a temporary cache."""
    from gdef_core.native import NativeRules
    from gdef_core.runtime import load_game

    path = tmp_path_factory.mktemp(f"gdef-native-{name}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path / "cache"))
        game = load_game(str(ROOT / "examples" / f"{name}.gdef"))
        said: list[str] = []
        native = NativeRules.load(game, said.append)
        assert native is not None, said
        yield game, native


@pytest.fixture(scope="module")
def einstein(route, tmp_path_factory):
    """(game, native rules) of examples/einstein.gdef, whose two opening chance nodes have 720
    outcomes each (the merge's hash table)."""
    yield from _example_rules(tmp_path_factory, "einstein")


@pytest.fixture(scope="module")
def backgammon(route, tmp_path_factory):
    """(game, native rules) of examples/backgammon.gdef: counts, weighted outcomes, a turn
    searched recursively over arrays passed to functions."""
    yield from _example_rules(tmp_path_factory, "backgammon")


def test_einstein_agrees_with_the_python_backend(einstein):
    game, native = einstein
    start = game.new_state()
    assert len(native.chance_outcomes(start)) == 720 and native.chance_outcomes(start) == start.chance_outcomes()
    sizes = set()
    for state in python_positions(game, 3, seed=2):
        if state.is_chance_node:
            sizes.add(len(state.chance_outcomes()))
            assert native.chance_outcomes(state) == state.chance_outcomes()
        else:
            assert native.legal_moves(state) == state.legal_moves()
    assert {720, 6} <= sizes   # the placements, then the die
    rng = random.Random(7)
    state = start.clone()
    for _ in range(3):   # both placements and the first roll
        state.apply(state.random_move(rng))
    assert kernel_perft(native, state, 4) == perft(state, 4)
    replay_native_games(game, native, start, 10)


def test_backgammon_agrees_with_the_python_backend(backgammon):
    game, native = backgammon
    sizes, weights = set(), set()
    for state in python_positions(game, 3, seed=4):
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            sizes.add(len(outcomes))
            weights |= {weight for _, weight in outcomes}
            assert native.chance_outcomes(state) == outcomes
        else:
            assert native.legal_moves(state) == state.legal_moves()
    assert sizes == {30, 21} and weights == {1, 2}   # the opening roll, then two dice low then high
    state = game.new_state()
    state.apply("place(9,1,D6); place(10,1,D1)")   # X opens with 6 and 1
    assert kernel_perft(native, state, 3) == perft(state, 3)
    replay_native_games(game, native, game.new_state(), 10)
