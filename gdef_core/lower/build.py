"""A checked Program -> the IR (ir.py): names resolved, types and conversions explicit, the
run-time checks written out, `for` locals renamed apart; once, for every backend.

The checker has accepted the program: a construct it should have rejected raises
LoweringError with its span (a bug of the checker or of this module, never of the rules file).
"""
from __future__ import annotations

import weakref

from gdef_core.builtins import ALIASES, BUILTINS, Kind
from gdef_core.lower import facts, flow, inlining
from gdef_core.lower import ir
from gdef_core.lower.calls import CallGraph, call_graph
from gdef_core.lower.ir import Check
from gdef_core.lower.loops import scoped_loop_locals
from gdef_core.lower.values import INT_MAX
from gdef_core.semantics.program import Program
from gdef_core.span import Span
from gdef_core.syntax import ast

_SCALARS = ("int", "float", "bool", "obj")
_OPERATORS = {"+", "-", "*", "/", "%"}
_ORDER = {"<", "<=", ">", ">="}
# The checks of int arithmetic: `/` overflows only for INT_MIN / -1.
_INT_CHECKS = {"+": (Check.OVERFLOW,), "-": (Check.OVERFLOW,), "*": (Check.OVERFLOW,),
               "/": (Check.DIVISION, Check.OVERFLOW), "%": (Check.DIVISION,)}
_FLOAT_CHECKS = {"/": (Check.DIVISION,), "%": (Check.DIVISION,)}
_CONSTANT_CALLS = ("boardWidth", "boardHeight", "playersNum")
# The built-ins the IR holds as constants (Const) and objects (Object): no backend implements them.
RESOLVED = frozenset({"empty", *_CONSTANT_CALLS})


class LoweringError(Exception):
    """A construct the checker should have rejected; carries the gdef span."""

    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(f"{span}: {message}" if span is not None else message)
        self.message = message
        self.span = span


_LOWERED: "weakref.WeakKeyDictionary[Program, ir.Module]" = weakref.WeakKeyDictionary()


def lowered(program: Program) -> ir.Module:
    """The IR of a checked program without errors, built once per Program (the backends and
    the native backend's state conversion all ask for it; it is never changed)."""
    module = _LOWERED.get(program)
    if module is None:
        module = _LOWERED[program] = lower_program(program)
    return module


def lower_program(program: Program) -> ir.Module:
    """The IR of a checked program without errors."""
    graph = call_graph(program)
    functions = program.functions
    inlinable = inlining.inlinable_functions(functions, set(graph.recursive))
    objects = {"empty": 0, **{name: number for number, name in enumerate(program.objects, start=1)}}
    constants = {"boardWidth": program.width, "boardHeight": program.height, "playersNum": program.players}
    game_vars: dict[str, ir.GameVarDecl] = {}  # each initial value may read the ones before it
    module_scope = _Scope(program, objects, constants, {}, game_vars)
    for name, decl in program.game_vars.items():
        sizes = tuple(facts.static_int(module_scope.typed(size, "int"), {}) for size in decl.sizes or ())
        if None in sizes:
            raise LoweringError(f"the sizes of the game variable array '{name}'", decl.span)
        element = decl.type.name
        fill, rows = module_scope.initial(decl.init, element, len(sizes))
        game_vars[name] = ir.GameVarDecl(name, element + "[]" * len(sizes), sizes, fill, rows,
                                         bool(getattr(decl, "counter", False)), decl.span)
    lowered = {name: _lower_function(function, program, graph, inlinable, objects, constants, game_vars)
               for name, function in functions.items()}
    start = tuple((entry.x.value, entry.y.value, module_scope.name_ref(ast.NameRef(entry.obj, entry.obj.span)).name)
                  for entry in (program.start.entries if program.start is not None else ()))
    return ir.Module(program.width, program.height, program.players, objects, game_vars, lowered, graph,
                     frozenset(ir.builtins_in(lowered.values())), start)


def _lower_function(function: ast.FunctionDef, program: Program, graph: CallGraph, inlinable: dict,
                    objects: dict[str, int], constants: dict[str, int],
                    game_vars: dict[str, ir.GameVarDecl]) -> ir.Function:
    name = function.name.text
    scoped = scoped_loop_locals(function)
    params = tuple((p.name.text, p.type.name + "[]" * p.rank) for p in scoped.params)
    local_types = dict(params)
    declarations: dict[str, int] = {}
    for node in ast.walk(scoped.body):
        if isinstance(node, ast.VarDecl):
            local_types.setdefault(node.name.text, node.type.name + "[]" * len(node.sizes))
            declarations[node.name.text] = declarations.get(node.name.text, 0) + 1
    unset = flow.maybe_unset_reads(scoped, set(local_types))
    scope = _Scope(program, objects, constants, local_types, game_vars, unset, graph.recursive,
                   name in graph.recursive, scoped.return_type.name if scoped.return_type else None)
    recursive = name in graph.recursive
    body = [ir.Enter(recursive or graph.calls_not_inlined(name, inlinable), recursive, scoped.name.span)]
    body += scope.block(scoped.body.stmts)
    if scoped.return_type is not None and flow.completes(scoped):
        body.append(ir.Fail(Check.NO_RETURN, _end_of(scoped.body.span)))
    unset_names = {node.name.text if isinstance(node, ast.NameRef) else node.base.text for node in unset}
    reassigned = facts.assigned_names(body)
    stable = frozenset(local for local in local_types if local not in reassigned
                       and declarations.get(local, 0) <= 1 and local not in unset_names)
    int_locals = {local for local, kind in local_types.items() if kind == "int"} - {p for p, _ in params}
    return ir.Function(name, params, scope.result, local_types, tuple(body), graph.contexts_of(name), recursive,
                       stable, facts.monotone_bounds(body, int_locals, {}), name in inlinable,
                       function.name.span)


def _end_of(span: Span) -> Span:
    """The closing brace of a block: where a typed function without return fails."""
    return Span(span.file, span.end_line, max(span.end_column - 1, 0), span.end_line, span.end_column)


class _Scope:
    """Lowers the statements and expressions of one function (or the game variables'
    initial values, with no locals)."""

    def __init__(self, program: Program, objects: dict[str, int], constants: dict[str, int],
                 local_types: dict[str, str], game_vars: dict[str, ir.GameVarDecl], unset=(),
                 recursive=frozenset(), is_recursive: bool = False, result: str | None = None) -> None:
        self.program = program
        self.objects = objects
        self.constants = constants
        self.local_types = local_types
        self.game_vars = game_vars
        self.unset = {id(node) for node in unset}
        self.recursive = recursive
        self.is_recursive = is_recursive
        self.result = result

    # ------------------------------------------------------------ statements

    def block(self, stmts) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for stmt in stmts:
            self.stmt(stmt, out)
        return out

    def stmt(self, stmt, out: list) -> None:
        match stmt:
            case ast.VarDecl(sizes=sizes, type=type_ref, name=name, init=init) if sizes:
                element = type_ref.name
                fill, rows = self.initial(init, element, len(sizes))
                out.append(ir.DeclareArray(name.text, element + "[]" * len(sizes),
                                           tuple(self.typed(size, "int") for size in sizes), fill, rows,
                                           span=stmt.span))
            case ast.VarDecl(type=type_ref, name=name, init=init):
                out.append(ir.Declare(name.text, type_ref.name, self.typed(init, type_ref.name), stmt.span))
            case ast.Assign(target=target, value=value):
                place = self.place(target)
                element = place.type
                out.append(ir.Assign(place, self.typed(value, element), stmt.span))
            case ast.For(init=init, cond=cond, step=step, body=body):
                if init is not None:
                    self.stmt(init, out)
                steps: list[ir.Stmt] = []
                if step is not None:
                    self.stmt(step, steps)
                out.append(ir.Loop(self.condition(cond) if cond is not None else None, tuple(self.block(body.stmts)),
                                   tuple(steps), span=stmt.span))
            case ast.While(cond=cond, body=body):
                out.append(ir.Loop(self.condition(cond), tuple(self.block(body.stmts)), (), span=stmt.span))
            case ast.Break():
                out.append(ir.Break(stmt.span))
            case ast.Continue():
                out.append(ir.Continue(stmt.span))
            case ast.ExprStmt(expr=expr):
                out.append(ir.Eval(self.expr(expr), stmt.span))
            case ast.Return(value=None):
                out.append(ir.Return(None, stmt.span))
            case ast.Return(value=value):
                if self.result is None:
                    raise LoweringError("a value returned from a function without a result", stmt.span)
                out.append(ir.Return(self.typed(value, self.result), stmt.span))
            case ast.If(cond=cond, then=then, otherwise=otherwise):
                rest: list[ir.Stmt] = []
                if otherwise is not None:
                    self.stmt(otherwise, rest)
                out.append(ir.If(self.condition(cond), tuple(self.block(then.stmts)), tuple(rest), stmt.span))
            case ast.Block(stmts=stmts):
                for inner in stmts:
                    self.stmt(inner, out)
            case _:
                raise LoweringError(f"the statement {type(stmt).__name__}", stmt.span)

    def initial(self, init, element: str, rank: int) -> tuple[ir.Expr | None, tuple | None]:
        """An array's initial value: (fill, None), or (None, rows) for a listed one."""
        if not isinstance(init, ast.ArrayInit):
            return self.typed(init, element), None
        if rank == 1:
            return None, tuple(self.typed(item, element) for item in init.items)
        return None, tuple(tuple(self.typed(item, element) for item in row.items)
                           if isinstance(row, ast.ArrayInit) else (self.typed(row, element),)
                           for row in init.items)

    def place(self, target) -> ir.Local | ir.GameVar | ir.Element:
        """The target of an assignment."""
        if isinstance(target, ast.NameRef):
            text = target.name.text
            if text in self.local_types:
                return ir.Local(text, self.local_types[text], span=target.span)
            if text in self.game_vars:
                return ir.GameVar(text, self.game_vars[text].type, target.span)
        elif isinstance(target, ast.Index):
            element = self.expr(target)
            if isinstance(element, ir.Element):
                return element
        raise LoweringError("an assignment to this", target.span)

    # ------------------------------------------------------------ expressions

    def condition(self, expr) -> ir.Expr:
        return self.typed(expr, "bool")

    def typed(self, expr, want: str) -> ir.Expr:
        return self.convert(self.expr(expr), want, expr.span)

    def convert(self, value: ir.Expr, want: str, span: Span | None) -> ir.Expr:
        have = value.type
        if have == want:
            return value
        if have == "int" and want == "float":
            return ir.Convert(value, "float", span=span)
        if have == "dyn" and want in _SCALARS:
            return ir.Convert(value, want, (Check.TYPE,), span)
        raise LoweringError(f"a {have} value where {want} is needed", span)

    def expr(self, expr) -> ir.Expr:
        match expr:
            case ast.IntLit(value=value):
                if value > INT_MAX:
                    raise LoweringError("an integer literal out of range", expr.span)
                return ir.Const(value, "int", expr.span)
            case ast.FloatLit(value=value):
                return ir.Const(float(value), "float", expr.span)
            case ast.BoolLit(value=value):
                return ir.Const(bool(value), "bool", expr.span)
            case ast.NameRef():
                return self.name_ref(expr)
            case ast.Call():
                return self.call(expr)
            case ast.Index(base=base, indexes=indexes):
                return self.index(expr, base, indexes)
            case ast.Unary(op="!", operand=operand):
                return ir.Unary("!", self.condition(operand), "bool", span=expr.span)
            case ast.Unary(op="-", operand=ast.IntLit(value=value)) if value <= INT_MAX + 1:
                return ir.Const(-value, "int", expr.span)
            case ast.Unary(op="-", operand=operand):
                value = self.expr(operand)
                if value.type == "dyn":
                    value = self.convert(value, "int", expr.span)
                if value.type == "int":
                    return ir.Unary("-", value, "int", (Check.OVERFLOW,), expr.span)
                if value.type == "float":
                    return ir.Unary("-", value, "float", span=expr.span)
                raise LoweringError(f"negating a {value.type}", expr.span)
            case ast.Binary():
                return self.binary(expr)
        raise LoweringError(f"the expression {type(expr).__name__}", expr.span)

    def name_ref(self, expr: ast.NameRef) -> ir.Expr:
        text = expr.name.text
        if text in self.local_types:
            checks = (Check.UNSET,) if id(expr) in self.unset else ()
            return ir.Local(text, self.local_types[text], checks, expr.span)
        if text in self.game_vars:
            return ir.GameVar(text, self.game_vars[text].type, expr.span)
        if text in self.objects:
            return ir.Object(text, self.objects[text], span=expr.span)
        name = ALIASES.get(text, text)
        if name in self.objects:  # `empt`
            return ir.Object(name, self.objects[name], span=expr.span)
        raise LoweringError(f"the name '{text}'", expr.span)

    def call(self, call: ast.Call) -> ir.Expr:
        name = call.callee.text
        function = self.program.functions.get(name)
        if function is not None:
            args = tuple(self.typed(arg, p.type.name + "[]" * p.rank) for arg, p in zip(call.args, function.params))
            result = function.return_type.name if function.return_type else None
            return ir.CallFunction(name, args, result, self.is_recursive, call.span)
        if name in _CONSTANT_CALLS:
            return ir.Const(self.constants[name], "int", call.span)
        builtin = BUILTINS.get(name)
        if builtin is None or builtin.kind is not Kind.FUNCTION:
            raise LoweringError(f"the call of '{name}'", call.span)
        args = tuple(self.typed(arg, param.type) if param.type in _SCALARS else self.expr(arg)
                     for arg, param in zip(call.args, builtin.params))
        return ir.CallBuiltin(builtin, args, builtin.result, call.span)

    def index(self, expr: ast.Index, base: ast.Name, indexes) -> ir.Expr:
        text = base.text
        positions = tuple(self.typed(i, "int") for i in indexes)
        if text in self.local_types or text in self.game_vars:
            array = self.name_ref(ast.NameRef(base, base.span))
            if not array.type.endswith("[]"):
                raise LoweringError(f"'{text}' indexed, but it is not an array", expr.span)
            element = array.type.split("[", 1)[0]
            checks = (Check.INDEX,)
            if id(expr) in self.unset:  # an element of an array local read before its declaration
                array = ir.Local(array.name, array.type, (Check.UNSET,), array.span)
            return ir.Element(array, positions, element, checks, expr.span)
        builtin = BUILTINS.get(ALIASES.get(text, text))
        if builtin is None or builtin.kind is not Kind.BOARD or len(positions) != 2:
            raise LoweringError(f"'{text}' indexed", expr.span)
        if builtin.name == "OperationList":
            field_ = positions[1]
            kind = ("obj" if field_.value == 2 else "int") \
                if isinstance(field_, ir.Const) and field_.value in (0, 1, 2, 3) else "dyn"
            return ir.Board(builtin, positions, kind, (Check.OPERATION,), expr.span)
        return ir.Board(builtin, positions, builtin.result, (Check.SQUARE,), expr.span)

    def binary(self, expr: ast.Binary) -> ir.Expr:
        op = expr.op
        if op in ("&&", "||"):
            return ir.Logic(op, self.condition(expr.left), self.condition(expr.right), span=expr.span)
        left, right = self.expr(expr.left), self.expr(expr.right)
        if "dyn" in (left.type, right.type):
            left, right = self.dynamic(op, left, right, expr.span)
        if op in ("==", "!=") and left.type == right.type and left.type in ("obj", "bool", "dyn"):
            return ir.Binary(op, left, right, "bool", span=expr.span, op_span=expr.op_span)
        for side in (left, right):
            if side.type not in ("int", "float"):
                raise LoweringError(f"'{op}' on a {side.type}", expr.span)
        if left.type != right.type:
            left, right = self.convert(left, "float", expr.span), self.convert(right, "float", expr.span)
        if op not in _OPERATORS:
            return ir.Binary(op, left, right, "bool", span=expr.span, op_span=expr.op_span)
        checks = (_INT_CHECKS if left.type == "int" else _FLOAT_CHECKS).get(op, ())
        return ir.Binary(op, left, right, left.type, checks, expr.span, expr.op_span)

    def dynamic(self, op: str, left: ir.Expr, right: ir.Expr, span: Span) -> tuple[ir.Expr, ir.Expr]:
        """The operands of `op` when one's type is known only at run time: each dyn checked to be
        of the type the operation needs (two dyns are compared as they are)."""
        if left.type == right.type == "dyn":
            if op in ("==", "!="):
                return left, right
            return self.convert(left, "int", span), self.convert(right, "int", span)
        other = right if left.type == "dyn" else left
        if op in ("==", "!=") and other.type in ("obj", "bool"):
            want = other.type
        else:  # a number, or a bool or obj in arithmetic (which fails at run time)
            want = "int" if other.type in ("int", "float") or op in ("==", "!=") else other.type
        if left.type == "dyn":
            return self.convert(left, want, span), right
        return left, self.convert(right, want, span)
