"""The abstract syntax tree: one node class per construct, every node with a Span.

Nodes compare by identity (`eq=False`) so later passes can key dictionaries on them
(resolved symbols, inferred types). A node the parser had to invent while recovering from a
syntax error has `recovered=True` on the relevant Name (empty text); later passes stay silent
about it because the syntax error was already reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

from gdef_core.span import Span

TYPE_NAMES = ("int", "float", "bool", "obj")


@dataclass(eq=False, slots=True)
class Name:
    """An identifier as written, with its own span (used for go-to-definition and rename)."""

    text: str
    span: Span
    recovered: bool = False


@dataclass(eq=False, slots=True)
class TypeRef:
    """A type keyword: one of TYPE_NAMES."""

    name: str
    span: Span


# ---------------------------------------------------------------- expressions


@dataclass(eq=False, slots=True)
class IntLit:
    value: int
    span: Span


@dataclass(eq=False, slots=True)
class FloatLit:
    value: float
    span: Span


@dataclass(eq=False, slots=True)
class BoolLit:
    value: bool
    span: Span


@dataclass(eq=False, slots=True)
class NameRef:
    """A bare name in an expression: a local, parameter, game variable, object or `empty`."""

    name: Name
    span: Span


@dataclass(eq=False, slots=True)
class Call:
    callee: Name
    args: list["Expr"]
    span: Span


@dataclass(eq=False, slots=True)
class Index:
    """`base[i][j]`: CurrentPosition, NextPosition or OperationList (checked later)."""

    base: Name
    indexes: list["Expr"]
    span: Span


@dataclass(eq=False, slots=True)
class Unary:
    op: str  # "-" or "!"
    operand: "Expr"
    span: Span


@dataclass(eq=False, slots=True)
class Binary:
    op: str  # || && == != < <= > >= + - * / %
    left: "Expr"
    right: "Expr"
    span: Span
    op_span: Span


@dataclass(eq=False, slots=True)
class ArrayInit:
    """`{a, b, c}` or `{{1, 0}, {0, 1}}`: every element of an array, in an initialiser only."""

    items: list
    span: Span


@dataclass(eq=False, slots=True)
class ErrorExpr:
    """Stands where the parser could not read an expression."""

    span: Span


Expr = Union[IntLit, FloatLit, BoolLit, NameRef, Call, Index, Unary, Binary, ArrayInit, ErrorExpr]

# ---------------------------------------------------------------- statements


@dataclass(eq=False, slots=True)
class Block:
    stmts: list["Stmt"]
    span: Span


@dataclass(eq=False, slots=True)
class VarDecl:
    """`TYPE name = init;` inside a function; with `sizes`, an array (`int seen[64] = 0;`)."""

    type: TypeRef
    name: Name
    init: Expr
    span: Span
    sizes: list = field(default_factory=list)


@dataclass(eq=False, slots=True)
class Assign:
    """`target = value;`. The target is any expression so that the checker, not the parser,
    can explain why `CurrentPosition[0][0] = X;` is not allowed."""

    target: Expr
    value: Expr
    span: Span


@dataclass(eq=False, slots=True)
class ExprStmt:
    expr: Expr
    span: Span


@dataclass(eq=False, slots=True)
class Return:
    value: Expr | None
    span: Span


@dataclass(eq=False, slots=True)
class If:
    cond: Expr
    then: Block
    otherwise: Union[Block, "If", None]
    span: Span


@dataclass(eq=False, slots=True)
class While:
    cond: Expr
    body: Block
    span: Span


@dataclass(eq=False, slots=True)
class For:
    """`for (init; cond; step) body`; each part may be missing (None)."""

    init: Union[VarDecl, Assign, None]
    cond: Expr | None
    step: Union[Assign, ExprStmt, None]
    body: Block
    span: Span


@dataclass(eq=False, slots=True)
class Break:
    span: Span


@dataclass(eq=False, slots=True)
class Continue:
    span: Span


@dataclass(eq=False, slots=True)
class ErrorStmt:
    """Stands where the parser skipped text it could not read as a statement."""

    span: Span


Stmt = Union[VarDecl, Assign, ExprStmt, Return, If, While, For, Break, Continue, Block, ErrorStmt]

# ---------------------------------------------------------------- top level


@dataclass(eq=False, slots=True)
class GameParam:
    """`name: WORD`, `players: INT`, `size: W x H` (or an unknown key, reported later).

    `value` is a Name for a word, an IntLit for a number, a pair for a size whose sides are
    IntLits or Names (of int parameters: `size: n x n`).
    """

    key: Name
    value: Union[Name, IntLit, tuple[Union[IntLit, Name], Union[IntLit, Name]], None]
    span: Span


@dataclass(eq=False, slots=True)
class UseDecl:
    """`use "file.gdef"`; `path` is the text between the quotes, relative to this file."""

    path: str
    path_span: Span
    span: Span


@dataclass(eq=False, slots=True)
class ObjDecl:
    name: Name
    span: Span


@dataclass(eq=False, slots=True)
class StartEntry:
    x: IntLit
    y: IntLit
    obj: Name
    span: Span


@dataclass(eq=False, slots=True)
class StartDecl:
    entries: list[StartEntry]
    span: Span


@dataclass(eq=False, slots=True)
class GameVar:
    """A top-level `TYPE name = CONSTANT;`: a game variable (part of the game state); with
    `sizes` an array; `counter` ones are left out when positions are compared."""

    type: TypeRef
    name: Name
    init: Expr
    span: Span
    sizes: list = field(default_factory=list)
    counter: bool = False
    param: bool = False  # `param int n = 11 in 1 to 25;`: a parameter, a constant of one game
    domain: "ParamDomain | None" = None


@dataclass(eq=False, slots=True)
class ParamDomain:
    """A parameter's allowed values: `in LOW to HIGH` (`is_range`, `items` the two bounds) or
    `in {V, ...}` (`items` the values, as written). `words` are the spans of `in` (and `to`)."""

    items: list
    is_range: bool
    words: list
    span: Span


@dataclass(eq=False, slots=True)
class Param:
    type: TypeRef
    name: Name
    span: Span
    rank: int = 0  # dimensions of an array parameter (`bool seen[][]`: 2)


@dataclass(eq=False, slots=True)
class FunctionDef:
    name: Name
    params: list[Param]
    return_type: TypeRef | None
    body: Block
    span: Span
    doc: str | None = None  # the comment right above `define`, for hover


@dataclass(eq=False, slots=True)
class StringLit:
    """A quoted string (`"White"`), in a `show` block; `value` is the text between the quotes."""

    value: str
    span: Span


@dataclass(eq=False, slots=True)
class ShowValue:
    """One comma-separated value of a `show` entry: its words, strings and numbers in order
    (`"♔" side 0` is three). What they mean is the checker's business (semantics/show.py)."""

    atoms: list  # Name | IntLit | StringLit
    span: Span


@dataclass(eq=False, slots=True)
class ShowEntry:
    """`key: value, value, ...;` in a `show` block: a presentation key or an object's name."""

    key: Name
    values: list[ShowValue]
    span: Span


@dataclass(eq=False, slots=True)
class ShowDecl:
    """`show { ... }`: how the game is presented (docs/language.md, "Presentation")."""

    entries: list[ShowEntry]
    span: Span


@dataclass(eq=False, slots=True)
class ErrorItem:
    """Stands where the parser skipped top-level text it could not read."""

    span: Span


Item = Union[GameParam, UseDecl, ObjDecl, StartDecl, GameVar, FunctionDef, ShowDecl, ErrorItem]


@dataclass(eq=False, slots=True)
class Comment:
    text: str
    span: Span


@dataclass(eq=False, slots=True)
class Module:
    """One parsed file."""

    path: str
    text: str
    items: list[Item]
    comments: list[Comment] = field(default_factory=list)

    @property
    def is_library(self) -> bool:
        """A file that declares no game parameters is a library (spec section 1)."""
        return not any(isinstance(item, GameParam) for item in self.items)

    def functions(self) -> Iterator[FunctionDef]:
        return (item for item in self.items if isinstance(item, FunctionDef))


# ---------------------------------------------------------------- traversal

# The fields of each node class that hold child nodes, in source order. A table rather than
# a `match`, because walks run over every node on every keystroke in the editor.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    Module: ("items",),
    FunctionDef: ("params", "body"),
    Block: ("stmts",),
    VarDecl: ("sizes", "init"),
    GameVar: ("sizes", "init", "domain"),
    ParamDomain: ("items",),
    ArrayInit: ("items",),
    For: ("init", "cond", "step", "body"),
    Assign: ("target", "value"),
    ExprStmt: ("expr",),
    Return: ("value",),
    If: ("cond", "then", "otherwise"),
    While: ("cond", "body"),
    Call: ("args",),
    Index: ("indexes",),
    Unary: ("operand",),
    Binary: ("left", "right"),
    StartDecl: ("entries",),
    ShowDecl: ("entries",),
    ShowEntry: ("values",),
}


def children(node) -> list:
    """The direct child nodes of any node, in source order (for generic walks)."""
    found: list = []
    for name in _CHILD_FIELDS.get(type(node), ()):
        value = getattr(node, name)
        if type(value) is list:
            found.extend(value)
        elif value is not None:
            found.append(value)
    return found


def walk(node) -> Iterator:
    """Every node below `node` (included), depth first, in source order."""
    stack = [node]
    fields_of = _CHILD_FIELDS.get
    while stack:
        current = stack.pop()
        yield current
        fields = fields_of(type(current))
        if not fields:
            continue
        found: list = []
        for name in fields:
            value = getattr(current, name)
            if type(value) is list:
                found.extend(value)
            elif value is not None:
                found.append(value)
        found.reverse()
        stack.extend(found)
