"""Control flow inside a function: code after a `return` that can never run, and typed
functions whose end can be reached without `return` (a run-time error when it happens).

The language has no `break`, so `while (true)` never completes normally.
"""
from __future__ import annotations

from gdef_core.diagnostics import Tag
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report
from gdef_core.semantics.statements import statements
from gdef_core.syntax import ast


def check_flow(program: Program, report: Report) -> None:
    for module in program.modules:
        for function in module.functions():
            ends = never_completing(function.body)
            _unreachable(function.body, ends, report)
            if function.return_type is not None and function.body not in ends \
                    and not function.name.recovered:
                name = function.name.text
                report.add("G504", function.name.span, f"'{name}' returns "
                           f"{function.return_type.name}, but some path reaches the end of its body "
                           "without 'return'")


def never_completing(body: ast.Block) -> set:
    """The statements under `body` (and `body` itself) after which execution can never continue
    with the next statement: a `return`, an `if` whose every branch is such, a block holding
    one, a `while (true)`. Computed inner statements first, without recursion."""
    ends: set = set()
    for stmt in reversed([body, *statements(body)]):
        match stmt:
            case ast.Return() | ast.While(cond=ast.BoolLit(value=True)):
                ends.add(stmt)
            case ast.Block(stmts=stmts) if any(s in ends for s in stmts):
                ends.add(stmt)
            case ast.If(then=then, otherwise=otherwise) if then in ends and otherwise in ends:
                ends.add(stmt)
    return ends


def _unreachable(body: ast.Block, ends: set, report: Report) -> None:
    """One warning per block, for the statements after the first that never completes; code
    inside unreachable code is not reported again."""
    dead_blocks: set = set()
    for block in [body, *(s for s in statements(body) if isinstance(s, ast.Block))]:
        if block in dead_blocks:
            continue
        for position, stmt in enumerate(block.stmts):
            if stmt not in ends:
                continue
            dead = [s for s in block.stmts[position + 1:] if not isinstance(s, ast.ErrorStmt)]
            if dead:
                report.add("G503", dead[0].span.to(dead[-1].span), f"unreachable code: {_why(stmt)}",
                           tags=frozenset({Tag.UNNECESSARY}))
                dead_blocks.update(n for s in dead for n in ast.walk(s) if isinstance(n, ast.Block))
            break


def _why(stmt) -> str:
    match stmt:
        case ast.Return():
            return "it follows a 'return'"
        case ast.If():
            return "every branch of the 'if' before it returns"
        case ast.While():
            return "the 'while (true)' before it never ends"
    return "the block before it always returns"
