"""Which functions the compiler may inline: small functions whose whole body is a chain of
`if (c) { return e; }` ending in `return e;` (markOf, discOf, isOpponent, ...), calling no
function that cannot be inlined itself. Calling such a function costs more than evaluating it,
and the rules of board games are full of them.
"""
from __future__ import annotations

from gdef_core.syntax import ast

# Larger bodies are not worth the copies of their code.
MAX_NODES = 60

Arms = list[tuple[object | None, object]]  # (condition or None for "otherwise", returned value)


def inlinable_functions(functions: dict[str, ast.FunctionDef], recursive: set[str]) -> dict[str, Arms]:
    """name -> the function's body as arms, for every function that can be inlined."""
    candidates: dict[str, Arms] = {}
    for name, function in functions.items():
        if name in recursive or function.return_type is None:
            continue
        arms = _arms(function.body.stmts)
        if arms is not None and sum(1 for arm in arms for part in arm if part is not None
                                    for _ in ast.walk(part)) <= MAX_NODES:
            candidates[name] = arms
    changed = True
    while changed:  # drop functions that call a function that stays a call
        changed = False
        for name, arms in list(candidates.items()):
            called = {node.callee.text for arm in arms for part in arm if part is not None
                      for node in ast.walk(part) if isinstance(node, ast.Call)}
            if any(callee in functions and callee not in candidates for callee in called):
                del candidates[name]
                changed = True
    return candidates


def _arms(stmts) -> Arms | None:
    """The statements as arms, or None when they are not a plain if-return chain that always
    returns."""
    arms: Arms = []
    for stmt in stmts:
        match stmt:
            case ast.Return(value=value) if value is not None:
                arms.append((None, value))
                return arms
            case ast.If(cond=cond, then=then, otherwise=otherwise):
                value = _single_return(then.stmts)
                if value is None:
                    return None
                arms.append((cond, value))
                if otherwise is not None:
                    rest = _arms([otherwise] if isinstance(otherwise, ast.If) else otherwise.stmts)
                    return None if rest is None else arms + rest
            case _:
                return None
    return None  # the end of the body can be reached: not an expression


def _single_return(stmts):
    if len(stmts) == 1 and isinstance(stmts[0], ast.Return) and stmts[0].value is not None:
        return stmts[0].value
    return None
