"""Local arrays whose fill is never read: every element read was written before, in the same call.

A flood fill keeps the points still to visit on a stack, written as the language allows it:

    int stackX[w * h] = 0;
    stackX[0] = x;
    int top = 1;
    while (top > 0) { top = top - 1; int px = stackX[top]; ... stackX[top] = nx; top = top + 1; }

Every read `stackX[top]` is of an element written before, so the 0 the array was filled with is
never seen and a compiled backend may leave the array unfilled (Go's rules fill eight such
stacks of 81 elements for each move, docs/performance.md "Go as written"). The declaration
still counts its elements as steps: only the filling goes.

The proof is a forward dataflow over the function's structured IR. For a one-dimensional local
array A it keeps facts "A[0 .. t-1] written" (level 0) and "A[0 .. t] written" (level 1) about
int locals t, and the length of a written prefix of constant indexes. `A[t] = v` raises a level-0
fact to level 1, `t = t + 1` lowers level 1 to 0 (and drops level 0), `t = t - k` (k >= 1)
raises level 0 to 1, `t = c` holds when the constant prefix covers c, `t = u` copies u's facts;
any other assignment of t drops its facts, A's declaration drops A's. A read `A[t]` needs a
level-1 fact, `A[c]` a constant prefix longer than c. Facts meet at joins by intersection, loops
to a fixpoint. A loop `while (t < N)` (N a constant) left by its test with "A[0 .. t-1]
written" has written all of an array A of at most N elements (kalah's `sow()` copies the 14 pits
into `seeds` so: then any read of A is of a written element). A loop left because the step
budget ran out leaves it part written: there a compiled backend leaves the function, not only
the loop (`exits_whole`), so that no read sees the elements left unwritten (a C compiler may
assume anything of such a read, a bounds test included). An array used other
than by its elements or `sizeOf()` (passed to a function,
which may read it) keeps its fill. An index out of bounds is an error either way (the read is
flagged, its value never used), so the facts need no bounds.
"""
from __future__ import annotations

from gdef_core.lower import ir

# A state: (facts, prefixes, constants). facts: frozenset of (array, local, level); prefixes:
# frozenset of (array, n), "A[0 .. n-1] written"; constants: frozenset of (local, value), the int
# locals known to hold a constant. None: unreachable (after a return, break or continue).
_State = tuple[frozenset, frozenset, frozenset] | None
_START = (frozenset(), frozenset(), frozenset())


def exits_whole(loop: ir.Loop, unfilled: frozenset[str], function: ir.Function) -> bool:
    """Whether leaving `loop` by its test may make one of the `unfilled` arrays of `function`
    written whole (`t < N` with N at least its constant size: the rule above), so that running
    out of steps inside it must leave the function, not only the loop."""
    match loop.cond:
        case ir.Binary(op="<", left=ir.Local(), right=ir.Const(value=int() as n, type="int")):
            return any(isinstance(node, ir.DeclareArray) and node.name in unfilled
                       and isinstance(node.sizes[0], ir.Const) and node.sizes[0].value <= n
                       for node in ir.walk(function.body))
    return False


def unread_fills(function: ir.Function) -> frozenset[str]:
    """The names of the local arrays of `function` declared once, with one dimension and a
    fill, whose every element read reads an element written before it in the same call."""
    declared: dict[str, list[ir.DeclareArray]] = {}
    for node in ir.walk(function.body):
        if isinstance(node, ir.DeclareArray):
            declared.setdefault(node.name, []).append(node)
    candidates = {name for name, decls in declared.items()
                  if len(decls) == 1 and decls[0].fill is not None and len(decls[0].sizes) == 1}
    candidates -= _used_whole(function.body)
    if not candidates:
        return frozenset()
    sizes = {name: declared[name][0].sizes[0].value for name in candidates
             if isinstance(declared[name][0].sizes[0], ir.Const) and declared[name][0].sizes[0].type == "int"}
    flow = _Flow(candidates, sizes)
    flow.block(function.body, _START)
    return frozenset(candidates - flow.unsafe)


def _used_whole(body) -> set[str]:
    """The local arrays used otherwise than as array[...] or in sizeOf()."""
    as_elements = set()
    for node in ir.walk(body):
        if isinstance(node, ir.Element) and isinstance(node.array, ir.Local):
            as_elements.add(id(node.array))
        if isinstance(node, ir.CallBuiltin) and node.builtin.name == "sizeOf":
            as_elements.add(id(node.args[0]))
    return {node.name for node in ir.walk(body)
            if isinstance(node, ir.Local) and node.type.endswith("[]") and id(node) not in as_elements}


def _join(a: _State, b: _State) -> _State:
    if a is None:
        return b
    if b is None:
        return a
    a_facts, b_facts = _spelled_out(a), _spelled_out(b)
    levels = {(arr, t): lvl for arr, t, lvl in b_facts}
    facts = {(arr, t, min(lvl, levels[arr, t])) for arr, t, lvl in a_facts if (arr, t) in levels}
    lengths = dict(b[1])
    prefixes = {(arr, min(n, lengths[arr])) for arr, n in a[1] if arr in lengths}
    return frozenset(facts), frozenset(prefixes), a[2] & b[2]


def _spelled_out(state) -> set:
    """The state's facts with those its constants and prefixes imply (t = 2, A[0 .. 2] written:
    A[0 .. t] written), so that a join keeps what both sides imply."""
    facts = {}
    for arr, t, lvl in state[0]:
        facts[arr, t] = max(lvl, facts.get((arr, t), -1))
    for arr, length in state[1]:
        for t, value in state[2]:
            lvl = 1 if value + 1 <= length else 0 if value <= length else -1
            if lvl > facts.get((arr, t), -1):
                facts[arr, t] = lvl
    return {(arr, t, lvl) for (arr, t), lvl in facts.items()}


def _level(state, array: str, local: str) -> int:
    """The fact known about `array` and `local`: 1 (A[0 .. t] written), 0 (A[0 .. t-1]) or -1."""
    facts, prefixes, constants = state
    level = max((lvl for arr, t, lvl in facts if arr == array and t == local), default=-1)
    value = dict(constants).get(local)
    if value is not None:
        length = dict(prefixes).get(array, 0)
        level = max(level, 1 if value + 1 <= length else 0 if value <= length else -1)
    return level


class _Flow:
    """The dataflow of one function: `unsafe` collects the arrays with a read not proven."""

    def __init__(self, candidates: set[str], sizes: dict[str, int]) -> None:
        self.candidates = candidates
        self.sizes = sizes   # the arrays of a constant size: written whole once a prefix covers it
        self.unsafe: set[str] = set()
        self.loops: list[tuple[list, list]] = []   # each loop's (break states, continue states)

    def block(self, stmts, state: _State) -> _State:
        for stmt in stmts:
            if state is None:
                return None
            state = self.stmt(stmt, state)
        return state

    def stmt(self, stmt, state) -> _State:
        match stmt:
            case ir.DeclareArray(name=name):
                for size in stmt.sizes:
                    self.reads(size, state)
                if stmt.fill is not None:
                    self.reads(stmt.fill, state)
                return (frozenset(f for f in state[0] if f[0] != name),
                        frozenset(p for p in state[1] if p[0] != name) | {(name, 0)}, state[2])
            case ir.Declare(name=name, value=value) | ir.Assign(target=ir.Local(name=name), value=value):
                self.reads(value, state)
                return self.assign_local(name, value, state)
            case ir.Assign(target=ir.Element(array=ir.Local(name=name), indexes=indexes), value=value):
                for index in indexes:
                    self.reads(index, state)
                self.reads(value, state)
                return self.write(name, indexes[0], state) if name in self.candidates else state
            case ir.Assign(target=target, value=value):
                self.reads(target, state)
                self.reads(value, state)
                return state
            case ir.If(cond=cond, then=then, otherwise=otherwise):
                self.reads(cond, state)
                return _join(self.block(then, state), self.block(otherwise, state))
            case ir.Loop():
                return self.loop(stmt, state)
            case ir.Break():
                self.loops[-1][0].append(state)
                return None
            case ir.Continue():
                self.loops[-1][1].append(state)
                return None
            case ir.Return(value=value):
                if value is not None:
                    self.reads(value, state)
                return None
            case ir.Eval(expr=expr):
                self.reads(expr, state)
                return state
            case _:   # Enter, Fail
                return state

    def loop(self, loop: ir.Loop, entry) -> _State:
        head = entry
        while True:
            breaks, continues = [], []
            self.loops.append((breaks, continues))
            if loop.cond is not None:
                self.reads(loop.cond, head)
            after_body = self.block(loop.body, head)
            for state in continues:
                after_body = _join(after_body, state)
            after_step = self.block(loop.step, after_body)
            self.loops.pop()
            new_head = _join(entry, after_step)
            if new_head == head:
                break
            head = new_head
        leave = self.tested_out(loop.cond, head) if loop.cond is not None else None
        for state in breaks:
            leave = _join(leave, state)
        return leave

    def tested_out(self, cond, head) -> _State:
        """The state where the loop's test `cond` ends it: after `t < N` (N a constant), every
        array of at most N elements with "A[0 .. t-1] written" at the head is written whole."""
        match cond:
            case ir.Binary(op="<", left=ir.Local(name=t), right=ir.Const(value=int() as n, type="int")):
                whole = {arr for arr, size in self.sizes.items() if size <= n and _level(head, arr, t) >= 0}
                if whole:
                    prefixes = frozenset({p for p in head[1] if p[0] not in whole}
                                         | {(arr, self.sizes[arr]) for arr in whole})
                    return head[0], prefixes, head[2]
        return head

    def assign_local(self, name: str, value, state) -> _State:
        facts, prefixes, constants = state
        known = dict(constants)
        mine = {(arr, _level(state, arr, name)) for arr in self.candidates}
        kept = {f for f in facts if f[1] != name}
        value_now = None
        match value:
            case ir.Const(value=int() as n, type="int"):
                value_now = n
            case ir.Binary(op="+", left=ir.Local(name=t), right=ir.Const(value=1, type="int")) if t == name:
                kept |= {(arr, name, 0) for arr, lvl in mine if lvl == 1}
                value_now = known[name] + 1 if name in known else None
            case ir.Binary(op="-", left=ir.Local(name=t), right=ir.Const(value=int() as k, type="int")) if (
                    t == name and k >= 1):
                kept |= {(arr, name, 1) for arr, lvl in mine if lvl >= 0}
                value_now = known[name] - k if name in known else None
            case ir.Local(name=other) if other != name:
                kept |= {(arr, name, lvl) for arr, t, lvl in facts if t == other}
                value_now = known.get(other)
        constants = frozenset((t, v) for t, v in constants if t != name)
        if value_now is not None:
            constants |= {(name, value_now)}
        return frozenset(kept), prefixes, constants

    def write(self, name: str, index, state) -> _State:
        facts, prefixes, constants = state
        value = index.value if isinstance(index, ir.Const) and index.type == "int" else None
        if isinstance(index, ir.Local):
            value = dict(constants).get(index.name)
            if _level(state, name, index.name) == 0:
                facts = facts | {(name, index.name, 1)}
        if value is not None and value == dict(prefixes).get(name, 0):
            prefixes = frozenset({p for p in prefixes if p[0] != name} | {(name, value + 1)})
        return facts, prefixes, constants

    def reads(self, expr, state) -> None:
        """Mark the candidate arrays that `expr` reads at an element not proven written."""
        for node in ir.walk([expr]):
            if not (isinstance(node, ir.Element) and isinstance(node.array, ir.Local)
                    and node.array.name in self.candidates):
                continue
            name, index = node.array.name, node.indexes[0]
            if isinstance(index, ir.Const) and index.type == "int" and index.value < dict(state[1]).get(name, 0):
                continue
            if name in self.sizes and dict(state[1]).get(name, 0) >= self.sizes[name]:
                continue   # written whole
            if isinstance(index, ir.Local) and _level(state, name, index.name) == 1:
                continue
            self.unsafe.add(name)
