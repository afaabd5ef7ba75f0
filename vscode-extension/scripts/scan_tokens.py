"""Prints, as JSON, the tokens and comments gdef's own scanner finds in each file given.

scripts/check-tokens.mjs compares them with what the TextMate grammar highlights, so the
grammar is tested against the real language, not against a second description of it.
Positions are 0-based; columns count code points. A NAME that is a built-in carries its kind.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from gdef_core.builtins import lookup
from gdef_core.ide.lexing import scan


def describe(path: str) -> dict:
    text = Path(path).read_text(encoding="utf-8")
    scanned = scan(text, path)
    tokens = []
    for token in scanned.tokens:
        builtin = lookup(token.value) if token.type == "NAME" else None
        tokens.append({"type": token.type, "value": token.value, "line": token.line,
                       "column": token.column, "endColumn": token.end_column,
                       "builtin": builtin.kind.value if builtin else None})
    comments = [{"line": c.span.line, "column": c.span.column,
                 "endLine": c.span.end_line, "endColumn": c.span.end_column} for c in scanned.comments]
    return {"path": path, "tokens": tokens, "comments": comments}


if __name__ == "__main__":
    json.dump([describe(path) for path in sys.argv[1:]], sys.stdout)
