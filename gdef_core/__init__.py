"""gdef_core: the .gdef language without any editor: parse, check, load, run.

Public API (see README "Using gdef_core from Python"):

    parse(text, path) -> ParseResult            # never raises; AST + syntax diagnostics
    load_modules(paths, overlay=None)           # read files, follow `use`
    load_program(paths, overlay=None) -> Program  # load + check
    check_files(paths) -> list[Diagnostic]
"""
from __future__ import annotations

from gdef_core.diagnostics import Diagnostic, Related, Severity, Suggestion
from gdef_core.loader import check_files, load_modules, load_program
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ParseResult, parse

__version__ = "0.1.0"

__all__ = [
    "Diagnostic", "ParseResult", "Program", "Related", "Severity", "Span", "Suggestion",
    "Symbol", "SymbolKind", "check_files", "load_modules", "load_program", "parse",
]
