"""Source locations.

Internally every position is 0-based (line, column in code points); the edges convert:
terminal output adds 1, the language server converts columns to UTF-16.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range of source text: from (line, column) up to (end_line, end_column)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to(self, other: "Span") -> "Span":
        """The span from the start of self to the end of other."""
        return Span(self.file, self.line, self.column, other.end_line, other.end_column)

    def contains(self, line: int, column: int) -> bool:
        """Whether the position lies inside the span (the end position counts as inside)."""
        if (line, column) < (self.line, self.column):
            return False
        return (line, column) <= (self.end_line, self.end_column)

    @property
    def start(self) -> tuple[int, int]:
        return (self.line, self.column)

    @property
    def end(self) -> tuple[int, int]:
        return (self.end_line, self.end_column)

    def __str__(self) -> str:  # 1-based, as people read it
        return f"{self.file}:{self.line + 1}:{self.column + 1}"


def point(file: str, line: int, column: int) -> Span:
    """An empty span at one position (a missing token, the end of a file)."""
    return Span(file, line, column, line, column)


_LONE_CR = re.compile(r"\r(?!\n)")


def lone_cr_as_lf(text: str) -> str:
    """LSP clients, editors and terminals end a line at "\\r\\n", "\\n" or a lone "\\r"; the core
    counts "\\n". Turning each lone "\\r" into "\\n" keeps every offset (one character for one)
    and makes line numbers agree with what the user sees."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text
