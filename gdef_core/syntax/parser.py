"""The error-tolerant parser: any text -> a Module and every syntax error, never raising.

Tokens from the scanner are fed one by one to lark's LALR parser, which builds AST nodes as
it reduces (builder.py). When a token does not fit, the recovery here reports one error in the
user's terms and repairs the parse, trying in order:

1. insert one missing token (`;`, `)`, `]`, `}`, `,`, `->`) if the next token then fits;
2. a body written without its `{ }` (`for (...) x = x + 1;`): say so, and read the one
   statement as the body, closing it with an invented `}` (the braces are offered as a fix);
3. in a function's header, complete it up to a `->` or `{` that does not fit, so that the
   body is read (and checked) as written; a header gets one error at most;
4. delete the unexpected token if the one after it fits;
5. panic mode: skip to the next `;`, `}` or top-level keyword (in the header of a function,
   `if`, `while` or `for`, also to its `{`), then complete the construct being read with the
   shortest run of placeholder tokens (names with empty text, marked `recovered`) so the
   parser can go on from there.

So the definitions after a broken one are still in the AST, and later passes (checker,
outline, completion) keep working on broken files.
"""
from __future__ import annotations

import os
import threading
from collections import deque
from dataclasses import dataclass, replace
from typing import Callable

from lark import Lark
from lark.parsers.lalr_analysis import Shift

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic, Edit, Suggestion, sort_key
from gdef_core.span import Span, lone_cr_as_lf
from gdef_core.syntax import ast
from gdef_core.syntax.builder import AstBuilder
from gdef_core.syntax.messages import (body_owner, describe_body, describe_context, describe_expected,
                                       describe_token, function_header, in_header, unclosed)
from gdef_core.syntax.nesting import nesting_diagnostics
from gdef_core.syntax.scanner import ScanResult, Scanner, Token

GRAMMAR_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "grammar.lark")
MAX_RECOVERIES = 2000  # past this a file is junk: stop parsing, keep what was read
MAX_COMPLETION_STACKS = 2000  # how far the search for placeholder tokens looks (see _Grammar.completion)

# Tokens tried by repair 1, in order of how often they are the one missing.
_INSERTABLE = ("SEMICOLON", "RPAR", "RSQB", "RBRACE", "COMMA", "ARROW")
# Tokens that end or start a construct: panic mode skips to one of these.
_TOP_LEVEL_ONLY = frozenset({"DEFINE", "START", "USE"})
# At top level these start an item only at the start of a line (`obj b` is also a parameter).
_LINE_START_ITEMS = frozenset({"OBJ", "TYPE", "NAME"})
# Placeholder tokens used to complete a construct, by preference.
_COMPLETION_ORDER = ("RPAR", "RSQB", "SEMICOLON", "RBRACE", "NAME", "INT", "TYPE", "COLON", "LBRACE",
                     "LPAR", "COMMA")
# The tokens a completion is made of (operators and keywords only where nothing else fits).
_COMPLETION_TOKENS = frozenset(_COMPLETION_ORDER) | {"EQUAL"}
_CLOSERS = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE"}
_COMPLETION_ORDER_IN_STATEMENT = ("RPAR", "RSQB", "NAME", "INT", "LBRACE")


@dataclass(slots=True)
class ParseResult:
    module: ast.Module
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not self.diagnostics


class _Splice(list):
    """The children of a `__x_star_N` helper rule of lark's EBNF expansion: spliced into the
    parent rule's children, as lark does for rules whose name starts with `_`."""


@dataclass(frozen=True, slots=True)
class _Rule:
    size: int  # symbols on the right-hand side
    origin: str  # the nonterminal it reduces to
    method: str  # the AstBuilder method (alias or rule name)
    expand_single: bool  # `?rule`: one child is passed up as it is
    splice: bool  # a helper rule: its children go to the parent
    has_splices: bool  # some child comes from a helper rule


class _Grammar:
    """The grammar, built once: scanner, LALR tables (cached on disk by lark), rule shapes."""

    def __init__(self) -> None:
        with open(GRAMMAR_PATH, encoding="utf-8") as grammar:
            lark = Lark(grammar.read(), parser="lalr", lexer="basic", start="module",
                        maybe_placeholders=False, cache=True)
        self.scanner = Scanner(lark.terminals)
        conf = lark.parse_interactive("").parser_state.parse_conf
        self.start_state, self.end_state = conf.start_state, conf.end_state
        rule_ids: dict = {}
        self.rules: list[_Rule] = []
        for rule in lark.rules:
            rule_ids[rule] = len(self.rules)
            self.rules.append(_Rule(
                len(rule.expansion), rule.origin.name, rule.alias or rule.origin.name,
                bool(rule.options.expand1) and not rule.alias, rule.origin.name.startswith("_"),
                any(symbol.name.startswith("_") and not symbol.is_term for symbol in rule.expansion)))
        # (True, next state) for a shift, (False, rule index) for a reduction.
        self.states = {
            state: {symbol: (action is Shift, arg if action is Shift else rule_ids[arg])
                    for symbol, (action, arg) in row.items()}
            for state, row in conf.states.items()}

    def callbacks(self, builder: AstBuilder) -> list:
        """One function per rule, turning the rule's children into its value."""
        return [_callback(rule, getattr(builder, rule.method, None)) for rule in self.rules]

    def can_feed(self, state_stack: list, token_type: str) -> bool:
        """Whether the parser in `state_stack` accepts `token_type`, without side effects."""
        states, rules = self.states, self.rules
        stack = list(state_stack)
        while True:
            entry = states[stack[-1]].get(token_type)
            if entry is None:
                return False
            shift, arg = entry
            if shift:
                return True
            rule = rules[arg]
            if rule.size:
                del stack[-rule.size:]
            stack.append(states[stack[-1]][rule.origin][1])
            if token_type == "$END" and stack[-1] == self.end_state:
                return True

    def advance(self, stack: list, token_type: str) -> None:
        """Apply `token_type` to a bare state stack (reductions, then the shift)."""
        states, rules = self.states, self.rules
        while True:
            shift, arg = states[stack[-1]][token_type]
            if shift:
                stack.append(arg)
                return
            rule = rules[arg]
            if rule.size:
                del stack[-rule.size:]
            stack.append(states[stack[-1]][rule.origin][1])

    def expected(self, state_stack: list) -> set[str]:
        return {t for t in self.states[state_stack[-1]] if t.isupper() and self.can_feed(state_stack, t)}

    def completion(self, state_stack: list, reached: Callable[[list, bool], bool],
                   preferred: tuple[str, ...]) -> list[str] | None:
        """The shortest run of tokens that leads the parser in `state_stack` to a stack where
        `reached(stack, invented)` holds (`invented`: some token was fed), or None. A
        breadth-first search over the stacks the tokens lead to, built of _COMPLETION_TOKENS
        (of others only where none of those fits), trying the `preferred` tokens first (so of
        two runs as short, the one with the earlier preferred tokens wins), within
        MAX_COMPLETION_STACKS stacks. A greedy walk that always took the first token that
        fits could circle for ever (`for (i in 3)`: `i && i && ...`, never the `=` a `for`
        needs) and lose the rest of the file."""
        if reached(state_stack, False):
            return []
        seen = {tuple(state_stack)}
        queue = deque([(list(state_stack), [])])
        while queue:
            stack, path = queue.popleft()
            expected = self.expected(stack) - {"$END"}
            plain = expected & _COMPLETION_TOKENS or expected
            for token_type in [t for t in preferred if t in plain] + sorted(plain - set(preferred)):
                after = list(stack)
                self.advance(after, token_type)
                key = tuple(after)
                if key in seen:
                    continue
                seen.add(key)
                run = path + [token_type]
                if reached(after, True):
                    return run
                if len(seen) >= MAX_COMPLETION_STACKS:
                    return None
                queue.append((after, run))
        return None

    def parse(self, text: str, path: str) -> ParseResult:
        scanned = self.scanner.scan(text, path)
        builder = AstBuilder(path)
        parse = _Parse(self, builder, scanned.tokens, text, path)
        items, syntax_errors = parse.run()
        if parse.skipped:
            items = sorted(items + parse.skipped, key=lambda item: (item.span.line, item.span.column))
        module = ast.Module(path, text, items, scanned.comments)
        _attach_doc_comments(module)
        diagnostics = sorted(scanned.diagnostics + syntax_errors + builder.finish() + nesting_diagnostics(items),
                             key=sort_key)
        return ParseResult(module, diagnostics)


def _callback(rule: _Rule, method):
    flatten = rule.has_splices
    if rule.splice:
        return _grow_splice if flatten else _Splice
    if rule.expand_single:
        def expand_or_build(children):
            if flatten:
                children = _flatten(children)
            return children[0] if len(children) == 1 else method(children)
        return expand_or_build
    if flatten:
        return lambda children: method(_flatten(children))
    return method


def _grow_splice(children: list) -> "_Splice":
    """A repetition (`x*`) reduces left-recursively, its list so far first: extend that list in
    place (it is reduced once and never seen again) instead of copying it at every item,
    which made a file of n items cost n squared."""
    if children and type(children[0]) is _Splice:
        grown = children[0]
        for child in children[1:]:
            if type(child) is _Splice:
                grown.extend(child)
            else:
                grown.append(child)
        return grown
    return _Splice(_flatten(children))


def _flatten(children: list) -> list:
    flat: list = []
    for child in children:
        if type(child) is _Splice:
            flat.extend(child)
        else:
            flat.append(child)
    return flat


class _Parse:
    """One parse of one token list, with error recovery."""

    def __init__(self, grammar: _Grammar, builder: AstBuilder, tokens: list[Token], text: str,
                 path: str) -> None:
        self.parser = grammar
        self.callbacks = grammar.callbacks(builder)
        self.path = path
        end = _end_position(text)
        self.tokens = tokens + [Token("$END", "", len(text), end[0], end[1], end[0], end[1], len(text))]
        self.state_stack: list = [grammar.start_state]
        self.value_stack: list = []
        self.result: list | None = None
        self.skipped: list[ast.ErrorItem] = []  # top-level text panic mode skipped
        self.errors: list[Diagnostic] = []
        self.depth = 0  # brace depth of what the parser has consumed
        self.anchor = self.tokens[0]  # the token being recovered from
        self.shifted_since_error = True
        self.header_with_error: Token | None = None  # the `define` of the last header reported
        self.last_fed = ""  # the type of the last token fed, real or invented
        # bodies read without their `{ }`: the depth inside each, and its error's index in
        # self.errors (None if not reported), innermost last
        self.open_bodies: list[tuple[int, int | None]] = []

    def run(self) -> tuple[list, list[Diagnostic]]:
        i, tokens = 0, self.tokens
        recoveries = 0
        while i < len(tokens):
            token = tokens[i]
            if self.open_bodies and self.body_ends_before(token):
                self.close_body(i)
                continue
            if not self.step(token):
                recoveries += 1
                if recoveries > MAX_RECOVERIES:
                    self.error(token, "too many syntax errors: stopped reading here")
                    return self.salvage(), self.errors
                i = self.recover(i)
                continue
            if token.type == "$END":
                return self.result, self.errors
            self.track_depth(token)
            self.shifted_since_error = True
            i += 1
        return self.salvage(), self.errors

    # ------------------------------------------------------------ repairs

    def recover(self, i: int) -> int:
        """Report the error at tokens[i], repair, and return where to continue."""
        token = self.anchor = self.tokens[i]
        stack = self.state_stack
        expected = self.parser.expected(stack)
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None

        if token.type in _TOP_LEVEL_ONLY and self.depth:
            opener = unclosed(self.value_stack, "LBRACE")
            where = f" the '{{' at line {opener.line + 1}, column {opener.column + 1} is not closed" \
                if opener is not None else ""
            self.report(self.token_span(token),
                        f"expected '}}' before {describe_token(token.type, token.value)}:{where}")
            return self.panic(i)

        insertable = _INSERTABLE if "INT" in expected else _INSERTABLE + ("NAME",)  # a name slot
        for missing in insertable:
            if missing in expected and self.fits_after(missing, token.type):
                self.report(self.missing_span(i), self.missing_message(missing, token))
                self.feed_placeholder(missing)
                return i

        owner = body_owner(self.value_stack) if "LBRACE" in expected else None
        if owner and token.type not in ("LBRACE", "RBRACE", "$END") and self.fits_after("LBRACE", token.type):
            self.open_body(i, owner)
            return i

        if token.type in ("ARROW", "LBRACE") and function_header(self.value_stack) is not None:
            if self.complete_until(token.type):  # placeholders from where the header broke
                self.report(self.token_span(token),
                            f"expected {describe_expected(expected)}, found {describe_token(token.type)}")
                return i

        if token.type in _TOP_LEVEL_ONLY:  # never skipped: an item starts here, whatever came before
            self.report(self.token_span(token),
                        f"expected {describe_expected(expected)}, found {describe_token(token.type, token.value)}")
            return self.panic(i)

        if following is not None and token.type != "$END" and self.parser.can_feed(stack, following.type):
            self.report(self.token_span(token),
                        f"unexpected {describe_token(token.type, token.value)}; "
                        f"expected {describe_expected(expected)}")
            return i + 1

        self.report(self.token_span(token),
                    f"expected {describe_expected(expected)}, found {describe_token(token.type, token.value)}")
        return self.panic(i)

    def open_body(self, i: int, owner: str) -> None:
        """tokens[i] starts a body written without `{`: report it, invent the `{` and, unless it
        is a function's (whose `}` is there), remember to close the body after one statement."""
        token = self.tokens[i]
        reported = len(self.errors)
        span = self.missing_span(i)
        self.report(span, f"expected '{{' before {describe_token(token.type, token.value)}: "
                          f"{describe_body(owner)} goes in {{ }}")
        self.feed_placeholder_at("LBRACE", span)
        if owner != "DEFINE":
            self.open_bodies.append((self.depth, reported if len(self.errors) > reported else None))

    def body_ends_before(self, token: Token) -> bool:
        """Whether the statement read as a body without braces ends before `token`: a whole
        statement was read (`;` or `}` last) and no `else` of it follows."""
        depth, _error = self.open_bodies[-1]
        stack = self.state_stack
        return (self.depth == depth and self.last_fed in ("SEMICOLON", "RBRACE")
                and self.parser.can_feed(stack, "RBRACE")
                and not (token.type == "ELSE" and self.parser.can_feed(stack, "ELSE")))

    def close_body(self, i: int) -> None:
        """Invent the `}` of the innermost body written without braces, right after its
        statement, and offer the braces as a fix on the error that reported it."""
        _depth, error = self.open_bodies.pop()
        last = self.tokens[i - 1]
        end = Span(self.path, last.end_line, last.end_column, last.end_line, last.end_column)
        if error is not None:
            found = self.errors[error]
            fix = Suggestion("put the body in { }", (Edit(found.span, " {"), Edit(end, " }")))
            self.errors[error] = replace(found, suggestions=(fix,))
        self.feed_placeholder_at("RBRACE", end)

    def missing_message(self, missing: str, token: Token) -> str:
        what = describe_token(missing)
        if missing in _CLOSERS:
            opener = unclosed(self.value_stack, _CLOSERS[missing])
            if opener is not None:
                return (f"expected {what} before {describe_token(token.type, token.value)}, to close the "
                        f"'{opener.value}' at line {opener.line + 1}, column {opener.column + 1}")
        context = describe_context(self.value_stack)
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
        header = in_header(self.value_stack)
        for j in range(i, len(tokens)):
            token = tokens[j]
            target = self.sync_target(j, header)
            if target is None:
                continue
            if not self.complete_until(target, block=self.depth > 0 and target == "LBRACE"):
                if token.type == "$END":
                    return len(tokens)  # cannot finish: run() keeps what was read
                continue
            if j > i and self.depth == 0:
                self.skipped.append(ast.ErrorItem(self.token_span(tokens[i]).to(self.token_span(tokens[j - 1]))))
            if token.type == "SEMICOLON":
                if self.parser.can_feed(self.state_stack, "SEMICOLON"):
                    self.feed(token)
                return j + 1
            return j
        return len(tokens)

    def sync_target(self, j: int, header: bool) -> str | None:
        """If tokens[j] can resume the parse, what the parser must accept first: the token
        itself, or at top level "DEFINE" (an item boundary) for a token that starts an item.
        In the header of an `if`, `while` or `for` (`header`), its `{` resumes too: the header
        is completed and the body read as usual, instead of skipping into the body and
        resuming at its first `;`, where the header would be completed by the statement's
        text and the body's `}` taken for the end of the function."""
        token = self.tokens[j]
        kind = token.type
        if kind == "$END":
            return kind
        if self.depth:
            if kind in _TOP_LEVEL_ONLY:
                return "DEFINE"
            return kind if kind in ("SEMICOLON", "RBRACE") or (header and kind == "LBRACE") else None
        if kind in _TOP_LEVEL_ONLY:
            return "DEFINE"
        if kind == "LBRACE":  # the body of a function whose header is broken
            return kind
        if kind in _LINE_START_ITEMS and self.starts_line(j):
            if kind != "NAME" or (j + 1 < len(self.tokens) and self.tokens[j + 1].type == "COLON"):
                return "DEFINE"
        return None

    def starts_line(self, j: int) -> bool:
        return j == 0 or self.tokens[j - 1].end_line < self.tokens[j].line

    def complete_until(self, target: str, block: bool = False) -> bool:
        """Feed placeholder tokens until `target` fits; False (and nothing fed) if that fails.

        Top-level targets complete up to an item boundary (where `define` fits). A `;` target
        also counts as reached at a statement start, where the `;` is then dropped. With
        `block`, the target `{` must open a block (a statement may follow it), not the list
        of an array's values.
        """
        parser = self.parser

        def reached(stack: list, invented: bool) -> bool:
            if parser.can_feed(stack, target):
                if not block:
                    return True
                after = list(stack)
                parser.advance(after, target)
                return parser.can_feed(after, "RETURN")
            return target == "SEMICOLON" and invented and parser.can_feed(stack, "RETURN")

        order = _COMPLETION_ORDER if target != "SEMICOLON" else _COMPLETION_ORDER_IN_STATEMENT
        path = parser.completion(self.state_stack, reached, order)
        if path is None:
            return False
        for token_type in path:
            self.feed_placeholder(token_type)
        return True

    # ------------------------------------------------------------ helpers

    def fits_after(self, inserted: str, token_type: str) -> bool:
        stack = list(self.state_stack)
        self.parser.advance(stack, inserted)
        return self.parser.can_feed(stack, token_type)

    def step(self, token: Token) -> bool:
        """Feed one token to the LALR automaton; False (after any reductions) if it does not fit.
        At `$END`, a True return means the parse is complete and `self.result` is set."""
        states, rules, callbacks = self.parser.states, self.parser.rules, self.callbacks
        state_stack, value_stack = self.state_stack, self.value_stack
        token_type = token.type
        while True:
            entry = states[state_stack[-1]].get(token_type)
            if entry is None:
                return False
            shift, arg = entry
            if shift:
                state_stack.append(arg)
                value_stack.append(token)
                return True
            rule = rules[arg]
            size = rule.size
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value_stack.append(callbacks[arg](children))
            state_stack.append(states[state_stack[-1]][rule.origin][1])
            if token_type == "$END" and state_stack[-1] == self.parser.end_state:
                self.result = value_stack[-1]
                return True

    def feed(self, token: Token) -> None:
        """Feed a token known to fit (checked with can_feed)."""
        self.step(token)
        self.track_depth(token)

    def feed_placeholder(self, token_type: str) -> None:
        """Feed an invented token, empty and placed where the error is. An invented `{` of an
        `if`, `while`, `for` or `else` (a header completed up to a `;`) gets its `}` after one
        statement, as a body written without braces does."""
        at = self.anchor
        value = "0" if token_type == "INT" else ""
        opens_body = token_type == "LBRACE" and body_owner(self.value_stack) not in (None, "DEFINE")
        self.feed(Token(token_type, value, at.start_pos, at.line, at.column, at.line, at.column, at.start_pos))
        if opens_body:
            self.open_bodies.append((self.depth, None))

    def feed_placeholder_at(self, token_type: str, span: Span) -> None:
        """Feed an invented, empty token at `span`'s start."""
        line, column = span.start
        at = self.anchor
        self.feed(Token(token_type, "", at.start_pos, line, column, line, column, at.start_pos))

    def track_depth(self, token: Token) -> None:
        self.last_fed = token.type
        if token.type == "LBRACE":
            self.depth += 1
        elif token.type == "RBRACE" and self.depth:
            self.depth -= 1
            while self.open_bodies and self.open_bodies[-1][0] > self.depth:
                self.open_bodies.pop()  # closed by a real `}` (after panic mode)

    def token_span(self, token: Token) -> Span:
        return Span(self.path, token.line, token.column, token.end_line, token.end_column)

    def report(self, span: Span, message: str) -> None:
        """Record a syntax error unless it is a cascade of the previous one, or the second
        in one function header."""
        header = function_header(self.value_stack)
        if self.shifted_since_error and (header is None or header is not self.header_with_error):
            self.errors.append(diagnostic("G101", span, message))
        self.header_with_error = header or self.header_with_error
        self.shifted_since_error = False

    def error(self, token: Token, message: str) -> None:
        self.errors.append(diagnostic("G101", self.token_span(token), message))

    def salvage(self) -> list:
        """The items already built, when the parse could not be finished."""
        items: list = []
        for value in self.value_stack:
            if isinstance(value, _Splice):
                items.extend(v for v in value if isinstance(v, _ITEMS))
            elif isinstance(value, _ITEMS):
                items.append(value)
        return items


_ITEMS = (ast.GameParam, ast.UseDecl, ast.ObjDecl, ast.StartDecl, ast.GameVar, ast.ShowDecl, ast.FunctionDef)


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


_PARSER: _Grammar | None = None
_PARSER_LOCK = threading.Lock()


def _parser() -> _Grammar:
    global _PARSER
    if _PARSER is None:
        with _PARSER_LOCK:
            if _PARSER is None:
                _PARSER = _Grammar()
    return _PARSER


def parse(text: str, path: str = "<text>") -> ParseResult:
    """Parse one file's text. Never raises: syntax errors come back as diagnostics."""
    return _parser().parse(lone_cr_as_lf(text), path)


def scan(text: str, path: str = "<text>") -> ScanResult:
    """Tokens, comments and lexical diagnostics of one file's text (for editor features that
    must read broken text token by token). Never raises."""
    return _parser().scanner.scan(lone_cr_as_lf(text), path)


attach_doc_comments = _attach_doc_comments
