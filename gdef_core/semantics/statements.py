"""Statement traversal without recursion.

The parser accepts blocks nested thousands deep and `else if` chains of any length; walking
them with recursive calls would exhaust Python's stack. The passes use this instead.
"""
from __future__ import annotations

from typing import Iterator

from gdef_core.syntax import ast


class LoopEnd:
    """Yielded by statements() after the last statement of a `for` (its STEP): the locals its
    INIT declared go out of scope here (spec section 15.2)."""

    __slots__ = ("loop",)

    def __init__(self, loop: ast.For) -> None:
        self.loop = loop


class LoopCond:
    """Yielded by statements() after a `for`'s INIT: its COND is read here, where INIT's
    local is visible."""

    __slots__ = ("loop",)

    def __init__(self, loop: ast.For) -> None:
        self.loop = loop


def statements(block: ast.Block) -> Iterator:
    """Every statement under `block`, nested ones included, in source order (a statement
    comes before the statements inside it). A `for` yields itself, its INIT, a LoopCond, its
    body, its STEP, then a LoopEnd."""
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
            case ast.For(init=init, body=body, step=step):
                stack.append(LoopEnd(stmt))
                if step is not None:
                    stack.append(step)
                stack.append(body)
                stack.append(LoopCond(stmt))
                if init is not None:
                    stack.append(init)
