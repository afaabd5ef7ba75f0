"""A small golden-file runner for checker fixtures.

A fixture is a `.gdef` file (or a directory of them, checked together as one game, in name
order) whose comments state every diagnostic the checker must give, 1-based as people read
them: `// expect: G201 12:5` (start) or `// expect: G301 17:27-17:41` (start and end).
Several may share one comment: `// expect: G501 3:7, G201 3:11`.
"""
from __future__ import annotations

import re
from pathlib import Path

from gdef_core import parse
from gdef_core.semantics.checker import check
from gdef_core.semantics.program import Program

_EXPECT = re.compile(r"expect:\s*([^*\n]*)")
_ONE = re.compile(r"(G\d{3})\s+(\d+):(\d+)(?:-(\d+):(\d+))?")


def files_of(fixture: Path) -> list[Path]:
    return sorted(fixture.glob("*.gdef")) if fixture.is_dir() else [fixture]


def check_paths(paths: list[Path]) -> Program:
    modules, diagnostics = [], []
    for path in paths:
        result = parse(path.read_text(encoding="utf-8"), str(path))
        modules.append(result.module)
        diagnostics += result.diagnostics
    return check(modules, diagnostics)


def expected(paths: list[Path]) -> set[tuple]:
    """(file, code, line, column[, end_line, end_column]) for every expectation comment."""
    found = set()
    for path in paths:
        for comment in _EXPECT.findall(path.read_text(encoding="utf-8")):
            for code, line, col, end_line, end_col in _ONE.findall(comment):
                key = (str(path), code, int(line), int(col))
                found.add(key + ((int(end_line), int(end_col)) if end_line else ()))
    return found


def actual(program: Program, wanted: set[tuple]) -> set[tuple]:
    """The program's diagnostics in the same shape; with an end position where the expectation
    for the same start gives one."""
    with_end = {key[:4] for key in wanted if len(key) == 6}
    found = set()
    for d in program.diagnostics:
        key = (d.span.file, d.code, d.span.line + 1, d.span.column + 1)
        if key in with_end:
            key += (d.span.end_line + 1, d.span.end_column + 1)
        found.add(key)
    return found
