"""The IR of a checked Program (gdef_core/lower) -> the source of a numba module (helpers, one
function per gdef function, the kernels of native/kernels/).

It emits from the IR only (names resolved, types and conversions explicit, every check
listed) and keeps the Python backend's shape: one generated function per gdef function, user
names prefixed (`u_` functions, `l_` locals), every check of the language inlined as a call of
a small jitted helper. What it cannot compile raises NativeUnsupported with the construct and
its span: that game runs on the Python backend instead.
"""
from __future__ import annotations

import math

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.build import LoweringError, lowered
from gdef_core.lower.calls import cycles
from gdef_core.lower.consequences import makes_consequences
from gdef_core.lower.distinct import distinct_candidates
from gdef_core.lower.ir import Check
from gdef_core.lower.layout import (
    CAP_MOVES, CAP_OPS, HISTORY_CAP, PERFT_MOVES, PERFT_OPS, VarSlot, stamp_keys, var_layout as layout_of,
)
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS, OPERATION_STEPS, SEARCH_POOL_FACTOR
from gdef_core.semantics.program import Program
from gdef_core.span import Span

from gdef_core.native.kernels import PARTS, module_text

# The state arrays a generated function may use; each function is passed only those it (or
# a function it calls) uses: numba passes every array as a struct of seven words and counts
# its references, so a call with all of them costs more than many function bodies.
# HS: the board before the move and the position history (kernels/history.py).
_CONTEXT = ("B", "OPS", "S", "V", "VF", "SC", "CO", "CS", "HS")
_CTX_ARGS = ", ".join(_CONTEXT)
# The entry points the kernels run (setup() runs in the Python backend, which makes states).
_ENTRIES = tuple(context.value for context in (Context.IS_MOVE_LEGAL, Context.END, Context.MOVES, Context.CHANCE))


class NativeUnsupported(Exception):
    """The game uses something the native backend does not compile."""

    def __init__(self, what: str, span: Span | None = None) -> None:
        super().__init__(f"{span}: {what}" if span is not None else what)
        self.what = what
        self.span = span


def var_layout(program: Program) -> dict[str, VarSlot]:
    """Every game variable's slot, in declaration order (lower/layout.py)."""
    try:
        return layout_of(program)
    except LoweringError as error:
        raise NativeUnsupported(error.message, error.span) from None


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


def _lowered(program: Program) -> ir.Module:
    try:
        return lowered(program)
    except LoweringError as error:
        raise NativeUnsupported(error.message, error.span) from None


class NativeCompiler:
    """One Program -> module source."""

    def __init__(self, program: Program, max_steps: int, max_depth: int) -> None:
        self.module = module = _lowered(program)
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.objects = {name: number for name, number in module.objects.items() if number}
        # only what the kernels run: setup() has run when a state reaches them, and a function
        # nothing calls would only change the module (chess's start positions share one)
        self.graph = module.graph
        run = self.graph.reached_by(Context(entry) for entry in _ENTRIES)
        self.functions = {name: f for name, f in module.functions.items() if name in run}
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
        self.recursion_inlined: set[str] = set()
        self.cacheable = True
        self.int_scores = True  # every setScore value is an int

    def compile(self) -> str:
        functions = self.functions
        for needed in ("isMoveLegal", "end"):
            if needed not in functions:
                raise NativeUnsupported(f"a game without {needed}()")
        used = ir.builtins_in(functions.values())
        if "isGenerated" in used and "moves" not in functions:
            raise NativeUnsupported("isGenerated() in a game without moves()")
        self.uses_history = bool(used & {"repetitions", "nextBoardSeen"})
        chance = bool(self.graph.reach[Context.CHANCE])   # chance() is an entry point
        if chance and self.uses_history:
            raise NativeUnsupported("chance in a game that keeps its history (repetitions() or nextBoardSeen())")
        self.recursive = self.graph.recursive & set(functions)
        self.recursion_inlined, self.cacheable = _recursion_inlined(self.graph.restricted(functions))
        # The state beyond the board (kernels/history.py) is kept with slices and views, which
        # need numba's reference counting: then every function keeps it.
        self.allocating = (set(functions) if self.uses_history or used & {"PreviousPosition", "PreviousCount"}
                           else _allocating(functions, self.graph))
        arrays = self.state_arrays()
        blocks = {name: _FunctionCompiler(self, f, arrays).compile() for name, f in functions.items()}

        game = self.module
        constants = (f"W = {game.width}\nH = {game.height}\nP = {game.players}\n"
                     f"NOBJ = {len(self.objects)}\nMAXSTEPS = {self.max_steps}\n"
                     f"MAXDEPTH = {self.max_depth}\nPOOL = {_pool(self.max_steps)}\n"
                     f"OPERATION_STEPS = {OPERATION_STEPS}\nCAP_OPS = {CAP_OPS}\nCAP_MOVES = {CAP_MOVES}\n"
                     # a count operation's count stands in the object's field: no stamps
                     f"KEYS = {0 if game.counting else stamp_keys(game.width, game.height, len(self.objects))}\n"
                     f"COUNTING = {game.counting}\nNBO = {game.width * game.height}\n"
                     "TABLE = CAP_MOVES + 1 + KEYS\n"
                     # hasLegalMove()'s candidates kept for the next turn (kernel.py, _memo_keep),
                     # then the weights of a chance node's outcomes
                     "MEMO = TABLE + 2 * CAP_MOVES\n"
                     f"MEMO_LEN = {6 + game.width * game.height * (2 if game.counting else 1) + self.int_variables()}\n"
                     "WEIGHTS = MEMO + MEMO_LEN\n"
                     f"CHANCE = {chance}\n"
                     # whether the kernels need numba's reference counting: the rules make arrays
                     # or keep a history
                     f"NRT = {bool(self.allocating & set(_ENTRIES))}\n"
                     f"PERFT_OPS = {PERFT_OPS}\nPERFT_MOVES = {PERFT_MOVES}\n"
                     f"OWN_CANDIDATES = {1 if 'moves' in functions else 0}\n"
                     # (_recursion_inlined: when numba's disk cache can hold the recursion)
                     f"CACHE = {self.cacheable}\n"
                     + "".join(f"CTX_{context.name} = {context.number}\n" for context in Context)
                     + self.history_constants(bool(used & {"PreviousPosition", "PreviousCount"})))
        if "moves" in functions:
            # a moves() that proposes each candidate once (lower/distinct.py) has none to drop
            unique = ("return S[_NM]  # each candidate once: lower/distinct.py"
                      if distinct_candidates(self.module) else "return _stamped(S, CO, CS, S[_NM])")
            candidates = ("@njit(cache=CACHE, inline='always')\ndef _candidates(B, S, V, VF, SC, CO, CS, HS):\n"
                          "    e_moves(B, CO[:0], S, V, VF, SC, CO, CS, HS)\n"
                          "    if S[_ST] < 0:\n        S[_ERR] = 1\n"
                          "    if S[_ERR] != 0:\n        return 0\n"
                          f"    {unique}\n")
        else:
            candidates = ("@njit(cache=CACHE, inline='always')\ndef _candidates(B, S, V, VF, SC, CO, CS, HS):\n"
                          "    return _automatic(B, S, CO, CS)\n")
        if chance:   # the outcomes of a chance node (kernels/kernel.py: _outcomes)
            candidates += ("@njit(cache=CACHE, inline='always')\n"
                           "def _chance_outcomes(B, S, V, VF, SC, CO, CS, HS):\n"
                           "    e_chance(B, CO[:0], S, V, VF, SC, CO, CS, HS)\n"
                           "    if S[_ST] < 0:\n        S[_ERR] = 1\n"
                           "    if S[_ERR] != 0:\n        return 0\n"
                           "    return _merge(CO, CS, S[_NM])\n")
        else:
            candidates += ("@njit(cache=CACHE, inline='always')\n"
                           "def _chance_outcomes(B, S, V, VF, SC, CO, CS, HS):\n"
                           "    S[_ERR] = 1\n    return 0\n")
        judged = makes_consequences(self.module, Context.IS_MOVE_LEGAL)
        entries = "".join(_entry(name, arrays[name], judged and name == "isMoveLegal") for name in _ENTRIES
                          if name in functions and (name != "chance" or chance))
        # no game name in the text: games with the same rules (chess from other start
        # positions) share one compiled module
        arithmetic, helpers, history, kernel, judge = (module_text(part) for part in PARTS)
        return "\n".join(["# generated by gdef_core.native", constants, arithmetic, helpers, history,
                          self.key_row(), *blocks.values(), entries, kernel, candidates, judge])

    def state_arrays(self) -> dict[str, tuple[str, ...]]:
        """function -> the state arrays it takes: those its own code uses (found by compiling
        it once without arguments) and those of the functions it calls."""
        own = {}
        for name, function in self.functions.items():
            compiler = _FunctionCompiler(self, function, None)
            compiler.compile()
            own[name] = compiler.uses
        return {name: tuple(array for array in _CONTEXT
                            if any(array in own[callee] for callee in self.graph.reachable(name)))
                for name in self.functions}

    def key_fields(self) -> int:
        """How many values a position's key holds after the board and the player."""
        return sum(slot.count for slot in self.layout.values() if not slot.counter)

    def int_variables(self) -> int:
        """How many int, bool and obj values the game variables hold (V's length)."""
        return sum(slot.count for slot in self.layout.values() if not slot.floats)

    def history_constants(self, uses_previous: bool) -> str:
        """The offsets of HS (kernels/history.py) for this game; a game without a history
        keeps only the board before the move, when it reads PreviousPosition."""
        nb = self.module.width * self.module.height * (2 if self.module.counting else 1)  # the counts too
        keylen = nb + 1 + self.key_fields()
        cap = HISTORY_CAP if self.uses_history else 0
        tsize = 16
        while tsize < 2 * cap:
            tsize *= 2
        at = 8
        offsets = {}
        for name, size in (("H_PREV", nb), ("H_RES", nb + 1), ("H_KEY", keylen), ("H_PT", tsize),
                           ("H_BT", tsize), ("H_EH", cap), ("H_EB", cap), ("H_EK", cap), ("H_ROWS", cap * keylen)):
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


def _entry(name: str, arrays: tuple[str, ...], scratch: bool = False) -> str:
    """e_NAME(every context array): what the kernels call; inlined, so the arrays u_NAME does
    not take cost nothing. `scratch`: isMoveLegal() makes consequences, and each judgement
    starts without a scratch copy (kernels/helpers.py, _consequence)."""
    reset = "    HS[H_RES] = 0\n" if scratch else ""
    return (f"@njit(cache=CACHE, inline='always')\ndef e_{name}({_CTX_ARGS}):\n"
            f"{reset}    return u_{name}({', '.join(arrays)}, 1)\n\n")


def _allocating(functions: dict, graph) -> set[str]:
    """The functions that make arrays (local array declarations), themselves or through the
    functions they call."""
    makers = {name for name, f in functions.items()
              if any(isinstance(node, ir.DeclareArray) for node in ir.walk(f.body))}
    return {name for name in functions if graph.reachable(name) & makers}


def _pool(max_steps: int) -> int:
    return SEARCH_POOL_FACTOR * max_steps


class _FunctionCompiler:
    """One IR function -> its numba source. `arrays`: the state arrays each function takes
    (itself and through its callees), None while they are being found: then the text is
    thrown away and only the arrays this function's own code uses are recorded."""

    def __init__(self, compiler: NativeCompiler, function: ir.Function,
                 arrays: dict[str, tuple[str, ...]] | None) -> None:
        self.c = compiler
        self.function = function
        self.name = function.name
        self.types = function.locals
        self.arrays = arrays
        self.uses: set[str] = {"S"}  # every function counts its steps in S
        if any(Check.UNSET in getattr(node, "checks", ()) for node in ir.walk(function.body)):
            raise NativeUnsupported("a local read before its declaration may have run", function.span)
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

    def state(self, *arrays: str) -> str:
        """The state arrays named, as arguments (and noted as used)."""
        self.uses.update(arrays)
        return ", ".join(arrays)

    def context_args(self, name: str) -> list[str]:
        """The state arrays function `name` takes."""
        return list(self.arrays[name]) if self.arrays is not None else []

    def compile(self) -> str:
        f = self.function
        params = ", ".join([*self.context_args(self.name), "_d", *(f"l_{name}" for name, _ in f.params)])
        # The functions the Python backend inlines (lower/inlining.py: small if/return
        # chains such as markOf) numba inlines too: no call with the state arrays as
        # arguments. Inlining every function costs several times the compile time.
        # So are the entry points, each into the one kernel function that calls it.
        inline = (f.inlinable or self.name in self.c.recursion_inlined
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
        result = f.result
        self.give_up = f"return {_zero(result)}" if result else "return"
        self.block(f.body, 1)
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
            case ir.Enter(budget=budget, depth=depth):
                # Generated code never raises (kernels/helpers.py's _bad): a function that calls others
                # stops when the steps are spent, as the Python backend checks them there (a
                # call tree can grow exponentially without loops); the others only count theirs.
                if budget:
                    self.emit(indent, "if _spent(S):")
                    self.emit(indent + 1, self.give_up)
                else:
                    self.emit(indent, "_limit(S)")
                if depth:
                    # Also the return that tells numba's type inference the result type before
                    # any recursive call: mutual recursion is typed from it.
                    self.emit(indent, "if _d > MAXDEPTH:")
                    self.emit(indent + 1, "_bad(S)")
                    self.emit(indent + 1, self.give_up)
            case ir.DeclareArray():
                self.declare_array(stmt, indent)
            case ir.Declare(name=name, type=kind, value=value):
                if self.types[name] != kind:
                    raise NativeUnsupported(f"'{name}' declared with two types", stmt.span)
                self.set_local(name, self.expr(value), indent)
            case ir.Assign(target=ir.Local(name=name), value=value):
                self.set_local(name, self.expr(value), indent)
            case ir.Assign(target=ir.GameVar(name=name), value=value):
                self.assign_game_var(name, value, indent)
            case ir.Assign(target=ir.Element() as target, value=value):
                self.assign_element(target, value, indent)
            case ir.Loop():
                self.loop(stmt, indent)
            case ir.Break():
                self.emit(indent, "break")
            case ir.Continue():
                for inner in self.loops[-1] if self.loops else ():
                    self.stmt(inner, indent)
                self.emit(indent, "continue")
            case ir.Eval(expr=expr):
                code = self.expr(expr)
                if code.value is None:
                    self.emit(indent, code.text)
            case ir.Return(value=None):
                self.emit(indent, "return")
            case ir.Return(value=value):
                self.emit(indent, f"return {self.expr(value).text}")
            case ir.If():
                self.if_chain(stmt, indent)
            case ir.Fail(check=Check.NO_RETURN):
                self.emit(indent, "_bad(S)  # reached its end without returning a value")
                self.emit(indent, f"return {_zero(self.function.result)}")
            case _:
                raise NativeUnsupported(f"the statement {type(stmt).__name__}", stmt.span)

    def if_chain(self, stmt: ir.If, indent: int) -> None:
        self.emit(indent, f"if {self.expr(stmt.cond).text}:")
        self.block(stmt.then, indent + 1)
        otherwise = stmt.otherwise
        if not otherwise:
            return
        self.emit(indent, "else:")
        if len(otherwise) == 1 and isinstance(otherwise[0], ir.If):
            self.if_chain(otherwise[0], indent + 1)
        else:
            self.block(otherwise, indent + 1)

    def loop(self, loop: ir.Loop, indent: int) -> None:
        test = self.expr(loop.cond).text if loop.cond is not None else "True"
        self.emit(indent, f"while {test}:")
        self.emit(indent + 1, "if _spent(S):")
        self.emit(indent + 2, "break")
        self.loops.append(loop.step)
        self.block([*loop.body, *loop.step], indent + 1)
        self.loops.pop()

    def assign_game_var(self, name: str, value, indent: int) -> None:
        kind = self.c.var_types.get(name)
        if kind is None:
            raise NativeUnsupported(f"an assignment to '{name}'", value.span)
        self.emit(indent, "if _writable(S):")
        code = self.expr(value)
        if kind == "float":
            self.emit(indent + 1, f"{self.store('VF')}[{self.c.float_vars[name]}] = {code.text}")
        elif kind == "bool":
            self.emit(indent + 1, f"{self.store('V')}[{self.c.int_vars[name]}] = 1 if {code.text} else 0")
        else:
            self.emit(indent + 1, f"{self.store('V')}[{self.c.int_vars[name]}] = {code.text}")

    def store(self, array: str) -> str:
        """V or VF, noted as used."""
        self.uses.add(array)
        return array

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

    def declare_array(self, stmt: ir.DeclareArray, indent: int) -> None:
        if self.types[stmt.name] != stmt.type:
            raise NativeUnsupported(f"'{stmt.name}' declared with two types", stmt.span)
        element = stmt.type.split("[", 1)[0]
        sizes = []
        for size in stmt.sizes:
            t = self.temp()
            self.emit(indent, f"{t} = {self.expr(size).text}")
            sizes.append(t)
        count = " * ".join(sizes)
        # Each size is tested first, so that their product cannot overflow; a bad size is
        # flagged (kernels/helpers.py's _bad) and the array made with one element, which every index
        # test then keeps to.
        self.emit(indent, f"if {' or '.join(f'{s} < 1 or {s} > {MAX_ARRAY_ELEMENTS}' for s in sizes)}"
                          f" or {count} > {MAX_ARRAY_ELEMENTS}:")
        self.emit(indent + 1, "_bad(S)")
        for s in sizes:
            self.emit(indent + 1, f"{s} = 1")
        self.emit(indent, f"_steps(S, {count})")
        dtype = _DTYPES[element]
        shape = f"({', '.join(sizes)},)"
        name = f"l_{stmt.name}"
        if stmt.rows is not None:
            rows = stmt.rows
            listed = (len(rows),) if len(sizes) == 1 else (len(rows), len(rows[0]))
            self.emit(indent, f"if {' or '.join(f'{s} != {n}' for s, n in zip(sizes, listed))}:")
            self.emit(indent + 1, "_bad(S)")
            # made with the listed shape, so that writing the listed elements stays inside
            self.emit(indent, f"{name} = np.empty(({', '.join(map(str, listed))},), {dtype})")
            if len(sizes) == 1:
                for i, item in enumerate(rows):
                    self.emit(indent, f"{name}[{i}] = {self.expr(item).text}")
            else:
                for i, row in enumerate(rows):
                    for j, item in enumerate(row):
                        self.emit(indent, f"{name}[{i}, {j}] = {self.expr(item).text}")
            return
        self.emit(indent, f"{name} = np.full({shape}, {self.expr(stmt.fill).text}, {dtype})")

    def indexes(self, array: str, nodes) -> list[str]:
        return [f"_ix(S, {self.expr(node).text}, {array}.shape[{dim}])" for dim, node in enumerate(nodes)]

    def game_element(self, slot: VarSlot, nodes, indent: int | None = None) -> str:
        """The store's index of a game-variable array's element `a[i]` / `a[i][j]`, each
        index checked against its size; with `indent`, the indexes are evaluated into
        temporaries first (an assignment evaluates them before its value)."""
        parts = []
        for node, size in zip(nodes, slot.sizes):
            text = f"_ix(S, {self.expr(node).text}, {size})"
            if indent is not None:
                t = self.temp()
                self.emit(indent, f"{t} = {text}")
                text = t
            parts.append(text)
        if len(parts) == 1:
            return f"{slot.offset} + {parts[0]}"
        return f"{slot.offset} + {parts[0]} * {slot.sizes[1]} + {parts[1]}"

    def game_array_read(self, slot: VarSlot, nodes) -> Code:
        at = self.game_element(slot, nodes)
        if slot.floats:
            return Code(f"{self.store('VF')}[{at}]", "float")
        if slot.kind == "bool":
            return Code(f"({self.store('V')}[{at}] != 0)", "bool")
        return Code(f"{self.store('V')}[{at}]", slot.kind)

    def game_array_view(self, name: str, slot: VarSlot, span: Span | None) -> Code:
        """A game-variable array passed to a function: a view of its elements in the store
        (arrays are passed by reference)."""
        if slot.kind == "bool":
            raise NativeUnsupported(f"the bool game-variable array '{name}' passed as an argument", span)
        store = self.store("VF" if slot.floats else "V")
        text = f"{store}[{slot.offset}:{slot.offset + slot.count}]"
        if len(slot.sizes) == 2:
            text = f"{text}.reshape(({slot.sizes[0]}, {slot.sizes[1]}))"
        return Code(text, slot.kind + "[]" * len(slot.sizes))

    def assign_element(self, target: ir.Element, value, indent: int) -> None:
        if isinstance(target.array, ir.GameVar):
            slot = self.c.var_arrays[target.array.name]
            self.emit(indent, "if _writable(S):")
            inner = indent + 1
            at = self.game_element(slot, target.indexes, inner)
            code = self.expr(value)
            if slot.floats:
                self.emit(inner, f"{self.store('VF')}[{at}] = {code.text}")
            elif slot.kind == "bool":
                self.emit(inner, f"{self.store('V')}[{at}] = 1 if {code.text} else 0")
            else:
                self.emit(inner, f"{self.store('V')}[{at}] = {code.text}")
            return
        array = f"l_{target.array.name}"
        uses = []
        for text in self.indexes(array, target.indexes):
            t = self.temp()
            self.emit(indent, f"{t} = {text}")
            uses.append(t)
        self.emit(indent, f"{array}[{', '.join(uses)}] = {self.expr(value).text}")

    # ------------------------------------------------------------ expressions

    def expr(self, expr) -> Code:
        match expr:
            case ir.Const(value=value, type="int"):
                return _int(value)
            case ir.Const(value=value, type="float"):
                return _float(value)
            case ir.Const(value=value, type="bool"):
                return Code(repr(value), "bool", value)
            case ir.Object(number=number):
                return Code(f"({number})", "obj")
            case ir.Local(name=name, type=kind):
                return Code(f"l_{name}", kind)
            case ir.GameVar(name=name):
                return self.game_var(expr, name)
            case ir.Element(array=ir.GameVar(name=name), indexes=indexes):
                return self.game_array_read(self.c.var_arrays[name], indexes)
            case ir.Element(array=array, indexes=indexes, type=kind):
                return Code(f"l_{array.name}[{', '.join(self.indexes(f'l_{array.name}', indexes))}]", kind)
            case ir.Board():
                return self.board(expr)
            case ir.CallFunction():
                return self.call_function(expr)
            case ir.CallBuiltin():
                return self.call_builtin(expr)
            case ir.Unary(op="!", operand=operand):
                return Code(f"(not {self.expr(operand).text})", "bool")
            case ir.Unary(op="-", operand=operand, type="int"):
                return Code(f"_neg(S, {self.expr(operand).text})", "int")
            case ir.Unary(op="-", operand=operand):
                return Code(f"(-{self.expr(operand).text})", "float")
            case ir.Logic(op=op, left=left, right=right):
                return Code(f"({self.expr(left).text} {'and' if op == '&&' else 'or'} {self.expr(right).text})", "bool")
            case ir.Binary():
                return self.binary(expr)
            case ir.Convert(value=value, type=kind):
                return self.convert(self.expr(value), kind)
        raise NativeUnsupported(f"the expression {type(expr).__name__}", expr.span)

    def convert(self, code: Code, want: str) -> Code:
        if code.type == "int" and want == "float":
            return Code(f"float({code.text})", "float")
        if want == "float":  # a dyn checked to be an int
            return Code(f"float(_dyn_int(S, {code.text}))", "float")
        return Code(f"_dyn_{want}(S, {code.text})", want)

    def game_var(self, expr: ir.GameVar, name: str) -> Code:
        kind = self.c.var_types.get(name)
        if kind == "float":
            return Code(f"{self.store('VF')}[{self.c.float_vars[name]}]", "float")
        if kind == "bool":
            return Code(f"({self.store('V')}[{self.c.int_vars[name]}] != 0)", "bool")
        if kind is not None:
            return Code(f"{self.store('V')}[{self.c.int_vars[name]}]", kind)
        return self.game_array_view(name, self.c.var_arrays[name], expr.span)

    def board(self, expr: ir.Board) -> Code:
        name = expr.builtin.name
        a, b = (self.expr(i) for i in expr.indexes)
        if name == "CurrentPosition":
            return Code(f"{self.store('B')}[_sq(S, {a.text}, {b.text})]", "obj")
        counting = self.c.module.counting
        if name == "NextPosition":
            return Code(f"_nread{'_counted' if counting else ''}({self.state('B', 'OPS', 'S')}, {a.text}, {b.text})", "obj")
        if name == "PreviousPosition":
            return Code(f"_pread({self.state('B', 'S', 'HS')}, {a.text}, {b.text})", "obj")
        if name == "CurrentCount":
            return Code(f"{self.store('B')}[NBO + _sq(S, {a.text}, {b.text})]", "int")
        if name == "NextCount":
            return Code(f"_ncount({self.state('B', 'OPS', 'S')}, {a.text}, {b.text})", "int")
        if name == "PreviousCount":
            return Code(f"_pcount({self.state('B', 'S', 'HS')}, {a.text}, {b.text})", "int")
        if name == "ResultPosition":
            return Code(f"_rread({self.state('B', 'OPS', 'S', 'HS')}, {a.text}, {b.text})", "obj")
        if name == "ResultCount":
            return Code(f"_rcount({self.state('B', 'OPS', 'S', 'HS')}, {a.text}, {b.text})", "int")
        if name == "OperationList":
            if b.value not in (0, 1, 2, 3):  # an int or an obj, known only at run time
                dyn = "_opdyn_counted" if counting else "_opdyn"
                return Code(f"{dyn}({self.state('OPS', 'S')}, {a.text}, {b.text})", "dyn")
            if b.value == 3:
                return Code(f"_opcount({self.state('OPS', 'S')}, {a.text})", "int")
            if b.value == 2 and counting:
                return Code(f"_opobj({self.state('OPS', 'S')}, {a.text})", "obj")
            return Code(f"_opf({self.state('OPS', 'S')}, {a.text}, {b.value})", expr.type)
        raise NativeUnsupported(f"'{name}' indexed", expr.span)

    def call_function(self, call: ir.CallFunction) -> Code:
        name = call.name
        function = self.c.functions[name]
        depth = "_d + 1" if call.deeper else "_d"
        args = [self.expr(arg).text for arg in call.args]
        if name in self.c.recursive:
            # numba compiles a function apart for each literal argument: a recursive call
            # with other argument types than the outer one is one its cache cannot hold
            # (_recursion_inlined)
            depth = f"np.int64({depth})"
            args = [arg if kind.endswith("[]") else f"{_DTYPES[kind]}({arg})"
                    for arg, (_, kind) in zip(args, function.params)]
        return Code(f"u_{name}({', '.join([*self.context_args(name), depth, *args])})", call.type)

    def call_builtin(self, call: ir.CallBuiltin) -> Code:
        name = call.builtin.name
        if name == "sizeOf":
            return self.size_of(call)
        if name == "setScore":
            value = call.args[1]
            if isinstance(value, ir.Convert):  # an int, or a value typed at run time
                value = value.value
                if value.type != "int":
                    raise NativeUnsupported("setScore with a value known only at run time", call.span)
            else:
                self.c.int_scores = False
            return Code(f"_set_score({self.state('S', 'SC')}, {self.expr(call.args[0]).text}, "
                        f"float({self.expr(value).text}))", None)
        texts = [self.expr(arg).text for arg in call.args]
        if name == "nextBoardSeen" and self.c.module.counting:
            return Code(f"_board_seen_counted({self.state('B', 'OPS', 'S', 'HS')})", "bool")
        if name in _STATE_READS:
            text, arrays, result = _STATE_READS[name]
            if name == "hasLegalMove" and self.c.uses_history:
                text = "_has_legal_move_seen({})"
            return Code(text.format(self.state(*arrays)), result)
        if name == "isPlaceOperation":
            return Code(f"(_opf({self.state('OPS', 'S')}, {texts[0]}, 3) {'== 1' if self.c.module.counting else '!= 0'})", "bool")
        if name == "isCountOperation":
            return Code(f"(_opf({self.state('OPS', 'S')}, {texts[0]}, 3) == 2)", "bool")
        if name == "setWinner":
            return Code(f"_set_winner(S, {texts[0]})", None)
        if name == "setNextPlayer":
            return Code(f"_set_next(S, {texts[0]})", None)
        if name in ("addPlace", "addClear", "addCount"):
            return self.add_operation(call, texts)
        if name == "addOutcome":
            return Code(f"_add_outcome({self.state('S', 'CS')}, {texts[0]})", None)
        raise NativeUnsupported(f"the built-in {name}()", call.span)

    def add_operation(self, call: ir.CallBuiltin, texts: list[str]) -> Code:
        """addPlace/addClear/addCount: a candidate's operation in moves(), a consequence in end()
        and isMoveLegal() (kernels/helpers.py); chosen by the entry point running where both
        reach the function. A count is the operation (x, y, n, 2)."""
        obj, place = {"addPlace": (texts[-1], 1), "addCount": (texts[-1], 2)}.get(call.builtin.name, ("0", 0))
        proposing = bool(self.function.contexts & {Context.MOVES, Context.CHANCE})  # chance(): an outcome's
        consequence = bool(self.function.contexts & {Context.END, Context.IS_MOVE_LEGAL})
        if proposing and consequence:
            return Code(f"_add_any({self.state('B', 'OPS', 'S', 'CO', 'HS')}, {texts[0]}, {texts[1]}, "
                        f"{obj}, {place})", None)
        if consequence:
            return Code(f"_consequence({self.state('B', 'OPS', 'S', 'HS')}, {texts[0]}, {texts[1]}, {obj}, {place})", None)
        return Code(f"_add_op({self.state('S', 'CO')}, {texts[0]}, {texts[1]}, {obj}, {place})", None)

    def size_of(self, call: ir.CallBuiltin) -> Code:
        """sizeOf(): of a game-variable array, its sizes are constants (spec 15.1)."""
        array, dimension = call.args
        if not isinstance(dimension, ir.Const):
            raise NativeUnsupported("sizeOf with a computed dimension", call.span)
        if isinstance(array, ir.GameVar) and array.name in self.c.var_arrays:
            sizes = self.c.var_arrays[array.name].sizes
            if not 0 <= dimension.value < len(sizes):
                return Code(f"_ix(S, {dimension.value}, 0)", "int")  # fails as the Python backend does
            return _int(sizes[dimension.value])
        code = self.expr(array)
        if not (code.type or "").endswith("[]"):
            raise NativeUnsupported("sizeOf with a computed dimension", call.span)
        if not 0 <= dimension.value < code.type.count("[]"):
            return Code(f"_ix(S, {dimension.value}, 0)", "int")  # fails as the Python backend does
        return Code(f"{code.text}.shape[{dimension.value}]", "int")

    def binary(self, expr: ir.Binary) -> Code:
        op = expr.op
        a, b = self.expr(expr.left), self.expr(expr.right)
        if a.type == "dyn":  # two values typed at run time, compared
            return Code(f"(_dyn_eq(S, {a.text}, {b.text}) {op} True)", "bool")
        if expr.type == "bool":
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


# Built-ins without arguments: (text with {} for the state arrays, those arrays, result type).
_STATE_READS = {
    "operationsNum": ("{}[7]", ("S",), "int"), "onTurn": ("{}[0]", ("S",), "int"),
    "moveNumber": ("{}[1]", ("S",), "int"), "addMove": ("_add_move({})", ("S", "CS"), None),
    "hasLegalMove": ("_has_legal_move({})", ("B", "S", "V", "VF", "SC", "CO", "CS", "HS"), "bool"),
    "repetitions": ("_repetitions({})", ("B", "S", "V", "VF", "HS"), "int"),
    "nextBoardSeen": ("_board_seen({})", ("B", "OPS", "S", "HS"), "bool"),
    "isGenerated": ("_is_generated({})", ("S",), "bool"),
    "chanceNext": ("_chance_next({})", ("S",), None), "isChanceMove": ("({}[16] != 0)", ("S",), "bool"),
}
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
