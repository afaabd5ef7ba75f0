"""The gdef formatter: one canonical layout for .gdef files (docs/formatter.md).

    format_source(text, path, options) -> str      # raises SyntaxErrors or FormatError

A file with syntax errors is refused (SyntaxErrors carries the parser's diagnostics), never
laid out from a guessed AST. Every result is checked before it is returned: it parses to the
same tree (positions aside) with the same comments, or FormatError is raised and the caller
keeps the user's text.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from gdef_core.diagnostics import Diagnostic
from gdef_core.format.equivalence import same_tree
from gdef_core.format.printer import LayoutError, Printer
from gdef_core.syntax import parse, scan

DEFAULT_INDENT = 2
_NESTING_FRAMES = 20_000  # the printer recurses once or twice per level of nesting


@dataclass(frozen=True, slots=True)
class FormatOptions:
    indent_width: int = DEFAULT_INDENT


class SyntaxErrors(Exception):
    """The text does not parse: formatting it would mean guessing."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{len(diagnostics)} syntax error(s)")
        self.diagnostics = diagnostics


class FormatError(Exception):
    """The formatter could not lay the file out faithfully (a bug in gdef, or nesting too
    deep); the text must be left as it is."""


def format_source(text: str, path: str = "<text>", options: FormatOptions | None = None) -> str:
    """The canonical layout of `text`. Line ends ("\\r\\n" or "\\n", as the first line of the
    text ends) and a leading byte-order mark are kept."""
    options = options or FormatOptions()
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text[len(bom):]
    first_end = text.find("\n")
    crlf = first_end > 0 and text[first_end - 1] == "\r"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    result = parse(text, path)
    if result.diagnostics:
        raise SyntaxErrors(result.diagnostics)
    tokens = scan(text, path).tokens
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _NESTING_FRAMES))
    try:
        formatted = Printer(result.module, tokens, options.indent_width).module_text()
        _verify(result, formatted, path)
    except LayoutError as error:
        raise FormatError(f"{path}: the formatter lost its place ({error}); the file is left "
                          "as it is. This is a bug in gdef: please report it with the file.") from None
    except RecursionError:
        raise FormatError(f"{path}: expressions nested too deeply to format; the file is left as it is") from None
    finally:
        sys.setrecursionlimit(limit)
    if crlf:
        formatted = formatted.replace("\n", "\r\n")
    return bom + formatted


def _verify(before, formatted: str, path: str) -> None:
    after = parse(formatted, path)
    problem = None
    if after.diagnostics:
        problem = f"its output does not parse ({after.diagnostics[0].message})"
    elif not same_tree(before.module, after.module):
        problem = "its output would change the meaning"
    elif comment_texts(before.module) != comment_texts(after.module):
        problem = "its output would change a comment"
    if problem is not None:
        raise LayoutError(problem)


def comment_texts(module) -> list[str]:
    """The comments, but for spaces at the ends of their lines (the formatter drops those)."""
    return ["\n".join(line.rstrip() for line in c.text.split("\n")) for c in module.comments]


__all__ = ["DEFAULT_INDENT", "FormatError", "comment_texts", "FormatOptions", "SyntaxErrors", "format_source"]
