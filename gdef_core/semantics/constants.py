"""Game variable initialisers must be constants: they are evaluated before anything runs
(spec section 14): literals, objects, `empty`, unary `-` and `+ - * / %`."""
from __future__ import annotations

from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast

_ARITHMETIC = ("+", "-", "*", "/", "%")


def check_game_var_inits(program: Program, report: Report) -> None:
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.GameVar):
                _constant(program, report, item.init)


def _constant(program: Program, report: Report, init) -> None:
    """Reports the outermost parts of `init` that are not constant (without recursion)."""
    pending = [init]
    while pending:
        expr = pending.pop()
        match expr:
            case ast.IntLit() | ast.FloatLit() | ast.BoolLit() | ast.ErrorExpr():
                continue
            case ast.Unary(op="-", operand=operand):
                pending.append(operand)
                continue
            case ast.Binary(op=op, left=left, right=right) if op in _ARITHMETIC:
                pending += [right, left]
                continue
            case ast.NameRef(name=name):
                symbol = program.references.get(name)
                if symbol is None or symbol.kind is SymbolKind.OBJECT or symbol.name == "empty":
                    continue  # undefined names are reported by names.py
                reason = f"'{name.text}' is " + \
                    (f"a {symbol.kind.value}" if symbol.builtin is None else "a built-in")
            case ast.Call(callee=callee):
                reason = f"it calls '{callee.text}'"
            case ast.Index(base=base):
                reason = f"it reads '{base.text}'"
            case ast.Unary(op=op) | ast.Binary(op=op):
                reason = f"'{op}' is not allowed there"
            case _:
                continue
        report.add("G410", expr.span, f"a game variable's initial value must be a constant; {reason}. "
                   "Use literals, objects, `empty`, unary '-' and + - * / %, or assign it in setup()")
