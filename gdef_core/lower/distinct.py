"""Whether moves() proposes each candidate at most once, by the shape of its text.

The kernels drop a candidate proposed twice (the Python backend's `dict.fromkeys`): a list of
single operations is stamped square by square on every turn (up to 40% of a game such as
gomoku), a list of longer candidates has each drawn candidate compared with all before it.
Where the text shows that no candidate can repeat, a compiled backend may skip that work: the
list is the same either way.

The shapes recognised: the grid walk (gomoku, hex, Go with its pass), the step and the capture
from a square along a table of directions (clobber, breakthrough), the queen's move and its
arrow (amazons):

    for (int x = 0; x < 8; x = x + 1) {
      for (int y = 0; y < 8; y = y + 1) {
        if (CurrentPosition[x][y] == mine) {
          for (int d = 0; d < 8; d = d + 1) {
            int tx = x + dx[d];
            int ty = y + dy[d];
            while (... CurrentPosition[tx][ty] == empty) {
              addClear(x, y);
              addPlace(tx, ty, mine);
              addMove();
              tx = tx + dx[d];
              ty = ty + dy[d];
            }
          }
        }
      }
    }

1. One candidate per pass: `moves()` holds every `addMove()` and every `addPlace` /
   `addClear` that `moves()` reaches (the functions it calls propose nothing, `addCount()`
   nowhere), and never recurses. The operations all lie in the block of one `addMove()`, from
   the first statement that holds one to the `addMove()`, with no `break`, `continue`,
   `return` or other `addMove()` there: each pass that starts them reaches `addMove()`, so
   every candidate is the operations of one pass. Another `addMove()` may stand outside every
   loop (Go's pass): it proposes the empty candidate at most once, and no other is empty. The
   operations that begin the stretch, one statement each (the prefix), run on every pass and
   in the same places: candidates whose prefixes differ differ. What follows (dots and boxes'
   boxes closed, in `if`s) may vary: it is never used as proof.
2. Every loop around the `addMove()` is told apart by the prefix: two passes in different
   iterations of one run of a loop L (every loop around L in the same iteration) propose some
   prefix operation on different squares, because one of its coordinates or its square is:
   - a counter of L: a local whose only assignment in L is a step `v = v + k` / `v - k` (k a
     constant other than 0) in L's step, or a statement of L's body itself when no `continue`
     of L can skip it; it takes each value once per run of L;
   - `a + e`, `e + a`, `a - e`, `e - a` or `-e` where e is told apart in L and a holds in L
     (made of constants, constant tables and locals assigned nowhere in L), or a local
     declared once, assigned nowhere else and declared on the way from L to the prefix with
     such a value;
   - a ray of direction loop D: the square (tx, ty) declared together on the way inside D as
     `tx = ox + TX[d]`, `ty = oy + TY[d]`, with d a counter of D that changes after the way
     (D's step, or its body after the statement on the way), ox and oy holding in D, TX and TY
     constant tables, and each of tx and ty assigned elsewhere at most once: `tx = tx + TX[d]`
     as a step of one loop R on the way below the declaration (in R's step, or in its body
     when no `break` or `continue` of R is there), ty likewise in the same R and on the same
     side of the way. The square is (ox, oy) + k (TX[d], TY[d]) with k >= 1 (k = 1 without
     R). It tells D apart when no two directions of the tables are positive multiples of each
     other (with R; without, when no two are equal): rays from one origin along such
     directions never meet. It tells R apart when no direction is (0, 0): along one
     direction k grows with each step.

Then the loop told apart decides the square, so no two passes propose the same prefix.
"""
from __future__ import annotations

from math import inf

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.ranges import RangeWalk
from gdef_core.lower.tables import constant_arrays, constant_locals

_OPERATIONS = frozenset({"addPlace", "addClear"})
_PROPOSING = _OPERATIONS | {"addMove", "addCount"}


def distinct_candidates(module: ir.Module) -> bool:
    """Whether every call of `module`'s moves() proposes each candidate at most once (above)."""
    moves = module.functions.get("moves")
    if moves is None or moves.recursive:
        return False
    others = (module.functions[name] for name in module.graph.reach[Context.MOVES]
              if name != "moves" and name in module.functions)
    if ir.builtins_in(others) & _PROPOSING:
        return False
    names = [node.builtin.name for node in ir.walk(moves.body)
             if isinstance(node, ir.CallBuiltin) and node.builtin.name in _PROPOSING]
    ways = list(_ways_to_moves(moves.body, ()))
    looped = [way for way in ways if any(isinstance(block[at], ir.Loop) for block, at in way)]
    if "addCount" in names or not ways or len(ways) > 2 or len(ways) == 2 and len(looped) != 1:
        return False
    way = looped[0] if looped else ways[0]   # the other one, outside every loop: a pass
    start, prefix = _prefix(way[-1], len(names) - len(ways))
    if not prefix:
        return False
    proof = _Proof(module, moves, (*way[:-1], (way[-1][0], start)))   # the way to the prefix
    return all(any(proof.tells_apart(operation, depth) for operation in prefix)
               for depth, (block, at) in enumerate(way) if isinstance(block[at], ir.Loop))


# ------------------------------------------------------------------ the way to addMove()

def _is_add_move(stmt) -> bool:
    return (isinstance(stmt, ir.Eval) and isinstance(stmt.expr, ir.CallBuiltin)
            and stmt.expr.builtin.name == "addMove")


def _operation(stmt) -> ir.CallBuiltin | None:
    if isinstance(stmt, ir.Eval) and isinstance(stmt.expr, ir.CallBuiltin) and stmt.expr.builtin.name in _OPERATIONS:
        return stmt.expr
    return None


def _ways_to_moves(block: tuple, way: tuple):
    """The statements from moves()' body to each `addMove()`: (block, index) for each, the
    outermost first, the `addMove()` last."""
    for index, stmt in enumerate(block):
        here = (*way, (block, index))
        if _is_add_move(stmt):
            yield here
        elif isinstance(stmt, ir.If):
            yield from _ways_to_moves(stmt.then, here)
            yield from _ways_to_moves(stmt.otherwise, here)
        elif isinstance(stmt, ir.Loop):
            yield from _ways_to_moves(stmt.body, here)
            yield from _ways_to_moves(stmt.step, here)


def _prefix(last: tuple[tuple, int], operations: int) -> tuple[int, list[ir.CallBuiltin]]:
    """(the index of the first, the operations that begin every candidate (rule 1)), or [] for
    the operations when they are not all in one stretch that runs to the `addMove()`."""
    block, at = last
    start = next((k for k in range(at) if _holds_operation(block[k])), at)
    stretch = block[start:at]
    nodes = list(ir.walk(stretch))
    if (sum(isinstance(node, ir.CallBuiltin) and node.builtin.name in _OPERATIONS for node in nodes) != operations
            or any(isinstance(node, (ir.Break, ir.Continue, ir.Return)) or _is_add_move(node) for node in nodes)):
        return start, []
    prefix = []
    for stmt in stretch:
        operation = _operation(stmt)
        if operation is None:
            break
        prefix.append(operation)
    return start, prefix


def _holds_operation(stmt) -> bool:
    return any(isinstance(node, ir.CallBuiltin) and node.builtin.name in _OPERATIONS for node in ir.walk((stmt,)))


# ------------------------------------------------------------------ telling loops apart

def _assigned(nodes) -> list:
    """The assignments, declarations and array declarations of locals in `nodes`."""
    return [node for node in ir.walk(nodes)
            if (isinstance(node, ir.Assign) and isinstance(node.target, ir.Local))
            or isinstance(node, (ir.Declare, ir.DeclareArray))]


def _name(node) -> str:
    return node.target.name if isinstance(node, ir.Assign) else node.name


def _continues(body: tuple, leaving=(ir.Continue,)) -> bool:
    """Whether a `continue` (or another of `leaving`) of this loop, not of a loop inside it,
    is in `body`."""
    pending = list(body)
    while pending:
        stmt = pending.pop()
        if isinstance(stmt, leaving):
            return True
        if isinstance(stmt, ir.If):
            pending.extend((*stmt.then, *stmt.otherwise))
    return False


class _Proof:
    """What moves()' text tells about its locals along the way to the `addMove()`."""

    def __init__(self, module: ir.Module, moves: ir.Function, way: tuple):
        self.way = way
        self.module = module
        self.global_tables = constant_arrays(module)
        self.local_tables = constant_locals(moves)
        self.writes: dict[str, list] = {}   # local -> every assignment or declaration of it
        for node in _assigned(moves.body):
            self.writes.setdefault(_name(node), []).append(node)
        self.loops = {depth: block[at] for depth, (block, at) in enumerate(way) if isinstance(block[at], ir.Loop)}
        self.in_loop = {depth: {_name(node) for node in _assigned((loop,))} for depth, loop in self.loops.items()}

    def tells_apart(self, operation: ir.CallBuiltin, depth: int) -> bool:
        x, y = operation.args[0], operation.args[1]
        return self.scalar(x, depth) or self.scalar(y, depth) or self.ray(x, y, depth)

    # a value that differs between iterations of the loop at `depth` (rule 2)
    def scalar(self, expr, depth: int) -> bool:
        match expr:
            case ir.Local(name=name):
                if name in self.counters(depth):
                    return True
                declared = self.declared_on_way(name, below=depth)
                return declared is not None and self.scalar(declared.value, depth)
            case ir.Binary(op="+" | "-", left=left, right=right, type="int"):
                return ((self.scalar(left, depth) and self.holds(right, depth))
                        or (self.holds(left, depth) and self.scalar(right, depth)))
            case ir.Unary(op="-", operand=operand, type="int"):
                return self.scalar(operand, depth)
        return False

    def holds(self, expr, depth: int) -> bool:
        """Whether `expr` has one value through a run of the loop at `depth`."""
        match expr:
            case ir.Const() | ir.Object():
                return True
            case ir.Local(name=name):
                return name not in self.in_loop[depth]
            case ir.Binary(op="+" | "-" | "*", left=left, right=right):
                return self.holds(left, depth) and self.holds(right, depth)
            case ir.Unary(op="-", operand=operand):
                return self.holds(operand, depth)
            case ir.Element(indexes=(index,)) if self.table(expr) is not None:
                return self.holds(index, depth)
        return False

    def table(self, element) -> tuple[int, ...] | None:
        """The elements of the constant one-dimensional table `element` reads, or None."""
        if not (isinstance(element, ir.Element) and len(element.indexes) == 1 and element.type == "int"):
            return None
        array = element.array
        tables = self.local_tables if isinstance(array, ir.Local) else self.global_tables
        return tables.get(array.name)

    def counters(self, depth: int) -> set[str]:
        """The counters of the loop at `depth` (rule 2)."""
        loop = self.loops[depth]
        steps = [*loop.step, *(loop.body if not _continues(loop.body) else ())]
        found = set()
        for stmt in steps:
            name = _step_of(stmt)
            if name is not None and [node for node in _assigned((loop,)) if _name(node) == name] == [stmt]:
                found.add(name)
        return found

    def declared_on_way(self, name: str, below: int) -> ir.Declare | None:
        """The only write of `name` in moves() when it is a declaration on the way, deeper than
        `below` (inside the loop there), else None."""
        writes = self.writes.get(name, [])
        if len(writes) != 1 or not isinstance(writes[0], ir.Declare):
            return None
        for depth in range(below + 1, len(self.way)):
            block, at = self.way[depth]
            if any(stmt is writes[0] for stmt in block[:at]):
                return writes[0]
        return None

    # a square along a table of directions (rule 2, the ray)
    def ray(self, x, y, depth: int) -> bool:
        if self.slide(x, y, depth):
            return True
        rays = [self.ray_of(coordinate) for coordinate in (x, y)]
        if None in rays:
            return False
        (dx, d, dx_loop, dx_at, dx_step), (dy, d2, dy_loop, dy_at, dy_step) = rays
        if d != d2 or dx_loop != dy_loop or dx_at != dy_at or dx_step != dy_step:
            return False   # tx and ty are declared and stepped together: (tx, ty) stays on the ray
        vectors = list(zip(dx, dy))
        if depth == dx_loop:
            if dx_step is None:
                return len(set(vectors)) == len(vectors)
            return not any(_positive_multiples(u, v) for i, u in enumerate(vectors) for v in vectors[i + 1:])
        return dx_step is not None and depth == dx_step[0] and (0, 0) not in vectors

    def slide(self, x, y, depth: int) -> bool:
        """Whether (x, y) is (ox + s * TX[d], oy + s * TY[d]) with d a counter of the loop at
        `depth`, ox and oy holding there, s declared on the way inside it as the result of a
        function that returns at least 1, and no two directions positive multiples."""
        parts = [_scaled(coordinate) for coordinate in (x, y)]
        if None in parts:
            return False
        (ox, sx, ex), (oy, sy, ey) = parts
        tx, ty = self.table(ex), self.table(ey)
        if tx is None or ty is None or sx != sy or not (isinstance(ex.indexes[0], ir.Local)
                                                     and _same(ex.indexes[0], ey.indexes[0])):
            return False
        if ex.indexes[0].name not in self.counters(depth) or not (self.holds(ox, depth) and self.holds(oy, depth)):
            return False
        declared = self.declared_on_way(sx, below=depth)
        if declared is None or not isinstance(declared.value, ir.CallFunction) or self.least(declared.value.name) < 1:
            return False
        vectors = list(zip(tx, ty))
        return not any(_positive_multiples(u, v) for i, u in enumerate(vectors) for v in vectors[i + 1:])

    def least(self, name: str) -> int | float:
        """The least value function `name` can return (lower/ranges.py's walk; -inf unknown)."""
        function = self.module.functions.get(name)
        if function is None or function.result != "int":
            return -inf
        walk = _Results(self.module)
        walk.function(function, {})
        if not walk.results or None in walk.results:
            return -inf
        return min(low for low, _ in walk.results)

    def ray_of(self, coordinate) -> tuple | None:
        """(the table, the direction counter, the depth of its loop D, the depth of the
        declaration, the depth of the loop R that steps it or None) of a ray coordinate."""
        if not isinstance(coordinate, ir.Local):
            return None
        writes = self.writes.get(coordinate.name, [])
        declarations = [node for node in writes if isinstance(node, ir.Declare)]
        if len(declarations) != 1 or len(writes) > 2:
            return None
        declared = declarations[0]
        at = next((depth for depth, (block, index) in enumerate(self.way)
                   if any(stmt is declared for stmt in block[:index])), None)
        value = declared.value
        if at is None or not (isinstance(value, ir.Binary) and value.op == "+"):
            return None
        table = self.table(value.right)
        if table is None or not isinstance(value.right.indexes[0], ir.Local):
            return None
        d = value.right.indexes[0].name
        direction = max((depth for depth in self.loops if depth < at and d in self.counters(depth)), default=None)
        if direction is None or not self.holds(value.left, direction) or not self.changes_after(d, direction):
            return None
        step = None   # (the depth of R, whether the step runs before the way in R's body)
        for write in writes:
            if write is declared:
                continue
            expected = ir.Binary("+", coordinate, value.right, "int")
            if not (isinstance(write, ir.Assign) and _same(write.value, expected)):
                return None
            step = next(((depth, self.before_way(write, depth)) for depth in self.loops
                         if depth >= at and any(stmt is write for stmt in self.step_statements(depth))), None)
            if step is None or step[1] is None:
                return None
        return table, d, direction, at, step

    def step_statements(self, depth: int) -> list:
        """The statements that step a ray once in every iteration of the loop at `depth`:
        its step, and its body's when nothing leaves the iteration early (a `break` between
        x's step and y's would put them out of step for the loop's next run)."""
        loop = self.loops[depth]
        return [*loop.step, *(loop.body if not _continues(loop.body, (ir.Break, ir.Continue)) else ())]

    def before_way(self, stmt, depth: int) -> bool | None:
        """Whether step statement `stmt` of the loop at `depth` runs before the way in each
        iteration (False: after it), or None when the way runs through the loop's step."""
        loop = self.loops[depth]
        block, at = self.way[depth + 1]
        if block is not loop.body:
            return None
        return any(s is stmt for s in loop.body[:at])

    def changes_after(self, name: str, depth: int) -> bool:
        """Whether the step of counter `name` of the loop at `depth` runs after the way."""
        loop = self.loops[depth]
        if any(_step_of(stmt) == name for stmt in loop.step):
            return True
        block, at = self.way[depth + 1]
        return block is loop.body and any(_step_of(stmt) == name for stmt in loop.body[at + 1:])


def _scaled(coordinate) -> tuple | None:
    """(o, the name of s, the element T[d]) of `o + s * T[d]` or `o + T[d] * s`, else None."""
    if not (isinstance(coordinate, ir.Binary) and coordinate.op == "+" and isinstance(coordinate.right, ir.Binary)
            and coordinate.right.op == "*"):
        return None
    left, right = coordinate.right.left, coordinate.right.right
    if isinstance(left, ir.Element):
        left, right = right, left
    if not (isinstance(left, ir.Local) and isinstance(right, ir.Element) and len(right.indexes) == 1):
        return None
    return coordinate.left, left.name, right


class _Results(RangeWalk):
    """A walk of one function (any arguments) that keeps the range of each value it returns."""

    def __init__(self, module: ir.Module):
        arrays = {name: decl.sizes for name, decl in module.game_vars.items() if decl.sizes}
        super().__init__(arrays, module.width, module.height, tables=constant_arrays(module))
        self.results: list = []

    def stmt(self, stmt, env):
        if isinstance(stmt, ir.Return) and stmt.value is not None:
            self.results.append(self.expr(stmt.value, env)[0])
        return super().stmt(stmt, env)


def _step_of(stmt) -> str | None:
    """v for a statement `v = v + k` or `v = v - k` (k an int constant other than 0)."""
    if not (isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Local)):
        return None
    value = stmt.value
    if (isinstance(value, ir.Binary) and value.op in "+-" and isinstance(value.left, ir.Local)
            and value.left.name == stmt.target.name and isinstance(value.right, ir.Const)
            and value.right.type == "int" and value.right.value != 0):
        return stmt.target.name
    return None


def _same(a, b) -> bool:
    """Whether two expressions are the same (their checks and spans aside)."""
    match a, b:
        case ir.Binary(), ir.Binary():
            return a.op == b.op and _same(a.left, b.left) and _same(a.right, b.right)
        case ir.Local(), ir.Local():
            return a.name == b.name
        case ir.Element(), ir.Element():
            return (type(a.array) is type(b.array) and a.array.name == b.array.name
                    and len(a.indexes) == len(b.indexes) and all(map(_same, a.indexes, b.indexes)))
    return False


def _positive_multiples(u: tuple[int, int], v: tuple[int, int]) -> bool:
    """Whether a u = b v for some positive a and b (rays along u and v from one square meet)."""
    cross = u[0] * v[1] - u[1] * v[0]
    dot = u[0] * v[0] + u[1] * v[1]
    return cross == 0 and (dot > 0 or u == v)
