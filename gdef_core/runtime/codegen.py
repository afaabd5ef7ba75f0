"""The compiler: a checked Program, lowered to the IR (gdef_core/lower/), -> the Python source
of its rules. It reads the IR alone (no syntax tree), and decides nothing by reading back the
text it generates.

Each gdef function becomes one Python function (function_compiler.py); locals become Python
locals, expressions Python expressions with the language's checks inlined, so a call of the
rules runs no per-node dispatch. Every user name is prefixed (`u_`/`u1_` functions, `l_` locals
and parameters, `o_` objects) and game variables are list slots, so no name a rules file
chooses can reach Python's namespace.

The generated functions are nested in one factory function whose local variables hold the
state of the call in progress (board `B`, next position `N`, operations `OPS`, player `T`,
move number `MN`, game variables `V`, step budget `ST`, the single operation `PX PY PO PP`,
...): closure cells, the fastest storage Python has for values shared by many functions.

Locations: every call of a gdef function starts a new line of the generated source, and a table
maps each generated line to a gdef span, so the gdef call stack can be rebuilt from a Python
traceback when an error happens, at no cost when none does. Errors raised on purpose carry the
number of their span in `spans`.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass

from gdef_core.builtins import Context
from gdef_core.lower import facts, ir
from gdef_core.lower.build import LoweringError, lowered
from gdef_core.lower.consequences import makes_consequences
from gdef_core.lower.limits import SEARCH_POOL_FACTOR
from gdef_core.runtime import prelude
from gdef_core.runtime.function_compiler import (
    LOCAL_NAMES, MARK_END, MARK_START, CompileError, FunctionCompiler, function_arms,
)
from gdef_core.semantics.program import Program
from gdef_core.span import Span

__all__ = ["CompileError", "CompiledSource", "Compiler"]

_CELLS = prelude.CELLS

Lines = list[tuple[int, str, Span | None]]


@dataclass
class CompiledSource:
    source: str
    filename: str
    spans: list[Span]  # location number -> gdef span
    line_spans: dict[int, Span]  # generated line (1-based) -> gdef span
    function_spans: dict[str, Span]  # gdef function name -> its name's span
    inline_chains: dict[int, tuple]  # location number -> the inlined calls it sits in


class Compiler:
    def __init__(self, program: Program, max_steps: int, max_depth: int, filename: str,
                 optimize: bool = True, export: tuple[str, ...] = ()) -> None:
        self.program = program
        self.export = export  # gdef functions also returned by the factory (the debugger's watches)
        # optimize=False: the reference compilation (every check kept, no single-operation
        # variant), against which the tests compare the optimised one.
        self.optimize = optimize
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.filename = filename
        self.module: ir.Module | None = None  # lowered by compile()
        self.spans: list[Span] = []
        self._span_numbers: dict[tuple, int] = {}
        self.inline_chains: dict[int, tuple] = {}
        self.arms: dict = {}  # function -> its arms, for the functions inlined (function_arms)
        self.predicates: dict = {}  # facts.predicates(): calls whose truth says something
        # The single-operation isMoveLegal() as one expression, when it compiles to one: the
        # candidate filters evaluate it in place of a call.
        self.legal_one: str | None = None
        # The same with the cells it reads as local variables, when its steps can never exceed
        # the budget (no loop, no call left): (expression, objects it names).
        self.legal_local: tuple[str, list[str]] | None = None
        self.uses_next = False  # set when NextPosition is compiled (outside the variant)
        # isMoveLegal() makes consequences on the scratch copy R (ResultPosition): then every
        # move is judged by the general isMoveLegal(), none by the single-operation variant.
        self.judged_consequences = False
        self.blocks: list[Lines] = []
        self.helper_count = 0
        self.current: ir.Function | None = None  # the function being compiled

    @property
    def graph(self):
        return self.module.graph

    @property
    def current_span(self) -> Span:
        """Where the compiler is: the function being compiled (or compiled last), else the first."""
        if self.current is not None:
            return self.current.span
        for function in (self.module.functions.values() if self.module is not None else ()):
            return function.span
        return Span("<rules>", 0, 0, 0, 0)

    def position_vars(self) -> str:
        """The game variables a position is compared by (spec 15.4: not those declared
        `counter`), as the text of a tuple's items over `v`; an array as nested tuples."""
        parts = []
        for i, decl in enumerate(self.module.game_vars.values()):
            if decl.counter:
                continue
            dims = len(decl.sizes)
            parts.append(f"v[{i}]" if dims == 0 else f"tuple(v[{i}])" if dims == 1
                         else f"tuple(map(tuple, v[{i}]))")
        return "".join(f"{part}, " for part in parts)

    def loc(self, span: Span, chain: tuple = ()) -> int:
        """The number of a location; `chain`: the inlined calls it sits in, outermost first,
        as (function, call span) pairs (the error's call stack gets them back)."""
        key = (span, chain)
        number = self._span_numbers.get(key)
        if number is None:
            number = self._span_numbers[key] = len(self.spans)
            self.spans.append(span)
            if chain:
                self.inline_chains[number] = chain
        return number

    # ------------------------------------------------------------ whole program

    def compile(self) -> CompiledSource:
        try:
            module = self.module = lowered(self.program)
        except LoweringError as error:
            raise CompileError(error.message, error.span) from None
        self.width, self.height, self.players = module.width, module.height, module.players
        # The single-operation variant reads an operation as four cells: a game whose squares
        # count (a count operation has five fields) is judged by the general isMoveLegal().
        self.single = self.optimize and not module.counting
        self.var_index = {name: i for i, name in enumerate(module.game_vars)}
        functions = module.functions
        self.arms = function_arms(module, self.optimize)
        if self.optimize:
            self.predicates = facts.predicates(functions, self.arms)
        judging = module.graph.reach[Context.IS_MOVE_LEGAL]
        if makes_consequences(module, Context.IS_MOVE_LEGAL):
            self.judged_consequences = self.uses_next = True
            self.single = False
        for function in functions.values():
            self.current = function
            self.blocks.append(FunctionCompiler(self, function).compile())
            if function.name in judging and self.single:
                compiler = FunctionCompiler(self, function, variant=True)
                self.blocks.append(compiler.compile())
                if function.name == "isMoveLegal":
                    self.legal_one = _expression_of(compiler)
                    self.legal_local = self._local_judge(function, compiler)
        self.blocks.append(self._game_vars())
        lines: Lines = _prelude(self)
        for block in self.blocks:
            lines.extend(block)
        lines.extend(self._entries())
        exported = ["_init_vars", "_set_hook", "_position_key",
                    *(f"_e_{c.value}" for c in Context if module.graph.reach[c])]
        if "isMoveLegal" in functions:
            exported += ["_e_filter", "_e_default"]
        exported += [f"u_{name}" for name in self.export]
        lines.append((1, "return {" + ", ".join(f"{n!r}: {n}" for n in exported) + "}", None))
        source, line_spans = _assemble(lines, self.spans)
        return CompiledSource(source, self.filename, self.spans, line_spans,
                              {name: f.span for name, f in functions.items()}, self.inline_chains)

    def _game_vars(self) -> Lines:
        nowhere = Span("<game variables>", 0, 0, 0, 0)
        pseudo = ir.Function("<game variables>", (), None, {}, (), frozenset(), False, frozenset(), {}, False,
                             nowhere)
        fc = FunctionCompiler(self, pseudo)
        values = []
        for decl in self.module.game_vars.values():
            sizes = decl.sizes
            if not sizes:
                values.append(fc.expr(decl.fill).text)
            elif decl.rows is not None:
                values.append(fc.array_literal(decl.rows, [str(n) for n in sizes], sizes, 0, decl.span, 2))
            else:
                fill = fc.expr(decl.fill).text
                values.append(f"[{fill}] * {sizes[0]}" if len(sizes) == 1
                              else f"[[{fill}] * {sizes[1]} for _ in range({sizes[0]})]")
        return [(1, "def _init_vars():", None), (2, "return [" + ", ".join(values) + "]", None)]

    def _entries(self) -> Lines:
        """The functions the Python side calls: one per entry point, plus `_e_filter`, which
        judges many candidate moves without leaving the generated code. A move of one
        operation is judged by the single-operation variant of isMoveLegal()."""
        out: Lines = []
        functions = self.module.functions
        steps = self.max_steps

        def lines(indent: int, *texts: str) -> None:
            out.extend((indent, text, None) for text in texts)

        def budget_check(name: str) -> str:
            # Calls of functions that cannot loop only count steps; the total is checked here.
            return f"if ST < 0: _loop_limit({steps}, {self.loc(functions[name].span)})"

        def judge(indent: int, ops: str) -> None:
            """Set the cells for judging `ops` and call the right isMoveLegal(): `_r`."""
            if not self.single:
                if self.uses_next:
                    lines(indent, f"N = _next_board(B, {ops})")
                lines(indent, "R = N")   # ResultPosition (the debugger shows it too)
                lines(indent, "_r = u_isMoveLegal(1)")
                return
            lines(indent, "if NOPS == 1:")
            lines(indent + 1, f"PX, PY, PO, PP = {ops}[0]", "_r = u1_isMoveLegal(1)")
            lines(indent, "else:")
            if self.uses_next:
                lines(indent + 1, f"N = _next_board(B, {ops})")
            lines(indent + 1, "_r = u_isMoveLegal(1)")

        def entry(name: str, params: str, setup: str, result: str) -> None:
            if name not in functions:
                return
            lines(1, f"def _e_{name}({params}):")
            lines(2, f"nonlocal {_CELLS}", setup, f"ST = {steps}")
            if name == "isMoveLegal":
                judge(2, "ops")
            else:
                lines(2, f"_r = u_{name}(1)")
            lines(2, budget_check(name), f"return {result}")

        # his: the History of the position (None when the game keeps none); sc: the scores,
        # changed in place; pb: the board before the move (PreviousPosition); own: the
        # candidates are those moves() proposes here, so isGenerated() holds for each.
        entry("isMoveLegal", "b, ops, t, mn, v, his=None",
              f"B = b; N = b; OPS = ops; NOPS = len(ops); T = t; MN = mn; V = v; CTX = {Context.IS_MOVE_LEGAL.number}; RO = True; "
              "HIS = his; PB = b; GEN = None; OWN = False", "_r")
        # chm: the move applied is a chance outcome (isChanceMove()); CHN: chanceNext() was called.
        entry("end", "b, ops, t, mn, v, sc=None, his=None, pb=None, chm=False",
              f"B = b; N = b; OPS = ops; NOPS = len(ops); T = t; MN = mn; V = v; CTX = {Context.END.number}; RO = False; R = b; "
              "WIN = None; NXT = None; SC = sc; HIS = his; PB = b if pb is None else pb; CHM = chm; CHN = False",
              "_r, WIN, NXT, CHN")
        entry("moves", "b, t, mn, v",
              f"B = b; N = b; OPS = (); NOPS = 0; T = t; MN = mn; V = v; CTX = {Context.MOVES.number}; RO = True; R = b; "
              "CAND = []; CUR = []; PB = b", "CAND")
        entry("setup", "b, v, sc=None",
              f"B = b; N = b; OPS = (); NOPS = 0; T = 0; MN = 0; V = v; CTX = {Context.SETUP.number}; RO = False; R = b; NXT = None; "
              "SC = sc; PB = b; CHN = False", "NXT, CHN")
        if self.module.graph.reach[Context.CHANCE]:  # a game that calls chanceNext(): the outcomes, [(ops, weight)]
            entry("chance", "b, t, mn, v",
                  f"B = b; N = b; OPS = (); NOPS = 0; T = t; MN = mn; V = v; CTX = {Context.CHANCE.number}; RO = True; R = b; "
                  "CAND = []; CUR = []; PB = b",
                  f"CAND or _no_outcomes({self.loc(functions['chance'].span)})")
        if "isMoveLegal" in functions:
            lines(1, "def _e_filter(b, candidates, t, mn, v, first, his=None, own=False):")
            lines(2, f"nonlocal {_CELLS}",
                  f"B = b; N = b; T = t; MN = mn; V = v; CTX = {Context.IS_MOVE_LEGAL.number}; RO = True; HIS = his; PB = b; "
                  "GEN = None; OWN = own",
                  f"found = []; pool = {self.search_pool}",
                  *(("_empty = EMPTY", *(f"_{name} = {name}" for name in self.legal_local[1]))
                    if self.legal_local else ()),
                  "for OPS in candidates:")
            lines(3, "NOPS = len(OPS)")
            if self.legal_local:  # one operation: an expression over locals, nothing to count
                judged, objects = self.legal_local
                lines(3, "if NOPS == 1:")
                lines(4, "px, py, po, pp = OPS[0]; ops = OPS", "try:")
                lines(5, f"if not {judged}:")
                lines(6, "continue")
                lines(4, "except (Fail, RecursionError):")
                lines(5, "continue")
                lines(4, "found.append(OPS)", "if first:")
                lines(5, "break")
                lines(4, "continue")
            lines(3, f"ST = {steps}", "try:")
            if self.legal_one:  # one operation: the expression in place of the call
                lines(4, "if NOPS == 1:")
                lines(5, "PX, PY, PO, PP = OPS[0]; ST -= 1", f"_r = {self.legal_one}")
                lines(4, "else:")
                if self.uses_next:
                    lines(5, "N = _next_board(B, OPS)")
                lines(5, "_r = u_isMoveLegal(1)")
            else:
                judge(4, "OPS")
            lines(3, "except (Fail, RecursionError):")
            lines(4, "_r = False")
            self._spend_pool(lines, 3, steps)
            lines(3, "if not _r or ST < 0:")
            lines(4, "continue")
            lines(3, "found.append(OPS)", "if first:")
            lines(4, "break")
            lines(2, "return found")
            self._default_filter(lines, steps)
        return out

    @property
    def search_pool(self) -> int:
        """The steps one search for legal moves may take in all: each candidate has its own
        budget (spec section 14), and this bounds their sum, so that no search is endless."""
        return SEARCH_POOL_FACTOR * self.max_steps

    def _spend_pool(self, lines, indent: int, steps: int) -> None:
        lines(indent, f"pool -= {steps} - ST", "if pool < 0:")
        lines(indent + 1, f"_search_limit({self.search_pool})")

    def _local_judge(self, function: ir.Function, variant: FunctionCompiler) -> tuple[str, list[str]] | None:
        """The single-operation isMoveLegal() as an expression over local variables: the
        board `b`, the player `t`, ..., the operation `px py po pp`, the objects `_o_NAME`;
        `variant`: its compiler, which compiled it to the expression legal_one."""
        if self.legal_one is None or variant.uses.quoted or variant.uses.dynamic:
            return None
        if variant.uses.steps + 1 > self.max_steps:
            return None
        local = FunctionCompiler(self, function, variant=True, count_steps=False, names=LOCAL_NAMES)
        local.compile()
        expression = _expression_of(local)
        if expression is None or "ST" in local.uses.cells:
            return None
        return expression, [f"o_{name}" for name in sorted(local.uses.objects)]

    def _default_filter(self, lines, steps: int) -> None:
        """`_e_default`: the legal moves among the automatic candidates (spec section 12) of a
        game without moves(): `places` is every (x, y, obj, ops, move) place, in order;
        `clears[k]` is (ops, move) of the clear of square k, and its last entry the pass.
        -> (the legal candidates' operations, their moves)."""
        h = self.height
        lines(1, "def _e_default(b, places, clears, t, mn, v, first, his=None):")
        if not self.single:
            squares = f"b[:{self.width * h}]" if self.module.counting else "b"  # objects, not counts
            lines(2, f"candidates = [p[3:] for p in places] + [clears[k] for k, o in enumerate({squares}) if o is not EMPTY]",
                  "candidates.append(clears[-1])",
                  "found = _e_filter(b, [ops for ops, _ in candidates], t, mn, v, first, his)",
                  "chosen = {id(ops): move for ops, move in candidates}",
                  "return found, [chosen[id(ops)] for ops in found]")
            return
        if self.legal_local:
            self._default_filter_local(lines, steps)
            return
        judged = f"({self.legal_one})" if self.legal_one else "u1_isMoveLegal(1)"
        start = f"ST = {steps - 1}" if self.legal_one else f"ST = {steps}"  # the call's own step

        def judge_and_keep(indent: int) -> None:
            lines(indent, "try:")
            lines(indent + 1, f"_r = {judged}")
            lines(indent, "except (Fail, RecursionError):")
            lines(indent + 1, "_r = False")
            self._spend_pool(lines, indent, steps)
            lines(indent, "if not _r or ST < 0:")
            lines(indent + 1, "continue")
            lines(indent, "found.append(OPS); moves.append(MOVE)", "if first:")
            lines(indent + 1, "return found, moves")

        lines(2, f"nonlocal {_CELLS}",
              f"B = b; N = b; T = t; MN = mn; V = v; CTX = {Context.IS_MOVE_LEGAL.number}; RO = True; NOPS = 1; PP = True; HIS = his; PB = b",
              f"found = []; moves = []; pool = {self.search_pool}",
              "for PX, PY, PO, OPS, MOVE in places:")
        lines(3, start)
        judge_and_keep(3)
        lines(2, "PO = EMPTY; PP = False", "for _k, _o in enumerate(b):")
        lines(3, "if _o is EMPTY:")
        lines(4, "continue")
        lines(3, f"PX = _k // {h}; PY = _k % {h}; OPS, MOVE = clears[_k]; {start}")
        judge_and_keep(3)
        self._judge_pass(lines, steps)

    def _default_filter_local(self, lines, steps: int) -> None:
        """`_e_default` when isMoveLegal() for one operation is an expression over locals that
        cannot run out of steps: each candidate costs that expression and nothing more."""
        judged, objects = self.legal_local
        h = self.height

        def judge_and_keep(indent: int) -> None:
            lines(indent, "try:")
            lines(indent + 1, f"if {judged}:")
            lines(indent + 2, "found.append(ops); moves.append(move)", "if first:")
            lines(indent + 3, "return found, moves")
            lines(indent, "except (Fail, RecursionError):")
            lines(indent + 1, "pass")

        lines(2, f"nonlocal {_CELLS}",
              f"B = b; N = b; T = t; MN = mn; V = v; CTX = {Context.IS_MOVE_LEGAL.number}; RO = True; NOPS = 1; HIS = his; PB = b",
              "found = []; moves = []; _empty = EMPTY; pp = True",
              *(f"_{name} = {name}" for name in objects),
              "for px, py, po, ops, move in places:")
        judge_and_keep(3)
        lines(2, "po = _empty; pp = False", "for _k, _o in enumerate(b):")
        lines(3, "if _o is _empty:")
        lines(4, "continue")
        lines(3, f"px = _k // {h}; py = _k % {h}; ops, move = clears[_k]")
        judge_and_keep(3)
        self._judge_pass(lines, steps)

    def _judge_pass(self, lines, steps: int) -> None:
        """The end of `_e_default`: the pass, by the general isMoveLegal()."""
        lines(2, f"OPS, MOVE = clears[-1]; NOPS = 0; N = b; ST = {steps}", "try:")
        lines(3, "if u_isMoveLegal(1) and ST >= 0:")
        lines(4, "found.append(OPS); moves.append(MOVE)")
        lines(2, "except (Fail, RecursionError):")
        lines(3, "pass")
        lines(2, "return found, moves")


def _expression_of(compiled: FunctionCompiler) -> str | None:
    """The returned expression of a compiled function that is only `return (expression)`
    (after its prologue), when its code makes no call and uses no local."""
    if compiled.returned is None or compiled.uses.calls or compiled.uses.locals:
        return None
    return f"({compiled.returned.text})"


def _prelude(compiler: Compiler) -> Lines:
    """The factory's header with the game's sizes and limits, the fixed cells and built-ins of
    runtime/prelude.py, the objects, and the key positions are compared by."""
    header = (f"def _factory(OBJECTS, W={compiler.width}, H={compiler.height}, P={compiler.players}, "
              f"MAX_DEPTH={compiler.max_depth}, MAX_STEPS={compiler.max_steps}):")
    objects = [f"o_{name} = OBJECTS[{number}]" for name, number in compiler.module.objects.items() if number]
    key = ["def _position_key(b, p, v, c):", f"    return (tuple(b), p, ({compiler.position_vars()}), c)"]
    if compiler.module.counting:  # a count operation has a fifth field; the board holds the counts after the objects
        key += ["_next_board = _next_counted", "_effect = _effect_counted"]
    return [(0, header, None), *((0, line, None) for line in _prelude_body()),
            *((1, line, None) for line in objects + key)]


@functools.cache
def _prelude_body() -> tuple[str, ...]:
    """The lines of prelude.factory's body up to its GENERATED line, as indented there."""
    lines = inspect.getsource(prelude.factory).split("\n")
    return tuple(lines[1:lines.index("    " + prelude.GENERATED)])


def _assemble(lines: Lines, spans: list[Span]) -> tuple[str, dict[int, Span]]:
    """Join the logical lines into source text; each call mark starts a new physical line,
    mapped to its call's span."""
    out: list[str] = []
    line_spans: dict[int, Span] = {}
    for indent, text, span in lines:
        first, *calls = text.split(MARK_START)
        if span is not None:
            line_spans[len(out) + 1] = span
        out.append("    " * indent + first)
        for call in calls:
            number, _, rest = call.partition(MARK_END)
            line_spans[len(out) + 1] = spans[int(number)]
            out.append(rest)
    return "\n".join(out) + "\n", line_spans
