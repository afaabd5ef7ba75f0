"""Which functions the compiler may inline: small functions whose whole body is a chain of
`if (c) { return e; }` ending in `return e;` (markOf, discOf, isOpponent, ...), calling no
function that cannot be inlined itself. Calling such a function costs more than evaluating it,
and the rules of board games are full of them.
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.syntax import ast

# Larger bodies are not worth the copies of their code.
MAX_NODES = 60
# Nor are functions that grow past this once the inlinable functions they call are inlined in
# turn (a chain of functions each calling the next twice would otherwise grow exponentially).
MAX_EXPANDED_NODES = 4 * MAX_NODES

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
    while True:
        changed = True
        while changed:  # drop functions that call a function that stays a call
            changed = False
            for name, arms in list(candidates.items()):
                called = {node.callee.text for arm in arms for part in arm if part is not None
                          for node in ast.walk(part) if isinstance(node, ast.Call)}
                if any(callee in functions and callee not in candidates for callee in called):
                    del candidates[name]
                    changed = True
        too_big = [name for name, size in _expanded_sizes(candidates).items() if size > MAX_EXPANDED_NODES]
        if not too_big:
            return candidates
        for name in too_big:
            del candidates[name]


def _expanded_sizes(candidates: dict[str, Arms]) -> dict[str, int]:
    """name -> the nodes of its arms once every call of a candidate in them is inlined, capped
    just above MAX_EXPANDED_NODES. Candidates call no recursive function, so the calls form a
    DAG; it is walked with an explicit stack (chains can be thousands of functions long)."""
    sizes: dict[str, int] = {}
    for root in candidates:
        stack = [(root, False)]
        while stack:
            name, ready = stack.pop()
            if name in sizes:
                continue
            nodes = [node for arm in candidates[name] for part in arm if part is not None
                     for node in ast.walk(part)]
            callees = [node.callee.text for node in nodes
                       if isinstance(node, ast.Call) and node.callee.text in candidates]
            if ready:
                total = len(nodes) + sum(sizes[callee] for callee in callees)
                sizes[name] = min(total, MAX_EXPANDED_NODES + 1)
            else:
                stack.append((name, True))
                stack.extend((callee, False) for callee in callees if callee not in sizes)
    return sizes


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


def arms(function: ir.Function) -> Arms | None:
    """The lowered body of an inlinable function (ir.Function.inlinable) as arms, conditions
    and values as IR: what an emitter inlines in place of a call."""
    return _lowered_arms(function.body[1:]) if function.inlinable else None  # after its Enter


def _lowered_arms(stmts) -> Arms | None:
    found: Arms = []
    for stmt in stmts:
        match stmt:
            case ir.Return(value=value) if value is not None:
                found.append((None, value))
                return found
            case ir.If(cond=cond, then=(ir.Return(value=value),), otherwise=otherwise) if value is not None:
                found.append((cond, value))
                if otherwise:
                    rest = _lowered_arms(otherwise)
                    return None if rest is None else found + rest
            case _:
                return None
    return None
