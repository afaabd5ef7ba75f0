"""A checked Program -> the source of a numba module (helpers, one function per gdef function,
the kernels of native/template.py).

It reads the same AST and uses the same analyses as the Python backend's compiler
(gdef_core/lower: the call graph with its cycles and what each entry point reaches, `for`
locals renamed apart, the limits) and keeps its shape: one generated function per gdef
function, user names prefixed (`u_` functions, `l_` locals), every check of the language
inlined as a call of a small jitted helper. What it cannot compile raises NativeUnsupported
with the construct and its span: that game runs on the Python backend instead.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from gdef_core.builtins import ALIASES, BUILTINS, Context, Kind
from gdef_core.lower import facts, flow, inlining
from gdef_core.lower.calls import call_graph, cycles
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS, OPERATION_STEPS, SEARCH_POOL_FACTOR
from gdef_core.lower.loops import scoped_loop_locals
from gdef_core.lower.values import INT_MAX
from gdef_core.semantics.program import Program
from gdef_core.span import Span
from gdef_core.syntax import ast

from gdef_core.native.template import HELPERS, HISTORY, JUDGE, KERNEL

# Buffer sizes of the kernels: candidate operations and candidates per position. A position
# that needs more makes that game run on the Python backend (the failure path).
CAP_OPS = 1 << 16
CAP_MOVES = 1 << 14
# The legal moves held per level of perft.
PERFT_OPS = 1 << 13
PERFT_MOVES = 1 << 11
# The positions of the game kept for repetitions() and nextBoardSeen(): one that outgrows
# this goes the failure path (replayed in Python).
HISTORY_CAP = 4096
MAX_STAMP_KEYS = 1 << 16
# The state arrays a generated function may use; each function is passed only those it (or
# a function it calls) uses: numba passes every array as a struct of seven words and counts
# its references, so a call with all of them costs more than many function bodies.
# HS: the board before the move and the position history (template.HISTORY).
_CONTEXT = ("B", "OPS", "S", "V", "VF", "SC", "CO", "CS", "HS")
_CTX_ARGS = ", ".join(_CONTEXT)
_CONTEXT_USE = re.compile(r"\b(" + "|".join(_CONTEXT) + r")\b")
_CONTEXT_MARK = re.compile(r"@CTX:(\w*)@")
# The entry points the kernels run (setup() runs in the Python backend, which makes states).
_ENTRIES = tuple(context.value for context in (Context.IS_MOVE_LEGAL, Context.END, Context.MOVES))


class NativeUnsupported(Exception):
    """The game uses something the native backend does not compile."""

    def __init__(self, what: str, span: Span | None = None) -> None:
        super().__init__(f"{span}: {what}" if span is not None else what)
        self.what = what
        self.span = span


class VarSlot(NamedTuple):
    """Where a game variable lives in the kernel's state: `V` (int, bool and obj) or `VF`
    (float), from `offset`, row by row for an array (`sizes` empty for a scalar)."""
    kind: str
    floats: bool
    offset: int
    sizes: tuple
    counter: bool

    @property
    def count(self) -> int:
        return math.prod(self.sizes)


def var_layout(program: Program) -> dict[str, VarSlot]:
    """Every game variable's slot, in declaration order (native/backend.py converts states
    with the same table)."""
    constants = {"boardWidth": program.width, "boardHeight": program.height, "playersNum": program.players}
    layout: dict[str, VarSlot] = {}
    ints = floats = 0
    for name, decl in program.game_vars.items():
        sizes = tuple(facts.static_int(size, constants) for size in decl.sizes or ())
        if None in sizes or any(n < 1 for n in sizes):
            raise NativeUnsupported(f"the sizes of the game variable array '{name}'", decl.span)
        kind = decl.type.name
        slot = VarSlot(kind, kind == "float", floats if kind == "float" else ints, sizes,
                       bool(getattr(decl, "counter", False)))
        layout[name] = slot
        if slot.floats:
            floats += slot.count
        else:
            ints += slot.count
    return layout


class Code:
    __slots__ = ("text", "type", "value", "operands")

    def __init__(self, text: str, type_: str | None, value=None, operands=None) -> None:
        self.text = text
        self.type = type_
        self.value = value  # a compile-time constant (int or bool), else None
        self.operands = operands  # an int + or -: (op, left text, right text), else None


def _int(value: int) -> Code:
    return Code(f"({value})" if value >= 0 else f"({value + 1} - 1)", "int", value)


def _float(value: float) -> Code:
    if math.isnan(value):
        return Code("np.nan", "float")
    if math.isinf(value):
        return Code("np.inf" if value > 0 else "(-np.inf)", "float")
    return Code(f"({value!r})", "float")


class NativeCompiler:
    """One Program -> module source. `objects`: the object names in code order (1, 2, ...)."""

    def __init__(self, program: Program, max_steps: int, max_depth: int) -> None:
        self.program = program
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.objects = {name: i + 1 for i, name in enumerate(program.objects)}
        # only what the kernels run: setup() has run when a state reaches them, and a function
        # nothing calls would only change the module (chess's start positions share one)
        self.graph = call_graph(program)
        run = self.graph.reached_by(Context(entry) for entry in _ENTRIES)
        self.functions = {name: f for name, f in program.functions.items() if name in run}
        self.int_vars: dict[str, int] = {}
        self.float_vars: dict[str, int] = {}
        self.var_types: dict[str, str] = {}
        self.layout = var_layout(program)
        self.var_arrays: dict[str, VarSlot] = {}  # game-variable arrays
        for name, slot in self.layout.items():
            if slot.sizes:
                self.var_arrays[name] = slot
                continue
            self.var_types[name] = slot.kind
            if slot.floats:
                self.float_vars[name] = slot.offset
            else:
                self.int_vars[name] = slot.offset
        self.recursive: frozenset[str] = frozenset()
        self.inlinable: dict = {}
        self.recursion_inlined: set[str] = set()
        self.cacheable = True
        self.int_scores = True  # every setScore value is an int

    def compile(self) -> str:
        functions = self.functions
        for needed in ("isMoveLegal", "end"):
            if needed not in functions:
                raise NativeUnsupported(f"a game without {needed}()")
        used = flow.builtins_used(functions)
        if "isGenerated" in used and "moves" not in functions:
            raise NativeUnsupported("isGenerated() in a game without moves()")
        self.uses_history = bool(used & {"repetitions", "nextBoardSeen"})
        self.recursive = self.graph.recursive & set(functions)
        self.inlinable = inlining.inlinable_functions(functions, self.recursive)
        self.recursion_inlined, self.cacheable = _recursion_inlined(self.graph.restricted(functions))
        # The state beyond the board (template.HISTORY) is kept with slices and views, which
        # need numba's reference counting: then every function keeps it.
        self.allocating = (set(functions) if self.uses_history or "PreviousPosition" in used
                           else _allocating(functions, self.graph))
        compilers = [_FunctionCompiler(self, f) for f in functions.values()]
        blocks = _with_context_args({fc.name: fc.compile() for fc in compilers})

        program = self.program
        constants = (f"W = {program.width}\nH = {program.height}\nP = {program.players}\n"
                     f"NOBJ = {len(self.objects)}\nMAXSTEPS = {self.max_steps}\n"
                     f"MAXDEPTH = {self.max_depth}\nPOOL = {_pool(self.max_steps)}\n"
                     f"OPERATION_STEPS = {OPERATION_STEPS}\nCAP_OPS = {CAP_OPS}\nCAP_MOVES = {CAP_MOVES}\n"
                     f"KEYS = {_stamp_keys(program.width, program.height, len(self.objects))}\n"
                     "TABLE = CAP_MOVES + 1 + KEYS\n"
                     # whether the kernels need numba's reference counting: the rules make arrays
                     # or keep a history
                     f"NRT = {bool(self.allocating & set(_ENTRIES))}\n"
                     f"PERFT_OPS = {PERFT_OPS}\nPERFT_MOVES = {PERFT_MOVES}\n"
                     f"OWN_CANDIDATES = {1 if 'moves' in functions else 0}\n"
                     # (_recursion_inlined: when numba's disk cache can hold the recursion)
                     f"CACHE = {self.cacheable}\n"
                     + "".join(f"CTX_{context.name} = {context.number}\n" for context in Context)
                     + self.history_constants("PreviousPosition" in used))
        if "moves" in functions:
            candidates = ("@njit(cache=CACHE, inline='always')\ndef _candidates(B, S, V, VF, SC, CO, CS, HS):\n"
                          "    e_moves(B, CO[:0], S, V, VF, SC, CO, CS, HS)\n"
                          "    if S[_ST] < 0:\n        S[_ERR] = 1\n"
                          "    if S[_ERR] != 0:\n        return 0\n"
                          "    return _dedupe(CO, CS, S[_NM])\n")
        else:
            candidates = ("@njit(cache=CACHE, inline='always')\ndef _candidates(B, S, V, VF, SC, CO, CS, HS):\n"
                          "    return _automatic(B, S, CO, CS)\n")
        entries = "".join(_entry(name, blocks[name]) for name in _ENTRIES if name in functions)
        # no game name in the text: games with the same rules (chess from other start
        # positions) share one compiled module
        return "\n".join(["# generated by gdef_core.native",
                          constants, HELPERS, HISTORY, self.key_row(), *blocks.values(), entries, KERNEL,
                          candidates, JUDGE])

    def key_fields(self) -> int:
        """How many values a position's key holds after the board and the player."""
        return sum(slot.count for slot in self.layout.values() if not slot.counter)

    def history_constants(self, uses_previous: bool) -> str:
        """The offsets of HS (template.HISTORY) for this game; a game without a history
        keeps only the board before the move, when it reads PreviousPosition."""
        nb = self.program.width * self.program.height
        keylen = nb + 1 + self.key_fields()
        cap = HISTORY_CAP if self.uses_history else 0
        tsize = 16
        while tsize < 2 * cap:
            tsize *= 2
        at = 8
        offsets = {}
        for name, size in (("H_PREV", nb), ("H_KEY", keylen), ("H_PT", tsize), ("H_BT", tsize),
                           ("H_EH", cap), ("H_EB", cap), ("H_EK", cap), ("H_ROWS", cap * keylen)):
            offsets[name] = at
            at += size
        lines = [f"USES_HISTORY = {self.uses_history}", f"USES_PREVIOUS = {uses_previous}", f"NB = {nb}",
                 f"KEYLEN = {keylen}", f"HCAP = {cap}", f"TSIZE = {tsize}", f"TMASK = {tsize - 1}",
                 *(f"{name} = {value}" for name, value in offsets.items()), f"HSIZE = {at}"]
        return "".join(line + "\n" for line in lines)

    def key_row(self) -> str:
        """_key_row(): a position's key into HS from `at` (history.py's key: the board, the
        player to move, the game variables not declared `counter`, in declaration order)."""
        lines = ["@njit(cache=CACHE)", "def _key_row(B, p, V, VF, HS, at):",
                 "    HS[at:at + NB] = B", "    HS[at + NB] = p"]
        k = 1
        for slot in self.layout.values():
            if slot.counter:
                continue
            n = slot.count
            if slot.floats:
                lines.append(f"    for e in range({n}):")
                lines.append(f"        HS[at + NB + {k} + e] = _fbits(HS, VF[{slot.offset} + e])")
            else:
                lines.append(f"    HS[at + NB + {k}:at + NB + {k + n}] = V[{slot.offset}:{slot.offset + n}]")
            k += n
        return "\n".join(lines) + "\n"


def _with_context_args(blocks: dict[str, str]) -> dict[str, str]:
    """Each function's source with its context parameters and those of its calls filled in
    (the @CTX:name@ marks): the state arrays it uses itself or through its callees."""
    uses = {name: set(_CONTEXT_USE.findall(_CONTEXT_MARK.sub("", text))) for name, text in blocks.items()}
    calls = {name: set(_CONTEXT_MARK.findall(text)) - {""} for name, text in blocks.items()}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            before = len(uses[name])
            for callee in callees:
                uses[name] |= uses[callee]
            changed |= len(uses[name]) != before
    args = {name: ", ".join(c for c in _CONTEXT if c in used) for name, used in uses.items()}

    def fill(text: str, own: str) -> str:
        return _CONTEXT_MARK.sub(lambda m: args[m.group(1) or own], text)
    return {name: fill(text, name) for name, text in blocks.items()}


def _entry(name: str, block: str) -> str:
    """e_NAME(every context array): what the kernels call; inlined, so the arrays u_NAME does
    not take cost nothing."""
    own = re.search(rf"def u_{name}\(([^)]*)\)", block).group(1)
    context = ", ".join(arg for arg in own.split(", ") if arg in _CONTEXT)
    return (f"@njit(cache=CACHE, inline='always')\ndef e_{name}({_CTX_ARGS}):\n"
            f"    return u_{name}({context}, 1)\n\n")


def _allocating(functions: dict, graph) -> set[str]:
    """The functions that make arrays (local array declarations), themselves or through the
    functions they call."""
    makers = {name for name, f in functions.items()
              if any(isinstance(node, ast.VarDecl) and node.sizes for node in ast.walk(f.body))}
    return {name for name in functions if graph.reachable(name) & makers}


def _stamp_keys(width: int, height: int, objects: int) -> int:
    """The single operations (a place of each object or a clear on each square) when few
    enough to keep a stamp each for removing duplicate candidates (template._dedupe)."""
    keys = width * height * (objects + 2)
    return keys if keys <= MAX_STAMP_KEYS else 0


def _pool(max_steps: int) -> int:
    return SEARCH_POOL_FACTOR * max_steps


class _FunctionCompiler:
    def __init__(self, compiler: NativeCompiler, function: ast.FunctionDef) -> None:
        self.c = compiler
        self.function = function = scoped_loop_locals(function)
        self.name = function.name.text
        self.types: dict[str, str] = {p.name.text: p.type.name + "[]" * p.rank for p in function.params}
        for node in ast.walk(function.body):
            if isinstance(node, ast.VarDecl):
                kind = node.type.name + "[]" * len(node.sizes)
                if self.types.setdefault(node.name.text, kind) != kind:
                    raise NativeUnsupported(f"'{node.name.text}' declared with two types", node.span)
        if flow.maybe_unset_reads(function, set(self.types)):
            raise NativeUnsupported("a local read before its declaration may have run", function.name.span)
        self.recursive = self.name in compiler.recursive
        self.lines: list[str] = []
        self.loops: list = []
        self.temps = 0
        self.give_up = "return"

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def compile(self) -> str:
        f = self.function
        params = ", ".join(["@CTX:@", "_d", *(f"l_{p.name.text}" for p in f.params)])
        # The functions the Python backend inlines (lower/inlining.py: small if/return
        # chains such as markOf) numba inlines too: no call with the state arrays as
        # arguments. Inlining every function costs several times the compile time.
        # So are the entry points, each into the one kernel function that calls it.
        inline = (self.name in self.c.inlinable or self.name in self.c.recursion_inlined
                  or (self.name in _ENTRIES and not self.recursive))
        if inline:
            self.emit(0, "@njit(cache=CACHE, inline='always')")
        elif self.name in self.c.allocating:
            self.emit(0, "@njit(cache=CACHE)")  # makes arrays: numba's reference counting
        else:
            # Without numba's reference counting (nothing it runs makes an array, and numba
            # compiles callees with their caller's options): a counted call costs an atomic
            # increment and decrement per array argument, and keeps LLVM from inlining small
            # functions. Connect four: 1.5x.
            self.emit(0, "@njit(cache=CACHE, _nrt=False)")
        self.emit(0, f"def u_{self.name}({params}):")
        result = f.return_type.name if f.return_type is not None else None
        self.give_up = give_up = f"return {_zero(result)}" if result else "return"
        # Generated code never raises (template._bad): a function that calls others stops when
        # the steps are spent, as the Python backend checks them there (a call tree can grow
        # exponentially without loops); the others only count theirs.
        if self.recursive or self.c.graph.calls_not_inlined(self.name, self.c.inlinable):
            self.emit(1, "if _spent(S):")
            self.emit(2, give_up)
        else:
            self.emit(1, "_limit(S)")
        if self.recursive:
            # Also the return that tells numba's type inference the result type before any
            # recursive call: mutual recursion is typed from it.
            self.emit(1, "if _d > MAXDEPTH:")
            self.emit(2, "_bad(S)")
            self.emit(2, give_up)
        self.block(f.body.stmts, 1)
        if f.return_type is not None and flow.completes(f):
            self.emit(1, "_bad(S)  # reached its end without returning a value")
            self.emit(1, f"return {_zero(f.return_type.name)}")
        return "\n".join(self.lines) + "\n"

    # ------------------------------------------------------------ statements

    def block(self, stmts, indent: int) -> None:
        start = len(self.lines)
        for stmt in stmts:
            self.stmt(stmt, indent)
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def stmt(self, stmt, indent: int) -> None:
        match stmt:
            case ast.VarDecl(sizes=sizes) if sizes:
                self.declare_array(stmt, indent)
            case ast.VarDecl(type=type_ref, name=name, init=init):
                self.set_local(name.text, self.coerce(self.expr(init), type_ref.name, init.span), indent)
            case ast.Assign(target=ast.NameRef(name=name), value=value):
                self.assign(name, value, indent)
            case ast.Assign(target=ast.Index() as target, value=value):
                self.assign_element(target, value, indent)
            case ast.For(init=init, cond=cond, step=step, body=body):
                if init is not None:
                    self.stmt(init, indent)
                self.loop(cond, body, indent, step)
            case ast.While(cond=cond, body=body):
                self.loop(cond, body, indent, None)
            case ast.Break():
                self.emit(indent, "break")
            case ast.Continue():
                step = self.loops[-1] if self.loops else None
                if step is not None:
                    self.stmt(step, indent)
                self.emit(indent, "continue")
            case ast.ExprStmt(expr=expr):
                code = self.expr(expr)
                if code.value is None:
                    self.emit(indent, code.text)
            case ast.Return(value=None):
                self.emit(indent, "return")
            case ast.Return(value=value):
                result = self.function.return_type
                if result is None:
                    raise NativeUnsupported("a value returned from a function without a result", stmt.span)
                self.emit(indent, f"return {self.coerce(self.expr(value), result.name, value.span).text}")
            case ast.If():
                self.if_chain(stmt, indent)
            case ast.Block(stmts=stmts):
                for inner in stmts:
                    self.stmt(inner, indent)
            case _:
                raise NativeUnsupported(f"the statement {type(stmt).__name__}", stmt.span)

    def if_chain(self, stmt: ast.If, indent: int) -> None:
        self.emit(indent, f"if {self.condition(stmt.cond).text}:")
        self.block(stmt.then.stmts, indent + 1)
        otherwise = stmt.otherwise
        if otherwise is None:
            return
        self.emit(indent, "else:")
        if isinstance(otherwise, ast.If):
            self.if_chain(otherwise, indent + 1)
        else:
            self.block(otherwise.stmts, indent + 1)

    def loop(self, cond, body: ast.Block, indent: int, step) -> None:
        test = self.condition(cond).text if cond is not None else "True"
        self.emit(indent, f"while {test}:")
        self.emit(indent + 1, "if _spent(S):")
        self.emit(indent + 2, "break")
        self.loops.append(step)
        self.block([*body.stmts, *([step] if step is not None else [])], indent + 1)
        self.loops.pop()

    def assign(self, name: ast.Name, value, indent: int) -> None:
        text = name.text
        if text in self.types:
            self.set_local(text, self.coerce(self.expr(value), self.types[text], value.span), indent)
            return
        kind = self.c.var_types.get(text)
        if kind is None:
            raise NativeUnsupported(f"an assignment to '{text}'", name.span)
        self.emit(indent, "if _writable(S):")
        code = self.coerce(self.expr(value), kind, value.span)
        if kind == "float":
            self.emit(indent + 1, f"VF[{self.c.float_vars[text]}] = {code.text}")
        elif kind == "bool":
            self.emit(indent + 1, f"V[{self.c.int_vars[text]}] = 1 if {code.text} else 0")
        else:
            self.emit(indent + 1, f"V[{self.c.int_vars[text]}] = {code.text}")

    def set_local(self, name: str, code: Code, indent: int) -> None:
        """`name = a + b` (or -) is written as statements that return at once on an overflow,
        instead of _add's flag-and-go-on: then LLVM knows the sum did not wrap on the path
        that goes on, which lets it reason about loop counters and indices (Go's moves():
        2.2x)."""
        if code.operands is None:
            self.emit(indent, f"l_{name} = {code.text}")
            return
        op, a, b = code.operands
        helper = "add" if op == "+" else "sub"
        ta, tb, r = self.temp(), self.temp(), self.temp()
        self.emit(indent, f"{ta} = {a}")
        self.emit(indent, f"{tb} = {b}")
        self.emit(indent, f"{r} = _wrapping_{helper}({ta}, {tb})")
        self.emit(indent, f"if _{helper}_wrapped({ta}, {tb}, {r}):")
        self.emit(indent + 1, "_bad(S)")
        self.emit(indent + 1, self.give_up)
        self.emit(indent, f"l_{name} = {r}")

    # ------------------------------------------------------------ arrays

    def declare_array(self, stmt: ast.VarDecl, indent: int) -> None:
        element = stmt.type.name
        sizes = []
        for size in stmt.sizes:
            t = self.temp()
            self.emit(indent, f"{t} = {self.coerce(self.expr(size), 'int', size.span).text}")
            sizes.append(t)
        count = " * ".join(sizes)
        # Each size is tested first, so that their product cannot overflow; a bad size is
        # flagged (template._bad) and the array made with one element, which every index
        # test then keeps to.
        self.emit(indent, f"if {' or '.join(f'{s} < 1 or {s} > {MAX_ARRAY_ELEMENTS}' for s in sizes)}"
                          f" or {count} > {MAX_ARRAY_ELEMENTS}:")
        self.emit(indent + 1, "_bad(S)")
        for s in sizes:
            self.emit(indent + 1, f"{s} = 1")
        self.emit(indent, f"_steps(S, {count})")
        dtype = _DTYPES[element]
        shape = f"({', '.join(sizes)},)"
        name = f"l_{stmt.name.text}"
        init = stmt.init
        if isinstance(init, ast.ArrayInit):
            rows = [item.items if isinstance(item, ast.ArrayInit) else None for item in init.items]
            listed = (len(init.items),) if len(sizes) == 1 else (len(init.items), len(rows[0] or ()))
            self.emit(indent, f"if {' or '.join(f'{s} != {n}' for s, n in zip(sizes, listed))}:")
            self.emit(indent + 1, "_bad(S)")
            # made with the listed shape, so that writing the listed elements stays inside
            self.emit(indent, f"{name} = np.empty(({', '.join(map(str, listed))},), {dtype})")
            if len(sizes) == 1:
                for i, item in enumerate(init.items):
                    self.emit(indent, f"{name}[{i}] = {self.coerce(self.expr(item), element, item.span).text}")
            else:
                for i, row in enumerate(rows):
                    for j, item in enumerate(row or ()):
                        self.emit(indent, f"{name}[{i}, {j}] = {self.coerce(self.expr(item), element, item.span).text}")
            return
        fill = self.coerce(self.expr(init), element, init.span)
        self.emit(indent, f"{name} = np.full({shape}, {fill.text}, {dtype})")

    def array_of(self, name: str) -> Code | None:
        kind = self.types.get(name)
        if kind is not None and kind.endswith("[]"):
            return Code(f"l_{name}", kind)
        return None

    def indexes(self, array: Code, nodes: list) -> list[str]:
        out = []
        for dim, node in enumerate(nodes):
            i = self.coerce(self.expr(node), "int", node.span)
            out.append(f"_ix(S, {i.text}, {array.text}.shape[{dim}])")
        return out

    def game_element(self, slot: VarSlot, nodes: list, indent: int | None = None) -> str:
        """The store's index of a game-variable array's element `a[i]` / `a[i][j]`, each
        index checked against its size; with `indent`, the indexes are evaluated into
        temporaries first (an assignment evaluates them before its value)."""
        parts = []
        for node, size in zip(nodes, slot.sizes):
            text = f"_ix(S, {self.coerce(self.expr(node), 'int', node.span).text}, {size})"
            if indent is not None:
                t = self.temp()
                self.emit(indent, f"{t} = {text}")
                text = t
            parts.append(text)
        if len(parts) == 1:
            return f"{slot.offset} + {parts[0]}"
        return f"{slot.offset} + {parts[0]} * {slot.sizes[1]} + {parts[1]}"

    def game_array_read(self, slot: VarSlot, nodes: list) -> Code:
        at = self.game_element(slot, nodes)
        if slot.floats:
            return Code(f"VF[{at}]", "float")
        if slot.kind == "bool":
            return Code(f"(V[{at}] != 0)", "bool")
        return Code(f"V[{at}]", slot.kind)

    def game_array_view(self, name: str, slot: VarSlot, span: Span) -> Code:
        """A game-variable array passed to a function: a view of its elements in the store
        (arrays are passed by reference)."""
        if slot.kind == "bool":
            raise NativeUnsupported(f"the bool game-variable array '{name}' passed as an argument", span)
        store = "VF" if slot.floats else "V"
        text = f"{store}[{slot.offset}:{slot.offset + slot.count}]"
        if len(slot.sizes) == 2:
            text = f"{text}.reshape(({slot.sizes[0]}, {slot.sizes[1]}))"
        return Code(text, slot.kind + "[]" * len(slot.sizes))

    def assign_element(self, target: ast.Index, value, indent: int) -> None:
        slot = self.c.var_arrays.get(target.base.text)
        if slot is not None:
            self.emit(indent, "if _writable(S):")
            inner = indent + 1
            at = self.game_element(slot, target.indexes, inner)
            code = self.coerce(self.expr(value), slot.kind, value.span)
            if slot.floats:
                self.emit(inner, f"VF[{at}] = {code.text}")
            elif slot.kind == "bool":
                self.emit(inner, f"V[{at}] = 1 if {code.text} else 0")
            else:
                self.emit(inner, f"V[{at}] = {code.text}")
            return
        array = self.array_of(target.base.text)
        if array is None:
            raise NativeUnsupported(f"an element assignment to '{target.base.text}'", target.span)
        uses = []
        for text in self.indexes(array, target.indexes):
            t = self.temp()
            self.emit(indent, f"{t} = {text}")
            uses.append(t)
        code = self.coerce(self.expr(value), array.type.split("[", 1)[0], value.span)
        self.emit(indent, f"{array.text}[{', '.join(uses)}] = {code.text}")

    # ------------------------------------------------------------ expressions

    def condition(self, expr) -> Code:
        return self.coerce(self.expr(expr), "bool", expr.span)

    def coerce(self, code: Code, want: str, span: Span) -> Code:
        if code.type == want:
            return code
        if code.type == "int" and want == "float":
            return Code(f"float({code.text})", "float")
        if code.type == "dyn" and want in ("int", "float", "obj", "bool"):  # checked at run time
            if want == "float":
                return Code(f"float(_dyn_int(S, {code.text}))", "float")
            return Code(f"_dyn_{want}(S, {code.text})", want)
        raise NativeUnsupported(f"a {code.type} value where {want} is needed", span)

    def expr(self, expr) -> Code:
        match expr:
            case ast.IntLit(value=value):
                if value > INT_MAX:
                    raise NativeUnsupported("an integer literal out of range", expr.span)
                return _int(value)
            case ast.FloatLit(value=value):
                return _float(float(value))
            case ast.BoolLit(value=value):
                return Code(repr(bool(value)), "bool", bool(value))
            case ast.NameRef():
                return self.name_ref(expr)
            case ast.Call():
                return self.call(expr)
            case ast.Index(base=base, indexes=indexes):
                array = self.array_of(base.text)
                if array is not None:
                    element = array.type.split("[", 1)[0]
                    return Code(f"{array.text}[{', '.join(self.indexes(array, indexes))}]", element)
                slot = self.c.var_arrays.get(base.text)
                if slot is not None:
                    return self.game_array_read(slot, indexes)
                return self.board_builtin(expr)
            case ast.Unary(op="!", operand=operand):
                return Code(f"(not {self.condition(operand).text})", "bool")
            case ast.Unary(op="-", operand=operand):
                if isinstance(operand, ast.IntLit) and operand.value <= INT_MAX + 1:
                    return _int(-operand.value)
                value = self.expr(operand)
                if value.type == "dyn":
                    value = self.coerce(value, "int", expr.span)
                if value.type == "int":
                    return Code(f"_neg(S, {value.text})", "int")
                if value.type == "float":
                    return Code(f"(-{value.text})", "float")
                raise NativeUnsupported(f"negating a {value.type}", expr.span)
            case ast.Binary():
                return self.binary(expr)
        raise NativeUnsupported(f"the expression {type(expr).__name__}", expr.span)

    def name_ref(self, expr: ast.NameRef) -> Code:
        text = expr.name.text
        if text in self.types:
            return Code(f"l_{text}", self.types[text])
        kind = self.c.var_types.get(text)
        if kind == "float":
            return Code(f"VF[{self.c.float_vars[text]}]", "float")
        if kind == "bool":
            return Code(f"(V[{self.c.int_vars[text]}] != 0)", "bool")
        if kind is not None:
            return Code(f"V[{self.c.int_vars[text]}]", kind)
        slot = self.c.var_arrays.get(text)
        if slot is not None:
            return self.game_array_view(text, slot, expr.span)
        if text in self.c.objects:
            return Code(f"({self.c.objects[text]})", "obj")
        name = ALIASES.get(text, text)
        builtin = BUILTINS.get(name)
        if builtin is not None and builtin.kind is Kind.VALUE:
            return self.value_builtin(name, expr)
        raise NativeUnsupported(f"the name '{text}'", expr.span)

    def value_builtin(self, name: str, expr) -> Code:
        program = self.c.program
        values = {"empty": Code("(0)", "obj"), "boardWidth": _int(program.width),
                  "boardHeight": _int(program.height), "playersNum": _int(program.players)}
        if name in values:
            return values[name]
        raise NativeUnsupported(f"the built-in {name}", expr.span)

    def board_builtin(self, expr: ast.Index) -> Code:
        name = ALIASES.get(expr.base.text, expr.base.text)
        if len(expr.indexes) != 2:
            raise NativeUnsupported(f"'{name}' indexed this way", expr.span)
        a, b = (self.coerce(self.expr(i), "int", i.span) for i in expr.indexes)
        if name == "CurrentPosition":
            return Code(f"B[_sq(S, {a.text}, {b.text})]", "obj")
        if name == "NextPosition":
            return Code(f"_nread(B, OPS, S, {a.text}, {b.text})", "obj")
        if name == "PreviousPosition":
            return Code(f"_pread(B, S, HS, {a.text}, {b.text})", "obj")
        if name == "OperationList":
            if b.value not in (0, 1, 2):  # an int or an obj, known only at run time
                return Code(f"_opdyn(OPS, S, {a.text}, {b.text})", "dyn")
            return Code(f"_opf(OPS, S, {a.text}, {b.value})", "obj" if b.value == 2 else "int")
        raise NativeUnsupported(f"'{name}' indexed", expr.span)

    def call(self, call: ast.Call) -> Code:
        name = call.callee.text
        function = self.c.functions.get(name)
        if function is not None:
            depth = "_d + 1" if self.recursive else "_d"
            args = [self.coerce(self.expr(arg), p.type.name + "[]" * p.rank, arg.span).text
                    for arg, p in zip(call.args, function.params)]
            if name in self.c.recursive:
                # numba compiles a function apart for each literal argument: a recursive call
                # with other argument types than the outer one is one its cache cannot hold
                # (_recursion_inlined)
                depth = f"np.int64({depth})"
                args = [arg if p.rank else f"{_DTYPES[p.type.name]}({arg})"
                        for arg, p in zip(args, function.params)]
            result = function.return_type.name if function.return_type else None
            return Code(f"u_{name}({', '.join([f'@CTX:{name}@', depth, *args])})", result)
        builtin = BUILTINS.get(name)
        if builtin is None:
            raise NativeUnsupported(f"the call of '{name}'", call.span)
        if name == "sizeOf" and isinstance(call.args[0], ast.NameRef) and call.args[0].name.text in self.c.var_arrays:
            return self.game_array_size(self.c.var_arrays[call.args[0].name.text], call)
        args = [self.expr(arg) for arg in call.args]
        texts = [self.coerce(arg, param.type, call.span).text if param.type in ("int", "float", "bool", "obj")
                 else arg.text for arg, param in zip(args, builtin.params)]
        simple = {"operationsNum": Code("S[7]", "int"), "onTurn": Code("S[0]", "int"),
                  "moveNumber": Code("S[1]", "int"), "addMove": Code("_add_move(S, CS)", None),
                  "hasLegalMove": Code(f"{'_has_legal_move_seen' if self.c.uses_history else '_has_legal_move'}"
                                       "(B, S, V, VF, SC, CO, CS, HS)", "bool"),
                  "repetitions": Code("_repetitions(B, S, V, VF, HS)", "int"),
                  "nextBoardSeen": Code("_board_seen(B, OPS, S, HS)", "bool"),
                  "isGenerated": Code("_is_generated(S)", "bool")}
        if name in simple:
            return simple[name]
        if name in ("boardWidth", "boardHeight", "playersNum"):
            return self.value_builtin(name, call)
        if name == "isPlaceOperation":
            return Code(f"(_opf(OPS, S, {texts[0]}, 3) != 0)", "bool")
        if name == "setWinner":
            return Code(f"_set_winner(S, {texts[0]})", None)
        if name == "setNextPlayer":
            return Code(f"_set_next(S, {texts[0]})", None)
        if name == "addPlace":
            return Code(f"_add_op(S, CO, {texts[0]}, {texts[1]}, {texts[2]}, 1)", None)
        if name == "addClear":
            return Code(f"_add_op(S, CO, {texts[0]}, {texts[1]}, 0, 0)", None)
        if name == "setScore":
            value = args[1]
            if value.type == "float":
                self.c.int_scores = False
            elif value.type != "int":
                raise NativeUnsupported("setScore with a value known only at run time", call.span)
            return Code(f"_set_score(S, SC, {texts[0]}, float({value.text}))", None)
        if name == "sizeOf":
            array, dimension = args
            if dimension.value is None or not (array.type or "").endswith("[]"):
                raise NativeUnsupported("sizeOf with a computed dimension", call.span)
            if not 0 <= dimension.value < array.type.count("[]"):
                return Code(f"_ix(S, {dimension.value}, 0)", "int")  # fails as the Python backend does
            return Code(f"{array.text}.shape[{dimension.value}]", "int")
        raise NativeUnsupported(f"the built-in {name}()", call.span)

    def game_array_size(self, slot: VarSlot, call: ast.Call) -> Code:
        """sizeOf() of a game-variable array: its sizes are constants (spec 15.1)."""
        dimension = self.expr(call.args[1])
        if dimension.value is None:
            raise NativeUnsupported("sizeOf with a computed dimension", call.span)
        if not 0 <= dimension.value < len(slot.sizes):
            return Code(f"_ix(S, {dimension.value}, 0)", "int")  # fails as the Python backend does
        return _int(slot.sizes[dimension.value])

    def binary(self, expr: ast.Binary) -> Code:
        op = expr.op
        if op in ("&&", "||"):
            left = self.condition(expr.left)
            right = self.condition(expr.right)
            return Code(f"({left.text} {'and' if op == '&&' else 'or'} {right.text})", "bool")
        left, right = self.expr(expr.left), self.expr(expr.right)
        if "dyn" in (left.type, right.type):
            left, right = self.dynamic(op, left, right, expr)
        if op in ("==", "!="):
            if left.type == right.type and left.type in ("obj", "bool"):
                return Code(f"({left.text} {op} {right.text})", "bool")
            a, b = self.numbers(left, right, expr)
            return Code(f"({a.text} {op} {b.text})", "bool")
        a, b = self.numbers(left, right, expr)
        if op in ("<", "<=", ">", ">="):
            return Code(f"({a.text} {op} {b.text})", "bool")
        if a.type == "int":
            helper = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_idiv", "%": "_imod"}[op]
            operands = (op, a.text, b.text) if op in ("+", "-") else None
            return Code(f"{helper}(S, {a.text}, {b.text})", "int", operands=operands)
        if op == "/":
            return Code(f"_fdiv(S, {a.text}, {b.text})", "float")
        if op == "%":
            return Code(f"_fmod(S, {a.text}, {b.text})", "float")
        return Code(f"({a.text} {op} {b.text})", "float")

    def dynamic(self, op: str, left: Code, right: Code, expr) -> tuple[Code, Code]:
        """The operands of `op` when one's type is known only at run time (ops.dyn_equal,
        dyn_order, dyn_arith): each dyn checked to be of the type the operation needs."""
        if left.type == right.type == "dyn":
            if op in ("==", "!="):
                return Code(f"_dyn_eq(S, {left.text}, {right.text})", "bool"), Code("True", "bool")
            return self.coerce(left, "int", expr.span), self.coerce(right, "int", expr.span)
        other = right if left.type == "dyn" else left
        if op in ("==", "!=") and other.type in ("obj", "int", "float"):
            want = "obj" if other.type == "obj" else "int"
        elif op not in ("==", "!=") and other.type in ("int", "float"):
            want = "int"
        else:  # a bool, or an obj in arithmetic: always an error
            raise NativeUnsupported(f"'{op}' on a value typed at run time and a {other.type}", expr.span)
        if left.type == "dyn":
            return self.coerce(left, want, expr.span), right
        return left, self.coerce(right, want, expr.span)

    def numbers(self, left: Code, right: Code, expr) -> tuple[Code, Code]:
        for side in (left, right):
            if side.type not in ("int", "float"):
                raise NativeUnsupported(f"'{expr.op}' on a {side.type}", expr.span)
        if left.type == right.type:
            return left, right
        return self.coerce(left, "float", expr.span), self.coerce(right, "float", expr.span)


_DTYPES = {"int": "np.int64", "obj": "np.int64", "float": "np.float64", "bool": "np.bool_"}


def _zero(type_name: str) -> str:
    return {"int": "0", "obj": "0", "float": "0.0", "bool": "False"}[type_name]


def native_source(program: Program, max_steps: int, max_depth: int) -> tuple[str, bool, bool]:
    """(the module source, whether every score is an int, whether numba may cache it on
    disk). Raises NativeUnsupported."""
    compiler = NativeCompiler(program, max_steps, max_depth)
    source = compiler.compile()
    return source, compiler.int_scores, compiler.cacheable


def _recursion_inlined(calls: dict[str, list[str]]) -> tuple[set[str], bool]:
    """(the recursive functions numba inlines, whether numba may cache the module on disk).

    numba's disk cache crashes on recursion through two compiled functions (issue 6061: the
    call goes through a pointer numba fills in only when it compiles, not when it loads), but
    holds a function calling itself with its own argument types. So in each cycle of the call
    graph one function stays a call and numba inlines the others into it, when the others
    hold no cycle themselves; else the module is compiled in every process."""
    inlined: set[str] = set()
    for component in cycles(calls):
        members = set(component)
        for head in sorted(component):
            rest = {name: [callee for callee in calls[name] if callee in members and callee != head]
                    for name in members - {head}}
            if not cycles(rest):
                inlined |= members - {head}
                break
        else:
            return set(), False
    return inlined, True


__all__ = ["NativeUnsupported", "native_source", "CAP_OPS", "CAP_MOVES"]
