"""Static types: every expression the checker can type goes into Program.expr_types, and
values that cannot match are reported (spec sections 5, 7, 8).

A type is "int", "float", "bool", "obj" or None (unknown until run time, or already reported).
Unknown types never cause a second error: every rule below is silent when a side is None.
"""
from __future__ import annotations

import math

from gdef_core.builtins import ENTRY_POINTS, Context, Kind
from gdef_core.diagnostics import Edit, Suggestion
from gdef_core.semantics.constants import MAX_ARRAY_ELEMENTS, known_size
from gdef_core.semantics.names import VARIABLE_KINDS, element_type, is_array, rank_of
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.semantics.report import Report
from gdef_core.semantics.statements import LoopCond, statements
from gdef_core.semantics.suggest import hint
from gdef_core.syntax import ast

NUMBERS = ("int", "float")
_LOGICAL = ("&&", "||")
_EQUALITY = ("==", "!=")
_ORDER = ("<", "<=", ">", ">=")
_VALUE_KINDS = (*VARIABLE_KINDS, SymbolKind.OBJECT)


def assignable(target: str | None, value: str | None) -> bool:
    """Whether a value of type `value` can be stored where `target` is expected (int widens to
    float, never the reverse). Unknown types are given the benefit of the doubt."""
    return target is None or value is None or target == value or (target == "float" and value == "int")


def check_types(program: Program, report: Report) -> None:
    typer = Typer(program, report)
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.FunctionDef):
                typer.block(item.body, item)
            elif isinstance(item, ast.GameVar) and not item.param:  # a default is G415's (param_decls)
                typer.declare(item, f"game variable '{item.name.text}'")


def array_arguments(roots, functions) -> set:
    """The array names standing where an array is allowed, under the nodes `roots`: arguments
    of user functions (their parameters say whether they take one) and the first argument of
    sizeOf."""
    return {arg for root in roots for node in ast.walk(root)
            if isinstance(node, ast.Call) for arg in node.args[:1 if node.callee.text == "sizeOf" else None]
            if isinstance(arg, ast.NameRef)
            and (node.callee.text == "sizeOf" or node.callee.text in functions)}


class Typer:
    def __init__(self, program: Program, report: Report, arrays: set | None = None) -> None:
        """`arrays`: array_arguments() of the part to be typed (default: the whole program)."""
        self.program = program
        self.report = report
        self.array_arguments = arrays if arrays is not None else array_arguments(program.modules, program.functions)

    # ------------------------------------------------------------ statements

    def block(self, block: ast.Block, function: ast.FunctionDef) -> None:
        for stmt in statements(block):
            match stmt:
                case ast.VarDecl(name=name):
                    self.declare(stmt, f"'{name.text}'")
                case LoopCond(loop=ast.For(cond=cond)) if cond is not None:
                    self.condition(cond, "for")
                case ast.Assign(target=target, value=value):
                    self.assign(target, value)
                case ast.ExprStmt(expr=ast.Call() as call):
                    self.type_of(call, used=False)
                case ast.ExprStmt(expr=expr):  # not a statement: the parser reported it (G106)
                    with self.report.muted():
                        self.type_of(expr)
                case ast.Return():
                    self.returned(stmt, function)
                case ast.If(cond=cond):
                    self.condition(cond, "if")
                case ast.While(cond=cond):
                    self.condition(cond, "while")

    def declare(self, decl, what: str) -> None:
        """A local or game variable declaration; an array's sizes and initialiser (15.1)."""
        for size in decl.sizes:
            size_type = self.type_of(size)
            if size_type is not None and size_type != "int":
                self.report.add("G311", size.span, f"an array size must be int, not {size_type}")
        if not decl.sizes:
            if isinstance(decl.init, ast.ArrayInit):
                self.report.add("G313", decl.init.span, f"a list of elements initialises an array; "
                                f"{what} is a single {decl.type.name}")
                return
            self.store(decl.type.name, decl.init, what)
            return
        self.array_init(decl, what)

    def array_init(self, decl, what: str) -> None:
        element, rank = decl.type.name, len(decl.sizes)
        if rank > 2:
            self.report.add("G313", decl.sizes[2].span, "an array has one or two dimensions")
            return
        sizes = [known_size(self.program, size) for size in decl.sizes]
        if not self.sizes_fit(decl, sizes, what):
            sizes = [None] * rank
        if not isinstance(decl.init, ast.ArrayInit):
            self.store(element, decl.init, f"the elements of {what}")
            return
        rows = decl.init.items
        if sizes[0] is not None and len(rows) != sizes[0] and (rank == 1 or all(isinstance(r, ast.ArrayInit) for r in rows)):
            self.report.add("G313", decl.init.span, f"{what} has {sizes[0]} {'rows' if rank == 2 else 'elements'}, "
                            f"but the list gives {len(rows)}")
        if rank == 2 and not all(isinstance(row, ast.ArrayInit) for row in rows):
            self.report.add("G313", decl.init.span, f"{what} has two dimensions: give one inner list "
                            "`{...}` per row")
            for row in rows:
                if not isinstance(row, ast.ArrayInit):
                    self.type_of(row)
            return
        for row in rows:
            if rank == 1:
                if isinstance(row, ast.ArrayInit):
                    self.report.add("G313", row.span, f"{what} has one dimension: list its elements, "
                                    "without inner braces")
                    continue
                self.store(element, row, f"the elements of {what}")
                continue
            if not isinstance(row, ast.ArrayInit):
                self.report.add("G313", row.span, f"{what} has two dimensions: give one inner list "
                                "`{...}` per row")
                self.type_of(row)
                continue
            if sizes[1] is not None and len(row.items) != sizes[1]:
                self.report.add("G313", row.span, f"each row of {what} has {sizes[1]} elements, but this "
                                f"one gives {len(row.items)}")
            for item in row.items:
                if isinstance(item, ast.ArrayInit):
                    self.report.add("G313", item.span, f"{what} has two dimensions: lists nest one deep")
                    continue
                self.store(element, item, f"the elements of {what}")

    def sizes_fit(self, decl, sizes: list[int | None], what: str) -> bool:
        """Sizes the checker knows must be at least 1 and make at most MAX_ARRAY_ELEMENTS
        elements (spec 15.1; else the run reports them, G613)."""
        for size, value in zip(decl.sizes, sizes):
            if value is not None and value < 1:
                self.report.add("G313", size.span, f"an array size must be at least 1, but this one is {value}")
                return False
        if None not in sizes and math.prod(sizes) > MAX_ARRAY_ELEMENTS:
            self.report.add("G313", decl.sizes[0].span, f"{what} would have {math.prod(sizes):,} elements, "
                            f"more than the {MAX_ARRAY_ELEMENTS:,} one array may have")
            return False
        return True

    def store(self, type_name: str, value, what: str) -> None:
        value_type = self.type_of(value)
        if not assignable(type_name, value_type):
            self.report.add("G304", value.span, f"cannot store {_a(value_type)} value in {type_name} "
                            f"{what}{_widening_note(type_name, value_type)}")

    def assign(self, target, value) -> None:
        symbol = self.program.references.get(target.name) if isinstance(target, ast.NameRef) else None
        if symbol is not None and symbol.kind in VARIABLE_KINDS:
            if is_array(symbol.type):
                self.report.add("G312", target.span, f"'{symbol.name}' is an array: a whole array cannot "
                                "be assigned; assign its elements (`a[i] = ...;`)")
                self.type_of(value)
                return
            self.store(symbol.type, value, f"variable '{symbol.name}'")
            return
        base = self.program.references.get(target.base) if isinstance(target, ast.Index) else None
        if base is not None and base.kind in VARIABLE_KINDS and is_array(base.type):
            element = self.type_of(target)
            if element is not None:
                self.store(element, value, f"an element of '{base.name}'")
            else:
                self.type_of(value)
            return
        if not isinstance(target, ast.NameRef):
            self.type_of(target)
        self.type_of(value)

    def returned(self, ret: ast.Return, function: ast.FunctionDef) -> None:
        name = function.name.text
        if _misdeclared_entry_point(function):  # reported once, as G406
            if ret.value is not None:
                self.type_of(ret.value)
            return
        result = function.return_type.name if function.return_type else None
        if ret.value is None:
            if result is not None:
                self.report.add("G307", ret.span, f"'{name}' returns {result}; give "
                                f"'return' a value")
            return
        value_type = self.type_of(ret.value)
        if result is None:
            if not isinstance(ret.value, ast.ErrorExpr):
                self.report.add("G306", ret.value.span, f"'{name}' has no result type, so 'return' "
                                "cannot give a value; write 'return;'")
        elif not assignable(result, value_type):
            self.report.add("G305", ret.value.span, f"'{name}' returns {result}, but this value is "
                            f"{value_type}{_widening_note(result, value_type)}")

    def condition(self, cond, keyword: str) -> None:
        cond_type = self.type_of(cond)
        if cond_type is not None and cond_type != "bool":
            self.report.add("G302", cond.span, f"the condition of '{keyword}' must be bool, not "
                            f"{cond_type}")

    # ------------------------------------------------------------ expressions

    def type_of(self, expr, used: bool = True) -> str | None:
        """The type of `expr` (None: unknown), recording it and the types of its parts.
        Computed bottom-up without recursion (operator chains can be thousands long).
        `used=False` for a call whose value is discarded."""
        for node in reversed(list(ast.walk(expr))):  # every part before the whole
            result = self._infer(node, used or node is not expr)
            if result is not None:
                self.program.expr_types[node] = result
        return self.program.expr_types.get(expr)

    def _known(self, expr) -> str | None:
        """The type of a part already typed by type_of."""
        return self.program.expr_types.get(expr)

    def _infer(self, expr, used: bool) -> str | None:
        match expr:
            case ast.IntLit():
                return "int"
            case ast.FloatLit():
                return "float"
            case ast.BoolLit():
                return "bool"
            case ast.NameRef(name=name):
                symbol = self.program.references.get(name)
                if symbol is None or not _is_value(symbol):
                    return None
                if is_array(symbol.type) and expr not in self.array_arguments:
                    self.report.add("G312", expr.span, f"'{name.text}' is an array, not a value: use an "
                                    f"element ('{name.text}[i]'), or pass it to a function that takes "
                                    "an array")
                    return None
                return symbol.type
            case ast.Call():
                return self.call(expr, used)
            case ast.Index():
                return self.index(expr)
            case ast.Unary():
                return self.unary(expr)
            case ast.Binary():
                return self.binary(expr)
        return None

    def call(self, call: ast.Call, used: bool) -> str | None:
        arg_types = [self._known(arg) for arg in call.args]
        if call.callee.text == "sizeOf":
            return self.size_of(call)
        symbol = self.program.references.get(call.callee)
        signature = _signature(symbol)
        if signature is None:
            return None
        params, result = signature
        if symbol.kind is SymbolKind.FUNCTION and self.report.recovery.header_damaged(symbol.decl):
            return None  # its signature is the parser's guess
        name = call.callee.text
        if len(call.args) != len(params):
            self._arity(call, len(params))
        for arg, arg_type, (param_name, param_type) in zip(call.args, arg_types, params):
            if not assignable(param_type, arg_type):
                self.report.add("G303", arg.span, f"'{name}' expects {param_type} for '{param_name}', "
                                f"got {arg_type}{_widening_note(param_type, arg_type)}")
        if result is None and used:
            self.report.add("G310", call.span, f"'{name}' returns nothing, so its call has no value")
        return result

    def _arity(self, call: ast.Call, expected: int) -> None:
        name, given = call.callee.text, len(call.args)
        words = f"'{name}' takes {expected} argument{'s' if expected != 1 else ''}, got {given}"
        span = call.args[expected].span.to(call.args[-1].span) if given > expected else call.span
        self.report.add("G308", span, words)

    def index(self, index: ast.Index) -> str | None:
        symbol = self.program.references.get(index.base)
        array = symbol is not None and symbol.kind in VARIABLE_KINDS and is_array(symbol.type)
        for position in index.indexes:
            index_type = self._known(position)
            if index_type is not None and index_type != "int":
                self.report.add("G311", position.span, f"{'an array' if array else 'a board'} index must be "
                                f"int, not {index_type}")
        if array:
            rank = rank_of(symbol.type)
            if len(index.indexes) != rank:
                shape = index.base.text + "[i]" * rank if rank == 1 else index.base.text + "[i][j]"
                self.report.add("G309", index.span, f"'{index.base.text}' has {rank} dimension"
                                f"{'s' if rank > 1 else ''}: index it as '{shape}', not with "
                                f"{len(index.indexes)} index{'es' if len(index.indexes) != 1 else ''}")
                return None
            return element_type(symbol.type)
        if symbol is None or symbol.builtin is None or symbol.builtin.kind is not Kind.BOARD:
            return None
        if len(index.indexes) != 2:
            self.report.add("G309", index.span, f"'{index.base.text}' takes two indexes "
                            f"('{index.base.text}[x][y]'), got {len(index.indexes)}")
            return None
        result = symbol.builtin.result
        if result in ast.TYPE_NAMES:
            return result
        return _operation_field(index.indexes[1])

    def size_of(self, call: ast.Call) -> str:
        """sizeOf(a, d): an array and a constant dimension it has."""
        if len(call.args) != 2:
            self._arity(call, 2)
            return "int"
        array, dimension = call.args
        symbol = self.program.references.get(array.name) if isinstance(array, ast.NameRef) else None
        if symbol is None or not is_array(symbol.type):
            if symbol is not None or not isinstance(array, (ast.NameRef, ast.ErrorExpr)):
                self.report.add("G303", array.span, "'sizeOf' expects an array (its name) for 'a'")
            return "int"
        rank = rank_of(symbol.type)
        if not isinstance(dimension, ast.IntLit) or not 0 <= dimension.value < rank:
            self.report.add("G303", dimension.span, f"'sizeOf' expects the dimension as a constant: "
                            f"{'0' if rank == 1 else '0 or 1'} for '{symbol.name}'")
        return "int"

    def unary(self, unary: ast.Unary) -> str | None:
        operand = self._known(unary.operand)
        if unary.op == "!":
            if operand is not None and operand != "bool":
                self.report.add("G301", unary.span, f"'!' takes a bool, not {operand}")
            return "bool"
        if operand is not None and operand not in NUMBERS:
            self.report.add("G301", unary.span, f"'-' takes a number, not {operand}")
            return None
        return operand

    def binary(self, binary: ast.Binary) -> str | None:
        left, right = self._known(binary.left), self._known(binary.right)
        op = binary.op
        known = [t for t in (left, right) if t is not None]
        if op in _LOGICAL:
            if any(t != "bool" for t in known):
                self._wrong_sides(binary, left, right, "bool", "two bools")
            return "bool"
        if op in _EQUALITY:
            if len(known) == 2 and not (left == right or (left in NUMBERS and right in NUMBERS)):
                suggestions = self._object_for_zero(binary, left, right)
                self.report.add("G301", binary.span, f"cannot compare {left} with {right}: '{op}' "
                                "compares values of the same type (int and float compare with each "
                                f"other){hint(suggestions)}", suggestions=suggestions)
            return "bool"
        if any(t not in NUMBERS for t in known):
            self._wrong_sides(binary, left, right, NUMBERS, "two numbers")
            return "bool" if op in _ORDER else None
        if op in _ORDER:
            return "bool"
        if "float" in known:
            return "float"
        return "int" if len(known) == 2 else None

    def _wrong_sides(self, binary: ast.Binary, left, right, accepted, words: str) -> None:
        wrong = [(side, t) for side, t in (("left", left), ("right", right))
                 if t is not None and t not in accepted]
        if len(wrong) == 2:
            detail = f"the sides are {left} and {right}"
        else:
            detail = f"the {wrong[0][0]} side is {_a(wrong[0][1])}"
        self.report.add("G301", binary.span, f"'{binary.op}' takes {words}, but {detail}")

    def _object_for_zero(self, binary: ast.Binary, left, right) -> tuple[Suggestion, ...]:
        """`placedObj != 0` where the object `O` exists: the digit was meant as the letter."""
        literal = binary.right if right == "int" else binary.left
        if "obj" in (left, right) and isinstance(literal, ast.IntLit) and literal.value == 0 \
                and "O" in self.program.objects:
            return (Suggestion("did you mean the object 'O'?", (Edit(literal.span, "O"),)),)
        return ()


def _misdeclared_entry_point(function: ast.FunctionDef) -> bool:
    """An entry point whose result is declared wrong (reported once, as G406). `chance` is
    one only in some games: its returns are always checked against its declaration."""
    if function.name.text not in ENTRY_POINTS or function.name.text == Context.CHANCE.value:
        return False
    declared = function.return_type.name if function.return_type else None
    return declared != ENTRY_POINTS[function.name.text][0]


def _is_value(symbol: Symbol) -> bool:
    if symbol.kind in _VALUE_KINDS:
        return True
    return symbol.builtin is not None and symbol.builtin.kind is Kind.VALUE


def _signature(symbol: Symbol | None) -> tuple[list[tuple[str, str]], str | None] | None:
    """(parameters as (name, type), result type) of a callable symbol, or None."""
    if symbol is None:
        return None
    if symbol.builtin is not None:
        if symbol.builtin.kind is not Kind.FUNCTION:
            return None
        return [(p.name, p.type) for p in symbol.builtin.params], symbol.builtin.result
    if symbol.kind is SymbolKind.FUNCTION:
        decl: ast.FunctionDef = symbol.decl
        return [(p.name.text, p.type.name + "[]" * p.rank) for p in decl.params], symbol.type
    return None


def _operation_field(field) -> str | None:
    """OperationList[i][j]: j = 0 or 1 is a coordinate (int), 2 the object, 3 the count (int);
    else unknown."""
    if isinstance(field, ast.IntLit):
        return {0: "int", 1: "int", 2: "obj", 3: "int"}.get(field.value)
    return None


def _a(type_name: str | None) -> str:
    return f"an {type_name}" if type_name in ("int", "obj") else f"a {type_name}"


def _widening_note(target: str | None, value: str | None) -> str:
    if target == "int" and value == "float":
        return " (a float never converts to int implicitly)"
    return ""
