"""Builds AST nodes directly from LALR reductions, so a parse makes no intermediate parse
tree. Each method receives the children of one grammar rule."""
from __future__ import annotations

import re

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic
from gdef_core.span import Span
from gdef_core.syntax import ast
from gdef_core.syntax.scanner import Token
from gdef_core.syntax.show_builder import ShowBuilder

INT64_MAX = 2**63 - 1
# Longer literals are not converted (Python refuses int(text) beyond 4,300 digits, and nothing
# needs their value): they stand for this value, above every limit, and are reported as too large.
MAX_LITERAL_DIGITS = 40
TOO_LONG = 10**MAX_LITERAL_DIGITS


def int_value(text: str) -> int:
    """The value of a decimal literal; TOO_LONG for one of more than MAX_LITERAL_DIGITS digits."""
    digits = text.lstrip("0")
    return int(digits or "0") if len(digits) <= MAX_LITERAL_DIGITS else TOO_LONG


def shown_int(value: int) -> str:
    return f"of more than {MAX_LITERAL_DIGITS} digits" if value >= TOO_LONG else str(value)
# The sides of a DIMS token (`3 x 3`, `n x n`): a number or a name, then the `x` between them.
_SIDE = re.compile(r"[0-9]+|[A-Za-z_]\w*")
_SIDE_GAP = re.compile(r"[ \t]*x[ \t]*")

_ITEM_TYPES = (ast.GameParam, ast.UseDecl, ast.ObjDecl, ast.StartDecl, ast.GameVar, ast.FunctionDef,
               ast.ShowDecl, ast.ErrorItem)


class AstBuilder(ShowBuilder):
    """One instance per parse: its methods are called with the children of each rule."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.big_ints: dict[int, ast.IntLit] = {}  # literals above INT64_MAX, by id

    def finish(self) -> list[Diagnostic]:
        """Diagnostics the rules found, including integer literals out of range."""
        for literal in self.big_ints.values():
            self.diagnostics.append(diagnostic(
                "G104", literal.span,
                f"integer {shown_int(literal.value)} is too large: ints are signed 64-bit (at most {INT64_MAX})"))
        self.big_ints = {}
        return self.diagnostics

    # ------------------------------------------------------------ helpers

    def span(self, first, last=None) -> Span:
        """From the start of `first` to the end of `last` (tokens or nodes: both carry
        line/column/end_line/end_column, a node through its span)."""
        start = first if type(first) is Token else first.span
        end = start if last is None else last if type(last) is Token else last.span
        return Span(self.path, start.line, start.column, end.end_line, end.end_column)

    def name(self, token: Token) -> ast.Name:
        return ast.Name(token.value, self.span(token), recovered=token.value == "")

    def int_lit(self, children) -> ast.IntLit:
        (token,) = children
        literal = ast.IntLit(int_value(token.value or "0"), self.span(token))
        if literal.value > INT64_MAX:
            self.big_ints[id(literal)] = literal
        return literal

    # ------------------------------------------------------------ top level

    def module(self, children) -> list:
        return [child for child in children if isinstance(child, _ITEM_TYPES)]

    def param(self, children) -> ast.GameParam:
        key, _colon, value = children
        if value.type == "DIMS":
            parsed = self._sides(value)
        elif value.type == "INT":
            parsed = self.int_lit([value])
        else:
            parsed = self.name(value)
        return ast.GameParam(self.name(key), parsed, self.span(key, value))

    def _sides(self, dims) -> tuple:
        """`W x H` -> its two sides, each an IntLit or (`n x n`) the Name of a parameter."""
        text = dims.value
        first = _SIDE.match(text)
        second_start = _SIDE_GAP.match(text, first.end()).end()
        sides = []
        for start, end in ((0, first.end()), (second_start, len(text))):
            word = text[start:end]
            span = Span(self.path, dims.line, dims.column + start, dims.line, dims.column + end)
            sides.append(ast.IntLit(int_value(word), span) if word[0].isdigit() else ast.Name(word, span))
        return tuple(sides)

    def use_decl(self, children) -> ast.UseDecl:
        keyword, string = children
        return ast.UseDecl(string.value[1:-1], self.span(string), self.span(keyword, string))

    def obj_decl(self, children) -> ast.ObjDecl:
        keyword, name = children
        return ast.ObjDecl(self.name(name), self.span(keyword, name))

    def start_decl(self, children) -> ast.StartDecl:
        entries = children[2] if len(children) == 4 else []
        return ast.StartDecl(entries, self.span(children[0], children[-1]))

    def start_entries(self, children) -> list[ast.StartEntry]:
        return [child for child in children if isinstance(child, ast.StartEntry)]

    def start_entry(self, children) -> ast.StartEntry:
        lpar, x, _comma, y, _colon, obj, rpar = children
        return ast.StartEntry(x, y, self.name(obj), self.span(lpar, rpar))

    def coord(self, children) -> ast.IntLit:
        literal = self.int_lit([children[-1]])
        if len(children) == 2:
            self.big_ints.pop(id(literal), None)
            return ast.IntLit(-literal.value, self.span(children[0], children[1]))
        return literal

    def game_var(self, children) -> ast.GameVar:
        modifier = None
        if children[1].type in ("TYPE", "OBJ"):  # a NAME before the type: `counter` or `param`
            modifier = children.pop(0)
            if modifier.value not in ("counter", "param"):
                self.diagnostics.append(diagnostic(
                    "G101", self.span(modifier),
                    f"unexpected name '{modifier.value}' before the type of a game variable: only "
                    "`counter` (`counter int halfmoves = 0;`) or `param` (`param int n = 9 in 1 to 19;`) "
                    "may stand there"))
        domain = children.pop(-2) if isinstance(children[-2], ast.ParamDomain) else None
        type_token, name, *subscripts, _eq, init, semicolon = children
        word = modifier.value if modifier is not None else None
        return ast.GameVar(self.type_ref(type_token), self.name(name), init,
                           self.span(modifier or type_token, semicolon),
                           [sub.expr for sub in subscripts], word == "counter", word == "param", domain)

    def domain(self, children) -> ast.ParamDomain:
        """`in LOW to HIGH` or `in {V, ...}`; `in` and `to` are names, words only here."""
        if len(children) == 4:
            in_word, low, to_word, high = children
            words, items, is_range, last = [in_word, to_word], [low, high], True, high
        else:
            in_word, values = children
            words, items, is_range, last = [in_word], list(values.items), False, values
        for token, expected in zip(words, ("in", "to")):
            if token.value not in (expected, ""):  # "": a word the recovery inserted, already reported
                self.diagnostics.append(diagnostic(
                    "G101", self.span(token), f"expected '{expected}' in a parameter's allowed values "
                    f"(`in 1 to 19` or `in {{9, 13, 19}}`), found '{token.value}'"))
        return ast.ParamDomain(items, is_range, [self.span(token) for token in words],
                               self.span(in_word).to(last.span))

    def function(self, children) -> ast.FunctionDef:
        define, name, _lpar, *rest = children
        params: list[ast.Param] = []
        if isinstance(rest[0], list):
            params = rest.pop(0)
        rest.pop(0)  # RPAR
        return_type = None
        if isinstance(rest[0], Token) and rest[0].type == "ARROW":
            return_type = rest[1]
        body = rest[-1]
        return ast.FunctionDef(self.name(name), params, return_type, body, self.span(define, body))

    def params(self, children) -> list[ast.Param]:
        return [child for child in children if isinstance(child, ast.Param)]

    def param_decl(self, children) -> ast.Param:
        type_ref, name, *brackets = children
        return ast.Param(type_ref, self.name(name), self.span(type_ref, brackets[-1] if brackets else name),
                         len(brackets) // 2)

    def type(self, children) -> ast.TypeRef:
        return self.type_ref(children[0])

    def type_ref(self, token: Token) -> ast.TypeRef:
        return ast.TypeRef(token.value or "int", self.span(token))

    # ------------------------------------------------------------ statements

    def block(self, children) -> ast.Block:
        stmts = [child for child in children[1:-1]]
        return ast.Block(stmts, self.span(children[0], children[-1]))

    def var_decl(self, children) -> ast.VarDecl:
        type_token, name, *subscripts, _eq, init, semicolon = children
        return ast.VarDecl(self.type_ref(type_token), self.name(name), init, self.span(type_token, semicolon),
                           [sub.expr for sub in subscripts])

    def for_decl(self, children) -> ast.VarDecl:
        type_token, name, *subscripts, _eq, init = children
        return ast.VarDecl(self.type_ref(type_token), self.name(name), init, self.span(type_token, init),
                           [sub.expr for sub in subscripts])

    def for_assign(self, children) -> ast.Assign:
        target, _eq, value = children
        return ast.Assign(target, value, self.span(target, value))

    def array_init(self, children) -> ast.ArrayInit:
        return ast.ArrayInit([child for child in children if not isinstance(child, Token)],
                             self.span(children[0], children[-1]))

    def for_stmt(self, children) -> ast.For:
        keyword, body = children[0], children[-1]
        parts: list[list] = [[]]
        for child in children[2:-2]:  # between `(` and `)`
            if isinstance(child, Token) and child.type == "SEMICOLON":
                parts.append([])
            else:
                parts[-1].append(child)
        init, cond, step = (part[0] if part else None for part in (parts + [[], [], []])[:3])
        if step is not None and not isinstance(step, ast.Assign):
            if not isinstance(step, ast.Call) and not _has_recovered_parts(step):
                self.diagnostics.append(diagnostic(
                    "G106", step.span, "the step of a `for` is an assignment or a call "
                                       "(`i = i + 1`), not a value"))
            step = ast.ExprStmt(step, step.span)
        return ast.For(init, cond, step, body, self.span(keyword, body))

    def break_stmt(self, children) -> ast.Break:
        return ast.Break(self.span(children[0], children[-1]))

    def continue_stmt(self, children) -> ast.Continue:
        return ast.Continue(self.span(children[0], children[-1]))

    def assign(self, children) -> ast.Assign:
        target, _eq, value, semicolon = children
        return ast.Assign(target, value, self.span(target, semicolon))

    def expr_stmt(self, children) -> ast.ExprStmt:
        expr, semicolon = children
        if not isinstance(expr, ast.Call) and not _has_recovered_parts(expr):
            self.diagnostics.append(diagnostic(
                "G106", expr.span,
                "this expression is not a statement: only a call can stand alone "
                "(did you mean an assignment, `x = ...;`?)"))
        return ast.ExprStmt(expr, self.span(expr, semicolon))

    def return_stmt(self, children) -> ast.Return:
        value = children[1] if len(children) == 3 else None
        return ast.Return(value, self.span(children[0], children[-1]))

    def if_stmt(self, children) -> ast.If:
        keyword, _lpar, cond, _rpar, then, *rest = children
        otherwise = rest[1] if rest else None
        return ast.If(cond, then, otherwise, self.span(keyword, children[-1]))

    def while_stmt(self, children) -> ast.While:
        keyword, _lpar, cond, _rpar, body = children
        return ast.While(cond, body, self.span(keyword, body))

    # ------------------------------------------------------------ expressions

    def binary(self, children) -> ast.Binary:
        left, op, right = children
        return ast.Binary(op.value, left, right, self.span(left, right), self.span(op))

    def unary_op(self, children):
        op, operand = children
        if op.value == "-" and isinstance(operand, ast.IntLit) and id(operand) in self.big_ints \
                and operand.value == INT64_MAX + 1:
            del self.big_ints[id(operand)]
            return ast.IntLit(-operand.value, self.span(op, operand))
        return ast.Unary(op.value or "-", operand, self.span(op, operand))

    def float_lit(self, children) -> ast.FloatLit:
        (token,) = children
        return ast.FloatLit(float(token.value), self.span(token))

    def true_lit(self, children) -> ast.BoolLit:
        return ast.BoolLit(True, self.span(children[0]))

    def false_lit(self, children) -> ast.BoolLit:
        return ast.BoolLit(False, self.span(children[0]))

    def paren(self, children):
        return children[1]

    def name_ref(self, children) -> ast.NameRef:
        name = self.name(children[0])
        return ast.NameRef(name, name.span)

    def call(self, children) -> ast.Call:
        args = children[2] if len(children) == 4 else []
        return ast.Call(self.name(children[0]), args, self.span(children[0], children[-1]))

    def args(self, children) -> list:
        return [child for child in children if not isinstance(child, Token)]

    def index(self, children) -> ast.Index:
        base, *subscripts = children
        return ast.Index(self.name(base), [sub.expr for sub in subscripts],
                         self.span(base, subscripts[-1].rbracket))

    def subscript(self, children):
        lbracket, expr, rbracket = children
        return _Subscript(expr, rbracket)


class _Subscript:
    """`[expr]`: the expression plus the closing bracket, so Index spans end at the `]`."""

    __slots__ = ("expr", "rbracket")

    def __init__(self, expr, rbracket: Token) -> None:
        self.expr = expr
        self.rbracket = rbracket


def _has_recovered_parts(expr) -> bool:
    return any(isinstance(node, ast.ErrorExpr) or (isinstance(node, ast.Name) and node.recovered)
               or (isinstance(node, (ast.NameRef, ast.Call, ast.Index)) and node_name(node).recovered)
               for node in ast.walk(expr))


def node_name(node) -> ast.Name:
    return node.name if isinstance(node, ast.NameRef) else node.callee if isinstance(node, ast.Call) else node.base
