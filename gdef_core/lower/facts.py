"""What a condition tells about int variables, so the compiler can drop checks it proves useless.

Inside `x >= 0 && x < 7 && CurrentPosition[x][y] == d`, the board read needs no bounds test on
x; after `y == 0 ||`, y is not 0. A fact is (name, op, k): the variable `name` compared with the
constant k. Ranges are inclusive (lo, hi) pairs of ints. Everything here reads the IR (ir.py).
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.values import INT_MAX, INT_MIN

FULL = (INT_MIN, INT_MAX)
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def static_int(expr, constants: dict[str, int]) -> int | None:
    """The value of an int expression made only of constants, or None. `constants` gives the
    values of argument-less built-ins known here (operationsNum() of a single operation) and
    of locals holding one constant (local_constant())."""
    match expr:
        case ir.Const(value=value, type="int"):
            return value
        case ir.Unary(op="-", operand=operand, type="int"):
            value = static_int(operand, constants)
            return -value if value is not None and value != INT_MIN else None
        case ir.CallBuiltin(builtin=builtin, args=()) if builtin.name in constants:
            return constants[builtin.name]
        case ir.Local(name=name, type="int") if local_constant(name) in constants:
            return constants[local_constant(name)]
        case ir.Binary(op=op, left=left, right=right, type="int") if op in "+-*":
            a, b = static_int(left, constants), static_int(right, constants)
            if a is None or b is None:
                return None
            value = a + b if op == "+" else a - b if op == "-" else a * b
            return value if INT_MIN <= value <= INT_MAX else None
    return None


def local_constant(name: str) -> str:
    """The key of a local that holds one constant value (`int w = boardWidth();`) among the
    constants static_int() knows (no gdef name contains '=')."""
    return "=" + name


def is_guard(stmt) -> bool:
    """`if (c) { ... return/break/continue; }` without else: what follows runs only when c is
    false."""
    return (isinstance(stmt, ir.If) and not stmt.otherwise and bool(stmt.then)
            and isinstance(stmt.then[-1], (ir.Return, ir.Break, ir.Continue)))


Predicate = tuple[list[str], object]  # a function's int parameters and the one expression it returns


def predicates(functions: dict[str, ir.Function], arms: dict[str, list]) -> dict[str, Predicate]:
    """name -> (parameters, returned expression) of the inlinable bool functions that are one
    `return e;` (onBoard(x, y) and the like): a call of one tells what its body tells about
    the arguments that are plain variables. `arms`: inlining.arms() of the inlinable ones."""
    found = {}
    for name, function_arms in arms.items():
        function = functions[name]
        if len(function_arms) == 1 and function.result == "bool":
            params = [param if kind == "int" else "" for param, kind in function.params]
            found[name] = (params, function_arms[0][1])
    return found


def facts_when_true(expr, names: set[str], constants: dict[str, int], memo: dict | None = None,
                    calls: dict[str, Predicate] | None = None) -> list[tuple[str, str, int]]:
    """Comparisons of a variable in `names` with a constant that hold when `expr` is true.
    `memo` (shared by the calls about one function) keeps long `&&` chains linear; `calls`
    (from predicates()) lets a call such as `onBoard(nx, ny)` count as its body."""
    return _facts(expr, True, names, constants, {} if memo is None else memo, calls or {})


def facts_when_false(expr, names: set[str], constants: dict[str, int], memo: dict | None = None,
                     calls: dict[str, Predicate] | None = None) -> list[tuple[str, str, int]]:
    return _facts(expr, False, names, constants, {} if memo is None else memo, calls or {})


def _facts(expr, holds: bool, names: set[str], constants: dict[str, int], memo: dict, calls: dict) -> list:
    key = (id(expr), holds)
    found = memo.get(key)
    if found is not None:
        return found
    found = []
    match expr:
        case ir.Logic(op=op, left=left, right=right) if op == ("&&" if holds else "||"):
            found = (_facts(left, holds, names, constants, memo, calls)
                     + _facts(right, holds, names, constants, memo, calls))
        case ir.Unary(op="!", operand=operand):
            found = _facts(operand, not holds, names, constants, memo, calls)
        case ir.Binary():
            fact = _comparison(expr, names, constants)
            if fact:
                found = [fact if holds else (fact[0], _NEGATE[fact[1]], fact[2])]
        case ir.CallFunction(name=name, args=args) if name in calls:
            found = _call_facts(name, args, holds, names, constants, memo, calls)
    memo[key] = found
    return found


def _call_facts(name: str, args, holds: bool, names: set[str], constants: dict[str, int], memo: dict,
                calls: dict) -> list:
    """What a predicate's body tells about its int parameters, said of the arguments that are
    variables in `names` (the parameters are never assigned: the body is one expression)."""
    params, body = calls[name]
    key = ("call", name, holds)
    inner = memo.get(key)
    if inner is None:
        inner = memo[key] = _facts(body, holds, set(params) - {""}, constants, {}, calls)
    bound = {param: arg.name for param, arg in zip(params, args)
             if param and isinstance(arg, ir.Local) and arg.name in names}
    return [(bound[param], op, k) for param, op, k in inner if param in bound]


def _comparison(expr: ir.Binary, names: set[str], constants: dict[str, int]):
    if expr.op not in _FLIP:
        return None
    for variable, other, op in ((expr.left, expr.right, expr.op), (expr.right, expr.left, _FLIP[expr.op])):
        if isinstance(variable, ir.Local) and variable.name in names:
            k = static_int(other, constants)
            if k is not None:
                return variable.name, op, k
    return None


def narrow(bounds: tuple[int, int], op: str, k: int) -> tuple[int, int]:
    """The range of a variable in `bounds` once `variable op k` is known to hold."""
    lo, hi = bounds
    if op == "<":
        hi = min(hi, k - 1)
    elif op == "<=":
        hi = min(hi, k)
    elif op == ">":
        lo = max(lo, k + 1)
    elif op == ">=":
        lo = max(lo, k)
    elif op == "==":
        lo, hi = max(lo, k), min(hi, k)
    elif op == "!=":
        if lo == k:
            lo += 1
        if hi == k:
            hi -= 1
    return lo, hi


def assigned_names(nodes) -> set[str]:
    """Locals and game variables assigned (`name = ...;`) anywhere in the IR `nodes`."""
    return {node.target.name for node in ir.walk(nodes)
            if isinstance(node, ir.Assign) and isinstance(node.target, (ir.Local, ir.GameVar))}


def written_names(nodes) -> set[str]:
    """Names given a value (assigned or declared) anywhere in the IR `nodes`."""
    names = assigned_names(nodes)
    names.update(node.name for node in ir.walk(nodes) if isinstance(node, (ir.Declare, ir.DeclareArray)))
    return names


def monotone_bounds(body, int_locals: set[str], constants: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Ranges that hold for a local throughout its function (IR `body`) because every value it
    is given is a constant or itself plus (or minus) a constant: a counter from 0 upwards is
    never negative."""
    definitions: dict[str, list] = {name: [] for name in int_locals}
    for node in ir.walk(body):
        if isinstance(node, ir.Declare) and node.name in definitions:
            definitions[node.name].append(node.value)
        elif isinstance(node, ir.Assign) and isinstance(node.target, ir.Local) and node.target.name in definitions:
            definitions[node.target.name].append(node.value)
    bounds = {}
    for name, values in definitions.items():
        starts, steps = [], []
        for value in values:
            k = static_int(value, constants)
            if k is not None:
                starts.append(k)
            else:
                step = constant_step(name, value, constants)
                if step is None:
                    break
                steps.append(step)
        else:
            if starts:
                lo = min(starts) if all(s >= 0 for s in steps) else INT_MIN
                hi = max(starts) if all(s <= 0 for s in steps) else INT_MAX
                if (lo, hi) != FULL:
                    bounds[name] = (lo, hi)
    return bounds


def constant_step(name: str, value, constants: dict[str, int]) -> int | None:
    """k when `value` is `name + k`, `k + name` or `name - k` (k constant), else None."""
    if not isinstance(value, ir.Binary) or value.op not in "+-" or value.type != "int":
        return None
    left, right = value.left, value.right
    if isinstance(left, ir.Local) and left.name == name:
        k = static_int(right, constants)
        return None if k is None else (k if value.op == "+" else -k)
    if value.op == "+" and isinstance(right, ir.Local) and right.name == name:
        return static_int(left, constants)
    return None
