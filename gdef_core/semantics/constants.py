"""Game variable initialisers must be constants: they are evaluated before anything runs
(spec section 14): literals, objects, `empty`, parameters, unary `-` and `+ - * / %`. And the
array sizes the checker knows (spec 15.1): literals, int parameters, arithmetic on them, and the
board's dimensions and number of players once the game parameters are known."""
from __future__ import annotations

from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast

_ARITHMETIC = ("+", "-", "*", "/", "%")
MAX_ARRAY_ELEMENTS = 1_000_000  # in one array (spec 15.1)


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
                if symbol is None or symbol.kind is SymbolKind.OBJECT or symbol.name == "empty" \
                        or name.text in program.params:
                    continue  # undefined names are reported by names.py; parameters are constants
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
                   "Use literals, objects, `empty`, parameters, unary '-' and + - * / %, or assign it in setup()")


# The built-ins whose value the game parameters fix (spec 15.1: sizes known to the checker).
_GAME_CONSTANTS = {"boardWidth": "width", "boardHeight": "height", "playersNum": "players"}


def known_size(program: Program, expr) -> int | None:
    """The value of an array size when the checker knows it (as the run would compute it: C
    division and remainder), else None. Without recursion: sizes may nest deeply too."""
    values: list[int | None] = []
    pending: list = [(False, expr)]
    while pending:
        ready, node = pending.pop()
        if ready:
            if isinstance(node, ast.Unary):
                values.append(None if values[-1] is None else -values.pop())
                continue
            right, left = values.pop(), values.pop()
            values.append(_arithmetic(node.op, left, right))
            continue
        match node:
            case ast.IntLit(value=value):
                values.append(value)
            case ast.Call(callee=callee, args=[]) if callee.text in _GAME_CONSTANTS:
                values.append(getattr(program, _GAME_CONSTANTS[callee.text]))
            case ast.NameRef(name=name) if isinstance(program.param_values.get(name.text), int) \
                    and name.text in program.params and program.params[name.text].type.name == "int":
                values.append(program.param_values[name.text])  # a parameter: its value in use
            case ast.Unary(op="-", operand=operand):
                pending += [(True, node), (False, operand)]
            case ast.Binary(op=op, left=left, right=right) if op in _ARITHMETIC:
                pending += [(True, node), (False, right), (False, left)]
            case _:
                values.append(None)
    return values[0]


def _arithmetic(op: str, left: int | None, right: int | None) -> int | None:
    if left is None or right is None:
        return None
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if right == 0:
        return None  # the run reports the division by zero
    quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)
    return quotient if op == "/" else left - right * quotient
