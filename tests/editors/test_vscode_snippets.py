"""The extension's snippets, expanded with their default values, are valid gdef."""
from __future__ import annotations

import json
import re

import pytest

from gdef_core import Severity, check_files, parse

from support import ROOT

SNIPPETS = json.loads((ROOT / "vscode-extension" / "snippets"
                       / "gdef.code-snippets").read_text(encoding="utf-8"))


def expand(body: list[str], file_stem: str = "mygame") -> str:
    """The text VS Code inserts when the user accepts every default (first choice of a list)."""
    text = "\n".join(body).replace("\t", "  ")
    text = text.replace("${TM_FILENAME_BASE}", file_stem)
    previous = None
    while previous != text:  # innermost placeholders first: they may be nested
        previous = text
        text = re.sub(r"\$\{\d+\|([^,|}]*)[^}]*\|\}", r"\1", text)
        text = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", text)
        text = re.sub(r"\$\{\d+\}|\$\d+", "", text)
    assert "$" not in text, text
    return text


def test_expand_resolves_nested_placeholders_and_choices():
    assert expand(["while (${1:i < ${2:n}}) { ${3|a,b|} $0}"]) == "while (i < n) { a }"


def test_game_skeleton_is_a_complete_game_without_problems(tmp_path):
    game = tmp_path / "mygame.gdef"
    game.write_text(expand(SNIPPETS["New game"]["body"]), encoding="utf-8")
    assert check_files([str(game)]) == []


@pytest.mark.parametrize("name, before, after", [
    ("Function", "", ""),
    ("Procedure", "", ""),
    ("start position", "obj X\n", ""),
    ("use", "", ""),
    ("while loop", "define f() {\n  int i = 0;\n", "\n}"),
    ("if", "define f() {\n  bool condition = true;\n", "\n}"),
    ("if / else", "define f() {\n  bool condition = true;\n", "\n}"),
])
def test_each_snippet_parses_where_it_belongs(name, before, after):
    text = before + expand(SNIPPETS[name]["body"]) + after
    result = parse(text, "snippet.gdef")
    assert [d for d in result.diagnostics if d.severity is Severity.ERROR] == [], text


def test_the_brief_asks_for_these_snippets():
    prefixes = {p for snippet in SNIPPETS.values() for p in
                ([snippet["prefix"]] if isinstance(snippet["prefix"], str) else snippet["prefix"])}
    assert {"game", "define", "while", "if", "ifelse", "start"} <= prefixes
