"""The error-tolerant parser: any text -> a Module and every syntax error, never raising.

Tokens from the scanner are fed one by one to lark's LALR parser, which builds AST nodes as
it reduces (builder.py). When a token does not fit, the recovery here reports one error in the
user's terms and repairs the parse, trying in order:

1. insert one missing token (`;`, `)`, `]`, `}`, `,`) if the next token then fits;
2. delete the unexpected token if the one after it fits;
3. panic mode: skip to the next `;`, `}` or top-level keyword, then complete the construct
   being read with placeholder tokens (names with empty text, marked `recovered`) so the
   parser can go on from there.

So the definitions after a broken one are still in the AST, and later passes (checker,
outline, completion) keep working on broken files.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from lark import Lark, Token
from lark.exceptions import UnexpectedToken
from lark.parsers.lalr_analysis import Shift

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic, sort_key
from gdef_core.span import Span
from gdef_core.syntax import ast
from gdef_core.syntax.builder import AstBuilder
from gdef_core.syntax.messages import describe_context, describe_expected, describe_token, unclosed
from gdef_core.syntax.scanner import Scanner

GRAMMAR_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "grammar.lark")
MAX_RECOVERIES = 2000  # past this a file is junk: stop parsing, keep what was read

# Tokens tried by repair 1, in order of how often they are the one missing.
_INSERTABLE = ("SEMICOLON", "RPAR", "RSQB", "RBRACE", "COMMA")
# Tokens that end or start a construct: panic mode skips to one of these.
_SYNC_IN_BLOCK = frozenset({"SEMICOLON", "RBRACE", "DEFINE", "START", "USE", "$END"})
_SYNC_TOP_LEVEL = frozenset({"DEFINE", "START", "USE", "OBJ", "TYPE", "$END"})
_TOP_LEVEL_ONLY = frozenset({"DEFINE", "START", "USE"})
# Placeholder tokens used to complete a construct, by preference.
_COMPLETION_ORDER = ("RPAR", "RSQB", "SEMICOLON", "RBRACE", "NAME", "INT", "COLON", "LBRACE", "COMMA")
_CLOSERS = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE"}
_COMPLETION_ORDER_IN_STATEMENT = ("RPAR", "RSQB", "NAME", "INT", "LBRACE")


@dataclass(slots=True)
class ParseResult:
    module: ast.Module
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not self.diagnostics


class _Parser:
    def __init__(self) -> None:
        self.builder = AstBuilder()
        with open(GRAMMAR_PATH, encoding="utf-8") as grammar:
            self.lark = Lark(grammar.read(), parser="lalr", lexer="basic", start="module",
                             maybe_placeholders=False, transformer=self.builder, cache=True)
        self.scanner = Scanner(self.lark.terminals)
        self.lock = threading.Lock()
        probe = self.lark.parse_interactive("")
        self.states = probe.parser_state.parse_conf.states
        self.end_state = probe.parser_state.parse_conf.end_state

    def parse(self, text: str, path: str) -> ParseResult:
        scanned = self.scanner.scan(text, path)
        with self.lock:
            self.builder.reset(path)
            items, syntax_errors = _Recovering(self, scanned.tokens, text, path).run()
            builder_diagnostics = self.builder.finish()
        module = ast.Module(path, text, items, scanned.comments)
        _attach_doc_comments(module)
        diagnostics = sorted(scanned.diagnostics + syntax_errors + builder_diagnostics, key=sort_key)
        return ParseResult(module, diagnostics)

    def can_feed(self, state_stack: list, token_type: str) -> bool:
        """Whether the parser in `state_stack` accepts `token_type`, without side effects."""
        states = self.states
        stack = list(state_stack)
        while True:
            row = states[stack[-1]]
            if token_type not in row:
                return False
            action, arg = row[token_type]
            if action is Shift:
                return True
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])
            if token_type == "$END" and stack[-1] == self.end_state:
                return True

    def expected(self, state_stack: list) -> set[str]:
        return {t for t in self.states[state_stack[-1]] if t.isupper() and self.can_feed(state_stack, t)}


class _Recovering:
    """One parse of one token list, with error recovery."""

    def __init__(self, parser: _Parser, tokens: list[Token], text: str, path: str) -> None:
        self.parser = parser
        self.path = path
        end = _end_position(text)
        self.tokens = tokens + [Token("$END", "", len(text), end[0], end[1], end[0], end[1], len(text))]
        self.state = parser.lark.parse_interactive("").parser_state
        self.errors: list[Diagnostic] = []
        self.depth = 0  # brace depth of what the parser has consumed
        self.anchor = self.tokens[0]  # the token being recovered from
        self.shifted_since_error = True

    def run(self) -> tuple[list, list[Diagnostic]]:
        i, tokens = 0, self.tokens
        recoveries = 0
        while i < len(tokens):
            token = tokens[i]
            try:
                result = self.state.feed_token(token, token.type == "$END")
            except UnexpectedToken:
                recoveries += 1
                if recoveries > MAX_RECOVERIES:
                    self.error(token, f"too many syntax errors: stopped reading here")
                    return self.salvage(), self.errors
                i = self.recover(i)
                continue
            if token.type == "$END":
                return result, self.errors
            self.track_depth(token)
            self.shifted_since_error = True
            i += 1
        return self.salvage(), self.errors

    # ------------------------------------------------------------ repairs

    def recover(self, i: int) -> int:
        """Report the error at tokens[i], repair, and return where to continue."""
        token = self.anchor = self.tokens[i]
        stack = self.state.state_stack
        expected = self.parser.expected(stack)
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None

        if token.type in _TOP_LEVEL_ONLY and self.depth:
            opener = unclosed(self.state.value_stack, "LBRACE")
            where = f" the '{{' at line {opener.line + 1}, column {opener.column + 1} is not closed" \
                if opener is not None else ""
            self.report(self.token_span(token),
                        f"expected '}}' before {describe_token(token.type, token.value)}:{where}")
            return self.panic(i)

        for missing in _INSERTABLE:
            if missing in expected and self.fits_after(missing, token.type):
                self.report(self.missing_span(i), self.missing_message(missing, token))
                self.feed_placeholder(missing)
                return i

        if following is not None and token.type != "$END" and self.parser.can_feed(stack, following.type):
            self.report(self.token_span(token),
                        f"unexpected {describe_token(token.type, token.value)}; "
                        f"expected {describe_expected(expected)}")
            return i + 1

        self.report(self.token_span(token),
                    f"expected {describe_expected(expected)}, found {describe_token(token.type, token.value)}")
        return self.panic(i)

    def missing_message(self, missing: str, token: Token) -> str:
        what = describe_token(missing)
        if missing in _CLOSERS:
            opener = unclosed(self.state.value_stack, _CLOSERS[missing])
            if opener is not None:
                return (f"expected {what} before {describe_token(token.type, token.value)}, to close the "
                        f"'{opener.value}' at line {opener.line + 1}, column {opener.column + 1}")
        context = describe_context(self.state.value_stack)
        if context:
            return f"expected {what} after {context}"
        return f"expected {what} before {describe_token(token.type, token.value)}"

    def missing_span(self, i: int) -> Span:
        """Where a missing token belongs: right after the previous token."""
        previous = self.tokens[i - 1] if i else self.tokens[i]
        return Span(self.path, previous.end_line, previous.end_column, previous.end_line, previous.end_column)

    def panic(self, i: int) -> int:
        """Skip to a synchronising token, complete the construct, and continue there."""
        tokens = self.tokens
        for j in range(i, len(tokens)):
            token = tokens[j]
            if not self.is_sync(j):
                continue
            if token.type == "SEMICOLON":
                if self.complete_until("SEMICOLON"):
                    if self.parser.can_feed(self.state.state_stack, "SEMICOLON"):
                        self.feed(token)
                    return j + 1
            elif self.complete_until(token.type if self.depth or token.type == "$END" else "DEFINE"):
                return j
            elif token.type == "$END":
                return len(tokens)  # cannot finish: run() keeps what was read
        return len(tokens)

    def is_sync(self, j: int) -> bool:
        token = self.tokens[j]
        if self.depth == 0:
            if token.type == "NAME":  # a game parameter starts `NAME :`
                return j + 1 < len(self.tokens) and self.tokens[j + 1].type == "COLON"
            return token.type in _SYNC_TOP_LEVEL
        return token.type in _SYNC_IN_BLOCK

    def complete_until(self, target: str) -> bool:
        """Feed placeholder tokens until `target` fits; False (and nothing fed) if that fails.

        Top-level targets complete up to an item boundary (where `define` fits). A `;` target
        also counts as reached at a statement start, where the `;` is then dropped.
        """
        parser = self.parser
        stack = list(self.state.state_stack)
        path: list[str] = []
        order = _COMPLETION_ORDER if target != "SEMICOLON" else _COMPLETION_ORDER_IN_STATEMENT
        for _ in range(40):
            if parser.can_feed(stack, target):
                break
            if target == "SEMICOLON" and path and parser.can_feed(stack, "RETURN"):
                break
            for candidate in order:
                if parser.can_feed(stack, candidate):
                    path.append(candidate)
                    _advance(parser, stack, candidate)
                    break
            else:
                return False
        else:
            return False
        for token_type in path:
            self.feed_placeholder(token_type)
        return True

    # ------------------------------------------------------------ helpers

    def fits_after(self, inserted: str, token_type: str) -> bool:
        stack = list(self.state.state_stack)
        _advance(self.parser, stack, inserted)
        return self.parser.can_feed(stack, token_type)

    def feed(self, token: Token) -> None:
        self.state.feed_token(token)
        self.track_depth(token)

    def feed_placeholder(self, token_type: str) -> None:
        """Feed an invented token, empty and placed where the error is."""
        at = self.anchor
        value = "0" if token_type == "INT" else ""
        self.feed(Token(token_type, value, at.start_pos, at.line, at.column, at.line, at.column, at.start_pos))

    def track_depth(self, token: Token) -> None:
        if token.type == "LBRACE":
            self.depth += 1
        elif token.type == "RBRACE" and self.depth:
            self.depth -= 1

    def token_span(self, token: Token) -> Span:
        return Span(self.path, token.line, token.column, token.end_line, token.end_column)

    def report(self, span: Span, message: str) -> None:
        """Record a syntax error unless it is a cascade of the previous one."""
        if self.shifted_since_error:
            self.errors.append(diagnostic("G101", span, message))
        self.shifted_since_error = False

    def error(self, token: Token, message: str) -> None:
        self.errors.append(diagnostic("G101", self.token_span(token), message))

    def salvage(self) -> list:
        """The items already built, when the parse could not be finished."""
        items: list = []
        for value in self.state.value_stack:
            if isinstance(value, list):
                items.extend(v for v in value if isinstance(v, _ITEMS))
            elif isinstance(value, _ITEMS):
                items.append(value)
        return items


_ITEMS = (ast.GameParam, ast.UseDecl, ast.ObjDecl, ast.StartDecl, ast.GameVar, ast.FunctionDef)


def _advance(parser: _Parser, stack: list, token_type: str) -> None:
    """Apply `token_type` to a bare state stack (reductions, then the shift)."""
    states = parser.states
    while True:
        action, arg = states[stack[-1]][token_type]
        if action is Shift:
            stack.append(arg)
            return
        size = len(arg.expansion)
        if size:
            del stack[-size:]
        stack.append(states[stack[-1]][arg.origin.name][1])


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n")
    return line, len(text) - (text.rfind("\n") + 1)


def _attach_doc_comments(module: ast.Module) -> None:
    """The comment block right above `define` documents the function (shown on hover)."""
    by_end_line = {comment.span.end_line: comment for comment in module.comments}
    for function in module.functions():
        lines: list[str] = []
        line = function.span.line - 1
        while line in by_end_line:
            comment = by_end_line[line]
            lines.insert(0, _comment_text(comment.text))
            line = comment.span.line - 1
        if lines:
            function.doc = "\n".join(lines).strip() or None


def _comment_text(raw: str) -> str:
    if raw.startswith("//"):
        return raw[2:].strip()
    body = raw[2:-2]
    return "\n".join(line.strip().lstrip("*").strip() for line in body.splitlines()).strip()


_PARSER: _Parser | None = None
_PARSER_LOCK = threading.Lock()


def _parser() -> _Parser:
    global _PARSER
    if _PARSER is None:
        with _PARSER_LOCK:
            if _PARSER is None:
                _PARSER = _Parser()
    return _PARSER


def parse(text: str, path: str = "<text>") -> ParseResult:
    """Parse one file's text. Never raises: syntax errors come back as diagnostics."""
    return _parser().parse(text, path)
