"""What syntax errors leave behind, so that the checker does not pile errors on them.

The parser recovers by skipping text and inventing tokens, so the tree around a syntax error
is a guess. The checker therefore
- drops its own diagnostics inside a top-level item (a definition, a declaration) that
  contains a syntax error: fix the syntax first, then the checker looks again. Except in a
  function whose syntax errors all lie inside statements of its body (a line being typed):
  as rust-analyzer does, the statements that parsed cleanly are still checked, and their
  errors reported (not their warnings: a local may be read in the broken text). So are those
  of a function whose header the parser repaired (`define f(int x -> bool {`), but for
  what depends on its result type (`return`), which may be a guess;
- does not check calls against a function whose header contains a syntax error;
- skips the whole-game checks (missing parameters or functions) while any syntax error
  remains: the missing piece may be in the broken text; a function is reported as never
  called unless its name appears in skipped text, in damaged code or on a line with a
  syntax error (the call may be there);
- stays silent about undefined names that appear in text the parser skipped (ErrorItem,
  ErrorStmt, ErrorExpr): the skipped text may have declared them;
- stays silent, while any syntax error remains, about undefined names that look declared in
  the raw text (`define f`, `obj X`, `int n`) or appear in a damaged item or on a line with a
  syntax error: the parser may have lost their declaration;
- distrusts the declarations between two functions when a syntax error lies among them: a
  lost `{` or an extra `}` turns a function's statements into top-level "game variables"
  (`int x = OperationList[0][0];`), a broken header turns `obj piece` into an object, and a
  broken comment turns prose into "parameters". Such game variables and objects are not
  declared (their names count as skipped text) and nothing is
  reported inside that stretch, nor in the function before it (an early `}` may have cut it
  short).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from gdef_core.diagnostics import Diagnostic
from gdef_core.span import Span
from gdef_core.syntax import ast

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DECLARED = re.compile(r"\b(?:define|obj|int|float|bool)\s+([A-Za-z_][A-Za-z0-9_]*)")
_ERROR_NODES = (ast.ErrorItem, ast.ErrorStmt, ast.ErrorExpr)
# what the checker says about a function's `return`s, from its result type
_RESULT_CODES = frozenset({"G305", "G306", "G307", "G504"})


@dataclass(frozen=True)
class Recovery:
    words: frozenset[str] = frozenset()  # identifiers in skipped text
    syntax_errors: bool = False  # any error among the parser's and loader's diagnostics
    damaged: tuple[Span, ...] = ()  # top-level items that contain a syntax error (or are distrusted)
    distrusted: frozenset[int] = frozenset()  # id() of game variables and objects not to declare
    # functions whose syntax errors all lie inside statements of the body or in the header,
    # each with the statements of it that parsed cleanly (the only places where it is
    # checked) and whether its header has an error
    partly_damaged: tuple[tuple[Span, tuple[Span, ...], bool], ...] = ()
    near_errors: frozenset[str] = frozenset()  # identifiers in skipped text, damaged code, error lines
    _errors: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def covers(self, span: Span) -> bool:
        """Whether `span` starts inside a damaged item."""
        return any(item.file == span.file and item.contains(span.line, span.column) for item in self.damaged)

    def hides(self, found: Diagnostic) -> bool:
        """Whether the checker's diagnostic falls where a syntax error makes it a guess: in a
        damaged item, or in a partly damaged function outside its clean statements. Warnings of
        such a function are guesses too (a local read only in the broken text)."""
        span = found.span
        if self.covers(span):
            return True
        for function, clean, header_broken in self.partly_damaged:
            if function.file == span.file and function.contains(span.line, span.column):
                return not found.is_error or (header_broken and found.code in _RESULT_CODES) \
                    or not any(part.contains(span.line, span.column) for part in clean)
        return False

    def distrusts(self, item) -> bool:
        return id(item) in self.distrusted

    def header_damaged(self, function: ast.FunctionDef) -> bool:
        """Whether a syntax error lies in `define name(...) -> TYPE`: the signature is a guess."""
        start, end = function.span.start, function.body.span.start
        return any(start <= position <= end for position in self._errors.get(function.span.file, ()))


def recovery(modules: list[ast.Module], diagnostics: Sequence[Diagnostic],
             skipped: Callable | None = None) -> Recovery:
    """`skipped`: skipped_words, or a function that caches its answer per item."""
    errors: dict[str, list[tuple[int, int]]] = {}
    for diagnostic in diagnostics:
        if diagnostic.is_error:
            errors.setdefault(diagnostic.span.file, []).append(diagnostic.span.start)
    damaged: list[Span] = []
    damaged_parts: list[Span] = []  # statements with a syntax error, in partly damaged functions
    partly: list[tuple[Span, tuple[Span, ...], bool]] = []
    distrusted: list[ast.GameVar | ast.ObjDecl] = []
    for module in modules:
        positions = errors.get(module.path, ())
        for run, (before, (after, until)) in _runs_between_functions(module.items):
            if any(isinstance(item, ast.ErrorItem) for item in run) \
                    or any(after <= p <= until for p in positions):
                damaged += [item.span for item in run]
                distrusted += [item for item in run if isinstance(item, (ast.GameVar, ast.ObjDecl))]
                if before is not None:  # an early `}` may have cut it short
                    damaged.append(before.span)
        for item, following in zip(module.items, [*module.items[1:], None]):
            if not isinstance(item, ast.FunctionDef):
                continue
            until = following.span.start if following is not None else (float("inf"), 0)
            # inside it, or in skipped text right after it (an early `}` may have cut it short)
            inside = [p for p in positions if item.span.start <= p < until]
            if not inside or item.span in damaged:
                continue
            body = item.body.span
            in_body = [p for p in inside if body.start < p < body.end]
            # as rust-analyzer: check what parsed, also under a header that was repaired
            if all(body.start < p < body.end or item.span.start <= p <= body.start for p in inside):
                clean, broken = _clean_statements(item.body, in_body)
                partly.append((item.span, tuple(clean), len(in_body) < len(inside)))
                damaged_parts += broken
            else:
                damaged.append(item.span)
    words = _skipped_words(modules, skipped or skipped_words) | {var.name.text for var in distrusted}
    near = frozenset(words)
    if errors:
        near |= _words_near_errors(modules, errors, damaged + damaged_parts)
        words |= _declared_in_text(modules) | near
    return Recovery(words, bool(errors), tuple(damaged), frozenset(id(var) for var in distrusted),
                    tuple(partly), near, {file: tuple(positions) for file, positions in errors.items()})


def _clean_statements(body: ast.Block, errors: list[tuple[int, int]]) -> tuple[list[Span], list[Span]]:
    """The statements of `body` (nested ones included) that hold no syntax error and no text
    the parser skipped, outermost first; and the innermost statements that do."""
    points = list(errors) + [node.span.start for node in ast.walk(body) if isinstance(node, _ERROR_NODES)]
    clean: list[Span] = []
    broken: list[Span] = []
    pending = list(body.stmts)
    while pending:
        stmt = pending.pop()
        span = stmt.span
        if not any(span.start <= p <= span.end for p in points):
            clean.append(span)
            continue
        inner = [block for block in (getattr(stmt, "then", None), getattr(stmt, "otherwise", None),
                                     getattr(stmt, "body", None)) if block is not None]
        nested = [child for block in inner for child in (block.stmts if isinstance(block, ast.Block) else [block])]
        if nested:
            pending += nested
        broken.append(span)
    return clean, broken


def _runs_between_functions(items: list) -> list[tuple[list, tuple]]:
    """The maximal stretches of consecutive top-level items that are not functions, each with
    the function before it (or None) and the region it lies in: from the end of that function
    to the start of the next one."""
    runs: list[tuple[list, tuple]] = []
    current: list = []
    before = None
    for item in items:
        if isinstance(item, ast.FunctionDef):
            if current:
                runs.append((current, (before, (_end(before), item.span.start))))
            current, before = [], item
        else:
            current.append(item)
    if current:
        runs.append((current, (before, (_end(before), (float("inf"), 0)))))
    return runs


def _end(function) -> tuple:
    return function.span.end if function is not None else (0, 0)


def _words_near_errors(modules: list[ast.Module], errors: dict, damaged: list[Span]) -> set[str]:
    """The identifiers of damaged items and of the lines holding a syntax error: whatever they
    declared is uncertain."""
    words: set[str] = set()
    for module in modules:
        lines = module.text.splitlines()
        for span in damaged:
            if span.file == module.path:
                words.update(_WORD.findall(_slice(lines, span)))
        for line, _column in errors.get(module.path, ()):
            if line < len(lines):
                words.update(_WORD.findall(lines[line]))
    return words


def _declared_in_text(modules: list[ast.Module]) -> set[str]:
    """Names that look declared somewhere in the raw text (`define f`, `obj X`, `int n`): with
    a syntax error around, the parser may have lost the declaration."""
    return {match for module in modules for match in _DECLARED.findall(module.text)}


def _skipped_words(modules: list[ast.Module], skipped) -> frozenset[str]:
    words: set[str] = set()
    for module in modules:
        split: list[list[str]] = []

        def lines(text: str = module.text) -> list[str]:  # split once, and only if needed
            if not split:
                split.append(text.splitlines())
            return split[0]

        for item in module.items:
            words.update(skipped(item, lines))
    return frozenset(words)


def skipped_words(item, lines: Callable[[], list[str]]) -> frozenset[str]:
    """The identifiers in the text the parser skipped inside one top-level item; `lines()`
    gives the lines of its file."""
    errors = [node for node in ast.walk(item) if isinstance(node, _ERROR_NODES)]
    if not errors:
        return frozenset()
    found = lines()
    return frozenset(word for node in errors for word in _WORD.findall(_slice(found, node.span)))


def _slice(lines: list[str], span: Span) -> str:
    if span.line >= len(lines) or span.line > span.end_line:
        return ""
    if span.line == span.end_line:
        return lines[span.line][span.column:span.end_column]
    parts = [lines[span.line][span.column:]]
    parts += lines[span.line + 1:span.end_line]
    if span.end_line < len(lines):
        parts.append(lines[span.end_line][:span.end_column])
    return "\n".join(parts)
