"""Control flow inside a function: code after a `return`, `break` or `continue` that can
never run, typed functions whose end can be reached without `return` (a run-time error when it
happens), `break`/`continue` outside a loop, and a `while` whose `continue` skips its update.

A `while (true)` or `for (;;)` without a `break` of its own never completes normally.
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
            check_function_flow(function, report)


def check_function_flow(function: ast.FunctionDef, report: Report) -> None:
    """The flow of one function: it reads nothing outside the function."""
    _jumps(function.body, report)
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
            case ast.Return() | ast.Break() | ast.Continue():
                ends.add(stmt)
            case ast.While(cond=ast.BoolLit(value=True)) | ast.For(cond=None) | \
                    ast.For(cond=ast.BoolLit(value=True)) if not any(isinstance(j, ast.Break) for j in loop_jumps(stmt)):
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


def loop_jumps(loop) -> list:
    """The `break` and `continue` statements that belong to `loop` (not to a loop inside it)."""
    found = []
    pending = [loop.body]
    while pending:
        node = pending.pop()
        match node:
            case ast.Break() | ast.Continue():
                found.append(node)
            case ast.Block(stmts=stmts):
                pending.extend(stmts)
            case ast.If(then=then, otherwise=otherwise):
                pending.append(then)
                if otherwise is not None:
                    pending.append(otherwise)
    return found


def _jumps(body: ast.Block, report: Report) -> None:
    """`break`/`continue` outside any loop (G314), and a `while` whose `continue` skips the
    update its condition waits for (G507)."""
    loops = [s for s in statements(body) if isinstance(s, (ast.While, ast.For))]
    owned = {id(jump) for loop in loops for jump in loop_jumps(loop)}
    for stmt in statements(body):
        if isinstance(stmt, (ast.Break, ast.Continue)) and id(stmt) not in owned:
            word = "break" if isinstance(stmt, ast.Break) else "continue"
            report.add("G314", stmt.span, f"'{word}' outside a loop: it belongs inside a `while` or a `for`")
    for loop in loops:
        if isinstance(loop, ast.While):
            _skipped_update(loop, report)


def _skipped_update(loop: ast.While, report: Report) -> None:
    continues = [j for j in loop_jumps(loop) if isinstance(j, ast.Continue)]
    if not continues:
        return
    watched = {n.name.text for n in ast.walk(loop.cond) if isinstance(n, ast.NameRef)}
    first = min(continues, key=lambda j: (j.span.line, j.span.column))
    updates = [s for s in statements(loop.body) if isinstance(s, ast.Assign)
               and isinstance(s.target, ast.NameRef) and s.target.name.text in watched]
    if updates and all((u.span.line, u.span.column) > (first.span.line, first.span.column) for u in updates):
        name = updates[0].target.name.text
        report.add("G507", first.span, f"this 'continue' skips the update of '{name}' below it, so the "
                   "loop may never end; update it before the `continue`, or write the loop as "
                   f"`for (...; ...; {name} = ...)`, whose step runs on `continue`")


def _why(stmt) -> str:
    match stmt:
        case ast.Return():
            return "it follows a 'return'"
        case ast.Break():
            return "it follows a 'break'"
        case ast.Continue():
            return "it follows a 'continue'"
        case ast.If():
            return "every branch of the 'if' before it returns"
        case ast.While():
            return "the 'while (true)' before it never ends"
    return "the block before it always returns"
