"""Text -> AST + syntax diagnostics. The parser never raises on any input."""
from gdef_core.syntax.parser import ParseResult, parse

__all__ = ["ParseResult", "parse"]
