"""Parse a file one top-level definition at a time, caching each definition's parse.

A full parse costs about 40 ms per 1,000 lines; a keystroke changes one definition. The text
is cut before every `define` that starts a line outside comments and strings; each piece is
parsed alone at line 0, cached by its text, and moved to its real line; unchanged, unmoved
pieces are reused as they are. A piece that is not the last is parsed followed by a dummy
definition, so that an unclosed block in it is reported as the whole-text parse reports it
("found keyword 'define'"). Function docs are attached over the whole module afterwards.

The parser nearly always resynchronises at a `define` that starts a line, so the result is
the parse of the whole text; tests/test_ide_parse_cache.py compares the two on the examples
and on edited copies. Where the whole-text parse does not resynchronise (a repair that
deletes the `define`, e.g. after `players:`), the pieces keep the definition that follows.
"""
from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict

from gdef_core.diagnostics import Diagnostic, sort_key
from gdef_core.span import Span
from gdef_core.syntax import ParseResult, ast, attach_doc_comments, parse

# Comments and strings (where a `define` does not count), and lines that start with `define`.
_SKIPPED = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|"[^"\n]*"?', re.S)
_DEFINE = re.compile(r"^define\b", re.M)

_MAX_PIECES = 20_000
_SENTINEL = "define\ndefine _() {}\n"


@dataclasses.dataclass(slots=True)
class _Piece:
    items: list
    comments: list
    diagnostics: list
    holders: list | None = None  # per Span field name, the nodes holding one (see _move)


class ParseCache:
    """Keeps the parses of recently seen definitions (least recently used are dropped)."""

    def __init__(self) -> None:
        self._at_zero: OrderedDict[tuple[str, str, bool], _Piece] = OrderedDict()
        self._placed: OrderedDict[tuple[str, str, int, bool], _Piece] = OrderedDict()
        self._modules: dict[str, tuple[str, ParseResult]] = {}
        self._pieces: dict[str, list[tuple[tuple[str, str, int, bool], _Piece]]] = {}  # of the last parse

    def parse(self, text: str, path: str) -> ParseResult:
        """Same contract as gdef_core.parse (never raises)."""
        last = self._modules.get(path)
        if last is not None and last[0] == text:
            return last[1]
        pieces = split(text)
        keys = [(path, piece_text, line, number == len(pieces) - 1)
                for number, (line, piece_text) in enumerate(pieces)]
        found = [self._placed.get(key) for key in keys]
        self._move_pieces(path, keys, found)
        items, comments, diagnostics = [], [], []
        placed = []
        for key, piece in zip(keys, found):
            if piece is None:
                piece = self._piece(*key)
            else:
                self._placed.move_to_end(key)
            placed.append((key, piece))
            items += piece.items
            comments += piece.comments
            diagnostics += piece.diagnostics
        self._pieces[path] = placed
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

    def _move_pieces(self, path: str, keys: list, found: list) -> None:
        """Where a definition only moved (lines were added or removed above it), move the
        nodes of its last parse in place instead of copying them: a new line near the top of
        a long file would otherwise copy every definition below it. The nodes stay the same
        objects, so what was computed about them (the checker's results) can be kept too."""
        used = {id(piece) for piece in found if piece is not None}
        movable: dict[tuple[str, bool], list] = {}
        for key, piece in self._pieces.get(path, ()):
            if id(piece) not in used and self._placed.get(key) is piece \
                    and self._at_zero.get((path, key[1], key[3])) is not piece:
                movable.setdefault((key[1], key[3]), []).append((key, piece))
        for number, key in enumerate(keys):
            if found[number] is not None:
                continue
            candidates = movable.get((key[1], key[3]))
            if not candidates:
                continue
            old_key, piece = candidates.pop()
            del self._placed[old_key]
            _move(piece, key[2] - old_key[2])
            self._placed[key] = piece
            found[number] = piece

    def _piece(self, path: str, text: str, line: int, last: bool) -> _Piece:
        key = (path, text, line, last)
        found = self._placed.get(key)
        if found is not None:
            self._placed.move_to_end(key)
            return found
        base = self._at_zero.get(key[:2] + (last,))
        if base is None:
            base = _parse_piece(text, path, last)
            _remember(self._at_zero, key[:2] + (last,), base)
        placed = base if line == 0 else _Piece(
            _shifted(base.items, line), _shifted(base.comments, line),
            [_with_message_lines_shifted(d, line) for d in _shifted(base.diagnostics, line)])
        _remember(self._placed, key, placed)
        return placed


def _parse_piece(text: str, path: str, last: bool) -> _Piece:
    """Parse one piece as the whole text would: a piece that is not the last one is followed
    by `define`, which the parser sees (an unclosed block reports "found keyword 'define'",
    not "found end of file"); what the parser makes of the sentinel is dropped. The sentinel
    starts with a lone `define`, so that a repair that deletes it finds another `define`
    rather than a name it could take into the piece (`players:` would take `_`)."""
    if last:
        result = parse(text, path)
        return _Piece(result.module.items, result.module.comments, result.diagnostics)
    result = parse(text + _SENTINEL, path)
    end = (text.count("\n"), len(text) - (text.rfind("\n") + 1))
    return _Piece([item for item in result.module.items if item.span.start < end],
                  result.module.comments,
                  [d for d in result.diagnostics if d.span.start <= end])


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
        if start > cuts[-1]:
            cuts.append(start)
    pieces = []
    line = 0
    for begin, end in zip(cuts, cuts[1:] + [len(text)]):
        piece = text[begin:end]
        pieces.append((line, piece))
        line += piece.count("\n")
    return pieces


def _remember(cache: OrderedDict, key, value) -> None:
    cache[key] = value
    if len(cache) > _MAX_PIECES:
        cache.popitem(last=False)


_FIELDS: dict[type, tuple[str, ...]] = {}
_LINE_REFERENCE = re.compile(r"\bline (\d+)")


def _with_message_lines_shifted(diag: Diagnostic, lines: int) -> Diagnostic:
    """Messages may name another line of the same piece ("the '(' at line 3"): move it too."""
    message = _LINE_REFERENCE.sub(lambda m: f"line {int(m.group(1)) + lines}", diag.message)
    return diag if message == diag.message else dataclasses.replace(diag, message=message)


def _move(piece: _Piece, lines: int) -> None:
    """Move a piece's nodes down by `lines` in place (its diagnostics are replaced). The
    nodes that hold a Span are found once per piece: walking the tree cost more than moving
    the spans, and a piece that moved once moves again at every new line above it."""
    if piece.holders is None:
        piece.holders = _holders(piece)
    new, set_file, set_line, set_column, set_end_line, set_end_column = _SPAN_MAKER
    for name, nodes in piece.holders:
        for node in nodes:
            span = getattr(node, name)
            # Span(...) without its frozen __init__ (which sets each field through a slower path)
            moved = new(Span)
            set_file(moved, span.file)
            set_line(moved, span.line + lines)
            set_column(moved, span.column)
            set_end_line(moved, span.end_line + lines)
            set_end_column(moved, span.end_column)
            setattr(node, name, moved)
    piece.diagnostics = [_with_message_lines_shifted(d, lines) for d in _shifted(piece.diagnostics, lines)]


_SPAN_MAKER = (object.__new__, *(getattr(Span, field.name).__set__ for field in dataclasses.fields(Span)))
assert [field.name for field in dataclasses.fields(Span)] == ["file", "line", "column", "end_line", "end_column"]


def _holders(piece: _Piece) -> list[tuple[str, list]]:
    """(Span field name, the nodes of the piece with that field), every node once."""
    found: dict[str, list] = {}
    pending: list = [*piece.items, *piece.comments]
    plans = _MOVE_PLANS
    seen: set[int] = set()
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is list or kind is tuple:
            pending.extend(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        plan = plans.get(kind)
        if plan is None:
            plan = plans[kind] = _move_plan(kind)
        spans, children = plan
        for name in spans:
            found.setdefault(name, []).append(node)
        for name in children:
            child = getattr(node, name)
            if child is not None:
                pending.append(child)
    return list(found.items())


# Per node class: its Span fields, and the fields that can hold nodes (read from the
# dataclass annotations; tests/test_ide_parse_cache.py checks a moved parse against a fresh one).
_MOVE_PLANS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
_SCALARS = {"str", "int", "float", "bool", "str | None"}


def _move_plan(kind: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    fields = dataclasses.fields(kind)
    return (tuple(f.name for f in fields if f.type == "Span"),
            tuple(f.name for f in fields if f.type != "Span" and f.type not in _SCALARS))


def _shifted(value, lines: int):
    """A copy of `value` (AST nodes, diagnostics, lists of them) moved down by `lines`.
    Without recursion: blocks and expressions may nest thousands deep."""
    built: list = []  # the copies made, in order; a node's fields are the last ones
    tasks: list = [(False, value)]  # (build?, value to copy | how to build from `built`)
    while tasks:
        build, item = tasks.pop()
        if build:
            kind, names, count = item
            parts = built[len(built) - count:]
            del built[len(built) - count:]
            built.append(kind(parts) if names is None else kind(**dict(zip(names, parts))))
            continue
        if isinstance(item, Span):
            built.append(Span(item.file, item.line + lines, item.column, item.end_line + lines, item.end_column))
            continue
        kind = type(item)
        if kind is list or kind is tuple:
            tasks.append((True, (kind, None, len(item))))
            tasks.extend((False, child) for child in reversed(item))
            continue
        names = _FIELDS.get(kind)
        if names is None:
            if not dataclasses.is_dataclass(kind):
                built.append(item)  # str, int, float, bool, None, enums, frozensets of tags
                continue
            names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
        tasks.append((True, (kind, names, len(names))))
        tasks.extend((False, getattr(item, name)) for name in reversed(names))
    return built[0]
