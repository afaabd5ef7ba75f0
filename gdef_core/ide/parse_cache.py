"""Parse a file one top-level definition at a time, caching each definition's parse.

A full parse costs about 0.1 s per 1,000 lines; a keystroke changes one definition. The
text is cut before every `define` that starts a line outside comments (with the comments
right above it, which are its documentation); each piece is parsed alone at line 0, cached
by its text, and moved to its real line. Pieces that are unchanged and unmoved are reused
as they are. The result equals a parse of the whole text (tests/test_ide_parse_cache.py
checks that on edited examples).
"""
from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict

from gdef_core.diagnostics import sort_key
from gdef_core.span import Span
from gdef_core.syntax import ParseResult, ast, parse
from gdef_core.syntax.parser import _attach_doc_comments as attach_doc_comments

# Comments and strings (where a `define` does not count), and lines that start with `define`.
_SKIPPED = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|"[^"\n]*"?', re.S)
_DEFINE = re.compile(r"^define\b", re.M)
_WHITESPACE = re.compile(r"\s*\Z")

_MAX_PIECES = 20_000


@dataclasses.dataclass(slots=True)
class _Piece:
    items: list
    comments: list
    diagnostics: list


class ParseCache:
    """Keeps the parses of recently seen definitions (least recently used are dropped)."""

    def __init__(self) -> None:
        self._at_zero: OrderedDict[tuple[str, str], _Piece] = OrderedDict()
        self._placed: OrderedDict[tuple[str, str, int], _Piece] = OrderedDict()
        self._modules: dict[str, tuple[str, ParseResult]] = {}

    def parse(self, text: str, path: str) -> ParseResult:
        """Same contract as gdef_core.parse (never raises)."""
        last = self._modules.get(path)
        if last is not None and last[0] == text:
            return last[1]
        items, comments, diagnostics = [], [], []
        for line, piece_text in split(text):
            piece = self._piece(path, piece_text, line)
            items += piece.items
            comments += piece.comments
            diagnostics += piece.diagnostics
        module = ast.Module(path, text, items, comments)
        # A function's documentation is the comment block above it, which may end a piece
        # before it (a comment after code on its line): attach docs on the whole module.
        for function in module.functions():
            function.doc = None
        attach_doc_comments(module)
        result = ParseResult(module, sorted(diagnostics, key=sort_key))
        self._modules[path] = (text, result)
        return result

    def module(self, path: str, text: str) -> ast.Module:
        return self.parse(text, path).module

    def _piece(self, path: str, text: str, line: int) -> _Piece:
        key = (path, text, line)
        found = self._placed.get(key)
        if found is not None:
            self._placed.move_to_end(key)
            return found
        base = self._at_zero.get(key[:2])
        if base is None:
            result = parse(text, path)
            base = _Piece(result.module.items, result.module.comments, result.diagnostics)
            _remember(self._at_zero, key[:2], base)
        placed = base if line == 0 else _Piece(*(_shifted(part, line) for part in
                                                 (base.items, base.comments, base.diagnostics)))
        _remember(self._placed, key, placed)
        return placed


def split(text: str) -> list[tuple[int, str]]:
    """The text cut into (first line, text) pieces, each starting at a line start."""
    skipped = [(m.start(), m.end()) for m in _SKIPPED.finditer(text)]
    cuts = [0]
    k = 0
    for m in _DEFINE.finditer(text):
        start = m.start()
        while k < len(skipped) and skipped[k][1] <= start:
            k += 1
        if k < len(skipped) and skipped[k][0] <= start:
            continue  # inside a comment or string
        start = _with_leading_comments(text, start, skipped, k)
        if start > cuts[-1]:
            cuts.append(start)
    pieces = []
    line = 0
    for begin, end in zip(cuts, cuts[1:] + [len(text)]):
        piece = text[begin:end]
        pieces.append((line, piece))
        line += piece.count("\n")
    return pieces


def _with_leading_comments(text: str, start: int, skipped: list[tuple[int, int]], k: int) -> int:
    """Move a cut up over the comments directly above it (each alone on its lines)."""
    while k > 0:
        begin, end = skipped[k - 1]
        if not _WHITESPACE.match(text, end, start) or text[begin] == '"':
            break
        line_start = text.rfind("\n", 0, begin) + 1
        if text[line_start:begin].strip():
            break  # the comment follows code on its line: it belongs to that code
        start = line_start
        k -= 1
    return start


def _remember(cache: OrderedDict, key, value) -> None:
    cache[key] = value
    if len(cache) > _MAX_PIECES:
        cache.popitem(last=False)


_FIELDS: dict[type, tuple[str, ...]] = {}


def _shifted(value, lines: int):
    """A copy of `value` (AST nodes, diagnostics, lists of them) moved down by `lines`."""
    if isinstance(value, Span):
        return Span(value.file, value.line + lines, value.column, value.end_line + lines, value.end_column)
    if isinstance(value, list):
        return [_shifted(v, lines) for v in value]
    if isinstance(value, tuple):
        return tuple(_shifted(v, lines) for v in value)
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(kind):
            return value  # str, int, float, bool, None, enums, frozensets of tags
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return kind(**{name: _shifted(getattr(value, name), lines) for name in names})

