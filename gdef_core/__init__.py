"""gdef_core: the .gdef language without any editor: parse, check, load, run.

Public API (see README "Using gdef_core from Python"):

    parse(text, path) -> ParseResult            # never raises; AST + syntax diagnostics
    load_modules(paths, overlay=None)           # read files, follow `use`
    load_program(paths, overlay=None) -> Program  # load + check
    check_files(paths) -> list[Diagnostic]
    load_game(paths, max_steps=..., max_depth=...) -> Game   # load + check + compile (docs/runtime.md)
"""
from __future__ import annotations

from gdef_core.diagnostics import Diagnostic, Related, Severity, Suggestion
from gdef_core.loader import check_files, load_modules, load_program
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.span import Span
from gdef_core.syntax import ParseResult, parse
from gdef_core.version import __version__

# The game API lives in gdef_core.runtime, imported on first use so that the checker and the
# language server do not load the compiler.
_RUNTIME_NAMES = ("Game", "GameLoadError", "GdefRuntimeError", "IllegalMoveError", "Move", "State",
                  "Verdict", "VerdictKind", "load_game")

__all__ = [
    "Diagnostic", "ParseResult", "Program", "Related", "Severity", "Span", "Suggestion",
    "Symbol", "SymbolKind", "__version__", "check_files", "load_modules", "load_program", "parse",
    *_RUNTIME_NAMES,
]


def __getattr__(name: str):
    if name in _RUNTIME_NAMES:
        from gdef_core import runtime
        return getattr(runtime, name)
    raise AttributeError(f"module 'gdef_core' has no attribute {name!r}")
