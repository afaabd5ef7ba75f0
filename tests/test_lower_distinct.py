"""lower/distinct.py: which moves() proposes each candidate at most once by its shape (a grid
walk: one operation on the counters of the loops around the one addMove()), and the C route,
which skips dropping duplicates there (g_candidates without g_stamped) and nowhere else: near
misses that can repeat a candidate keep the pass and list each move once."""
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
    "two operations": GRID.replace("addPlace(x, y, X);", "addPlace(x, y, X);\n        addPlace(y, x, O);"),
    "a pass besides": GRID.replace("define moves() {", "define moves() {\n  addMove();"),
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


def _module(tmp_path, moves: str):
    path = tmp_path / "grid.gdef"
    path.write_text(HEADER + moves, encoding="utf-8")
    return lowered(load_game(str(path)).program)


def test_the_grid_walk_is_distinct(tmp_path):
    assert distinct_candidates(_module(tmp_path, GRID))


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
    assert distinct == {"connect4", "gomoku", "hex"}


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
