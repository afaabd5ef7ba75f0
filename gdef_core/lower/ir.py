"""The lowered IR: a checked Program as typed, resolved functions, built once (build.py) for
every backend to emit from.

What the syntax tree leaves to each backend is decided here:

- every name is resolved: a `Local` (parameters and locals, `for` locals renamed apart), a
  `GameVar`, an `Object` (with its number; `empty` is 0), a `Const` (boardWidth() and the
  other constants of the game), a `CallFunction`, or a built-in of gdef_core/builtins.py's
  table (`CallBuiltin`, `Board`);
- every expression has its type: "int", "float", "bool", "obj", "dyn" (a value whose type only
  the run time knows: `OperationList[i][j]` with a computed j), "[]" once per array dimension,
  None for no value; conversions are explicit (`Convert`: int to float, dyn to a type);
- every run-time check is explicit: an operation lists the `Check`s it makes (an emitter that
  proves one needless drops it), the step budget and the depth are statements (`Enter`) and
  loop properties, the end of a typed function that can complete is `Fail(NO_RETURN)`.

Statements are structured (if, loop, break, continue): both backends emit structured code,
and so would a C or llvmlite emitter. Spans are kept for error locations but are not part of
a node's equality or of its printed form (printer.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Union

from gdef_core.builtins import COUNT_BUILTINS, Builtin, Context
from gdef_core.lower.calls import CallGraph
from gdef_core.span import Span


class Check(str, Enum):
    """A run-time check; its value is the diagnostic code of its failure (gdef_core/codes.py)."""

    DIVISION = "G601"  # a divisor of zero
    OVERFLOW = "G602"  # an int result outside signed 64 bits
    SQUARE = "G603"  # a board square off the board
    OPERATION = "G604"  # an operation index beyond the move's operations
    NO_RETURN = "G606"  # a typed function reached its end
    STEPS = "G607"  # the step budget spent
    DEPTH = "G608"  # recursion deeper than the limit
    UNSET = "G609"  # a local read before its declaration ran
    TYPE = "G610"  # a value typed at run time is not of the type needed
    SIZE = "G613"  # an array size out of range
    INDEX = "G614"  # an array index out of range


def _span() -> Span | None:
    return field(default=None, compare=False, repr=False)


# ------------------------------------------------------------------ expressions

@dataclass(frozen=True, slots=True)
class Const:
    value: int | float | bool
    type: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Object:
    """A declared object or `empty` (number 0); objects are numbered 1, 2, ... in declaration
    order."""

    name: str
    number: int
    type: str = "obj"
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Local:
    """A parameter or local of the function; `checks` is (UNSET,) where the read may run
    before the local's declaration did."""

    name: str
    type: str
    checks: tuple[Check, ...] = ()
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class GameVar:
    """A game variable: a scalar's value, or a whole array (passed to a function)."""

    name: str
    type: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Element:
    """`array[i]` or `array[i][j]` of a local or game-variable array; INDEX checks each index
    against its dimension."""

    array: Union[Local, GameVar]
    indexes: tuple["Expr", ...]
    type: str
    checks: tuple[Check, ...] = (Check.INDEX,)
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Board:
    """A board built-in indexed (CurrentPosition[x][y], NextPosition, PreviousPosition, their
    counts CurrentCount, NextCount, PreviousCount, ResultCount, OperationList[i][j]); SQUARE or OPERATION checks the indexes."""

    builtin: Builtin
    indexes: tuple["Expr", "Expr"]
    type: str
    checks: tuple[Check, ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class CallBuiltin:
    """A call of a built-in of the table; its own checks (a player's number, the entry point
    running) belong to its implementation in each backend."""

    builtin: Builtin
    args: tuple["Expr", ...]
    type: str | None
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class CallFunction:
    """A call of a gdef function; arguments already converted to the parameters' types.
    `deeper`: the caller is recursive, so the call is one level deeper (Check.DEPTH)."""

    name: str
    args: tuple["Expr", ...]
    type: str | None
    deeper: bool = False
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "!"
    operand: "Expr"
    type: str
    checks: tuple[Check, ...] = ()
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Binary:
    """Arithmetic and comparisons, both operands of the same type (int, float, obj or bool):
    int `/` truncates and `%` takes the dividend's sign (C), float `%` is fmod (the semantics
    of arithmetic.py). `op_span`: the operator, where its errors are reported."""

    op: str  # + - * / % == != < <= > >=
    left: "Expr"
    right: "Expr"
    type: str
    checks: tuple[Check, ...] = ()
    span: Span | None = _span()
    op_span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Logic:
    """`&&` / `||`: the right operand runs only when needed."""

    op: str
    left: "Expr"
    right: "Expr"
    type: str = "bool"
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Convert:
    """`value` as `type`: int to float, or a dyn value checked to be of `type` (TYPE)."""

    value: "Expr"
    type: str
    checks: tuple[Check, ...] = ()
    span: Span | None = _span()


Expr = Union[Const, Object, Local, GameVar, Element, Board, CallBuiltin, CallFunction, Unary, Binary, Logic,
             Convert]


# ------------------------------------------------------------------ statements

@dataclass(frozen=True, slots=True)
class Enter:
    """A function's entry: one step counted; `budget`: the step budget checked (the function
    calls one that is not inlined, so a call tree could grow without a loop); `depth`: the
    recursion depth checked (the function is on a cycle of the call graph)."""

    budget: bool
    depth: bool
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Declare:
    """A local declared with its value (scalar)."""

    name: str
    type: str
    value: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class DeclareArray:
    """A local array: `sizes` each checked (SIZE; their product counts as steps), filled with
    `fill`, or with `rows` (the listed elements, one tuple per row of a 2-d array)."""

    name: str
    type: str
    sizes: tuple[Expr, ...]
    fill: Expr | None
    rows: tuple | None
    checks: tuple[Check, ...] = (Check.SIZE, Check.STEPS)
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Assign:
    """`target = value`: a local, a game variable or an element (the indexes run first)."""

    target: Union[Local, GameVar, Element]
    value: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class If:
    cond: Expr
    then: tuple["Stmt", ...]
    otherwise: tuple["Stmt", ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Loop:
    """`while (cond) { body; step }` (`for` with its init before it); cond None: forever.
    Every iteration counts a step (Check.STEPS); `continue` runs `step` first."""

    cond: Expr | None
    body: tuple["Stmt", ...]
    step: tuple["Stmt", ...]
    checks: tuple[Check, ...] = (Check.STEPS,)
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Break:
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Continue:
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Return:
    value: Expr | None
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Eval:
    """An expression run for its effect (a call)."""

    expr: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Fail:
    """A check that always fails here (NO_RETURN at the reachable end of a typed function)."""

    check: Check
    span: Span | None = _span()


Stmt = Union[Enter, Declare, DeclareArray, Assign, If, Loop, Break, Continue, Return, Eval, Fail]


# ------------------------------------------------------------------ functions and program

@dataclass(frozen=True, eq=False)
class Function:
    """One gdef function. `locals` holds every local with its type (parameters first); `stable`:
    the locals assigned once and never before their declaration (their range and the facts
    about them hold after it); `ranges`: the ranges that hold wherever a local is read (a
    counter from 0 upwards is never negative); `inlinable`: the function as if/return arms
    (inlining.py) when a backend may inline it."""

    name: str
    params: tuple[tuple[str, str], ...]
    result: str | None
    locals: dict[str, str]
    body: tuple[Stmt, ...]
    contexts: frozenset[Context]
    recursive: bool
    stable: frozenset[str]
    ranges: dict[str, tuple[int, int]]
    inlinable: bool
    span: Span | None = None


@dataclass(frozen=True, eq=False)
class GameVarDecl:
    """A game variable: its type, its sizes (constants; empty for a scalar), its initial value
    (`fill`, or `rows` as in DeclareArray) and whether it counts in a position's identity."""

    name: str
    type: str
    sizes: tuple[int, ...]
    fill: Expr | None
    rows: tuple | None
    counter: bool
    span: Span | None = None


@dataclass(frozen=True, eq=False)
class Module:
    """The whole game: its constants, objects (name -> number), game variables, functions (in
    source order), call graph, the built-ins the functions use and the start position (the
    squares the `start` block fills: x, y, object)."""

    width: int
    height: int
    players: int
    objects: dict[str, int]
    game_vars: dict[str, GameVarDecl]
    functions: dict[str, Function]
    graph: CallGraph
    builtins_used: frozenset[str] = field(default_factory=frozenset)
    start: tuple[tuple[int, int, str], ...] = ()

    @property
    def counting(self) -> bool:
        """Whether the game's squares hold counts beside their objects (it reads or writes
        them: docs/language.md, "Squares that count"); a game that does not keeps none."""
        return bool(self.builtins_used & COUNT_BUILTINS)


# ------------------------------------------------------------------ walking

def children(node) -> tuple:
    """The statements and expressions directly inside `node` (in evaluation order)."""
    match node:
        case Element(array=array, indexes=indexes):
            return (array, *indexes)
        case Board(indexes=indexes):
            return indexes
        case CallBuiltin(args=args) | CallFunction(args=args):
            return args
        case Unary(operand=operand):
            return (operand,)
        case Binary(left=left, right=right) | Logic(left=left, right=right):
            return (left, right)
        case Convert(value=value):
            return (value,)
        case Declare(value=value) | Eval(expr=value):
            return (value,)
        case DeclareArray(sizes=sizes, fill=fill, rows=rows):
            items = (fill,) if rows is None else tuple(item for row in rows
                                                       for item in (row if isinstance(row, tuple) else (row,)))
            return (*sizes, *items)
        case Assign(target=target, value=value):
            return (target, value)
        case If(cond=cond, then=then, otherwise=otherwise):
            return (cond, *then, *otherwise)
        case Loop(cond=cond, body=body, step=step):
            return (*((cond,) if cond is not None else ()), *body, *step)
        case Return(value=value) if value is not None:
            return (value,)
    return ()


def walk(nodes):
    """Every statement and expression in `nodes` and inside them, without recursion."""
    pending = list(reversed(nodes))
    while pending:
        node = pending.pop()
        yield node
        pending.extend(reversed(children(node)))


def builtins_in(functions) -> set[str]:
    """The names of the built-ins the functions call or index."""
    return {node.builtin.name for function in functions for node in walk(function.body)
            if isinstance(node, (CallBuiltin, Board))}
