"""What every output format renders: the diagnostics of one run, the files it read, and the
problems that stopped it from reading some input.

Formats never decide anything (filtering, sorting, exit codes): they only write down a Report,
so that every format tells exactly the same story.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping

from gdef_core.diagnostics import Diagnostic, Severity
from gdef_core.project import InputProblem
from gdef_core.span import Span


@dataclass(slots=True)
class Report:
    diagnostics: list[Diagnostic]  # filtered and in output order
    files: list[str]  # every file that was read, as shown to the user
    sources: Mapping[str, str] = field(default_factory=dict)  # path -> text, for snippets
    problems: list[InputProblem] = field(default_factory=list)

    @property
    def errors(self) -> int:
        """Every error the output refers to: the diagnostics, those a G109 stands for, and
        the files that could not be checked at all."""
        return sum(1 + d.more for d in self.diagnostics if d.severity is Severity.ERROR) + len(self.problems)

    @property
    def file_count(self) -> int:
        """The files read, and those that could not be (missing, unreadable)."""
        return len(self.files) + len({p.path for p in self.problems} - set(self.files))

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    def statistics(self) -> list[tuple[str, Severity, int]]:
        """(code, severity, count) per code, most frequent first, then by code."""
        counts = Counter(d.code for d in self.diagnostics)
        severities = {d.code: d.severity for d in self.diagnostics}
        return sorted(((code, severities[code], n) for code, n in counts.items()),
                      key=lambda row: (-row[2], row[0]))


def one_based(span: Span) -> dict[str, int]:
    """The span as people and machine formats count: lines and columns from 1, the end column
    just after the last character (as SARIF's endColumn)."""
    return {"line": span.line + 1, "column": span.column + 1,
            "endLine": span.end_line + 1, "endColumn": span.end_column + 1}
