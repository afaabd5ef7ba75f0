"""docs/language.md designs chance but marks it "not yet implemented" (consequences of a move
are implemented: tests/test_consequences.py; squares that count: tests/test_counts.py): until
it is, the checker refuses it with a clear diagnostic (an undefined name), never half-accepts
it."""
from __future__ import annotations

from gdef_core import parse
from gdef_core.semantics.checker import check

GAME = """players: 2
size: 3 x 3
obj X
define setup() { chanceNext(); }
define chance() { addPlace(0,0,X); addOutcome(1); }
define isMoveLegal() -> bool { return true; }
define end() -> bool { return isChanceMove(); }
"""


def test_the_designed_constructs_are_refused_until_implemented():
    result = parse(GAME, "planned.gdef")
    assert result.diagnostics == []  # no new syntax: the parser reads them as calls and boards
    found = [(d.code, d.span.line + 1, d.message) for d in check([result.module], result.diagnostics).errors]
    assert [(code, line) for code, line, _ in found] == [("G202", 4), ("G202", 5), ("G202", 7)]
    refused = " ".join(message for _, _, message in found)
    for name in ("chanceNext", "addOutcome", "isChanceMove"):
        assert f"'{name}'" in refused
