"""What can go wrong while a game runs, as exceptions that carry gdef locations.

Compiled rules raise the internal `Fail` (cheap: a code, a message and a location number);
the entry-point wrappers turn it into a `GdefRuntimeError` with the gdef span and the gdef call
stack, reconstructed from the Python traceback only when an error actually happens.
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic, Related
from gdef_core.span import Span


class Fail(Exception):
    """Raised inside compiled rules. `loc` indexes the compiled program's span table
    (CALL_SITE: the error belongs to the call that entered the failing function)."""

    def __init__(self, code: str, message: str, loc: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.loc = loc


CALL_SITE = -1  # the error belongs to the call that entered the failing function
IN_FRAME = -2  # the error belongs to where the innermost gdef function is (a search it started)


@dataclass(frozen=True, slots=True)
class StackFrame:
    """One active gdef call: the function and where in it execution was."""

    function: str
    span: Span

    def __str__(self) -> str:
        return f"in {self.function}() at {self.span}"


class GdefRuntimeError(Exception):
    """A rule failed while it ran: division by zero, a square off the board, a limit exceeded...

    `span` is where (gdef file, 0-based line and column; `str(span)` is 1-based), `stack` the
    active gdef calls, innermost first, `code` the G6xx diagnostic code.
    """

    def __init__(self, code: str, message: str, span: Span, stack: tuple[StackFrame, ...] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.stack = stack

    @property
    def location(self) -> str:
        """`file:line:col`, 1-based."""
        return str(self.span)

    def headline(self) -> str:
        return f"{self.span}: error[{self.code}]: {self.message}"

    def __str__(self) -> str:
        return "\n".join([self.headline(), *(f"  {line}" for line in format_stack(self.stack))])

    def as_diagnostic(self) -> Diagnostic:
        related = tuple(Related(frame.span, f"called from {frame.function}()")
                        for frame in self.stack[1:])
        return diagnostic(self.code, self.span, self.message, related=related)


def format_stack(stack: tuple[StackFrame, ...], keep: int = 12) -> list[str]:
    """The call stack for people: runs of the same frame (deep recursion) shown once with a
    count, and a long stack cut in the middle."""
    lines: list[str] = []
    i = 0
    while i < len(stack):
        j = i
        while j + 1 < len(stack) and stack[j + 1] == stack[i]:
            j += 1
        repeated = j - i
        lines.append(str(stack[i]) + (f" (and {repeated} more time{'s' if repeated > 1 else ''})"
                                      if repeated else ""))
        i = j + 1
    if len(lines) > keep:
        hidden = len(lines) - keep + 1
        lines = [*lines[:keep - 4], f"... {hidden} more calls ...", *lines[-3:]]
    return lines


class GameLoadError(Exception):
    """The files do not make a runnable game; `diagnostics` says why (every error and warning)."""

    def __init__(self, diagnostics: list[Diagnostic], summary: str | None = None) -> None:
        self.diagnostics = list(diagnostics)
        errors = [d for d in self.diagnostics if d.is_error]
        lines = [str(d) for d in errors]
        if summary:
            lines.insert(0, summary)
        super().__init__("\n".join(lines) or "the game cannot be loaded")



class ParamError(GameLoadError):
    """A value asked for a game's parameter was refused: no such parameter, or a value it does
    not allow. The message names the parameter and what it allows; the command-line tools
    report it as a usage error."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__([], "; ".join(problems))
        self.problems = list(problems)