"""JSON to the generated protocol dataclasses (gdef_dap/protocol.py) and back: what a client
sends is checked against the type's fields (required ones present, JSON types right, nested
types built), so a handler never sees a malformed request."""
from __future__ import annotations

import dataclasses
import sys
import typing
from functools import cache


class ProtocolError(ValueError):
    """A message does not match its protocol type; the text names the field."""


def from_json(kind: type, value, where: str = "arguments"):
    if not isinstance(value, dict):
        raise ProtocolError(f"{where} must be an object")
    hints = _hints(kind)
    values = {}
    for field in dataclasses.fields(kind):
        if field.name not in value or value[field.name] is None:
            if field.default is dataclasses.MISSING:
                raise ProtocolError(f"{where}.{field.name} is missing")
            continue
        values[field.name] = _convert(hints[field.name], value[field.name], f"{where}.{field.name}")
    return kind(**values)


def to_json(value):
    if dataclasses.is_dataclass(value):
        return {field.name: to_json(getattr(value, field.name)) for field in dataclasses.fields(value)
                if getattr(value, field.name) is not None}
    if isinstance(value, list):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    return value


@cache
def _hints(kind: type) -> dict:
    return typing.get_type_hints(kind, vars(sys.modules[kind.__module__]))


def _convert(hint, value, where: str):
    options = [option for option in typing.get_args(hint) if option is not type(None)] \
        if typing.get_origin(hint) in (typing.Union, getattr(__import__("types"), "UnionType")) else [hint]
    hint = options[0]
    origin = typing.get_origin(hint)
    if origin is list:
        if not isinstance(value, list):
            raise ProtocolError(f"{where} must be an array")
        (item,) = typing.get_args(hint)
        return [_convert(item, element, f"{where}[{i}]") for i, element in enumerate(value)]
    if dataclasses.is_dataclass(hint):
        return from_json(hint, value, where)
    expected = {int: (int,), float: (int, float), bool: (bool,), str: (str,), dict: (dict,)}.get(hint)
    if expected is not None and (not isinstance(value, expected) or hint in (int, float) and isinstance(value, bool)):
        name = {int: "an integer", float: "a number", bool: "true or false", str: "a string", dict: "an object"}[hint]
        raise ProtocolError(f"{where} must be {name}")
    return value
