"""How each built-in of gdef_core/builtins.py is compiled, bound by name.

Every entry turns a use of the built-in into Python source (most are inlined: a board read is a
list subscript with a bounds test, `onTurn()` is a variable). The table is checked against
BUILTINS by the tests, so a built-in added there cannot be forgotten here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from gdef_core.runtime.codegen import Code, FunctionCompiler

# An implementation gets the function compiler, the AST node (Call, Index or NameRef) and the
# compiled arguments or indexes; it returns the compiled expression.
Implementation = Callable[["FunctionCompiler", object, list["Code"]], "Code"]

IMPLEMENTATIONS: dict[str, Implementation] = {}


def implements(name: str):
    def register(function: Implementation) -> Implementation:
        IMPLEMENTATIONS[name] = function
        return function
    return register


def _code(text: str, type_: str | None):
    from gdef_core.runtime.codegen import Code
    return Code(text, type_)


@implements("empty")
def _empty(fc, node, args):
    return _code("EMPTY", "obj")


@implements("CurrentPosition")
def _current(fc, node, args):
    return fc.board_read("B", node, args)


@implements("NextPosition")
def _next(fc, node, args):
    fc.compiler.uses_next = True
    return fc.board_read("N", node, args)


@implements("OperationList")
def _operation_list(fc, node, args):
    return fc.operation_field(node, args)


@implements("operationsNum")
def _operations_num(fc, node, args):
    return _code("NOPS", "int")


@implements("isPlaceOperation")
def _is_place(fc, node, args):
    return fc.operation_part(node, args[0], 3, "bool")


@implements("onTurn")
def _on_turn(fc, node, args):
    return _code("T", "int")


@implements("moveNumber")
def _move_number(fc, node, args):
    return _code("MN", "int")


@implements("boardWidth")
def _board_width(fc, node, args):
    return _code(str(fc.compiler.width), "int")


@implements("boardHeight")
def _board_height(fc, node, args):
    return _code(str(fc.compiler.height), "int")


@implements("playersNum")
def _players_num(fc, node, args):
    return _code(str(fc.compiler.players), "int")


def _runtime_call(helper: str, result: str | None):
    """A built-in implemented by a helper of the generated module, given the location."""
    def implementation(fc, node, args):
        texts = [fc.coerce(arg, param.type, node.span).text
                 for arg, param in zip(args, fc.builtin_params(node))]
        return _code(f"{helper}({', '.join([*texts, str(fc.loc(node.span))])})", result)
    return implementation


IMPLEMENTATIONS["setWinner"] = _runtime_call("_set_winner", None)
IMPLEMENTATIONS["setNextPlayer"] = _runtime_call("_set_next_player", None)
IMPLEMENTATIONS["addPlace"] = _runtime_call("_add_place", None)
IMPLEMENTATIONS["addClear"] = _runtime_call("_add_clear", None)
IMPLEMENTATIONS["addMove"] = _runtime_call("_add_move", None)
IMPLEMENTATIONS["hasLegalMove"] = _runtime_call("_has_legal_move", "bool")
