"""The IR as text, for tests, for reading what a backend is given, and for the docs.

    define bool inside(int x, int y)  ; reached from isMoveLegal; inlinable
      stable x, y
      enter
      return and(and(ge.int(x, 0), lt.int(x, 7)), and(ge.int(y, 0), lt.int(y, 6)))

Operations are written `name.type(operands)`; a check an operation makes follows it as
`!name` (`add.int(i, 1)!overflow`, `CurrentPosition[x, y]!square`, `a[i]!index`, `n!unset`);
game variables are `$name`, objects `name#number`, gdef function calls `call f(...)`
(`call+1` when the call is one level of recursion deeper), built-in calls `name(...)`.
"""
from __future__ import annotations

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.values import INT_MAX, INT_MIN

_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "==": "eq", "!=": "ne",
          "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def format_module(module: ir.Module) -> str:
    lines = [f"game {module.width}x{module.height}, {module.players} players",
             "objects " + ", ".join(f"{name}#{number}" for name, number in module.objects.items())]
    for var in module.game_vars.values():
        sizes = "".join(f"[{n}]" for n in var.sizes)
        lines.append(f"var {var.type.split('[', 1)[0]} ${var.name}{sizes} = {_initial(var.fill, var.rows)}"
                     + ("  ; counter" if var.counter else ""))
    if module.start:
        lines.append("start " + ", ".join(f"({x},{y}: {name})" for x, y, name in module.start))
    for function in module.functions.values():
        lines.append("")
        lines.extend(function_lines(function))
    return "\n".join(lines) + "\n"


def format_function(function: ir.Function) -> str:
    return "\n".join(function_lines(function)) + "\n"


def function_lines(function: ir.Function) -> list[str]:
    params = ", ".join(f"{kind} {name}" for name, kind in function.params)
    notes = []
    if function.contexts:
        notes.append("reached from " + ", ".join(c.value for c in Context if c in function.contexts))
    if function.recursive:
        notes.append("recursive")
    if function.inlinable:
        notes.append("inlinable")
    lines = [f"define {function.result or 'void'} {function.name}({params})" + ("  ; " + "; ".join(notes) if notes else "")]
    declared = {name for name, _ in function.params}
    others = [f"{kind} {name}" for name, kind in function.locals.items() if name not in declared]
    if others:
        lines.append("  locals " + ", ".join(others))
    if function.stable:
        lines.append("  stable " + ", ".join(sorted(function.stable)))
    for name, (lo, hi) in sorted(function.ranges.items()):
        lines.append(f"  range {name} {_range(lo, hi)}")
    _block(function.body, 1, lines)
    return lines


def _range(lo: int, hi: int) -> str:
    if hi == INT_MAX:
        return f">= {lo}"
    if lo == INT_MIN:
        return f"<= {hi}"
    return f"{lo}..{hi}"


def _block(stmts, depth: int, lines: list[str]) -> None:
    for stmt in stmts:
        _stmt(stmt, depth, lines)


def _stmt(stmt, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    match stmt:
        case ir.Enter(budget=budget, depth=deep):
            lines.append(pad + "enter" + ("!steps" if budget else "") + ("!depth" if deep else ""))
        case ir.Declare(name=name, type=kind, value=value):
            lines.append(f"{pad}{kind} {name} = {expr(value)}")
        case ir.DeclareArray(name=name, type=kind, sizes=sizes, fill=fill, rows=rows, checks=checks):
            shape = "".join(f"[{expr(size)}]" for size in sizes)
            lines.append(f"{pad}{kind.split('[', 1)[0]} {name}{shape}{_checks(checks)} = {_initial(fill, rows)}")
        case ir.Assign(target=target, value=value):
            lines.append(f"{pad}{expr(target)} = {expr(value)}")
        case ir.If(cond=cond, then=then, otherwise=otherwise):
            lines.append(f"{pad}if {expr(cond)}")
            _block(then, depth + 1, lines)
            if otherwise:
                lines.append(f"{pad}else")
                _block(otherwise, depth + 1, lines)
        case ir.Loop(cond=cond, body=body, step=step, checks=checks):
            lines.append(f"{pad}loop{_checks(checks)} while {expr(cond) if cond is not None else 'true'}")
            _block(body, depth + 1, lines)
            if step:
                lines.append(f"{pad}step")
                _block(step, depth + 1, lines)
        case ir.Break():
            lines.append(pad + "break")
        case ir.Continue():
            lines.append(pad + "continue")
        case ir.Return(value=None):
            lines.append(pad + "return")
        case ir.Return(value=value):
            lines.append(f"{pad}return {expr(value)}")
        case ir.Eval(expr=value):
            lines.append(pad + expr(value))
        case ir.Fail(check=check):
            lines.append(f"{pad}fail{_checks((check,))}")


def _initial(fill, rows) -> str:
    if rows is None:
        return expr(fill)
    return "{" + ", ".join("{" + ", ".join(expr(item) for item in row) + "}" if isinstance(row, tuple)
                           else expr(row) for row in rows) + "}"


def _checks(checks) -> str:
    return "".join(f"!{check.name.lower()}" for check in checks)


def expr(node) -> str:
    """One expression as text."""
    match node:
        case ir.Const(value=value, type="bool"):
            return "true" if value else "false"
        case ir.Const(value=value):
            return repr(value)
        case ir.Object(name=name, number=number):
            return f"{name}#{number}"
        case ir.Local(name=name, checks=checks):
            return name + _checks(checks)
        case ir.GameVar(name=name):
            return "$" + name
        case ir.Element(array=array, indexes=indexes, checks=checks):
            return f"{expr(array)}[{', '.join(map(expr, indexes))}]{_checks(checks)}"
        case ir.Board(builtin=builtin, indexes=indexes, checks=checks):
            return f"{builtin.name}[{', '.join(map(expr, indexes))}]{_checks(checks)}"
        case ir.CallBuiltin(builtin=builtin, args=args):
            return f"{builtin.name}({', '.join(map(expr, args))})"
        case ir.CallFunction(name=name, args=args, deeper=deeper):
            return f"call{'+1' if deeper else ''} {name}({', '.join(map(expr, args))})"
        case ir.Unary(op="!", operand=operand):
            return f"not({expr(operand)})"
        case ir.Unary(operand=operand, type=kind, checks=checks):
            return f"neg.{kind}({expr(operand)}){_checks(checks)}"
        case ir.Binary(op=op, left=left, right=right, checks=checks):
            return f"{_NAMES[op]}.{left.type}({expr(left)}, {expr(right)}){_checks(checks)}"
        case ir.Logic(op=op, left=left, right=right):
            return f"{'and' if op == '&&' else 'or'}({expr(left)}, {expr(right)})"
        case ir.Convert(value=value, type=kind, checks=checks):
            return f"to.{kind}({expr(value)}){_checks(checks)}"
    raise TypeError(f"not an IR expression: {node!r}")
