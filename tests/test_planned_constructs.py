"""docs/language.md designs chance and consequences of a move but marks them
"not yet implemented": until they are, the checker refuses each of them with a clear diagnostic
(an undefined name, or a built-in used where it is not allowed), never half-accepts one."""
from __future__ import annotations

from gdef_core import parse
from gdef_core.semantics.checker import check

GAME = """players: 2
size: 3 x 3
obj X
define setup() { chanceNext(); }
define chance() { addPlace(0,0,X); addOutcome(1); }
define isMoveLegal() -> bool { addClear(0,0); return ResultPosition[0][0] == empty; }
define end() -> bool { addClear(1,1); return isChanceMove(); }
"""


def test_the_designed_constructs_are_refused_until_implemented():
    result = parse(GAME, "planned.gdef")
    assert result.diagnostics == []  # no new syntax: the parser reads them as calls and boards
    found = [(d.code, d.span.line + 1, d.message.split(" ")[-1] if d.code == "G411" else d.message)
             for d in check([result.module], result.diagnostics).errors]
    assert [(code, line) for code, line, _ in found] == [
        ("G202", 4), ("G202", 5), ("G411", 6), ("G201", 6), ("G411", 7), ("G202", 7)]
    refused = " ".join(message for _, _, message in found)
    for name in ("chanceNext", "addOutcome", "ResultPosition", "isChanceMove"):
        assert f"'{name}'" in refused
