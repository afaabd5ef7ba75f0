"""Run-time values: ints are Python ints kept inside signed 64 bits, floats are Python floats,
bools are Python bools, and objects are `Obj` instances.

An `Obj` is a `str` subclass holding the object's name: one instance per declared object, so
compiled rules compare objects with `is`, and the board's squares print and serialise as their
names without any conversion.
"""
from __future__ import annotations

from gdef_core.lower.arithmetic import INT_MAX, INT_MIN

__all__ = ["INT_MAX", "INT_MIN", "Obj", "type_name"]


class Obj(str):
    """A declared object (or `empty`). Compare with `is`; it prints as its name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Obj({str.__str__(self)})"


def type_name(value: object) -> str:
    """The gdef type of a run-time value, for messages."""
    kind = type(value)
    if kind is bool:
        return "bool"
    if kind is int:
        return "int"
    if kind is float:
        return "float"
    if kind is Obj:
        return "obj"
    return kind.__name__
