"""How symbols are shown to a person: signatures and markdown descriptions.

Hover, completion documentation, signature help and the outline all describe things the
same way; built-ins are described from gdef_core.builtins only.
"""
from __future__ import annotations

import os
import re

from gdef_core.builtins import GAME_PARAMETERS, Builtin, Context
from gdef_core.codes import CODES
from gdef_core.semantics.program import Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ast

_CONTEXT_NAMES = {Context.IS_MOVE_LEGAL: "isMoveLegal()", Context.END: "end()", Context.MOVES: "moves()",
                  Context.SETUP: "setup()"}


def function_signature(function: ast.FunctionDef) -> str:
    """`name(int a, obj b) -> bool`, as written."""
    params = ", ".join(f"{p.type.name} {p.name.text}" for p in function.params)
    result = f" -> {function.return_type.name}" if function.return_type else ""
    return f"{function.name.text}({params}){result}"


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
        allowed = ", ".join(_CONTEXT_NAMES[c] for c in Context if c in builtin.contexts)
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
        case SymbolKind.GAME_VAR:
            init = source_of(decl.init.span) if source_of else None
            shown = f"{decl.type.name} {symbol.name}" + (f" = {init}" if init else "")
            return (f"{code_block(shown)}\n\nGame variable (part of the game state), declared at "
                    f"{where(decl.name.span)}.")
        case SymbolKind.LOCAL | SymbolKind.PARAMETER:
            owner = symbol.function.name.text if symbol.function else "?"
            return f"{code_block(f'{symbol.type} {symbol.name}')}\n\n{symbol.kind.value.capitalize()} of `{owner}()`."
    return code_block(symbol.name)


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
