"""End to end over stdio: quick fixes, applied to the text and checked again."""
from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_support import change_document, close_document, diagnostics, lsp_fixture, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")
DOCS = "https://gdef.example/docs/diagnostics.md"
client = lsp_fixture({"diagnosticsDocs": DOCS})

HEADER = "name: fixes\nplayers: 2\nsize: 3 x 3\nobj X\n"
ENTRY = "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n"


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply edits (ASCII text: columns are the same in every encoding), last first."""
    lines = text.split("\n")
    offsets = [sum(len(line) + 1 for line in lines[:n]) for n in range(len(lines) + 1)]
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def fix(client, path, text: str, code: str, title: str) -> str:
    """Open `text`, ask for the code actions of its `code` diagnostic, apply the one called
    `title`, and return the fixed text after checking that the server accepts it."""
    target = open_document(client, path, text)
    found = [d for d in await diagnostics(client, target, version=1) if d.code == code]
    assert found, f"no {code} in {text!r}"
    assert found[0].code_description.href.startswith(DOCS + f"#{code.lower()}-")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=target), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found, only=[types.CodeActionKind.QuickFix])))
    by_title = {a.title: a for a in actions}
    assert title in by_title, sorted(by_title)
    action = by_title[title]
    assert action.kind == types.CodeActionKind.QuickFix
    fixed = apply(text, action.edit.changes[target])
    change_document(client, target, 2, fixed)
    after = await diagnostics(client, target, version=2)
    close_document(client, target)
    assert code not in {d.code for d in after}, after
    return fixed


async def test_did_you_mean(client, tmp_path):
    text = HEADER + ENTRY.replace("return false;", "return CurrentPositon[0][0] == X;")
    fixed = await fix(client, tmp_path / "a.gdef", text, "G201", "Did you mean 'CurrentPosition'?")
    assert "return CurrentPosition[0][0] == X;" in fixed


async def test_declare_a_missing_object(client, tmp_path):
    text = HEADER + ENTRY.replace("return false;", "return CurrentPosition[0][0] == Blue;")
    fixed = await fix(client, tmp_path / "b.gdef", text, "G201", "Declare object 'Blue'")
    assert fixed.startswith(HEADER + "obj Blue\n")


async def test_add_missing_entry_points_as_typed_stubs(client, tmp_path):
    fixed = await fix(client, tmp_path / "c.gdef", HEADER, "G405", "Add 'isMoveLegal()' and 'end()'")
    assert "define isMoveLegal() -> bool {" in fixed and "define end() -> bool {" in fixed


async def test_add_the_one_missing_entry_point(client, tmp_path):
    text = HEADER + ENTRY.split("\n")[0] + "\n"
    fixed = await fix(client, tmp_path / "d.gdef", text, "G405", "Add 'end()'")
    assert fixed.endswith("define end() -> bool {\n  // TODO: call setWinner(p) and return true when the game "
                          "is over\n  return false;\n}\n")


async def test_remove_an_unused_local(client, tmp_path):
    text = HEADER + ENTRY.replace("{ return true; }", "{\n  int unused = 3 * 4;\n  return true;\n}")
    fixed = await fix(client, tmp_path / "e.gdef", text, "G501", "Remove the unused local 'unused'")
    assert fixed == HEADER + ENTRY.replace("{ return true; }", "{\n  return true;\n}")


async def test_remove_an_unused_local_keeps_its_call(client, tmp_path):
    text = HEADER + ENTRY.replace("{ return true; }", "{ int n = operationsNum(); return true; }")
    fixed = await fix(client, tmp_path / "f.gdef", text, "G501", "Remove the unused local 'n', keep the call")
    assert "{ operationsNum(); return true; }" in fixed


async def test_put_a_braceless_loop_body_in_braces(client, tmp_path):
    body = ("define isMoveLegal() -> bool {\n  int n = 0;\n  for (int i = 0; i < 3; i = i + 1) n = n + i;\n"
            "  return n > 0;\n}\n")
    text = HEADER + body + "define end() -> bool { return false; }\n"
    fixed = await fix(client, tmp_path / "braces.gdef", text, "G101", "Put the body in { }")
    assert "  for (int i = 0; i < 3; i = i + 1) { n = n + i; }\n" in fixed
