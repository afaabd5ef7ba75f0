"""Text -> AST + syntax diagnostics. The parser never raises on any input."""
from gdef_core.syntax.parser import ParseResult, attach_doc_comments, parse, scan
from gdef_core.syntax.scanner import ScanResult, Token

__all__ = ["ParseResult", "ScanResult", "Token", "attach_doc_comments", "parse", "scan"]
