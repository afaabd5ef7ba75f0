"""Interval analysis over the IR: the ranges of a function's int locals at each statement, and
whether any run-time check of a function can fail given the ranges of its arguments.

A walk in statement order keeps one range per int local (an environment); a condition narrows
it on each side (facts.py's facts and `narrow`), the two arms of an `if` are joined, and at a
loop's head a local the loop changes keeps only what its updates preserve (one only ever
increased stays at or above its value on entry: facts.py's counters, made flow-sensitive). The
walk is sound for any function; `RangeWalk.unsafe` says whether some check (G601 division,
G602 overflow, G603 square, G614 index ...) was not proven to hold, and `steps` bounds the steps
a walked body can spend when every loop has a counter bounded by its condition (None else).

The C emitter uses it to know which calls a random draw may skip (lower/skippable.py) and,
through `proven_checks`, to drop the checks proven here: each function walked once with its int
parameters' ranges joined over every call site in the game (a fixed point over the call graph).
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.facts import (FULL, Predicate, constant_step, facts_when_false, facts_when_true, narrow,
                                   predicates, static_int)
from gdef_core.lower.inlining import arms
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS, OPERATION_STEPS
from gdef_core.lower.tables import constant_locals
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
    there; `arguments` (when given) each call of a function with the ranges of its arguments
    (None for one not an int). `tables`: the elements of the game-variable arrays that never
    change (lower/tables.py), whose reads then have the range of their elements. `proven` (when
    given) receives id(node) -> whether its check holds, for each int `+ - * / %` and `-`, array
    element and board read walked (False once one visit does not prove it). After walk():
    `unsafe` (a check not proven), `steps` (a bound, or None)."""

    def __init__(self, sizes: dict[str, tuple[int, ...]], width: int, height: int, calls=None,
                 arguments=None, tables: dict[str, tuple[int, ...]] | None = None,
                 proven: dict[int, bool] | None = None, predicates: dict[str, Predicate] | None = None) -> None:
        self.sizes = dict(sizes)
        self.width = width
        self.height = height
        self.calls = calls
        self.arguments = arguments
        self.proven = proven
        self.predicates = predicates or {}   # facts.predicates(): what a call returning true tells
        self.game_values = {name: (min(v), max(v)) for name, v in (tables or {}).items() if v}
        self.local_values: dict[str, Range] = {}
        self.local_names: set[str] = set()
        self.redeclared: set[str] = set()
        self.unsafe = False
        self.bounded = True
        self.int_locals: set[str] = set()
        self._jumps: list[tuple[list, list]] = []   # per loop: the envs at its breaks and continues

    # ------------------------------------------------------------ entry

    def function(self, function: ir.Function, params: Env) -> tuple[Env | None, int | None]:
        """Walk `function` with its int parameters in `params` (those missing: any int)."""
        self.int_locals = {name for name, kind in function.locals.items() if kind == "int"}
        self.local_names = set(function.locals)
        # a local array's size comes from its declaration alone; one declared twice is never
        # proven (a read walked after the first may run after the second, in a loop)
        declared: dict[str, int] = {}
        for node in ir.walk(function.body):
            if isinstance(node, ir.DeclareArray):
                declared[node.name] = declared.get(node.name, 0) + 1
        self.redeclared = {name for name, count in declared.items() if count > 1}
        for name in declared:
            self.sizes.pop(name, None)
        self.local_values = {name: (min(v), max(v)) for name, v in constant_locals(function).items() if v}
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
            case ir.DeclareArray(name=name, sizes=sizes, rows=rows):
                known = tuple(static_int(size, {}) for size in sizes)
                steps = sum(self.expr(size, env)[1] for size in sizes)
                count = 1
                for k in known:
                    count *= k if k is not None else 0
                # the emitted C makes a bad size 1 element, a listed array its listed shape
                listed = rows is None or known == ((len(rows),) if len(known) == 1 else (len(rows), len(rows[0])))
                if (all(k is not None and 1 <= k for k in known) and count <= MAX_ARRAY_ELEMENTS and listed
                        and name not in self.redeclared):
                    self.sizes[name] = known
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
        # a call that fails returns false in the C route: only a true one tells its body's facts
        facts = (facts_when_true if holds else facts_when_false)(cond, set(env), {}, None, self.predicates,
                                                                 false_calls=False)
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
        # the C route leaves a loop whose pass finds the step budget spent (the run has failed,
        # but what follows the loop still runs until the function's next budget test)
        out = join(out, body_env)
        for other in breaks:
            out = join(out, other)
        trips = self.trips(loop, env)
        if trips is None:
            self.bounded = False
            return out, 0
        return out, trips * (1 + cond_steps + body_steps + step_steps) + cond_steps

    def head(self, loop: ir.Loop, env: Env) -> Env:
        """The ranges at the loop's head on every pass: a local the loop changes only by
        adding constants of one sign keeps its value on entry as a bound, and where the loop's
        passes are bounded and no inner loop changes it, moves at most by what one pass adds
        times the passes (a count of neighbours); any other it changes may hold anything."""
        nodes = [*loop.body, *loop.step]
        out = dict(env)
        trips = self.trips(loop, env)
        outer = _updates([stmt for stmt in _outside_loops(nodes) if isinstance(stmt, (ir.Assign, ir.Declare))],
                         self.int_locals)
        for name, steps in _updates(nodes, self.int_locals).items():
            lo, hi = env[name]
            once = (outer[name] if trips is not None and steps is not None and outer.get(name) is not None
                    and sorted(outer[name]) == sorted(steps) else None)
            if steps is not None and all(s >= 0 for s in steps):
                out[name] = (lo, INT_MAX if once is None else min(INT_MAX, hi + trips * sum(once)))
            elif steps is not None and all(s <= 0 for s in steps):
                out[name] = (INT_MIN if once is None else max(INT_MIN, lo + trips * sum(once)), hi)
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
                self.holds(expr, builtin.name in _BOARDS and _within(rx, self.width) and _within(ry, self.height))
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
                found = [self.expr(arg, env)[0] for arg in args]
                if self.arguments is not None:
                    self.arguments(expr, found)
                self.unsafe = True
                self.bounded = False
                return (FULL if expr.type == "int" else None), 0
            case ir.Unary(op="-", operand=operand, type="int"):
                found, steps = self.expr(operand, env)
                lo, hi = found or FULL
                if not self.holds(expr, lo != INT_MIN):
                    return FULL, steps
                return (-hi, -lo), steps
            case ir.Unary(operand=operand) | ir.Convert(value=operand):
                steps = self.expr(operand, env)[1]
                if getattr(expr, "checks", ()) or expr.type == "dyn":
                    self.unsafe = True
                return None, steps
            case ir.Logic(op=op, left=left, right=right):
                # the right operand runs only when the left one is true (&&) or false (||)
                steps = self.expr(left, env)[1]
                after = self.assume(left, op == "&&", env)
                return None, steps + (self.expr(right, after)[1] if after is not None else 0)
            case ir.Binary():
                return self.binary(expr, env)
        self.unsafe = True
        return None, 0

    def holds(self, node, proven: bool) -> bool:
        """Note whether `node`'s check holds on this visit (unsafe if not); returns `proven`."""
        if not proven:
            self.unsafe = True
        if self.proven is not None:
            self.proven[id(node)] = self.proven.get(id(node), True) and proven
        return proven

    def element(self, expr: ir.Element, env: Env) -> tuple[Range | None, int]:
        name = expr.array.name
        game = isinstance(expr.array, ir.GameVar)
        # a game variable's sizes are not a local's of the same name (a parameter's come in sizes)
        sizes = () if game and name in self.local_names else self.sizes.get(name, ())
        steps = 0
        inside = True
        for k, index in enumerate(expr.indexes):
            found, spent = self.expr(index, env)
            steps += spent
            inside = inside and k < len(sizes) and _within(found, sizes[k])
        self.holds(expr, inside)
        if expr.type != "int":
            return None, steps
        values = (self.game_values.get(name) if game and name not in self.local_names
                  else self.local_values.get(name) if not game else None)
        return values or FULL, steps

    def binary(self, expr: ir.Binary, env: Env) -> tuple[Range | None, int]:
        (a, x), (b, y) = self.expr(expr.left, env), self.expr(expr.right, env)
        steps = x + y
        if expr.type != "int":
            if expr.type == "float" and expr.op in "/%":
                self.unsafe = True   # a float divisor of zero
            return None, steps
        (alo, ahi), (blo, bhi) = a or FULL, b or FULL
        op = expr.op
        unsafe_before = self.unsafe
        if op in "+-*":
            if op == "+":
                lo, hi = alo + blo, ahi + bhi
            elif op == "-":
                lo, hi = alo - bhi, ahi - blo
            else:
                corners = [p * q for p in (alo, ahi) for q in (blo, bhi)]
                lo, hi = min(corners), max(corners)
            if not self.holds(expr, _fits(lo, hi)):
                return FULL, steps
            return (lo, hi), steps
        # a divisor that may be zero fails; INT_MIN / -1 overflows (INT_MIN % -1 is 0 in the
        # language but undefined in C: not proven either, so the helper stays)
        wraps = alo == INT_MIN and blo <= -1 <= bhi
        if not self.holds(expr, not blo <= 0 <= bhi and not wraps):
            if op == "%" and not blo <= 0 <= bhi:
                self.unsafe = unsafe_before   # the language's INT_MIN % -1 cannot fail
            else:
                return FULL, steps
        if op == "/":
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


def _outside_loops(stmts):
    """The statements of `stmts` and of their `if` arms, not those of inner loops: each runs
    at most once in a pass of the loop that holds `stmts`."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, ir.If):
            yield from _outside_loops(stmt.then)
            yield from _outside_loops(stmt.otherwise)


def _stride(step, name: str) -> int | None:
    """The constant a loop's step always adds to `name` (a top-level `name = name + k` of it)."""
    for stmt in step:
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Local) and stmt.target.name == name:
            k = constant_step(name, stmt.value, {})
            if k:
                return k
    return None


def proven_checks(module: ir.Module, functions: dict[str, ir.Function], entries: set[str],
                  tables: dict[str, tuple[int, ...]]) -> set[int]:
    """id() of each node of `functions` whose run-time check (overflow, division, index,
    square) holds on every run: each function is walked with its int parameters' ranges
    joined over every call of it in `functions`, `entries` (called from outside) with any int.
    The ranges are iterated to a fixed point; a function whose arguments still grow after a few
    rounds (a recursion counting up) takes any int instead, which is stable."""
    arrays = {name: decl.sizes for name, decl in module.game_vars.items() if decl.sizes}
    tells = predicates(functions, {name: found for name, function in functions.items()
                                   if (found := arms(function)) is not None})
    called: dict[str, Env | None] = {name: ({} if name in entries else None) for name in functions}
    widened: set[str] = set(entries)
    for round_ in range(_ROUNDS + 2):
        found: dict[str, Env | None] = {name: ({} if name in widened else None) for name in functions}

        def arguments(call: ir.CallFunction, ranges: list[Range | None]) -> None:
            if call.name not in found or call.name in widened:
                return
            params = [param for param, kind in functions[call.name].params]
            at_call = {param: value for param, value in zip(params, ranges) if value is not None}
            before = found[call.name]
            found[call.name] = at_call if before is None else {
                param: (min(before.get(param, FULL)[0], at_call.get(param, FULL)[0]),
                        max(before.get(param, FULL)[1], at_call.get(param, FULL)[1]))
                for param in params}

        for name, function in functions.items():
            if called[name] is not None:
                RangeWalk(arrays, module.width, module.height, arguments=arguments, tables=tables,
                          predicates=tells).function(function, called[name])
        if found == called:
            break
        if round_ >= _ROUNDS:   # still growing: any int from now on
            widened |= {name for name in functions if found[name] != called[name]}
        called = found
    else:
        called = {name: {} for name in functions}
    proven: dict[int, bool] = {}
    for name, function in functions.items():
        if called[name] is not None:
            RangeWalk(arrays, module.width, module.height, tables=tables, proven=proven,
                      predicates=tells).function(
                function, called[name])
    return {key for key, holds in proven.items() if holds}


# Rounds of proven_checks() before a function whose argument ranges still change takes any int.
_ROUNDS = 4
