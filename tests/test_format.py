"""The formatter: idempotent, faithful (same tree, same comments), golden layouts, and
property tests over real files laid out at random and over generated programs."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gdef_core import parse
from gdef_core.format import FormatError, FormatOptions, SyntaxErrors, comment_texts, format_source
from gdef_core.format.equivalence import same_tree
from gdef_core.syntax import scan
from support import ROOT
from test_robustness import SOURCES as MUTATED_SOURCES, TEXTS as MUTATED_TEXTS, edit, mutate

GOLDEN = ROOT / "tests" / "data" / "format"
FILES = sorted([*ROOT.glob("examples/**/*.gdef"), *ROOT.glob("tests/data/**/*.gdef")])
VALID = [path for path in FILES if not parse(path.read_text(encoding="utf-8"), str(path)).diagnostics]
TEXTS = {path: path.read_text(encoding="utf-8") for path in VALID}
# Examples per property test; raise it for a longer campaign (GDEF_FMT_EXAMPLES=3000).
EXAMPLES = int(os.environ.get("GDEF_FMT_EXAMPLES", "60"))


def assert_faithful(before: str, after: str) -> None:
    """`after` parses to the tree of `before`, with every comment's text (but for spaces at
    the ends of lines), in order."""
    old, new = parse(before, "a.gdef"), parse(after, "a.gdef")
    assert not new.diagnostics, new.diagnostics
    assert same_tree(old.module, new.module)
    assert comment_texts(old.module) == comment_texts(new.module)
    assert len(old.module.comments) == len(new.module.comments)


def test_the_corpus_is_real():
    assert len(VALID) >= 40 and any("chess" in str(path) for path in VALID)


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_valid_file_formats_faithfully_and_idempotently(path):
    text = TEXTS[path]
    formatted = format_source(text, str(path))
    assert_faithful(text, formatted)
    assert format_source(formatted, str(path)) == formatted


@pytest.mark.parametrize("path", sorted(ROOT.glob("examples/**/*.gdef")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_examples_are_formatted(path):
    text = path.read_text(encoding="utf-8")
    assert format_source(text, str(path)) == text


@pytest.mark.parametrize("before", sorted(GOLDEN.glob("*.in.gdef")), ids=lambda p: p.name)
def test_golden_layouts(before):
    after = before.with_name(before.name.replace(".in.gdef", ".out.gdef"))
    formatted = format_source(before.read_text(encoding="utf-8"), before.name)
    assert formatted == after.read_text(encoding="utf-8")
    assert format_source(formatted) == formatted
    assert_faithful(before.read_text(encoding="utf-8"), formatted)


def test_a_file_with_syntax_errors_is_refused_with_its_errors():
    with pytest.raises(SyntaxErrors) as refused:
        format_source("define f() {\n  int x = ;\n}\n", "broken.gdef")
    (error,) = refused.value.diagnostics
    assert error.code == "G101" and (error.span.line, error.span.column) == (1, 10)


def test_indent_width_option():
    text = "define f() {\nif (true) {\nreturn;\n}\n}\n"
    assert format_source(text, options=FormatOptions(indent_width=4)) == (
        "define f() {\n    if (true) {\n        return;\n    }\n}\n")


def test_line_ends_and_byte_order_mark_are_kept():
    assert format_source("\ufeffobj   X\r\nobj Y\r\n") == "\ufeffobj X\r\nobj Y\r\n"
    assert format_source("obj X\nobj   Y") == "obj X\nobj Y\n"


def test_empty_and_comment_only_files():
    assert format_source("") == ""
    assert format_source("\n\n// just a note   \n\n\n/* and */\n") == "// just a note\n\n/* and */\n"


def test_parentheses_are_kept_where_written():
    text = "define f(int a, int b) -> bool {\n  return ((a)) == (b + 1) * 2 && !(a < b) || -(-a) > - -b;\n}\n"
    assert format_source(text) == text


def test_the_most_negative_literal_keeps_its_tokens():
    text = "int m = -(9223372036854775808);\nint n = -9223372036854775808;\n"
    assert format_source(text) == text


def test_deep_nesting_is_formatted_or_refused_cleanly():
    deep = "int x = " + "(" * 3000 + "1" + ")" * 3000 + ";\n"
    try:
        assert format_source(deep) == deep
    except FormatError as error:
        assert "nested too deeply" in str(error)


def test_the_layout_shown_in_the_docs_is_the_formatters():
    doc = (ROOT / "docs" / "formatter.md").read_text(encoding="utf-8")
    (example,) = [block.split("```")[0] for block in doc.split("```gdef\n")[1:]]
    assert format_source(example) == example


def test_a_trailing_comment_keeps_its_distance_from_the_code():
    assert format_source("size: 3x3   // c\nobj  X // d\n") == "size: 3 x 3   // c\nobj X // d\n"


def test_a_start_block_wraps_by_board_row():
    text = "start { (0,1: X), (1,1: O), (0,0: O) }\n"
    assert format_source(text) == "start {\n  (0,1: X), (1,1: O),\n  (0,0: O)\n}\n"


# ---------------------------------------------------------------- random layouts of real files

def relayout(text: str, choices) -> str:
    """`text` with the whitespace between its tokens replaced by what `choices` says: spaces,
    line breaks, blank lines, block and line comments, in any place a token boundary allows."""
    tokens = scan(text).tokens
    pieces = []
    for index, token in enumerate(tokens):
        kind, count = choices[index % len(choices)]
        if index:
            pieces.append({"space": " " * count, "break": "\n" + " " * count, "blank": "\n\n",
                           "block": f" /* c{index} */ ", "line": f" // c{index}\n",
                           "own": f"\n// own {index}\n"}[kind])
        pieces.append(token.value)
    return "".join(pieces) + "\n"


layout_choice = st.tuples(st.sampled_from(["space", "space", "space", "break", "blank", "block", "line", "own"]),
                          st.integers(1, 6))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VALID), st.lists(layout_choice, min_size=1, max_size=40))
def test_any_layout_of_a_real_file_formats_faithfully_and_idempotently(path, choices):
    text = relayout(TEXTS[path], choices)
    if parse(text).diagnostics:  # a line break can end a top-level `obj` early; not this test's subject
        return
    formatted = format_source(text)
    assert_faithful(text, formatted)
    assert format_source(formatted) == formatted


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(MUTATED_SOURCES), st.lists(edit, min_size=1, max_size=3))
def test_mutated_examples_are_formatted_faithfully_or_refused(path, edits):
    """The mutations of tests/test_robustness.py: what still parses formats faithfully, what
    does not is refused with its syntax errors."""
    text = mutate(MUTATED_TEXTS[path], edits)
    errors = parse(text).diagnostics
    try:
        formatted = format_source(text)
    except SyntaxErrors as refused:
        assert errors and refused.diagnostics == errors
        return
    except FormatError as error:  # only nesting beyond what Python's stack can print
        assert "nested too deeply" in str(error)
        return
    assert not errors
    assert_faithful(text, formatted)
    assert format_source(formatted) == formatted


# ---------------------------------------------------------------- generated programs

names = st.sampled_from(["a", "b", "x", "count", "seen"])
literals = st.one_of(st.integers(0, 99).map(str), st.sampled_from(["1.5", "true", "false", "empty", "X"]))
expressions = st.recursive(literals | names, lambda inner: st.one_of(
    st.tuples(inner, st.sampled_from(["||", "&&", "+", "-", "*", "/", "%"]), inner).map(" ".join),
    st.tuples(inner, st.sampled_from(["==", "<", ">="]), inner).map(lambda t: f"(({t[0]}) {t[1]} ({t[2]}))"),
    st.tuples(st.sampled_from(["-", "!"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
    inner.map(lambda e: f"({e})"),
    st.lists(inner, max_size=3).map(lambda args: f"f({', '.join(args)})"),
    st.lists(inner, min_size=1, max_size=2).map(lambda ix: "seen" + "".join(f"[{i}]" for i in ix)),
), max_leaves=8)
simple_statements = st.one_of(
    st.tuples(names, expressions).map(lambda t: f"int {t[0]} = {t[1]};"),
    st.tuples(names, expressions).map(lambda t: f"{t[0]} = {t[1]};"),
    names.map(lambda n: f"bool {n}[2][2] = {{{{true, false}}, {{false, true}}}};"),
    expressions.map(lambda e: f"f({e});"),
    expressions.map(lambda e: f"return {e};"),
    st.sampled_from(["return;", "break;", "continue;"]),
)


def _compound(inner):
    body = st.lists(inner, max_size=3).map(lambda ss: "{ " + " ".join(ss) + " }")
    return st.one_of(
        st.tuples(expressions, body).map(lambda t: f"if ({t[0]}) {t[1]}"),
        st.tuples(expressions, body, body).map(lambda t: f"if ({t[0]}) {t[1]} else {t[2]}"),
        st.tuples(expressions, body, expressions, body).map(lambda t: f"if ({t[0]}) {t[1]} else if ({t[2]}) {t[3]}"),
        st.tuples(expressions, body).map(lambda t: f"while ({t[0]}) {t[1]}"),
        st.tuples(names, expressions, body).map(lambda t: f"for (int {t[0]} = 0; {t[1]}; {t[0]} = {t[0]} + 1) {t[2]}"),
        body.map(lambda b: f"for (;;) {b}"),
    )


statements = st.recursive(simple_statements, _compound, max_leaves=10)
programs = st.tuples(
    st.lists(statements, max_size=6),
    st.lists(st.tuples(st.integers(-1, 9), st.integers(0, 9), st.sampled_from(["X", "O"])), max_size=12),
    st.booleans(),
).map(lambda t: ("counter int moves = 0;\nint grid[2][2] = {{1, 0}, {0, 1}};\n"
                 + ("start { " + ", ".join(f"({x},{y}: {o})" for x, y, o in t[1]) + " }\n" if t[2] else "")
                 + "define f(int a, bool seen[][]) -> int { " + " ".join(t[0]) + " }\n"))


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")  # the repr of a big strategy
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs, st.lists(layout_choice, min_size=1, max_size=30))
def test_generated_programs_format_faithfully_and_idempotently(program, choices):
    assert not parse(program).diagnostics, program
    text = relayout(program, choices)
    if parse(text).diagnostics:
        return
    formatted = format_source(text)
    assert_faithful(text, formatted)
    assert format_source(formatted) == formatted
