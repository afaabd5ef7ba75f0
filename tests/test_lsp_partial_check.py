"""End to end over stdio: while a line is being typed (a syntax error), the statements of the
function that did parse are still checked, as rust-analyzer does, and unused functions are
still reported (issue 32, item 13)."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_support import DATA, change_document, close_document, diagnostics, lsp_fixture, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")
client = lsp_fixture(profiles=["visual_studio_code"])

TEXT = """players: 2
size: 3 x 3
obj X
obj O
define helper() -> int { return 1; }
define isMoveLegal() -> bool {
  obj placedObj = OperationList[0][2];
  if (placedObj != 0) { return false; }
  return true;
}
define end() -> bool { return true; }
"""


def found(items) -> list[tuple[str, int, int]]:
    return sorted((d.code, d.range.start.line, d.range.start.character) for d in items)


async def test_a_half_typed_line_keeps_the_function_s_errors_and_the_unused_warnings(client):
    target = open_document(client, DATA / "game" / "typing.gdef", TEXT)
    before = found(await diagnostics(client, target, 1))
    assert before == [("G301", 7, 6), ("G502", 4, 7)]
    change_document(client, target, 2, "  NextPo\n", (8, 0))  # typing a new line above `return true;`
    during = found(await diagnostics(client, target, 2))
    assert ("G301", 7, 6) in during and ("G502", 4, 7) in during
    assert any(code == "G101" for code, _, _ in during)
    close_document(client, target)


async def test_what_the_broken_line_may_declare_or_call_stays_silent(client):
    text = TEXT.replace("  return true;\n}\ndefine end", "  int count = helper(\n  return count > 0;\n}\ndefine end")
    target = open_document(client, DATA / "game" / "typing2.gdef", text)
    codes = [code for code, _, _ in found(await diagnostics(client, target))]
    assert "G502" not in codes  # helper may be called in the line being typed
    assert "G201" not in codes  # `count` may be declared there
    assert "G301" in codes
    close_document(client, target)


async def test_an_error_in_a_for_header_keeps_the_later_functions(client):
    """A broken `for (...)` header once made the parse skip to the end of the file: the later
    functions lost their symbols and diagnostics."""
    text = TEXT.replace("  return true;\n}\ndefine end",
                        "  for (i in 3) {\n    placedObj = X;\n  }\n  return true;\n}\ndefine end") \
        .replace("define end() -> bool { return true; }", "define end() -> bool { return nothing; }")
    target = open_document(client, DATA / "game" / "typing3.gdef", text)
    assert found(await diagnostics(client, target)) == [("G101", 8, 9), ("G201", 13, 30), ("G301", 7, 6),
                                                        ("G502", 4, 7)]
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(target)))
    assert [symbol.name for symbol in symbols][-3:] == ["helper", "isMoveLegal", "end"]
    assert [child.name for child in symbols[-2].children] == ["placedObj"]
    close_document(client, target)


async def test_a_braceless_body_and_a_broken_header_keep_the_checks_going(client):
    """One error for a loop body without braces and one for a broken header; the statements
    after them, and the body under the header, are checked as gdef-check checks them."""
    text = TEXT.replace("  return true;\n}\ndefine end",
                        "  for (int i = 0; i < 3; i = i + 1) placedObj = 3;\n  return true;\n}\ndefine end") \
        .replace("define helper() -> int { return 1; }",
                 "define helper(int a -> int {\n  return unknownName;\n}")
    target = open_document(client, DATA / "game" / "typing4.gdef", text)
    assert found(await diagnostics(client, target)) == [
        ("G101", 4, 19), ("G101", 10, 35), ("G201", 5, 9), ("G301", 9, 6), ("G304", 10, 48)]
    close_document(client, target)
