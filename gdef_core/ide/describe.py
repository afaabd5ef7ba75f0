"""How symbols are shown to a person: signatures and markdown descriptions.

Hover, completion documentation, signature help and the outline all describe things the
same way; built-ins are described from gdef_core.builtins only.
"""
from __future__ import annotations

import os
import re

from gdef_core.builtins import GAME_PARAMETERS, Builtin, Context
from gdef_core.codes import CODES
from gdef_core.semantics.param_decls import constant
from gdef_core.semantics.program import Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast

def function_signature(function: ast.FunctionDef) -> str:
    """`name(int a, bool seen[][]) -> bool`, as written."""
    params = ", ".join(parameter_text(p) for p in function.params)
    result = f" -> {function.return_type.name}" if function.return_type else ""
    return f"{function.name.text}({params}){result}"


def parameter_text(param: ast.Param) -> str:
    """`int a`, or an array parameter with its empty brackets: `bool seen[][]`."""
    return f"{param.type.name} {param.name.text}" + "[]" * param.rank


def declaration_text(decl, source_of=None) -> str:
    """A local or game variable as declared, without its initialiser: `int seen[64]`,
    `obj grid[boardWidth()][8]`, `counter int halfmoves`. Sizes that are not literals are
    shown as written when `source_of(span)` can give the text."""
    sizes = "".join(f"[{_size_text(size, source_of)}]" for size in getattr(decl, "sizes", ()))
    modifier = "counter " if getattr(decl, "counter", False) else "param " if getattr(decl, "param", False) else ""
    return f"{modifier}{decl.type.name} {decl.name.text}{sizes}"


def declared_type(decl) -> str:
    """`int`, `int[64]`, `counter int`: a declaration without its name (completion details,
    the outline)."""
    sizes = "".join(f"[{_size_text(size, None)}]" for size in getattr(decl, "sizes", ()))
    modifier = "counter " if getattr(decl, "counter", False) else "param " if getattr(decl, "param", False) else ""
    return modifier + decl.type.name + sizes


def _size_text(size, source_of) -> str:
    if isinstance(size, ast.IntLit):
        return str(size.value)
    return (source_of(size.span) if source_of else None) or "…"


def where(span: Span | None) -> str:
    """`file.gdef:12`, 1-based, for people."""
    if span is None:
        return ""
    return f"{os.path.basename(span.file)}:{span.line + 1}"


def code_block(text: str) -> str:
    return f"```gdef\n{text}\n```"


def builtin_markdown(builtin: Builtin) -> str:
    parts = [code_block(builtin.signature), builtin.doc]
    notes = []
    if builtin.contexts != frozenset(Context):
        allowed = ", ".join(f"{c.value}()" for c in Context if c in builtin.contexts)
        notes.append(f"Allowed in {allowed} (and the functions they call).")
    if builtin.extension:
        notes.append("Extension: not in the original language.")
    if notes:
        parts.append(" ".join(f"*{note}*" for note in notes))
    return "\n\n".join(parts)


def game_parameter_markdown(key: str) -> str:
    return f"{code_block(key + ':')}\n\nGame parameter. {GAME_PARAMETERS[key]}"


def symbol_markdown(symbol: Symbol, source_of=None) -> str:
    """A symbol for hover and completion. `source_of(span)` gives the source text of a
    span (to show a game variable's initial value); None leaves it out."""
    decl = symbol.decl
    match symbol.kind:
        case SymbolKind.BUILTIN:
            return builtin_markdown(symbol.builtin)
        case SymbolKind.FUNCTION:
            parts = [code_block("define " + function_signature(decl))]
            if decl.doc:
                parts.append(decl.doc)
            parts.append(f"Function, defined at {where(decl.name.span)}.")
            return "\n\n".join(parts)
        case SymbolKind.OBJECT:
            return f"{code_block('obj ' + symbol.name)}\n\nObject, declared at {where(decl.name.span)}."
        case SymbolKind.GAME_VAR if getattr(decl, "param", False):
            return param_markdown(decl, source_of)
        case SymbolKind.GAME_VAR:
            init = source_of(decl.init.span) if source_of else None
            shown = declaration_text(decl, source_of) + (f" = {init}" if init else "")
            what = ("Counter game variable: part of the game state, but left out when positions are "
                    "compared (`repetitions()`)" if decl.counter else "Game variable (part of the game state)")
            return f"{code_block(shown)}\n\n{what}, declared at {where(decl.name.span)}.{_array_note(decl, source_of)}"
        case SymbolKind.PARAMETER if isinstance(decl, ast.Param):
            owner = symbol.function.name.text if symbol.function else "?"
            note = " (an array, passed by reference: writes change the caller's elements)" if decl.rank else ""
            return f"{code_block(parameter_text(decl))}\n\nParameter of `{owner}()`{note}."
        case SymbolKind.LOCAL if isinstance(decl, ast.VarDecl):
            owner = symbol.function.name.text if symbol.function else "?"
            return (f"{code_block(declaration_text(decl, source_of))}\n\n"
                    f"Local of `{owner}()`.{_array_note(decl, source_of)}")
        case SymbolKind.LOCAL | SymbolKind.PARAMETER:
            owner = symbol.function.name.text if symbol.function else "?"
            return f"{code_block(f'{symbol.type} {symbol.name}')}\n\n{symbol.kind.value.capitalize()} of `{owner}()`."
    return code_block(symbol.name)


def param_markdown(decl: ast.GameVar, source_of=None) -> str:
    """A parameter as declared, with its type, default and allowed values in words."""
    kind, name = decl.type.name, decl.name.text
    default = constant(decl.init, kind)
    shown = f"{kind} {name} = " + ((source_of(decl.init.span) if source_of else None) or _value_text(default))
    if decl.domain is not None:
        shown += " " + ((source_of(decl.domain.span) if source_of else None) or "in …")
    values = [constant(item, kind) for item in decl.domain.items] if decl.domain else []
    if kind == "bool":
        allowed = "true or false"
    elif decl.domain is None or None in values:
        allowed = "see its declaration"
    elif decl.domain.is_range:
        allowed = f"from {_value_text(values[0])} to {_value_text(values[1])}"
    else:
        allowed = "one of " + ", ".join(_value_text(value) for value in values)
    return (f"{code_block('param ' + shown)}\n\nParameter ({kind}): a constant of the game, chosen "
            f"when it is loaded (`--param {name}=VALUE`). Default {_value_text(default)}; allowed: "
            f"{allowed}. Declared at {where(decl.name.span)}.")


def _value_text(value) -> str:
    if value is None:
        return "…"
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _array_note(decl, source_of) -> str:
    """` An array of 8 x 8 obj elements.` for an array declaration, else nothing."""
    sizes = getattr(decl, "sizes", ())
    if not sizes:
        return ""
    shape = " x ".join(_size_text(size, source_of) for size in sizes)
    return f" An array of {shape} {decl.type.name} elements."


def docs_anchor(code: str) -> str:
    """The anchor of a code's heading in docs/diagnostics.md (`### G101: syntax error`, as
    Markdown renderers slug it: `g101-syntax-error`)."""
    entry = CODES.get(code)
    heading = f"{code}: {entry.title}" if entry else code
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def span_text(text: str, span: Span) -> str:
    """The source text of a span of `text` (which must be the span's file)."""
    lines = text.split("\n")
    if span.line == span.end_line:
        return lines[span.line][span.column:span.end_column]
    middle = lines[span.line + 1:span.end_line]
    return "\n".join([lines[span.line][span.column:], *middle, lines[span.end_line][:span.end_column]])
