"""`gdef-test -k EXPR`: pytest's keyword expressions over a test's id (`FILE::NAME`).

A word matches when it occurs in the id (case-insensitive); `and`, `or`, `not` and
parentheses combine words: `-k "castling and not queenside"`.
"""
from __future__ import annotations

import re
from collections.abc import Callable

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


class KeywordError(ValueError):
    pass


def keyword_matcher(expression: str) -> Callable[[str], bool]:
    tokens = _TOKEN.findall(expression)
    if not tokens:
        raise KeywordError("-k needs an expression, e.g. -k castling")
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        token = peek()
        if token is None:
            raise KeywordError(f"-k {expression!r}: the expression ends too early")
        position += 1
        return token

    def either():
        left = both()
        while peek() == "or":
            take()
            right = both()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def both():
        left = negation()
        while peek() == "and":
            take()
            right = negation()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def negation():
        if peek() == "not":
            take()
            inner = negation()
            return lambda s: not inner(s)
        return atom()

    def atom():
        token = take()
        if token == "(":
            inner = either()
            if take() != ")":
                raise KeywordError(f"-k {expression!r}: a '(' is not closed")
            return inner
        if token in (")", "and", "or"):
            raise KeywordError(f"-k {expression!r}: unexpected '{token}'")
        word = token.lower()
        return lambda s: word in s.lower()

    matcher = either()
    if peek() is not None:
        raise KeywordError(f"-k {expression!r}: unexpected '{peek()}'")
    return matcher
