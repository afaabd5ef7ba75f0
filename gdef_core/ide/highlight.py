"""Semantic token classification: what each word of a file is, for editors to colour.

Names are classified by what they resolve to (a parameter and a game variable look
different even though the grammar cannot tell them apart); keywords, numbers, strings,
operators and comments by the scanner. Token types and modifiers use the standard LSP
vocabulary so that every theme already has colours for them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from gdef_core.builtins import ALIASES, Kind
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.lexing import scan
from gdef_core.semantics.program import SymbolKind
from gdef_core.syntax import ast

TOKEN_TYPES = ("keyword", "type", "number", "string", "comment", "operator", "function", "variable",
               "parameter", "enumMember", "property")
TOKEN_MODIFIERS = ("declaration", "readonly", "static", "deprecated", "defaultLibrary")


@dataclass(frozen=True, slots=True)
class SemanticToken:
    line: int
    column: int  # code points
    length: int  # code points, never past the end of the line
    type: str  # one of TOKEN_TYPES
    modifiers: frozenset[str] = frozenset()


_BY_TOKEN = {
    **dict.fromkeys(("DEFINE", "RETURN", "IF", "ELSE", "WHILE", "START", "USE", "TRUE", "FALSE", "FOR", "BREAK",
                     "CONTINUE"), "keyword"),
    **dict.fromkeys(("TYPE", "OBJ"), "type"),
    **dict.fromkeys(("INT", "FLOAT", "DIMS"), "number"),
    "STRING": "string",
}
_PUNCTUATION = frozenset({"LPAR", "RPAR", "LBRACE", "RBRACE", "LSQB", "RSQB", "COMMA", "SEMICOLON", "COLON"})
_BY_SYMBOL = {
    SymbolKind.FUNCTION: ("function", frozenset()),
    SymbolKind.OBJECT: ("enumMember", frozenset({"readonly"})),
    SymbolKind.GAME_VAR: ("variable", frozenset({"static"})),
    SymbolKind.LOCAL: ("variable", frozenset()),
    SymbolKind.PARAMETER: ("parameter", frozenset()),
}
# `size: n x n`: a DIMS token whose sides may be names of parameters.
_SIDES = re.compile(r"([0-9]+|[A-Za-z_]\w*)[ \t]*x[ \t]*([0-9]+|[A-Za-z_]\w*)")
_BY_BUILTIN = {
    Kind.FUNCTION: ("function", frozenset({"defaultLibrary"})),
    Kind.BOARD: ("variable", frozenset({"defaultLibrary", "readonly"})),
    Kind.VALUE: ("enumMember", frozenset({"defaultLibrary", "readonly"})),
}


def semantic_tokens(analysis: Analysis | None, text: str, path: str) -> list[SemanticToken]:
    """Every classified token of the file, in order, each on one line."""
    scanned = scan(text, path)
    names = {o.span.start: o for o in analysis.occurrences(path)} if analysis else {}
    found: list[SemanticToken] = []
    tokens = scanned.tokens
    domain_words = _domain_words(analysis, path)
    for i, token in enumerate(tokens):
        kind = token.type
        if kind in _PUNCTUATION:
            continue
        if kind == "DIMS" and not (token.value[0].isdigit() and token.value[-1].isdigit()):
            found += _named_sides(token, names)
            continue
        classified = _BY_TOKEN.get(kind)
        modifiers: frozenset[str] = frozenset()
        if kind == "NAME":
            occurrence = names.get((token.line, token.column))
            if occurrence is not None:
                classified, modifiers = _name(occurrence)
            elif i + 1 < len(tokens) and tokens[i + 1].type == "COLON" and (i == 0 or tokens[i - 1].type != "COLON"):
                classified = "property"  # a game parameter's key
            elif _is_counter_modifier(tokens, i) or (token.line, token.column) in domain_words:
                classified = "keyword"
        elif classified is None:
            classified = "operator"
        if classified is not None:
            found.append(SemanticToken(token.line, token.column, token.end_column - token.column, classified, modifiers))
    for comment in scanned.comments:
        found += _comment_lines(comment)
    found.sort(key=lambda t: (t.line, t.column))
    return found


def _domain_words(analysis: Analysis | None, path: str) -> set[tuple[int, int]]:
    """Where the `in` and `to` of parameters' allowed values stand (words only there)."""
    module = analysis.module(path) if analysis else None
    return {(span.line, span.column) for item in (module.items if module else ())
            if isinstance(item, ast.GameVar) and item.domain is not None for span in item.domain.words}


def _named_sides(token, names) -> list[SemanticToken]:
    """`size: n x n`: each side a number or the parameter it names."""
    sides = _SIDES.fullmatch(token.value)
    found = []
    for group in (1, 2) if sides else ():
        column = token.column + sides.start(group)
        occurrence = names.get((token.line, column))
        classified, modifiers = _name(occurrence) if occurrence is not None else (
            ("number", frozenset()) if sides.group(group)[0].isdigit() else (None, frozenset()))
        if classified is not None:
            found.append(SemanticToken(token.line, column, len(sides.group(group)), classified, modifiers))
    return found


def _is_counter_modifier(tokens, i: int) -> bool:
    """`counter` or `param` before the type of a top-level declaration (a keyword only there)."""
    return (tokens[i].value in ("counter", "param") and i + 1 < len(tokens) and tokens[i + 1].type in ("TYPE", "OBJ")
            and (i == 0 or tokens[i - 1].type in ("SEMICOLON", "RBRACE") or tokens[i - 1].line < tokens[i].line))


def _name(occurrence) -> tuple[str, frozenset[str]]:
    symbol = occurrence.symbol
    if symbol.kind is SymbolKind.BUILTIN:
        classified, modifiers = _BY_BUILTIN[symbol.builtin.kind]
        if occurrence.name.text in ALIASES:
            modifiers = modifiers | {"deprecated"}
        return classified, modifiers
    classified, modifiers = _BY_SYMBOL[symbol.kind]
    if getattr(symbol.decl, "param", False):
        modifiers = modifiers | {"readonly"}  # a parameter: a constant of the game
    if occurrence.is_declaration:
        modifiers = modifiers | {"declaration"}
    return classified, modifiers


def _comment_lines(comment) -> list[SemanticToken]:
    span = comment.span
    if span.line == span.end_line:
        return [SemanticToken(span.line, span.column, span.end_column - span.column, "comment")]
    lines = comment.text.split("\n")
    found = [SemanticToken(span.line, span.column, len(lines[0]), "comment")]
    for offset, part in enumerate(lines[1:], start=1):
        if part:
            found.append(SemanticToken(span.line + offset, 0, len(part), "comment"))
    return found
