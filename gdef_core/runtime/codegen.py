"""The compiler: a checked Program -> the Python source of its rules.

Each gdef function becomes one Python function; locals become Python locals, expressions become
Python expressions with the language's checks inlined (overflow, bounds, division by zero), so a
call of the rules runs no per-node dispatch. Every user name is prefixed (`u_` functions, `l_`
locals and parameters, `o_` objects) and game variables are list slots, so no name a rules file
chooses can reach Python's namespace.

The generated functions are nested in one factory function whose local variables hold the
state of the call in progress (board `B`, next position `N`, operations `OPS`, player `T`,
move number `MN`, game variables `V`, step budget `ST`, ...): closure cells, the fastest
storage Python has for values shared by many functions.

Locations: every call of a gdef function starts a new line of the generated source, and a table
maps each generated line to a gdef span, so the gdef call stack can be rebuilt from a Python
traceback when an error happens, at no cost when none does. Errors raised on purpose carry the
number of their span in `spans`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from gdef_core.builtins import ALIASES, BUILTINS, Kind
from gdef_core.runtime import flow
from gdef_core.runtime.builtin_impl import IMPLEMENTATIONS
from gdef_core.runtime.errors import Fail
from gdef_core.runtime.ops import int_div, int_mod
from gdef_core.runtime.values import INT_MAX, INT_MIN
from gdef_core.semantics.program import Program
from gdef_core.span import Span
from gdef_core.syntax import ast

# Marks, inside generated expression text, where a gdef call starts: a new line is started
# there and mapped to the call's span.
_MARK = "\x00"
_MARK_RE = re.compile("\x00([0-9]+)\x01")

# Context numbers: which entry point is running (the built-ins' contexts in builtins.py).
CONTEXTS = {"isMoveLegal": 1, "end": 2, "moves": 3, "setup": 4}

# Deeper generated expressions are moved into a helper function: Python's tokenizer allows
# 200 nested parentheses at most.
_MAX_NESTING = 80


class CompileError(Exception):
    """The program has a construct the checker should have rejected (an error in the checker or
    the compiler, never in the rules file); carries the gdef span."""

    def __init__(self, message: str, span: Span) -> None:
        super().__init__(f"{span}: {message}")
        self.message = message
        self.span = span


@dataclass(slots=True)
class Code:
    """A compiled expression: Python text, its gdef type ("int", "float", "bool", "obj", "dyn"
    when only known at run time, None for no value) and its value when constant."""

    text: str
    type: str | None
    value: object = None

    @property
    def constant(self) -> bool:
        return self.value is not None


def _constant(value) -> Code:
    if type(value) is bool:
        return Code(repr(value), "bool", value)
    if type(value) is int:
        return Code(f"({value})" if value < 0 else str(value), "int", value)
    text = repr(value) if math.isfinite(value) else f"float('{value}')"
    return Code(f"({text})" if value < 0 else text, "float", value)


_SIMPLE = re.compile(r"\(?-?[A-Za-z0-9_.]+\)?\Z")


def _is_simple(text: str) -> bool:
    """A name or a literal: safe to repeat in the generated text."""
    return bool(_SIMPLE.match(text)) and "'" not in text


@dataclass
class CompiledSource:
    source: str
    filename: str
    spans: list[Span]  # location number -> gdef span
    line_spans: dict[int, Span]  # generated line (1-based) -> gdef span
    uses_next_position: bool
    function_spans: dict[str, Span]  # gdef function name -> its name's span
    entry_points: set[str] = field(default_factory=set)


class Compiler:
    def __init__(self, program: Program, max_steps: int, max_depth: int, filename: str) -> None:
        self.program = program
        self.width = program.width
        self.height = program.height
        self.players = program.players
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.filename = filename
        self.objects = list(program.objects)
        self.var_index = {name: i for i, name in enumerate(program.game_vars)}
        self.var_types = {name: decl.type.name for name, decl in program.game_vars.items()}
        self.spans: list[Span] = []
        self._span_numbers: dict[Span, int] = {}
        self.uses_next = False
        self.blocks: list[list[tuple[int, str, Span | None]]] = []
        self.helper_count = 0
        self.current: ast.FunctionDef | None = None  # the function being compiled

    def loc(self, span: Span) -> int:
        number = self._span_numbers.get(span)
        if number is None:
            number = self._span_numbers[span] = len(self.spans)
            self.spans.append(span)
        return number

    # ------------------------------------------------------------ whole program

    def compile(self) -> CompiledSource:
        functions = self.program.functions
        self.recursive = flow.recursive_functions(functions)
        for function in functions.values():
            self.current = function
            FunctionCompiler(self, function).compile()
        self._game_vars()
        lines: list[tuple[int, str, Span | None]] = [
            (0, "def _factory(OBJECTS):", None),
            *_prelude(self),
        ]
        for block in self.blocks:
            lines.extend(block)
        lines.extend(self._entries())
        exported = ["_init_vars", "_set_hook", *(f"_e_{name}" for name in CONTEXTS if name in functions)]
        if "isMoveLegal" in functions:
            exported.append("_e_filter")
        lines.append((1, "return {" + ", ".join(f"{n!r}: {n}" for n in exported) + "}", None))
        source, line_spans = _assemble(lines, self.spans)
        return CompiledSource(source, self.filename, self.spans, line_spans, self.uses_next,
                              {name: f.name.span for name, f in functions.items()},
                              {name for name in CONTEXTS if name in functions})

    def _game_vars(self) -> None:
        pseudo = ast.FunctionDef(ast.Name("<game variables>", _NOWHERE), [], None,
                                 ast.Block([], _NOWHERE), _NOWHERE)
        fc = FunctionCompiler(self, pseudo)
        values = []
        for name, decl in self.program.game_vars.items():
            values.append(fc.coerce(fc.expr(decl.init), decl.type.name, decl.init.span).text)
        block = [(1, "def _init_vars():", None),
                 (2, "return [" + ", ".join(values) + "]", None)]
        self.blocks.append(block)

    def _entries(self) -> list[tuple[int, str, Span | None]]:
        """The functions the Python side calls: one per entry point, plus `_e_filter`, which
        runs isMoveLegal() over many candidate moves without leaving the generated code."""
        cells = "B, N, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, BAD"
        out: list[tuple[int, str, Span | None]] = []
        functions = self.program.functions
        steps = self.max_steps

        def lines(indent: int, *texts: str) -> None:
            out.extend((indent, text, None) for text in texts)

        def budget_check(name: str) -> str:
            # Calls of functions that cannot loop only count steps; the total is checked here.
            return f"if ST < 0: _loop_limit({steps}, {self.loc(functions[name].name.span)})"

        def entry(name: str, params: str, setup: str, result: str) -> None:
            if name not in functions:
                return
            lines(1, f"def _e_{name}({params}):")
            lines(2, f"nonlocal {cells}", setup, f"ST = {steps}", f"_r = u_{name}(1)",
                  budget_check(name), f"return {result}")

        entry("isMoveLegal", "b, n, ops, t, mn, v",
              "B = b; N = n; OPS = ops; NOPS = len(ops); T = t; MN = mn; V = v; CTX = 1; RO = True", "_r")
        entry("end", "b, ops, t, mn, v",
              "B = b; N = b; OPS = ops; NOPS = len(ops); T = t; MN = mn; V = v; CTX = 2; RO = False; "
              "WIN = None; NXT = None", "_r, WIN, NXT")
        entry("moves", "b, t, mn, v",
              "B = b; N = b; OPS = (); NOPS = 0; T = t; MN = mn; V = v; CTX = 3; RO = True; "
              "CAND = []; CUR = []; BAD = False", "CAND")
        entry("setup", "b, v",
              "B = b; N = b; OPS = (); NOPS = 0; T = 0; MN = 0; V = v; CTX = 4; RO = False; NXT = None",
              "NXT")
        if "isMoveLegal" in functions:
            h = self.height
            lines(1, "def _e_filter(b, candidates, t, mn, v, first):")
            lines(2, f"nonlocal {cells}",
                  "B = b; N = b; T = t; MN = mn; V = v; CTX = 1; RO = True",
                  "found = []",
                  "for OPS in candidates:")
            lines(3, "NOPS = len(OPS)", f"ST = {steps}")
            if self.uses_next:
                lines(3, "if OPS:")
                lines(4, "N = b.copy()", "for _x, _y, _o, _p in OPS:")
                lines(5, f"N[_x * {h} + _y] = _o")
            lines(3, "try:")
            lines(4, "if not u_isMoveLegal(1) or ST < 0:")
            lines(5, "continue")
            lines(3, "except (Fail, RecursionError):")
            lines(4, "continue")
            lines(3, "found.append(OPS)", "if first:")
            lines(4, "break")
            lines(2, "return found")
        return out

_NOWHERE = Span("<nowhere>", 0, 0, 0, 0)


def _prelude(compiler: Compiler) -> list[tuple[int, str, Span | None]]:
    """The factory's cells and the built-ins that need them."""
    w, h, p = compiler.width, compiler.height, compiler.players
    max_depth, max_steps = compiler.max_depth, compiler.max_steps
    objects = ["EMPTY = OBJECTS[0]"] + [f"o_{name} = OBJECTS[{i + 1}]" for i, name in enumerate(compiler.objects)]
    text = f"""
B = N = V = WIN = NXT = CAND = CUR = HOOK = None
OPS = ()
NOPS = T = MN = ST = CTX = 0
RO = BAD = False

def _set_hook(hook):
    nonlocal HOOK
    HOOK = hook

def _enter_failed(d):
    if d > {max_depth}:
        raise Fail("G608", "recursion too deep: more than {max_depth} nested recursive calls (a recursion without a base case?)", CALL_SITE)
    _loop_limit({max_steps}, CALL_SITE)

def _off_board(x, y, loc):
    raise Fail("G603", f"square ({{x}}, {{y}}) is off the board (x from 0 to {w - 1}, y from 0 to {h - 1})", loc)

def _bad_operation(i, loc):
    raise Fail("G604", f"there is no operation {{i}}: the move has {{NOPS}} operation{{'' if NOPS == 1 else 's'}} (numbered from 0)", loc)

def _operation_field(i, j, loc):
    if not 0 <= i < NOPS:
        _bad_operation(i, loc)
    if 0 <= j <= 2:
        return OPS[i][j]
    raise Fail("G604", f"OperationList[{{i}}][{{j}}]: the second index must be 0 (x), 1 (y) or 2 (the object)", loc)

def _player(what, p, loc):
    if not 0 <= p < {p}:
        raise Fail("G605", f"{{what}}({{p}}): there is no player {{p}} (players are 0 to {p - 1})", loc)

def _not_here(what, allowed, loc):
    names = {{1: "isMoveLegal()", 2: "end()", 3: "moves()", 4: "setup()"}}
    raise Fail("G611", f"{{what}} is not allowed while {{names[CTX]}} runs (only in {{allowed}})", loc)

def _set_winner(p, loc):
    nonlocal WIN
    _player("setWinner", p, loc)
    if CTX == 2:
        WIN = p

def _set_next_player(p, loc):
    nonlocal NXT
    if CTX != 2 and CTX != 4:
        _not_here("setNextPlayer()", "end() and setup()", loc)
    _player("setNextPlayer", p, loc)
    NXT = p

def _add_place(x, y, o, loc):
    nonlocal BAD
    if CTX == 3:
        if 0 <= x < {w} and 0 <= y < {h}:
            CUR.append((x, y, o, True))
        else:
            BAD = True
    elif CTX == 4:
        if not (0 <= x < {w} and 0 <= y < {h}):
            _off_board(x, y, loc)
        B[x * {h} + y] = o
    else:
        _not_here("addPlace()", "moves() and setup()", loc)

def _add_clear(x, y, loc):
    nonlocal BAD
    if CTX == 3:
        if 0 <= x < {w} and 0 <= y < {h}:
            CUR.append((x, y, EMPTY, False))
        else:
            BAD = True
    elif CTX == 4:
        if not (0 <= x < {w} and 0 <= y < {h}):
            _off_board(x, y, loc)
        B[x * {h} + y] = EMPTY
    else:
        _not_here("addClear()", "moves() and setup()", loc)

def _add_move(loc):
    nonlocal CUR, BAD
    if CTX != 3:
        _not_here("addMove()", "moves()", loc)
    if not BAD:
        CAND.append(tuple(CUR))
    CUR = []
    BAD = False

def _has_legal_move(loc):
    nonlocal B, N, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, BAD
    if CTX != 2:
        _not_here("hasLegalMove()", "end()", loc)
    saved = (B, N, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, BAD)
    result = HOOK(B, NXT if NXT is not None else (T + 1) % {p}, MN, V)
    B, N, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, BAD = saved
    return result

def _read_only(name, loc):
    _not_here(f"assigning the game variable '{{name}}'", "end(), setup() and the functions they call", loc)
"""
    return [(1, line, None) for line in objects + text.strip("\n").split("\n")]


def _assemble(lines, spans: list[Span]) -> tuple[str, dict[int, Span]]:
    """Join the logical lines into source text; each call mark starts a new physical line,
    mapped to its call's span."""
    out: list[str] = []
    line_spans: dict[int, Span] = {}
    for indent, text, span in lines:
        parts = _MARK_RE.split(text)
        if span is not None:
            line_spans[len(out) + 1] = span
        out.append("    " * indent + parts[0])
        for i in range(1, len(parts), 2):
            line_spans[len(out) + 1] = spans[int(parts[i])]
            out.append(parts[i + 1])
    return "\n".join(out) + "\n", line_spans


class FunctionCompiler:
    """Compiles one gdef function (or the game variables' initialisers)."""

    def __init__(self, compiler: Compiler, function: ast.FunctionDef) -> None:
        self.compiler = compiler
        self.function = function
        self.name = function.name.text
        self.local_types: dict[str, str] = {p.name.text: p.type.name for p in function.params}
        for node in ast.walk(function.body):
            if isinstance(node, ast.VarDecl):
                self.local_types.setdefault(node.name.text, node.type.name)
        self.unset = flow.maybe_unset_reads(function, set(self.local_types))
        self.lines: list[tuple[int, str, Span | None]] = []
        self.temps = 0
        # Only functions on a cycle of the call graph can nest without bound: they check the
        # depth and the step budget on entry, and count one level of depth for their callees.
        self.recursive = self.name in getattr(compiler, "recursive", ())
        self.depth_arg = "_d + 1" if self.recursive else "_d"

    def loc(self, span: Span) -> int:
        return self.compiler.loc(span)

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    # ------------------------------------------------------------ function

    def compile(self) -> None:
        function = self.function
        params = ", ".join(["_d", *(f"l_{p.name.text}" for p in function.params)])
        self.emit(1, f"def u_{self.name}({params}):", function.name.span)
        self.emit(2, "nonlocal ST", None)
        self.emit(2, "ST -= 1", None)
        if self.recursive:
            self.emit(2, f"if ST < 0 or _d > {self.compiler.max_depth}: _enter_failed(_d)", None)
        for name in sorted({node.name.text for node in self.unset}):
            self.emit(2, f"l_{name} = _U", None)
        self.block(function.body.stmts, 2)
        if function.return_type is not None and flow.completes(function.body.stmts):
            body = function.body.span
            end = Span(body.file, body.end_line, max(body.end_column - 1, 0), body.end_line, body.end_column)
            self.emit(2, f"_no_return({self.name!r}, {self.loc(end)})", end)
        self.compiler.blocks.append(self.lines)

    def emit(self, indent: int, text: str, span: Span | None) -> None:
        self.lines.append((indent, text, span))

    # ------------------------------------------------------------ statements

    def block(self, stmts, indent: int) -> None:
        start = len(self.lines)
        for stmt in stmts:
            self.stmt(stmt, indent)
        if len(self.lines) == start:
            self.emit(indent, "pass", None)

    def stmt(self, stmt, indent: int) -> None:
        match stmt:
            case ast.VarDecl(type=type_ref, name=name, init=init):
                value = self.coerce(self.expr(init), type_ref.name, init.span)
                self.emit(indent, f"l_{name.text} = ({value.text})", stmt.span)
            case ast.Assign(target=ast.NameRef(name=name), value=value):
                self.assign(name, value, stmt, indent)
            case ast.ExprStmt(expr=expr):
                self.emit(indent, f"({self.expr(expr).text})", stmt.span)
            case ast.Return(value=None):
                self.emit(indent, "return", stmt.span)
            case ast.Return(value=value):
                result = self.function.return_type
                if result is None:
                    raise CompileError("a value returned from a function without a result", stmt.span)
                code = self.coerce(self.expr(value), result.name, value.span)
                self.emit(indent, f"return ({code.text})", stmt.span)
            case ast.If():
                self.if_chain(stmt, indent)
            case ast.While(cond=cond, body=body):
                self.emit(indent, f"while ({self.condition(cond).text}):", stmt.span)
                self.emit(indent + 1, "ST -= 1", stmt.span)
                self.emit(indent + 1, f"if ST < 0: _loop_limit({self.compiler.max_steps}, {self.loc(stmt.span)})",
                          stmt.span)
                self.block(body.stmts, indent + 1)
            case ast.Block(stmts=stmts):
                for inner in stmts:
                    self.stmt(inner, indent)
            case _:
                raise CompileError(f"cannot run this statement ({type(stmt).__name__})", stmt.span)

    def assign(self, name: ast.Name, value, stmt, indent: int) -> None:
        text = name.text
        if text in self.local_types:
            code = self.coerce(self.expr(value), self.local_types[text], value.span)
            self.emit(indent, f"l_{text} = ({code.text})", stmt.span)
            return
        index = self.compiler.var_index.get(text)
        if index is None:
            raise CompileError(f"cannot assign to '{text}'", name.span)
        code = self.coerce(self.expr(value), self.compiler.var_types[text], value.span)
        self.emit(indent, f"if RO: _read_only({text!r}, {self.loc(stmt.span)})", stmt.span)
        self.emit(indent, f"V[{index}] = ({code.text})", stmt.span)

    def if_chain(self, stmt: ast.If, indent: int) -> None:
        keyword = "if"
        while True:
            self.emit(indent, f"{keyword} ({self.condition(stmt.cond).text}):", stmt.span)
            self.block(stmt.then.stmts, indent + 1)
            otherwise = stmt.otherwise
            if isinstance(otherwise, ast.If):
                stmt, keyword = otherwise, "elif"
                continue
            if otherwise is not None:
                self.emit(indent, "else:", otherwise.span)
                self.block(otherwise.stmts, indent + 1)
            return

    def condition(self, expr) -> Code:
        return self.coerce(self.expr(expr), "bool", expr.span)

    # ------------------------------------------------------------ expressions

    def expr(self, expr) -> Code:
        code = self._expr(expr)
        if len(code.text) > 200 and _nesting(code.text) > _MAX_NESTING:
            return self.hoist(code)
        return code

    def _expr(self, expr) -> Code:
        match expr:
            case ast.IntLit(value=value):
                if value > INT_MAX:
                    raise CompileError("integer literal out of range", expr.span)
                return _constant(value)
            case ast.FloatLit(value=value):
                return _constant(float(value))
            case ast.BoolLit(value=value):
                return _constant(bool(value))
            case ast.NameRef():
                return self.name_ref(expr)
            case ast.Call():
                return self.call(expr)
            case ast.Index(base=base, indexes=indexes):
                builtin = BUILTINS.get(base.text)
                if builtin is None or builtin.kind is not Kind.BOARD or len(indexes) != 2:
                    raise CompileError(f"'{base.text}' cannot be indexed", expr.span)
                return IMPLEMENTATIONS[base.text](self, expr, [self.expr(i) for i in indexes])
            case ast.Unary(op=op, operand=operand):
                return self.unary(expr, op, operand)
            case ast.Binary():
                return self.binary(expr)
        raise CompileError(f"cannot run this expression ({type(expr).__name__})", expr.span)

    def name_ref(self, expr: ast.NameRef) -> Code:
        text = expr.name.text
        if text in self.local_types:
            if expr in self.unset:
                return Code(f"(l_{text} if l_{text} is not _U else _unset_local({text!r}, {self.loc(expr.span)}))",
                            self.local_types[text])
            return Code(f"l_{text}", self.local_types[text])
        index = self.compiler.var_index.get(text)
        if index is not None:
            return Code(f"V[{index}]", self.compiler.var_types[text])
        if text in self.compiler.program.objects:
            return Code(f"o_{text}", "obj")
        builtin = BUILTINS.get(ALIASES.get(text, text))
        if builtin is not None and builtin.kind is Kind.VALUE:
            return IMPLEMENTATIONS[builtin.name](self, expr, [])
        raise CompileError(f"'{text}' is not a value", expr.span)

    def call(self, call: ast.Call) -> Code:
        name = call.callee.text
        args = [self.expr(arg) for arg in call.args]
        function = self.compiler.program.functions.get(name)
        if function is not None:
            if len(args) != len(function.params):
                raise CompileError(f"'{name}' takes {len(function.params)} arguments", call.span)
            texts = [self.depth_arg, *(self.coerce(arg, p.type.name, arg_node.span).text
                                 for arg, p, arg_node in zip(args, function.params, call.args))]
            result = function.return_type.name if function.return_type else None
            return Code(f"{_MARK}{self.loc(call.span)}\x01u_{name}({', '.join(texts)})", result)
        builtin = BUILTINS.get(name)
        if builtin is None or builtin.kind is not Kind.FUNCTION:
            raise CompileError(f"'{name}' is not a function", call.span)
        if len(args) != len(builtin.params):
            raise CompileError(f"'{name}' takes {len(builtin.params)} arguments", call.span)
        return IMPLEMENTATIONS[name](self, call, args)

    def builtin_params(self, node):
        return BUILTINS[node.callee.text].params

    def unary(self, expr: ast.Unary, op: str, operand) -> Code:
        if op == "!":
            value = self.coerce(self.expr(operand), "bool", operand.span)
            return Code(f"(not {value.text})", "bool")
        if isinstance(operand, ast.IntLit) and operand.value <= -INT_MIN:
            return _constant(-operand.value)
        value = self.expr(operand)
        loc = self.loc(expr.span)
        if value.type == "int":
            if value.constant:
                return _constant(-value.value) if value.value != INT_MIN else Code(f"_overflow({loc})", "int")
            t = self.temp()
            return Code(f"({t} if ({t} := -{value.text}) <= {INT_MAX} else _overflow({loc}))", "int")
        if value.type == "float":
            return Code(f"(-{value.text})", "float")
        if value.type == "dyn":
            return Code(f"_dyn_negate({value.text}, {loc})", "int")
        raise CompileError(f"cannot negate {value.type}", expr.span)

    def binary(self, expr: ast.Binary) -> Code:
        op = expr.op
        left = self.expr(expr.left)
        right = self.expr(expr.right)
        loc = self.loc(expr.op_span)
        if op in ("&&", "||"):
            a = self.coerce(left, "bool", expr.left.span).text
            b = self.coerce(right, "bool", expr.right.span).text
            return Code(f"({a} {'and' if op == '&&' else 'or'} {b})", "bool")
        if "dyn" in (left.type, right.type):
            return self.dynamic(op, left, right, loc)
        if op in ("==", "!="):
            return self.equality(op, left, right, expr)
        if op in ("<", "<=", ">", ">="):
            a, b = self.numbers(left, right, expr)
            return Code(f"({a} {op} {b})", "bool")
        return self.arithmetic(op, left, right, loc, expr)

    def numbers(self, left: Code, right: Code, expr) -> tuple[str, str]:
        """Both operands as numbers of one type (an int beside a float becomes a float)."""
        for side in (left, right):
            if side.type not in ("int", "float"):
                raise CompileError(f"'{expr.op}' takes numbers, not {side.type}", expr.span)
        if left.type == right.type:
            return left.text, right.text
        return self.coerce(left, "float", expr.span).text, self.coerce(right, "float", expr.span).text

    def equality(self, op: str, left: Code, right: Code, expr) -> Code:
        if left.type == "obj" and right.type == "obj":
            return Code(f"({left.text} {'is' if op == '==' else 'is not'} {right.text})", "bool")
        if left.type == right.type == "bool":
            return Code(f"({left.text} {op} {right.text})", "bool")
        a, b = self.numbers(left, right, expr)
        return Code(f"({a} {op} {b})", "bool")

    def arithmetic(self, op: str, left: Code, right: Code, loc: int, expr) -> Code:
        if left.type == right.type == "int":
            if left.constant and right.constant:
                try:
                    return _constant(_fold(op, left.value, right.value, loc))
                except Fail:
                    pass  # fails when (if ever) it runs
            if op == "/":
                return Code(f"_int_div({left.text}, {right.text}, {loc})", "int")
            if op == "%":
                return Code(f"_int_mod({left.text}, {right.text}, {loc})", "int")
            return self.checked(f"{left.text} {op} {right.text}", op, right, loc)
        a, b = self.numbers(left, right, expr)
        if op == "/":
            return Code(f"_float_div({a}, {b}, {loc})", "float")
        if op == "%":
            return Code(f"_float_mod({a}, {b}, {loc})", "float")
        return Code(f"({a} {op} {b})", "float")

    def checked(self, text: str, op: str, right: Code, loc: int) -> Code:
        """An int result with the overflow test inlined; adding or subtracting a constant can
        only overflow on one side, so only that side is tested."""
        t = self.temp()
        if right.constant and op in "+-":
            grows = (right.value >= 0) == (op == "+")
            test = f"({t} := {text}) <= {INT_MAX}" if grows else f"({t} := {text}) >= {INT_MIN}"
        else:
            test = f"{INT_MIN} <= ({t} := {text}) <= {INT_MAX}"
        return Code(f"({t} if {test} else _overflow({loc}))", "int")

    def dynamic(self, op: str, left: Code, right: Code, loc: int) -> Code:
        """An operand's type is known only at run time: the operation checks it then."""
        if op in ("==", "!="):
            code = f"_dyn_equal({left.text}, {right.text}, {loc})"
            return Code(code if op == "==" else f"(not {code})", "bool")
        if op in ("<", "<=", ">", ">="):
            return Code(f"_dyn_order({op!r}, {left.text}, {right.text}, {loc})", "bool")
        result = "float" if "float" in (left.type, right.type) else "int"
        return Code(f"_dyn_arith({op!r}, {left.text}, {right.text}, {loc})", result)

    def coerce(self, code: Code, want: str, span: Span) -> Code:
        """The value as type `want`: ints widen to float; values typed only at run time are
        checked then."""
        have = code.type
        if have == want:
            return code
        if have == "int" and want == "float":
            if code.constant:
                return _constant(float(code.value))
            return Code(f"float({code.text})", "float")
        if have == "dyn":
            return Code(f"_as_{want}({code.text}, {self.loc(span)})", want)
        raise CompileError(f"a {have} value where {want} is needed", span)

    def hoist(self, code: Code) -> Code:
        """Move a deeply nested expression into a helper function of its own."""
        self.compiler.helper_count += 1
        name = f"_h{self.compiler.helper_count}"
        used = sorted(set(re.findall(r"\bl_[A-Za-z0-9_]+", code.text)))
        params = ", ".join(["_d", *used])
        block = [(1, f"def {name}({params}):", None), (2, f"return ({code.text})", None)]
        self.compiler.blocks.append(block)
        return Code(f"{name}({params})", code.type, code.value)

    # ------------------------------------------------------------ board access (built-ins)

    def bind(self, code: Code) -> tuple[str, str]:
        """(text that evaluates the value the first time, text that reuses it)."""
        if _is_simple(code.text):
            return code.text, code.text
        t = self.temp()
        return f"({t} := {code.text})", t

    def board_read(self, board: str, node: ast.Index, args: list[Code]) -> Code:
        w, h = self.compiler.width, self.compiler.height
        x = self.coerce(args[0], "int", node.indexes[0].span)
        y = self.coerce(args[1], "int", node.indexes[1].span)
        loc = self.loc(node.span)
        x_ok = x.constant and 0 <= x.value < w
        y_ok = y.constant and 0 <= y.value < h
        if (x.constant and not x_ok) or (y.constant and not y_ok):
            return Code(f"_off_board({x.text}, {y.text}, {loc})", "obj")
        if x_ok and y_ok:
            return Code(f"{board}[{x.value * h + y.value}]", "obj")
        tests = []
        if x_ok:
            x_use = str(x.value)
        else:
            x_first, x_use = self.bind(x)
            tests.append(f"(0 <= {x_first} < {w})")
        if y_ok:
            y_use = str(y.value)
        else:
            y_first, y_use = self.bind(y)
            tests.append(f"(0 <= {y_first} < {h})")
        index = f"{x.value * h}+{y_use}" if x_ok else f"{x_use}*{h}+{y_use}"
        return Code(f"({board}[{index}] if {' & '.join(tests)} else _off_board({x_use}, {y_use}, {loc}))", "obj")

    def operation_part(self, node, index_expr: Code, field_number: int, result: str) -> Code:
        """Field `field_number` of operation `index_expr` (0 x, 1 y, 2 object, 3 is-place)."""
        i = self.coerce(index_expr, "int", node.span)
        loc = self.loc(node.span)
        if i.constant:
            if i.value < 0:
                return Code(f"_bad_operation({i.value}, {loc})", result)
            return Code(f"(OPS[{i.value}][{field_number}] if NOPS > {i.value} else _bad_operation({i.value}, {loc}))",
                        result)
        first, use = self.bind(i)
        return Code(f"(OPS[{use}][{field_number}] if 0 <= {first} < NOPS else _bad_operation({use}, {loc}))",
                    result)

    def operation_field(self, node: ast.Index, args: list[Code]) -> Code:
        j = self.coerce(args[1], "int", node.indexes[1].span)
        if j.constant and j.value in (0, 1, 2):
            return self.operation_part(node, args[0], j.value, "obj" if j.value == 2 else "int")
        i = self.coerce(args[0], "int", node.indexes[0].span)
        return Code(f"_operation_field({i.text}, {j.text}, {self.loc(node.span)})", "dyn")


def _fold(op: str, a: int, b: int, loc: int) -> int:
    """Constant int arithmetic at compile time, with the run-time semantics."""
    if op == "/":
        return int_div(a, b, loc)
    if op == "%":
        return int_mod(a, b, loc)
    value = a + b if op == "+" else a - b if op == "-" else a * b
    if not INT_MIN <= value <= INT_MAX:
        raise Fail("G602", "overflow", loc)
    return value


def _nesting(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in "([":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif char in ")]":
            depth -= 1
    return deepest
