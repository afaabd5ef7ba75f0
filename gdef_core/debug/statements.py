"""Where the compiled rules' lines are in gdef: which generated lines start a gdef statement
(a line can also be the start of a gdef call inside a statement: the debugger stops only on
statements), and which statement a breakpoint on a gdef line stands on."""
from __future__ import annotations

import os
from dataclasses import dataclass

from gdef_core.syntax import ast
from gdef_core.span import Span

_STATEMENTS = (ast.VarDecl, ast.Assign, ast.ExprStmt, ast.Return, ast.If, ast.While, ast.For,
               ast.Break, ast.Continue)


def same_file(path: str) -> str:
    """The key a file is compared by: its real absolute path."""
    return os.path.realpath(path)


@dataclass(frozen=True)
class Statement:
    span: Span
    function: str


class StatementMap:
    """The statements of a compiled game: generated line -> statement, and per file the gdef
    lines (0-based) on which a statement starts."""

    def __init__(self, program, compiled) -> None:
        spans: dict[Span, str] = {}
        self.functions: dict[str, tuple[str, int, int]] = {}  # name -> (file, first line, last line)
        self.files = {same_file(module.path) for module in program.modules}
        for name, function in program.functions.items():
            span = function.span
            self.functions[name] = (same_file(span.file), span.line, span.end_line)
            for node in ast.walk(function.body):
                if isinstance(node, _STATEMENTS):
                    spans[node.span] = name
        # Every generated line of a statement: its first, and those of the gdef calls inside it
        # (Python may run a call's line before the statement's own: `x = (` holds no code).
        self.by_line: dict[int, Statement] = {}
        opened: list[tuple[int, Statement]] = []
        for line, span in sorted(compiled.line_spans.items()):
            if span in spans:
                statement = Statement(span, spans[span])
                self.by_line[line] = statement
                opened.append((line, statement))
                continue
            for _, statement in reversed(opened):
                if _inside(span, statement.span):
                    self.by_line[line] = statement
                    break
        self.starts = {line for line, _ in opened}  # generated lines that begin a statement
        self.lines_of_file: dict[str, dict[int, list[int]]] = {}  # file -> gdef line -> generated lines
        for line, statement in opened:
            rows = self.lines_of_file.setdefault(same_file(statement.span.file), {})
            rows.setdefault(statement.span.line, []).append(line)
        self.line_spans = compiled.line_spans
        self.function_spans = compiled.function_spans

    def resolve(self, path: str, line: int) -> int | None:
        """The gdef line (0-based) a breakpoint on `line` of `path` stands on: the line itself
        when a statement starts there, else the next such line of the same function; None
        when there is none (outside a function, or after its last statement)."""
        key = same_file(path)
        rows = self.lines_of_file.get(key, {})
        if line in rows:
            return line
        for file, first, last in self.functions.values():
            if file == key and first <= line <= last:
                later = [row for row in rows if line < row <= last]
                return min(later) if later else None
        return None

    def has_file(self, path: str) -> bool:
        """Whether `path` is one of the game's files."""
        return same_file(path) in self.files

    def function_at(self, path: str, line: int) -> str:
        """The function whose statement starts on gdef `line` of `path` (a line resolve() gave)."""
        return self.by_line[self.lines_of_file[same_file(path)][line][0]].function

    def where(self, generated_line: int, function: str) -> Span:
        """The gdef span of a generated line of `function` (a statement, or a call in one)."""
        span = self.line_spans.get(generated_line)
        return span if span is not None else self.function_spans[function]


def _inside(inner: Span, outer: Span) -> bool:
    return (inner.file == outer.file and (outer.line, outer.column) <= (inner.line, inner.column)
            and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column))
