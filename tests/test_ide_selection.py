"""gdef_core.ide.selection: expand selection from a word to the file."""
from __future__ import annotations

from gdef_core.ide.selection import selection_ranges
from gdef_core.syntax.parser import parse

from ide_support import cursor

TEXT = """name: g
players: 2
size: 3 x 3
use "lib.gdef"
obj X
define f(int a) -> bool {
  while (a > 0) {
    if (a == 1) { return CurrentPosition[a][a + 2‸] == X; }
    a = a - 1;
  }
  return false;
}
"""


def texts(text: str) -> list[str]:
    text, line, column = cursor(text)
    lines = text.split("\n")
    module = parse(text, "g.gdef").module
    found = []
    for span in selection_ranges(module, line, column):
        if span.line == span.end_line:
            found.append(lines[span.line][span.column:span.end_column])
        else:
            found.append(f"{lines[span.line][span.column:]}...{lines[span.end_line][:span.end_column]}")
    return found


def test_from_a_literal_out_to_the_file():
    assert texts(TEXT) == [
        "2", "a + 2", "CurrentPosition[a][a + 2]", "CurrentPosition[a][a + 2] == X",
        "return CurrentPosition[a][a + 2] == X;", "{ return CurrentPosition[a][a + 2] == X; }",
        "if (a == 1) { return CurrentPosition[a][a + 2] == X; }",
        "{...  }", "while (a > 0) {...  }", "{...}", "define f(int a) -> bool {...}", "name: g...",
    ]


def test_names_types_and_use_paths_are_the_innermost_selection():
    assert texts(TEXT.replace("a = a - 1", "a = a‸ - 1").replace("‸]", "]"))[:3] == ["a", "a - 1", "a = a - 1;"]
    assert texts(TEXT.replace("(int a)", "(in‸t a)").replace("‸]", "]"))[:3] == [
        "int", "int a", "define f(int a) -> bool {...}"]
    assert texts(TEXT.replace('"lib', '"li‸b').replace("‸]", "]"))[:2] == ['"lib.gdef"', 'use "lib.gdef"']


def test_between_definitions_only_the_file():
    assert texts(TEXT.replace("obj X\n", "obj X\n‸\n").replace("‸]", "]")) == ["name: g..."]


def test_a_broken_definition_still_gives_ranges():
    broken = TEXT.replace("a = a - 1;", "a = (a‸ - ;")
    assert texts(broken.replace("‸]", "]"))[-2:] == ["define f(int a) -> bool {...}", "name: g..."]
    assert texts(broken.replace("‸]", "]"))[0] == "a"


def test_section_15_loops_and_arrays():
    text = TEXT.replace("  return false;\n}", "  int seen[4] = 0;\n  for (int i = 0; i < 4; i = i + 1) { seen[i‸] = 1; }\n  return false;\n}")
    assert texts(text.replace("‸]", "]", 1))[:5] == [
        "i", "seen[i]", "seen[i] = 1;", "{ seen[i] = 1; }", "for (int i = 0; i < 4; i = i + 1) { seen[i] = 1; }"]
