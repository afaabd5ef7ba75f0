"""A compiled expression of the Python backend (`Code`): what function_compiler.py and the
built-ins' implementations (builtin_impl.py) hand each other.

Its own module so that the built-ins' table does not import the compiler that reads it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from gdef_core.lower.values import INT_MAX, INT_MIN


@dataclass(slots=True)
class Code:
    """A compiled expression: Python text; its gdef type ("int", "float", "bool", "obj", "dyn"
    when only known at run time, None for no value); its value when constant; the range of an
    int value; `pure`: cannot fail, has no effect, and keeps its value for the whole call."""

    text: str
    type: str | None
    value: object = None
    lo: int = INT_MIN
    hi: int = INT_MAX
    pure: bool = False
    sizes: tuple | None = None  # an array's sizes, each an int or None when known only at run time
    simple: bool = False  # a name or a literal: safe to repeat in the generated text
    local: str | None = None  # the gdef local whose value this is (its text is `l_NAME`)
    cell: str | None = None  # the cell whose value this is (PX: the single operation's x)

    @property
    def constant(self) -> bool:
        return self.value is not None


def constant(value) -> Code:
    if type(value) is bool:
        return Code(repr(value), "bool", value, pure=True, simple=True)
    if type(value) is int:
        return Code(f"({value})" if value < 0 else str(value), "int", value, value, value, True, simple=True)
    text = repr(value) if math.isfinite(value) else f"float('{value}')"
    return Code(f"({text})" if value < 0 or text[0] == "f" else text, "float", value, pure=True, simple=True)
