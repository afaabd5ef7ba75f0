"""Where a random draw may pick a candidate of moves() by rejection, walking one loop nest.

A random playout needs one candidate of moves(), uniform among the legal ones. Amazons'
moves() proposes every (amazon, destination, arrow): hundreds a turn, all ray walks. When the
candidates proposed in one run of an inner loop nest L (one entry) are at most B, a draw may
run moves() with L replaced by "save the locals" (the outer pass: the entries), then pick an
entry and j in [0, B) uniformly, run L alone from the saved locals and take its j-th candidate
on the board, rejecting (and trying again) when L has fewer, or the candidate is illegal. Each
legal move then has the same chance, 1 / (entries x B) a try, because moves() proposes each
candidate once (lower/distinct.py). The C route does this (cnative/emit.py, kernel.c
g_reject_draw) and answers hasLegalMove() from the outer pass and the entries in order, up to
the first legal candidate.

The split (`rejection_split`), when every condition holds:

- moves() proposes each candidate once (distinct.py), makes its candidates alone (the functions
  it calls propose nothing), never writes an array element, makes only constant local arrays
  (lower/tables.py) and has int, obj and bool scalars (the saved locals);
- its operations stand in one block, one after the other, each a statement, right before its
  one addMove(): every candidate is those operations, in that order;
- L is the outermost loop around that block, inside another loop, in which at most one
  operation changes (reads a local L assigns), and that one only in its square (its object a
  constant or a local L never assigns), and L holds a loop of its own: the fewest entries for
  which the board bounds an entry's candidates (they differ in that square alone, so at most
  W x H of them are on the board; 1 when none changes), where walking an entry is cheaper than
  all of them (a nest of one loop costs about what drawing from it does). B is the least of
  W x H, the product of the passes of the loops from L to addMove() (ranges.py's trips, and
  the ray's below), and, where L walks rays from one square (`_fan_bound`), the squares those
  rays can reach: amazons' arrows, 27 on 8 x 8;
- nothing outside L reads a local L assigns, and L holds no `return`: the outer pass, which
  skips L, runs the rest of moves() exactly as a full run does;
- L cannot fail and its steps have a static bound, given the ranges of the locals where it
  starts (ranges.py's interval walk, with the functions it calls walked for their arguments'
  ranges, the onBoard()-style predicates, and one more loop shape bounded: the ray, a loop
  that moves two locals by a direction of two constant tables none of which is (0, 0) and
  whose condition keeps them within ranges, so at most the larger range's length of passes).
  The outer pass charges that bound for each entry instead of running L: within the budget, a
  full run of moves() is too, and it cannot fail where the outer pass did not.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.distinct import distinct_candidates
from gdef_core.lower.facts import FULL, predicates
from gdef_core.lower.inlining import arms
from gdef_core.lower.ranges import Env, RangeWalk
from gdef_core.lower.tables import constant_arrays, constant_locals

_OPERATIONS = frozenset({"addPlace", "addClear"})
_PROPOSING = _OPERATIONS | {"addMove", "addCount"}
# What a function called inside the nest may call: reads that cannot fail and spend no step.
_READS = frozenset({"onTurn", "moveNumber"})
# The longest ray a loop of two locals kept within ranges may be bounded by.
_MAX_SPAN = 1 << 12


@dataclass(frozen=True)
class Split:
    """moves()'s loop nest drawn from (`loop`), the bound on its candidates on the board in one
    entry (`bound`), on the steps of one run of it (`steps`), and the locals an entry saves
    (`scalars`: int, obj and bool; `arrays`: the constant tables, saved as their views)."""
    loop: ir.Loop
    bound: int
    steps: int
    scalars: tuple[str, ...]
    arrays: tuple[str, ...]


def rejection_split(module: ir.Module) -> Split | None:
    """The loop nest of moves() a random draw may pick candidates from by rejection (above), or
    None."""
    moves = module.functions.get("moves")
    if moves is None or moves.recursive or not distinct_candidates(module):
        return None
    others = [module.functions[name] for name in module.graph.reach[Context.MOVES]
              if name != "moves" and name in module.functions]
    if ir.builtins_in(others) & _PROPOSING:
        return None
    tables = constant_locals(moves)
    scalars, arrays = [], []
    for name, kind in moves.locals.items():
        if kind in ("int", "obj", "bool"):
            scalars.append(name)
        elif name in tables and not kind.startswith("float"):   # saved as an int64 view
            arrays.append(name)
        else:
            return None
    nodes = list(ir.walk(moves.body))
    if any(isinstance(node, ir.Assign) and isinstance(node.target, ir.Element) for node in nodes):
        return None
    way = _way_to_move(moves.body, ())
    if way is None:
        return None
    loops, operations = way
    chosen = None
    for depth, loop in enumerate(loops[1:], 1):   # outermost first, inside another loop
        assigned = _assigned([loop])
        changing = [op for op in operations if _reads(op.args, assigned)]
        if len(changing) > 1:
            continue
        if changing and (changing[0].builtin.name == "addPlace" and _reads(changing[0].args[2:], assigned)):
            continue
        chosen = loop, loops[depth:], (module.width * module.height if changing else 1), assigned
        break
    if chosen is None:
        return None
    loop, nest, bound, assigned = chosen
    if len(nest) < 2:   # a nest of one loop: walking it whole costs about what drawing from it does
        return None
    if any(isinstance(node, (ir.Return, ir.DeclareArray, ir.Fail)) for node in ir.walk([loop])):
        return None
    if _reads_outside(moves.body, loop, assigned):
        return None
    walk = _nest_walk(module, moves, loop)
    if walk.found is None:
        return None
    steps = walk.found
    passes = [walk.passes.get(id(inner)) for inner in nest]
    if all(passes):   # the candidates of one run of the nest: at most its loops' passes multiplied
        bound = min(bound, math.prod(passes))
    fan = _fan_bound(loop, walk)
    if fan is not None:
        bound = min(bound, fan)
    return Split(loop, bound, steps, tuple(scalars), tuple(arrays))


def _way_to_move(block, loops: tuple):
    """(the loops around moves()' one addMove(), outermost first; its operations), when the
    operations of moves() are the statements right before that addMove() in its block; else None."""
    found = None
    for at, stmt in enumerate(block):
        inner = []
        if isinstance(stmt, ir.Loop):
            inner = [(stmt.body, (*loops, stmt)), (stmt.step, (*loops, stmt))]
        elif isinstance(stmt, ir.If):
            inner = [(stmt.then, loops), (stmt.otherwise, loops)]
        elif _is_call(stmt, {"addMove"}):
            ops = []
            k = at - 1
            while k >= 0 and _is_call(block[k], _OPERATIONS):
                ops.insert(0, block[k].expr)
                k -= 1
            found = _one(found, (loops, ops))
            continue
        elif any(isinstance(node, ir.CallBuiltin) and node.builtin.name in _PROPOSING for node in ir.walk([stmt])):
            if not _is_call(stmt, _OPERATIONS):
                return None
            continue
        for body, around in inner:
            if any(isinstance(node, ir.CallBuiltin) and node.builtin.name in _PROPOSING for node in ir.walk(body)):
                found = _one(found, _way_to_move(body, around) or (False,))
    if found is None or found == (False,):
        return None
    loops, ops = found
    total = sum(1 for node in ir.walk(block) if isinstance(node, ir.CallBuiltin) and node.builtin.name in _OPERATIONS)
    return (loops, ops) if ops and len(ops) == total else None


def _one(found, new):
    """`new`, the way found, unless one was found before: then (False,), no way (moves() has
    a second addMove())."""
    return new if found is None else (False,)


def _is_call(stmt, names) -> bool:
    return isinstance(stmt, ir.Eval) and isinstance(stmt.expr, ir.CallBuiltin) and stmt.expr.builtin.name in names


def _assigned(nodes) -> set[str]:
    return {node.name if isinstance(node, ir.Declare) else node.target.name
            for node in ir.walk(nodes)
            if isinstance(node, ir.Declare) or isinstance(node, ir.Assign) and isinstance(node.target, ir.Local)}


def _reads(exprs, names: set[str]) -> bool:
    """Whether `exprs` may change where the locals `names` change (they read one, or call)."""
    return any(isinstance(node, ir.Local) and node.name in names or isinstance(node, (ir.CallFunction, ir.CallBuiltin))
               for node in ir.walk(list(exprs)))


def _reads_outside(block, loop: ir.Loop, names: set[str]) -> bool:
    """Whether a statement of `block` outside `loop` reads one of the locals `names`."""
    for stmt in block:
        if stmt is loop:
            continue
        match stmt:
            case ir.Loop():
                if stmt.cond is not None and _local_reads([stmt.cond], names):
                    return True
                if _reads_outside(stmt.body, loop, names) or _reads_outside(stmt.step, loop, names):
                    return True
            case ir.If():
                if _local_reads([stmt.cond], names):
                    return True
                if _reads_outside(stmt.then, loop, names) or _reads_outside(stmt.otherwise, loop, names):
                    return True
            case _:
                if _local_reads([stmt], names):
                    return True
    return False


def _local_reads(nodes, names: set[str]) -> bool:
    return any(isinstance(node, ir.Local) and node.name in names for node in ir.walk(nodes))


def _nest_walk(module: ir.Module, moves: ir.Function, loop: ir.Loop) -> _Walk:
    """moves() walked: `found`, the bound on the steps of one run of `loop` when no check in it
    can fail (else None), `passes` the bound on each loop's passes."""
    functions = module.functions
    tells = predicates(functions, {name: found for name, function in functions.items()
                                   if (found := arms(function)) is not None})
    walk = _Walk(module, tells, loop)
    walk.function(moves, {})
    return walk


class _Walk(RangeWalk):
    """ranges.py's walk, which also walks the functions called (for their arguments' ranges)
    and bounds rays; `found`: the steps' bound of the nest `target`, None when a check in it is
    not proven or its steps are not bounded (or it is never reached)."""

    def __init__(self, module: ir.Module, tells, target: ir.Loop | None, depth: int = 0) -> None:
        arrays = {name: decl.sizes for name, decl in module.game_vars.items() if decl.sizes}
        self.module = module
        self.game_tables = constant_arrays(module)
        super().__init__(arrays, module.width, module.height, tables=self.game_tables, predicates=tells)
        self.tells = tells
        self.target = target
        self.depth = depth
        self.found: int | None = None
        self.visits = 0
        self.in_ray = False
        self.entry: Env | None = None   # the ranges where the nest starts
        # id(ray loop) -> (p, q, the ranges the condition keeps them in, the two tables, the index)
        self.rays: dict[int, tuple] = {}
        self.passes: dict[int, int | None] = {}   # id(loop) -> the most passes it makes, None: unbounded
        self.tables: dict[str, tuple[int, ...]] = {}

    def function(self, function: ir.Function, params: Env):
        self.tables = constant_locals(function)
        return super().function(function, params)

    def loop(self, loop: ir.Loop, env: Env):
        if loop is not self.target:
            return super().loop(loop, env)
        unsafe, bounded = self.unsafe, self.bounded
        self.entry = env
        self.unsafe, self.bounded = False, True
        out, steps = super().loop(loop, env)
        proven = not self.unsafe and self.bounded
        self.visits += 1
        self.found = steps if proven and self.visits == 1 else None
        self.unsafe, self.bounded = unsafe or self.unsafe, bounded and self.bounded
        return out, steps

    def expr(self, expr, env: Env):
        if isinstance(expr, ir.CallBuiltin) and expr.builtin.name == "addMove":
            return None, 0   # spends no step; an entry's at most W x H candidates fit the buffer
        if not isinstance(expr, ir.CallFunction):
            return super().expr(expr, env)
        callee = self.module.functions.get(expr.name)
        found, steps = [], 0
        for arg in expr.args:
            value, spent = self.expr(arg, env)
            found.append(value)
            steps += spent
        if (callee is None or callee.recursive or self.depth > 8 or any(kind.endswith("[]") for _, kind in callee.params)
                or not _reads_only(callee)):
            self.unsafe = True
            self.bounded = False
            return (FULL if expr.type == "int" else None), steps
        params = {param: value for (param, kind), value in zip(callee.params, found) if kind == "int" and value}
        inner = _Walk(self.module, self.tells, None, self.depth + 1)
        _, spent = inner.function(callee, params)
        if inner.unsafe:
            self.unsafe = True
        if spent is None:
            self.bounded = False
            spent = 0
        return (FULL if expr.type == "int" else None), steps + spent

    def stmt(self, stmt, env):
        if isinstance(stmt, ir.Enter) and stmt.depth and self.depth <= 8:
            return env, 1   # a call chain of known depth from moves(), never near the depth limit
        return super().stmt(stmt, env)

    def trips(self, loop: ir.Loop, env: Env) -> int | None:
        found = super().trips(loop, env)
        if found is None and not self.in_ray:
            self.in_ray = True   # the head's ranges without the ray's bound (its locals' are any int there)
            try:
                found = self.ray_trips(loop, env)
            finally:
                self.in_ray = False
        if not self.in_ray:
            known = self.passes.get(id(loop), 0)
            self.passes[id(loop)] = None if found is None or known is None else max(known, found)
        return found

    def ray_trips(self, loop: ir.Loop, env: Env) -> int | None:
        """A ray: every pass moves two int locals by `p = p + T1[i]`, `q = q + T2[i]` (top-level
        statements of the loop, T1 and T2 constant tables with no (0, 0) pair, i and the tables
        unchanged in the loop, p and q assigned nowhere else in it, no `continue` skipping
        them), and the condition keeps p and q within ranges: at most the longer range's
        length of passes (along a direction other than (0, 0) one of them moves each pass)."""
        if loop.cond is None:
            return None
        nodes = [*loop.body, *loop.step]
        assigned = _assigned(nodes)
        moved = []
        for where, stmts in (("body", loop.body), ("step", loop.step)):
            for stmt in stmts:
                step = _table_step(stmt)
                if step is not None:
                    moved.append((where, step))
        if len(moved) != 2:
            return None
        (w1, (p, t1, i1)), (w2, (q, t2, i2)) = moved
        if p == q or i1 != i2 or i1 in assigned or "body" in (w1, w2) and _continues(loop.body):
            return None
        counts = sum(1 for node in ir.walk(nodes) if isinstance(node, (ir.Assign, ir.Declare))
                     and (node.name if isinstance(node, ir.Declare) else getattr(node.target, "name", None)) in (p, q))
        first, second = self.table(t1), self.table(t2)
        if counts != 2 or first is None or second is None or len(first) != len(second):
            return None
        if any(a == 0 and b == 0 for a, b in zip(first, second)):
            return None
        inside = self.assume(loop.cond, True, self.head(loop, env))
        if inside is None:
            return 0
        box_p, box_q = inside[p], inside[q]
        if id(loop) in self.rays:   # another visit: either box
            _, _, known_p, known_q, *_ = self.rays[id(loop)]
            box_p = (min(box_p[0], known_p[0]), max(box_p[1], known_p[1]))
            box_q = (min(box_q[0], known_q[0]), max(box_q[1], known_q[1]))
        self.rays[id(loop)] = (p, q, box_p, box_q, first, second, i1)
        spans = [inside[name][1] - inside[name][0] + 1 for name in (p, q)]
        return max(spans) if max(spans) <= _MAX_SPAN else None

    def table(self, array) -> tuple[int, ...] | None:
        if isinstance(array, ir.Local):
            return self.tables.get(array.name)
        return self.game_tables.get(array.name)


def _table_step(stmt):
    """(p, T, i) of `p = p + T[i]` (T a one-dimensional array, i a local), else None."""
    if not (isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Local)):
        return None
    value = stmt.value
    if not (isinstance(value, ir.Binary) and value.op == "+" and isinstance(value.left, ir.Local)
            and value.left.name == stmt.target.name and isinstance(value.right, ir.Element)
            and len(value.right.indexes) == 1 and isinstance(value.right.indexes[0], ir.Local)):
        return None
    return stmt.target.name, value.right.array, value.right.indexes[0].name


def _continues(body) -> bool:
    """Whether `body` holds a `continue` of its own loop (not of a loop inside)."""
    for stmt in body:
        if isinstance(stmt, ir.Continue):
            return True
        if isinstance(stmt, ir.If) and (_continues(stmt.then) or _continues(stmt.otherwise)):
            return True
    return False


def _reads_only(function: ir.Function) -> bool:
    """Whether `function` only reads: no assignment but to its locals, no array made, no
    built-in but onTurn() and moveNumber() (the functions it calls are walked in turn)."""
    for node in ir.walk(function.body):
        match node:
            case ir.Assign(target=ir.GameVar() | ir.Element()) | ir.DeclareArray():
                return False
            case ir.CallBuiltin(builtin=builtin) if builtin.name not in _READS:
                return False
    return True


def _fan_bound(loop: ir.Loop, walk: _Walk) -> int | None:
    """The candidates of one run of a nest that walks rays from one square, one candidate a
    pass (amazons' arrows: at most 27 on 8 x 8, where the loops' passes give 64), else None.

    The nest: a loop whose counter i takes each value once (ranges.py's trips) and whose body
    declares `p = u + T1[i]`, `q = v + T2[i]` (u and v unchanged in the nest) and then runs a
    ray over (p, q) along (T1[i], T2[i]) (`_Walk.ray_trips`) holding the one addMove(), outside
    any loop of its own. Its k-th pass stands on (u, v) + k (T1[i], T2[i]) inside the ranges
    its condition keeps p and q in, so the candidates are at most, for the worst (u, v) of
    their ranges where the nest starts, the squares of those ranges on the rays from (u, v)
    along every direction of the tables (each direction at most once: i counts)."""
    if walk.entry is None or not walk.passes.get(id(loop)):
        return None
    declared = {}
    rays = []
    for stmt in loop.body:
        step = _declared_step(stmt)
        if step is not None:
            declared[step[0]] = step[1:]
        elif isinstance(stmt, ir.Loop) and id(stmt) in walk.rays:
            rays.append(stmt)
        elif any(isinstance(node, ir.CallBuiltin) and node.builtin.name in _PROPOSING for node in ir.walk([stmt])):
            return None
    if len(rays) != 1:
        return None
    ray = rays[0]
    p, q, box_p, box_q, first, second, index = walk.rays[id(ray)]
    moves = [node for node in ir.walk(ray.body) if isinstance(node, ir.CallBuiltin) and node.builtin.name == "addMove"]
    if len(moves) != 1 or any(isinstance(node, ir.Loop) for node in ir.walk(ray.body)):
        return None
    if p not in declared or q not in declared:
        return None
    (u, t1, i1), (v, t2, i2) = declared[p], declared[q]
    if (i1, i2) != (index, index) or walk.table(t1) != first or walk.table(t2) != second:
        return None
    assigned = _assigned([loop])
    writes = sum(1 for node in ir.walk([loop]) if isinstance(node, (ir.Assign, ir.Declare))
                 and (node.name if isinstance(node, ir.Declare) else getattr(node.target, "name", None)) in (p, q))
    if u in assigned or v in assigned or writes != 4 or not _counts(loop, index):
        return None
    (ulo, uhi), (vlo, vhi) = walk.entry.get(u, (1, 0)), walk.entry.get(v, (1, 0))
    if ulo > uhi or vlo > vhi or (uhi - ulo + 1) * (vhi - vlo + 1) > _MAX_SPAN:
        return None
    span = max(box_p[1] - box_p[0], box_q[1] - box_q[0]) + 1
    if span > _MAX_SPAN:
        return None

    def ray(x: int, y: int, dx: int, dy: int) -> int:
        return sum(1 for k in range(1, span + 1)
                   if box_p[0] <= x + k * dx <= box_p[1] and box_q[0] <= y + k * dy <= box_q[1])

    return max(sum(ray(x, y, dx, dy) for dx, dy in zip(first, second))
               for x in range(ulo, uhi + 1) for y in range(vlo, vhi + 1))


def _declared_step(stmt):
    """(p, u, T, i) of the declaration `p = u + T[i]` (u and i locals, T an array), else None."""
    if not isinstance(stmt, ir.Declare):
        return None
    value = stmt.value
    if not (isinstance(value, ir.Binary) and value.op == "+" and isinstance(value.left, ir.Local)
            and isinstance(value.right, ir.Element) and len(value.right.indexes) == 1
            and isinstance(value.right.indexes[0], ir.Local)):
        return None
    return stmt.name, value.left.name, value.right.array, value.right.indexes[0].name


def _counts(loop: ir.Loop, name: str) -> bool:
    """Whether `name` takes each value at most once in a run of `loop`: its one assignment
    there, a top-level `name = name + k` (k > 0) of the loop's step."""
    writes = [node for node in ir.walk([*loop.body, *loop.step])
              if isinstance(node, ir.Assign) and isinstance(node.target, ir.Local) and node.target.name == name
              or isinstance(node, ir.Declare) and node.name == name]
    step = [stmt for stmt in loop.step if any(stmt is write for write in writes)]
    if len(writes) != 1 or len(step) != 1:
        return False
    value = step[0].value
    return (isinstance(value, ir.Binary) and value.op == "+" and isinstance(value.left, ir.Local)
            and value.left.name == name and isinstance(value.right, ir.Const) and value.right.value > 0)
