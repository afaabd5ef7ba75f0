"""The native backend on the state beyond the board (spec sections 14-15): game-variable arrays
(int, bool, float, 2-D, passed by reference), `counter` variables, PreviousPosition,
repetitions(), nextBoardSeen() with hasLegalMove(), OperationList with a computed second index,
the history a state brings with it (a game resumed or searched from the middle), and a state
set by hand with another value in an array the rules never write (the C route's constant tables).

Each small game below is compiled once and compared with the Python backend, the reference:
perft equal, and native random games replayed move by move through the Python backend legal at
every step with the same end, winner and scores. On both routes of the native backend (the C
route where a C compiler exists, numba with gdef[fast]; a missing one is skipped).
"""
from __future__ import annotations

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.native.backend import FAILED  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402
from gdef_core.play.agents import RandomAgent  # noqa: E402
from gdef_core.play.games import chance_rng, game_seed, kernel_seed, play_on  # noqa: E402
from gdef_core.play.native_sim import native_batch, native_games, native_playout  # noqa: E402

from native_support import ROUTES, compile_rules, kernel_perft, replay_native_games, use_route  # noqa: E402


@pytest.fixture(scope="module", params=ROUTES, ids=[f"route_{route}" for route in ROUTES], autouse=True)
def route(request):
    with use_route(request.param):
        yield request.param

# Two pieces walk on a 3 x 3 board and capture by landing on each other. Repeating a position
# (the bool array `visited` and the player to move included, the counters not) loses; a player
# without a piece has no legal move and loses. Reads of every kind of game-variable array,
# written in end() and read on later turns; OperationList[i][j] with j computed; PreviousPosition
# telling a capture from a quiet move (and equal to CurrentPosition in isMoveLegal()).
# With `superko` set (a state from JSON), no capture and positional superko: no move may
# recreate an earlier board, and the pass moves() proposes is legal only if the board just reached did not count
# as seen while end() asks hasLegalMove() (it must, spec 15.4), so the player without another
# move loses.
WALKERS = """
name: walkers
players: 2
size: 3 x 3
obj A
obj Z

counter int played = 0;         // changes every move: positions are compared without it
counter float weight[2] = 1.5;  // so does this
int caps[2] = 0;                // captures per player
bool visited[3][3] = false;     // squares a piece has landed on
int dx[4] = {1, -1, 0, 0};
int dy[4] = {0, 0, 1, -1};
bool superko = false;
float bonus = 0.5;              // a float in the positions compared

start { (0,0: A), (2,1: Z) }

define mine(int p) -> obj {
  if (p == 0) { return A; }
  return Z;
}

define moves() {
  obj me = mine(onTurn());
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) {
      if (CurrentPosition[x][y] == me) {
        for (int d = 0; d < 4; d = d + 1) {
          int nx = x + dx[d];
          int ny = y + dy[d];
          if (nx >= 0 && nx < 3 && ny >= 0 && ny < 3 && CurrentPosition[nx][ny] != me) {
            addClear(x, y);
            addPlace(nx, ny, me);
            addMove();
          }
        }
      }
    }
  }
  addMove();   // a pass
}

define placed() -> int {
  for (int i = 0; i < operationsNum(); i = i + 1) {
    if (isPlaceOperation(i)) { return i; }
  }
  return -1;
}

define isMoveLegal() -> bool {
  if (!isGenerated()) { return false; }
  if (operationsNum() == 0) { return superko && !nextBoardSeen(); }
  if (superko && nextBoardSeen()) { return false; }
  int i = placed();
  int sum = 0;
  int j = 0;
  while (j < 2) {
    sum = sum + OperationList[i][j];
    j = j + 1;
  }
  if (OperationList[i][j] != mine(onTurn()) || PreviousPosition[0][0] != CurrentPosition[0][0]) {
    return false;
  }
  if (superko && CurrentPosition[OperationList[i][0]][OperationList[i][1]] != empty) { return false; }
  return !(sum == 2 && OperationList[i][0] == 1) || moveNumber() >= 2;   // the centre only later
}

define total(int a[]) -> int {
  return a[0] + a[1];
}

define end() -> bool {
  int me = onTurn();
  played = played + 1;
  int i = placed();
  int x = OperationList[i][0];
  int y = OperationList[i][1];
  if (PreviousPosition[x][y] != empty) { caps[me] = caps[me] + 1; }
  if (visited[x][y]) { weight[me] = weight[me] * 2.0; }
  visited[x][y] = true;
  setScore(me, weight[me] + total(caps) + bonus);
  if (repetitions() >= 2) {
    setWinner(1 - me);
    return true;
  }
  if (!hasLegalMove()) {
    setWinner(me);
    return true;
  }
  return played >= 60;
}
"""


@pytest.fixture(scope="module")
def compiled(route, tmp_path_factory):
    """(game, native rules) of WALKERS, compiled on `route` into a temporary cache (a cold start)."""
    path = tmp_path_factory.mktemp("gdef-native-state")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GDEF_CACHE_DIR", str(path / "cache"))
        yield compile_rules(path, "walkers", WALKERS)


def test_the_rules_say_whether_this_run_compiled_them(compiled):
    """gdef-run --perft and gdef-sim say "compiling the rules" or "loading the compiled rules"."""
    game, native = compiled
    assert native.compiled   # a cold cache
    assert NativeRules.load(game, None).compiled is False   # numba's cache has them now


def test_walkers_perft_equals_the_python_backend(compiled):
    game, native = compiled
    counts = perft(game.new_state(), 9)
    assert counts[-1] > 0
    assert kernel_perft(native, game.new_state(), 9) == counts


def test_walkers_games_end_as_in_python(compiled):
    game, native = compiled
    outcomes = replay_native_games(game, native, game.new_state(), 40)
    assert len({o.length for o in outcomes}) > 3 and {0, 1} <= {o.winner for o in outcomes}


CYCLE = ["clear(0,0); place(1,0,A)", "clear(2,1); place(2,2,Z)",
         "clear(1,0); place(0,0,A)", "clear(2,2); place(2,1,Z)"]


def test_a_repetition_needs_the_arrays_and_player_but_not_the_counters(compiled):
    """A and Z shuffle back and forth: the third occurrence of a position ends the game, though
    the counters `played` and `weight` differ every time (and `visited` must have settled)."""
    game, native = compiled
    state = game.new_state()
    for text in CYCLE * 2 + CYCLE[:3]:
        state.apply(text)
    assert not state.is_over
    python = state.clone()
    python.apply(CYCLE[3])   # the position after moves 4 and 8, a third time
    assert python.is_over and python.winner == 0
    assert kernel_perft(native, state, 3) == perft(state, 3)
    replay_native_games(game, native, state, 20, seed=8)


def test_a_resumed_state_brings_its_history(compiled):
    """The history of a state read back from JSON (gdef-run --resume) is loaded into the
    kernel: perft and games from there count the earlier positions."""
    game, native = compiled
    state = game.new_state()
    for text in CYCLE * 2:
        state.apply(text)
    resumed = game.state_from_json(state.to_json())
    assert len(resumed._history) == 9
    counts = perft(state, 5)
    assert kernel_perft(native, resumed, 5) == perft(resumed, 5) == counts
    fresh = game.state_from_json({**state.to_json(), "history": None})   # no history: starts here
    assert kernel_perft(native, fresh, 5) == perft(fresh, 5) != counts
    outcomes = replay_native_games(game, native, resumed, 10, seed=9)
    # mcts's playouts from the same state, one game each
    assert [native_playout(native, resumed, kernel_seed(9, k, 0), None) for k in range(10)] == [o.winner for o in outcomes]
    # gdef-sim's kernel from the same state: the same games, added up
    totals = native.simulate(9, 0, 10, resumed, None)
    assert (totals.games, totals.total_length, totals.wins, totals.draws) == (
        10, sum(o.length for o in outcomes), [sum(o.winner == p for o in outcomes) for p in range(game.players)],
        sum(o.winner is None for o in outcomes))
    assert totals.total_scores == [sum(o.scores[p] for o in outcomes) for p in range(game.players)]


def test_game_variable_arrays_convert_both_ways(compiled):
    game, native = compiled
    state = game.new_state()
    state.apply("clear(0,0); place(0,1,A)")
    board, V, VF, _ = native.arrays(state)
    assert native.values(V, VF) == state._vars
    assert state._vars[3][0][1] is True and list(VF) == [1.5, 1.5, 0.5]


def superko_start(game):
    return game.state_from_json({**game.new_state().to_json(), "history": None,
                                 "vars": {**game.new_state().to_json()["vars"], "superko": True}})


def test_superko_perft_equals_the_python_backend(compiled):
    game, native = compiled
    start = superko_start(game)
    counts = perft(start, 8)
    assert counts != perft(game.new_state(), 8)
    assert kernel_perft(native, start, 8) == counts


def test_superko_games_end_as_in_python(compiled):
    game, native = compiled
    outcomes = replay_native_games(game, native, superko_start(game), 30)
    assert {0, 1} <= {o.winner for o in outcomes}


def other_steps(game):
    """The start with `dx` set by hand to other steps (State.from_json, as a record edited by
    hand is read): pieces jump two columns. No function writes `dx`, so the C route compiles it
    as a constant table (lower/tables.py)."""
    start = game.new_state().to_json()
    return game.state_from_json({**start, "history": None, "vars": {**start["vars"], "dx": [2, -2, 0, 0]}})


def test_a_constant_array_set_by_hand_is_read_as_set(compiled, route):
    """Legal moves, perft and judgements from a state whose never-written array holds another
    value than its declaration's are the Python backend's: the C route answers through it
    (its table holds the declared steps), numba reads the state's own."""
    game, native = compiled
    state = other_steps(game)
    legal = state.legal_moves()
    declared = game.new_state().legal_moves()
    assert {str(move) for move in legal} == {"clear(0,0); place(2,0,A)", "clear(0,0); place(0,1,A)"} != {
        str(move) for move in declared}
    assert native.compiled_for(native.arrays(state)[1]) is (route == "numba")
    assert native.legal_moves(state) == legal
    assert native.perft(state, 6) == perft(state, 6) != perft(game.new_state(), 6)
    moves = legal + [move for move in declared if move not in legal]
    verdicts = native.judge(state, moves)
    assert [state.check(move).legal if verdict is None else verdict for verdict, move in zip(verdicts, moves)] == [
        True] * len(legal) + [False] * (len(moves) - len(legal))
    played = state.clone()
    played.apply(legal[0])   # a position reached by play keeps the hand-set steps
    assert native.legal_moves(played) == played.legal_moves()
    assert native.perft(played, 4) == perft(played, 4)


def test_games_from_a_constant_array_set_by_hand_are_the_python_backends(compiled, route):
    """gdef-sim's games, native_games' and mcts's playouts from such a state: on the C route
    no game is played by the kernel, each is the Python backend's game of its seed; numba's
    kernel plays them with the state's steps."""
    game, native = compiled
    start = other_steps(game)
    if route == "numba":   # no constant tables: the kernel takes the state as it is
        replay_native_games(game, native, start, 10, seed=5)
        return
    seeds = np.array([kernel_seed(5, k, 0) for k in range(10)], dtype=np.uint64)
    assert list(native.playouts(seeds, start, None).status) == [FAILED] * 10
    python = [play_on(start.clone(), [RandomAgent(game_seed(5, k, p)) for p in range(2)], k, 0, None,
                      chance_rng(5, k)) for k in range(10)]
    assert len({o.length for o in python}) > 2
    assert native_games(native, range(10), 5, None, start) == python
    totals, *left = native_batch(native, start, 0, 10, 5, None)
    assert (totals.games, totals.left, left) == (0, list(range(10)), python)
    assert native_playout(native, start, 77, None) == play_on(
        start.clone(), [RandomAgent(game_seed(77, 0, p)) for p in range(2)], 0, 0, None, chance_rng(77, 0)).winner


def test_ordinary_states_are_played_by_the_kernel(compiled, monkeypatch):
    """The start and the positions played from it hold the tables' values: the kernel answers
    (the Python backend's perft and legal moves are not asked)."""
    game, native = compiled
    state = game.new_state()
    state.apply("clear(0,0); place(1,0,A)")
    for position in (game.new_state(), state):
        assert native.compiled_for(native.arrays(position)[1])
    expected = perft(state, 5), state.legal_moves()

    def refused(*args, **kwargs):
        raise AssertionError("answered by the Python backend")

    monkeypatch.setattr("gdef_core.runtime.perft.perft", refused)
    monkeypatch.setattr(type(state), "legal_moves", refused)
    assert (native.perft(state, 5), native.legal_moves(state)) == expected
