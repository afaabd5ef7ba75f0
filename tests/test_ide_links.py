"""gdef_core.ide.links: `use` paths linked to the files they name."""
from __future__ import annotations

from gdef_core.ide.links import document_links
from gdef_core.syntax.parser import parse

TEXT = 'use "lib/rules.gdef"\nuse "missing.gdef"\nuse "../notes.txt"\n  use   "./lib/../lib/rules.gdef"\n'


def test_existing_files_are_linked_inside_the_quotes(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "rules.gdef").write_text("", encoding="utf-8")
    (tmp_path.parent / "notes.txt").write_text("", encoding="utf-8")
    module = parse(TEXT, str(tmp_path / "g.gdef")).module
    found = [(link.span.line, link.span.column, link.span.end_column, link.target) for link in document_links(module)]
    rules = str(tmp_path / "lib" / "rules.gdef")
    assert found == [(0, 5, 19, rules), (3, 9, 32, rules)]  # missing.gdef and a non-.gdef file: none


def test_an_open_buffer_counts_as_existing(tmp_path):
    module = parse(TEXT, str(tmp_path / "g.gdef")).module
    wanted = str(tmp_path / "missing.gdef")
    assert [link.target for link in document_links(module, exists=lambda p: p == wanted)] == [wanted]
