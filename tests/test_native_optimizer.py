"""The native backend (gdef_core.native) against the Python backend on random rules: the
functions of the optimiser property test (tests/random_rules.py: arrays, loops with break and
continue, guards; and comparisons of random int expressions: C division and remainder,
64-bit overflow) judge every candidate move the same way (legal, rejected, or stopped by a
run-time error or limit, where the Python backend gives the located error) and list the same
legal moves, from the start, two moves on, and positions whose game variables p and q (where
the functions' locals start) take every pair of values near the 64-bit limits and small ones.

A numba compile costs seconds, so the random functions are compiled together: one program
whose isMoveLegal() returns legal<k>() for the game variable `variant` = k, compiled once per
backend; variant k is judged from states whose `variant` is k. Hypothesis draws the functions
derandomized (the same ones on every run), and the program takes those whose outcomes vary
most from move to move (many drawn functions fail or reject every move). On both routes of the
native backend: C where a C compiler exists, numba (the optional extra gdef[fast]). GDEF_NATIVE_FUZZ=N compiles N programs of
different functions (one by default).
"""
from __future__ import annotations

import itertools
import os
import random
import re
from collections import Counter
from contextlib import contextmanager
from functools import cache

import pytest

from support import need_module

need_module("numpy", "pip install -e '.[fast]'")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from random_rules import MOVES, comparison_function, header, legal_function  # noqa: E402

from gdef_core.loader import load_program  # noqa: E402
from gdef_core.moves import Move  # noqa: E402
from gdef_core.native import NativeRules  # noqa: E402
from gdef_core.runtime.game import Game, State, VerdictKind  # noqa: E402
from native_support import ROUTES, use_route  # noqa: E402

# The native backend does not compile game-variable arrays yet: each function declares `gv`
# as a local array of the same values. True makes `gv` HEADER's game variable again.
GAME_ARRAYS = False
VARIANTS = 20        # random functions per program
LONGEST = 800        # characters per function: numba's compile time grows with them
DRAWS = 6            # functions drawn per function kept
PROGRAMS = int(os.environ.get("GDEF_NATIVE_FUZZ", "1"))
MAX_STEPS = 10_000
# The random functions' locals start from the game variables p and q; the positions besides
# the start give them every pair of these values (with a random board and move number).
VALUES = [-2**63, -3_037_000_500, -7, -1, 0, 2, 3, 3_037_000_500, 2**63 - 1]


def compiled(game: Game, route: str) -> NativeRules:
    """The native rules of `game` on `route`, with no kernel compiled yet (NativeRules.load
    compiles numba's playout kernel, seconds this test does not use)."""
    if route == "c":
        from gdef_core.cnative.library import c_source, load_c_rules

        source = c_source(game.program, game.max_steps, game.max_depth)
        return NativeRules(game, load_c_rules(source)[0], source.int_scores)
    from gdef_core.native.cache import load_module
    from gdef_core.native.codegen import native_source

    source, int_scores, _ = native_source(game.program, game.max_steps, game.max_depth)
    return NativeRules(game, load_module(source)[0], int_scores)


def program_text(functions: list[str]) -> str:
    """HEADER, the game variables `variant`, p and q, isMoveLegal() returning legal<variant>(), and the
    functions (each `define isMoveLegal() ...`) renamed legal0, legal1, ..."""
    last = len(functions) - 1
    dispatch = "".join(f"  if (variant == {k}) {{ return legal{k}(); }}\n" for k in range(last))
    renamed = [text.replace("define isMoveLegal()", f"define legal{k}()", 1) for k, text in enumerate(functions)]
    return (header(GAME_ARRAYS) + "int variant = 0;\nint p = 0;\nint q = 0;\n"
            + "define isMoveLegal() -> bool {\n" + dispatch
            + f"  return legal{last}();\n}}\n" + "".join(renamed))


def python_game(functions: list[str]) -> Game:
    path = os.path.abspath("fuzz.gdef")   # not read: the text comes from the overlay
    program = load_program([path], overlay={path: program_text(functions)})
    assert program.ok, [str(d) for d in program.errors]
    return Game(program, max_steps=MAX_STEPS)


def start(game: Game, variant: int) -> State:
    data = game.new_state().to_json()
    data["vars"]["variant"] = variant
    return game.state_from_json(data)


def candidates(state: State) -> list[Move]:
    """The automatic candidates (every place, clear and the pass) and the moves of MOVES."""
    moves = state.candidate_moves()
    return moves + [move for move in map(Move.parse, MOVES) if move not in moves]


def python_verdict(state: State, move: Move) -> bool | None:
    kind = state.check(move).kind
    assert kind in (VerdictKind.LEGAL, VerdictKind.REJECTED, VerdictKind.RUNTIME_ERROR)
    return None if kind is VerdictKind.RUNTIME_ERROR else kind is VerdictKind.LEGAL


@cache
def chosen_functions() -> list[str]:
    """PROGRAMS times VARIANTS random functions, half of them statements (legal_function),
    half comparisons of int expressions (comparison_function), that behave differently: of
    each kind, those whose outcomes (legal, rejected, which run-time error) vary most from
    move to move first (many drawn functions fail or reject every move, which tests little)."""
    drawn: tuple[dict, dict] = ({}, {})   # by their text without numbers: no near duplicates
    square = ("p", "q", "OperationList[0][0]", "OperationList[0][1]")   # or the move's square

    @settings(max_examples=DRAWS * VARIANTS // 2 * PROGRAMS, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.tuples(legal_function("isMoveLegal", GAME_ARRAYS, square),
                     comparison_function("isMoveLegal", GAME_ARRAYS, ("p", "q"))))
    def draw(texts: tuple[str, str]) -> None:
        for kind, text in zip(drawn, texts):
            if len(text) <= LONGEST:
                kind.setdefault(re.sub(r"[0-9]+", "0", text), text)

    draw()
    half = VARIANTS // 2
    chosen = [ranked(list(kind.values()))[:half * PROGRAMS] for kind in drawn]
    return [text for n in range(PROGRAMS) for kind in chosen for text in kind[n * half:(n + 1) * half]]


def ranked(functions: list[str]) -> list[str]:
    """One function per behaviour (what each candidate gets), the most varied first."""
    game = python_game(functions)
    behaviours: dict[tuple, tuple] = {}
    for variant, text in enumerate(functions):
        behaviour = tuple(outcome(state, move) for state in positions(game, variant) for move in candidates(state))
        counts = Counter(behaviour)
        variety = sum(count > 1 for count in counts.values())
        behaviours.setdefault(behaviour, (-variety, counts[VerdictKind.LEGAL, None] == 0, variant, text))
    return [text for *_, text in sorted(behaviours.values())]


def outcome(state: State, move: Move) -> tuple:
    verdict = state.check(move)
    return verdict.kind, verdict.error.code if verdict.error else None


@contextmanager
def native_only():
    """The native answers are its own: NativeRules.legal_moves does not fall back to the
    Python backend's (its path when the native run stops)."""
    def refuse(self):
        raise AssertionError("the native backend fell back to the Python backend")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(State, "legal_moves", refuse)
        yield


def agree(what: str, native, python, function: str, state: State, extra: str = "") -> None:
    assert native == python, (f"{what}: native {native!r}, Python {python!r}{extra}\n"
                              f"at {state.to_json()}\nin\n{function}")


def positions(game: Game, variant: int) -> list[State]:
    """The start, two moves on (the middle legal move each time), and a board of random
    pieces for every pair (p, q) of VALUES (the same boards for every variant)."""
    out = [start(game, variant)]
    for _ in range(2):
        moves = out[-1].legal_moves()
        if not moves:
            break
        following = out[-1].clone()
        following.apply(moves[len(moves) // 2])
        out.append(following)
    rng = random.Random(0)
    squares = [(x, y) for x in range(game.width) for y in range(game.height)]
    for p, q in itertools.product(VALUES, VALUES):
        data = out[0].to_json()
        data["vars"].update(p=p, q=q)
        data.update(move_number=rng.choice(VALUES) % 2**63, player=rng.randrange(game.players),
                    board=[[x, y, rng.choice("XO")] for x, y in rng.sample(squares, rng.randrange(8))])
        out.append(game.state_from_json(data))
    return out


@pytest.mark.parametrize("route", ROUTES, ids=[f"route_{route}" for route in ROUTES])
@pytest.mark.parametrize("number", range(PROGRAMS))
def test_native_judges_random_rules_like_the_python_backend(cache_dir, number: int, route: str) -> None:
    with use_route(route):
        pass   # skipped where the route cannot run
    functions = chosen_functions()[number * VARIANTS:(number + 1) * VARIANTS]
    game = python_game(functions)
    native = compiled(game, route)
    judged = {True: 0, False: 0, None: 0}
    moved = 0
    for variant, function in enumerate(functions):
        for state in positions(game, variant):
            moves = candidates(state)
            python = [python_verdict(state, move) for move in moves]
            python_legal = state.legal_moves()
            with native_only():
                verdicts = native.judge(state, moves)
                legal = native.legal_moves(state)
            for move, mine, theirs in zip(moves, verdicts, python):
                agree("isMoveLegal()", mine, theirs, function, state, f" for {move}")
                judged[theirs] += 1
            agree("legal moves", legal, python_legal, function, state)
            moved += state.move_number > 0
    # The program exercised all three verdicts, and positions after moves.
    assert min(judged.values()) > 0 and moved > 0, (judged, moved)
