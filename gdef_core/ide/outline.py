"""Document symbols (the outline of one file) and workspace symbols (top-level names of
every .gdef file under the workspace folders)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable, Iterable

from gdef_core.ide.describe import declared_type, function_signature
from gdef_core.span import Span
from gdef_core.syntax import ast


class OutlineKind(str, Enum):
    GAME_PARAMETER = "game parameter"
    USE = "use"
    OBJECT = "object"
    START = "start"
    SHOW = "show"
    GAME_VAR = "game variable"
    FUNCTION = "function"
    PARAMETER = "parameter"
    LOCAL = "local"


@dataclass(frozen=True, slots=True)
class OutlineItem:
    name: str
    kind: OutlineKind
    detail: str | None
    span: Span  # the whole declaration
    selection: Span  # its name
    children: tuple["OutlineItem", ...] = ()


def document_outline(module: ast.Module) -> list[OutlineItem]:
    return [entry for item in module.items if (entry := _item(item)) is not None]


def workspace_symbols(query: str, paths: Iterable[str], module_of: Callable[[str], ast.Module | None],
                      limit: int = 500) -> list[OutlineItem]:
    """Top-level declarations whose name contains the query's letters in order (any case)."""
    found = []
    for path in paths:
        module = module_of(path)
        if module is None:
            continue
        for entry in document_outline(module):
            if entry.kind is not OutlineKind.USE and matches(query, entry.name):
                found.append(entry)
                if len(found) >= limit:
                    return found
    return found


def matches(query: str, name: str) -> bool:
    """Fuzzy match: every character of the query appears in the name, in order."""
    rest = iter(name.lower())
    return all(char in rest for char in query.lower())


def _item(item) -> OutlineItem | None:
    match item:
        case ast.GameParam(key=key, value=value):
            return OutlineItem(key.text, OutlineKind.GAME_PARAMETER, _value_text(value), item.span, key.span)
        case ast.UseDecl(path=path):
            return OutlineItem(f'use "{path}"', OutlineKind.USE, None, item.span, item.path_span)
        case ast.ObjDecl(name=name) if name.text:
            return OutlineItem(name.text, OutlineKind.OBJECT, "obj", item.span, name.span)
        case ast.StartDecl(entries=entries):
            return OutlineItem("start", OutlineKind.START, f"{len(entries)} squares", item.span,
                               Span(item.span.file, item.span.line, item.span.column, item.span.line,
                                    item.span.column + len("start")))
        case ast.ShowDecl(entries=entries):
            return OutlineItem("show", OutlineKind.SHOW, f"{len(entries)} entries", item.span,
                               Span(item.span.file, item.span.line, item.span.column, item.span.line,
                                    item.span.column + len("show")))
        case ast.GameVar(name=name) if name.text:
            return OutlineItem(name.text, OutlineKind.GAME_VAR, declared_type(item), item.span, name.span)
        case ast.FunctionDef(name=name) if name.text:
            return OutlineItem(name.text, OutlineKind.FUNCTION, function_signature(item), item.span, name.span,
                               tuple(_inside(item)))
    return None


def _inside(function: ast.FunctionDef) -> list[OutlineItem]:
    found = [OutlineItem(p.name.text, OutlineKind.PARAMETER, p.type.name + "[]" * p.rank, p.span, p.name.span)
             for p in function.params if p.name.text]
    found += [OutlineItem(node.name.text, OutlineKind.LOCAL, declared_type(node), node.span, node.name.span)
              for node in ast.walk(function.body) if isinstance(node, ast.VarDecl) and node.name.text]
    return found


def _value_text(value) -> str | None:
    if isinstance(value, ast.Name):
        return value.text
    if isinstance(value, ast.IntLit):
        return str(value.value)
    if isinstance(value, tuple):
        return f"{value[0].value} x {value[1].value}"
    return None
