"""The native backend (gdef_core.native) against the Python backend, the reference.

For the examples compiled here: perft equal to the Python backend's; native random games,
replayed move by move through the Python backend, legal at every step (isMoveLegal() and
legal_moves() agree) and ending the same way with the same winner and scores. Also: a run-time
error inside compiled code comes out as the Python backend's located error, a game the backend
cannot compile falls back with a one-line notice, and gdef-sim gives the same results for any
--jobs. Skipped when numba is not installed (it is an optional extra, gdef[fast]).

Every test runs on both routes of the native backend (native_support.ROUTES): the C route
(gdef_core/cnative, where a C compiler exists) and numba (gdef[fast]); a route that is missing is
skipped. Compiling costs 10 to 60 s per game with numba (a second on the C route), so each game
is compiled once per session and route, into a temporary cache directory (a cold start, as in
CI). The C route compiles every example (chess's other start positions share chess's module);
numba the examples of NUMBA_GAMES. `-k route_c` runs the C route alone.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from support import EXAMPLES, ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.cli.sim import main as sim_main  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.play.native_sim import native_playout, replay  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

from native_support import ROUTES, compile_rules, replay_native_games, use_route  # noqa: E402

# (example, perft depth): every example
GAMES = [("tictactoe", 4), ("tictactoe-split/tictactoe", 4), ("connect4", 4), ("breakthrough", 3),
         ("gomoku", 2), ("checkers", 4), ("reversi", 4), ("go/go9", 2), ("go/go19", 1), ("chess/chess", 3),
         ("hex", 2)]
# Random games replayed in Python per example (default 12): chess's and Go's are long.
REPLAYED = {"chess/chess": 3, "go/go9": 6, "go/go19": 2, "hex": 4}
# The examples the numba route compiles: a small game, the one the sim and MCTS tests below
# play (connect4), recursion (checkers' jumps), game parameters and consequences (Go's
# board_size, captures) and a big game (chess). The other examples reach no line of the numba
# emitter (native/codegen.py) that these do not; chance, counts, the history and consequences
# of every kind are compiled on numba by test_native_{chance,counts,state,consequences}.py.
NUMBA_GAMES = ("tictactoe", "connect4", "checkers", "go/go9", "chess/chess")
# (route, example, perft depth) of the tests run per example: the route's id first, as the
# route fixture's below.
ROUTE_GAMES = [pytest.param(route, name, depth, id=f"route_{route}-{name}-{depth}")
               for route in ROUTES for name, depth in GAMES if route != "numba" or name in NUMBA_GAMES]


_compiled: dict = {}


@pytest.fixture(scope="module", params=ROUTES, ids=[f"route_{route}" for route in ROUTES], autouse=True)
def route(request):
    """Every test of this file on each route (GDEF_NATIVE_ROUTE, inherited by gdef-sim's workers);
    the tests per example on the routes of ROUTE_GAMES."""
    with use_route(request.param):
        yield request.param


def native_of(name: str):
    route = os.environ["GDEF_NATIVE_ROUTE"]
    if (route, name) not in _compiled:
        game = load_game(str(EXAMPLES / f"{name}.gdef"))
        said: list[str] = []
        native = NativeRules.load(game, said.append)
        assert native is not None and native.route == route, said
        _compiled[route, name] = (game, native, said)
    return _compiled[route, name]


@pytest.mark.parametrize("route, name, depth", ROUTE_GAMES, indirect=["route"])
def test_perft_equals_the_python_backend(cache_dir, route, name, depth):
    game, native, said = native_of(name)
    assert len(said) == 1 and said[0].startswith("gdef: compiling rules") and game.name in said[0]
    assert native.perft(game.new_state(), depth) == perft(game.new_state(), depth)


@pytest.mark.parametrize("name", ["connect4", "checkers", "go/go9", "chess/chess"])
def test_both_routes_play_the_same_games(cache_dir, route, name):
    """The C route and numba draw the same random numbers (splitmix64) over the same candidates
    in the same order: a seed plays the same game on both (winner, length, status, scores).
    Once, under route_numba (whose compiled rules the tests above made)."""
    if route != "numba":
        pytest.skip("compares the C route with numba: runs under route_numba")
    game, numba_rules, _ = native_of(name)
    c_rules = NativeRules.load(game, None, route="c")
    assert c_rules.route == "c"
    seeds = np.arange(100 if "chess" in name else 400, dtype=np.uint64)
    played = [rules.playouts(seeds, game.new_state(), None) for rules in (numba_rules, c_rules)]
    for mine, theirs in zip(*played):
        assert mine.tolist() == theirs.tolist()


@pytest.mark.parametrize("name, counts", [("kiwipete", [48, 2039]), ("position3", [14, 191, 2812])])
def test_chess_positions_share_one_compiled_module(cache_dir, name, counts):
    """Kiwipete and position 3 have chess's rules: their start loads the module compiled for
    chess (no notice) and their perft (castling, en passant, promotions, pins) equals the
    Python backend's and the published counts."""
    native_of("chess/chess")
    game = load_game(str(EXAMPLES / "chess" / f"{name}.gdef"))
    said: list[str] = []
    native = NativeRules.load(game, said.append)
    assert native is not None and said == []
    assert native.perft(game.new_state(), len(counts)) == perft(game.new_state(), len(counts)) == counts


@pytest.mark.parametrize("route, name, depth", ROUTE_GAMES, indirect=["route"])
def test_native_games_replay_legally_in_python(cache_dir, route, name, depth):
    game, native, _ = native_of(name)
    outcomes = replay_native_games(game, native, game.new_state(), REPLAYED.get(name, 12), seed=5)
    assert len({(outcome.winner, outcome.length) for outcome in outcomes}) > 1  # the games differ


def test_kernel_totals_are_the_sum_of_the_games(cache_dir):
    """gdef-sim's kernel (NativeRules.simulate) derives each game's seed itself and adds the
    games up: the same totals as the games played one by one from the seeds the Python twin
    (games.kernel_seed) gives, for a run of games that does not start at game 0."""
    from gdef_core.play.native_sim import native_games

    game, native, _ = native_of("connect4")
    outcomes = native_games(native, range(37, 237), 6, None)
    totals = native.simulate(6, 37, 237, game.new_state(), None)
    assert totals.games == 200 and totals.left == []
    assert totals.wins == [sum(o.winner == p for o in outcomes) for p in range(2)]
    assert totals.draws == sum(o.winner is None for o in outcomes) and totals.capped == 0
    assert totals.total_length == sum(o.length for o in outcomes)
    assert totals.max_length == max(o.length for o in outcomes)
    capped = native.simulate(6, 37, 237, game.new_state(), 10)
    assert (capped.games, capped.capped, capped.max_length) == (200, sum(o.length > 10 for o in outcomes), 10)


def test_sim_same_results_for_any_jobs_and_a_cap(cache_dir, capsys, tmp_path, monkeypatch):
    from gdef_core.play import spread

    native_of("connect4")
    path = str(EXAMPLES / "connect4.gdef")
    tables = []
    monkeypatch.setattr(spread, "PROBE_SECONDS", 0.0)   # --jobs 2 spreads a run this short
    monkeypatch.setattr(spread, "NATIVE_START_SECONDS", 0.0)
    for jobs in ("1", "2"):
        assert sim_main([path, "--games", "2500", "--backend", "native", "--jobs", jobs, "--seed", "4",
                         "--no-progress", "--json", str(tmp_path / f"{jobs}.json")]) == 0
        out = capsys.readouterr().out
        # the games' rate apart from the rules' loading time (native_of compiled them)
        assert re.match(rf"connect4: 2500 games, seed 4, {jobs} jobs?, native backend, \d+\.\d s "
                        r"\(\d+\.\d games/s\), after \d+\.\d s loading the compiled rules\n", out), out
        data = json.loads((tmp_path / f"{jobs}.json").read_text())
        assert data["compile_seconds"] > 0 and data["processes"] == int(jobs)
        assert "splitmix64" in data["seed_rule"]
        tables.append(out.split("\n", 1)[1])
    assert tables[0] == tables[1]
    assert sim_main([path, "--games", "50", "--backend", "native", "--max-moves", "5",
                     "--no-progress"]) == 0
    assert re.search(r"capped at 5 moves +50  100.0%", capsys.readouterr().out)


def test_auto_uses_python_for_short_runs_unless_cached_and_for_other_players(cache_dir, capsys, tmp_path,
                                                                           monkeypatch):
    path = str(EXAMPLES / "tictactoe.gdef")
    with monkeypatch.context() as fresh:
        fresh.setenv("GDEF_CACHE_DIR", str(tmp_path / "empty"))
        assert sim_main([path, "--games", "20", "--backend", "auto", "--no-progress"]) == 0
        out, err = capsys.readouterr()
        assert "native" not in out and err == ""
        assert not (tmp_path / "empty").exists()   # a short run compiles nothing
    # Compiled into the cache (by a process of its own: this one may hold the module already,
    # loaded from another test's cache folder): a short run loads it.
    subprocess.run([sys.executable, "-m", "gdef_core.native.precompile", path], check=True)
    assert sim_main([path, "--games", "20", "--backend", "auto", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "native backend" in out and err == ""
    assert sim_main([path, "--games", "5", "--backend", "native", "-p", "1=greedy", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "native" not in out
    assert err == "gdef-sim: the native backend plays random players only: using the Python backend\n"


DIVIDES = """
name: divides
players: 2
size: 3 x 1
obj X

define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0)
      && CurrentPosition[OperationList[0][0]][0] == empty;
}

define end() -> bool {
  return 6 / (2 - moveNumber()) == 7;
}
"""


def test_runtime_error_is_located_by_the_python_backend(cache_dir, tmp_path, capsys):
    path = tmp_path / "divides.gdef"
    path.write_text(DIVIDES, encoding="utf-8")
    results = []
    for backend in ("python", "native"):
        code = sim_main([str(path), "--games", "3", "--backend", backend, "--no-progress"])
        out, err = capsys.readouterr()
        results.append((code, [line for line in err.splitlines() if not line.startswith("gdef: compiling")]))
    (python_code, python_err), (native_code, native_err) = results
    assert python_code == native_code == 1
    assert native_err == python_err
    text = "\n".join(native_err)
    assert native_err[0] == "gdef-sim: game 1 (run seed 0): end() failed:"
    assert "G601" in text and f"{path}:13:" in text
    assert "numba" not in text.lower() and "Traceback" not in text


# end() after the first move loops for ever, making an array on every pass (the step budget
# bounds time and memory: G607); after the second it recurses without end (G608).
LIMITS = """
name: limits
players: 2
size: 3 x 1
obj X

define deeper(int n) -> int {
  return deeper(n + 1) + 1;
}

define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}

define end() -> bool {
  if (moveNumber() == FIRST) {
    int n = 0;
    while (true) {
      int block[1000] = 0;
      n = n + block[999] + 1;
    }
  }
  if (moveNumber() == 2) {
    return deeper(0) == 0;
  }
  return false;
}
"""


@pytest.mark.parametrize("first, code, line", [(1, "G607", "19:7"), (7, "G608", "8:10")])
def test_limits_stop_native_code_with_the_python_backends_error(cache_dir, tmp_path, capsys, first, code, line):
    path = tmp_path / "limits.gdef"
    path.write_text(LIMITS.replace("FIRST", str(first)), encoding="utf-8")
    errors = []
    for backend in ("python", "native"):
        assert sim_main([str(path), "--games", "2", "--backend", backend, "--no-progress"]) == 1
        errors.append([line for line in capsys.readouterr().err.splitlines() if not line.startswith("gdef: compiling")])
    assert errors[0] == errors[1]
    assert f"{path}:{line}: error[{code}]" in errors[1][1], errors[1]


# end() overflows (flagged, the code goes on: kernels' _bad), then asks hasLegalMove(), whose
# search must not clear end()'s flag (it did: the game played on natively).
FAILS_BEFORE_SEARCH = """
name: failsbeforesearch
players: 2
size: 3 x 1
obj X

define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}

define end() -> bool {
  int big = 9223372036854775807;
  int over = (big + moveNumber()) * 1;
  if (!hasLegalMove()) {
    return true;
  }
  return over == 0;
}
"""


def test_an_error_before_has_legal_move_stays_an_error(cache_dir, tmp_path, capsys):
    path = tmp_path / "failsbeforesearch.gdef"
    path.write_text(FAILS_BEFORE_SEARCH, encoding="utf-8")
    errors = []
    for backend in ("python", "native"):
        assert sim_main([str(path), "--games", "2", "--backend", backend, "--no-progress"]) == 1
        errors.append([line for line in capsys.readouterr().err.splitlines() if not line.startswith("gdef: compiling")])
    assert errors[0] == errors[1]
    assert f"{path}:13:19: error[G602]" in errors[1][1], errors[1]


def test_no_legal_move_is_reported_as_by_the_python_backend(cache_dir, capsys):
    path = str(ROOT / "tests" / "data" / "play" / "stuck.gdef")
    errors = []
    for backend in ("python", "native"):
        assert sim_main([path, "--games", "2", "--backend", backend, "--no-progress"]) == 1
        errors.append(capsys.readouterr().err.splitlines()[-1])
    assert errors[0] == errors[1]
    assert "player 1 has no legal move after 1 moves" in errors[1]


FLAGS = """
name: flags
players: 2
size: 2 x 1
obj X
bool taken[2] = false;

define count(bool a[]) -> int {
  int n = 0;
  for (int i = 0; i < 2; i = i + 1) { if (a[i]) { n = n + 1; } }
  return n;
}

define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}

define end() -> bool {
  taken[OperationList[0][0]] = true;
  return count(taken) == 2;
}
"""


# setScore() with a value typed only at run time: neither route compiles it.
SCORES = FLAGS.replace("name: flags", "name: scores").replace(
    "  taken[OperationList[0][0]] = true;\n", "  setScore(0, OperationList[0][moveNumber() % 2]);\n")


def test_a_game_the_backend_cannot_compile_falls_back_with_a_notice(cache_dir, capsys, tmp_path, route):
    """The C route compiles FLAGS (a bool game-variable array passed as an argument), numba
    does not; neither compiles SCORES."""
    for name, text, what, line in (("flags", FLAGS, "the bool game-variable array 'taken' passed as an argument", 20),
                                   ("scores", SCORES, "setScore with a value known only at run time", 19)):
        path = tmp_path / f"{name}.gdef"
        path.write_text(text, encoding="utf-8")
        assert sim_main([str(path), "--games", "1", "--max-moves", "1", "--backend", "native", "--no-progress"]) == 0
        out, err = capsys.readouterr()
        if name == "flags" and route == "c":
            assert "native backend" in out and err == "gdef: compiling rules (once) for flags ...\n"
            continue
        assert err.count("\n") == 1
        assert err.startswith(f"gdef: the native backend cannot compile {name}: {what} ({path}:{line}:"), err
    assert err.endswith("; using the Python backend\n")
    assert "capped at 1 moves" in out and "native" not in out


def test_without_numba_the_python_backend_is_used(cache_dir, monkeypatch, route):
    """Without numba, the numba route says so and the Python backend plays; the C route does
    not need numba."""
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now fails
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    native = NativeRules.load(game, said.append)
    if route == "c":
        assert native is not None and native.route == "c"
        assert native.perft(game.new_state(), 3) == [9, 72, 504]
        return
    assert native is None
    assert said == ["gdef: numba is not installed (pip install 'gdef[fast]'): using the Python backend"]


def test_run_perft_with_the_native_backend(cache_dir):
    import io

    from gdef_core.cli.run import run

    native_of("connect4")  # compiled (and perft too) by the tests above, or here
    path = str(EXAMPLES / "connect4.gdef")
    outputs = []
    said = []
    for backend in ("python", "native"):
        out, err = io.StringIO(), io.StringIO()
        run([path, "--perft", "5", "--backend", backend], stdout=out, stderr=err)
        outputs.append(out.getvalue())
        said.append(err.getvalue())
        assert "numba" not in err.getvalue()
    assert outputs[0] == outputs[1]
    assert outputs[1].splitlines()[-1] == "depth 5: 16807"
    # the count's time apart from the rules' (loaded: native_of compiled them)
    assert re.fullmatch(r"perft 5: 19607 moves in \d+\.\d\d s\n", said[0]), said[0]
    assert re.fullmatch(r"perft 5: 19607 moves in \d+\.\d\d s "
                        r"\(after \d+\.\d\d s loading the compiled rules\)\n", said[1]), said[1]


def test_run_perft_native_on_moves_failing_at_the_start_is_located(cache_dir, tmp_path):
    """The perft kernel is compiled before the count (timed apart): a moves() that fails in
    the start position fails there first, and the count still says where, with exit 1."""
    import io

    from gdef_core.cli.run import run

    path = tmp_path / "fails.gdef"
    path.write_text(DIVIDES.replace("name: divides", "name: fails") + """
define moves() {
  int zero = 0;
  zero = 1 / zero;
  addPlace(0, 0, X);
  addMove();
}
""", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run([str(path), "--perft", "2", "--backend", "native"], stdout=out, stderr=err) == 1
    said = err.getvalue()
    assert "moves() failed while counting:" in said and "fails.gdef:18:12: error[G601]" in said, said
    assert "internal error" not in said


# ---------------------------------------------------------------- mcts with native playouts

def connect4_position(game, player: int, squares: dict, move_number: int):
    return game.state_from_json({
        "game": game.name, "width": game.width, "height": game.height, "player": player,
        "move_number": move_number, "over": False, "winner": None, "vars": {},
        "board": [[x, y, obj] for (x, y), obj in squares.items()]})


def native_mcts(seed: int, **options):
    from gdef_core.play.mcts import MctsAgent

    return MctsAgent(seed, playouts="native", **options)


def test_native_playout_from_a_state_is_seeded(cache_dir):
    game, native, _ = native_of("connect4")
    state = connect4_position(game, 1, {(0, 0): "X", (1, 0): "X", (2, 0): "X"}, 3)
    winners = [native_playout(native, state, seed, 1000) for seed in range(200)]
    assert winners == [native_playout(native, state, seed, 1000) for seed in range(200)]
    assert set(winners) <= {0, 1, None} and {0, 1} <= set(winners)
    # X wins most random games from there (its next disc on (3,0) wins at once).
    assert winners.count(0) > winners.count(1)
    assert all(native_playout(native, state, seed, 0) is None for seed in range(3))   # the cap: a draw


def test_native_mcts_plays_legal_moves(cache_dir):
    for name in ("tictactoe", "connect4"):
        game, _, _ = native_of(name)
        agent = native_mcts(2, iterations=60)
        state = game.new_state()
        while not state.is_over:
            move = agent.choose(state)
            assert agent._native is not None   # the compiled kernel played the playouts
            assert move in state.legal_moves()
            state.apply(move)


def test_native_mcts_wins_at_once(cache_dir):
    game, _, _ = native_of("connect4")
    state = connect4_position(game, 0, {(0, 0): "X", (1, 0): "X", (2, 0): "X",
                                        (0, 1): "O", (1, 1): "O", (2, 1): "O"}, 6)
    for seed in range(3):
        assert str(native_mcts(seed, iterations=200).choose(state)) == "place(3,0,X)"


def test_native_mcts_is_deterministic_for_a_seed(cache_dir):
    game, _, _ = native_of("connect4")

    def game_of(seed: int) -> list[str]:
        agents = [native_mcts(seed, iterations=40), native_mcts(seed + 1, iterations=40)]
        state, moves = game.new_state(), []
        while not state.is_over and len(moves) < 12:
            move = agents[state.current_player].choose(state)
            moves.append(str(move))
            state.apply(move)
        return moves

    assert game_of(7) == game_of(7)
    assert game_of(7) != game_of(8)


def test_mcts_playouts_option(cache_dir):
    from gdef_core.play.errors import AgentSpecError
    from gdef_core.play.spec import parse_agent

    spec = parse_agent("mcts:iterations=50,playouts=native")
    assert str(spec) == "mcts:iterations=50,playouts=native"
    agent = spec.build(3)
    assert agent.playouts == "native"
    assert parse_agent("mcts").build(3).playouts == "python"
    with pytest.raises(AgentSpecError) as error:
        parse_agent("mcts:playouts=fast")
    assert str(error.value) == ("mcts option playouts=fast: must be python, native or auto "
                                "(the playout engine)")


def test_native_mcts_falls_back_with_one_notice(cache_dir, capsys, tmp_path):
    path = tmp_path / "scores.gdef"
    path.write_text(SCORES, encoding="utf-8")
    game = load_game(str(path))
    state = game.new_state()
    for seed in range(2):
        agent = native_mcts(seed, iterations=4, playout_cap=2)
        assert agent.choose(state) in state.legal_moves()
        assert agent._native is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1   # once per game and process, however many agents
    assert err.startswith("gdef: the native backend cannot compile scores: ")


def test_auto_mcts_without_a_native_route_plays_python_silently(monkeypatch, capsys):
    from gdef_core.play.mcts import MctsAgent

    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now fails
    monkeypatch.setattr("gdef_core.cnative.library.find_compiler", lambda: None)   # and no C compiler
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    state = game.new_state()
    auto = MctsAgent(4, iterations=30, playouts="auto")
    assert str(auto.choose(state)) == str(MctsAgent(4, iterations=30).choose(state))
    assert auto._native is None and capsys.readouterr().err == ""


def test_native_mcts_playout_error_is_located_by_the_python_backend(cache_dir, tmp_path):
    from gdef_core.play.mcts import MctsAgent
    from gdef_core.runtime import IllegalMoveError

    path = tmp_path / "divides.gdef"
    path.write_text(DIVIDES, encoding="utf-8")
    game = load_game(str(path))
    messages = []
    for engine in ("python", "native"):
        agent = MctsAgent(0, iterations=5, playouts=engine)
        with pytest.raises(IllegalMoveError) as error:   # a playout's move whose end() fails
            agent.choose(game.new_state())
        assert (agent._native is not None) == (engine == "native")
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[1].startswith(f"end() failed after this move: {path}:13:12: error[G601]: "
                                  "division by zero")


FAILING_JUDGE = """
name: failingjudge
players: 2
size: 4 x 1
obj X

define isMoveLegal() -> bool {
  if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; }
  int x = OperationList[0][0];
  // x == 2 divides by zero and x == 3 reads off the board: both moves are illegal
  return 6 / (2 - x) != 100 && CurrentPosition[x + 1][0] == empty && CurrentPosition[x][0] == empty;
}

define end() -> bool {
  return moveNumber() == 2;
}
"""


def test_a_failing_is_move_legal_makes_the_move_illegal_natively(cache_dir, tmp_path):
    """Judging needs no try block natively (kernels/helpers.py: _bad): a candidate whose isMoveLegal()
    fails is illegal, as in the Python backend, and the game goes on in compiled code."""
    game, native = compile_rules(tmp_path, "failingjudge", FAILING_JUDGE)
    start = game.new_state()
    assert sorted(str(m) for m in start.legal_moves()) == ["place(0,0,X)", "place(1,0,X)"]
    assert native.perft(start, 2) == perft(start, 2) == [2, 1]
    winners, lengths, status, _ = native.playouts(np.arange(50, dtype=np.uint64), start, None)
    # after place(1,0,X) the second player has no legal move (status 2); never a failure (3)
    assert set(status.tolist()) == {0, 2}


ARRAYS_AND_SEARCHES = """
name: arraysandsearches
players: 2
size: 5 x 5
obj X
obj O

define markOf(int p) -> obj {
  if (p == 0) { return X; }
  return O;
}

// a function with a local array, called from one without (numba compiles a callee with its
// caller's options: the caller must keep reference counting)
define marksInRow(int y) -> int {
  int seen[5] = 0;
  int n = 0;
  for (int x = 0; x < 5; x = x + 1) {
    if (CurrentPosition[x][y] != empty) { seen[x] = 1; }
    n = n + seen[x];
  }
  return n;
}

define rowOpen(int y) -> bool {
  return marksInRow(y) < 3;
}

define isMoveLegal() -> bool {
  return isGenerated() && rowOpen(OperationList[0][1]);
}

// every candidate twice, and of two operations: more than 16 that are not single operations
// (the hash table of kernels/kernel.py: _dedupe_any)
define moves() {
  obj m = markOf(onTurn());
  for (int x = 0; x < 5; x = x + 1) {
    for (int y = 0; y < 5; y = y + 1) {
      if (CurrentPosition[x][y] == empty) {
        addPlace(x, y, m); addPlace(x, y, m); addMove();
        addPlace(x, y, m); addPlace(x, y, m); addMove();
      }
    }
  }
}

define end() -> bool {
  if (!hasLegalMove()) { setWinner(onTurn()); return true; }
  return moveNumber() >= 9;
}
"""


def test_arrays_called_from_array_free_functions_and_many_candidates(cache_dir, tmp_path):
    game, native = compile_rules(tmp_path, "arraysandsearches", ARRAYS_AND_SEARCHES)
    start = game.new_state()
    assert native.perft(start, 3) == perft(start, 3) == [25, 600, 13800]
    winners, lengths, status, _ = native.playouts(np.arange(40, dtype=np.uint64), start, None)
    assert set(status.tolist()) == {0}
    for k in range(3):
        replayed = replay(native, 0, k, 0, None, start)
        assert replayed.length == lengths[k] and replayed.winner == (None if winners[k] < 0 else winners[k])


# ---------------------------------------------------------------- recursion and the disk cache

RUNS = """
name: runs
players: 2
size: 4 x 4
obj X
obj O

define markOf(int p) -> obj {
  if (p == 0) { return X; }
  return O;
}

define isMoveLegal() -> bool {
  if (operationsNum() != 1) { return false; }
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  return CurrentPosition[x][y] == empty && NextPosition[x][y] == markOf(onTurn());
}

// the marks m from (x, y) on in direction (dx, dy): two functions calling each other
define run(int x, int y, int dx, int dy, obj m) -> int {
  if (x < 0 || y < 0 || x > 3 || y > 3 || CurrentPosition[x][y] != m) { return 0; }
  return 1 + runOn(x, y, dx, dy, m);
}

define runOn(int x, int y, int dx, int dy, obj m) -> int {
  return run(x + dx, y + dy, dx, dy, m);
}

// the empty squares from k on: a function calling itself
define emptyFrom(int k) -> int {
  if (k == 16) { return 0; }
  int here = 0;
  if (CurrentPosition[k % 4][k / 4] == empty) { here = 1; }
  return here + emptyFrom(k + 1);
}

define end() -> bool {
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  obj m = markOf(onTurn());
  if (run(x, y, 1, 0, m) + run(x, y, -1, 0, m) > 4 || run(x, y, 0, 1, m) + run(x, y, 0, -1, m) > 4) {
    setWinner(onTurn());
    return true;
  }
  return emptyFrom(0) == 0;
}
"""


def test_recursive_rules_load_from_the_disk_cache_in_a_new_process(tmp_path, route):
    """numba's cache crashes on recursion through two compiled functions (numba issue 6061):
    the native backend inlines one function of each cycle into the other, so a second process
    loads the compiled rules (no notice, in well under the compile time) and plays the same."""
    import subprocess

    path = tmp_path / "runs.gdef"
    path.write_text(RUNS, encoding="utf-8")
    environment = dict(os.environ, GDEF_CACHE_DIR=str(tmp_path / "cache"))
    command = [sys.executable, "-c", "import sys; from gdef_core.cli.sim import main; sys.exit(main())", str(path), "--games", "300", "--seed", "2",
               "--backend", "native", "--no-progress"]
    runs = [subprocess.run(command, env=environment, capture_output=True, text=True, timeout=600)
            for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[1].stderr[-2000:]
    assert runs[0].stderr == "gdef: compiling rules (once) for runs ...\n"
    assert runs[1].stderr == ""
    first_line, table = runs[1].stdout.split("\n", 1)
    assert "native backend" in first_line and runs[0].stdout.split("\n", 1)[1] == table
    assert re.search(r"player 0 \(random\) +\d+", table)


def test_each_cycle_keeps_one_call_when_the_others_can_be_inlined():
    from gdef_core.native.codegen import _recursion_inlined

    checkers = {"moves": ["jumps", "steps"], "steps": [], "jumps": ["toward"], "toward": ["jumps", "capture"],
                "capture": []}
    assert _recursion_inlined(checkers) == ({"toward"}, True)
    assert _recursion_inlined({"a": ["b"], "b": ["a", "b"]}) == ({"a"}, True)  # b calls itself: b stays
    assert _recursion_inlined({"a": ["a"], "b": ["b", "a"]}) == (set(), True)
    # every function of the cycle calls both others: no single call left once inlined
    assert _recursion_inlined({"a": ["b", "c"], "b": ["a", "c"], "c": ["a", "b"]}) == (set(), False)
