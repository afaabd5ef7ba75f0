"""Text -> tokens, never raising.

The terminals come from grammar.lark (so the grammar stays the one description of the
language's words); this module adds what a grammar cannot say well and reports it as a
diagnostic instead of stopping: unterminated comments and strings, leading zeros, integers
too large, stray characters. Positions are 0-based (line, column in code points).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic
from gdef_core.span import Span
from gdef_core.syntax.ast import Comment

_WORD_TERMINALS = ("DIMS", "FLOAT", "INT", "NAME", "STRING")
# After `size :`, sides that name parameters (`size: n x n`) make one DIMS too; a name needs
# spaces around the `x` (`nxn` is a name). Nowhere else can `WORD x WORD` start a valid text.
_NAMED_DIMS = re.compile(r"(?:[0-9]+[ \t]*|[A-Za-z_]\w*[ \t]+)x(?:[ \t]*[0-9]+|[ \t]+[A-Za-z_]\w*)(?!\w)")
# `size: W x H` broken by a comment or a line break between its parts (G101, read as one DIMS all the
# same, so that nothing after it is misread).
_GAP = r"(?:[ \t\r\n]|//[^\n]*|/\*.*?\*/)"
_BROKEN_DIMS = re.compile(rf"(?:[0-9]+{_GAP}*?|[A-Za-z_]\w*{_GAP}+?)x(?:{_GAP}*?[0-9]+|{_GAP}+?[A-Za-z_]\w*)(?!\w)",
                          re.S)
_SIDES = re.compile(r"[0-9]+|[A-Za-z_]\w*")  # the first side of one


class Token:
    """One token: its terminal name (`type`), text, and 0-based position."""

    __slots__ = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")

    def __init__(self, type: str, value: str, start_pos: int, line: int, column: int, end_line: int,
                 end_column: int, end_pos: int) -> None:
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.line}:{self.column})"


@dataclass(slots=True)
class ScanResult:
    tokens: list[Token]
    comments: list[Comment] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class Scanner:
    """Built once from the grammar's terminal definitions; scans any number of texts."""

    def __init__(self, terminals) -> None:
        by_name = {t.name: t for t in terminals}
        self.keywords: dict[str, str] = {}
        operators: list[tuple[str, str]] = []
        for term in terminals:
            if term.name.startswith("__") or term.name in _WORD_TERMINALS:
                continue
            for literal in _literals(term):
                if re.fullmatch(r"[A-Za-z_]\w*", literal):
                    self.keywords[literal] = term.name
                else:
                    operators.append((literal, term.name))
        operators.sort(key=lambda pair: -len(pair[0]))
        self.operator_types = dict(operators)
        parts = [
            r"(?P<WS>[ \t\r\f]+)",
            r"(?P<NL>\n)",
            r"(?P<LINE_COMMENT>//[^\n]*)",
            r"(?P<BLOCK_COMMENT>/\*)",
            f"(?P<DIMS>{by_name['DIMS'].pattern.to_regexp()})",
            f"(?P<FLOAT>{by_name['FLOAT'].pattern.to_regexp()})",
            f"(?P<INT>{by_name['INT'].pattern.to_regexp()})",
            f"(?P<NAME>{by_name['NAME'].pattern.to_regexp()})",
            f"(?P<STRING>{by_name['STRING'].pattern.to_regexp()})",
            r"(?P<OPEN_STRING>\"[^\"\n]*)",
            "(?P<OP>" + "|".join(re.escape(op) for op, _ in operators) + ")",
        ]
        self.master = re.compile("|".join(parts))

    def scan(self, text: str, path: str) -> ScanResult:
        result = ScanResult(tokens=[])
        tokens, diags = result.tokens, result.diagnostics
        match_at = self.master.match
        keywords, operator_types = self.keywords, self.operator_types
        pos, line, line_start, size = 0, 0, 0, len(text)
        while pos < size:
            m = match_at(text, pos)
            if m is None:  # stray characters: report the whole run once
                end = pos + 1
                while end < size and match_at(text, end) is None:
                    end += 1
                bad = text[pos:end]
                shown = bad if len(bad) <= 20 else bad[:20] + "..."
                diags.append(diagnostic(
                    "G103", Span(path, line, pos - line_start, line, end - line_start),
                    f"unexpected character{'s' if len(bad) > 1 else ''} {shown!r}: not part of the language"))
                pos = end
                continue
            kind = m.lastgroup
            end = m.end()
            column = pos - line_start
            if kind == "WS":
                pass
            elif kind == "NL":
                line += 1
                line_start = end
            elif kind == "LINE_COMMENT":
                result.comments.append(Comment(m.group(), Span(path, line, column, line, end - line_start)))
            elif kind == "BLOCK_COMMENT":
                close = text.find("*/", pos + 2)
                stop = size if close < 0 else close + 2
                body = text[pos:stop]
                newlines = body.count("\n")
                end_line = line + newlines
                end_col = (len(body) - body.rfind("\n") - 1) if newlines else column + len(body)
                span = Span(path, line, column, end_line, end_col)
                if close < 0:
                    diags.append(diagnostic(
                        "G102", Span(path, line, column, line, column + 2),
                        "unterminated comment: this '/*' has no closing '*/'"))
                else:
                    result.comments.append(Comment(body, span))
                if newlines:
                    line_start = pos + body.rfind("\n") + 1
                line = end_line
                end = stop
            elif kind == "OPEN_STRING":
                span = Span(path, line, column, line, end - line_start)
                diags.append(diagnostic("G105", span, "unterminated string: add the closing '\"'"))
                tokens.append(_token("STRING", m.group() + '"', pos, line, column, end - line_start, end))
            else:
                value = m.group()
                if kind in ("NAME", "INT") and _after_size(tokens):
                    named = _NAMED_DIMS.match(text, pos)
                    broken = None if named is not None else _BROKEN_DIMS.match(text, pos)
                    if named is not None:
                        kind, value, end = "DIMS", named.group(), named.end()
                    elif broken is not None and re.search(r"[/\n]", broken.group()):
                        token, line, line_start = _broken_dims(broken, path, line, line_start, column, diags)
                        tokens.append(token)
                        pos = broken.end()
                        continue
                if kind == "NAME":
                    kind = keywords.get(value, "NAME")
                elif kind == "OP":
                    kind = operator_types[value]
                elif kind in ("INT", "FLOAT") and _leading_zero(value):
                    diags.append(diagnostic("G104", Span(path, line, column, line, end - line_start),
                                            f"invalid number '{value}': leading zeros are not allowed"))
                tokens.append(_token(kind, value, pos, line, column, end - line_start, end))
            pos = end
        return result


def _broken_dims(broken: re.Match, path: str, line: int, line_start: int, column: int,
                 diags: list[Diagnostic]) -> tuple[Token, int, int]:
    """A size written over a comment or a line break (`size: 9 /* c */ x 9`): G101 over it, saying
    what to write, and the DIMS token it means; the line and line start after it."""
    text = broken.group()
    newlines = text.count("\n")
    end_line = line + newlines
    end_column = len(text) - text.rfind("\n") - 1 if newlines else column + len(text)
    inside = "a comment" if re.search(r"//|/\*", text) else "a line break"
    width, height = _SIDES.match(text).group(), re.search(r"(?:[0-9]+|[A-Za-z_]\w*)$", text).group()
    diags.append(diagnostic(
        "G101", Span(path, line, column, end_line, end_column),
        f"{inside} inside the board size: `W x H` is one word, on one line with only spaces between its parts; "
        f"write `size: {width} x {height}` (a comment may follow it)"))
    token = Token("DIMS", f"{width} x {height}", broken.start(), line, column, end_line, end_column, broken.end())
    return token, end_line, (broken.start() + text.rfind("\n") + 1) if newlines else line_start


def _after_size(tokens: list[Token]) -> bool:
    return len(tokens) >= 2 and tokens[-1].type == "COLON" and tokens[-2].value == "size" \
        and tokens[-2].type == "NAME"


def _token(kind: str, value: str, pos: int, line: int, column: int, end_column: int, end_pos: int) -> Token:
    return Token(kind, value, pos, line, column, line, end_column, end_pos)


def _literals(term) -> list[str]:
    """The literal strings a keyword or operator terminal stands for (`TYPE` has three)."""
    pattern = term.pattern
    if pattern.type == "str":
        return [pattern.value]
    body = pattern.value
    if body.startswith("(?:") and body.endswith(")"):
        body = body[3:-1]
    return [re.sub(r"\\(.)", r"\1", alt) for alt in body.split("|")]


def _leading_zero(number: str) -> bool:
    return len(number) > 1 and number[0] == "0" and number[1] != "."
