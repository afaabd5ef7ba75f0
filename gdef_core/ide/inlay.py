"""Inlay hints: the parameter name before each literal argument of a call (`lineFrom(x, y,
dx: 1, dy: 0, piece)`), for your functions and the built-ins (names from gdef_core/builtins.py).

Only literals get one: a named argument already says what it is, and a `start` square's
object is visible as written, so `start` gets none (it holds no calls).
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import Kind
from gdef_core.ide.analysis import Analysis
from gdef_core.semantics.program import SymbolKind
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class InlayHint:
    line: int
    column: int  # where the argument starts (the hint is drawn before it)
    label: str  # "dx:"


def inlay_hints(analyses: list[Analysis], path: str, first_line: int = 0, last_line: int | None = None
                ) -> list[InlayHint]:
    """The hints of the calls in `path` whose arguments start within the given lines (the
    editor asks for the visible ones), in source order. A library in several games is read
    in the first game that resolves each call."""
    found: dict[tuple[int, int], InlayHint] = {}
    for analysis in analyses:
        module = analysis.module(path)
        if module is None:
            continue
        for call in _calls(module, first_line, last_line):
            names = _parameter_names(analysis, call)
            for argument, name in zip(call.args, names or ()):
                start = argument.span.start
                if _is_literal(argument) and _visible(start[0], first_line, last_line):
                    found.setdefault(start, InlayHint(start[0], start[1], f"{name}:"))
    return [found[key] for key in sorted(found)]


def _calls(module: ast.Module, first_line: int, last_line: int | None):
    for item in module.items:
        if isinstance(item, ast.StartDecl) or item.span.end_line < first_line:
            continue
        if last_line is not None and item.span.line > last_line:
            break
        for node in ast.walk(item):
            if type(node) is ast.Call:
                yield node


def _parameter_names(analysis: Analysis, call: ast.Call) -> list[str] | None:
    symbol = analysis.program.references.get(call.callee)
    if symbol is None:
        return None
    if symbol.kind is SymbolKind.FUNCTION and isinstance(symbol.decl, ast.FunctionDef):
        return [p.name.text for p in symbol.decl.params]
    if symbol.kind is SymbolKind.BUILTIN and symbol.builtin is not None and symbol.builtin.kind is Kind.FUNCTION:
        return [p.name for p in symbol.builtin.params]
    return None


def _is_literal(node) -> bool:
    """A number, `true`/`false`, or a negated number (`-1`)."""
    if type(node) is ast.Unary and node.op == "-":
        node = node.operand
    return type(node) in (ast.IntLit, ast.FloatLit, ast.BoolLit)


def _visible(line: int, first_line: int, last_line: int | None) -> bool:
    return line >= first_line and (last_line is None or line <= last_line)

