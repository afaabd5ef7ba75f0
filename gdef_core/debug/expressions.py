"""Read-only expressions for watches, hovers, breakpoint conditions and logpoints.

What is supported for now: names (locals and parameters, game variables, objects, `true`,
`false`, `empty`), `CurrentPosition`, `NextPosition`, `PreviousPosition` and `OperationList`,
indexing into all of these with integers or names, `onTurn()`, `moveNumber()`,
`operationsNum()`, and one comparison of two such terms (`==`, `!=`, `<`, `<=`, `>`, `>=`).
Nothing here computes (no arithmetic): full gdef expressions are to be compiled by the checker
and the Python backend, so that the value operations keep one definition.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from gdef_core.runtime.values import Obj

_TOKEN = re.compile(r"\s*(?:(-?\d+)|([A-Za-z_][A-Za-z_0-9]*)\s*(\(\s*\))?|(==|!=|<=|>=|<|>)|(\[)|(\]))")
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_BUILTINS = {"onTurn": "T", "moveNumber": "MN", "operationsNum": "NOPS"}


class EvaluationError(Exception):
    """The expression cannot be read or has no value here; the message says why."""


@dataclass
class Scope:
    """What an expression can see: the frame's Python locals (l_NAME), the rules' shared cells,
    the game (objects, board size, game variables)."""

    locals: dict
    cells: dict
    game: object


@dataclass(frozen=True)
class Board:
    """A position, indexed [x][y] as in gdef."""

    squares: list
    width: int
    height: int

    def column(self, x: int) -> list:
        return [self.squares[x * self.height + y] for y in range(self.height)]


def local_name(python_name: str) -> str | None:
    """The gdef name of a generated local (`l_x`; a `for` header's `l_1x`), or None."""
    if not python_name.startswith("l_"):
        return None
    return python_name[2:].lstrip("0123456789")


def local_values(python_locals: dict) -> dict:
    values = {}
    for python_name, value in python_locals.items():
        name = local_name(python_name)
        if name:
            values[name] = value
    return values


def positions(scope: Scope) -> dict:
    """The positions valid here: CurrentPosition, and NextPosition while a move is judged,
    PreviousPosition in end()."""
    game, cells = scope.game, scope.cells
    found = {}
    for name, cell in (("CurrentPosition", "B"), ("NextPosition", "N"), ("PreviousPosition", "PB")):
        squares = cells.get(cell)
        if squares is None:
            continue
        context = cells.get("CTX")
        if name == "NextPosition" and context != 1 or name == "PreviousPosition" and context != 2:
            continue
        found[name] = Board(list(squares), game.width, game.height)
    return found


def evaluate(text: str, scope: Scope):
    tokens = _tokens(text)
    value, rest = _term(tokens, scope, text)
    if rest:
        operator = rest[0]
        if operator[0] != "op" or len(rest) < 2:
            raise EvaluationError(f"unexpected '{operator[1]}' (watches read names, indexes and one comparison)")
        other, rest = _term(rest[1:], scope, text)
        if rest:
            raise EvaluationError(f"unexpected '{rest[0][1]}' (only one comparison is supported)")
        try:
            value = _COMPARE[operator[1]](value, other)
        except TypeError:
            raise EvaluationError(f"cannot compare {show(value)} with {show(other)}") from None
    return value


def truth(value) -> bool:
    if type(value) is not bool:
        raise EvaluationError(f"a condition must be a bool, not {show(value)}")
    return value


def interpolate(message: str, scope: Scope) -> str:
    """A logpoint's message with each {expression} replaced by its value."""

    def value(match: re.Match) -> str:
        try:
            return show(evaluate(match.group(1), scope))
        except EvaluationError as error:
            return f"<{error}>"

    return re.sub(r"\{([^{}]*)\}", value, message)


def show(value) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    if isinstance(value, Obj):
        return str.__str__(value)
    if isinstance(value, Board):
        return f"board {value.width} x {value.height}"
    if isinstance(value, (list, tuple)):
        return f"[{', '.join(show(item) for item in value)}]"
    return repr(value) if isinstance(value, float) else str(value)


def _tokens(text: str) -> list[tuple[str, object]]:
    tokens, at = [], 0
    text = text.rstrip()
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise EvaluationError(f"cannot read '{text[at:].strip()}' (column {at + 1})")
        number, name, call, operator, opening, closing = match.groups()
        if number is not None:
            tokens.append(("int", int(number)))
        elif name is not None:
            tokens.append(("call" if call else "name", name))
        elif operator is not None:
            tokens.append(("op", operator))
        else:
            tokens.append(("[", "[") if opening else ("]", "]"))
        at = match.end()
    if not tokens:
        raise EvaluationError("the expression is empty")
    return tokens


def _term(tokens: list, scope: Scope, text: str):
    kind, word = tokens[0]
    if kind == "int":
        value = word
    elif kind == "call":
        value = _builtin(word, scope)
    elif kind == "name":
        value = _name(word, scope)
    else:
        raise EvaluationError(f"unexpected '{word}'")
    rest = tokens[1:]
    while rest and rest[0][0] == "[":
        if len(rest) < 3 or rest[2][0] != "]":
            raise EvaluationError("an index is a number or a name between [ and ]")
        index_kind, index_word = rest[1]
        index = index_word if index_kind == "int" else _name(index_word, scope) if index_kind == "name" else None
        if type(index) is not int:
            raise EvaluationError(f"an index must be an int, not {show(index)}")
        value = _index(value, index)
        rest = rest[3:]
    return value, rest


def _index(value, index: int):
    if isinstance(value, Board):
        if not 0 <= index < value.width:
            raise EvaluationError(f"x = {index} is off the board (0 to {value.width - 1})")
        return value.column(index)
    if isinstance(value, (list, tuple)):
        if not 0 <= index < len(value):
            raise EvaluationError(f"index {index} is out of range (size {len(value)})")
        return value[index]
    raise EvaluationError(f"{show(value)} cannot be indexed")


def _name(name: str, scope: Scope):
    values = local_values(scope.locals)
    if name in values:
        return values[name]
    game = scope.game
    if name in game.program.game_vars:
        variables = scope.cells.get("V")
        if variables is None:
            raise EvaluationError(f"the game variable '{name}' has no value yet")
        return variables[list(game.program.game_vars).index(name)]
    if name in ("true", "false"):
        return name == "true"
    if name == "empty":
        return game.empty
    if name in game.objects:
        return game.objects[name]
    boards = positions(scope)
    if name in boards:
        return boards[name]
    if name == "OperationList":
        return [list(op[:3]) for op in scope.cells.get("OPS") or ()]
    if name in ("CurrentPosition", "NextPosition", "PreviousPosition"):
        raise EvaluationError(f"{name} is not valid here")
    raise EvaluationError(f"'{name}' is not a name visible here")


def _builtin(name: str, scope: Scope):
    cell = _BUILTINS.get(name)
    if cell is None:
        raise EvaluationError(f"{name}() cannot be evaluated by the debugger (supported: "
                              f"{', '.join(n + '()' for n in _BUILTINS)})")
    return scope.cells.get(cell)
