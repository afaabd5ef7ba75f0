"""Lines of a move script that cannot be read, found without the game: a `?` assertion that does
not parse, or a line that is not operations and not a move name either (a name is one word
without `(` or `;`). A name (`e2e4`, `D4`, `2,0`) is read against the legal moves when it is
played, so it is never one of them. The editor marks these lines as the author types; gdef-run
and the debugger reject such a line when the game reaches it, as a person typing it would be
asked again (docs/runtime.md, "Playing a move script").
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gdef_core.moves import Move, MoveSyntaxError, looks_like_name
from gdef_core.testing.assertions import AssertionSyntaxError, parse_assertion
from gdef_core.testing.scripts import Step


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A line that cannot be read: `line` 1-based, `column` and `end` 0-based (end excluded)."""

    line: int
    column: int
    end: int
    message: str


def script_steps(text: str) -> list[Step]:
    """The moves and assertions of a script that is not split into tests, each line once
    (`#` starts a comment; blank lines are skipped)."""
    steps = []
    for number, raw in enumerate(text.split("\n"), 1):
        content = raw.split("#", 1)[0]
        if content.strip():
            steps.append(Step(content.strip(), number, len(content) - len(content.lstrip())))
    return steps


def unreadable(steps: Iterable[Step]) -> list[Unreadable]:
    """The steps that cannot be read as an assertion or a move, in order."""
    found = []
    for step in steps:
        end = step.column + len(step.text)
        try:
            if step.text.startswith("?"):
                parse_assertion(step.text, step.line)
            else:
                Move.parse(step.text)
        except AssertionSyntaxError as error:
            found.append(Unreadable(step.line, step.column + error.column, end, error.message))
        except MoveSyntaxError as error:
            if not looks_like_name(step.text) or len(step.text.split()) > 1:  # a name is one word (`? legal NAME`)
                found.append(Unreadable(step.line, step.column + error.column - 1, end, f"not a move: {error.message}"))
    return found

