"""Every diagnostic code, documented once.

This table is the single source: the checker takes each code's severity from it,
`gdef-check --explain` and SARIF rules read it, and docs/diagnostics.md is generated from it
(`python -m gdef_core.codes > docs/diagnostics.md`; a test keeps the two in step).
Codes are stable: never reuse or renumber one.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from gdef_core.diagnostics import Diagnostic, Related, Severity, Suggestion, Tag
from gdef_core.span import Span

E, W = Severity.ERROR, Severity.WARNING


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    severity: Severity
    title: str  # short, for SARIF shortDescription and listings
    explanation: str  # what it means and why it matters
    example: str  # a snippet that triggers it
    fix: str  # what to do


CODES: dict[str, Code] = {}


def _code(code: str, severity: Severity, title: str, explanation: str, example: str, fix: str) -> None:
    assert code not in CODES, code
    CODES[code] = Code(code, severity, title, explanation.strip(), example.strip("\n"), fix.strip())


# ------------------------------------------------------------------ G1xx: syntax
_code("G100", E, "file is not valid UTF-8",
      "gdef files are read as UTF-8. The file contains a byte sequence that is not UTF-8; "
      "the rest of the file is still read, with the bad bytes replaced.",
      "(a file saved in Latin-1 containing `/* é */`)",
      "Save the file as UTF-8.")
_code("G101", E, "syntax error",
      "The parser met a token that cannot continue the construct it was reading. The message "
      "says what was expected; the parser skips to the next statement or definition and goes on, "
      "so every syntax error of the file is reported at once.",
      "define end() -> bool {\n  int moves = 0\n  return moves == 9;\n}",
      "Add or remove what the message names (here the `;` after `int moves = 0`).")
_code("G102", E, "unterminated comment",
      "A `/*` comment has no closing `*/`; everything to the end of the file became part of it. "
      "Comments do not nest.",
      "/* the rules of tic-tac-toe\nobj X",
      "Close the comment with `*/`.")
_code("G103", E, "invalid character",
      "The text contains a character that is not part of the language (outside a comment).",
      "int score = 3 @ 4;",
      "Remove the character; gdef has no `@`, `$`, `#`, `'` ... operators.")
_code("G104", E, "invalid number",
      "An integer written with leading zeros (`07`), or larger than a signed 64-bit integer "
      "can hold (the only exception is `-9223372036854775808`).",
      "int n = 07;",
      "Write the number without leading zeros, or use a smaller value.")
_code("G105", E, "unterminated string",
      "The file name after `use` has no closing `\"` on the same line.",
      'use "helpers.gdef',
      "Close the string with `\"`.")
_code("G106", E, "not a statement",
      "Only a call can stand alone as a statement; any other expression followed by `;` would "
      "compute a value and throw it away, which is almost always a mistake (`x == 1;` for "
      "`x = 1;`).",
      "define end() -> bool {\n  moveNumber() == 9;\n  return false;\n}",
      "Assign the value (`x = ...;`), return it, or use it in a condition.")


def diagnostic(code: str, span: Span, message: str, *, related: tuple[Related, ...] = (),
               suggestions: tuple[Suggestion, ...] = (), tags: frozenset[Tag] = frozenset()) -> Diagnostic:
    """Build a diagnostic whose severity comes from the table."""
    return Diagnostic(code, CODES[code].severity, message, span, tuple(related), tuple(suggestions),
                      frozenset(tags))


def render_markdown() -> str:
    """docs/diagnostics.md, generated from CODES."""
    groups = {"G1": "Syntax", "G2": "Names", "G3": "Types", "G4": "Game structure",
              "G5": "Warnings", "G6": "Run time"}
    out = ["# Diagnostics", "",
           "Every code that `gdef-check`, `gdef-run` and the language server report. Codes are "
           "stable. This page is generated from `gdef_core/codes.py` "
           "(`python -m gdef_core.codes > docs/diagnostics.md`); edit that table, not this page.",
           "", "`gdef-check --explain CODE` prints one entry.", ""]
    current = None
    for entry in sorted(CODES.values(), key=lambda c: c.code):
        group = groups.get(entry.code[:2], "Other")
        if group != current:
            out += [f"## {group}", ""]
            current = group
        out += [render_entry(entry), ""]
    return "\n".join(out).rstrip() + "\n"


def render_entry(entry: Code) -> str:
    return "\n".join([
        f"### {entry.code}: {entry.title}",
        "",
        f"Severity: {entry.severity}.",
        "",
        entry.explanation,
        "",
        "Example:",
        "",
        "```gdef",
        entry.example,
        "```",
        "",
        f"Fix: {entry.fix}",
    ])


if __name__ == "__main__":
    sys.stdout.write(render_markdown())
