"""The top-level declarations of all files -> the Program's tables and symbols.

One namespace holds objects, functions, game variables and built-ins (spec section 14); the
first definition of a name (in load order) owns it, later ones are reported as duplicates.
"""
from __future__ import annotations

from gdef_core.builtins import BUILTINS, Kind, lookup
from gdef_core.diagnostics import Related
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.semantics.report import Report, where
from gdef_core.span import Span
from gdef_core.syntax import ast

KIND_WORDS = {SymbolKind.FUNCTION: "function", SymbolKind.OBJECT: "object",
              SymbolKind.GAME_VAR: "game variable"}

_BUILTIN_WORDS = {Kind.FUNCTION: "built-in function", Kind.BOARD: "built-in board",
                  Kind.VALUE: "built-in object"}


def builtin_symbols() -> dict[str, Symbol]:
    return {name: Symbol(SymbolKind.BUILTIN, name, b.result if b.result in ast.TYPE_NAMES else None,
                         builtin=b)
            for name, b in BUILTINS.items()}


def collect(program: Program, report: Report) -> None:
    program.symbols.update(builtin_symbols())
    for module in program.modules:
        for item in module.items:
            match item:
                case ast.ObjDecl(name=name) if not report.recovery.distrusts(item):
                    _declare(program, report, name, SymbolKind.OBJECT, "obj", item, program.objects)
                case ast.FunctionDef(name=name, return_type=result):
                    _declare(program, report, name, SymbolKind.FUNCTION,
                             result.name if result else None, item, program.functions)
                case ast.GameVar(name=name, type=type_ref) if not report.recovery.distrusts(item):
                    _declare(program, report, name, SymbolKind.GAME_VAR, type_ref.name + "[]" * len(item.sizes),
                             item, program.game_vars)
                case ast.StartDecl():
                    _start(program, report, item)


def describe_builtin(name: str) -> str:
    builtin = lookup(name)
    return _BUILTIN_WORDS[builtin.kind] if builtin else "built-in"


def _declare(program: Program, report: Report, name: ast.Name, kind: SymbolKind,
             type_name: str | None, decl, table: dict) -> None:
    if name.recovered or not name.text:
        return
    symbol = Symbol(kind, name.text, type_name, decl)
    program.references[name] = symbol
    builtin = lookup(name.text)
    if builtin is not None and not builtin.soft:
        report.add("G204", name.span, f"'{name.text}' is a {describe_builtin(name.text)} and "
                   f"cannot be defined as {_article(KIND_WORDS[kind])}; choose another name")
        return
    existing = program.symbols.get(name.text)
    if existing is not None and existing.kind is SymbolKind.BUILTIN:  # soft: the game's name wins
        report.add("G421", name.span, f"'{name.text}' is also a {describe_builtin(name.text)}; this "
                   f"game's {KIND_WORDS[kind]} is used and the built-in is unavailable here (rename "
                   "yours to use the built-in)")
        existing = None
    if existing is not None:
        other = existing.name_span
        report.add("G203", name.span, f"'{name.text}' is already defined as "
                   f"{_article(_kind_word(existing))} ({where(other, name.span)})",
                   related=(Related(other, f"the other definition of '{name.text}'"),))
        return
    program.symbols[name.text] = symbol
    table[name.text] = decl


def _start(program: Program, report: Report, start: ast.StartDecl) -> None:
    if program.start is None:
        program.start = start
        return
    first = program.start.span
    keyword = _keyword_span(start)
    report.add("G407", keyword, "a game has at most one 'start'; the first one is at "
               f"{where(first, keyword)}",
               related=(Related(first, "the first 'start'"),))


def _keyword_span(start: ast.StartDecl) -> Span:
    """The span of the `start` keyword (five characters at the beginning of the block)."""
    span = start.span
    return Span(span.file, span.line, span.column, span.line, span.column + len("start"))


def _kind_word(symbol: Symbol) -> str:
    return "parameter" if getattr(symbol.decl, "param", False) else KIND_WORDS[symbol.kind]


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word
