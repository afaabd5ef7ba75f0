"""What expressions see where the game is stopped, and values as people read them: the
visible locals, the positions valid there, a bare name's value (arrays and boards included),
`true`/`false`/numbers as gdef writes them, logpoint messages. Whole expressions are compiled
by the checker and the Python backend (watches.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from gdef_core.lower.values import Obj


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
    PreviousPosition in end(), ResultPosition (with the consequences made so far) in both; in a
    game whose squares count, their counts too (CurrentCount ..., kept after the objects in the
    same board: runtime/counts.py)."""
    game, cells = scope.game, scope.cells
    size = game.width * game.height
    found = {}
    context = cells.get("CTX")
    for name, cell in (("CurrentPosition", "B"), ("NextPosition", "N"), ("PreviousPosition", "PB"),
                       ("ResultPosition", "R")):
        squares = cells.get(cell)
        if squares is None:
            continue
        if (name == "NextPosition" and context != 1 or name == "PreviousPosition" and context != 2
                or name == "ResultPosition" and context not in (1, 2)):
            continue
        found[name] = Board(list(squares[:size]), game.width, game.height)
        if game.counting:
            found[name.replace("Position", "Count")] = Board(list(squares[size:]), game.width, game.height)
    return found


def truth(value) -> bool:
    if type(value) is not bool:
        raise EvaluationError(f"a condition must be a bool, not {show(value)}")
    return value


def interpolate(message: str, evaluate) -> str:
    """A logpoint's message with each {expression} replaced by its value (`evaluate(text)`)."""

    def value(match: re.Match) -> str:
        try:
            return show(evaluate(match.group(1)))
        except EvaluationError as error:
            return f"<{error}>"

    return _INTERPOLATED.sub(value, message)


def interpolated(message: str) -> list[str]:
    """The {expression}s of a logpoint's message."""
    return _INTERPOLATED.findall(message)


_INTERPOLATED = re.compile(r"\{([^{}]*)\}")


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


def lookup(name: str, scope: Scope):
    """The value of a bare name: a local, a game variable, an object, a position ..."""
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
        return [[*op[:3], op[4] if len(op) > 4 else 0] for op in scope.cells.get("OPS") or ()]
    if name in ("CurrentPosition", "NextPosition", "PreviousPosition", "ResultPosition", "CurrentCount", "NextCount",
                "PreviousCount", "ResultCount"):
        raise EvaluationError(f"{name} is not valid here")
    raise EvaluationError(f"'{name}' is not a name visible here")
