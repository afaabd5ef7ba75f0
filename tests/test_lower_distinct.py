"""lower/distinct.py: which moves() proposes each candidate at most once by its shape (a grid
walk: one operation on the counters of the loops around the one addMove(); a step or a ray
along a table of directions from a square of those counters; operations after the proven
ones), and the C route, which skips dropping duplicates there (g_candidates without
g_stamped) and nowhere else: near misses that can repeat a candidate keep the pass and list
each move once. The games proven: no position of random games ever proposes a candidate twice
(the Python backend's own list), and the C route plays them the same with the pass or without."""
from __future__ import annotations

import pytest

from support import EXAMPLES, ROOT, need_module

from gdef_core.lower.build import lowered
from gdef_core.lower.distinct import distinct_candidates
from gdef_core.runtime import load_game

HEADER = """name: grid
players: 2
size: 3 x 3
obj X
obj O

define isMoveLegal() -> bool { return isGenerated(); }

define end() -> bool {
  if (moveNumber() >= 2) { return true; }
  return false;
}

"""

GRID = """define moves() {
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 2; y >= 0; y = y - 1) {
      if (CurrentPosition[x][y] == empty) {
        addPlace(x, y, X);
        addMove();
      }
    }
  }
}
"""

# each proposes some candidate twice, or could
NEAR_MISSES = {
    "an operation off the counters": GRID.replace("addPlace(x, y, X)", "addPlace(0, y, X)"),
    "a counter changed in its loop": GRID.replace("addMove();", "addMove();\n        if (x == 1) { x = 0; }"),
    "a loop that is not counted": """define moves() {
  int x = 0;
  while (x < 3) {
    for (int y = 0; y < 3; y = y + 1) { addPlace(x, y, X); addMove(); }
    if (onTurn() == 0) { x = x + 1; }
  }
}
""",
    "a step of nothing": GRID.replace("x = x + 1", "x = x + 0").replace("x < 3", "x < 3 && moveNumber() < 0"),
    "two addMove()": GRID.replace("addMove();", "addMove();\n        addPlace(x, y, X);\n        addMove();"),
    "two operations, neither on y": GRID.replace(
        "addPlace(x, y, X);", "addPlace(x, 0, X);\n        addPlace(1, 1, O);"),
    "two passes": GRID.replace("define moves() {", "define moves() {\n  addMove();\n  addMove();"),
    "a pass in a loop": GRID.replace("define moves() {", "define moves() {\n  for (int k = 0; k < 2; k = k + 1) { addMove(); }"),
    "a third loop": GRID.replace("define moves() {", "define moves() {\n  for (int k = 0; k < 2; k = k + 1) {")
                        .replace("\n}\n", "\n}\n}\n", 1),
    "an operation in a helper": """define put(int x, int y) { addPlace(x, y, X); }

define moves() {
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) { put(x, y); addMove(); }
  }
}
""",
    "the counters swapped into one": GRID.replace("addPlace(x, y, X)", "addPlace(x, x, X)"),
}


# a step from each square of the mover along a table of directions (clobber)
STEP = """define moves() {
  int dx[4] = {1, 0, -1, 0};
  int dy[4] = {0, 1, 0, -1};
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) {
      if (CurrentPosition[x][y] == X) {
        for (int d = 0; d < 4; d = d + 1) {
          int tx = x + dx[d];
          int ty = y + dy[d];
          if (tx >= 0 && tx < 3 && ty >= 0 && ty < 3 && CurrentPosition[tx][ty] == empty) {
            addClear(x, y);
            addPlace(tx, ty, X);
            addMove();
          }
        }
      }
    }
  }
}
"""

# a queen's move along a ray, then an arrow along a ray from where it landed (amazons)
RAYS = """define inside(int x, int y) -> bool { return x >= 0 && x < 3 && y >= 0 && y < 3; }

define moves() {
  int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  int dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) {
      if (CurrentPosition[x][y] == X) {
        for (int d = 0; d < 8; d = d + 1) {
          int tx = x + dx[d];
          int ty = y + dy[d];
          while (inside(tx, ty) && CurrentPosition[tx][ty] == empty) {
            for (int e = 0; e < 8; e = e + 1) {
              int ax = tx + dx[e];
              int ay = ty + dy[e];
              while (inside(ax, ay) && (CurrentPosition[ax][ay] == empty || ax == x && ay == y)) {
                addClear(x, y);
                addPlace(tx, ty, X);
                addPlace(ax, ay, O);
                addMove();
                ax = ax + dx[e];
                ay = ay + dy[e];
              }
            }
            tx = tx + dx[d];
            ty = ty + dy[d];
          }
        }
      }
    }
  }
}
"""

# `while` loops counting, a target one counter off (breakthrough)
WHILES = """define moves() {
  int y = 0;
  while (y < 3) {
    int x = 0;
    while (x < 3) {
      if (CurrentPosition[x][y] == X) {
        int dx = -1;
        while (dx <= 1) {
          int toX = x + dx;
          if (toX >= 0 && toX < 3 && y + 1 < 3) {
            addClear(x, y);
            addPlace(toX, y + 1, X);
            addMove();
          }
          dx = dx + 1;
        }
      }
      x = x + 1;
    }
    y = y + 1;
  }
}
"""

# a proven operation first, then operations that may vary (dots and boxes)
EXTRAS = """define moves() {
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) {
      if (CurrentPosition[x][y] == empty) {
        addPlace(x, y, X);
        if (x > 0) { addPlace(0, 0, O); }
        if (y > 0) { addPlace(1, 1, O); }
        addMove();
      }
    }
  }
}
"""

# a slide along a table of directions by a distance a function returns, at least 1 (lines of action)
SLIDE = """define reach(int x, int y, int dx, int dy) -> int {
  int n = 1;
  int cx = x + dx;
  int cy = y + dy;
  while (cx >= 0 && cx < 3 && cy >= 0 && cy < 3) {
    if (CurrentPosition[cx][cy] != empty) { n = n + 1; }
    cx = cx + dx;
    cy = cy + dy;
  }
  return n;
}

define moves() {
  int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  int dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};
  for (int x = 0; x < 3; x = x + 1) {
    for (int y = 0; y < 3; y = y + 1) {
      if (CurrentPosition[x][y] == X) {
        for (int d = 0; d < 8; d = d + 1) {
          int distance = reach(x, y, dx[d], dy[d]);
          int tx = x + distance * dx[d];
          if (tx >= 0 && tx < 3 && y + distance * dy[d] >= 0 && y + distance * dy[d] < 3) {
            addClear(x, y);
            addPlace(x + distance * dx[d], y + dy[d] * distance, X);
            addMove();
          }
        }
      }
    }
  }
}
"""

SHAPES = {"the grid walk": GRID, "a step along a table": STEP, "rays along a table": RAYS,
          "while loops counting": WHILES, "a slide along a table": SLIDE,
          "a pass besides": GRID.replace("define moves() {", "define moves() {\n  addMove();"),
          "a pass after": GRID.replace("\n}\n", "\n  if (moveNumber() > 0) { addMove(); }\n}\n", 1),
          "two operations": GRID.replace("addPlace(x, y, X);", "addPlace(x, y, X);\n        addPlace(y, x, O);"),
          "two operations, each on one counter": GRID.replace(
              "addPlace(x, y, X);", "addPlace(x, 0, X);\n        addPlace(0, y, O);"), "operations after the proven one": EXTRAS}

# each proposes some candidate twice, or could
NEAR_MISSES.update({
    "two directions of the table along one ray": RAYS.replace("int dx[8] = {1, 1,", "int dx[8] = {2, 1,")
                                                     .replace("int dy[8] = {0, 1,", "int dy[8] = {2, 1,"),
    "a direction twice in a table of steps": STEP.replace("int dx[4] = {1, 0, -1, 0}", "int dx[4] = {0, 0, -1, 0}")
                                                 .replace("int dy[4] = {0, 1, 0, -1}", "int dy[4] = {1, 1, 0, -1}"),
    "a ray standing still": RAYS.replace("int dy[8] = {0,", "int dy[8] = {0,").replace("int dx[8] = {1,", "int dx[8] = {0,"),
    "a ray stepped on one branch": RAYS.replace("tx = tx + dx[d];", "if (onTurn() == 0) { tx = tx + dx[d]; }"),
    "a ray's x and y stepped out of step": RAYS.replace(
        "            for (int e = 0; e < 8; e = e + 1) {", "            tx = tx + dx[d];\n            for (int e = 0; e < 8; e = e + 1) {")
        .replace("            tx = tx + dx[d];\n            ty = ty + dy[d];", "            ty = ty + dy[d];"),
    "a break between a ray's x and y steps": RAYS.replace(
        "            tx = tx + dx[d];\n", "            tx = tx + dx[d];\n            if (onTurn() == 5) { break; }\n"),
    "a ray from a square that moves": RAYS.replace("int ax = tx + dx[e];", "int ax = tx + dx[e];\n              tx = tx + 0;"),
    "a step along a table read by a local not counted": STEP.replace("int tx = x + dx[d];", "int tx = x + dx[y];")
                                                           .replace("int ty = y + dy[d];", "int ty = y + dy[y];"),
    "a table that changes": STEP.replace("for (int x = 0;", "dx[0] = 0;\n  for (int x = 0;"),
    "a target off a call": WHILES.replace("int toX = x + dx;", "int toX = x + dx * onTurn();"),
    "a counter's loop that continues before its step": WHILES.replace(
        "          dx = dx + 1;\n", "          if (onTurn() == 5) { continue; }\n          dx = dx + 1;\n"),
    "an operation that may come first or second": STEP.replace(
        "            addClear(x, y);", "            if (onTurn() == 0) { addPlace(0, 0, O); }\n            addClear(x, y);"),
    "an operation left over for the next candidate": EXTRAS.replace(
        "        if (y > 0) { addPlace(1, 1, O); }", "        if (y > 0) { addPlace(1, 1, O); continue; }"),
    "an operation before the loops": GRID.replace("define moves() {", "define moves() {\n  addPlace(1, 1, O);"),
    "a pass among the operations": EXTRAS.replace("if (y > 0) { addPlace(1, 1, O); }", "if (y > 0) { addMove(); }"),
    "a slide by a distance that may be 0": SLIDE.replace("int n = 1;", "int n = 0;"),
    "a slide by a distance not from a function": SLIDE.replace("int distance = reach(x, y, dx[d], dy[d]);",
                                                               "int distance = 1;\n          distance = reach(x, y, dx[d], dy[d]);"),
    "a slide by two distances": SLIDE.replace("y + dy[d] * distance", "y + dy[d] * tx"),
    "a slide along two directions of the table on one ray": SLIDE.replace("int dy[8] = {1, 1, 0, -1, -1,",
                                                                              "int dy[8] = {1, 1, 0, -1, 2,"),
    "a count proposed": EXTRAS.replace("addPlace(0, 0, O)", "addCount(0, 0, 1)"),
})


def _module(tmp_path, moves: str):
    path = tmp_path / "grid.gdef"
    path.write_text(HEADER + moves, encoding="utf-8")
    return lowered(load_game(str(path)).program)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shapes_are_distinct(tmp_path, shape):
    assert distinct_candidates(_module(tmp_path, SHAPES[shape]))


@pytest.mark.parametrize("case", NEAR_MISSES)
def test_near_misses_are_not(tmp_path, case):
    assert not distinct_candidates(_module(tmp_path, NEAR_MISSES[case]))


def test_which_games_are_distinct():
    files = [*(EXAMPLES.rglob("*.gdef")), *(ROOT / "benchmarks" / "games").glob("*.gdef")]
    distinct = set()
    for path in files:
        if path.stem in ("rules", "lines"):   # modules of other files, not games
            continue
        if distinct_candidates(lowered(load_game(str(path)).program)):
            distinct.add(path.stem)
    assert distinct == {"connect4", "gomoku", "hex", "amazons", "breakthrough", "clobber", "dots_and_boxes",
                        "go9", "go19", "lines_of_action"}


# ---------------------------------------------------------------- the C route

def _c_route(tmp_path, monkeypatch, moves: str):
    need_module("numpy", "pip install -e '.[fast]'")
    from gdef_core.cnative.emit import c_source
    from native_support import compile_rules, use_route

    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("c"):
        game, native = compile_rules(tmp_path, "grid", HEADER + moves)
    assert native.route == "c"
    return game, native, c_source(game.program, game.max_steps, game.max_depth).text


def test_the_c_route_skips_the_pass_for_a_grid_walk(tmp_path, monkeypatch):
    from native_support import kernel_perft

    game, native, text = _c_route(tmp_path, monkeypatch, GRID)
    assert "return c->S[S_NM]; /* each candidate once: lower/distinct.py */" in text
    assert "g_stamped(c, c->S[S_NM])" not in text
    start = game.new_state()
    assert [str(move) for move in native.legal_moves(start)] == [str(move) for move in start.legal_moves()]
    assert kernel_perft(native, start, 2) == [9, 72]


def test_the_c_route_keeps_dropping_duplicates_elsewhere(tmp_path, monkeypatch):
    from native_support import kernel_perft

    # proposes place(0, y, X) for each y three times at first (once for each x that finds its
    # (x, y) empty): three distinct moves, and three again after any one of them
    game, native, text = _c_route(tmp_path, monkeypatch, NEAR_MISSES["an operation off the counters"])
    assert "return g_stamped(c, c->S[S_NM]);" in text
    start = game.new_state()
    assert [str(move) for move in native.legal_moves(start)] == [str(move) for move in start.legal_moves()]
    assert len(start.legal_moves()) == 3
    assert kernel_perft(native, start, 2) == [3, 9]


# ---------------------------------------------------------------- the games proven

PROVEN = ("benchmarks/games/amazons.gdef", "benchmarks/games/clobber.gdef", "benchmarks/games/dots_and_boxes.gdef",
          "benchmarks/games/lines_of_action.gdef", "examples/breakthrough.gdef", "examples/go/go9.gdef")


def _positions(game, count: int, seed: int) -> list:
    """`count` positions not over, from random games of the Python backend."""
    import random

    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        state = game.new_state()
        while not state.is_over and len(found) < count:
            found.append(state.clone())
            move = state.random_move(rng)
            if move is None:
                break
            state.apply(move)
    return found


@pytest.mark.parametrize("path", PROVEN, ids=lambda path: path.rsplit("/", 1)[-1])
def test_a_proven_game_never_proposes_a_candidate_twice(path):
    game = load_game(str(ROOT / path))
    assert distinct_candidates(lowered(game.program))
    proposed = 0
    for state in _positions(game, 300, seed=5):
        candidates = game.rules.raw_moves(state._board, state.player, state.move_number, state._vars)
        assert len(set(candidates)) == len(candidates), state.to_json()
        proposed += len(candidates)
    assert proposed > 300 * 3


@pytest.mark.parametrize("path", PROVEN, ids=lambda path: path.rsplit("/", 1)[-1])
def test_the_c_route_plays_a_proven_game_the_same_without_the_pass(tmp_path, monkeypatch, path):
    """The legal moves of random positions and random games of one seed, with the pass that
    drops duplicates and without it (the proof's)."""
    need_module("numpy", "pip install -e '.[fast]'")
    from native_support import use_route

    import gdef_core.cnative.emit as emit
    from gdef_core.cnative.emit import c_source
    from gdef_core.native import NativeRules
    from gdef_core.play.native_sim import native_games

    game = load_game(str(ROOT / path))
    assert distinct_candidates(lowered(game.program))
    positions = _positions(game, 100, seed=9)
    played = {}
    with use_route("c"):
        for proven in (True, False):
            monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / f"cache_{proven}"))
            monkeypatch.setattr(emit, "distinct_candidates", lambda module, proven=proven: proven)
            text = c_source(game.program, game.max_steps, game.max_depth).text
            assert ("/* each candidate once: lower/distinct.py */" in text) == proven
            native = NativeRules.load(game, None)
            assert native is not None and native.route == "c"
            legal = [[str(move) for move in native.legal_moves(state)] for state in positions]
            outcomes = [(o.length, o.winner, o.scores) for o in native_games(native, range(60), 7, None)]
            played[proven] = legal, outcomes
    assert played[True] == played[False]
    assert played[True][0] == [[str(move) for move in state.legal_moves()] for state in positions]


# ---------------------------------------------------------------- the numba route

def test_the_numba_route_skips_the_pass_where_proven(tmp_path, monkeypatch):
    need_module("numba", "pip install -e '.[fast]'")
    from gdef_core.native.codegen import native_source
    from native_support import compile_rules, kernel_perft, use_route

    sources = {}
    for moves in (GRID, NEAR_MISSES["an operation off the counters"]):
        path = tmp_path / "source.gdef"
        path.write_text(HEADER + moves, encoding="utf-8")
        game = load_game(str(path))
        sources[moves] = native_source(game.program, game.max_steps, game.max_depth)[0]
    assert "    return S[_NM]  # each candidate once: lower/distinct.py\n" in sources[GRID]
    assert "return _stamped(S, CO, CS, S[_NM])" not in sources[GRID]
    assert "    return _stamped(S, CO, CS, S[_NM])\n" in sources[NEAR_MISSES["an operation off the counters"]]
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("numba"):
        game, native = compile_rules(tmp_path, "grid", HEADER + GRID)
    assert native.route == "numba"
    start = game.new_state()
    assert [str(move) for move in native.legal_moves(start)] == [str(move) for move in start.legal_moves()]
    assert kernel_perft(native, start, 2) == [9, 72]
