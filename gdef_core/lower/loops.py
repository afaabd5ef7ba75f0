"""Locals declared in a `for` header are scoped to their loop (spec 15.2); both backends keep
one name per local, so such locals are renamed apart before code is generated."""
from __future__ import annotations

import copy
from dataclasses import replace

from gdef_core.syntax import ast


def scoped_loop_locals(function: ast.FunctionDef) -> ast.FunctionDef:
    """The function with every local declared in a `for` header renamed apart (`i` -> `1i`,
    a name no user can write), so that two loops may each declare `i`, even with different
    types (spec 15.2), while the rest of the compiler keeps one name per local. The
    function's own AST, shared with the checker and the editor, is not changed."""
    if not any(isinstance(node, ast.For) and isinstance(node.init, ast.VarDecl) for node in ast.walk(function.body)):
        return function
    function = copy.deepcopy(function)
    counter = 0
    for loop in [node for node in ast.walk(function.body) if isinstance(node, ast.For)]:
        if not isinstance(loop.init, ast.VarDecl):
            continue
        counter += 1
        old = loop.init.name.text
        new = f"{counter}{old}"
        loop.init.name = replace(loop.init.name, text=new)
        for part in (loop.init.init, *loop.init.sizes, loop.cond, loop.step, loop.body):
            if part is None:
                continue
            for node in ast.walk(part):
                if isinstance(node, ast.NameRef) and node.name.text == old:
                    node.name = replace(node.name, text=new)
                elif isinstance(node, ast.Index) and node.base.text == old:
                    node.base = replace(node.base, text=new)
    return function
