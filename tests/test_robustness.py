"""Property tests: no mutation of a real game makes the parser or the checker raise."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdef_core import parse
from gdef_core.semantics.checker import check
from gdef_core.syntax import ast

ROOT = Path(__file__).parent.parent
SOURCES = sorted(str(p) for p in (ROOT / "examples").rglob("*.gdef")) + [
    str(ROOT / "tests" / "data" / "syntax" / "original_tictactoe.gdef")]
TEXTS = {path: Path(path).read_text(encoding="utf-8") for path in SOURCES}

SNIPPETS = ["(", ")", "{", "}", "[", "]", ";", ",", ":", "=", "==", "!", "-", "/*", "*/", "//",
            "define ", "int ", "obj ", "return ", "if ", "else ", "while ", "start ", "use \"",
            "x", "X", "empty", "empt", "0", "07", "9223372036854775808", "1.5", "\n", "\x00", "é",
            "CurrentPosition[", "OperationList[0][", "setWinner(", "addMove()", "hasLegalMove()"]

edit = st.tuples(st.sampled_from(["delete", "insert", "cut"]), st.floats(0, 1), st.integers(1, 12),
                 st.sampled_from(SNIPPETS))


def mutate(text: str, edits) -> str:
    for kind, where, length, snippet in edits:
        at = int(where * len(text))
        if kind == "delete":
            text = text[:at] + text[at + length:]
        elif kind == "insert":
            text = text[:at] + snippet + text[at:]
        else:
            text = text[:at]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SOURCES), st.lists(edit, min_size=1, max_size=6))
def test_mutated_examples_never_raise(path, edits):
    text = mutate(TEXTS[path], edits)
    result = parse(text, path)
    assert isinstance(result.module, ast.Module)
    program = check([result.module], result.diagnostics)
    for diagnostic in program.diagnostics:
        assert diagnostic.span.line >= 0 and diagnostic.span.column >= 0
        assert diagnostic.message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text):
    result = parse(text, "random.gdef")
    check([result.module], result.diagnostics)
