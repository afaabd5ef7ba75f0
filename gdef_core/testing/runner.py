"""Running rule tests: each test plays its moves from its file's start position and checks its
assertions; the first failure ends the test (as in pytest) and says where, what was expected,
what was found, and shows the board."""
from __future__ import annotations

import time
from dataclasses import dataclass

from gdef_core.testing.assertions import AssertionSyntaxError, evaluate, is_assertion, parse_assertion
from gdef_core.testing.scripts import TestCase

PASSED, FAILED, ERROR = "passed", "failed", "error"


@dataclass
class CaseResult:
    case: TestCase
    status: str
    assertions: int = 0  # checked (passed) before the end
    line: int | None = None  # the line that failed
    column: int = 0
    message: str = ""
    expected: str | None = None
    actual: str | None = None
    board: str | None = None  # the position where it failed, drawn
    location: str | None = None  # a run-time error's gdef location
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == PASSED


def run_case(game, case: TestCase, start=None) -> CaseResult:
    """`start`: the State the test starts from, its header's (a copy is played); else the game's start."""
    from gdef_core.runtime.errors import GdefRuntimeError
    from gdef_core.runtime.game import IllegalMoveError, VerdictKind

    started = time.perf_counter()
    result = CaseResult(case, PASSED)

    def finish(status: str, step, message: str, state=None, **extra) -> CaseResult:
        result.status, result.line, result.column, result.message = status, step.line, step.column, message
        for key, value in extra.items():
            setattr(result, key, value)
        if state is not None:
            result.board = draw(state)
        result.seconds = time.perf_counter() - started
        return result

    try:
        state = start.clone() if start is not None else game.new_state()
    except GdefRuntimeError as error:
        first = case.steps[0] if case.steps else _Start(case.line)
        return finish(ERROR, first, f"setup() failed: {error.message}", location=error.location)
    for step in case.steps:
        if is_assertion(step.text):
            try:
                assertion = parse_assertion(step.text, step.line)
            except AssertionSyntaxError as error:
                return finish(ERROR, step, f"cannot read the assertion: {error.message}", column=step.column + error.column)
            try:
                outcome = evaluate(assertion, state)
            except GdefRuntimeError as error:
                return finish(ERROR, step, f"the rules failed while checking `{step.text}`: {error.message}",
                              state, location=error.location)
            if not outcome.passed:
                return finish(FAILED, step, f"assertion failed: {step.text}", state,
                              expected=outcome.expected, actual=outcome.actual)
            result.assertions += 1
            continue
        if step.text.startswith("["):
            continue
        if state.is_over:
            return finish(FAILED, step, f"the game is already over ({_result(state)}): "
                                        f"the move {step.text} cannot be played", state)
        try:
            state.apply(step.text)
        except IllegalMoveError as error:
            verdict = error.verdict
            if verdict.kind is VerdictKind.RUNTIME_ERROR and verdict.error is not None:
                return finish(ERROR, step, f"the rules failed on {step.text}: {verdict.error.message}",
                              state, location=verdict.error.location)
            return finish(FAILED, step, f"the move {step.text} was rejected: {verdict.reason} "
                                        f"(to test that a move is illegal, write `? illegal {step.text}`)", state)
    result.seconds = time.perf_counter() - started
    return result


@dataclass(frozen=True)
class _Start:
    line: int
    column: int = 0


def _result(state) -> str:
    return "a draw" if state.winner is None else f"{state.game.presentation.who(state.winner)} won"


def draw(state) -> str:
    from gdef_core.runtime.render import render_board

    game = state.game
    board = render_board(state.board, list(game.objects), presentation=game.presentation, ascii=True)
    status = (f"over, {_result(state)}" if state.is_over else f"{game.presentation.who(state.current_player)} to move")
    return f"after {state.move_number} move{'s' if state.move_number != 1 else ''} ({status}):\n{board}"
