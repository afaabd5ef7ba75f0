"""Where the passes of the checker put their diagnostics."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from gdef_core import codes
from gdef_core.diagnostics import Diagnostic, Related, Suggestion, Tag
from gdef_core.semantics.recovery import Recovery
from gdef_core.span import Span


class Report:
    """Collects diagnostics. `recovery` tells the passes what syntax errors left behind
    (see recovery.py); what falls inside a damaged definition is dropped at the end."""

    def __init__(self, recovery: Recovery = Recovery()) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.recovery = recovery
        self._muted = 0

    @contextmanager
    def muted(self) -> Iterator[None]:
        """Drop what is reported inside: for code a syntax error already explains (a lone
        expression the parser reported as "not a statement")."""
        self._muted += 1
        try:
            yield
        finally:
            self._muted -= 1

    def kept(self) -> list[Diagnostic]:
        """The diagnostics that a syntax error does not make a guess (Recovery.hides)."""
        return [d for d in self.diagnostics if not self.recovery.hides(d)]

    def add(self, code: str, span: Span, message: str, *, related: tuple[Related, ...] = (),
            suggestions: tuple[Suggestion, ...] = (), tags: frozenset[Tag] = frozenset()) -> None:
        if self._muted:
            return
        self.diagnostics.append(codes.diagnostic(code, span, message, related=related,
                                                 suggestions=suggestions, tags=tags))


def where(span: Span, here: Span) -> str:
    """`span` in words for a message shown at `here`: "line 3", or "rules.gdef:3" in another file."""
    if span.file == here.file:
        return f"line {span.line + 1}"
    return f"{span.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{span.line + 1}"
