"""The optimised compilation (ranges, condition facts, propagated locals, the single-operation
variant, array bounds tests dropped where proven) against the reference compilation that keeps
every check (`optimize=False`): on random rules with arrays and loops, every move gets the same
verdict, and a run-time error the same code and location."""
from __future__ import annotations

import pytest

from hypothesis import HealthCheck, given, settings
from random_rules import MOVES, rules

from gdef_core.loader import load_program
from gdef_core.runtime.game import Game, VerdictKind


def outcome(game: Game, move: str):
    verdict = game.new_state().check(move)
    if verdict.kind is VerdictKind.RUNTIME_ERROR:
        return verdict.kind, verdict.error.code, verdict.error.span, verdict.error.stack
    return verdict.kind


@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules())
def test_optimised_rules_judge_like_the_reference(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.gdef"
    path.write_text(text, encoding="utf-8")
    program = load_program([str(path)])
    assert program.ok, [str(d) for d in program.errors] + [text]
    fast = Game(program, max_steps=10_000)
    reference = Game(program, max_steps=10_000, optimize=False)
    for move in MOVES:
        assert outcome(fast, move) == outcome(reference, move), (move, text)
    assert fast.new_state().legal_moves() == reference.new_state().legal_moves(), text


PREDICATE = """name: p
players: 2
size: 4 x 3
obj X
define inside(int v, int w) -> bool { return v >= 0 && v < 4 && w >= 0 && w < 3; }
define end() -> bool { return false; }
define isMoveLegal() -> bool {
  int a = OperationList[0][0] - 2;
  int b = OperationList[0][0] + OperationList[0][1];
  int w = boardWidth();
  GUARD
  return CONDITION;
}
"""


def compiled_legal(tmp_path, guard: str, condition: str):
    path = tmp_path / "p.gdef"
    path.write_text(PREDICATE.replace("GUARD", guard).replace("CONDITION", condition), encoding="utf-8")
    program = load_program([str(path)])
    fast, reference = Game(program), Game(program, optimize=False)
    legal = next(line for line in fast.rules.compiled.source.splitlines() if "def u_isMoveLegal" in line)
    return fast, reference, fast.rules.compiled.source.split(legal, 1)[1].split("\n    def ", 1)[0]


@pytest.mark.parametrize("guard, bounds_tests", [
    ("if (a < 0 || a >= w) { return false; }", 0),         # what follows knows 0 <= a < 4
    ("if (a >= 0) { return false; }", 1),                  # ... and here only that a < 0
    ("if (a < 0) { return false; } else { b = 0; }", 1),   # an else: not a guard
    ("if (a < 0 || a >= w) { b = 0; }", 1),                # no exit: not a guard
])
def test_a_guard_tells_what_follows_that_its_condition_is_false(tmp_path, guard, bounds_tests) -> None:
    fast, reference, body = compiled_legal(tmp_path, guard, "CurrentPosition[a][0] == empty")
    assert body.count("_off_board(") == bounds_tests
    for move in ("place(0,0,X)", "place(2,1,X)", "place(3,2,X)"):
        assert outcome(fast, move) == outcome(reference, move)


@pytest.mark.parametrize("condition, bounds_tests", [
    ("inside(a, b) && CurrentPosition[a][b] == empty", 0),   # the call proves the read in range
    ("!inside(a, b) || CurrentPosition[a][b] == empty", 0),
    ("inside(a, b) || CurrentPosition[a][b] == empty", 1),   # the read happens when it is not
    ("inside(b, a) && CurrentPosition[a][b] == empty", 1),   # facts go to the right arguments
])
def test_a_predicate_call_proves_what_its_body_proves(tmp_path, condition, bounds_tests) -> None:
    fast, reference, body = compiled_legal(tmp_path, "", condition)
    assert body.count("_off_board(") == bounds_tests
    for move in ("place(0,0,X)", "place(2,1,X)", "place(3,2,X)"):  # (a, b) = (-2, 0), (0, 3), (1, 5)
        assert outcome(fast, move) == outcome(reference, move)
