"""Diagnostics: what every pass reports. Codes and their documentation live in codes.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from gdef_core.span import Span


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"  # worth knowing, never a failure (gdef-check --play's findings about speed)

    def __str__(self) -> str:
        return self.value


class Tag(str, Enum):
    """Extra meaning an editor can show (LSP DiagnosticTag)."""

    UNNECESSARY = "unnecessary"  # unused or unreachable code: editors fade it
    DEPRECATED = "deprecated"  # e.g. `empt`


@dataclass(frozen=True, slots=True)
class Related:
    """Another place that explains the diagnostic: the other duplicate, the declaration."""

    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Edit:
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A fix a person (`help:` line) or an editor (quick fix) can apply."""

    message: str
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    suggestions: tuple[Suggestion, ...] = ()
    tags: frozenset[Tag] = field(default_factory=frozenset)
    more: int = 0  # G109: how many errors not shown this one stands for (summaries count them)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def __str__(self) -> str:
        return f"{self.span}: {self.severity}[{self.code}]: {self.message}"


def sort_key(diagnostic: Diagnostic) -> tuple:
    span = diagnostic.span
    return (span.file, span.line, span.column, diagnostic.code, diagnostic.message)
