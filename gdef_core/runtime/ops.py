"""Value operations with the language's semantics (defined once, in lower/arithmetic.py, for
both backends) as the Python backend runs them, called by compiled rules where an inline Python
expression would not be exact: C-style int division and modulo, C `fmod`, division by zero,
overflow, and the run-time type checks for values whose type the checker could not know
(`OperationList[i][j]` with a computed j).

Every function takes `loc` (a span-table number) and raises `Fail` with a G6xx code.
"""
from __future__ import annotations

import math
import operator

from gdef_core.lower.arithmetic import (
    fits_int, float_div as _float_div, float_mod_is_nan, int_div as _int_div, int_div_fails, int_mod as _int_mod,
)
from gdef_core.lower.values import Obj, type_name
from gdef_core.runtime.errors import Fail

_NUMBER_TYPES = (int, float)


def overflow(loc: int):
    raise Fail("G602", "integer overflow: the result does not fit in a signed 64-bit int", loc)


def checked(value: int, loc: int) -> int:
    if fits_int(value):
        return value
    overflow(loc)


def int_div(a: int, b: int, loc: int) -> int:
    """`a / b` on ints (lower/arithmetic.py), its failures located."""
    if int_div_fails(a, b):
        if b == 0:
            raise Fail("G601", f"division by zero ({a} / 0)", loc)
        overflow(loc)
    return _int_div(a, b)


def int_mod(a: int, b: int, loc: int) -> int:
    if b == 0:
        raise Fail("G601", f"modulo by zero ({a} % 0)", loc)
    return _int_mod(a, b)


def float_div(a: float, b: float, loc: int) -> float:
    if b == 0:
        raise Fail("G601", f"division by zero ({a} / 0)", loc)
    return _float_div(a, b)


def float_mod(a: float, b: float, loc: int) -> float:
    if b == 0:
        raise Fail("G601", f"modulo by zero ({a} % 0)", loc)
    if float_mod_is_nan(a, b):
        return math.nan
    return math.fmod(a, b)


def no_return(function: str, loc: int):
    raise Fail("G606", f"{function}() reached its end without returning a value", loc)


def unset_local(name: str, loc: int):
    raise Fail("G609", f"'{name}' is read before its declaration ran (it is declared in a branch "
                       "or loop that did not run)", loc)


def loop_limit(limit: int, loc: int, in_moves: bool = False):
    # in moves() the operations held count too, which a loop that looks short may not explain
    held = " In moves(), each operation held by addPlace/addClear counts 4." if in_moves else ""
    raise Fail("G607", f"step limit exceeded: more than {limit:,} loop iterations and calls in "
                       f"one call of the rules (an endless loop?{held})", loc)


# ------------------------------------------------------------------ run-time type checks


def wrong_type(value: object, wanted: str, loc: int):
    raise Fail("G610", f"expected {_a(wanted)} here, but the value is {_a(type_name(value))} ({value})", loc)


def as_int(value: object, loc: int) -> int:
    if type(value) is int:
        return value
    wrong_type(value, "int", loc)


def as_float(value: object, loc: int) -> float:
    kind = type(value)
    if kind is float:
        return value
    if kind is int:
        return float(value)
    wrong_type(value, "float", loc)


def as_obj(value: object, loc: int) -> Obj:
    if type(value) is Obj:
        return value
    wrong_type(value, "obj", loc)


def as_bool(value: object, loc: int) -> bool:
    if type(value) is bool:
        return value
    wrong_type(value, "bool", loc)


def _a(type_name: str) -> str:
    return f"an {type_name}" if type_name[0] in "aeiou" else f"a {type_name}"


def _is_number(value: object) -> bool:
    return type(value) in _NUMBER_TYPES


# The comparison operators on values already known to be comparable (run time and folding).
COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
               ">": operator.gt, ">=": operator.ge}


def dyn_equal(a: object, b: object, loc: int) -> bool:
    """`==` when an operand's type is known only now: same types, or two numbers."""
    ta, tb = type(a), type(b)
    if ta is tb:
        return a is b if ta is Obj else a == b
    if _is_number(a) and _is_number(b):
        return float(a) == float(b)
    raise Fail("G610", f"cannot compare {_a(type_name(a))} ({a}) with {_a(type_name(b))} ({b})", loc)


def dyn_order(op: str, a: object, b: object, loc: int) -> bool:
    if not (_is_number(a) and _is_number(b)):
        bad = b if _is_number(a) else a
        raise Fail("G610", f"'{op}' compares numbers, not {_a(type_name(bad))} ({bad})", loc)
    if type(a) is not type(b):
        a, b = float(a), float(b)
    return COMPARISONS[op](a, b)


def dyn_arith(op: str, a: object, b: object, loc: int):
    if not (_is_number(a) and _is_number(b)):
        bad = b if _is_number(a) else a
        raise Fail("G610", f"'{op}' takes numbers, not {_a(type_name(bad))} ({bad})", loc)
    if type(a) is int and type(b) is int:
        if op == "/":
            return int_div(a, b, loc)
        if op == "%":
            return int_mod(a, b, loc)
        return checked(a + b if op == "+" else a - b if op == "-" else a * b, loc)
    a, b = float(a), float(b)
    if op == "/":
        return float_div(a, b, loc)
    if op == "%":
        return float_mod(a, b, loc)
    return a + b if op == "+" else a - b if op == "-" else a * b


def dyn_negate(a: object, loc: int):
    if type(a) is int:
        return checked(-a, loc)
    if type(a) is float:
        return -a
    wrong_type(a, "int", loc)
