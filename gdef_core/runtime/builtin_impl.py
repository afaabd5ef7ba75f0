"""How each built-in of gdef_core/builtins.py is compiled, bound by name.

Every entry turns a use of the built-in into Python source (most are inlined: a board read is a
list subscript with a bounds test, `onTurn()` is a variable). The table is checked against
BUILTINS by the tests, so a built-in added there cannot be forgotten here (but for those the IR
holds as constants and objects, lower/build.RESOLVED: `empty`, boardWidth() and the like).
"""
from __future__ import annotations

from typing import Callable

from gdef_core.builtins import Context
from gdef_core.lower.limits import OPERATION_STEPS
from gdef_core.lower.values import INT_MAX, INT_MIN
from gdef_core.runtime.code import Code, constant

# An implementation gets the function compiler (function_compiler.FunctionCompiler, which
# imports this table: not named here, so the two modules make no circle), the IR node
# (lower/ir.py: CallBuiltin or Board) and the compiled arguments (as written, each converted by
# the implementation, located at the call) or indexes; it returns the compiled expression.
Implementation = Callable[[object, object, list[Code]], Code]

IMPLEMENTATIONS: dict[str, Implementation] = {}


def implements(name: str):
    def register(function: Implementation) -> Implementation:
        IMPLEMENTATIONS[name] = function
        return function
    return register


def _code(text: str, type_: str | None, lo: int | None = None, hi: int | None = None, pure: bool = False,
          simple: bool = False):
    if pure and lo is not None and lo == hi:
        return constant(lo)
    return Code(text, type_, None, INT_MIN if lo is None else lo, INT_MAX if hi is None else hi, pure, simple=simple)


@implements("CurrentPosition")
def _current(fc, node, args):
    return fc.board_read("B", node, args)


@implements("NextPosition")
def _next(fc, node, args):
    if not fc.variant:
        fc.compiler.uses_next = True
    return fc.board_read("N", node, args)


@implements("ResultPosition")
def _result(fc, node, args):
    """The scratch copy R where isMoveLegal() makes consequences; else NextPosition (which is
    CurrentPosition outside isMoveLegal(), consequences of end() included)."""
    if fc.compiler.judged_consequences:
        return fc.board_read("R", node, args)
    return _next(fc, node, args)


@implements("CurrentCount")
def _current_count(fc, node, args):
    return fc.board_read("B", node, args, counts=True)


@implements("NextCount")
def _next_count(fc, node, args):
    fc.compiler.uses_next = True  # no single-operation variant in a game that counts
    return fc.board_read("N", node, args, counts=True)


@implements("PreviousCount")
def _previous_count(fc, node, args):
    return fc.board_read("PB", node, args, counts=True)


@implements("ResultCount")
def _result_count(fc, node, args):
    """The counts of ResultPosition: the scratch copy R where isMoveLegal() makes consequences;
    else NextCount (CurrentCount outside isMoveLegal())."""
    if fc.compiler.judged_consequences:
        return fc.board_read("R", node, args, counts=True)
    return _next_count(fc, node, args)


@implements("OperationList")
def _operation_list(fc, node, args):
    return fc.operation_field(node, args)


@implements("operationsNum")
def _operations_num(fc, node, args):
    if fc.variant:
        return _code("1", "int", 1, 1, pure=True)
    return _code(fc.cell("NOPS"), "int", 0, None, pure=True, simple=True)


@implements("isPlaceOperation")
def _is_place(fc, node, args):
    return fc.operation_part(node, args[0], 3, "bool")


@implements("isCountOperation")
def _is_count(fc, node, args):
    return fc.operation_part(node, args[0], "is count", "bool")


@implements("onTurn")
def _on_turn(fc, node, args):
    return _code(fc.cell("T"), "int", 0, fc.compiler.players - 1, pure=True, simple=True)


@implements("moveNumber")
def _move_number(fc, node, args):
    return _code(fc.cell("MN"), "int", 0, None, pure=True, simple=True)


def _runtime_call(helper: str, result: str | None):
    """A built-in implemented by a helper of the generated module, given the location."""
    def implementation(fc, node, args):
        texts = [fc.coerce(arg, param.type, node.span).text
                 for arg, param in zip(args, node.builtin.params)]
        return _code(f"{helper}({', '.join([*texts, str(fc.loc(node.span))])})", result)
    return implementation


IMPLEMENTATIONS["setWinner"] = _runtime_call("_set_winner", None)
IMPLEMENTATIONS["setNextPlayer"] = _runtime_call("_set_next_player", None)


def _candidate_operation(place: bool):
    """addPlace / addClear: inlined in functions only moves() reaches (an operation appended
    to the candidate being built, None when its square is off the board)."""
    helper = _runtime_call("_add_place" if place else "_add_clear", None)

    def implementation(fc, node, args):
        if fc.only_context is not Context.MOVES:
            return helper(fc, node, args)
        x, y = (fc.coerce(arg, "int", node.span) for arg in args[:2])
        tests: list[str] = []
        x_use = fc.index_part(x, fc.compiler.width, tests)
        y_use = fc.index_part(y, fc.compiler.height, tests)
        obj = fc.cell("EMPTY")
        if place:
            code = fc.coerce(args[2], "obj", node.span)
            obj = code.text
            if tests and not code.pure:  # evaluated before the test, as an argument would be
                first, obj = fc.bind(code)
                tests.append(f"({first} is not None)")
        operation = f"({x_use}, {y_use}, {obj}, {place})"
        if tests:
            operation = f"{operation} if {' & '.join(tests)} else None"
        # each operation held costs a step, so memory is bounded like time (docs/runtime.md)
        return _code(f"(CUR.append({operation}), ST := ST - {OPERATION_STEPS})", None)
    return implementation


def _add_move(fc, node, args):
    if fc.only_context is not Context.MOVES:
        return _runtime_call("_add_move", None)(fc, node, args)
    t = fc.temp()  # a candidate with an operation off the board (None) is dropped
    return _code(f"((CAND.append({t}) if None not in ({t} := tuple(CUR)) else None) or CUR.clear())", None)


IMPLEMENTATIONS["addPlace"] = _candidate_operation(place=True)
IMPLEMENTATIONS["addClear"] = _candidate_operation(place=False)
IMPLEMENTATIONS["addMove"] = _add_move
IMPLEMENTATIONS["addCount"] = _runtime_call("_add_count", None)
IMPLEMENTATIONS["hasLegalMove"] = _runtime_call("_has_legal_move", "bool")
IMPLEMENTATIONS["chanceNext"] = _runtime_call("_chance_next", None)
IMPLEMENTATIONS["addOutcome"] = _runtime_call("_add_outcome", None)
IMPLEMENTATIONS["isChanceMove"] = _runtime_call("_is_chance_move", "bool")


@implements("PreviousPosition")
def _previous(fc, node, args):
    return fc.board_read("PB", node, args)


@implements("repetitions")
def _repetitions(fc, node, args):
    return _code(f"_repetitions({fc.loc(node.span)})", "int", 0)


@implements("nextBoardSeen")
def _next_board_seen(fc, node, args):
    if fc.variant:  # one operation: the next board is the current one with one square changed
        return _code(f"_board_seen_one({fc.cell('B')}, {fc.cell('PX')}, {fc.cell('PY')}, {fc.cell('PO')})", "bool")
    fc.compiler.uses_next = True
    board = "R" if fc.compiler.judged_consequences else "N"  # ResultPosition
    return _code(f"_board_seen({board}, {fc.loc(node.span)})", "bool")


@implements("isGenerated")
def _is_generated(fc, node, args):
    return _code(f"_is_generated({fc.loc(node.span)})", "bool")


@implements("setScore")
def _set_score(fc, node, args):
    player = fc.coerce(args[0], "int", node.span)
    value = args[1]
    if value.type not in ("int", "float"):  # known only at run time: a number is needed
        value = fc.coerce(value, "float", node.span)
    return _code(f"_set_score({player.text}, {value.text}, {fc.loc(node.span)})", None)


@implements("sizeOf")
def _size_of(fc, node, args):
    array, dimension = args
    d = dimension.value if dimension.constant else 0
    known = array.sizes[d] if array.sizes and d < len(array.sizes) else None
    if known is not None:
        return _code("", "int", known, known, pure=True)
    return _code(f"len({array.text}{'[0]' * d})", "int", 1, 1_000_000)
