"""Property tests: no mutation of a real game makes the parser or the checker raise."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdef_core import parse
from gdef_core.semantics.checker import check
from gdef_core.syntax import ast

from support import ROOT

SOURCES = sorted(str(p) for p in (ROOT / "examples").rglob("*.gdef")) + [
    str(ROOT / "tests" / "data" / "syntax" / "original_tictactoe.gdef")]
TEXTS = {path: Path(path).read_text(encoding="utf-8") for path in SOURCES}

SNIPPETS = ["(", ")", "{", "}", "[", "]", ";", ",", ":", "=", "==", "!", "-", "/*", "*/", "//",
            "define ", "int ", "obj ", "return ", "if ", "else ", "while ", "start ", "use \"",
            "x", "X", "empty", "empt", "0", "07", "9223372036854775808", "1.5", "\n", "\x00", "é",
            "CurrentPosition[", "OperationList[0][", "setWinner(", "addMove()", "hasLegalMove()",
            # the input classes of the reliability campaign: long literals, odd `use` paths
            # (NUL, lone surrogates, devices), lone CR line ends, deep nesting
            "9" * 5000, "size: " + "9" * 4400 + " x 3\n", 'use "a\x00b.gdef"\n', 'use "\ud800.gdef"\n',
            'use "/dev/zero"\n', 'use "/proc/self/environ"\n', "\r", "\r\n", "(" * 300, "-" * 300,
            "!" * 300]

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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SOURCES), st.lists(edit, min_size=1, max_size=4))
def test_mutated_games_load_and_run_without_internal_errors(tmp_path_factory, path, edits):
    """Through the loader (files, `use`) and, when the mutant still checks, a few moves."""
    import random

    from gdef_core.loader import load_program
    from gdef_core.runtime.errors import GameLoadError, GdefRuntimeError
    from gdef_core.runtime.game import IllegalMoveError, game_from_program

    folder = tmp_path_factory.mktemp("fuzz")
    target = folder / Path(path).name
    program = load_program([str(target)], overlay={str(target): mutate(TEXTS[path], edits)})
    try:
        game = game_from_program(program, max_steps=20_000, max_depth=50)
    except GameLoadError:
        return
    rng = random.Random(0)
    try:
        state = game.new_state()
        for _ in range(6):
            move = state.random_move(rng)
            if move is None:
                break
            state.apply(move)
    except (GdefRuntimeError, IllegalMoveError):
        pass  # a located error (or a move end() rejected) is the promised behaviour
