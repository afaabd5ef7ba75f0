"""The tokens around a cursor, for features that must work while the text is broken
(completion, signature help): they read the tokens of the definition being edited rather
than an AST the parser may have had to guess.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from gdef_core.ide.parse_cache import split
from gdef_core.syntax import Token, scan

_WORD_BEFORE = re.compile(r"[A-Za-z0-9_]*\Z")
WORD_TYPES = frozenset({"NAME", "TYPE", "OBJ", "DEFINE", "RETURN", "IF", "ELSE", "WHILE", "START", "USE",
                        "TRUE", "FALSE", "INT", "FLOAT", "DIMS", "FOR", "BREAK", "CONTINUE"})


def offset_of(text: str, line: int, column: int) -> int:
    """The index in `text` of (line, column), clamped to the text."""
    lines = text.split("\n", line + 1)
    before = sum(len(part) + 1 for part in lines[:line])
    if line >= len(lines):
        return len(text)
    return min(before + column, before + len(lines[line]), len(text))


@dataclass(slots=True)
class Before:
    """What precedes the cursor inside the definition being edited."""

    tokens: list[Token]  # complete tokens before the word being typed (absolute positions)
    word: str  # the identifier or number characters right before the cursor ("" if none)
    in_comment: bool
    open_string: Token | None  # the `"...` the cursor is inside, if any
    text: str  # the definition's text up to the cursor
    first_line: int  # the line the definition starts on


def before_cursor(text: str, line: int, column: int) -> Before:
    first_line, piece = _piece_at(text, line)
    cut = offset_of(piece, line - first_line, column)
    head = piece[:cut]
    scanned = scan(head)
    tokens = [_moved(token, first_line) for token in scanned.tokens]
    end = (line - first_line, len(head) - (head.rfind("\n") + 1))
    in_comment = any(d.code == "G102" for d in scanned.diagnostics) or any(
        c.span.end == end and c.text.startswith("//") for c in scanned.comments)
    open_string = None
    if tokens and tokens[-1].type == "STRING" and any(d.code == "G105" and d.span.end == end
                                                      for d in scanned.diagnostics):
        open_string = tokens.pop()
    word = _WORD_BEFORE.search(head).group()
    if word and tokens and tokens[-1].type in WORD_TYPES and (tokens[-1].end_line, tokens[-1].end_column) == (line, column):
        tokens.pop()
    return Before(tokens, word, in_comment, open_string, head, first_line)


def _piece_at(text: str, line: int) -> tuple[int, str]:
    pieces = split(text)
    for first_line, piece in reversed(pieces):
        if first_line <= line:
            return first_line, piece
    return pieces[0]


def _moved(token: Token, lines: int) -> Token:
    if not lines:
        return token
    return Token(token.type, token.value, token.start_pos, token.line + lines, token.column,
                 token.end_line + lines, token.end_column, token.end_pos)


def token_at(text: str, line: int, column: int) -> Token | None:
    """The token under the cursor (or ending at it; a word wins over punctuation), None in
    comments and between tokens."""
    first_line, piece = _piece_at(text, line)
    touching = []
    for token in scan(piece).tokens:
        if (token.line + first_line, token.column) > (line, column):
            break
        if (line, column) <= (token.end_line + first_line, token.end_column):
            touching.append(_moved(token, first_line))
    words = [t for t in touching if t.type in WORD_TYPES]
    return (words or touching or [None])[-1]
