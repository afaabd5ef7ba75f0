"""The IR of a checked Program (gdef_core/lower) -> the C source of one game's rules: the game's
constants, runtime/gdef.h, one C function per gdef function, runtime/kernel.c.

It emits from the IR only and keeps the numba emitter's shape (native/codegen.py): one
function per gdef function (`u_` names, `l_` locals), every check of the language a call of a
small inline helper of gdef.h that flags a failure in S instead of raising (the kernels look at
the flag), the step budget and the depth counted where the IR's `Enter` and loops say. What it
cannot compile raises CUnsupported with the construct and its span: that game runs on another
route.

C evaluates the operands of an operator and the arguments of a call in an unspecified order;
where the order could matter (an operand after the first calls a function, and an earlier one
reads anything), the operands are evaluated into temporaries first, left to right (a GNU
statement expression, which gcc and clang both have).
"""
from __future__ import annotations

import math
from importlib import resources

from gdef_core.builtins import Context
from gdef_core.lower import ir
from gdef_core.lower.automatic_guards import refused_kinds
from gdef_core.lower.build import LoweringError, lowered
from gdef_core.lower.consequences import makes_consequences
from gdef_core.lower.counters import counters, increment
from gdef_core.lower.distinct import distinct_candidates
from gdef_core.lower.ir import Check
from gdef_core.lower.layout import (
    CAP_MOVES, CAP_OPS, HISTORY_CAP, PERFT_MOVES, PERFT_OPS, VarSlot, keyed_slots, stamp_keys, var_layout,
)
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS, OPERATION_STEPS, SEARCH_POOL_FACTOR
from gdef_core.lower.pure import memoizable
from gdef_core.lower.ranges import proven_checks
from gdef_core.lower.rejection import Split, rejection_split
from gdef_core.lower.replayed import replayed
from gdef_core.lower.skippable import skippable_calls
from gdef_core.lower.stack_arrays import stack_arrays
from gdef_core.lower.tables import constant_arrays, constant_locals
from gdef_core.lower.unread_fills import exits_whole, unread_fills
from gdef_core.semantics.program import Program
from gdef_core.span import Span

# The entry points the kernels run (setup() runs in the Python backend, which makes states).
ENTRIES = (Context.IS_MOVE_LEGAL, Context.END, Context.MOVES, Context.CHANCE)
# Where addPlace/addClear/addCount make a consequence instead of a candidate's operation.
_CONSEQUENCE_CONTEXTS = frozenset({Context.IS_MOVE_LEGAL, Context.END})
# The runtime's files, in the order the generated module includes them.
RUNTIME = ("gdef.h", "kernel.c")
_C_TYPES = {"int": "int64_t", "obj": "int64_t", "bool": "int", "float": "double", "dyn": "GDyn"}
_ZERO = {"int": "0", "obj": "0", "bool": "0", "float": "0.0"}


class CUnsupported(Exception):
    """The game uses something the C emitter does not compile."""

    def __init__(self, what: str, span: Span | None = None) -> None:
        super().__init__(f"{span}: {what}" if span is not None else what)
        self.what = what
        self.span = span


class CSource:
    """A game's C source, with what the loader needs to know about it: `tables`, the
    game-variable arrays it reads from constant tables instead of the state's V (name -> the
    elements compiled in, row by row, as V holds them), for the loader to tell a state that
    holds other values (set by hand) from those the source was compiled for."""

    def __init__(self, text: str, int_scores: bool, constants: dict[str, int],
                 tables: dict[str, tuple[int, ...]]) -> None:
        self.text = text
        self.int_scores = int_scores
        self.constants = constants
        self.tables = tables


def runtime_dir():
    """The folder of gdef.h and kernel.c (package data), for the compiler's -I."""
    return resources.files(__package__).joinpath("runtime")


def runtime_text() -> str:
    """The runtime's files as one text, for the cache key."""
    folder = runtime_dir()
    return "".join(folder.joinpath(name).read_text(encoding="utf-8") for name in RUNTIME)


def c_type(type_: str | None) -> str:
    if type_ is None:
        return "void"
    if type_.endswith("[]"):
        return "GArrF" if type_.startswith("float") else "GArr"
    return _C_TYPES[type_]


def _int(value: int) -> str:
    if value == -(1 << 63):
        return "G_INT_MIN"
    return f"INT64_C({value})" if value >= 0 else f"(-INT64_C({-value}))"


def _float(value: float) -> str:
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    return f"({value.hex()})"


def _effectful(expr) -> bool:
    """Whether evaluating `expr` may change what other operands read (it calls a function or
    a built-in)."""
    return any(isinstance(node, (ir.CallFunction, ir.CallBuiltin)) for node in ir.walk([expr]))


def _fill_byte(expr) -> str | None:
    """The byte every byte of an array element filled with the constant `expr` holds, where
    there is one: 0 (0, false, empty, +0.0) and 0xFF (the int -1); else None."""
    if isinstance(expr, ir.Object):
        return "0" if expr.number == 0 else None
    if not isinstance(expr, ir.Const) or expr.type == "float" and math.copysign(1.0, expr.value) < 0:
        return None
    return "0" if expr.value == 0 else "0xFF" if expr.type == "int" and expr.value == -1 else None


def _constant(expr) -> bool:
    return isinstance(expr, (ir.Const, ir.Object))


class CEmitter:
    """One Program -> its C source."""

    def __init__(self, program: Program, max_steps: int, max_depth: int) -> None:
        try:
            self.module = module = lowered(program)
            self.layout = var_layout(program)
        except LoweringError as error:
            raise CUnsupported(error.message, error.span) from None
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.objects = {name: number for name, number in module.objects.items() if number}
        run = module.graph.reached_by(ENTRIES)
        self.functions = {name: f for name, f in module.functions.items() if name in run}
        self.tables = constant_arrays(module)   # read from `static const` tables, not from V
        self.local_tables: list[tuple[int, ...]] = []   # constant local arrays' elements (GL_k)
        # answered from earlier calls with the same arguments (m_NAME, memo_wrapper); never
        # inlined, so that the function itself runs only on a miss
        self.memoized = memoizable(module, set(self.tables)) & set(self.functions)
        self.sizes: dict[str, float] = dict.fromkeys(self.memoized, math.inf)   # expanded_size()'s
        self.pure = set().union(*(module.graph.reachable(name) for name in self.memoized))
        # called by isMoveLegal() and again by end() on the same board (lower/replayed.py): the
        # judgement's call kept, end()'s answered from it (replay_wrappers); never inlined, so
        # that the function itself runs only when the call is not answered
        self.replayed = sorted(replayed(module, set(self.tables)) & set(self.functions))
        self.sizes.update(dict.fromkeys(self.replayed, math.inf))
        self.touching: dict[str, bool] = {}   # touches_cursor()'s
        self.int_scores = True  # every setScore value is an int
        self.uses_history = False
        self.history_lookups: set[str] = set()
        # the lazy draw (kernel.c, g_lazy_draw): moves() and the functions only it reaches
        # emitted again as z_NAME, whose operations and addMove() obey the pass _lz, and the calls
        # of skippable functions there (id of the call -> its step bound)
        self.skips, self.twins = self.lazy_draw()
        # the rejection draw (kernel.c, g_reject_draw; lower/rejection.py): moves() emitted again
        # as x_moves, which saves the locals at each entry of the nest (RJ_OUTER) or runs the nest
        # of one saved entry (RJ_NEST)
        self.split = self.rejection()
        # id() of the nodes whose check the interval analysis proves cannot fail (lower/ranges.py):
        # an index, a square, a division or a negation among them is emitted plain (a sum,
        # difference or product keeps its check: see binary())
        self.proven = proven_checks(module, self.functions,
                                    {context.value for context in ENTRIES} & set(self.functions), self.tables)

    def emit(self) -> CSource:
        functions = self.functions
        for needed in ("isMoveLegal", "end"):
            if needed not in functions:
                raise CUnsupported(f"a game without {needed}()")
        used = ir.builtins_in(functions.values())
        if "isGenerated" in used and "moves" not in functions:
            raise CUnsupported("isGenerated() in a game without moves()")
        self.history_lookups = used & {"repetitions", "nextBoardSeen"}   # which table each needs
        self.uses_history = bool(self.history_lookups)
        chance = bool(self.module.graph.reach[Context.CHANCE])   # chance() is an entry point
        if chance and self.uses_history:
            raise CUnsupported("chance in a game that keeps its history (repetitions() or nextBoardSeen())")
        bodies = [_FunctionEmitter(self, f).emit() for f in functions.values()]
        bodies += [_FunctionEmitter(self, functions[name], lazy=True).emit() for name in self.twins]
        if self.split:
            bodies.append(_FunctionEmitter(self, functions["moves"], reject=True).emit())
        constants = self.constants(bool(used & {"PreviousPosition", "PreviousCount"}), chance)
        defines = "".join(f"#define {name} {value}\n" for name, value in constants.items())
        prototypes = "".join(_FunctionEmitter(self, f).signature() + ";\n" for f in functions.values())
        prototypes += "".join(_FunctionEmitter(self, functions[name], lazy=True).signature() + ";\n"
                              for name in self.twins)
        if self.split:
            prototypes += _FunctionEmitter(self, functions["moves"], reject=True).signature() + ";\n"
        # a judgement that makes consequences starts without a scratch copy (gdef.h, g_consequence)
        scratch = makes_consequences(self.module, Context.IS_MOVE_LEGAL)
        entries = "".join(f"static inline int e_{context.value}(Ctx *c) {{ "
                          f"{'c->HS[H_RES] = 0; ' if scratch and context == Context.IS_MOVE_LEGAL else ''}"
                          f"{'c->HS[H_NEXT] = 0; ' if context == Context.IS_MOVE_LEGAL else ''}"
                          f"{'c->HS[H_RPL] = 0; ' if self.replayed and context == Context.IS_MOVE_LEGAL else ''}"
                          f"{self.entry_call(context.value, 'bool')} }}\n"
                          for context in ENTRIES
                          if context.value in functions and context not in (Context.MOVES, Context.CHANCE))
        if "moves" in functions:
            # a moves() that proposes each candidate once (lower/distinct.py) has none to drop
            unique = ("return c->S[S_NM]; /* each candidate once: lower/distinct.py */"
                      if distinct_candidates(self.module) else "return g_stamped(c, c->S[S_NM]);")
            candidates = ("static int64_t g_candidates(Ctx *c) {\n"
                          f"    {self.entry_call('moves', None)}\n"
                          "    if (c->S[S_ST] < 0) c->S[S_ERR] = 1;\n"
                          "    if (c->S[S_ERR] != 0) return 0;\n"
                          f"    {unique}\n}}\n")
        else:
            candidates = "static int64_t g_candidates(Ctx *c) { return g_automatic(c); }\n"
        if self.twins:   # one pass of the lazy draw, _lz saying which (a constant where it is inlined)
            candidates += ("static inline __attribute__((always_inline)) void g_lazy_moves(Ctx *c, int64_t _lz) {\n"
                           f"    {self.entry_call('moves', None, 'z_')}\n}}\n")
        else:
            candidates += "static inline void g_lazy_moves(Ctx *c, int64_t _lz) { (void)c; (void)_lz; }\n"
        if self.split:   # one pass of the rejection draw, _rj saying which
            candidates += ("static inline __attribute__((always_inline)) void g_reject_moves(Ctx *c, int64_t _rj) {\n"
                           f"    {self.entry_call('moves', None, 'x_')}\n}}\n")
        else:
            candidates += "static inline void g_reject_moves(Ctx *c, int64_t _rj) { (void)c; (void)_rj; }\n"
        if chance:   # the outcomes of a chance node (kernel.c: g_outcomes)
            candidates += ("static int64_t g_merge(Op *CO, int64_t *CS, int64_t m);\n"
                           "static int64_t g_chance_outcomes(Ctx *c) {\n"
                           f"    {self.entry_call('chance', None)}\n"
                           "    if (c->S[S_ST] < 0) c->S[S_ERR] = 1;\n"
                           "    if (c->S[S_ERR] != 0) return 0;\n"
                           "    return g_merge(c->CO, c->CS, c->S[S_NM]);\n}\n")
        else:
            candidates += "static int64_t g_chance_outcomes(Ctx *c) { c->S[S_ERR] = 1; return 0; }\n"
        tables = "".join(f"static const int64_t G_{name}[{len(values)}] = {{{', '.join(map(_int, values))}}};\n"
                         for name, values in self.tables.items())
        tables += "".join(f"static const int64_t GL_{k}[{len(values)}] = {{{', '.join(map(_int, values))}}};\n"
                          for k, values in enumerate(self.local_tables))
        tables += self.automatic_kinds()
        memos = "".join(self.memo_wrapper(self.functions[name]) for name in sorted(self.memoized))
        memos += "".join(self.replay_wrappers(number, self.functions[name]) for number, name in enumerate(self.replayed))
        text = "\n".join(["/* generated by gdef_core.cnative */", defines, '#include "gdef.h"\n', tables, prototypes,
                          memos, self.key_row(), self.memo_row(), *bodies, entries,
                          "static int64_t g_stamped(Ctx *c, int64_t m);",
                          "static int64_t g_automatic(Ctx *c);", candidates, '#include "kernel.c"\n'])
        return CSource(text, self.int_scores, constants, self.tables)

    def automatic_kinds(self) -> str:
        """G_AUTO_*: for each player, the kinds of automatic candidates a random game draws
        (kernel.c g_automatic_draw): the objects it places, in order, whether clears, whether the
        pass; not those isMoveLegal() refuses whatever the position (lower/automatic_guards.py),
        every kind in a game with moves() (which draws none)."""
        nobj = len(self.objects)
        rows, counts, clears, passes = [], [], [], []
        for places, clear, passing in refused_kinds(self.module):
            kept = [o for o in range(1, nobj + 1) if o not in places]
            rows.append("{" + ", ".join(map(str, kept + [0] * (max(nobj, 1) - len(kept)))) + "}")
            counts.append(len(kept))
            clears.append(int(not clear))
            passes.append(int(not passing))
        players = len(counts)
        # AUTO_NK: the number of objects every player places, when they all place as many
        return (f"#define AUTO_NK {counts[0] if len(set(counts)) == 1 else 0}\n"
                f"static const int64_t G_AUTO_OBJ[{players}][{max(nobj, 1)}] = {{{', '.join(rows)}}};\n"
                f"static const int64_t G_AUTO_N[{players}] = {{{', '.join(map(str, counts))}}};\n"
                f"static const int64_t G_AUTO_CLEARS[{players}] = {{{', '.join(map(str, clears))}}};\n"
                f"static const int64_t G_AUTO_PASS[{players}] = {{{', '.join(map(str, passes))}}};\n")

    def lazy_draw(self) -> tuple[dict[int, int], list[str]]:
        """The skippable calls of moves() (lower/skippable.py) and the functions to emit twice
        for the lazy draw; none where moves() has no skippable call, or where a function that
        moves() reaches and another entry point too adds operations or candidates (its
        operations would not obey the pass), or where moves() searches (hasLegalMove())."""
        if "moves" not in self.functions or not self.moves_only("moves"):
            return {}, []
        reach = self.module.graph.reachable("moves") & set(self.functions)
        for name in reach:
            used = ir.builtins_in([self.functions[name]])
            if "hasLegalMove" in used or used & _ADDS and not self.moves_only(name):
                return {}, []
        twins = [name for name in self.functions if name in reach and self.moves_only(name)]
        calls = {id(node): node.name for node in ir.walk(self.functions["moves"].body)
                 if isinstance(node, ir.CallFunction)}
        skips = {key: bound for key, bound in skippable_calls(self.module).items()
                 if key in calls and calls[key] in twins}
        return (skips, twins) if skips else ({}, [])

    def rejection(self) -> Split | None:
        """moves()'s nest a random game draws from by rejection (lower/rejection.py); none where
        the lazy draw is emitted, or moves() is not the kernels' alone."""
        if self.twins or "moves" not in self.functions or not self.moves_only("moves"):
            return None
        if "moves" in self.memoized or "moves" in self.replayed or self.max_depth < _REJECT_DEPTH:
            return None
        return rejection_split(self.module)

    def always_inlined(self, name: str) -> bool:
        return self.expanded_size(name) <= _INLINE_NODES

    def moves_only(self, name: str) -> bool:
        """Whether moves() is the only entry point of the kernels that reaches function `name`:
        its operations are a candidate's, whatever the context slot says, and it keeps the
        candidates' write cursor (S[S_NC]) in a local, _nc (but a memoized function and those it
        calls: they are pure, and called without the cursor)."""
        return self.functions[name].contexts & set(ENTRIES) == {Context.MOVES} and name not in self.pure

    def touches_cursor(self, name: str) -> bool:
        """Whether function `name`, or one it calls, calls a built-in that may read or write
        S[S_NC] (any but the cursor-free ones): a caller holding _nc puts it back in S first."""
        if name not in self.touching:
            self.touching[name] = False   # a cycle adds nothing
            nodes = list(ir.walk(self.functions[name].body))
            self.touching[name] = (any(isinstance(node, ir.CallBuiltin) and node.builtin.name not in _CURSOR_FREE
                                       for node in nodes)
                                   or any(self.touches_cursor(node.name) for node in nodes
                                          if isinstance(node, ir.CallFunction)))
        return self.touching[name]

    def entry_call(self, name: str, result: str | None, prefix: str = "u_") -> str:
        """The statements of a kernel entry point calling u_`name` (or its twin `prefix`NAME; its
        result returned; a twin is told the pass, _lz), the step count in S around it."""
        lead = "c, 1, _lz" if prefix == "z_" else "c, 1, _rj" if prefix == "x_" else "c, 1"
        if not self.always_inlined(name):
            return f"return {prefix}{name}({lead});" if result else f"{prefix}{name}({lead});"
        if self.moves_only(name):   # moves(): its write cursor too
            call, load, store = (f"{prefix}{name}({lead}, &_st, &_nc)", " int64_t _nc = c->S[S_NC];",
                                 " c->S[S_NC] = _nc;")
        else:
            call, load, store = f"{prefix}{name}({lead}, &_st)", "", ""
        body = (f"{c_type(result)} _r = {call}; c->S[S_ST] = _st;{store} return _r;" if result
                else f"{call}; c->S[S_ST] = _st;{store}")
        return f"int64_t _st = c->S[S_ST];{load} {body}"

    def expanded_size(self, name: str) -> float:
        """The IR nodes of function `name` with the functions it calls always inlined into it
        (those of at most _INLINE_NODES expanded); infinite for a recursive one."""
        if name not in self.sizes:
            function = self.functions[name]
            self.sizes[name] = math.inf   # a cycle ends here (a recursive function is never inlined)
            if not function.recursive:
                size = 0
                for node in ir.walk(function.body):
                    size += 1
                    if isinstance(node, ir.CallFunction):
                        callee = self.expanded_size(node.name)
                        size += callee if callee <= _INLINE_NODES else 0
                self.sizes[name] = size
        return self.sizes[name]

    def memo_wrapper(self, function: ir.Function) -> str:
        """m_NAME: a call of pure function NAME (lower/pure.py) answered from a table of the
        calls made so far in this process, spending the steps the call spent again: a dense
        table indexed by the arguments themselves when each is small (D_NAME, _dense_bits),
        else (mm_NAME, out of line) a direct-mapped one by a hash of the arguments that keeps
        them too (M_NAME). An entry keeps the steps, xor INT64_MAX, and the result: an empty
        entry (zeros) asks for INT64_MAX steps, more than any budget left (at most MAXSTEPS),
        so one comparison with the budget left answers both "known?" and "enough steps?". A
        miss, or a budget too small for the steps kept, runs the function (the budget then
        runs out inside it, at the Python backend's step), and a call that did not fail (no
        flag, the budget not spent) is kept. (The dense table's miss stays inline: gcc then
        unrolls nine men's morris's loop over four directions around the call, which it does
        not with an out-of-line miss: 24 against 32 million instructions.)"""
        n = len(function.params)
        result = c_type(function.result)
        typed = [f"{c_type(kind)} a{k}" for k, (_, kind) in enumerate(function.params)]
        args = ", ".join(["c", "_d", *(f"a{k}" for k in range(n))])
        name = function.name
        bits = _dense_bits(n)
        index = " | ".join(f"u{k} << {bits * k}" if k else "u0" for k in range(n)) or "0"
        dense = [f"int64_t *e = D_{name}[{index}];",
                 "int64_t need = e[0] ^ INT64_MAX;",
                 "if (*_stp >= need) {",
                 "    *_stp -= need;",
                 f"    return ({result})e[1];",
                 "}",
                 "c->S[S_ST] = *_stp;",
                 f"{result} r = u_{name}({args});",
                 "int64_t after = c->S[S_ST];",
                 "if (c->S[S_ERR] == 0 && after >= 0) { e[0] = (*_stp - after) ^ INT64_MAX; e[1] = r; }",
                 "*_stp = after;",
                 "return r;"]
        params = ", ".join(["Ctx *c", "int64_t _d", "int64_t *_stp", *typed])
        wrapper = f"static inline __attribute__((always_inline)) {result} m_{name}({params}) {{"
        if not n:   # one entry
            lines = [f"static int64_t D_{name}[1][2];", wrapper, *(f"    {line}" for line in dense), "}"]
            return "\n".join(lines) + "\n"
        same = "".join(f" && e[{k + 2}] == a{k}" for k in range(n))
        lines = [f"static int64_t M_{name}[{_MEMO_SLOTS}][{n + 2}];",
                 f"static int64_t D_{name}[{1 << bits * n}][2];",
                 f"static __attribute__((noinline)) {result} mm_{name}({', '.join(['Ctx *c', 'int64_t _d', *typed])})"
                 " {",
                 "    uint64_t h = 0;" + "".join(f" h = (h ^ (uint64_t)a{k}) * UINT64_C(0x9E3779B97F4A7C15);"
                                              for k in range(n)),
                 f"    int64_t *e = M_{name}[h >> {64 - _MEMO_BITS}];",
                 "    int64_t st = c->S[S_ST], need = e[0] ^ INT64_MAX;",
                 f"    if (st >= need{same}) {{",
                 "        c->S[S_ST] = st - need;",
                 f"        return ({result})e[1];",
                 "    }",
                 f"    {result} r = u_{name}({args});",
                 "    int64_t after = c->S[S_ST];",
                 "    if (c->S[S_ERR] == 0 && after >= 0) {",
                 "        e[0] = (st - after) ^ INT64_MAX; e[1] = r;"
                 + "".join(f" e[{k + 2}] = a{k};" for k in range(n)),
                 "    }",
                 "    return r;",
                 "}",
                 wrapper,
                 # each argument in [-2^bits / 4, 3 * 2^bits / 4): coordinates, directions
                 f"    uint64_t {', '.join(f'u{k} = (uint64_t)a{k} + {(1 << bits) // 4}' for k in range(n))};",
                 f"    if (({' | '.join(f'u{k}' for k in range(n))}) < {1 << bits}) {{",
                 *(f"        {line}" for line in dense),
                 "    }",
                 "    c->S[S_ST] = *_stp;",
                 f"    {result} r = mm_{name}({args});",
                 "    *_stp = c->S[S_ST];",
                 "    return r;",
                 "}"]
        return "\n".join(lines) + "\n"

    def replay_wrappers(self, number: int, function: ir.Function) -> str:
        """r_NAME_keep, called by isMoveLegal(): NAME's call kept in HS (gdef.h, "a judgement's
        call replayed in end()"); r_NAME_take, called by end(): a call with the same arguments
        on the same board answered from it, else NAME run."""
        name, fn, count = function.name, number + 1, len(function.params)
        result = c_type(function.result) if function.result else "void"
        params = "".join(f", int64_t a{i}" for i in range(count))
        call = f"u_{name}(c, _d{''.join(f', a{i}' for i in range(count))})"
        kept = "".join(f" R[RPL_ARG + {i}] = a{i};" for i in range(count))
        same = "".join(f" && R[RPL_ARG + {i}] == a{i}" for i in range(count))
        if function.result:
            run, keep, back, answer = f"{result} r = {call};", " R[RPL_R] = r;", "    return r;\n", f"({result})R[RPL_R]"
        else:
            run, keep, back, answer = f"{call};", "", "", ""
        return (f"static {result} r_{name}_keep(Ctx *c, int64_t _d{params}) {{\n"
                f"    if (!g_replay_start(c)) return {call};\n"
                "    int64_t before = c->S[S_ST];\n"
                f"    {run}\n"
                "    if (g_replay_kept(c)) {\n"
                "        int64_t *R = c->HS + H_RPL;\n"
                f"        R[RPL_D] = _d; R[RPL_STEPS] = before - c->S[S_ST];{keep}{kept}\n"
                f"        R[RPL_FN] = {fn};\n"
                f"    }}\n{back}}}\n"
                f"static {result} r_{name}_take(Ctx *c, int64_t _d{params}) {{\n"
                "    const int64_t *R = c->HS + H_RPL;\n"
                f"    if (R[RPL_FN] == {fn}{same} && g_replay_take(c, {fn}, _d)) return {answer};\n"
                f"    return {call};\n}}\n")

    def constants(self, uses_previous: bool, chance: bool) -> dict[str, int]:
        game = self.module
        nb = game.width * game.height * (2 if game.counting else 1)  # squares that count: the counts too
        ints = sum(slot.count for slot in self.layout.values() if not slot.floats)
        floats = sum(slot.count for slot in self.layout.values() if slot.floats)
        keylen = nb + 1 + sum(slot.count for slot in keyed_slots(self.layout, self.tables).values())
        cap = HISTORY_CAP if self.uses_history else 0
        tsize = 16
        while tsize < 2 * cap:
            tsize *= 2
        # a count operation's count stands in the object's field: no stamps
        keys = 0 if game.counting else stamp_keys(game.width, game.height, len(self.objects))
        # the memo compares the board and the variables a move may change (memo_row())
        changing = sum(slot.count for name, slot in self.layout.items() if name not in self.tables)
        memo, memo_len = CAP_MOVES + 1 + keys + 2 * CAP_MOVES, 6 + nb + changing
        out = {"W": game.width, "H": game.height, "P": game.players, "NOBJ": len(self.objects),
               "NB": nb, "NBO": game.width * game.height, "COUNTING": int(game.counting), "NV": ints, "NVF": floats, "MAXSTEPS": self.max_steps, "MAXDEPTH": self.max_depth,
               "POOL": SEARCH_POOL_FACTOR * self.max_steps, "OPERATION_STEPS": OPERATION_STEPS,
               "MAX_ARRAY_ELEMENTS": MAX_ARRAY_ELEMENTS, "CAP_OPS": CAP_OPS, "CAP_MOVES": CAP_MOVES,
               "KEYS": keys, "TABLE": CAP_MOVES + 1 + keys,
               # hasLegalMove()'s candidates kept for the next turn (kernel.c, g_memo_keep), then
               # the weights of a chance node's outcomes
               "MEMO": memo, "MEMO_LEN": memo_len, "WEIGHTS": memo + memo_len,
               "CHANCE": int(chance), "PERFT_OPS": PERFT_OPS, "PERFT_MOVES": PERFT_MOVES,
               "OWN_CANDIDATES": int("moves" in self.functions),
               # an array made in the arena (not a constant table, not in a frame)
               "ARRAYS": int(any(isinstance(node, ir.DeclareArray) and node.name not in constant_locals(f)
                                 and node.name not in stack_arrays(f)
                                 for f in self.functions.values() for node in ir.walk(f.body))),
               **{f"CTX_{context.name}": context.number for context in Context},
               "USES_HISTORY": int(self.uses_history), "USES_PREVIOUS": int(uses_previous),
               # the history's hash tables kept: by position for repetitions(), by board for
               # nextBoardSeen() (kernel.c, g_hist_add_hashed: a table nothing reads is not filled)
               "USES_REPETITIONS": int("repetitions" in self.history_lookups),
               "USES_BOARD_SEEN": int("nextBoardSeen" in self.history_lookups),
               "KEYLEN": keylen, "HCAP": cap, "TSIZE": tsize, "TMASK": tsize - 1, "LAZY": int(bool(self.twins)),
               # the rejection draw (lower/rejection.py): the bound on one entry's candidates on
               # the board, and the int64s an entry saves (its scalars, each array's view)
               "REJECT": int(self.split is not None),
               "RJ_BOUND": self.split.bound if self.split else 1,
               "RJ_NL": max(1, len(self.split.scalars) + 3 * len(self.split.arrays)) if self.split else 1,
               # a judgement's call kept for end() (gdef.h, g_replay_*): its arguments, and the
               # consequences it may note (a call making more is not kept)
               "REPLAY": int(bool(self.replayed)),
               "RPL_ARGS": max((len(self.functions[name].params) for name in self.replayed), default=0),
               "RPL_OPS": 4 * nb + 16 if self.replayed else 0}
        replay = 6 + out["RPL_ARGS"] + 3 * out["RPL_OPS"] if self.replayed else 0
        at = 8
        for name, size in (("H_PREV", nb), ("H_RES", nb + 1), ("H_NEXT", nb + 1), ("H_KEY", keylen),
                           ("H_RPL", replay),
                           ("H_PT", tsize), ("H_BT", tsize), ("H_EH", cap), ("H_EB", cap), ("H_EK", cap),
                           ("H_ROWS", cap * keylen)):
            out[name] = at
            at += size
        out["HSIZE"] = at
        return out

    def memo_row(self) -> str:
        """g_memo_row(): what hasLegalMove()'s kept candidates were generated from (kernel.c,
        g_memo_keep), compared before the next turn takes them: the board and the game
        variables, floats as their bits, but the arrays read from constant tables, which no
        move changes (oware's 28 coordinates, copied and compared on every move otherwise)."""
        lines = ["static inline void g_memo_row(Ctx *c, int64_t *row) {",
                 "    memcpy(row, c->B, NB * sizeof(int64_t));"]
        k = 0
        for name, slot in self.layout.items():
            if name in self.tables:
                continue
            store = "c->VF" if slot.floats else "c->V"
            lines.append(f"    memcpy(row + NB + {k}, {store} + {slot.offset}, {slot.count} * sizeof(int64_t));")
            k += slot.count
        return "\n".join(lines) + "\n}\n"

    def key_row(self) -> str:
        """g_key_row(): a position's key into HS from `at` (the board, the player to move, the
        game variables not declared `counter` nor read from a constant table, in declaration
        order: lower/layout.py's keyed_slots)."""
        lines = ["static void g_key_row(Ctx *c, const int64_t *B, int64_t p, const int64_t *V, const double *VF, "
                 "int64_t at) {",
                 "    int64_t *HS = c->HS;", "    (void)V;", "    (void)VF;",
                 "    memcpy(HS + at, B, NB * sizeof(int64_t));", "    HS[at + NB] = p;"]
        k = 1
        for slot in keyed_slots(self.layout, self.tables).values():
            n = slot.count
            if slot.floats:
                lines.append(f"    for (int64_t e = 0; e < {n}; e++) HS[at + NB + {k} + e] = "
                             f"g_fbits(c, VF[{slot.offset} + e]);")
            else:
                lines.append(f"    memcpy(HS + at + NB + {k}, V + {slot.offset}, {n} * sizeof(int64_t));")
            k += n
        return "\n".join(lines) + "\n}\n"


class _FunctionEmitter:
    """One IR function -> its C function."""

    def __init__(self, emitter: CEmitter, function: ir.Function, lazy: bool = False, reject: bool = False) -> None:
        self.c = emitter
        self.function = function
        self.name = function.name
        self.lazy = lazy   # the twin of the lazy draw, z_NAME (CEmitter.lazy_draw)
        self.reject = reject   # moves()'s twin of the rejection draw, x_moves (CEmitter.rejection)
        self.prefix = "z_" if lazy else "x_" if reject else "u_"
        self.types = function.locals
        self.lines: list[str] = []
        self.loops: list = []
        self.temps = 0
        self.tables: dict[str, tuple[int, ...]] = {}   # the constant local arrays, found in emit()
        self.unfilled: frozenset[str] = frozenset()   # arrays whose fill is never read, found in emit()
        self.stack = stack_arrays(function)   # local arrays in the C frame (name -> constant sizes)
        self.counters = counters(function, emitter.max_steps)   # their increments never overflow
        if function.result is not None and function.result.endswith("[]"):
            raise CUnsupported("a function returning an array", function.span)
        # every return puts the function's step count (the local _st) back where the caller
        # keeps it first: the caller's local for an always-inlined function, else S
        self.inlined = emitter.always_inlined(function.name)
        self.moves_only = emitter.moves_only(function.name)   # and its cursor in _nc
        self.put_back = _PUT_BACK if self.inlined else _SYNC_OUT
        if self.moves_only:
            self.put_back += " *_ncp = _nc;" if self.inlined else " c->S[S_NC] = _nc;"
        self.give_up = f"{{ {self.put_back} return {_ZERO[function.result] if function.result else ''}; }}"

    def signature(self) -> str:
        f = self.function
        counter = (["int64_t *_stp", "int64_t *_ncp"] if self.inlined and self.moves_only
                   else ["int64_t *_stp"] if self.inlined else [])
        pass_ = ["int64_t _lz"] if self.lazy else ["int64_t _rj"] if self.reject else []
        params = ", ".join(["Ctx *c", "int64_t _d", *pass_, *counter,
                            *(f"{c_type(kind)} l_{name}" for name, kind in f.params)])
        inline = ("static inline __attribute__((always_inline))" if self.inlined else
                  "static inline" if f.inlinable else "static")
        return f"{inline} {c_type(f.result)} {self.prefix}{self.name}({params})"

    def line(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def emit(self) -> str:
        f = self.function
        if any(Check.UNSET in getattr(node, "checks", ()) for node in ir.walk(f.body)):
            raise CUnsupported("a local read before its declaration may have run", f.span)
        self.tables = constant_locals(f)   # pointed at `static const` tables, not made
        self.unfilled = unread_fills(f)   # made without filling them
        self.line(0, self.signature() + " {")
        self.line(1, "(void)c;")
        self.line(1, "(void)_d;")
        if self.lazy:
            self.line(1, "(void)_lz;")
        self.line(1, f"int64_t _st = {'*_stp' if self.inlined else 'c->S[S_ST]'};")
        if self.moves_only:
            self.line(1, f"int64_t _nc = {'*_ncp' if self.inlined else 'c->S[S_NC]'};")
        params = {name for name, _ in f.params}
        for name, kind in f.locals.items():
            if name not in params:
                zero = "{0}" if kind.endswith("[]") else ("{0, 0}" if kind == "dyn" else _ZERO[kind])
                self.line(1, f"{c_type(kind)} l_{name} = {zero};")
                if name in self.stack:
                    element = "double" if kind.startswith("float") else "int64_t"
                    self.line(1, f"{element} l_{name}_m[{math.prod(self.stack[name])}];")
        if self.reject:
            self.restore_entry()
        self.block(f.body, 1)
        self.line(1, self.put_back)
        self.line(0, "}")
        return "\n".join(self.lines) + "\n"

    def saved_locals(self) -> list[str]:
        """The C values an entry of the rejection draw saves, as int64s, in RJ_NL order."""
        split = self.c.split
        return ([f"(int64_t)l_{name}" for name in split.scalars]
                + [part for name in split.arrays
                   for part in (f"(int64_t)(intptr_t)l_{name}.p", f"l_{name}.n0", f"l_{name}.n1")])

    def restore_entry(self) -> None:
        """x_moves in RJ_NEST: the locals of entry S[S_LK] put back, then a jump into the nest
        (gdef.h, g_rj_*)."""
        split = self.c.split
        self.line(1, "if (_rj == RJ_NEST) {")
        self.line(2, "const int64_t *_rs = g_rj_entry(c);")
        at = 0
        for name in split.scalars:
            self.line(2, f"l_{name} = ({c_type(self.types[name])})_rs[{at}];")
            at += 1
        for name in split.arrays:
            self.line(2, f"l_{name}.p = (int64_t *)(intptr_t)_rs[{at}]; l_{name}.n0 = _rs[{at + 1}]; "
                         f"l_{name}.n1 = _rs[{at + 2}];")
            at += 3
        self.line(2, "goto rj_nest;")
        self.line(1, "}")

    def nest(self, loop: ir.Loop, indent: int) -> None:
        """The nest of the rejection draw in x_moves: in RJ_OUTER its steps' bound charged and
        the locals saved (an entry); in RJ_NEST run, then the function left."""
        self.line(indent, "if (_rj == RJ_OUTER) {")
        self.line(indent + 1, f"_st -= {self.c.split.steps}; /* the nest's steps' bound (lower/rejection.py) */")
        self.line(indent + 1, f"g_rj_save((const int64_t[]){{{', '.join(self.saved_locals())}}});")
        self.line(indent, "} else {")
        self.line(indent, "rj_nest: ;")
        self.loop(loop, indent + 1)
        self.line(indent + 1, self.give_up)
        self.line(indent, "}")

    # ------------------------------------------------------------ statements

    def block(self, stmts, indent: int) -> None:
        for stmt in stmts:
            self.stmt(stmt, indent)

    def stmt(self, stmt, indent: int) -> None:
        match stmt:
            case ir.Enter(budget=budget, depth=depth):
                if budget:
                    self.line(indent, f"if (--_st < 0) {{ g_bad(c); {self.give_up} }}")
                else:
                    self.line(indent, "_st -= 1;")
                if depth:
                    self.line(indent, f"if (_d > MAXDEPTH) {{ g_bad(c); {self.give_up} }}")
                    self.line(indent, "g_stack(c);")
            case ir.DeclareArray():
                self.declare_array(stmt, indent)
            case ir.Declare(name=name, type=kind, value=value):
                if self.types[name] != kind:
                    raise CUnsupported(f"'{name}' declared with two types", stmt.span)
                self.set_local(name, value, indent)
            case ir.Assign(target=ir.Local(name=name), value=value):
                self.set_local(name, value, indent)
            case ir.Assign(target=ir.GameVar(name=name), value=value):
                self.assign_game_var(name, value, indent)
            case ir.Assign(target=ir.Element() as target, value=value):
                self.assign_element(target, value, indent)
            case ir.Loop() if self.reject and stmt is self.c.split.loop:
                self.nest(stmt, indent)
            case ir.Loop():
                self.loop(stmt, indent)
            case ir.Break():
                self.line(indent, "break;")
            case ir.Continue():
                for inner in self.loops[-1] if self.loops else ():
                    self.stmt(inner, indent)
                self.line(indent, "continue;")
            case ir.Eval(expr=ir.CallFunction() as call) if self.lazy and id(call) in self.c.skips:
                # not run in a pass that writes nothing of this candidate: its steps' bound charged
                self.line(indent, f"if (g_lazy_skips(c, _lz)) _st -= {self.c.skips[id(call)]}; "
                                  f"else (void)({self.expr(call)});")
            case ir.Eval(expr=ir.CallBuiltin(builtin=builtin)) if self.reject and builtin.name == "addMove":
                self.line(indent, f"if (g_rj_move(c, &_nc)) {self.give_up}")   # the candidate drawn written
            case ir.Eval(expr=expr):
                if not _constant(expr):
                    self.line(indent, f"(void)({self.expr(expr)});")
            case ir.Return(value=None):
                self.line(indent, self.give_up)
            case ir.Return(value=value) if _constant(value):
                self.line(indent, f"{{ {self.put_back} return {self.expr(value)}; }}")
            case ir.Return(value=value):
                self.line(indent, f"{{ __auto_type _r = {self.expr(value)}; {self.put_back} return _r; }}")
            case ir.If():
                self.if_chain(stmt, indent)
            case ir.Fail(check=Check.NO_RETURN):
                self.line(indent, f"g_bad(c); /* reached its end without returning a value */ {self.give_up}")
            case _:
                raise CUnsupported(f"the statement {type(stmt).__name__}", stmt.span)

    def if_chain(self, stmt: ir.If, indent: int, prefix: str = "") -> None:
        self.line(indent, f"{prefix}if ({self.expr(stmt.cond)}) {{")
        self.block(stmt.then, indent + 1)
        otherwise = stmt.otherwise
        if otherwise and len(otherwise) == 1 and isinstance(otherwise[0], ir.If):
            self.if_chain(otherwise[0], indent, "} else ")
            return
        if otherwise:
            self.line(indent, "} else {")
            self.block(otherwise, indent + 1)
        self.line(indent, "}")

    def loop(self, loop: ir.Loop, indent: int) -> None:
        test = self.expr(loop.cond) if loop.cond is not None else "1"
        self.line(indent, f"while ({test}) {{")
        # out of steps: the loop left, or the function where leaving the loop by its test proves
        # an array written whole (lower/unread_fills.py): no read sees its unwritten elements
        leave = self.give_up if exits_whole(loop, self.unfilled, self.function) else "break;"
        self.line(indent + 1, f"if (--_st < 0) {{ g_bad(c); {leave} }}")
        self.loops.append(loop.step)
        self.block([*loop.body, *loop.step], indent + 1)
        self.loops.pop()
        self.line(indent, "}")

    def set_local(self, name: str, value, indent: int) -> None:
        """`name = a + b` (or -) returns at once on an overflow, as the numba emitter's does
        (so the compiler knows the sum did not wrap on the path that goes on); but the increment
        of a counter (lower/counters.py), which cannot overflow, is a plain sum, which gcc may
        make without a branch. (A sum the ranges prove keeps its check: made plain, gcc's
        choices for the loops around it measured slower, docs/performance.md "Checks the ranges
        prove useless".)"""
        if name in self.counters and increment(name, value) is not None:
            self.line(indent, f"l_{name} = {self.expr(value.left)} {value.op} {self.expr(value.right)};")
            return
        if isinstance(value, ir.Binary) and value.type == "int" and value.op in ("+", "-"):
            builtin = "__builtin_add_overflow" if value.op == "+" else "__builtin_sub_overflow"
            a, b = self.expr(value.left), self.expr(value.right)
            r = self.temp()
            self.line(indent, f"{{ int64_t {r}; int64_t {r}a = {a}; int64_t {r}b = {b};")
            self.line(indent + 1, f"if ({builtin}({r}a, {r}b, &{r})) {{ g_bad(c); {self.give_up} }}")
            self.line(indent + 1, f"l_{name} = {r}; }}")
            return
        self.line(indent, f"l_{name} = {self.expr(value)};")

    def assign_game_var(self, name: str, value, indent: int) -> None:
        slot = self.c.layout[name]
        if slot.sizes:
            raise CUnsupported(f"an assignment to '{name}'", value.span)
        self.line(indent, "if (g_writable(c)) {")
        self.store(slot, str(slot.offset), value, indent + 1)
        self.line(indent, "}")

    def store(self, slot: VarSlot, at: str, value, indent: int) -> None:
        code = self.expr(value)
        if slot.floats:
            self.line(indent, f"c->VF[{at}] = {code};")
        elif slot.kind == "bool":
            self.line(indent, f"c->V[{at}] = ({code}) ? 1 : 0;")
        else:
            self.line(indent, f"c->V[{at}] = {code};")

    # ------------------------------------------------------------ arrays

    def declare_array(self, stmt: ir.DeclareArray, indent: int) -> None:
        if self.types[stmt.name] != stmt.type:
            raise CUnsupported(f"'{stmt.name}' declared with two types", stmt.span)
        element = stmt.type.split("[", 1)[0]
        name = f"l_{stmt.name}"
        self.line(indent, "{")
        inner = indent + 1
        sizes = []
        for size in stmt.sizes:
            t = self.temp()
            self.line(inner, f"int64_t {t} = {self.expr(size)};")
            sizes.append(t)
        # Each size is tested first, so that their product cannot overflow; a bad size is
        # flagged and the array made with one element, which every index test then keeps to.
        bad = " || ".join(f"{s} < 1 || {s} > MAX_ARRAY_ELEMENTS" for s in sizes)
        count = " * ".join(sizes)
        self.line(inner, f"if ({bad} || {count} > MAX_ARRAY_ELEMENTS) {{ g_bad(c); "
                         + " ".join(f"{s} = 1;" for s in sizes) + " }")
        self.line(inner, f"_st -= {count};")
        self.line(inner, "if (_st < 0) g_bad(c);")
        pointer = "double" if element == "float" else "int64_t"
        if stmt.rows is not None:
            rows = stmt.rows
            listed = (len(rows),) if len(sizes) == 1 else (len(rows), len(rows[0]))
            self.line(inner, f"if ({' || '.join(f'{s} != {n}' for s, n in zip(sizes, listed))}) g_bad(c);")
            # made with the listed shape, so that writing the listed elements stays inside
            n0, n1 = (listed[0], 1) if len(listed) == 1 else listed
            if stmt.name in self.tables:   # never written (lower/tables.py): the table itself
                self.line(inner, f"{name}.p = (int64_t *)GL_{len(self.c.local_tables)}; {name}.n0 = {n0}; "
                                 f"{name}.n1 = {n1};")
                self.c.local_tables.append(self.tables[stmt.name])
                self.line(indent, "}")
                return
            self.line(inner, f"{name}.p = ({pointer} *)g_alloc(c, {n0 * n1}); {name}.n0 = {n0}; {name}.n1 = {n1};")
            items = rows if len(sizes) == 1 else [item for row in rows for item in row]
            for i, item in enumerate(items):
                self.line(inner, f"{name}.p[{i}] = {self.expr(item)};")
        else:
            byte = _fill_byte(stmt.fill)
            if stmt.name in self.unfilled:   # the fill is run for its effects, never stored
                if not _constant(stmt.fill):
                    self.line(inner, f"(void)({self.expr(stmt.fill)});")
            elif byte is None:
                fill = self.temp()
                self.line(inner, f"{c_type(element)} {fill} = {self.expr(stmt.fill)};")
            n1 = sizes[1] if len(sizes) == 2 else "1"
            if stmt.name in self.stack:   # in the frame (lower/stack_arrays.py): sizes known
                shape = self.stack[stmt.name]
                count = str(math.prod(shape))
                self.line(inner, f"{name}.p = {name}_m; {name}.n0 = {shape[0]}; "
                                 f"{name}.n1 = {shape[1] if len(shape) == 2 else 1};")
            else:
                self.line(inner, f"{name}.p = ({pointer} *)g_alloc(c, {count}); {name}.n0 = {sizes[0]}; "
                                 f"{name}.n1 = {n1};")
            if stmt.name in self.unfilled:   # every element read was written before (lower/unread_fills.py)
                self.line(inner, "/* not filled: no element is read before it is written */")
            elif byte is not None:   # one memset (gcc leaves a loop storing a constant a loop)
                self.line(inner, f"memset({name}.p, {byte}, (size_t)({count}) * sizeof({pointer}));")
            else:
                self.line(inner, f"for (int64_t k = 0; k < {count}; k++) {name}.p[k] = {fill};")
        self.line(indent, "}")

    def indexes_into_temps(self, nodes, sizes: list[str], indent: int, proven: bool) -> list[str]:
        """Each index checked against its size (unless `proven`) and read into a temporary, left
        to right (an assignment evaluates them before its value)."""
        temps = []
        for node, size in zip(nodes, sizes):
            t = self.temp()
            at = f"({self.expr(node)})" if proven else f"g_ix(c, {self.expr(node)}, {size})"
            self.line(indent, f"int64_t {t} = {at};")
            temps.append(t)
        return temps

    def assign_element(self, target: ir.Element, value, indent: int) -> None:
        if isinstance(target.array, ir.GameVar):
            slot = self.c.layout[target.array.name]
            self.line(indent, "if (g_writable(c)) {")
            parts = self.indexes_into_temps(target.indexes, [str(n) for n in slot.sizes], indent + 1,
                                            id(target) in self.c.proven)
            at = (f"{slot.offset} + {parts[0]}" if len(parts) == 1
                  else f"{slot.offset} + {parts[0]} * {slot.sizes[1]} + {parts[1]}")
            self.store(slot, at, value, indent + 1)
            self.line(indent, "}")
            return
        array = f"l_{target.array.name}"
        self.line(indent, "{")
        sizes = self.local_sizes(target.array.name)
        parts = self.indexes_into_temps(target.indexes, sizes, indent + 1, id(target) in self.c.proven)
        at = parts[0] if len(parts) == 1 else f"{parts[0]} * {sizes[1]} + {parts[1]}"
        self.line(indent + 1, f"{array}.p[{at}] = {self.expr(value)};")
        self.line(indent, "}")

    # ------------------------------------------------------------ expressions

    def sequenced(self, nodes: list, build) -> str:
        """`build(texts)` of the operands `nodes`, evaluated left to right where that could
        matter: a later operand has effects and an earlier one is not a constant (see the
        module's docstring); then each is read into a temporary first."""
        texts = [self.expr(node) for node in nodes]
        if not any(_effectful(node) and any(not _constant(before) for before in nodes[:k])
                   for k, node in enumerate(nodes) if k):
            return build(texts)
        temps = [self.temp() for _ in nodes]
        decls = " ".join(f"{c_type(node.type)} {t} = {text};" for t, node, text in zip(temps, nodes, texts))
        return f"({{ {decls} {build(temps)}; }})"

    def expr(self, expr) -> str:
        match expr:
            case ir.Const(value=value, type="int"):
                return _int(value)
            case ir.Const(value=value, type="float"):
                return _float(value)
            case ir.Const(value=value, type="bool"):
                return "1" if value else "0"
            case ir.Object(number=number):
                return _int(number)
            case ir.Local(name=name):
                return f"l_{name}"
            case ir.GameVar(name=name):
                return self.game_var(expr, name)
            case ir.Element(array=ir.GameVar(name=name), indexes=indexes):
                return self.game_array_read(name, indexes, id(expr) in self.c.proven)
            case ir.Element(array=array, indexes=indexes, type=kind):
                proven = id(expr) in self.c.proven
                at = self.sequenced(list(indexes), lambda texts: self._local_at(array.name, texts, proven))
                return f"l_{array.name}.p[{at}]"
            case ir.Board():
                return self.board(expr)
            case ir.CallFunction():
                return self.call_function(expr)
            case ir.CallBuiltin(builtin=builtin, type=kind) if builtin.name not in _STEPLESS and not (
                    builtin.name in _OPERATIONS and self.operation_helper() in _COUNTED_HERE):
                return self.synced(self.call_builtin(expr), kind)
            case ir.CallBuiltin():
                return self.call_builtin(expr)
            case ir.Unary(op="!", operand=operand):
                return f"(!{self.expr(operand)})"
            case ir.Unary(op="-", operand=operand, type="int") if id(expr) in self.c.proven:
                return f"(-{self.expr(operand)})"
            case ir.Unary(op="-", operand=operand, type="int"):
                return f"g_neg(c, {self.expr(operand)})"
            case ir.Unary(op="-", operand=operand):
                return f"(-{self.expr(operand)})"
            case ir.Logic(op=op, left=left, right=right):
                return f"({self.expr(left)} {op} {self.expr(right)})"
            case ir.Binary():
                return self.binary(expr)
            case ir.Convert(value=value, type=kind):
                return self.convert(value, kind)
        raise CUnsupported(f"the expression {type(expr).__name__}", expr.span)

    def local_sizes(self, name: str) -> list[str]:
        """The sizes of local array `name` as C: constants for one in the frame."""
        if name in self.stack:
            shape = self.stack[name]
            return [_int(shape[0]), _int(shape[1]) if len(shape) == 2 else "INT64_C(1)"]
        return [f"l_{name}.n0", f"l_{name}.n1"]

    def _local_at(self, name: str, texts: list[str], proven: bool) -> str:
        sizes = self.local_sizes(name)
        parts = [f"({text})" if proven else f"g_ix(c, {text}, {sizes[dim]})" for dim, text in enumerate(texts)]
        if len(parts) == 1:
            return parts[0]
        return f"({{ int64_t _i = {parts[0]}; _i * {sizes[1]} + {parts[1]}; }})"

    def convert(self, value, want: str) -> str:
        text = self.expr(value)
        if value.type == "int" and want == "float":
            return f"((double)({text}))"
        if want == "float":  # a dyn checked to be an int
            return f"((double)g_dyn_int(c, {text}))"
        return f"g_dyn_{want}(c, {text})"

    def game_var(self, expr: ir.GameVar, name: str) -> str:
        slot = self.c.layout[name]
        if not slot.sizes:
            if slot.floats:
                return f"c->VF[{slot.offset}]"
            if slot.kind == "bool":
                return f"(c->V[{slot.offset}] != 0)"
            return f"c->V[{slot.offset}]"
        # a game-variable array passed to a function: a view of its elements (by reference)
        n1 = slot.sizes[1] if len(slot.sizes) == 2 else 1
        store = "c->VF" if slot.floats else "c->V"
        kind = "GArrF" if slot.floats else "GArr"
        return f"(({kind}){{{store} + {slot.offset}, {slot.sizes[0]}, {n1}}})"

    def game_array_read(self, name: str, nodes, proven: bool) -> str:
        slot = self.c.layout[name]
        table = name in self.c.tables   # never written: its initial value (lower/tables.py)
        base = "" if table else f"{slot.offset} + "

        def build(texts):
            parts = [f"({text})" if proven else f"g_ix(c, {text}, {size})" for text, size in zip(texts, slot.sizes)]
            if len(parts) == 1:
                return f"{base}{parts[0]}"
            return f"({{ int64_t _i = {parts[0]}; {base}_i * {slot.sizes[1]} + {parts[1]}; }})"

        at = self.sequenced(list(nodes), build)
        store = f"G_{name}" if table else "c->VF" if slot.floats else "c->V"
        return f"({store}[{at}] != 0)" if slot.kind == "bool" else f"{store}[{at}]"

    def board(self, expr: ir.Board) -> str:
        name = expr.builtin.name
        a_node, b_node = expr.indexes
        square = _square if id(expr) in self.c.proven else _square_checked
        if name == "CurrentPosition":
            return self.sequenced([a_node, b_node], lambda t: f"c->B[{square(t)}]")
        counting = self.c.module.counting
        if name == "NextPosition":
            nread = "g_nread_counted" if counting else "g_nread"
            return self.sequenced([a_node, b_node], lambda t: f"{nread}(c, {t[0]}, {t[1]})")
        if name == "PreviousPosition":
            return self.sequenced([a_node, b_node], lambda t: f"g_pread(c, {t[0]}, {t[1]})")
        if name == "CurrentCount":
            return self.sequenced([a_node, b_node], lambda t: f"c->B[NBO + {square(t)}]")
        if name == "NextCount":
            return self.sequenced([a_node, b_node], lambda t: f"g_ncount(c, {t[0]}, {t[1]})")
        if name == "PreviousCount":
            return self.sequenced([a_node, b_node], lambda t: f"g_pcount(c, {t[0]}, {t[1]})")
        if name == "ResultPosition":
            return self.sequenced([a_node, b_node], lambda t: f"g_rread(c, {t[0]}, {t[1]})")
        if name == "ResultCount":
            return self.sequenced([a_node, b_node], lambda t: f"g_rcount(c, {t[0]}, {t[1]})")
        if name == "OperationList":
            if not (isinstance(b_node, ir.Const) and b_node.value in (0, 1, 2, 3)):
                dyn = "g_opdyn_counted" if counting else "g_opdyn"
                return self.sequenced([a_node, b_node], lambda t: f"{dyn}(c, {t[0]}, {t[1]})")
            if b_node.value == 3:
                return f"g_opcount(c, {self.expr(a_node)})"
            if b_node.value == 2 and counting:
                return f"g_opobj(c, {self.expr(a_node)})"
            return f"g_opf(c, {self.expr(a_node)}, {b_node.value})"
        raise CUnsupported(f"'{name}' indexed", expr.span)

    def call_function(self, call: ir.CallFunction) -> str:
        depth = "_d + 1" if call.deeper else "_d"
        twin = self.lazy and call.name in self.c.twins
        callee, depth = (f"z_{call.name}", f"{depth}, _lz") if twin else (f"u_{call.name}", depth)
        if call.name in self.c.replayed and self.function.name in ("isMoveLegal", "end"):
            callee = f"r_{call.name}_{'keep' if self.function.name == 'isMoveLegal' else 'take'}"
        if call.name in self.c.memoized:   # its step count stays in the local: no S in between
            return self.sequenced(list(call.args),
                                  lambda texts: f"m_{call.name}({', '.join(['c', depth, '&_st', *texts])})")
        if self.c.always_inlined(call.name):   # counts in this function's _st, through a pointer
            if self.c.moves_only(call.name):   # writes at this function's cursor too
                return self.sequenced(list(call.args),
                                      lambda texts: f"{callee}({', '.join(['c', depth, '&_st', '&_nc', *texts])})")
            return self.sequenced(list(call.args), lambda texts: self.cursor_synced(
                f"{callee}({', '.join(['c', depth, '&_st', *texts])})", call.type, call.name))
        return self.sequenced(list(call.args),
                              lambda texts: self.synced(f"{callee}({', '.join(['c', depth, *texts])})",
                                                        call.type))

    def synced(self, call: str, result: str | None) -> str:
        """`call` of a function that counts steps in S: the local count (and write cursor) put
        there before it and read back after it (its arguments are evaluated first, syncing their
        own calls)."""
        out, back = _SYNC_OUT, "_st = c->S[S_ST];"
        if self.moves_only:
            out, back = f"{out} c->S[S_NC] = _nc;", f"{back} _nc = c->S[S_NC];"
        if result is None:
            return f"({{ {out} {call}; {back} }})"
        r = self.temp()
        return f"({{ {out} __auto_type {r} = {call}; {back} {r}; }})"

    def cursor_synced(self, call: str, result: str | None, callee: str) -> str:
        """`call` of an always-inlined function that keeps no cursor of its own: the cursor put
        in S around it where it may use it."""
        if not (self.moves_only and self.c.touches_cursor(callee)):
            return call
        if result is None:
            return f"({{ c->S[S_NC] = _nc; {call}; _nc = c->S[S_NC]; }})"
        r = self.temp()
        return f"({{ c->S[S_NC] = _nc; __auto_type {r} = {call}; _nc = c->S[S_NC]; {r}; }})"

    def call_builtin(self, call: ir.CallBuiltin) -> str:
        name = call.builtin.name
        if name == "sizeOf":
            return self.size_of(call)
        if name == "setScore":
            value = call.args[1]
            if isinstance(value, ir.Convert):  # an int, or a value typed at run time
                value = value.value
                if value.type != "int":
                    raise CUnsupported("setScore with a value known only at run time", call.span)
            else:
                self.c.int_scores = False
            return self.sequenced([call.args[0], value],
                                  lambda t: f"g_set_score(c, {t[0]}, (double)({t[1]}))")
        if name == "nextBoardSeen" and self.c.module.counting:
            return "g_board_seen_counted(c)"
        if name == "addMove" and self.moves_only:   # the context known: not tested
            return "g_lazy_move(c, _lz, &_nc)" if self.lazy else "g_add_move_moves(c, &_nc)"
        if name in _STATE_READS:
            text = _STATE_READS[name]
            if name == "hasLegalMove" and self.c.uses_history:
                text = "g_has_legal_move_seen(c)"
            return text
        texts_of = lambda build: self.sequenced(list(call.args), build)  # noqa: E731
        if name == "isPlaceOperation":
            return texts_of(lambda t: f"(g_opf(c, {t[0]}, 3) {'== 1' if self.c.module.counting else '!= 0'})")
        if name == "isCountOperation":
            return texts_of(lambda t: f"(g_opf(c, {t[0]}, 3) == 2)")
        if name == "setWinner":
            return texts_of(lambda t: f"g_set_winner(c, {t[0]})")
        if name == "setNextPlayer":
            return texts_of(lambda t: f"g_set_next(c, {t[0]})")
        if name in _OPERATIONS:
            helper = self.operation_helper()
            # g_add_op's OPERATION_STEPS come from _st: it fails only by stopping the game (the
            # steps no longer count), and S gets _st before anything reads it
            after = "; _st -= OPERATION_STEPS; })" if helper in _COUNTED_HERE else ""
            before = "({ " if after else ""
            # g_add_op_moves writes at the local cursor; g_lazy_op as the pass _lz says
            at = "c, _lz, &_nc" if self.lazy else "c, &_nc" if self.moves_only else "c"
            if name == "addPlace":
                return texts_of(lambda t: f"{before}{helper}({at}, {t[0]}, {t[1]}, {t[2]}, 1){after}")
            if name == "addCount":
                return texts_of(lambda t: f"{before}{helper}({at}, {t[0]}, {t[1]}, {t[2]}, 2){after}")
            return texts_of(lambda t: f"{before}{helper}({at}, {t[0]}, {t[1]}, 0, 0){after}")
        if name == "addOutcome":
            return texts_of(lambda t: f"g_add_outcome(c, {t[0]})")
        raise CUnsupported(f"the built-in {name}()", call.span)

    def operation_helper(self) -> str:
        """addPlace/addClear/addCount's helper: a candidate's (outcome's) operation in moves()
        (chance()), a consequence in end() and isMoveLegal(); without testing the context in a
        function only moves() reaches."""
        if self.moves_only:
            return "g_lazy_op" if self.lazy else "g_add_op_moves"
        contexts = self.function.contexts
        return ("g_add_any" if contexts & {Context.MOVES, Context.CHANCE} and contexts & _CONSEQUENCE_CONTEXTS
                else "g_consequence" if contexts & _CONSEQUENCE_CONTEXTS else "g_add_op")

    def size_of(self, call: ir.CallBuiltin) -> str:
        """sizeOf(): of a game-variable array, its sizes are constants (spec 15.1)."""
        array, dimension = call.args
        if not isinstance(dimension, ir.Const):
            raise CUnsupported("sizeOf with a computed dimension", call.span)
        if isinstance(array, ir.GameVar) and self.c.layout[array.name].sizes:
            sizes = self.c.layout[array.name].sizes
            if not 0 <= dimension.value < len(sizes):
                return f"g_ix(c, {dimension.value}, 0)"  # fails as the Python backend does
            return _int(sizes[dimension.value])
        if not (array.type or "").endswith("[]"):
            raise CUnsupported("sizeOf with a computed dimension", call.span)
        if not 0 <= dimension.value < array.type.count("[]"):
            return f"g_ix(c, {dimension.value}, 0)"  # fails as the Python backend does
        return f"({self.expr(array)}).{'n0' if dimension.value == 0 else 'n1'}"

    def binary(self, expr: ir.Binary) -> str:
        op = expr.op
        left, right = expr.left, expr.right
        if left.type == "dyn":  # two values typed at run time, compared
            return self.sequenced([left, right], lambda t: f"(g_dyn_eq(c, {t[0]}, {t[1]}) {op} 1)")
        if expr.type == "bool":
            return self.sequenced([left, right], lambda t: f"({t[0]} {op} {t[1]})")
        if left.type == "int" and op in "/%" and id(expr) in self.c.proven:   # a divisor never 0 nor -1
            return self.sequenced([left, right], lambda t: f"({t[0]} {op} {t[1]})")
        if left.type == "int":
            helper = {"+": "g_add", "-": "g_sub", "*": "g_mul", "/": "g_idiv", "%": "g_imod"}[op]
            return self.sequenced([left, right], lambda t: f"{helper}(c, {t[0]}, {t[1]})")
        if op == "/":
            return self.sequenced([left, right], lambda t: f"g_fdiv(c, {t[0]}, {t[1]})")
        if op == "%":
            return self.sequenced([left, right], lambda t: f"g_fmod(c, {t[0]}, {t[1]})")
        return self.sequenced([left, right], lambda t: f"({t[0]} {op} {t[1]})")


def _square(texts: list[str]) -> str:
    """The index of a square proven on the board."""
    return f"({texts[0]}) * H + ({texts[1]})"


def _square_checked(texts: list[str]) -> str:
    return f"g_sq(c, {texts[0]}, {texts[1]})"


# Each function keeps the step count in a local (_st, a register) rather than in S: written
# back before it returns and before each call of a function that counts steps (read back after).
_SYNC_OUT = "c->S[S_ST] = _st;"
# An always-inlined function counts in its caller's local instead (its _stp), so that the count
# stays in a register across the call: it reads it on entry and puts it back before it returns.
_PUT_BACK = "*_stp = _st;"
# The built-ins whose helpers neither read nor change the step count (the others are synced).
_STEPLESS = frozenset({"sizeOf", "setWinner", "setNextPlayer", "setScore", "addMove", "addOutcome", "chanceNext",
                       "isGenerated", "isPlaceOperation", "isCountOperation", "operationsNum", "onTurn",
                       "moveNumber", "isChanceMove"})
_OPERATIONS = ("addPlace", "addClear", "addCount")
# The built-ins that neither read nor write the candidates' write cursor S[S_NC].
_CURSOR_FREE = _STEPLESS - {"addMove", "addOutcome"}
# The operations' helpers whose steps the generated function counts in its _st.
_COUNTED_HERE = frozenset({"g_add_op", "g_add_op_moves", "g_lazy_op"})
# What makes a candidate: a function that adds these obeys the lazy draw's passes only as a twin.
_ADDS = frozenset({"addPlace", "addClear", "addCount", "addMove"})
# The depth limit the rejection draw needs: lower/rejection.py proves the nest's calls within it
# for call chains from moves() of at most 9 functions.
_REJECT_DEPTH = 16
# Functions of at most this many IR nodes, counting those of the functions always inlined into
# them, are always inlined into their callers (nine men's morris's neighbour() and run(), lines
# of action's piecesOnLine()): their step count, arguments and constants then stay in the
# caller's registers. (Inlining every function of at most 150 nodes of its own made gcc take 28 s
# on nine men's morris, whose calls nest four deep.)
_INLINE_NODES = 250
# The hashed table of a memoized function's calls (CEmitter.memo_wrapper): 2^11 slots.
_MEMO_BITS = 11
_MEMO_SLOTS = 1 << _MEMO_BITS
# Its dense table: at most 2^16 entries of 16 bytes (1 MiB of zeros, touched where called).
_DENSE_BITS = 16


def _dense_bits(n: int) -> int:
    """The bits of each of `n` arguments in a memoized function's dense table: nine men's
    morris's neighbour(x, y, dx, dy), asked about coordinates and directions, gets 4 (-4 to 11)."""
    return _DENSE_BITS // n if n else 0
# Built-ins without arguments.
_STATE_READS = {
    "operationsNum": "c->S[S_NOPS]", "onTurn": "c->S[S_T]", "moveNumber": "c->S[S_MN]",
    "addMove": "g_add_move(c)", "hasLegalMove": "g_has_legal_move(c)",
    "repetitions": "g_repetitions(c)", "nextBoardSeen": "g_board_seen(c)",
    "isGenerated": "g_is_generated(c)", "chanceNext": "g_chance_next(c)", "isChanceMove": "(c->S[S_ICM] != 0)",
}


def c_source(program: Program, max_steps: int, max_depth: int) -> CSource:
    """The C source of a game's rules. Raises CUnsupported."""
    return CEmitter(program, max_steps, max_depth).emit()
