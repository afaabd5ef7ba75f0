"""The nesting limits of the language, checked once after parsing (code G110).

The parser accepts blocks and expressions nested to any depth, but every tool must give the
same answer about a file: gdef-run compiles the rules to Python, which refuses more than 100
levels of indentation and 20 nested loops, and every tree walk costs stack. So the limits
are part of the language, reported as a syntax diagnostic: gdef-check, the language server
and gdef-run all refuse the same files with the same code and position, and no later pass
(checker, compiler, editor features) ever meets a deeper tree. Walked without recursion.
"""
from __future__ import annotations

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic
from gdef_core.span import Span
from gdef_core.syntax import ast

MAX_BLOCK_DEPTH = 64  # bodies of if, else, while and for inside one another
MAX_LOOP_DEPTH = 16  # while and for loops inside one another
MAX_EXPRESSION_DEPTH = 1000  # operators, calls, indexes and operands inside one another
MAX_ELSE_IF = 1000  # `else if` arms of one `if`

_EXPRESSIONS = (ast.IntLit, ast.FloatLit, ast.BoolLit, ast.NameRef, ast.Call, ast.Index, ast.Unary,
                ast.Binary, ast.ArrayInit, ast.ErrorExpr)
_KEYWORDS = {ast.If: "if", ast.While: "while", ast.For: "for"}


def nesting_diagnostics(items: list) -> list[Diagnostic]:
    """One G110 per top-level item and kind of nesting that goes past its limit (at the first
    construct too deep); what lies deeper is not looked at."""
    found: list[Diagnostic] = []
    for item in items:
        reported: set[str] = set()
        # (node, blocks around it, loops around it, the expression depth of an expression or
        # the number of `else if` arms before an `if`)
        stack: list[tuple[object, int, int, int]] = [(item, 0, 0, 0)]
        while stack:
            node, blocks, loops, depth = stack.pop()
            kind = type(node)
            if kind in _EXPRESSIONS:
                if depth > MAX_EXPRESSION_DEPTH:
                    _report(found, reported, "expression", node.span,
                            f"expressions nested more than {MAX_EXPRESSION_DEPTH} deep: split this "
                            "one into locals or functions of its own")
                    continue
                stack.extend((child, blocks, loops, depth + 1) for child in reversed(ast.children(node)))
                continue
            if kind in _KEYWORDS:
                inner_loops = loops + (kind is not ast.If)
                if blocks + 1 > MAX_BLOCK_DEPTH:
                    _report(found, reported, "block", _head(node.span, _KEYWORDS[kind]),
                            f"blocks nested more than {MAX_BLOCK_DEPTH} deep: move the inner "
                            "blocks into a function of their own")
                    continue
                if depth > MAX_ELSE_IF:
                    _report(found, reported, "chain", _head(node.span, "if"),
                            f"more than {MAX_ELSE_IF} `else if` arms in one chain: look the "
                            "value up in an array, or split the chain over functions")
                    continue
                if inner_loops > MAX_LOOP_DEPTH:
                    _report(found, reported, "loop", _head(node.span, _KEYWORDS[kind]),
                            f"loops nested more than {MAX_LOOP_DEPTH} deep: move the inner loops "
                            "into a function of their own")
                    continue
                for child in reversed(ast.children(node)):  # popped in source order
                    if child is getattr(node, "body", None) or child is getattr(node, "then", None) \
                            or (isinstance(child, ast.Block) and child is getattr(node, "otherwise", None)):
                        stack.append((child, blocks + 1, inner_loops, 0))
                    elif isinstance(child, ast.If):  # an `else if`: the same level, one arm more
                        stack.append((child, blocks, loops, depth + 1))
                    else:  # a condition, a for's init and step
                        stack.append((child, blocks, loops, 1 if type(child) in _EXPRESSIONS else 0))
                continue
            stack.extend((child, blocks, loops, 1 if type(child) in _EXPRESSIONS else 0)
                         for child in reversed(ast.children(node)))
    return found


def _report(found: list[Diagnostic], reported: set[str], what: str, span: Span, message: str) -> None:
    if what not in reported:
        reported.add(what)
        found.append(diagnostic("G110", span, message))


def _head(span: Span, keyword: str) -> Span:
    """The keyword that starts a statement: its whole span may cover thousands of lines."""
    return Span(span.file, span.line, span.column, span.line, span.column + len(keyword))
