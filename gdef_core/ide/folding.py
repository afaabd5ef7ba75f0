"""Folding ranges: blocks (`{ ... }` over several lines) and comments (a block comment over
several lines, or a run of `//` lines). Read from the scanner's tokens, so an unfinished
function still folds wherever its braces already match."""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.ide.lexing import scan


@dataclass(frozen=True, slots=True)
class Fold:
    start_line: int
    end_line: int  # the last line hidden: the line before a closing `}` stays visible
    kind: str  # "region" or "comment"


def folding_ranges(text: str) -> list[Fold]:
    scanned = scan(text)
    found: list[Fold] = []
    opened: list[int] = []
    for token in scanned.tokens:
        if token.type == "LBRACE":
            opened.append(token.line)
        elif token.type == "RBRACE" and opened:
            start = opened.pop()
            if token.line - 1 > start:
                found.append(Fold(start, token.line - 1, "region"))
    run_start = run_end = None
    for comment in scanned.comments:
        span = comment.span
        if comment.text.startswith("//"):
            if run_end is not None and span.line == run_end + 1:
                run_end = span.line
                continue
            if run_end is not None and run_end > run_start:
                found.append(Fold(run_start, run_end, "comment"))
            run_start = run_end = span.line
        elif span.end_line > span.line:
            found.append(Fold(span.line, span.end_line, "comment"))
    if run_end is not None and run_end > run_start:
        found.append(Fold(run_start, run_end, "comment"))
    found.sort(key=lambda f: (f.start_line, f.end_line))
    return found
