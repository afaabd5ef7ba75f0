"""Random whole games (tests/random_games.py) on the native backend's C route against the
Python backend: every proof and shortcut of the C route (distinct candidates, proven checks,
the lazy draw, hasLegalMove()'s memo, stack arrays, pure-function tables, history keys) meets
moves() with loops over the board, direction tables, rays, jumps, helpers that add operations,
and end() with consequences, game variables, scores, hasLegalMove(), repetitions() and
PreviousPosition, in combinations no example has. For each seed:

- perft to depth 2 (3 where that stays small): the kernel's counts equal the Python backend's;
- the kernel's random games replay move by move through the Python backend: each move legal
  there, the legal moves listed natively the same list in the same order, the same end, winner
  and scores (a game the kernel stops is one the Python backend stops at the same move: no
  legal move, or a located run-time error);
- gdef-sim's totals do not depend on how the games are cut into kernel calls (--jobs 1 or 2
  plays games 0..n-1 as one call or as two);
- the first move is drawn uniformly over the Python backend's legal moves (chi-square).

The seeds tested meet every proof (test_the_seeds_meet_every_proof). Broken on purpose, the C
route fails here: lower/distinct.py proving every moves() distinct (perft, seed 1), the lazy
draw playing a candidate off the board (replay, seed 2) or counting a duplicate (chi-square,
seed 11), a draw taking the candidates in order after a refusal (chi-square), hasLegalMove()'s
candidates kept though end() changed the board after asking (replay, seed 16).

GDEF_FUZZ_GAMES=N runs seeds 0..N-1 (GDEF_FUZZ_FIRST=F starts at F); a failure names its seed,
and `python tests/random_games.py SEED` prints the game.
"""
from __future__ import annotations

import math
import os

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

import numpy as np  # noqa: E402
from random_games import game_text  # noqa: E402

from gdef_core.lower.build import lowered  # noqa: E402
from gdef_core.lower.distinct import distinct_candidates  # noqa: E402
from gdef_core.lower.ir import builtins_in  # noqa: E402
from gdef_core.lower.pure import memoizable  # noqa: E402
from gdef_core.lower.replayed import replayed  # noqa: E402
from gdef_core.lower.skippable import skippable_calls  # noqa: E402
from gdef_core.lower.stack_arrays import stack_arrays  # noqa: E402
from gdef_core.lower.tables import constant_arrays  # noqa: E402
from gdef_core.lower.unread_fills import unread_fills  # noqa: E402
from gdef_core.native.backend import ENDED, FAILED, NO_MOVE  # noqa: E402
from gdef_core.runtime import load_game  # noqa: E402
from gdef_core.play.games import kernel_seed  # noqa: E402
from gdef_core.play.native_sim import native_games  # noqa: E402
from gdef_core.runtime import GdefRuntimeError, IllegalMoveError  # noqa: E402
from gdef_core.runtime.perft import perft  # noqa: E402

from native_support import c_route, compile_rules, kernel_perft  # noqa: E402, F401 (c_route: a fixture)

pytestmark = pytest.mark.usefixtures("c_route")   # the C route, each test its own cache

FIRST = int(os.environ.get("GDEF_FUZZ_FIRST", "0"))
SEEDS = range(FIRST, FIRST + int(os.environ.get("GDEF_FUZZ_GAMES", "24")))
GAMES = 24           # kernel games replayed per seed
DRAWS_PER_MOVE = 30  # first moves drawn per legal move, for the chi-square
MOST_MOVES = 40      # seeds with more legal first moves skip the chi-square (its draws cost)


def chi_square_limit(df: int, z: float = 4.75) -> float:
    """The chi-square value with `df` degrees of freedom exceeded with the probability of a
    normal deviate above `z` (4.75: one in a million, so thousands of seeds stay quiet),
    by the Wilson-Hilferty approximation (a little above the exact quantile: rarer still)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def test_the_limit_is_the_chi_square_quantile():
    # one in a million (scipy.stats.chi2.isf(1e-6, df)); the approximation errs above it
    for df, exact in ((1, 23.93), (2, 27.63), (10, 46.86), (31, 83.64), (39, 96.13)):
        assert exact < chi_square_limit(df) < exact * 1.15, (df, chi_square_limit(df))


def proofs(module) -> set[str]:
    """The C route's proofs and shortcuts that apply to a lowered game."""
    tables = set(constant_arrays(module))
    functions = list(module.functions.values())
    found = {"distinct": distinct_candidates(module), "pure": bool(memoizable(module, tables)),
             "stack arrays": any(stack_arrays(f) for f in functions),
             "unread fills": any(unread_fills(f) for f in functions),
             "replayed": bool(replayed(module, tables)), "lazy draw": bool(skippable_calls(module)),
             "history": bool({"repetitions", "nextBoardSeen"} & builtins_in(functions))}
    return {name for name, applies in found.items() if applies}


def test_the_seeds_meet_every_proof(tmp_path):
    """Each proof or shortcut of the C route applies to at least two of the games tested."""
    met: dict[str, int] = {}
    for seed in SEEDS:
        path = tmp_path / f"fuzz{seed}.gdef"
        path.write_text(game_text(seed), encoding="utf-8")
        for name in proofs(lowered(load_game(str(path)).program)):
            met[name] = met.get(name, 0) + 1
    assert set(met) == {"distinct", "pure", "stack arrays", "unread fills", "replayed", "lazy draw", "history"}
    assert min(met.values()) >= 2, met


def check_perft(native, start):
    """The kernel's perft counts are the Python backend's, or it fails where they fail (moves()
    failing in a position reached)."""
    depth = 2
    try:
        counts = perft(start, depth)
        if sum(counts) < 400:
            depth, counts = 3, perft(start, 3)
    except GdefRuntimeError:
        with pytest.raises(RuntimeError):
            kernel_perft(native, start, depth)
        return
    assert kernel_perft(native, start, depth) == counts


def check_games(native, start, seed: int) -> tuple[list, list]:
    """The kernel's games replayed through the Python backend; -> their outcomes and statuses."""
    outcomes = native_games(native, range(GAMES), seed, None, start)
    seeds = np.array([kernel_seed(seed, index, 0) for index in range(GAMES)], dtype=np.uint64)
    status = [int(s) for s in native.playouts(seeds, start, None).status]
    for index, outcome in enumerate(outcomes):
        recorded = native.recorded_moves(kernel_seed(seed, index, 0), start, None)
        where = (index, len(recorded), status[index], outcome)
        state, failed = start.clone(), None
        for k, move in enumerate(recorded):
            assert not state.is_over, (index, k)
            legal = state.legal_moves()
            assert native.legal_moves(state) == legal, (index, k)
            assert move in legal, (index, k, str(move))
            try:
                state.apply(move)
            except IllegalMoveError as error:   # end() failed: the kernel's last move
                assert k == len(recorded) - 1, where
                failed = error
        if status[index] == ENDED:
            assert failed is None and state.is_over and outcome.length == len(recorded), where
            assert (state.winner, tuple(state.scores)) == (outcome.winner, outcome.scores), where
        elif status[index] == NO_MOVE:   # the player on turn has none: the Python backend agrees
            assert failed is None and not state.is_over and state.legal_moves() == [], where
        else:   # a run-time error or a limit: the Python backend stops there with a located error
            assert status[index] == FAILED and isinstance(outcome, (GdefRuntimeError, IllegalMoveError)), where
            if failed is None:   # moves() or every judgement failed on the next turn
                with pytest.raises(GdefRuntimeError):
                    state.legal_moves()
    return outcomes, status


def check_split(native, start, seed: int, outcomes: list, status: list):
    """gdef-sim's totals are those of the games played one by one, and --jobs 2 (games
    0..n-1 in calls of their own) gives the same."""
    whole = native.simulate(seed, 0, GAMES, start, None)
    ended = [outcome for outcome, stopped in zip(outcomes, status) if stopped == ENDED]
    assert whole.games == len(ended)
    assert whole.wins == [sum(outcome.winner == p for outcome in ended) for p in range(len(whole.wins))]
    assert whole.draws == sum(outcome.winner is None for outcome in ended)
    assert whole.total_length == sum(outcome.length for outcome in ended)
    assert whole.left == [index for index, stopped in enumerate(status) if stopped != ENDED]
    assert whole.total_scores == pytest.approx([sum(outcome.scores[p] for outcome in ended)
                                                for p in range(len(whole.wins))])
    first = native.simulate(seed, 0, GAMES // 3, start, None)
    second = native.simulate(seed, GAMES // 3, GAMES, start, None)
    assert whole.games == first.games + second.games
    assert whole.wins == [a + b for a, b in zip(first.wins, second.wins)]
    assert (whole.draws, whole.capped) == (first.draws + second.draws, first.capped + second.capped)
    assert whole.total_length == first.total_length + second.total_length
    assert whole.max_length == max(first.max_length, second.max_length)
    assert whole.left == first.left + second.left
    assert whole.total_scores == pytest.approx([a + b for a, b in zip(first.total_scores, second.total_scores)])


def check_first_move(native, start):
    """The first move of the kernel's games, drawn uniformly over the legal moves."""
    try:
        legal = [str(move) for move in start.legal_moves()]
    except GdefRuntimeError:   # moves() fails: every game stops there (check_games)
        return
    if not 2 <= len(legal) <= MOST_MOVES:
        return
    draws = DRAWS_PER_MOVE * len(legal)
    seen = dict.fromkeys(legal, 0)
    for index in range(draws):
        recorded = native.recorded_moves(kernel_seed(99, index, 0), start, 1)
        assert recorded, index
        assert str(recorded[0]) in seen, str(recorded[0])
        seen[str(recorded[0])] += 1
    chi = sum((count - DRAWS_PER_MOVE) ** 2 / DRAWS_PER_MOVE for count in seen.values())
    assert chi < chi_square_limit(len(legal) - 1), seen


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_plays_as_the_python_backend(tmp_path, seed):
    game, native = compile_rules(tmp_path, f"fuzz{seed}", game_text(seed))
    assert native.route == "c"
    start = game.new_state()
    if start.is_over:
        return
    check_perft(native, start)
    check_split(native, start, seed, *check_games(native, start, seed))
    check_first_move(native, start)
