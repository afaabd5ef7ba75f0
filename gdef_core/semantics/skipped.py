"""Words in text the parser skipped while recovering from a syntax error.

The skipped text may have declared or used a name (a broken `define`, a broken local
declaration). The checker stays silent about undefined, missing or unused names that appear
there: the syntax error already explains them, and a second error would only mislead.
"""
from __future__ import annotations

import re

from gdef_core.syntax import ast

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ERROR_NODES = (ast.ErrorItem, ast.ErrorStmt, ast.ErrorExpr)


def skipped_words(modules: list[ast.Module]) -> frozenset[str]:
    words: set[str] = set()
    for module in modules:
        lines = module.text.splitlines()
        for node in ast.walk(module):
            if isinstance(node, _ERROR_NODES):
                words.update(_WORD.findall(_slice(lines, node.span)))
    return frozenset(words)


def has_error_nodes(node) -> bool:
    return any(isinstance(n, _ERROR_NODES) for n in ast.walk(node))


def _slice(lines: list[str], span) -> str:
    if span.line >= len(lines) or span.line > span.end_line:
        return ""
    if span.line == span.end_line:
        return lines[span.line][span.column:span.end_column]
    parts = [lines[span.line][span.column:]]
    parts += lines[span.line + 1:span.end_line]
    if span.end_line < len(lines):
        parts.append(lines[span.end_line][:span.end_column])
    return "\n".join(parts)
