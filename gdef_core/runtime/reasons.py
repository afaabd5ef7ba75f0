"""Why a move is refused and why a game ended: the rule that decided, with its file, line and
comment (`refused by rules.gdef:212: a piece stands between (if (blocked(...)) { return false; })`).

The fast rules never keep track of where they are, and stay as fast as they are. Only when
someone asks why, the judgement runs again through the reference build of the rules
(`optimize=False`: nothing inlined, every statement on a line of its own that the compiler maps
to its gdef span) under `sys.settrace`, which records where each gdef function returned and
what. The deciding line is the `return` that ended the entry point (isMoveLegal() or end()),
followed into the call whose result it returned, as long as that call's own deciding line has a
comment: authors explain their rules by commenting the lines that refuse.
"""
from __future__ import annotations

import os
import sys
import weakref
from dataclasses import dataclass, field

from gdef_core.lower import ir
from gdef_core.runtime.counts import apply_operations
from gdef_core.runtime.errors import Fail
from gdef_core.runtime.rules import Rules
from gdef_core.span import Span

_CODE_WIDTH = 90  # the quoted statement is shortened to about this many characters


@dataclass(frozen=True, slots=True)
class LocatedRule:
    """The statement that decided, the comment on or above its line, and its text on one line."""

    span: Span
    comment: str
    code: str

    @property
    def where(self) -> str:
        """`rules.gdef:212` (the file's name, the line counted from 1)."""
        return f"{os.path.basename(self.span.file)}:{self.span.line + 1}"

    def __str__(self) -> str:
        comment = f": {self.comment}" if self.comment else ""
        return f"{self.where}{comment} ({self.code})"

    def to_json(self) -> dict:
        return {"file": self.span.file, "line": self.span.line + 1, "column": self.span.column + 1,
                "comment": self.comment, "code": self.code, "text": str(self)}


def explain_refusal(state, ops) -> LocatedRule | None:
    """The rule that makes isMoveLegal() refuse the resolved operations `ops` in `state`, or
    None when it cannot be told (the reference run fails or accepts the move)."""
    game = state.game
    rules = _reference(game)
    if rules is None or rules.raw_legal is None:
        return None
    board = state._board.copy()
    calls = _traced(rules, lambda: rules.raw_legal(board, ops, state.player, state.move_number,
                                                  _copy(state._vars), state._history))
    entry = _entry(calls, "isMoveLegal")
    if entry is None or entry.value is not False:
        return None
    return _Explainer(game.program, rules).decide(entry)


def explain_end(before, move) -> LocatedRule | None:
    """The line of end() that ended the game when `move` (a legal Move) was played in `before`
    (the state before it), or None when the game goes on or it cannot be told."""
    game = before.game
    rules = _reference(game)
    if rules is None or rules.raw_end is None:
        return None
    resolved = game.resolve(move)
    if not resolved:
        return None
    board = before._board.copy()
    previous = board.copy() if rules.uses_previous else None
    apply_operations(board, resolved.ops, game.width, game.height)
    scores = list(before._scores)
    calls = _traced(rules, lambda: rules.raw_end(board, resolved.ops, before.player, before.move_number + 1,
                                                _copy(before._vars), scores, before._history, previous,
                                                before.is_chance_node))
    entry = _entry(calls, "end")
    if entry is None or entry.value is not True:
        return None
    return _Explainer(game.program, rules).decide(entry)


# ---------------------------------------------------------------- the reference run

_REFERENCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _reference(game) -> Rules | None:
    """The game's rules built for reference (compiled once per game, on the first question),
    over the game's own objects; hasLegalMove() inside them asks the game's fast rules."""
    rules = _REFERENCES.get(game)
    if rules is None:
        try:
            rules = Rules(game.program, (game.empty, *game.objects.values()), game.max_steps, game.max_depth,
                          optimize=False)
        except Exception:  # noqa: BLE001 - the fast build compiled: no reason is better than a crash
            return None
        rules.set_has_legal_move_hook(game._has_legal_move_hook)
        _REFERENCES[game] = rules
    return rules


@dataclass(eq=False, slots=True)
class _Call:
    """One call of a gdef function in the traced run."""

    function: str
    parent: "_Call | None"
    call_line: int | None  # the generated line of the parent that made the call
    line: int | None = None  # the generated line it returned from
    value: object = None
    children: list = field(default_factory=list)


def _traced(rules: Rules, run) -> list[_Call]:
    """Run `run()` with the calls of the rules' gdef functions recorded; the outermost calls
    in order. A failure of the rules ends the run quietly (what ran so far is kept)."""
    filename = rules.filename
    roots: list[_Call] = []
    stack: list[tuple[_Call, object]] = []

    def local(frame, event, arg):
        if event == "return":
            call, _ = stack.pop()
            call.line, call.value = frame.f_lineno, arg
            (call.parent.children if call.parent is not None else roots).append(call)
        return local

    def on_call(frame, event, arg):
        code = frame.f_code
        if code.co_filename != filename or not code.co_name.startswith(("u_", "u1_")):
            return None
        parent, parent_frame = stack[-1] if stack else (None, None)
        call = _Call(code.co_name.split("_", 1)[1], parent,
                     parent_frame.f_lineno if parent_frame is not None else None)
        stack.append((call, frame))
        frame.f_trace_lines = False
        return local

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        run()
    except (Fail, RecursionError):
        return []
    finally:
        sys.settrace(previous)
    return roots


def _entry(calls: list[_Call], name: str) -> _Call | None:
    for call in reversed(calls):
        if call.function == name:
            return call
    return None


def _copy(variables: list) -> list:
    return [[*value] if type(value) is list else value for value in variables]


# ---------------------------------------------------------------- from lines to rules

class _Explainer:
    def __init__(self, program, rules: Rules) -> None:
        self.line_spans = rules.compiled.line_spans
        self.modules = {module.path: module for module in program.modules}  # the files' text and comments
        self.functions = rules.module.functions

    def decide(self, call: _Call) -> LocatedRule | None:
        """The rule of the deciding line of `call`, or of the call it returned the result of
        when that one is commented."""
        span = self.line_spans.get(call.line)
        if span is None:
            return None
        rule = self.rule(call.function, span)
        inner = [child for child in call.children
                 if type(child.value) is type(call.value) and child.value == call.value
                 and (where := self.line_spans.get(child.call_line)) is not None
                 and span.contains(where.line, where.column)]
        if inner:
            deeper = self.decide(inner[-1])
            if deeper is not None and deeper.comment:
                return deeper
        return rule

    def rule(self, function: str, span: Span) -> LocatedRule:
        module = self.modules.get(span.file)
        lines = module.text.split("\n") if module is not None else []
        shown = self._statement(function, span)
        comment = self._comment(module, lines, span, shown)
        return LocatedRule(span, comment, self._code(lines, span, shown))

    def _statement(self, function: str, span: Span):
        """The statement to show: an `if` whose only statement is the deciding return, or the
        deciding statement itself."""
        definition = self.functions.get(function)
        if definition is None:
            return None
        found = None
        for node in ir.walk(definition.body[1:]):  # after its Enter (the function's name)
            if isinstance(node, ir.If) and len(node.then) == 1 and node.then[0].span == span:
                return node
            if found is None and node.span == span:
                found = node
        return found

    @staticmethod
    def _code(lines: list[str], span: Span, shown) -> str:
        if isinstance(shown, ir.If):
            body = _shorten(_text(lines, shown.then[0].span), _CODE_WIDTH)
            condition = _shorten(_text(lines, shown.cond.span), _CODE_WIDTH - len(body) - 10)
            return f"if ({condition}) {{ {body} }}"
        return _shorten(_text(lines, span), _CODE_WIDTH)

    @staticmethod
    def _comment(module, lines: list[str], span: Span, shown) -> str:
        """The comment at the end of the statement's line (or of its `if`), else the comments
        on the lines right above it."""
        if module is None:
            return ""
        by_line: dict[int, list] = {}
        for comment in module.comments:
            by_line.setdefault(comment.span.end_line, []).append(comment)
        first = shown.span.line if shown is not None else span.line
        for line in dict.fromkeys((span.end_line, span.line, first)):
            for comment in by_line.get(line, []):
                if comment.span.line == line and lines[line][:comment.span.column].strip():
                    return _clean(comment.text)
        above: list[str] = []
        line = first - 1
        while line >= 0 and line in by_line:
            comment = by_line[line][-1]
            if lines[comment.span.line][:comment.span.column].strip():
                break  # a comment ending a line of code belongs to that code
            above.insert(0, _clean(comment.text))
            line = comment.span.line - 1
        return " ".join(part for part in above if part)


def _text(lines: list[str], span: Span) -> str:
    if not lines or span.line >= len(lines):
        return ""
    if span.line == span.end_line:
        return lines[span.line][span.column:span.end_column]
    parts = [lines[span.line][span.column:], *lines[span.line + 1:span.end_line], lines[span.end_line][:span.end_column]]
    return " ".join(parts)


def _shorten(code: str, width: int) -> str:
    code = " ".join(code.split())
    return code if len(code) <= width else code[:max(width, 10) - 3].rstrip() + "..."


def _clean(comment: str) -> str:
    """A comment's words, without its `//`, `/*`, `*/` and leading stars."""
    text = comment[2:-2] if comment.startswith("/*") else comment[2:]
    words = []
    for line in text.split("\n"):
        line = line.strip()
        words.append(line[1:].strip() if line.startswith("*") else line)
    return " ".join(" ".join(words).split())
