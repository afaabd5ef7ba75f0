"""Selection ranges ("expand selection"): from the word under the cursor outwards through
each enclosing expression, statement, block and definition to the whole file.

Read from the syntax tree alone (no checking), so it works in a file with errors: recovered
nodes have spans like any other.
"""
from __future__ import annotations

import dataclasses

from gdef_core.span import Span, lone_cr_as_lf
from gdef_core.syntax import ast


def selection_ranges(module: ast.Module, line: int, column: int) -> list[Span]:
    """The spans containing (line, column), innermost first, each strictly larger than the
    one before; the last is the whole file."""
    lines = lone_cr_as_lf(module.text).split("\n")
    chain = [Span(module.path, 0, 0, len(lines) - 1, len(lines[-1]))]
    node = module
    while True:
        inner = _innermost_part(node, line, column)
        if inner is None:
            break
        span = inner if isinstance(inner, Span) else inner.span
        if span != chain[-1]:
            chain.append(span)
        if isinstance(inner, Span):
            break
        node = inner
    return chain[::-1]


def _innermost_part(node, line: int, column: int):
    """The part of `node` (a child node, a name, a type, or a bare span such as a `use`
    path) that contains the position; of two touching parts, the one starting there."""
    best = None
    for part in _parts(node):
        span = part if isinstance(part, Span) else part.span
        if span.contains(line, column) and (best is None or span.start >= _span(best).start):
            best = part
    return best


def _parts(node) -> list:
    if isinstance(node, ast.Module):
        return list(node.items)
    if not dataclasses.is_dataclass(node):
        return []
    found = []
    for field in dataclasses.fields(node):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, Span) or hasattr(item, "span"):
                found.append(item)
    return found


def _span(part) -> Span:
    return part if isinstance(part, Span) else part.span
