"""The C route's rejection draw (kernel.c g_reject_draw, emit.py's x_moves, lower/rejection.py):
a random game of amazons draws its move by walking the arrows of one (amazon, destination)
entry, drawn with j in [0, 64), instead of every ray; hasLegalMove() stops at the first legal
candidate. Each legal move stays equally likely, every game replays through the Python
backend, and a moves() whose nest may fail, or whose candidates may repeat, keeps the full
generation and search (so a failure after the first legal candidate is still reported).
"""
from __future__ import annotations

import math
from collections import Counter

import pytest

from support import ROOT, need_module

need_module("numpy", "pip install -e '.[fast]'")

from gdef_core.cnative.emit import c_source  # noqa: E402
from gdef_core.lower.build import lowered  # noqa: E402
from gdef_core.lower.printer import expr  # noqa: E402
from gdef_core.lower import ir  # noqa: E402
from gdef_core.lower.rejection import _fan_bound, _nest_walk, rejection_split  # noqa: E402
from gdef_core.play.games import kernel_seed  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.runtime.errors import GdefRuntimeError  # noqa: E402

from native_support import c_route, compile_rules, python_budget, replay_native_games  # noqa: E402, F401 (c_route: a fixture)

GAMES = ROOT / "benchmarks" / "games"
AMAZONS = GAMES / "amazons.gdef"
ARROW_RAY = "while (onBoard(ax, ay) && (CurrentPosition[ax][ay] == empty || ax == x && ay == y)) {"

pytestmark = pytest.mark.usefixtures("c_route")   # every test on the C route, its own cache


def source(game) -> str:
    return c_source(game.program, game.max_steps, game.max_depth).text


def amazons_text(**replace: str) -> str:
    text = AMAZONS.read_text(encoding="utf-8")
    for old, new in replace.items():
        old = {"ray": ARROW_RAY, "dx": "int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};",
               "dy": "int dy[8] = {0, 1, 1, 1, 0, -1, -1, -1};"}[old]
        assert old in text
        text = text.replace(old, new)
    return text


def test_amazons_draws_from_the_arrows_of_one_destination():
    game = load_game(str(AMAZONS))
    split = rejection_split(lowered(game.program))
    # the nest: the arrow's directions from (tx, ty); entries are (amazon, destination); its
    # candidates differ in the arrow's square alone (at most 64), its loops make at most 8 x 8
    # passes, and the rays from one square of the board cover at most 27 squares
    assert split is not None and expr(split.loop.cond) == "lt.int(4e, 8)"
    assert split.bound == 27 and split.steps == 912
    assert split.arrays == ("dx", "dy") and set(split.scalars) >= {"mine", "1x", "2y", "tx", "ty", "4e"}
    text = source(game)
    assert "#define REJECT 1\n" in text and "#define RJ_BOUND 27\n" in text
    assert "_st -= 912; /* the nest's steps' bound" in text and "goto rj_nest;" in text


@pytest.mark.parametrize("name", ["pentago", "clobber", "nine_mens_morris", "lines_of_action", "dots_and_boxes"])
def test_the_other_benchmark_games_keep_their_draw(name):
    game = load_game(str(GAMES / f"{name}.gdef"))
    assert rejection_split(lowered(game.program)) is None
    assert "#define REJECT 0\n" in source(game) and "x_moves" not in source(game)


def test_the_fan_of_rays_bounds_only_a_counted_direction(tmp_path):
    """The arrows' directions counted by e: at most 27 squares from one square. Where the
    direction's index is not the nest's counter (here it stays 0 while e counts 8 passes, the
    same ray walked eight times), the rays' squares bound nothing: the passes' 64 stand."""
    game = load_game(str(AMAZONS))
    assert rejection_split(lowered(game.program)).bound == 27
    text = amazons_text()
    ray = "int ax = tx + dx[e];\n              int ay = ty + dy[e];"
    assert ray in text
    text = text.replace(ray, "int f = 0;\n              int ax = tx + dx[f];\n              int ay = ty + dy[f];")
    text = text.replace("ax = ax + dx[e];\n                ay = ay + dy[e];", "ax = ax + dx[f];\n                ay = ay + dy[f];")
    path = tmp_path / "fixed.gdef"
    path.write_text(text, encoding="utf-8")
    for program, bound in ((game.program, 27), (load_game(str(path)).program, None)):
        module = lowered(program)
        moves = module.functions["moves"]
        nest, = [node for node in ir.walk(moves.body) if isinstance(node, ir.Loop) and expr(node.cond) == "lt.int(4e, 8)"]
        assert _fan_bound(nest, _nest_walk(module, moves, nest)) == bound


def test_no_draw_where_the_nest_may_fail_or_candidates_repeat(tmp_path):
    # the arrow's square read without onBoard(): a read off the board fails (G603)
    unproven = amazons_text(ray="while (CurrentPosition[ax][ay] == empty || ax == x && ay == y) {")
    # a direction twice: moves() may propose a candidate twice (lower/distinct.py)
    repeated = amazons_text(dx="int dx[9] = {1, 1, 0, -1, -1, -1, 0, 1, 1};",
                            dy="int dy[9] = {0, 1, 1, 1, 0, -1, -1, -1, 0};").replace("e < 8", "e < 9")
    # a direction (0, 0): the arrow's ray has no bound on its passes
    standing = amazons_text(dx="int dx[9] = {1, 1, 0, -1, -1, -1, 0, 1, 0};",
                            dy="int dy[9] = {0, 1, 1, 1, 0, -1, -1, -1, 0};").replace("e < 8", "e < 9")
    for name, text in (("unproven", unproven), ("repeated", repeated), ("standing", standing)):
        path = tmp_path / f"{name}.gdef"
        path.write_text(text, encoding="utf-8")
        game = load_game(str(path))
        assert rejection_split(lowered(game.program)) is None, name
        assert "#define REJECT 0\n" in source(game), name


def test_a_failure_after_the_first_legal_candidate_is_still_reported(tmp_path):
    """Without onBoard() the arrow's ray reads off the board as soon as one reaches an edge,
    long after the first legal candidate: hasLegalMove() in end() must search them all, as the
    Python backend does, and report that read where it does."""
    text = amazons_text(ray="while (CurrentPosition[ax][ay] == empty || ax == x && ay == y) {")
    game, native = compile_rules(tmp_path, "unproven", text)
    assert "#define REJECT 0\n" in source(game)
    with pytest.raises(GdefRuntimeError) as raised:
        game.new_state().legal_moves()
    located = str(raised.value).splitlines()[0]
    assert "G603" in located, located
    for outcome in native_games(native, range(3), 5, None):
        assert located in str(outcome)


def _chi_square_point(k: int, z: float = 3.09) -> float:
    """The upper 0.1% point of chi-square on k degrees of freedom (Wilson-Hilferty)."""
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def test_each_first_move_of_amazons_is_drawn_alike(tmp_path):
    game = load_game(str(AMAZONS))
    native = compile_rules(tmp_path, "amazons", AMAZONS.read_text(encoding="utf-8"))[1]
    start = game.new_state()
    legal = [str(move) for move in start.legal_moves()]
    assert len(legal) == len(set(legal)) == 1232
    per_move = 20
    seen = Counter(str(native.recorded_moves(seed, start, 1)[0]) for seed in range(per_move * len(legal)))
    assert sorted(seen) == sorted(legal)   # every legal move met, nothing else
    chi = sum((count - per_move) ** 2 / per_move for count in seen.values())
    # below the 0.1% point on 1231 degrees of freedom (1,391); drawing an entry first and then
    # one of its arrows would favour the destinations with few arrows by far more
    assert chi < _chi_square_point(len(legal) - 1), chi


def test_amazons_games_replay_through_the_python_backend(tmp_path):
    game = load_game(str(AMAZONS))
    native = compile_rules(tmp_path, "amazons", AMAZONS.read_text(encoding="utf-8"))[1]
    outcomes = replay_native_games(game, native, game.new_state(), 12, seed=9)
    assert {outcome.winner for outcome in outcomes} <= {0, 1}



def test_the_budget_stops_native_games_where_it_stops_the_python_backend(tmp_path):
    """The outer pass charges the nest's bound (912 steps an entry, more than the arrows cost):
    at the budget moves() needs at the start it runs out, and the turn generates every
    candidate, which fits; one step less and the game stops with the Python backend's G607. A
    native game that goes on is one the Python backend plays too, move by move, at that budget."""
    budget = python_budget(AMAZONS, "candidate_moves")
    text = AMAZONS.read_text(encoding="utf-8")
    for max_steps, fails in ((budget - 1, True), (budget, None), (budget + 40_000, False)):
        game, native = compile_rules(tmp_path, "amazons", text, max_steps=max_steps)
        assert "#define REJECT 1\n" in source(game)
        outcome, = native_games(native, range(1), 3, 2)
        failed = isinstance(outcome, Exception)
        assert fails is None or failed == fails, (max_steps, outcome)
        if failed:
            assert "error[G607]" in str(outcome), outcome
            continue
        state = game.new_state()
        for move in native.recorded_moves(kernel_seed(3, 0, 0), state, 2):
            state.apply(move)   # raises where the Python backend runs out of steps
