"""Statement traversal without recursion.

The parser accepts blocks nested thousands deep and `else if` chains of any length; walking
them with recursive calls would exhaust Python's stack. The passes use this instead.
"""
from __future__ import annotations

from typing import Iterator

from gdef_core.syntax import ast


def statements(block: ast.Block) -> Iterator:
    """Every statement under `block`, nested ones included, in source order (a statement
    comes before the statements inside it)."""
    stack = list(reversed(block.stmts))
    while stack:
        stmt = stack.pop()
        yield stmt
        match stmt:
            case ast.Block(stmts=stmts):
                stack.extend(reversed(stmts))
            case ast.If(then=then, otherwise=otherwise):
                if otherwise is not None:
                    stack.append(otherwise)
                stack.append(then)
            case ast.While(body=body):
                stack.append(body)
