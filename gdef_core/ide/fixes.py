"""Quick fixes for diagnostics (code actions).

Each diagnostic's own suggestions come first ("did you mean ...", from the checker). This
module adds the fixes that need to know the file around the problem: declare a missing
object, add a missing `isMoveLegal()`/`end()` (or the `moves()` that `isGenerated()` needs) as
a typed stub, remove an unused local, and for arrays and loops (section 15): group a flat
list into rows, size an array to its list, remove a `break`/`continue` outside a loop, update
a `while`'s variable before the `continue` that skips it.
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import ENTRY_POINTS
from gdef_core.diagnostics import Diagnostic, Edit
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import span_text
from gdef_core.semantics.flow import loop_jumps
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
    "moves": ("// TODO: for each legal move: addPlace(x, y, o) / addClear(x, y) ..., then addMove();", ""),
    "chance": ("// TODO: for each outcome: addPlace(x, y, o) / addClear(x, y) ..., then addOutcome(weight);", ""),
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
            case "G313":
                found += _fit_array_list(module, text, diag)
            case "G314":
                found += _remove_jump(module, text, diag)
            case "G413":
                found += _add_entry_point("moves", text, module, diag)
            case "G418":
                found += _add_entry_point("chance", text, module, diag)
            case "G507":
                found += _update_before_continue(module, text, diag)
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
    return f"define {name}(){arrow} {{\n  {comment}\n" + (f"  {body}\n" if body else "") + "}\n"


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


# ---------------------------------------------------------------- section 15


def _add_entry_point(name: str, text: str, module: ast.Module, diag: Diagnostic) -> list[Fix]:
    """isGenerated() without moves() (G413), chanceNext() without chance() (G418): add the
    entry point to fill in."""
    lead = "\n" if text.endswith("\n") or not text else "\n\n"
    return [Fix(f"Add '{name}()'", (Edit(_end_of(module.path, text), lead + _stub(name)),), diag, preferred=True)]


def _fit_array_list(module: ast.Module, text: str, diag: Diagnostic) -> list[Fix]:
    """G313 on a whole initialiser list: a flat list for a two-dimensional array whose sizes
    it fills exactly (group it into rows), a list for a plain variable (make it an array of
    the list's length), or a list longer or shorter than the first size (resize)."""
    decl = next((node for node in ast.walk(module) if isinstance(node, (ast.VarDecl, ast.GameVar))
                 and isinstance(node.init, ast.ArrayInit) and node.init.span == diag.span), None)
    if decl is None:
        return []
    items = decl.init.items
    name = decl.name.text
    sizes = [size.value if isinstance(size, ast.IntLit) else None for size in decl.sizes]
    if not sizes:
        if any(isinstance(item, ast.ArrayInit) for item in items):
            return []
        return [Fix(f"Make '{name}' an array of {len(items)}", (Edit(_point_after(decl.name.span), f"[{len(items)}]"),),
                    diag, preferred=True)]
    if len(sizes) == 2 and None not in sizes and not any(isinstance(item, ast.ArrayInit) for item in items) \
            and len(items) == sizes[0] * sizes[1]:
        values = [span_text(text, item.span) for item in items]
        rows = [values[k:k + sizes[1]] for k in range(0, len(values), sizes[1])]
        grouped = "{" + ", ".join("{" + ", ".join(row) + "}" for row in rows) + "}"
        return [Fix(f"Group the list into {sizes[0]} rows of {sizes[1]}", (Edit(decl.init.span, grouped),), diag,
                    preferred=True)]
    rank_fits = all(isinstance(item, ast.ArrayInit) == (len(sizes) == 2) for item in items)
    if isinstance(decl.sizes[0], ast.IntLit) and rank_fits and items and len(items) != sizes[0]:
        what = "rows" if len(sizes) == 2 else "elements"
        return [Fix(f"Make the size {len(items)} (the list's {what})", (Edit(decl.sizes[0].span, str(len(items))),),
                    diag)]
    return []


def _point_after(span: Span) -> Span:
    return point(span.file, span.end_line, span.end_column)


def _remove_jump(module: ast.Module, text: str, diag: Diagnostic) -> list[Fix]:
    """`break;`/`continue;` outside any loop (G314): remove it."""
    jump = next((node for node in ast.walk(module) if isinstance(node, (ast.Break, ast.Continue))
                 and node.span == diag.span), None)
    if jump is None:
        return []
    word = "break" if isinstance(jump, ast.Break) else "continue"
    return [Fix(f"Remove the '{word}'", (Edit(_whole_lines(text, _with_space_before(text, jump.span)), ""),), diag,
                preferred=True)]


def _with_space_before(text: str, span: Span) -> Span:
    """The span with the blanks before it on its line (`{ break; }` becomes `{ }`)."""
    line = text.split("\n")[span.line]
    column = len(line[:span.column].rstrip(" \t"))
    if column == 0:
        return span
    return Span(span.file, span.line, column, span.end_line, span.end_column)


def _update_before_continue(module: ast.Module, text: str, diag: Diagnostic) -> list[Fix]:
    """A `while` whose `continue` skips the update of the variable its condition waits for
    (G507): repeat that update (a plain assignment of the loop body) before each such
    `continue`."""
    loop = next((node for node in ast.walk(module) if isinstance(node, ast.While)
                 and any(jump.span == diag.span for jump in loop_jumps(node))), None)
    if loop is None:
        return []
    watched = {node.name.text for node in ast.walk(loop.cond) if isinstance(node, ast.NameRef)}
    updates = [stmt for stmt in loop.body.stmts if isinstance(stmt, ast.Assign)
               and isinstance(stmt.target, ast.NameRef) and stmt.target.name.text in watched]
    if len(updates) != 1 or any(isinstance(node, ast.Call) for node in ast.walk(updates[0].value)):
        return []  # several updates, or one with effects: which to repeat is the author's call
    update = updates[0]
    written = span_text(text, update.span)
    edits = []
    lines = text.split("\n")
    for jump in loop_jumps(loop):
        if not isinstance(jump, ast.Continue) or jump.span.start > update.span.start:
            continue
        before = lines[jump.span.line][:jump.span.column]
        separator = " " if before.strip() else "\n" + before
        edits.append(Edit(point(jump.span.file, jump.span.line, jump.span.column), written + separator))
    if not edits:
        return []
    return [Fix(f"Update '{update.target.name.text}' before the 'continue'", tuple(edits), diag, preferred=True)]
