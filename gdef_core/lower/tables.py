"""Arrays that never change: their elements, known when compiling.

`int dx[4] = {0, -1, 1, 0};` as a game variable read by the rules and written by none of them
(setup() included) holds its initial value in every state of the game, so a compiled backend
may read it from a constant table instead of the state's variables (then the C compiler folds
`x + dx[d]` in an unrolled loop). A local array listed with constants, declared once and never
written, likewise (its declaration still counts its steps). An array passed to a function is a
reference the callee may write: not a table.
"""
from __future__ import annotations

from gdef_core.lower import ir
from gdef_core.lower.facts import static_int


def constant_arrays(module: ir.Module) -> dict[str, tuple[int, ...]]:
    """name -> the elements, row by row, of each int, obj or bool game-variable array that no
    function assigns or passes on and whose initial value is made of constants."""
    candidates = {name: decl for name, decl in module.game_vars.items()
                  if decl.sizes and not decl.type.startswith("float")}
    for function in module.functions.values():
        _drop_changed(function.body, ir.GameVar, candidates)
    return _tables(candidates)


def constant_locals(function: ir.Function) -> dict[str, tuple[int, ...]]:
    """name -> the elements, row by row, of each int, obj or bool local array of `function`
    declared once, listed with constants, and never assigned or passed on."""
    declared: dict[str, list] = {}
    for node in ir.walk(function.body):
        if isinstance(node, ir.DeclareArray):
            declared.setdefault(node.name, []).append(node)
    params = {name for name, _ in function.params}
    candidates = {name: decls[0] for name, decls in declared.items()
                  if len(decls) == 1 and name not in params and decls[0].rows is not None
                  and not decls[0].type.startswith("float")}
    _drop_changed(function.body, ir.Local, candidates)
    return _tables(candidates)


def _drop_changed(body, kind: type, candidates: dict) -> None:
    """Remove from `candidates` the arrays (nodes of `kind`: ir.GameVar or ir.Local) that
    `body` assigns, or uses otherwise than as element[...] or in sizeOf() (passed to a
    function: a reference the callee may write)."""
    read = set()   # the nodes read as element[...] or measured by sizeOf(): a table's uses
    for node in ir.walk(body):
        if isinstance(node, ir.Element) and isinstance(node.array, kind):
            read.add(id(node.array))
        if isinstance(node, ir.CallBuiltin) and node.builtin.name == "sizeOf":
            read.add(id(node.args[0]))
        if isinstance(node, ir.Assign):
            target = node.target.array if isinstance(node.target, ir.Element) else node.target
            if isinstance(target, kind):
                candidates.pop(target.name, None)
    for node in ir.walk(body):
        if isinstance(node, kind) and id(node) not in read:
            candidates.pop(node.name, None)


def _tables(candidates: dict) -> dict[str, tuple[int, ...]]:
    """name -> elements of each candidate whose declaration lists constants only."""
    tables = {}
    for name, decl in candidates.items():
        values = _elements(decl)
        if values is not None:
            tables[name] = values
    return tables


def _elements(decl: ir.GameVarDecl | ir.DeclareArray) -> tuple[int, ...] | None:
    sizes = decl.sizes if isinstance(decl, ir.GameVarDecl) else tuple(static_int(n, {}) for n in decl.sizes)
    if None in sizes:
        return None
    count = 1
    for size in sizes:
        count *= size
    if decl.rows is None:
        value = _value(decl.fill)
        return None if value is None else (value,) * count
    if len(sizes) == 1:
        rows = decl.rows
    elif all(len(row) == sizes[1] for row in decl.rows):
        rows = [item for row in decl.rows for item in row]
    else:
        return None
    if len(rows) != count:   # a listed shape other than the sizes is left to the state's copy
        return None
    values = tuple(_value(item) for item in rows)
    return None if None in values else values


def _value(expr) -> int | None:
    match expr:
        case ir.Object(number=number):
            return number
        case ir.Const(value=value, type="bool"):
            return 1 if value else 0
    return static_int(expr, {})
