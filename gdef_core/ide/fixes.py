"""Quick fixes for diagnostics (code actions).

Each diagnostic's own suggestions come first ("did you mean ...", from the checker). This
module adds the fixes that need to know the file around the problem: declare a missing
object, add a missing `isMoveLegal()`/`end()` as a typed stub, remove an unused local.
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import ENTRY_POINTS
from gdef_core.diagnostics import Diagnostic, Edit
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import span_text
from gdef_core.span import Span, point
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    diagnostic: Diagnostic
    preferred: bool = False


# What a new entry point does until the author writes it: allow every move; never end.
_STUB_BODIES = {
    "isMoveLegal": ("// TODO: judge the proposed move (OperationList) in CurrentPosition", "return true;"),
    "end": ("// TODO: call setWinner(p) and return true when the game is over", "return false;"),
}


def fixes(analysis: Analysis, text: str, path: str, diagnostics: list[Diagnostic]) -> list[Fix]:
    """The fixes for the given diagnostics of the file `path` (whose text is `text`)."""
    module = analysis.module(path)
    found: list[Fix] = []
    for diag in diagnostics:
        for k, suggestion in enumerate(diag.suggestions):
            if suggestion.edits:
                found.append(Fix(_capitalised(suggestion.message), suggestion.edits, diag, preferred=k == 0))
        if module is None:
            continue
        match diag.code:
            case "G201":
                found += _declare_object(analysis, module, diag)
            case "G405":
                found += _entry_point_stubs(analysis, module, text, diag)
            case "G501":
                found += _remove_unused_local(analysis, module, text, diag)
    unique: dict[tuple, Fix] = {}  # two missing entry points offer the same stubs twice
    for fix in found:
        unique.setdefault((fix.title, fix.edits), fix)
    return list(unique.values())


def _capitalised(message: str) -> str:
    return message[:1].upper() + message[1:]


# ---------------------------------------------------------------- missing object


def _declare_object(analysis: Analysis, module: ast.Module, diag: Diagnostic) -> list[Fix]:
    """`'Foo' is not declared` where an object could stand: add `obj Foo` to the file's
    declarations."""
    name = _read_name_at(module, diag.span)
    if name is None:
        return []
    at = _declaration_point(module)
    return [Fix(f"Declare object '{name.text}'", (Edit(at, f"obj {name.text}\n"),), diag)]


def _read_name_at(module: ast.Module, span: Span) -> ast.Name | None:
    """The name at `span` if it is read as a value (not assigned, called or indexed)."""
    assigned = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.NameRef):
            assigned.add(node.target.name)
        if isinstance(node, ast.NameRef) and node.name.span == span and node.name not in assigned:
            return node.name
        if isinstance(node, ast.StartDecl):
            for entry in node.entries:
                if entry.obj.span == span:
                    return entry.obj
    return None


def _declaration_point(module: ast.Module) -> Span:
    """Where a new `obj` line goes: after the last object, else after the game parameters
    and `use` lines, else at the top."""
    objects = [item for item in module.items if isinstance(item, ast.ObjDecl)]
    header = [item for item in module.items if isinstance(item, (ast.GameParam, ast.UseDecl))]
    anchor = (objects or header or [None])[-1]
    if anchor is None:
        return point(module.path, 0, 0)
    return point(module.path, anchor.span.end_line + 1, 0)


# ---------------------------------------------------------------- missing entry point


def _entry_point_stubs(analysis: Analysis, module: ast.Module, text: str, diag: Diagnostic) -> list[Fix]:
    missing = [name for name, (_, required) in ENTRY_POINTS.items()
               if required and name not in analysis.program.functions]
    end = _end_of(module.path, text)
    lead = "\n" if text.endswith("\n") or not text else "\n\n"
    found = []
    for name in missing:
        stub = _stub(name)
        found.append(Fix(f"Add '{name}()'", (Edit(end, lead + stub),), diag, preferred=len(missing) == 1))
    if len(missing) > 1:
        found.append(Fix("Add " + " and ".join(f"'{n}()'" for n in missing),
                         (Edit(end, lead + "\n".join(_stub(n) for n in missing)),), diag, preferred=True))
    return found


def _stub(name: str) -> str:
    result, _ = ENTRY_POINTS[name]
    comment, body = _STUB_BODIES[name]
    arrow = f" -> {result}" if result else ""
    return f"define {name}(){arrow} {{\n  {comment}\n  {body}\n}}\n"


def _end_of(path: str, text: str) -> Span:
    line = text.count("\n")
    return point(path, line, len(text) - (text.rfind("\n") + 1))


# ---------------------------------------------------------------- unused local


def _remove_unused_local(analysis: Analysis, module: ast.Module, text: str, diag: Diagnostic) -> list[Fix]:
    """Remove `TYPE x = init;` when nothing else mentions x; keep the call if the
    initialiser is one (its effects may matter)."""
    decl = next((node for node in ast.walk(module)
                 if isinstance(node, ast.VarDecl) and node.name.span == diag.span), None)
    if decl is None:
        return []
    occurrence = analysis.occurrence_at(module.path, diag.span.line, diag.span.column)
    if occurrence is None or len(analysis.occurrences_of(occurrence.symbol)) > 1:
        return []  # also assigned somewhere: removing the declaration would break that
    if isinstance(decl.init, ast.Call):
        keep = span_text(text, decl.init.span)
        return [Fix(f"Remove the unused local '{decl.name.text}', keep the call", (Edit(decl.span, keep + ";"),), diag)]
    if any(isinstance(node, ast.Call) for node in ast.walk(decl.init)):
        return []
    return [Fix(f"Remove the unused local '{decl.name.text}'", (Edit(_whole_lines(text, decl.span), ""),), diag,
                preferred=True)]


def _whole_lines(text: str, span: Span) -> Span:
    """The span widened to its whole lines when nothing else is on them."""
    lines = text.split("\n")
    before = lines[span.line][:span.column]
    after = lines[span.end_line][span.end_column:]
    if before.strip() or after.strip() or span.end_line + 1 >= len(lines):
        return span
    return Span(span.file, span.line, 0, span.end_line + 1, 0)
