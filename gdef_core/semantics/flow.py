"""Control flow inside a function: code after a `return` that can never run, and typed
functions whose end can be reached without `return` (a run-time error when it happens).

The language has no `break`, so `while (true)` never completes normally.
"""
from __future__ import annotations

from gdef_core.diagnostics import Tag
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast


def check_flow(program: Program, report: Report) -> None:
    for module in program.modules:
        for function in module.functions():
            _unreachable(function.body, report)
            if function.return_type is not None and not never_completes(function.body) \
                    and not function.name.recovered:
                name = function.name.text
                report.add("G504", function.name.span, f"'{name}' returns "
                           f"{function.return_type.name}, but some path reaches the end of its body "
                           "without 'return'")


def never_completes(stmt) -> bool:
    """Whether running `stmt` can never continue with the statement after it."""
    match stmt:
        case ast.Return():
            return True
        case ast.Block(stmts=stmts):
            return any(never_completes(s) for s in stmts)
        case ast.If(then=then, otherwise=otherwise):
            return otherwise is not None and never_completes(then) and never_completes(otherwise)
        case ast.While(cond=ast.BoolLit(value=True)):
            return True
    return False


def _unreachable(block: ast.Block, report: Report) -> None:
    for position, stmt in enumerate(block.stmts):
        for inner in _blocks(stmt):
            _unreachable(inner, report)
        if never_completes(stmt):
            dead = [s for s in block.stmts[position + 1:] if not isinstance(s, ast.ErrorStmt)]
            if dead:
                report.add("G503", dead[0].span.to(dead[-1].span), f"unreachable code: {_why(stmt)}",
                           tags=frozenset({Tag.UNNECESSARY}))
            return


def _why(stmt) -> str:
    match stmt:
        case ast.Return():
            return "it follows a 'return'"
        case ast.If():
            return "every branch of the 'if' before it returns"
        case ast.While():
            return "the 'while (true)' before it never ends"
    return "the block before it always returns"


def _blocks(stmt):
    match stmt:
        case ast.Block():
            yield stmt
        case ast.If(then=then, otherwise=otherwise):
            yield then
            if otherwise is not None:
                yield from _blocks(otherwise)
        case ast.While(body=body):
            yield body
