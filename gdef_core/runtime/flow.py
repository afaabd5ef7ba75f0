"""Control-flow facts the compiler needs, computed on the AST of one function.

- `maybe_unset_reads`: reads of a local that may happen before its declaration ran (spec 13:
  a run-time error); only those reads get a run-time check, every other read is a plain load.
- `completes`: whether a statement list can reach its end (a typed function that can is
  compiled with a "no return" error there).
"""
from __future__ import annotations

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
            return EVERYTHING if _is_true(cond) and not breaks(body) else assigned
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
            return EVERYTHING if forever and not breaks(body) else inside
        case ast.Break() | ast.Continue():
            return EVERYTHING  # what follows in the block does not run
        case ast.Block(stmts=stmts):
            return _block(stmts, assigned, locals_, found)
    return assigned


def _is_true(expr) -> bool:
    return isinstance(expr, ast.BoolLit) and expr.value is True


def completes(stmts) -> bool:
    """Whether running the statements can reach their end (no return on some path)."""
    return all(_stmt_completes(stmt) for stmt in stmts)


def _stmt_completes(stmt) -> bool:
    match stmt:
        case ast.Return():
            return False
        case ast.If(then=then, otherwise=otherwise):
            if otherwise is None:
                return True
            return completes(then.stmts) or _stmt_completes(otherwise)
        case ast.While(cond=cond, body=body):
            return not _is_true(cond) or breaks(body)
        case ast.For(cond=cond, body=body):
            return not (cond is None or _is_true(cond)) or breaks(body)
        case ast.Block(stmts=stmts):
            return completes(stmts)
    return True


def breaks(body: ast.Block) -> bool:
    """Whether a `break` in the loop body leaves this loop (not one nested in it)."""
    pending = list(body.stmts)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Break):
            return True
        if isinstance(node, (ast.While, ast.For)):
            continue
        pending.extend(child for child in ast.children(node)
                       if isinstance(child, (ast.Block, ast.If, ast.Break, ast.VarDecl, ast.Assign, ast.ExprStmt,
                                             ast.Return, ast.While, ast.For, ast.Continue)))
    return False


def call_graph(functions: dict[str, ast.FunctionDef]) -> dict[str, list[str]]:
    """name -> the gdef functions its body calls (once per call)."""
    return {name: [node.callee.text for node in ast.walk(function.body)
                   if isinstance(node, ast.Call) and node.callee.text in functions]
            for name, function in functions.items()}


def recursive_functions(functions: dict[str, ast.FunctionDef]) -> set[str]:
    """The functions that can call themselves, directly or through others (those on a cycle
    of the call graph): only they need the recursion-depth check."""
    return {name for component in cycles(call_graph(functions)) for name in component}


def cycles(calls: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of a call graph that hold a cycle (several
    functions, or one that calls itself); callees outside `calls` are ignored."""
    calls = {name: [callee for callee in callees if callee in calls] for name, callees in calls.items()}
    # Tarjan's strongly connected components, iteratively (no Python recursion on deep graphs).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for root in calls:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            name, position = work.pop()
            if position == 0:
                index[name] = low[name] = counter
                counter += 1
                stack.append(name)
                on_stack.add(name)
            callees = calls[name]
            if position < len(callees):
                work.append((name, position + 1))
                callee = callees[position]
                if callee not in index:
                    work.append((callee, 0))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            if low[name] == index[name]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                if len(component) > 1 or name in calls[name]:
                    result.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
    return result


def calls_not_inlined(function: ast.FunctionDef, functions: dict, inlined) -> bool:
    """Whether `function` calls a gdef function that is not inlined (an inlined one is a
    bounded amount of code, see inlining.MAX_EXPANDED_NODES): such a function checks the step
    budget on entry, in both backends (a call tree can grow exponentially without loops)."""
    return any(isinstance(node, ast.Call) and node.callee.text in functions
               and node.callee.text not in inlined for node in ast.walk(function.body))


def reachable(functions: dict[str, ast.FunctionDef], root: str) -> set[str]:
    """The functions `root` can call, directly or not (itself included)."""
    found: set[str] = set()
    pending = [root] if root in functions else []
    while pending:
        name = pending.pop()
        if name in found:
            continue
        found.add(name)
        pending.extend(node.callee.text for node in ast.walk(functions[name].body)
                       if isinstance(node, ast.Call) and node.callee.text in functions)
    return found


def builtins_used(functions) -> set[str]:
    """The names of the built-ins the functions call or read (the runtime keeps the state that
    `repetitions()`, `setScore()` or `PreviousPosition` need only for games that use them)."""
    used: set[str] = set()
    for function in functions.values():
        for node in ast.walk(function.body):
            if isinstance(node, ast.Call):
                used.add(node.callee.text)
            elif isinstance(node, ast.Index):
                used.add(node.base.text)
    return used
