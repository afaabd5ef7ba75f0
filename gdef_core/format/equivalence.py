"""Whether two ASTs say the same thing: equal node by node, positions aside. The formatter
checks each of its results with it, and the tests use it on every file they format."""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from gdef_core.syntax import ast

# Fields that record where things are, not what they say; a function's `doc` is the comment
# above it (the comments are compared on their own), a module's path and text are its file.
_IGNORED = frozenset({"span", "op_span", "path_span", "doc", "words"})  # words: of `in`, `to`
_MODULE_IGNORED = frozenset({"path", "text", "comments"})


def same_tree(a, b) -> bool:
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif is_dataclass(x):
            ignored = _MODULE_IGNORED if type(x) is ast.Module else _IGNORED
            stack.extend((getattr(x, f.name), getattr(y, f.name)) for f in fields(x) if f.name not in ignored)
        elif x != y:
            return False
    return True

