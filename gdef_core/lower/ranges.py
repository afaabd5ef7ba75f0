"""Interval analysis over the IR: the ranges of a function's int locals at each statement, and
whether any run-time check of a function can fail given the ranges of its arguments.

A walk in statement order keeps one range per int local (an environment); a condition narrows
it on each side (facts.py's facts and `narrow`), the two arms of an `if` are joined, and at a
loop's head a local the loop changes keeps only what its updates preserve (one only ever
increased stays at or above its value on entry: facts.py's counters, made flow-sensitive). The
walk is sound for any function; `RangeWalk.unsafe` says whether some check (G601 division,
G602 overflow, G603 square, G614 index ...) was not proven to hold, and `steps` bounds the steps
a walked body can spend when every loop has a counter bounded by its condition (None else).

The C emitter uses it to know which calls a random draw may skip (lower/skippable.py); an
emitter can equally drop a check proven here.
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.facts import FULL, constant_step, facts_when_false, facts_when_true, narrow, static_int
from gdef_core.lower.limits import OPERATION_STEPS
from gdef_core.lower.values import INT_MAX, INT_MIN

Range = tuple[int, int]
Env = dict[str, Range]

# Built-ins a proven function may call: the operations of a candidate, and reads that cannot
# fail and spend no step.
OPERATIONS = frozenset({"addPlace", "addClear"})
_HARMLESS = frozenset({"onTurn", "moveNumber"})
_BOARDS = frozenset({"CurrentPosition", "CurrentCount"})


def _fits(lo: int, hi: int) -> bool:
    return INT_MIN <= lo and hi <= INT_MAX


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def join(a: Env | None, b: Env | None) -> Env | None:
    """The environment that holds after either of two paths (None: a path that does not go on)."""
    if a is None:
        return b
    if b is None:
        return a
    return {name: (min(a[name][0], b[name][0]), max(a[name][1], b[name][1])) for name in a.keys() & b.keys()}


class RangeWalk:
    """One walk of a function's statements. `sizes`: the constant sizes of the arrays the
    function indexes (its local arrays are found as they are declared); `width`, `height`: the
    board's. `calls` (when given) receives each `Eval` of a function call with the environment
    there. After walk(): `unsafe` (a check not proven), `steps` (a bound, or None)."""

    def __init__(self, sizes: dict[str, tuple[int, ...]], width: int, height: int, calls=None) -> None:
        self.sizes = dict(sizes)
        self.width = width
        self.height = height
        self.calls = calls
        self.unsafe = False
        self.bounded = True
        self.int_locals: set[str] = set()
        self._jumps: list[tuple[list, list]] = []   # per loop: the envs at its breaks and continues

    # ------------------------------------------------------------ entry

    def function(self, function: ir.Function, params: Env) -> tuple[Env | None, int | None]:
        """Walk `function` with its int parameters in `params` (those missing: any int)."""
        self.int_locals = {name for name, kind in function.locals.items() if kind == "int"}
        env = {name: params.get(name, FULL) for name in self.int_locals}
        out, steps = self.block(function.body, env)
        return out, steps if self.bounded else None

    # ------------------------------------------------------------ statements

    def block(self, stmts, env: Env | None) -> tuple[Env | None, int]:
        steps = 0
        for stmt in stmts:
            if env is None:   # after a return, break or continue: not reached from here
                break
            env, spent = self.stmt(stmt, env)
            steps += spent
        return env, steps

    def stmt(self, stmt, env: Env) -> tuple[Env | None, int]:
        match stmt:
            case ir.Enter(depth=depth):
                if depth:
                    self.unsafe = True
                return env, 1
            case ir.Declare(name=name, value=value) | ir.Assign(target=ir.Local(name=name), value=value):
                found, steps = self.expr(value, env)
                if name in self.int_locals:
                    env = {**env, name: found if found is not None else FULL}
                return env, steps
            case ir.DeclareArray(name=name, sizes=sizes):
                known = tuple(static_int(size, {}) for size in sizes)
                steps = sum(self.expr(size, env)[1] for size in sizes)
                if all(k is not None and 1 <= k for k in known) and name not in self.sizes:
                    self.sizes[name] = known
                    count = 1
                    for k in known:
                        count *= k
                    return env, steps + count
                self.sizes[name] = ()   # declared twice, or sized at run time: indexes unproven
                self.bounded = False
                return env, steps
            case ir.Assign(target=ir.Element() as target, value=value):
                _, a = self.element(target, env)
                _, b = self.expr(value, env)
                return env, a + b
            case ir.Assign():   # a game variable
                return env, self.expr(stmt.value, env)[1]
            case ir.Eval(expr=expr):
                if self.calls is not None and isinstance(expr, ir.CallFunction):
                    self.calls(expr, env)
                return env, self.expr(expr, env)[1]
            case ir.If(cond=cond, then=then, otherwise=otherwise):
                _, steps = self.expr(cond, env)
                yes, a = self.block(then, self.assume(cond, True, env))
                no, b = self.block(otherwise, self.assume(cond, False, env))
                return join(yes, no), steps + max(a, b)
            case ir.Loop():
                return self.loop(stmt, env)
            case ir.Break():
                self._jumps[-1][0].append(env)
                return None, 0
            case ir.Continue():
                self._jumps[-1][1].append(env)
                return None, 0
            case ir.Return(value=value):
                steps = self.expr(value, env)[1] if value is not None else 0
                return None, steps
            case ir.Fail():
                self.unsafe = True
                return None, 0
        self.unsafe = True
        self.bounded = False
        return env, 0

    def assume(self, cond, holds: bool, env: Env | None) -> Env | None:
        """`env` narrowed by what `cond` being `holds` tells; None where it cannot be."""
        if env is None:
            return None
        facts = (facts_when_true if holds else facts_when_false)(cond, set(env), {})
        out = dict(env)
        for name, op, k in facts:
            lo, hi = narrow(out[name], op, k)
            if lo > hi:
                return None
            out[name] = (lo, hi)
        return out

    def loop(self, loop: ir.Loop, env: Env) -> tuple[Env | None, int]:
        head = self.head(loop, env)
        self._jumps.append(([], []))
        body_env = self.assume(loop.cond, True, head) if loop.cond is not None else head
        cond_steps = self.expr(loop.cond, head)[1] if loop.cond is not None else 0
        end, body_steps = self.block(loop.body, body_env)
        breaks, continues = self._jumps.pop()
        step_env = end
        for other in continues:
            step_env = join(step_env, other)
        self._jumps.append(([], []))   # a break or continue in the step is not expected, but is sound
        _, step_steps = self.block(loop.step, step_env)
        self._jumps.pop()
        out = self.assume(loop.cond, False, head) if loop.cond is not None else None
        for other in breaks:
            out = join(out, other)
        trips = self.trips(loop, env)
        if trips is None:
            self.bounded = False
            return out, 0
        return out, trips * (1 + cond_steps + body_steps + step_steps) + cond_steps

    def head(self, loop: ir.Loop, env: Env) -> Env:
        """The ranges at the loop's head on every pass: a local the loop changes only by
        adding constants of one sign keeps its value on entry as a bound; any other it changes
        may hold anything."""
        nodes = [*loop.body, *loop.step]
        out = dict(env)
        for name, steps in _updates(nodes, self.int_locals).items():
            lo, hi = env[name]
            if steps is not None and all(s >= 0 for s in steps):
                out[name] = (lo, INT_MAX)
            elif steps is not None and all(s <= 0 for s in steps):
                out[name] = (INT_MIN, hi)
            else:
                out[name] = FULL
        return out

    def trips(self, loop: ir.Loop, env: Env) -> int | None:
        """A bound on the passes of `loop` entered with `env`: its condition bounds a counter
        that its step moves towards the bound by a constant on every pass (and nothing else
        moves back); None when no such counter is found."""
        if loop.cond is None:
            return None
        updates = _updates([*loop.body, *loop.step], self.int_locals)
        for name, op, k in facts_when_true(loop.cond, set(env), {}):
            steps = updates.get(name)
            stride = _stride(loop.step, name)
            if steps is None or stride is None:
                continue
            lo, hi = env[name]
            if op in ("<", "<=") and stride > 0 and all(s >= 0 for s in steps) and lo > INT_MIN:
                limit = k if op == "<" else k + 1
                return max(0, -(-(limit - lo) // stride))
            if op in (">", ">=") and stride < 0 and all(s <= 0 for s in steps) and hi < INT_MAX:
                limit = k if op == ">" else k - 1
                return max(0, -(-(hi - limit) // -stride))
        return None

    # ------------------------------------------------------------ expressions

    def expr(self, expr, env: Env) -> tuple[Range | None, int]:
        """The range of an int expression (None for another type) and the steps it spends;
        a check not proven marks the walk unsafe."""
        match expr:
            case ir.Const(value=value, type="int"):
                return (value, value), 0
            case ir.Local(name=name, type="int", checks=checks):
                if checks:
                    self.unsafe = True
                return env.get(name, FULL), 0
            case ir.Local(checks=checks):
                if checks:
                    self.unsafe = True
                return None, 0
            case ir.Const() | ir.Object() | ir.GameVar():
                return (FULL if getattr(expr, "type", None) == "int" else None), 0
            case ir.Element():
                return self.element(expr, env)
            case ir.Board(builtin=builtin, indexes=(x, y)):
                (rx, a), (ry, b) = self.expr(x, env), self.expr(y, env)
                if builtin.name not in _BOARDS or not _within(rx, self.width) or not _within(ry, self.height):
                    self.unsafe = True
                return (FULL if expr.type == "int" else None), a + b
            case ir.CallBuiltin(builtin=builtin, args=args):
                steps = sum(self.expr(arg, env)[1] for arg in args)
                if builtin.name in OPERATIONS:
                    return None, steps + OPERATION_STEPS
                if builtin.name not in _HARMLESS:
                    self.unsafe = True
                    self.bounded = False
                return (FULL if expr.type == "int" else None), steps
            case ir.CallFunction(args=args):
                for arg in args:
                    self.expr(arg, env)
                self.unsafe = True
                self.bounded = False
                return (FULL if expr.type == "int" else None), 0
            case ir.Unary(op="-", operand=operand, type="int"):
                found, steps = self.expr(operand, env)
                lo, hi = found or FULL
                if lo == INT_MIN:
                    self.unsafe = True
                    return FULL, steps
                return (-hi, -lo), steps
            case ir.Unary(operand=operand) | ir.Convert(value=operand):
                steps = self.expr(operand, env)[1]
                if getattr(expr, "checks", ()) or expr.type == "dyn":
                    self.unsafe = True
                return None, steps
            case ir.Logic(left=left, right=right):
                return None, self.expr(left, env)[1] + self.expr(right, env)[1]
            case ir.Binary():
                return self.binary(expr, env)
        self.unsafe = True
        return None, 0

    def element(self, expr: ir.Element, env: Env) -> tuple[Range | None, int]:
        sizes = self.sizes.get(expr.array.name, ())
        steps = 0
        for k, index in enumerate(expr.indexes):
            found, spent = self.expr(index, env)
            steps += spent
            if k >= len(sizes) or not _within(found, sizes[k]):
                self.unsafe = True
        return (FULL if expr.type == "int" else None), steps

    def binary(self, expr: ir.Binary, env: Env) -> tuple[Range | None, int]:
        (a, x), (b, y) = self.expr(expr.left, env), self.expr(expr.right, env)
        steps = x + y
        if expr.type != "int":
            if expr.type == "float" and expr.op in "/%":
                self.unsafe = True   # a float divisor of zero
            return None, steps
        (alo, ahi), (blo, bhi) = a or FULL, b or FULL
        op = expr.op
        if op in "+-*":
            if op == "+":
                lo, hi = alo + blo, ahi + bhi
            elif op == "-":
                lo, hi = alo - bhi, ahi - blo
            else:
                corners = [p * q for p in (alo, ahi) for q in (blo, bhi)]
                lo, hi = min(corners), max(corners)
            if not _fits(lo, hi):
                self.unsafe = True
                return FULL, steps
            return (lo, hi), steps
        if blo <= 0 <= bhi:   # a divisor that may be zero
            self.unsafe = True
            return FULL, steps
        if op == "/":
            if alo == INT_MIN and blo <= -1 <= bhi:
                self.unsafe = True
                return FULL, steps
            corners = [_trunc_div(p, q) for p in (alo, ahi) for q in (blo, bhi)]
            return (min(corners), max(corners)), steps
        largest = max(abs(blo), abs(bhi)) - 1
        if alo >= 0:
            return (0, min(ahi, largest)), steps
        if ahi <= 0:
            return (max(alo, -largest), 0), steps
        return (-largest, largest), steps


def _within(found: Range | None, size: int) -> bool:
    return found is not None and 0 <= found[0] and found[1] < size


def _updates(nodes, int_locals: set[str]) -> dict[str, list[int] | None]:
    """The int locals given a value anywhere in `nodes`: name -> the constants each assignment
    adds (`x = x + 2`, `x = x - 1`), or None when one is anything else (a declaration too)."""
    found: dict[str, list[int] | None] = {}
    for node in ir.walk(nodes):
        if isinstance(node, ir.Declare) and node.name in int_locals:
            found[node.name] = None
        elif isinstance(node, ir.Assign) and isinstance(node.target, ir.Local) and node.target.name in int_locals:
            name = node.target.name
            step = constant_step(name, node.value, {})
            if step is None:
                found[name] = None
            elif found.get(name, []) is not None:
                found[name] = [*found.get(name, []), step]
    return found


def _stride(step, name: str) -> int | None:
    """The constant a loop's step always adds to `name` (a top-level `name = name + k` of it)."""
    for stmt in step:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Local) and stmt.target.name == name:
            k = constant_step(name, stmt.value, {})
            if k:
                return k
    return None
