"""Game parameters (`name`, `players`, `size`): each once across the game, values in range.

The limits keep a rules file from asking for a board that would exhaust memory.
"""
from __future__ import annotations

from pathlib import PurePath

from gdef_core.builtins import GAME_PARAMETERS
from gdef_core.diagnostics import Related
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report, where
from gdef_core.span import Span
from gdef_core.semantics.suggest import did_you_mean, hint
from gdef_core.syntax import ast

MAX_PLAYERS = 64
MAX_SIDE = 1000
REQUIRED = ("players", "size")


def check_params(program: Program, report: Report) -> None:
    program.is_library = all(module.is_library for module in program.modules)
    if program.modules:
        program.name = PurePath(program.modules[0].path).stem
    seen: dict[str, ast.GameParam] = {}
    for module in program.modules:
        for item in module.items:
            if not isinstance(item, ast.GameParam) or item.key.recovered:
                continue
            key = item.key
            if key.text not in GAME_PARAMETERS:
                suggestions = did_you_mean(key, GAME_PARAMETERS)
                report.add("G403", key.span, f"unknown game parameter '{key.text}' (the game "
                           f"parameters are name, players and size){hint(suggestions)}",
                           suggestions=suggestions)
                continue
            if key.text in seen:
                other = seen[key.text].key.span
                report.add("G402", key.span, f"'{key.text}' is already given ({where(other, key.span)})",
                           related=(Related(other, f"the other '{key.text}'"),))
                continue
            seen[key.text] = item
            _value(program, report, item)
    first = first_param(program)
    if first is not None and not report.recovery.syntax_errors:  # it may be in broken text
        for key in REQUIRED:
            if key not in seen:
                report.add("G401", first.key.span, f"the game has no '{key}' parameter; add "
                           f"{'`players: 2`' if key == 'players' else '`size: 3 x 3`'} "
                           "(with your values)")


def _value(program: Program, report: Report, param: ast.GameParam) -> None:
    key, value = param.key.text, param.value
    if value is None:  # the parser reported what is missing
        return
    if key == "name":
        if isinstance(value, ast.Name):
            if not value.recovered:
                program.name = value.text
        else:
            report.add("G404", _span(value), "'name' takes one word, e.g. `name: tictactoe`")
    elif key == "players":
        if not isinstance(value, ast.IntLit):
            report.add("G404", _span(value), "'players' takes a number from 1 to 64")
        elif not 1 <= value.value <= MAX_PLAYERS:
            report.add("G404", value.span, f"'players' must be from 1 to {MAX_PLAYERS}, not {value.value}")
        else:
            program.players = value.value
    elif key == "size":
        _size(program, report, value)


def _size(program: Program, report: Report, value) -> None:
    if not isinstance(value, tuple):
        report.add("G404", value.span, "'size' takes the board's width and height, e.g. `size: 3 x 3`")
        return
    sides = []
    for side, word in zip(value, ("width", "height")):
        number = _side(program, report, side, word)
        if number is not None and not 1 <= number <= MAX_SIDE:
            given = f"{side.text} = {number}" if isinstance(side, ast.Name) else str(number)
            report.add("G404", side.span, f"the board's {word} must be from 1 to {MAX_SIDE}, not {given}")
            number = None
        sides.append(number)
    if None not in sides:  # sides of at most 1000 keep the board within 1,000,000 squares (spec section 4)
        program.width, program.height = sides
        program.param_sides = frozenset(word for side, word in zip(value, ("width", "height"))
                                        if isinstance(side, ast.Name))


def _side(program: Program, report: Report, side, word: str) -> int | None:
    """A side of `size:`: a number, or an int parameter's value in use (`size: n x n`)."""
    if isinstance(side, ast.IntLit):
        return side.value
    decl = program.params.get(side.text)
    if decl is None or decl.type.name != "int":
        what = "not a parameter" if decl is None else f"a {decl.type.name} parameter"
        report.add("G404", side.span, f"the board's {word} is a number or the name of an int "
                   f"parameter (`param int {side.text} = 9 in 1 to 19;`); '{side.text}' is {what}")
        return None
    program.references[side] = program.symbols[side.text]
    return program.param_values.get(side.text)


def _span(value) -> Span:
    """The span of a parameter value: a word, a number, or a `W x H` pair."""
    if isinstance(value, tuple):
        return value[0].span.to(value[1].span)
    return value.span


def first_param(program: Program) -> ast.GameParam | None:
    """Where game-wide complaints (a missing parameter or function) go: the first game
    parameter, the game's header."""
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.GameParam) and not item.key.recovered:
                return item
    return None
