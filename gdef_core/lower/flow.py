"""Control-flow facts the compiler needs, computed on the AST of one function.

- `maybe_unset_reads`: reads of a local that may happen before its declaration ran (spec 13:
  a run-time error); only those reads get a run-time check, every other read is a plain load.
- `completes`: whether a function's body can reach its end (a typed function that can is
  compiled with a "no return" error there).
"""
from __future__ import annotations

from gdef_core.semantics.flow import loop_jumps, never_completing
from gdef_core.syntax import ast


class _Everything(frozenset):
    """The 'assigned' set after a return: every name counts as assigned (unreachable code)."""

    def __contains__(self, item) -> bool:
        return True

    def __and__(self, other):
        return other

    __rand__ = __and__

    def __or__(self, other):
        return self


EVERYTHING = _Everything()


def maybe_unset_reads(function: ast.FunctionDef, locals_: set[str]) -> set[ast.NameRef]:
    """The NameRef nodes reading a local that is not definitely assigned at that point."""
    found: set[ast.NameRef] = set()
    assigned = frozenset(p.name.text for p in function.params)
    _block(function.body.stmts, assigned, locals_, found)
    return found


def _reads(expr, assigned, locals_, found) -> None:
    for node in ast.walk(expr):
        if isinstance(node, ast.NameRef) and node.name.text in locals_ and node.name.text not in assigned:
            found.add(node)
        elif isinstance(node, ast.Index) and node.base.text in locals_ and node.base.text not in assigned:
            found.add(node)  # an element of an array local


def _block(stmts, assigned, locals_, found):
    for stmt in stmts:
        assigned = _stmt(stmt, assigned, locals_, found)
    return assigned


def _stmt(stmt, assigned, locals_, found):
    match stmt:
        case ast.VarDecl(name=name, init=init):
            _reads(init, assigned, locals_, found)
            return assigned | {name.text}
        case ast.Assign(target=target, value=value):
            _reads(value, assigned, locals_, found)
            if isinstance(target, ast.NameRef):
                return assigned | {target.name.text}
            _reads(target, assigned, locals_, found)
            return assigned
        case ast.ExprStmt(expr=expr):
            _reads(expr, assigned, locals_, found)
            return assigned
        case ast.Return(value=value):
            if value is not None:
                _reads(value, assigned, locals_, found)
            return EVERYTHING
        case ast.If(cond=cond, then=then, otherwise=otherwise):
            _reads(cond, assigned, locals_, found)
            after_then = _block(then.stmts, assigned, locals_, found)
            after_else = _stmt(otherwise, assigned, locals_, found) if otherwise is not None else assigned
            if after_then is EVERYTHING:
                return after_else
            if after_else is EVERYTHING:
                return after_then
            return after_then & after_else
        case ast.While(cond=cond, body=body):
            _reads(cond, assigned, locals_, found)
            _block(body.stmts, assigned, locals_, found)
            return EVERYTHING if _is_true(cond) and not _breaks(stmt) else assigned
        case ast.For(init=init, cond=cond, step=step, body=body):
            inside = _stmt(init, assigned, locals_, found) if init is not None else assigned
            if cond is not None:
                _reads(cond, inside, locals_, found)
            after_body = _block(body.stmts, inside, locals_, found)
            if step is not None:
                # the step runs after the body (or a `continue`): what the body surely assigned,
                # when it can reach the end, is assigned there
                _stmt(step, inside if after_body is EVERYTHING else after_body, locals_, found)
            forever = cond is None or _is_true(cond)
            return EVERYTHING if forever and not _breaks(stmt) else inside
        case ast.Break() | ast.Continue():
            return EVERYTHING  # what follows in the block does not run
        case ast.Block(stmts=stmts):
            return _block(stmts, assigned, locals_, found)
    return assigned


def _is_true(expr) -> bool:
    return isinstance(expr, ast.BoolLit) and expr.value is True


def completes(function: ast.FunctionDef) -> bool:
    """Whether running the function's body can reach its end (no return on some path): the
    checker's answer (semantics/flow.never_completing, which warns G504 about it)."""
    return function.body not in never_completing(function.body)


def _breaks(loop) -> bool:
    """Whether a `break` in the loop's body leaves this loop (not one nested in it)."""
    return any(isinstance(jump, ast.Break) for jump in loop_jumps(loop))
