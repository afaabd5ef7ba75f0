"""Signature help: the call (or board index) the cursor is in, and which argument.

Read from the tokens before the cursor, so it works while the call is still unfinished
(`isWinner(` with nothing after it does not parse as a call yet).
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.builtins import Kind, lookup
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.describe import builtin_markdown, function_signature, parameter_text
from gdef_core.ide.lexing import before_cursor


@dataclass(frozen=True, slots=True)
class SignatureInfo:
    label: str  # `isWinner(obj object) -> bool`
    parameters: tuple[str, ...]  # each parameter as it appears in the label: `obj object`
    documentation: str | None  # markdown
    active_parameter: int


@dataclass(slots=True)
class _Open:
    kind: str  # "(", "[" or "{"
    callee: str | None = None  # the name before `(`, or the board of `[`
    argument: int = 0  # commas seen inside `(`; the index number for `[`


def signature_help(analyses: list[Analysis], text: str, line: int, column: int) -> SignatureInfo | None:
    before = before_cursor(text, line, column)
    if before.in_comment or before.open_string is not None:
        return None
    stack: list[_Open] = []
    closed_index: _Open | None = None  # the `[...]` that the previous token closed
    tokens = before.tokens
    for i, token in enumerate(tokens):
        previous = tokens[i - 1] if i else None
        kind = token.type
        if kind == "LPAR":
            is_call = previous is not None and previous.type == "NAME" and not (
                i >= 2 and tokens[i - 2].type == "DEFINE")
            stack.append(_Open("(", previous.value if is_call else None))
        elif kind == "LSQB":
            if closed_index is not None and previous is not None and previous.type == "RSQB":
                stack.append(_Open("[", closed_index.callee, closed_index.argument + 1))
            else:
                stack.append(_Open("[", previous.value if previous is not None and previous.type == "NAME" else None))
        elif kind == "LBRACE":
            stack.append(_Open("{"))
        elif kind == "COMMA" and stack and stack[-1].kind == "(":
            stack[-1].argument += 1
        closed_index = None
        if kind in ("RPAR", "RSQB", "RBRACE"):
            opener = {"RPAR": "(", "RSQB": "[", "RBRACE": "{"}[kind]
            while stack:
                top = stack.pop()
                if top.kind == opener:
                    closed_index = top if opener == "[" else None
                    break
    for open_ in reversed(stack):
        if open_.kind == "{":
            return None
        if open_.callee is not None:
            return _describe(analyses, open_)
    return None


def _describe(analyses: list[Analysis], open_: _Open) -> SignatureInfo | None:
    builtin = lookup(open_.callee)
    if builtin is not None:
        board = builtin.kind is Kind.BOARD
        if board != (open_.kind == "[") or builtin.kind is Kind.VALUE:
            return None
        if board:
            params = tuple(f"[{p.name}]" for p in builtin.params)
        else:
            params = tuple(f"{p.type} {p.name}" for p in builtin.params)
        return SignatureInfo(builtin.signature, params, builtin_markdown(builtin),
                             min(open_.argument, max(len(params) - 1, 0)))
    if open_.kind != "(":
        return None
    for analysis in analyses:
        function = analysis.program.functions.get(open_.callee)
        if function is not None:
            params = tuple(parameter_text(p) for p in function.params)
            return SignatureInfo(function_signature(function), params, function.doc,
                                 min(open_.argument, max(len(params) - 1, 0)))
    return None
