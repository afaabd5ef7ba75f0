"""The native backend's C route (gdef_core/cnative) itself: the C it emits for every example is
clean C (compiled with every warning an error), compiled libraries are cached on disk (a warm
start compiles nothing, another source is another library), and where no C compiler can build
the rules the route says so in one line. Its behaviour against the Python backend (perft,
replayed games, random rules, limits) is tested with numba's in tests/test_native*.py.
"""
from __future__ import annotations

import subprocess

import pytest

from support import EXAMPLES, ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.cnative import compiler  # noqa: E402
from gdef_core.cnative.emit import c_source, runtime_dir  # noqa: E402
from gdef_core.cnative.library import c_compiler_available  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games  # noqa: E402, F401 (c_route: a fixture)

EVERY_EXAMPLE = ["tictactoe", "tictactoe-split/tictactoe", "connect4", "breakthrough", "gomoku", "checkers",
                 "reversi", "go/go9", "go/go19", "chess/chess"]


pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


def c_rules(directory, name: str, text: str, **limits):
    """compile_rules on the C route: (game, its C source's text, the compiled rules)."""
    game, native = compile_rules(directory, name, text, **limits)
    assert native.route == "c"
    return game, c_source(game.program, game.max_steps, game.max_depth).text, native


@pytest.mark.parametrize("name", EVERY_EXAMPLE)
def test_emitted_c_has_no_warnings(tmp_path, name):
    game = load_game(str(EXAMPLES / f"{name}.gdef"))
    path = tmp_path / "rules.c"
    path.write_text(c_source(game.program, game.max_steps, game.max_depth).text, encoding="utf-8")
    cc, _ = compiler.find_compiler()
    done = subprocess.run([cc, "-O1", "-c", "-std=gnu11", "-Wall", "-Wextra", "-Werror", f"-I{runtime_dir()}",
                           "-o", str(tmp_path / "rules.o"), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_warm_start_loads_the_cached_library(c_route):
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    first = NativeRules.load(game, said.append)
    assert first is not None and first.route == "c"
    assert first.module.path.is_relative_to(c_route / "cnative")
    second = NativeRules.load(game, said.append)
    assert second.route == "c" and not second.compiled and second.module.path == first.module.path
    assert said == ["gdef: compiling rules (once) for tictactoe ..."]   # the first load only
    # another step budget is another source, so another library
    other = load_game(str(EXAMPLES / "tictactoe.gdef"), max_steps=1000)
    assert NativeRules.load(other, said.append).module.path != first.module.path


def test_without_a_c_compiler_the_route_says_so(monkeypatch):
    monkeypatch.setattr("gdef_core.cnative.library.find_compiler", lambda: None)
    assert not c_compiler_available()
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    assert NativeRules.load(game, said.append) is None
    assert said == ["gdef: no C compiler found (cc, gcc or clang; or set CC): using the Python backend"]


def test_a_compiler_that_fails_is_reported_in_one_line(c_route, tmp_path, monkeypatch):
    failing = tmp_path / "failing-cc"
    failing.write_text("#!/bin/sh\necho 'rules.c:1: no' >&2\nexit 1\n")
    failing.chmod(0o755)
    monkeypatch.setattr("gdef_core.cnative.library.find_compiler", lambda: (str(failing), "failing 1.0"))
    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    said: list[str] = []
    assert NativeRules.load(game, said.append) is None
    assert said == ["gdef: compiling rules (once) for tictactoe ...",
                    "gdef: the C compiler failed on tictactoe (rules.c:1: no); using the Python backend"]
    assert not list((c_route / "cnative").rglob("*.so"))   # nothing half-made is kept


# Each level keeps 24 values read from a game variable across its recursive call (the call may
# change them), so the frames are big.
DEEP = """
name: deep
players: 2
size: 3 x 1
obj X
int w[24] = 1;

define deeper(int n) -> int {
  int a0 = w[0]; int a1 = w[1]; int a2 = w[2]; int a3 = w[3]; int a4 = w[4]; int a5 = w[5]; int a6 = w[6]; int a7 = w[7]; int a8 = w[8]; int a9 = w[9]; int a10 = w[10]; int a11 = w[11]; int a12 = w[12]; int a13 = w[13]; int a14 = w[14]; int a15 = w[15]; int a16 = w[16]; int a17 = w[17]; int a18 = w[18]; int a19 = w[19]; int a20 = w[20]; int a21 = w[21]; int a22 = w[22]; int a23 = w[23];
  return deeper(n + 1) + a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23;
}

define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}

define end() -> bool {
  return deeper(0) == 0;
}
"""


def test_recursion_deeper_than_the_c_stack_is_left_to_the_python_backend(tmp_path):
    """With --max-depth 100000, the C stack would overflow before the depth limit: the kernel
    stops the game (runtime/gdef.h: g_stack) and the Python backend replays it to its G608."""
    from gdef_core.play.native_sim import native_games

    game, _, native = c_rules(tmp_path, "deep", DEEP, max_depth=100_000)
    assert native.playouts(np.zeros(1, np.uint64), game.new_state(), None).status[0] == 3   # FAILED
    outcome, = native_games(native, range(1), 0, None)
    assert f"{tmp_path / 'deep.gdef'}:10:10: error[G608]: recursion too deep: more than 100000 nested" in str(outcome)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return z ^ (z >> 31)


def _kernel_seed(seed: int, index: int) -> int:
    """Game `index`'s seed in a run seeded `seed`, as the kernels derive it (splitmix64's
    finaliser over the run seed, the game's number and player 0)."""
    golden = 0x9E3779B97F4A7C15
    z = _mix((seed + golden) % 2**64)
    z = _mix((z + (index + 1) * golden) % 2**64)
    return _mix((z + golden) % 2**64)


@pytest.mark.parametrize("name, first, stop", [("connect4", 0, 300), ("go/go9", 5, 25),
                                               ("../tests/data/play/stuck", 0, 4)])
def test_simulate_adds_up_the_games_of_the_derived_seeds(name, first, stop):
    """gdef-sim's kernel (simulate: seeds derived in the kernel, games added up, no row per
    game) gives the totals of the same games played one row each (playouts)."""
    game = load_game(str(EXAMPLES / f"{name}.gdef"))
    native = NativeRules.load(game, None)
    m, players, start = native.module, game.players, game.new_state()
    T = np.zeros(m._TWINS + players, np.int64)
    TS = np.zeros(players, np.float64)
    odd = np.empty(stop - first, np.int64)
    board, V, VF, SC = native.arrays(start)
    m.simulate(np.uint64(77), first, stop, board, start.player, start.move_number, V, VF, SC, 60, T, TS, odd,
               *native.workspace(), native.history_rows(start), native._hs, start.is_chance_node)
    seeds = np.array([0] * first + [_kernel_seed(77, g) for g in range(first, stop)], np.uint64)
    rows = native.playouts(seeds, start, 60)
    kept = [g for g in range(first, stop) if rows.status[g] <= 1]
    assert T[m._TGAMES] == len(kept) and list(odd[:T[m._TODD]]) == [g for g in range(first, stop) if g not in kept]
    assert T[m._TCAPPED] == sum(rows.status[g] == 1 for g in kept)
    assert [T[m._TWINS + p] for p in range(players)] == [sum(rows.status[g] == 0 and rows.winners[g] == p
                                                             for g in kept) for p in range(players)]
    assert T[m._TDRAWS] == sum(rows.status[g] == 0 and rows.winners[g] < 0 for g in kept)
    assert T[m._TLEN] == sum(rows.lengths[g] for g in kept) and T[m._TMAX] == max([0, *(rows.lengths[g] for g in kept)])
    assert list(TS) == [sum(rows.scores[g][p] for g in kept) for p in range(players)]
    if name.endswith("stuck"):
        assert T[m._TODD] == stop - first > 0   # no legal move: every game left to Python


def test_auto_playouts_compile_in_the_background_thread(c_route):
    """mcts's `auto` playouts: on the C route the background work compiles in its own thread
    (seconds; no child process, no building folder) and the agent then plays natively."""
    from gdef_core.play import background_compile
    from gdef_core.play.mcts import MctsAgent

    game = load_game(str(EXAMPLES / "tictactoe.gdef"))
    rules = background_compile.rules_when_ready(game, wait=True)
    assert rules is not None and rules.route == "c" and background_compile.state(game) == "ready"
    agent = MctsAgent(0, iterations=30, playouts="auto")
    state = game.new_state()
    assert agent.choose(state) in state.legal_moves() and agent.last_engine == "native"
    assert [p.name for p in c_route.iterdir()] == ["cnative"]   # nothing but the library


# A table no function writes (steps), one end() writes (marks) and one passed to a function
# (passed); a local array never written (ones) and one written (scratch); end() reads steps[]
# past its end on the fourth move.
TABLES = """
name: tables
players: 2
size: 4 x 1
obj X

int steps[3] = {1, 2, 3};
int marks[2] = 0;
int passed[2] = {5, 6};

define first(int a[]) -> int {
  return a[0];
}

define isMoveLegal() -> bool {
  int ones[2][2] = {{1, 1}, {1, 1}};
  int scratch[2] = {0, 0};
  scratch[1] = 1;
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty
      && steps[OperationList[0][0] % 3] + marks[0] + ones[1][OperationList[0][0] % 2] + scratch[1] > 0;
}

define end() -> bool {
  marks[1] = first(passed);
  return steps[moveNumber() - 1] == 0;
}
"""


def test_arrays_no_function_writes_are_read_from_constant_tables(tmp_path, capsys):
    """lower/tables.py: `steps` and the local `ones` become C tables; `marks` (assigned) and
    `passed` (passed to a function, which could write it) stay in the state, `scratch` is made;
    an index past the table's end is still the Python backend's located G614."""
    from gdef_core.cli.sim import main as sim_main
    from gdef_core.runtime.perft import perft

    path = tmp_path / "tables.gdef"
    game, text, native = c_rules(tmp_path, "tables", TABLES)
    assert "static const int64_t G_steps[3] = {INT64_C(1), INT64_C(2), INT64_C(3)};" in text
    assert "G_steps[g_ix(c, " in text and "G_marks" not in text and "G_passed" not in text
    assert "l_ones.p = (int64_t *)GL_0; l_ones.n0 = 2; l_ones.n1 = 2;" in text and "GL_1" not in text
    assert native.perft(game.new_state(), 3) == perft(game.new_state(), 3) == [4, 12, 24]
    errors = []
    for backend in ("python", "native"):
        assert sim_main([str(path), "--games", "2", "--backend", backend, "--no-progress"]) == 1
        errors.append([line for line in capsys.readouterr().err.splitlines() if not line.startswith("gdef: compiling")])
    assert errors[0] == errors[1]
    assert errors[1][1] == f"{path}:25:10: error[G614]: 'steps': index 3 is out of range (size 3: 0 to 2)"


# isMoveLegal() spends x * 7 steps in a loop of calls before it judges square x: with a budget of
# 29 steps, the squares from x = 2 on are illegal (the budget spent), as in the Python backend.
BUDGET = """
name: budget
players: 2
size: 8 x 1
obj X

define one(int n) -> int {
  return n + 1;
}

define spend(int k) -> int {
  int n = 0;
  for (int i = 0; i < k; i = i + 1) {
    n = one(n);
  }
  return n;
}

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[x][0] == empty && spend(x * 7) >= 0;
}

define end() -> bool {
  return false;
}
"""


@pytest.mark.parametrize("max_steps, legal", [(29, 2), (30, 3), (43, 3), (44, 4), (1000, 8)])
def test_the_step_budget_counted_in_a_local_runs_out_where_the_python_backend_says(tmp_path, max_steps, legal):
    """Each generated function counts its steps in a local (`_st`) written back to S around
    calls and returns: a judgement whose loop of calls spends the budget is illegal at exactly
    the budget the Python backend stops at."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "budget", BUDGET, max_steps=max_steps)
    assert "if (--_st < 0) { g_bad(c); break; }" in text
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [legal]


# moves() proposes one candidate per square of a 40-square row, each addPlace costing
# OPERATION_STEPS: 201 steps are enough for the first position, 200 are not (moves()' G607).
PROPOSALS = """
name: proposals
players: 2
size: 40 x 1
obj X

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 40; x = x + 1) {
    if (CurrentPosition[x][0] == empty) {
      addPlace(x, 0, X);
      addMove();
    }
  }
}

define end() -> bool {
  return false;
}
"""


@pytest.mark.parametrize("max_steps, fails", [(200, True), (201, False)])
def test_operations_spend_the_steps_of_the_python_backend(tmp_path, max_steps, fails):
    """addPlace in moves() counts its steps in the generated function's local (not through S):
    moves() runs out of steps at the budget the Python backend's does, with its located G607."""
    from gdef_core.play.native_sim import native_games

    path = tmp_path / "proposals.gdef"
    game, text, native = c_rules(tmp_path, "proposals", PROPOSALS, max_steps=max_steps)
    assert "g_add_op_moves(c, &_nc, l_1x, INT64_C(0), INT64_C(1), 1); _st -= OPERATION_STEPS; })" in text
    outcome, = native_games(native, range(1), 0, None)
    assert (f"{path}:11:8: error[G607]: step limit exceeded: more than {max_steps} loop iterations" in str(outcome)
            ) == fails, outcome


# walk() reads nothing but its arguments (lower/pure.py): the C route answers its calls after the
# first from a table, spending the steps the first spent; isMoveLegal() asks it x times before it
# judges square x, so the budget decides how many squares are legal (5 steps a square).
MEMO = """
name: memo
players: 2
size: 6 x 1
obj X

// pure: its arguments alone decide its result and its steps (a loop of calls)
define walk(int from, int by) -> int {
  int at = from;
  while (at >= 0 && at < 6 && at != 3) {
    at = at + by;
  }
  return at;
}

// reads the board: not pure
define firstEmpty() -> int {
  for (int x = 0; x < 6; x = x + 1) {
    if (CurrentPosition[x][0] == empty) { return x; }
  }
  return -1;
}

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int total = 0;
  for (int i = 0; i < x; i = i + 1) {
    total = total + walk(0, 1);   // the same call again and again
  }
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[x][0] == empty && total >= 0 && firstEmpty() >= 0;
}

define end() -> bool {
  return false;
}
"""


@pytest.mark.parametrize("max_steps, legal", [(12, 2), (13, 3), (17, 3), (18, 4), (27, 5), (28, 6)])
def test_a_pure_function_answered_from_its_table_spends_the_steps_of_the_python_backend(tmp_path, max_steps,
                                                                                          legal):
    """A call of a pure function with a loop is answered from the calls made before with the
    same arguments (m_walk), spending the steps the call spent: the judgement runs out of steps
    at exactly the budget the Python backend stops at; a function reading the board is called."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "memo", MEMO, max_steps=max_steps)
    assert "m_walk(c, _d, &_st, INT64_C(0), INT64_C(1))" in text and "m_firstEmpty" not in text
    # two small arguments: a dense table of 8 bits each, whose hit is one comparison inline
    assert "static int64_t D_walk[65536][2];" in text
    assert "if ((u0 | u1) < 256) {\n        int64_t *e = D_walk[u0 | u1 << 8];" in text
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [legal]


# Arguments beyond the dense table's (-64 to 191 for two) are kept in the hashed table (mm_walk),
# a function without arguments in one entry; per square judged: 13 steps (walk() 4, seven() 8).
FAR_MEMO = """
name: far
players: 2
size: 6 x 1
obj X

define walk(int from, int by) -> int {
  int at = from;
  while (at < from + 6 * by && at != from + 3 * by) {
    at = at + by;
  }
  return at - from;
}

define seven() -> int {
  int n = 0;
  while (n < 7) {
    n = n + 1;
  }
  return n;
}

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int total = 0;
  for (int i = 0; i < x; i = i + 1) {
    total = total + walk(100000, 1000) + seven();
  }
  return operationsNum() == 1 && isPlaceOperation(0) && total >= 0;
}

define end() -> bool {
  return false;
}
"""


@pytest.mark.parametrize("max_steps, legal", [(13, 1), (14, 2), (26, 2), (27, 3), (65, 5), (66, 6)])
def test_calls_beyond_the_dense_table_and_without_arguments_spend_the_steps_of_the_python_backend(
        tmp_path, max_steps, legal):
    """walk(100000, 1000) is answered from the hashed table, seven() from a table of one entry:
    each judgement runs out of steps at the budget the Python backend's does."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "far", FAR_MEMO, max_steps=max_steps)
    assert "m_walk(c, _d, &_st, INT64_C(100000), INT64_C(1000))" in text and "m_seven(c, _d, &_st)" in text
    assert "static int64_t D_seven[1][2];" in text and "mm_seven" not in text
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [legal]


# k counts by ones from 0: its sums cannot overflow within the step budget (lower/counters.py),
# so the C route adds without a check; n starts 3 below the largest int64: its check stays, and
# judging square x overflows it for x >= 4 (an error: the square is not legal).
COUNTERS = """
name: counters
players: 2
size: 6 x 1
obj X

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int k = 0;
  int n = 9223372036854775804;
  for (int i = 0; i < x; i = i + 1) {
    if (CurrentPosition[i][0] == empty) {
      k = k + 1;
      n = n + 1;
    }
  }
  return operationsNum() == 1 && isPlaceOperation(0) && k == x && n > 0;
}

define end() -> bool {
  return false;
}
"""


def test_a_counter_adds_without_a_check_and_other_sums_keep_theirs(tmp_path):
    """k's increment is a plain sum, n's keeps its overflow check: squares 4 and 5 overflow n
    and are illegal, as on the Python backend."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "counters", COUNTERS)
    assert "l_k = l_k + INT64_C(1);" in text
    assert "int64_t _t1; int64_t _t1a = l_n; int64_t _t1b = INT64_C(1);" in text
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [4]


def test_lines_of_action_counts_the_pieces_on_a_line_without_a_branch():
    """piecesOnLine()'s `n = n + 1` under the test of each square is a plain sum (gcc makes it
    without a branch); the cx/cy walks, sums of parameters, keep their checks."""
    game = load_game(str(ROOT / "benchmarks" / "games" / "lines_of_action.gdef"))
    text = c_source(game.program, game.max_steps, game.max_depth).text
    piecesOnLine = text[text.index("int64_t u_piecesOnLine(Ctx *c, int64_t _d, int64_t *_stp, int64_t l_x, "
                                   "int64_t l_y, int64_t l_dx, int64_t l_dy) {"):]
    piecesOnLine = piecesOnLine[:piecesOnLine.index("\n}\n")]
    assert piecesOnLine.count("l_n = l_n + INT64_C(1);") == 2
    assert piecesOnLine.count("__builtin_add_overflow") == 4 and piecesOnLine.count("__builtin_sub_overflow") == 4


def test_memoized_calls_play_the_games_of_the_python_backend():
    """nine men's morris's neighbour() (a walk along a line, asked the same questions over and
    over by moves()) is answered from its table: the kernel's games replay legally through the
    Python backend, with the same ends."""
    game = load_game(str(ROOT / "benchmarks" / "games" / "nine_mens_morris.gdef"))
    assert "m_neighbour(c, _d, &_st, " in c_source(game.program, game.max_steps, game.max_depth).text
    native = NativeRules.load(game, None)
    assert native.route == "c"
    replay_native_games(game, native, game.new_state(), 4, seed=11)


# region() floods the run of empty squares through x with a stack (lower/unread_fills.py: made
# without filling it with x), `seen` keeps its fill; a square is proposed when its run is odd.
STACK = """
name: stack
players: 2
size: 7 x 1
obj X

define region(int x) -> int {
  bool seen[7] = false;
  int stack[7] = x;
  stack[0] = x;
  seen[x] = true;
  int top = 1;
  int size = 0;
  while (top > 0) {
    top = top - 1;
    int at = stack[top];
    size = size + 1;
    for (int d = -1; d <= 1; d = d + 2) {
      int next = at + d;
      if (next >= 0 && next < 7 && !seen[next] && CurrentPosition[next][0] == empty) {
        seen[next] = true;
        stack[top] = next;
        top = top + 1;
      }
    }
  }
  return size;
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 7; x = x + 1) {
    if (CurrentPosition[x][0] == empty && region(x) % 2 == 1) {
      addPlace(x, 0, X);
      addMove();
    }
  }
}

define end() -> bool {
  return region(3) >= 0 && !hasLegalMove();
}
"""


def test_a_stack_made_without_its_fill_plays_the_python_backends_games(tmp_path):
    """The stack of a flood fill is made without filling it (every element read was pushed
    first), the `seen` array beside it keeps its fill: perft and random games agree with the
    Python backend."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "stack", STACK)
    region = text[text.index("u_region(Ctx *c, int64_t _d, int64_t *_stp, int64_t l_x) {"):]
    region = region[:region.index("\n}\n")]
    assert "memset(l_seen.p, 0, " in region and "l_stack.p[k] = " not in region
    assert "/* not filled: no element is read before it is written */" in region
    path = tmp_path / "rules.c"
    path.write_text(text, encoding="utf-8")
    cc, _ = compiler.find_compiler()
    done = subprocess.run([cc, "-O1", "-c", "-std=gnu11", "-Wall", "-Wextra", "-Werror", f"-I{runtime_dir()}",
                           "-o", str(tmp_path / "rules.o"), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert native.perft(game.new_state(), 4) == perft(game.new_state(), 4)
    replay_native_games(game, native, game.new_state(), 6, seed=5)


@pytest.mark.parametrize("path, repetitions, board_seen", [
    (EXAMPLES / "go" / "go9.gdef", 0, 1),   # positional superko: nextBoardSeen() alone
    (ROOT / "benchmarks" / "games" / "lines_of_action.gdef", 1, 0),   # repetitions() alone
])
def test_only_the_history_tables_a_game_reads_are_kept(path, repetitions, board_seen):
    """The kernel fills the history's table by position only for repetitions() and its table by
    board only for nextBoardSeen(): a game asking one keeps one, and its random games (superko
    refusals, draws by repetition) still replay through the Python backend."""
    game = load_game(str(path))
    text = c_source(game.program, game.max_steps, game.max_depth).text
    assert f"#define USES_REPETITIONS {repetitions}\n" in text and f"#define USES_BOARD_SEEN {board_seen}\n" in text
    native = NativeRules.load(game, None)
    assert native.route == "c"
    replay_native_games(game, native, game.new_state(), 2, seed=11)


def test_tables_set_by_hand_in_a_chance_game_are_read_as_set():
    """Einstein reads `startX` (int, 2-D) and `faces` (obj) from constant tables: a state
    holding other values there (a record edited by hand, read by State.from_json) gets the
    Python backend's chance outcomes, judgements and perft, the kernel's tables holding the
    declared ones."""
    from gdef_core.runtime.perft import perft

    game = load_game(str(EXAMPLES / "einstein.gdef"))
    native = NativeRules.load(game, None)
    assert native.route == "c"
    start = game.new_state()
    declared = start.to_json()["vars"]

    def hand_set(state, **values):
        data = state.to_json()
        return game.state_from_json({**data, "history": None, "vars": {**data["vars"], **values}})

    shifted = hand_set(start, startX=[[x + 1 for x in row] for row in declared["startX"]])
    outcomes = shifted.chance_outcomes()
    assert native.chance_outcomes(shifted) == outcomes != start.chance_outcomes()
    assert native.judge(shifted, [move for move, _ in outcomes[:3]]) == [None] * 3   # State.check's to give
    placed = start.clone()
    for _ in range(2):   # both sides' cubes placed: the die is rolled next
        placed.apply(placed.chance_outcomes()[0][0])
    reversed_faces = hand_set(placed, faces=declared["faces"][::-1])
    assert native.compiled_for(native.arrays(placed)[1]) and not native.compiled_for(native.arrays(reversed_faces)[1])
    assert native.chance_outcomes(reversed_faces) == reversed_faces.chance_outcomes() != placed.chance_outcomes()
    rolled = reversed_faces.clone()
    rolled.apply(rolled.chance_outcomes()[0][0])
    assert native.legal_moves(rolled) == rolled.legal_moves()
    assert native.perft(reversed_faces, 4) == perft(reversed_faces, 4)


@pytest.mark.parametrize("max_steps, legal", [(43, 3), (44, 4)])
def test_an_always_inlined_function_counts_in_its_callers_local(tmp_path, max_steps, legal):
    """A small function always inlined (BUDGET's one() and spend()) takes its caller's step count
    by pointer instead of through S, so that the count stays in a register across the call; the
    budget still runs out at the Python backend's step."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "budget", BUDGET, max_steps=max_steps)
    assert "int64_t u_one(Ctx *c, int64_t _d, int64_t *_stp, int64_t l_n) {" in text
    assert "l_n = u_one(c, _d, &_st, l_n);" in text
    assert "int _r = u_isMoveLegal(c, 1, &_st); c->S[S_ST] = _st; return _r;" in text
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [legal]


# put() is reached from moves() only, mark() from moves() and end(): put()'s candidates whose
# second square is off the board (x = 4) are dropped; mark() is a candidate in moves() and a
# consequence in end() (from the second move on, square 4 becomes Y after each move).
HELPERS = """
name: helpers
players: 2
size: 5 x 1
obj X
obj Y

define put(int x) {
  addPlace(x, 0, X);
  addPlace(x + 1, 0, X);
  addMove();
}

define mark(int x) {
  addPlace(x, 0, Y);
}

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 5; x = x + 1) {
    if (CurrentPosition[x][0] == empty) {
      put(x);
    }
  }
  mark(0);
  addMove();
}

define end() -> bool {
  if (moveNumber() >= 2) {
    mark(4);
  }
  return moveNumber() >= 4;
}
"""


def test_operations_in_a_function_only_moves_reaches_skip_the_context_tests(tmp_path):
    """addPlace and addMove in a function that only moves() reaches are written without testing
    the context (g_add_op_moves, g_add_move_moves); one that end() reaches too still tests it
    (g_add_any). The candidates, the dropped ones and the consequences are the Python backend's."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "helpers", HELPERS)
    put = text[text.index("u_put(Ctx *c, int64_t _d, int64_t *_stp, int64_t *_ncp, int64_t l_x) {"):
               text.index("u_mark(Ctx *c, int64_t _d, int64_t *_stp, int64_t l_x) {")]
    assert "g_add_op_moves(c, &_nc, l_x, INT64_C(0), INT64_C(1), 1); _st -= OPERATION_STEPS; })" in put
    assert "g_add_move_moves(c, &_nc)" in put and "g_add_move(c)" not in text
    assert "g_add_any(c, l_x, INT64_C(0), INT64_C(2), 1)" in text
    # moves() keeps the cursor in its local, puts it in S around mark(), which writes there
    assert "({ c->S[S_NC] = _nc; u_mark(c, _d, &_st, INT64_C(0)); _nc = c->S[S_NC]; })" in text
    assert native.perft(game.new_state(), 4) == perft(game.new_state(), 4)


# isMoveLegal() makes arrays filled with constants and judges square x by what they hold: each
# sum is what the fill and the writes make it (8 for x = 0 .. 3, so every square is legal).
FILLS = """
name: fills
players: 2
size: 4 x 1
obj X

define isMoveLegal() -> bool {
  int x = OperationList[0][0];
  int minus[x + 1][3] = -1;
  bool seen[x + 2] = false;
  obj marks[3] = empty;
  float half[2] = 0.0;
  float negative[2] = -0.0;
  int seven[2] = 7;
  minus[x][1] = 5;
  seen[x + 1] = true;
  half[1] = 1.5;
  int sum = minus[0][0] + minus[x][1] + seven[1];
  if (seen[0] || !seen[x + 1] || marks[2] != empty || half[0] != 0.0 || half[1] != 1.5 || negative[0] != 0.0) {
    return false;
  }
  return operationsNum() == 1 && sum == 11 && CurrentPosition[x][0] == empty;
}

define end() -> bool {
  return false;
}
"""


def test_arrays_filled_with_zero_bits_or_minus_one_are_made_with_memset(tmp_path):
    """A local array filled with a constant whose bytes are all alike (0, false, empty, +0.0, the
    int -1) is made with one memset, others (7, -0.0) by a loop; what they hold is the Python
    backend's."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "fills", FILLS)
    assert text.count("memset(l_") == 4
    assert "memset(l_minus.p, 0xFF, (size_t)(_t1 * _t2) * sizeof(int64_t));" in text
    assert "memset(l_half.p, 0, (size_t)(" in text and "sizeof(double));" in text
    assert "l_negative.p[k] = " in text and "l_seven.p[k] = " in text
    assert native.perft(game.new_state(), 2) == perft(game.new_state(), 2) == [4, 12]


# isMoveLegal() reads the board after the move square by square, 24 reads a judgement: more than
# the first few that look squares up among the move's operations, so the later ones read the
# copy of the board after the move. A move is legal when it leaves at most two X and two O and
# square 11 not X.
NEXT = """
name: next
players: 2
size: 12 x 1
obj X
obj O

define isMoveLegal() -> bool {
  int xs = 0;
  int os = 0;
  for (int x = 0; x < 12; x = x + 1) {
    if (NextPosition[x][0] == X) { xs = xs + 1; }
    if (NextPosition[x][0] == O) { os = os + 1; }
  }
  return operationsNum() == 1 && xs <= 2 && os <= 2 && NextPosition[11][0] != X;
}

define end() -> bool {
  return false;
}
"""


def test_a_judgement_reading_the_board_after_the_move_often_reads_a_copy(tmp_path):
    """NextPosition in isMoveLegal(): a scan of the move's operations for the first reads of a
    judgement, then a copy of the board with the move applied, made once per judgement (its
    count reset by e_isMoveLegal); the judgements are the Python backend's."""
    from gdef_core.runtime.perft import perft

    game, text, native = c_rules(tmp_path, "next", NEXT)
    assert "static inline int e_isMoveLegal(Ctx *c) { c->HS[H_NEXT] = 0; " in text
    expected = perft(game.new_state(), 3)
    assert expected[0] == 23 and native.perft(game.new_state(), 3) == expected


# moves() proposes a place on each empty square, then the places on squares 0 to 2 again
# (duplicates of one operation), and with REST a move of two operations too (a list of
# candidates of mixed lengths). The game ends after one move, won by player 0 when it took
# square 0, 1 or 2.
REPEATS = """
name: repeats
players: 2
size: 6 x 1
obj X

define isMoveLegal() -> bool {
  return isGenerated();
}

define moves() {
  for (int x = 0; x < 6; x = x + 1) {
    if (CurrentPosition[x][0] == empty) {
      addPlace(x, 0, X);
      addMove();
    }
  }
  for (int x = 0; x < 3; x = x + 1) {
    if (CurrentPosition[x][0] == empty) {
      addPlace(x, 0, X);
      addMove();
    }
  }
  REST
}

define end() -> bool {
  if (CurrentPosition[0][0] != empty || CurrentPosition[1][0] != empty || CurrentPosition[2][0] != empty) {
    setWinner(0);
  } else {
    setWinner(1);
  }
  return true;
}
"""


@pytest.mark.parametrize("rest, moves", [("", 6), ("addPlace(5, 0, X); addPlace(4, 0, X); addMove();", 7)])
def test_candidates_of_one_operation_proposed_twice_are_listed_and_drawn_once(tmp_path, rest, moves):
    """Candidates of one operation are stamped in one pass up to the first repeat (kernel.c,
    g_single_unique), then the rest checked and moved down: each is kept once; with a candidate of
    two operations among them they all stay, and repeats are skipped as drawn. Perft is the Python backend's, and a random
    player takes each distinct move alike: squares 0 to 2 in 3 games of `moves` (not 6 of 9 or
    of 10, as drawing candidates as proposed would)."""
    from gdef_core.runtime.perft import perft

    game, _, native = c_rules(tmp_path, "repeats", REPEATS.replace("REST", rest))
    assert native.perft(game.new_state(), 1) == perft(game.new_state(), 1) == [moves]
    totals = native.simulate(3, 0, 4000, game.new_state(), None)
    assert totals.games == 4000 and abs(totals.wins[0] / 4000 - 3 / moves) < 0.05, totals.wins


def test_a_history_key_and_the_memo_leave_out_the_constant_tables():
    """Oware's key for repetitions() is its board and the player to move: its four arrays of
    house and store coordinates, never written, are read from constant tables and left out of
    every key (lower/layout.py's keyed_slots), which is hashed and copied on every move, and
    out of what hasLegalMove()'s kept candidates are compared by (g_memo_row). A game
    resumed in the middle brings its history in that layout (native/backend.py's _key_of), and
    its random games from there replay through the Python backend."""
    game = load_game(str(EXAMPLES / "oware.gdef"))
    text = c_source(game.program, game.max_steps, game.max_depth).text
    assert "#define USES_REPETITIONS 1\n" in text
    assert "#define KEYLEN 33\n" in text   # 8 x 2 squares and their counts, the player
    assert "#define MEMO_LEN 38\n" in text   # 6 slots, the squares and their counts
    for function in ("static void g_key_row(", "static inline void g_memo_row("):
        row = text[text.index(function):]
        assert "V + " not in row[:row.index("\n}\n")], function
    native = NativeRules.load(game, None)
    assert native.route == "c"
    state = game.new_state()
    for name in ("c1", "d2", "b1", "e2", "f1", "c2"):
        state.apply(name)
    assert len(native.history_rows(state)) == 7 and native.history_rows(state).shape[1] == 33
    replay_native_games(game, native, state, 6, seed=4)


def test_forked_sim_workers_die_of_sigterm_under_gdef_runs_handlers(tmp_path, monkeypatch, capsys):
    """gdef-run's SIGTERM/SIGHUP handlers raise to save a game; a `--jobs` worker forked from a
    process that installed them (an in-process gdef-run before) kept them, so Pool.terminate()
    did not end it and the join hung (a clean-clone CI run). The workers take the default back."""
    import signal

    from gdef_core.cli.sim import main as sim_main
    from gdef_core.controller.play_session import stop_on_signals
    from gdef_core.play import native_sim, spread

    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        stop_on_signals()
        monkeypatch.setitem(native_sim._worker, "native", None)   # as forked: the parent's rules
        native_sim._init_worker((), {}, 1, 1, 0, None)
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL
        stop_on_signals()
        monkeypatch.setattr(spread, "PROBE_SECONDS", 0.0)   # --jobs 2 spreads a run this short
        monkeypatch.setattr(spread, "NATIVE_START_SECONDS", 0.0)
        assert sim_main([str(EXAMPLES / "tictactoe.gdef"), "--games", "400", "--backend", "native",
                         "--jobs", "2", "--seed", "4", "--no-progress"]) == 0
        assert "400 games, seed 4, 2 jobs, native backend" in capsys.readouterr().out
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
