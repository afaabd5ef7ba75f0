"""The `start` block: squares on the board, declared objects, no square twice."""
from __future__ import annotations

from gdef_core.builtins import ALIASES
from gdef_core.diagnostics import Related
from gdef_core.semantics.names import empt_warning
from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.semantics.report import Report, where
from gdef_core.semantics.suggest import did_you_mean, hint
from gdef_core.syntax import ast


def check_start(program: Program, report: Report) -> None:
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.StartDecl):
                _entries(program, report, item)


def _entries(program: Program, report: Report, start: ast.StartDecl) -> None:
    seen: dict[tuple[int, int], ast.StartEntry] = {}
    for entry in start.entries:
        _object(program, report, entry.obj)
        x, y = entry.x.value, entry.y.value
        if _on_board(program, report, entry) and start is program.start:
            if (x, y) in seen:
                first = seen[(x, y)].span
                report.add("G505", entry.span, f"square ({x}, {y}) is already listed "
                           f"({where(first, entry.span)}); this entry wins",
                           related=(Related(first, f"the first entry for ({x}, {y})"),))
            else:
                seen[(x, y)] = entry


def _on_board(program: Program, report: Report, entry: ast.StartEntry) -> bool:
    width, height = program.width, program.height
    if width is None or height is None:
        return True
    x_off = not 0 <= entry.x.value < width
    y_off = not 0 <= entry.y.value < height
    if not (x_off or y_off):
        return True
    span = entry.x.span.to(entry.y.span) if x_off and y_off else (entry.x.span if x_off else entry.y.span)
    report.add("G408", span, f"square ({entry.x.value}, {entry.y.value}) is off the {width} x {height} "
               f"board (x from 0 to {width - 1}, y from 0 to {height - 1})")
    return False


def _object(program: Program, report: Report, name: ast.Name) -> None:
    if name.recovered or not name.text:
        return
    if name.text in ALIASES:
        program.references[name] = program.symbols[ALIASES[name.text]]
        empt_warning(report, name)
        return
    symbol = program.symbols.get(name.text)
    if symbol is None:
        if name.text in report.recovery.words:
            return
        candidates = list(program.objects) + ["empty"]
        suggestions = did_you_mean(name, candidates)
        report.add("G201", name.span, f"'{name.text}' is not a declared object{hint(suggestions)}",
                   suggestions=suggestions)
        return
    program.references[name] = symbol
    if symbol.kind is not SymbolKind.OBJECT and symbol.name != "empty":
        report.add("G409", name.span, f"a start square must hold an object or 'empty'; "
                   f"'{name.text}' is a {symbol.kind.value}")
