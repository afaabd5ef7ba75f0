"""docs/language.md designs two parts of consequences of a move that are not implemented yet:
`addCount` as a consequence and the board `ResultCount` (chance, squares that count and the
rest of consequences are: tests/test_chance.py, test_counts.py, test_consequences.py). Until
they are, the checker refuses each with a clear diagnostic, never half-accepts one."""
from __future__ import annotations

from gdef_core import parse
from gdef_core.semantics.checker import check

GAME = """players: 2
size: 3 x 3
obj X
define moves() { addCount(0, 0, 1); addMove(); }
define isMoveLegal() -> bool { return ResultCount[0][0] == 0; }
define end() -> bool { addCount(1, 1, 2); return false; }
"""


def test_the_designed_constructs_are_refused_until_implemented():
    result = parse(GAME, "planned.gdef")
    assert result.diagnostics == []  # no new syntax: the parser reads them as calls and boards
    found = [(d.code, d.span.line + 1, d.message) for d in check([result.module], result.diagnostics).errors]
    assert [(code, line) for code, line, _ in found] == [("G201", 5), ("G411", 6)], found
    refused = " ".join(message for _, _, message in found)
    assert "'ResultCount'" in refused and "addCount()" in refused
