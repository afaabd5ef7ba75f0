"""gdef_core.ide.parse_cache: a file parsed one definition at a time gives what a parse of
the whole text gives, and re-parses only what changed."""
from __future__ import annotations

import random

import pytest

from gdef_core.ide.parse_cache import ParseCache, split
from gdef_core.syntax import parse

from support import ROOT

FILES = sorted([*ROOT.glob("examples/**/*.gdef"), *ROOT.glob("tests/data/lsp/**/*.gdef")])


def test_split_cuts_before_each_define_at_a_line_start_outside_comments():
    text = ('obj X\n/* define inside a comment\ndefine neither */\n  define indented\n'
            'use "a.gdef" define\ndefine f() {}\n// define in a line comment\ndefine g() {}\n')
    assert [(line, piece.split("\n")[0]) for line, piece in split(text)] == [
        (0, "obj X"), (5, "define f() {}"), (7, "define g() {}")]
    assert "".join(piece for _, piece in split(text)) == text


def _same(text: str, path: str = "f.gdef") -> None:
    whole, pieces = parse(text, path), ParseCache().parse(text, path)
    assert repr(pieces.diagnostics) == repr(whole.diagnostics)
    assert repr(pieces.module.comments) == repr(whole.module.comments)
    assert repr(pieces.module.items) == repr(whole.module.items)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_equals_the_whole_text_parse(path):
    _same(path.read_text(encoding="utf-8"), str(path))


def test_an_unclosed_block_is_reported_as_the_whole_text_parse_reports_it():
    text = "define f() -> int {\n  return (1 +\n/* doc */\ndefine g() -> int { return 2; }\n"
    _same(text)
    assert "keyword 'define'" in parse(text, "f").diagnostics[-1].message


def test_messages_naming_a_line_name_the_real_line():
    text = "obj X\n\n\ndefine f() {\n  g(1, 2;\n}\n"
    whole = parse(text, "f")
    assert any("line 5" in d.message for d in whole.diagnostics)  # "... the '(' at line 5 ..."
    _same(text)


def test_docs_of_functions_come_from_the_comment_above_even_after_code():
    text = "obj X // the cross\ndefine f() {}\n// second\ndefine g() {}\n"
    module = ParseCache().parse(text, "f").module
    assert [f.doc for f in module.functions()] == ["the cross", "second"]


@pytest.mark.parametrize("seed", range(3))
def test_edited_files_parse_the_same(seed):
    """Random small edits of each file (the kind typing makes)."""
    rnd = random.Random(seed)
    snippets = ["{", "}", "(", ")", ";", "define", "\n", "/*", "*/", "//", '"', "int ", "x", "if ("]
    cache = ParseCache()
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for _ in range(20):
            i = rnd.randrange(len(text) + 1)
            edited = text[:i] + rnd.choice(snippets) + text[i:] if rnd.random() < 0.5 else text[:i] + text[i + 3:]
            whole, pieces = parse(edited, str(path)), cache.parse(edited, str(path))
            if len(list(whole.module.functions())) < len(list(pieces.module.functions())):
                # The whole-text parse did not resynchronise (parse_cache's docstring: e.g. an
                # error inside a `for (...)` header skips to the end); the pieces keep the
                # definitions after it and report the same first error.
                assert repr(pieces.diagnostics[:1]) == repr(whole.diagnostics[:1]), edited
                continue
            assert repr(pieces.diagnostics) == repr(whole.diagnostics), edited
            assert repr(pieces.module.items) == repr(whole.module.items), edited


def test_a_define_after_an_unfinished_parameter_stays_a_definition():
    # The parser never deletes `define` to repair what comes before it; the pieces agree (and
    # take nothing from the dummy definition after a piece).
    text = "name: t\nplayers:\ndefine g() -> int { return 1; }\n"
    for module in (ParseCache().parse(text, "f").module, parse(text, "f").module):
        assert [type(item).__name__ for item in module.items] == ["GameParam", "GameParam", "FunctionDef"]
        assert module.items[1].value.recovered


def test_only_changed_definitions_are_parsed_again():
    text = "obj X\ndefine f() -> int { return 1; }\ndefine g() -> int { return 2; }\n"
    cache = ParseCache()
    first = cache.parse(text, "f").module
    second = cache.parse(text.replace("return 2", "return 3"), "f").module
    assert second.items[1] is first.items[1]  # f: unchanged, reused
    assert second.items[2] is not first.items[2]
    moved = cache.parse("\n" + text, "f").module  # every definition one line down
    assert moved.items[1].span.line == 2 and moved.items[1].name.span.line == 2
