"""Random games of a game without moves() on the C route (kernel.c g_automatic_draw): its
candidates are every place of every object on every square, the clears of the occupied squares
and the pass (spec section 12), most of them illegal. A random game writes only the clears and
the candidate it draws, not the whole list each turn (Y: 39% fewer instructions,
docs/performance.md "Games the engine had not seen"), and draws only among the kinds of
candidates isMoveLegal() does not refuse whatever the position (lower/automatic_guards.py:
docs/performance.md "Automatic candidates never legal"). Where every kind is kept it draws as
numba's kernel does (the same numbering, the same random numbers: the same games).
"""
from __future__ import annotations

import random

import pytest

from support import EXAMPLES, ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.loader import load_program  # noqa: E402
from gdef_core.lower.automatic_guards import refused_kinds  # noqa: E402
from gdef_core.lower.build import lowered  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.native.backend import ENDED  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402

from native_support import c_route, compile_rules, replay_native_games, use_route  # noqa: E402, F401 (c_route: a fixture)

GAMES = ROOT / "benchmarks" / "games"

# 30 squares, two objects: 60 places, then the clears of the occupied squares, then the pass;
# each player places its own object on an empty square, the board full ends the game. Its first
# line refuses every clear and the pass, its last the other player's object.
FILL = """name: fill
players: 2
size: 6 x 5
obj X
obj O

define isMoveLegal() -> bool {
  if (operationsNum() != 1 || !isPlaceOperation(0)) { return false; }
  int x = OperationList[0][0];
  int y = OperationList[0][1];
  obj mine = X;
  if (onTurn() == 1) { mine = O; }
  return OperationList[0][2] == mine && CurrentPosition[x][y] == empty;
}

define end() -> bool {
  return moveNumber() == 30;
}
"""


# The same game judged after counting the empty squares (a loop: a call whose result no kind
# decides, which may spend any steps): every kind kept, the candidates drawn as numba draws them.
FILL_COUNTED = FILL.replace("define isMoveLegal() -> bool {\n", """define emptySquares() -> int {
  int n = 0;
  for (int x = 0; x < 6; x = x + 1) {
    for (int y = 0; y < 5; y = y + 1) {
      if (CurrentPosition[x][y] == empty) { n = n + 1; }
    }
  }
  return n;
}

define isMoveLegal() -> bool {
  if (emptySquares() == 0) { return false; }
""")

EVERY_KIND = [(frozenset(), False, False)] * 2


def kinds_of(text: str, tmp_path) -> list:
    path = tmp_path / "kinds.gdef"
    path.write_text(text, encoding="utf-8")
    return refused_kinds(lowered(load_program([str(path)])))


def judged_by(body: str) -> str:
    """FILL with isMoveLegal()'s body `body`."""
    head, rest = FILL.split("define isMoveLegal() -> bool {\n")
    return head + "define isMoveLegal() -> bool {\n" + body + rest[rest.index("}\n\ndefine end"):]


@pytest.mark.parametrize("path, kinds", [
    # only the pass (operationsNum() != 1); the clears and the marks read the board
    (EXAMPLES / "tictactoe.gdef", [(frozenset(), False, True)] * 2),
    # the clears and the pass by the first guard, O for player 0 and X for player 1 by the second
    # (through markOf(onTurn()))
    (GAMES / "ultimate_tic_tac_toe.gdef", [(frozenset({2}), True, True), (frozenset({1}), True, True)]),
    # the other colour by the last line's `&&`, after a guard that reads the square
    (GAMES / "y.gdef", [(frozenset({2}), True, True), (frozenset({1}), True, True)]),
    # a game with moves() draws no automatic candidate
    (EXAMPLES / "connect4.gdef", [(frozenset(), False, False)] * 2),
])
def test_the_kinds_refused_in_the_games(path, kinds):
    assert refused_kinds(lowered(load_program([str(path)]))) == kinds


def test_the_kinds_refused_in_the_fill_game(tmp_path):
    # `mine` assigned in an if whose condition is onTurn()
    assert kinds_of(FILL, tmp_path) == [(frozenset({2}), True, True), (frozenset({1}), True, True)]
    assert kinds_of(FILL_COUNTED, tmp_path) == EVERY_KIND


@pytest.mark.parametrize("body, kinds", [
    # a guard that reads the board: no kind decides it
    ("  if (operationsNum() != 1 && CurrentPosition[0][0] != empty) { return false; }\n"
     "  return true;\n", EVERY_KIND),
    # the same guard followed by one that decides the clears and the pass
    ("  if (operationsNum() != 1 && CurrentPosition[0][0] != empty) { return false; }\n"
     "  return isPlaceOperation(0);\n", [(frozenset(), True, False)] * 2),
    # a guard after a statement with an effect (a consequence of the move)
    ("  addPlace(0, 0, X);\n  if (operationsNum() != 1) { return false; }\n  return true;\n", EVERY_KIND),
    # a guard after a built-in that searches
    ("  if (hasLegalMove()) { return false; }\n  if (operationsNum() != 1) { return false; }\n"
     "  return true;\n", None),
    # a guard after a statement that may fail (a square off the board): failing refuses the
    # candidate too, so the guard still decides (docs/language.md "Run-time errors and limits")
    ("  obj far = CurrentPosition[OperationList[0][0] + 5][0];\n"
     "  if (operationsNum() != 1) { return false; }\n  return far == empty;\n",
     [(frozenset(), False, True)] * 2),
    # decided on one arm of an if the kind does not decide, not on the other
    ("  if (CurrentPosition[0][0] == empty) { return false; }\n  return isPlaceOperation(0);\n",
     [(frozenset(), True, False)] * 2),
    # a loop before the guard
    ("  for (int i = 0; i < 3; i = i + 1) { }\n  return operationsNum() == 1;\n", EVERY_KIND),
    # the opposite: only the pass may be legal
    ("  return operationsNum() == 0;\n", [(frozenset({1, 2}), True, False)] * 2),
])
def test_what_the_analysis_decides_and_what_it_keeps(body, kinds, tmp_path):
    text = judged_by(body)
    if kinds is None:   # hasLegalMove() is not allowed in isMoveLegal(): the checker says so
        assert load_program_errors(text, tmp_path)
        kinds = EVERY_KIND
    assert kinds_of(text, tmp_path) == kinds


def load_program_errors(text: str, tmp_path) -> list:
    path = tmp_path / "kinds.gdef"
    path.write_text(text, encoding="utf-8")
    return [d for d in load_program([str(path)]).diagnostics if d.severity.name == "ERROR"]


def test_a_judgement_that_may_assign_a_game_variable_keeps_every_kind(tmp_path):
    """The checker refuses the assignment (G412); the analysis promises nothing about effects."""
    text = FILL.replace("obj O\n", "obj O\nint touched = 0;\n\ndefine note() -> int {\n"
                                   "  touched = touched + 1;\n  return 0;\n}\n").replace(
        "define isMoveLegal() -> bool {\n", "define isMoveLegal() -> bool {\n  int n = note();\n")
    assert [d.code for d in load_program_errors(text, tmp_path)] == ["G412"]
    assert kinds_of(text, tmp_path) == EVERY_KIND


def test_the_draw_keeps_each_players_kinds(tmp_path):
    game_text = (GAMES / "ultimate_tic_tac_toe.gdef").read_text(encoding="utf-8")
    path = tmp_path / "u.gdef"
    path.write_text(game_text, encoding="utf-8")
    game = load_game(str(path))
    text = c_source(game.program, game.max_steps, game.max_depth).text
    assert "#define AUTO_NK 1\n" in text   # each player places one object: a constant
    assert "static const int64_t G_AUTO_OBJ[2][2] = {{1, 0}, {2, 0}};\n" in text
    assert "static const int64_t G_AUTO_N[2] = {1, 1};\n" in text
    assert "static const int64_t G_AUTO_CLEARS[2] = {0, 0};\n" in text
    assert "static const int64_t G_AUTO_PASS[2] = {0, 0};\n" in text


def test_a_random_game_writes_only_the_candidates_it_draws(c_route, tmp_path):
    game, native = compile_rules(tmp_path, "fill", FILL)
    assert native.route == "c"
    CO = native.workspace()[0]
    CO[:] = -7
    status, winner = native.playout(game.new_state(), 1, None)
    assert (status, winner) == (ENDED, -1)
    # row 0: the candidate drawn; the clears, never legal here, are not written (rows 1 .. 29
    # held the occupied squares before)
    assert (CO[1:] == -7).all()
    assert (CO[0] != -7).all()


def test_a_random_game_writes_the_clears_where_they_are_kept(c_route, tmp_path):
    game, native = compile_rules(tmp_path, "fill", FILL_COUNTED)
    CO = native.workspace()[0]
    CO[:] = -7
    status, winner = native.playout(game.new_state(), 1, None)
    assert (status, winner) == (ENDED, -1)
    # row 0: the candidate drawn; rows 1 .. 29: the clears of at most 29 occupied squares
    assert (CO[30:] == -7).all()
    assert (CO[1:30] != -7).any()


@pytest.mark.parametrize("text", [FILL, FILL_COUNTED])
def test_the_fill_game_plays_the_python_backends_games(c_route, tmp_path, text):
    game, native = compile_rules(tmp_path, "fill", text)
    outcomes = replay_native_games(game, native, game.new_state(), 8, seed=2)
    assert [outcome.length for outcome in outcomes] == [30] * 8


@pytest.mark.parametrize("name, seed", [("ultimate_tic_tac_toe", 4), ("y", 6)])
def test_the_new_games_play_the_python_backends_games(c_route, tmp_path, name, seed):
    text = (GAMES / f"{name}.gdef").read_text(encoding="utf-8")
    game, native = compile_rules(tmp_path, name, text)
    replay_native_games(game, native, game.new_state(), 6, seed=seed)


@pytest.mark.parametrize("name, plies", [("ultimate_tic_tac_toe", 0), ("ultimate_tic_tac_toe", 1), ("y", 1)])
def test_each_legal_move_is_drawn_alike(c_route, tmp_path, name, plies):
    """The move drawn from a position (the start, or after one move, the other player's turn):
    every legal move of the Python backend drawn, none other, uniformly (chi-square below its
    0.1% point)."""
    text = (GAMES / f"{name}.gdef").read_text(encoding="utf-8")
    game, native = compile_rules(tmp_path, name, text)
    start = game.new_state()
    for _ in range(plies):
        start.apply(start.legal_moves()[0])
    legal = sorted(str(move) for move in start.legal_moves())
    per_move = 16
    seen: dict[str, int] = {}
    for seed in range(per_move * len(legal)):
        move = native.recorded_moves(seed, start, 1)[0]
        seen[str(move)] = seen.get(str(move), 0) + 1
    assert sorted(seen) == legal
    chi_square = sum((count - per_move) ** 2 / per_move for count in seen.values())
    assert chi_square < CHI_SQUARE_999[len(legal) - 1], (chi_square, len(legal))


def _chi_square_999(dof: int) -> float:
    """The 0.1% point of chi-square with `dof` degrees of freedom (Wilson-Hilferty, within 0.5%
    above 30 degrees: a bound the test compares against, not a figure it reports)."""
    z = 3.090232   # the normal's 0.1% point
    return dof * (1 - 2 / (9 * dof) + z * (2 / (9 * dof)) ** 0.5) ** 3


CHI_SQUARE_999 = {dof: _chi_square_999(dof) for dof in range(1, 400)}


@pytest.mark.parametrize("route", ["route_numba"])
def test_both_routes_play_the_same_games_where_every_kind_is_kept(tmp_path, monkeypatch, route):
    """Where the analysis keeps every kind, the C route draws over the numbering numba's kernel
    writes out (kernels/kernel.py _automatic): a seed plays the same game on both. (Where it
    drops kinds, numba's kernel still draws among them all: other random numbers, other games,
    each as likely.)"""
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    with use_route("numba"):
        game, numba_rules = compile_rules(tmp_path, "fill", FILL_COUNTED)
    assert numba_rules.route == "numba"
    c_rules = NativeRules.load(game, None, route="c")
    assert c_rules.route == "c"
    seeds = np.arange(300, dtype=np.uint64)
    recorded = [[rules.recorded_moves(int(seed), game.new_state(), None) for seed in seeds[:20]]
                for rules in (numba_rules, c_rules)]
    assert recorded[0] == recorded[1]
    played = [rules.playouts(seeds, game.new_state(), None) for rules in (numba_rules, c_rules)]
    for mine, theirs in zip(*played):
        assert mine.tolist() == theirs.tolist()


@pytest.mark.parametrize("name", ["ultimate_tic_tac_toe", "y"])
def test_no_legal_move_of_the_python_backend_is_of_a_refused_kind(name):
    """Along random games of the Python backend, every legal move is of a kind the analysis
    keeps for the player on turn (the draw may drop only kinds that are never legal)."""
    game = load_game(str(GAMES / f"{name}.gdef"))
    module = lowered(game.program)
    refused = refused_kinds(module)
    chooser = random.Random(5)
    checked = 0
    for _ in range(2):
        state = game.new_state()
        while not state.is_over:
            places, clears, passes = refused[state.player]
            legal = state.legal_moves()
            for move in legal:
                if move.is_pass:
                    assert not passes
                elif move.ops[0].obj is None:
                    assert not clears
                else:
                    assert module.objects[str(move.ops[0].obj)] not in places, str(move)
                checked += 1
            state.apply(chooser.choice(legal))
    assert checked > 100
