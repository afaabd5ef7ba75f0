"""The layout of every construct: the AST is printed in source order, and every token printed
is taken from the source token list in lockstep (`take` checks its type), so the output has
exactly the source's tokens and nothing else; only the whitespace between them is decided here.

Beyond the fixed rules (indentation, spacing, one statement a line, `} else {`, start squares
by board row, blank lines around definitions) a few choices are the author's, as gofmt leaves
them: a line break inside an expression or a list (the continuation is re-indented, an
operator goes first on its line), a block written on one line with at most one simple
statement (`if (x) { return 1; }`), one blank line where the author left one or more.
"""
from __future__ import annotations

from bisect import bisect_right
from contextlib import contextmanager

from gdef_core.format.writer import KEEP, NEED, NEVER, Writer
from gdef_core.syntax import ast
from gdef_core.syntax.scanner import Token

MAX_WIDTH = 100  # where rows of `start` squares wrap
_SIMPLE = (ast.VarDecl, ast.Assign, ast.ExprStmt, ast.Return, ast.Break, ast.Continue)
_NOT_GROUPING = frozenset({"NAME", "IF", "WHILE", "FOR"})  # a `(` after these is not (expr)
_WIDE_ITEMS = (ast.FunctionDef, ast.StartDecl, ast.ShowDecl)  # a blank line before and after these


class LayoutError(Exception):
    """The printer and the source disagree about a token: a bug, so nothing is written."""


class Printer:
    def __init__(self, module: ast.Module, tokens: list[Token], indent_width: int) -> None:
        self.module = module
        self.tokens = tokens
        self.unit = indent_width
        self.next = 0  # the index of the next source token to print
        self.w = Writer(module.comments)
        self.starts = {(t.line, t.column): i for i, t in enumerate(tokens)}
        self.ends = {(t.end_line, t.end_column): i for i, t in enumerate(tokens)}
        self.match = _matching_parens(tokens)
        self.extents: dict[int, tuple[int, int, int]] = {}  # id(expr) -> (first, last, parens)
        self.comment_starts = sorted(c.span.start for c in module.comments)

    # ------------------------------------------------------------ tokens

    def peek(self, offset: int = 0) -> Token | None:
        index = self.next + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def take(self, *types: str, space: bool = True, text: str | None = None) -> Token:
        token = self.peek()
        if token is None or token.type not in types:
            found = "the end of the file" if token is None else f"{token.type} {token.value!r} at {token.line + 1}:{token.column + 1}"
            raise LayoutError(f"expected {'/'.join(types)}, found {found}")
        self.next += 1
        self.w.token(token.value if text is None else text, token.line, token.column, space, token.end_column)
        return token

    def skip(self, type_: str) -> None:
        """Drop an optional token (a trailing comma) if the source has it."""
        token = self.peek()
        if token is not None and token.type == type_:
            self.next += 1

    def broken_before(self, index: int) -> bool:
        """Whether the source has a line break between token `index` and the one before it."""
        return index > 0 and self.tokens[index].line > self.tokens[index - 1].end_line

    @contextmanager
    def cont(self, indent: int):
        """Lines broken inside what is printed in the block go on at `indent`."""
        saved = self.w.cont_indent
        self.w.cont_indent = indent
        try:
            yield
        finally:
            self.w.cont_indent = saved

    # ------------------------------------------------------------ top level

    def module_text(self) -> str:
        previous = None
        for item in self.module.items:
            if previous is not None:
                wide = isinstance(item, _WIDE_ITEMS) or isinstance(previous, _WIDE_ITEMS)
                self.w.newline(0, NEED if wide else KEEP)
            with self.cont(2 * self.unit):
                self.item(item)
            previous = item
        if self.next != len(self.tokens):
            raise LayoutError(f"{len(self.tokens) - self.next} source tokens were not printed")
        return self.w.finish(1 << 30, 0)

    def item(self, item) -> None:
        if isinstance(item, ast.GameParam):
            self.take("NAME")
            self.take("COLON", space=False)
            value = self.peek()
            text = None
            if value is not None and value.type == "DIMS" and isinstance(item.value, tuple):
                width, height = (value.value[side.span.column - value.column:side.span.end_column - value.column]
                                 for side in item.value)
                text = f"{width} x {height}"
            self.take("NAME", "INT", "DIMS", text=text)
        elif isinstance(item, ast.UseDecl):
            self.take("USE")
            self.take("STRING")
        elif isinstance(item, ast.ObjDecl):
            self.take("OBJ")
            self.take("NAME")
        elif isinstance(item, ast.StartDecl):
            self.start(item)
        elif isinstance(item, ast.GameVar):
            if self.peek().type == "NAME":  # `counter` or `param`
                self.take("NAME")
            self.declaration(item)
            if item.domain is not None:
                self.domain(item.domain)
            self.take("SEMICOLON", space=False)
        elif isinstance(item, ast.FunctionDef):
            self.function(item)
        elif isinstance(item, ast.ShowDecl):
            self.show(item)
        else:
            raise LayoutError(f"cannot lay out {type(item).__name__}")

    def show(self, show: ast.ShowDecl) -> None:
        """`show {`, an entry a line (`key: value, value;`, the author's line breaks after a
        comma kept), `}`; `show {}` when empty."""
        self.take("NAME")
        self.take("LBRACE")
        if not show.entries and not self.comments_inside(show.span):
            self.take("RBRACE", space=False)
            return
        inner = self.unit
        with self.cont(inner + 2 * self.unit):
            for index, entry in enumerate(show.entries):
                self.w.newline(inner, NEVER if index == 0 else KEEP)
                self.take("NAME")
                self.take("COLON", space=False)
                for number, value in enumerate(entry.values):
                    if number:
                        self.take("COMMA", space=False)
                        if self.broken_before(self.next):
                            self.w.newline(inner + 2 * self.unit, NEVER)
                    for _ in value.atoms:
                        self.take("STRING", "INT", "NAME")
                self.take("SEMICOLON", space=False)
        self.close_block(0)

    def start(self, start: ast.StartDecl) -> None:
        """`start {` then the squares, a line per board row (a new line where y changes),
        wrapped at MAX_WIDTH; `start {}` when there are none."""
        self.take("START")
        self.take("LBRACE")
        if not start.entries and not self.comments_inside(start.span):
            self.take("RBRACE", space=False)
            return
        inner = self.unit
        with self.cont(inner):
            previous = None
            for entry in start.entries:
                if previous is None:
                    self.w.newline(inner, NEVER)
                else:
                    self.take("COMMA", space=False)
                    if entry.y.value != previous.y.value or not self.fits(_entry_width(entry)):
                        self.w.newline(inner, NEVER)
                self.start_entry(entry)
                previous = entry
            self.skip("COMMA")
            self.close_block(0)

    def fits(self, width: int) -> bool:
        return self.w.column() + 1 + width <= MAX_WIDTH

    def start_entry(self, entry: ast.StartEntry) -> None:
        self.take("LPAR")
        self.coordinate()
        self.take("COMMA", space=False)
        self.coordinate()
        self.take("COLON", space=False)
        self.take("NAME")
        self.take("RPAR", space=False)

    def coordinate(self) -> None:
        if self.peek().type == "MINUS":
            self.take("MINUS", space=False)
        self.take("INT", space=False)

    def function(self, function: ast.FunctionDef) -> None:
        self.take("DEFINE")
        self.take("NAME")
        self.take("LPAR", space=False)
        with self.cont(self.w.column()):
            for index, param in enumerate(function.params):
                if index:
                    self.comma()
                self.take("TYPE", "OBJ", space=index > 0)
                self.take("NAME")
                for _ in range(param.rank):
                    self.take("LSQB", space=False)
                    self.take("RSQB", space=False)
            self.take("RPAR", space=False)
        if function.return_type is not None:
            self.take("ARROW")
            self.take("TYPE", "OBJ")
        self.block(function.body, 0)

    def domain(self, domain: ast.ParamDomain) -> None:
        """A parameter's allowed values: `in 1 to 19` or `in {9, 13, 19}`."""
        self.take("NAME")
        if domain.is_range:
            self.expr(domain.items[0])
            self.take("NAME")
            self.expr(domain.items[1])
            return
        self.take("LBRACE")
        for index, item in enumerate(domain.items):
            if index:
                self.comma()
            self.expr(item, space=False if index == 0 else True)
        self.skip("COMMA")
        self.take("RBRACE", space=False)

    def declaration(self, decl, space: bool = True) -> None:
        """`TYPE name[size]... = init` of a game variable, a local or a `for` header."""
        self.take("TYPE", "OBJ", space=space)
        self.take("NAME")
        for size in decl.sizes:
            self.take("LSQB", space=False)
            self.expr(size, space=False)
            self.take("RSQB", space=False)
        self.take("EQUAL")
        self.expr(decl.init)

    # ------------------------------------------------------------ statements

    def comments_inside(self, span) -> bool:
        return self.comment_between(span.start, span.end)

    def comment_between(self, start: tuple[int, int], end: tuple[int, int]) -> bool:
        """Whether a comment starts strictly between two source positions."""
        at = bisect_right(self.comment_starts, start)
        return at < len(self.comment_starts) and self.comment_starts[at] < end

    def block(self, block: ast.Block, indent: int) -> None:
        """`{`, the statements a line each, `}`; `{}` when empty; `{ stmt; }` kept on one line
        when the author wrote it so (one simple statement, no comment inside)."""
        with self.cont(indent):
            self.take("LBRACE")
        comments = self.comments_inside(block.span)
        if not block.stmts and not comments:
            self.take("RBRACE", space=False)
            return
        if (block.span.line == block.span.end_line and len(block.stmts) == 1 and not comments
                and isinstance(block.stmts[0], _SIMPLE)):
            with self.cont(indent + 2 * self.unit):
                self.statement(block.stmts[0], indent + self.unit)
            self.take("RBRACE")
            return
        inner = indent + self.unit
        for index, stmt in enumerate(block.stmts):
            self.w.newline(inner, NEVER if index == 0 else KEEP)
            self.statement(stmt, inner)
        self.close_block(indent)

    def close_block(self, indent: int) -> None:
        """The comments before the `}` stay inside the block; then `}` on a line of its own."""
        closing = self.peek()
        self.w.newline(indent + self.unit, KEEP if self.tokens[self.next - 1].type != "LBRACE" else NEVER)
        self.w.comments_before(closing.line, closing.column)
        self.w.newline(indent, NEVER)
        with self.cont(indent):
            self.take("RBRACE")

    def statement(self, stmt, indent: int) -> None:
        with self.cont(indent + 2 * self.unit):
            if isinstance(stmt, ast.VarDecl):
                self.declaration(stmt)
                self.take("SEMICOLON", space=False)
            elif isinstance(stmt, ast.Assign):
                self.assignment(stmt)
                self.take("SEMICOLON", space=False)
            elif isinstance(stmt, ast.ExprStmt):
                self.expr(stmt.expr)
                self.take("SEMICOLON", space=False)
            elif isinstance(stmt, ast.Return):
                self.take("RETURN")
                if stmt.value is not None:
                    self.expr(stmt.value)
                self.take("SEMICOLON", space=False)
            elif isinstance(stmt, (ast.Break, ast.Continue)):
                self.take("BREAK", "CONTINUE")
                self.take("SEMICOLON", space=False)
            elif isinstance(stmt, ast.If):
                self.if_chain(stmt, indent)
            elif isinstance(stmt, ast.While):
                self.take("WHILE")
                self.condition(stmt.cond)
                self.block(stmt.body, indent)
            elif isinstance(stmt, ast.For):
                self.for_loop(stmt, indent)
            else:
                raise LayoutError(f"cannot lay out {type(stmt).__name__}")

    def assignment(self, assign: ast.Assign, space: bool = True) -> None:
        self.expr(assign.target, space)
        self.take("EQUAL")
        self.expr(assign.value)

    def condition(self, cond) -> None:
        self.take("LPAR")
        self.expr(cond, space=False)
        self.take("RPAR", space=False)

    def if_chain(self, stmt: ast.If, indent: int) -> None:
        while True:
            self.take("IF")
            self.condition(stmt.cond)
            self.block(stmt.then, indent)
            if stmt.otherwise is None:
                return
            with self.cont(indent):
                self.take("ELSE")
            if isinstance(stmt.otherwise, ast.If):
                stmt = stmt.otherwise
                continue
            self.block(stmt.otherwise, indent)
            return

    def for_loop(self, loop: ast.For, indent: int) -> None:
        """`for (init; cond; step)`; a missing part leaves its `;` alone: `for (;;)`."""
        self.take("FOR")
        self.take("LPAR")
        with self.cont(self.w.column()):
            if isinstance(loop.init, ast.VarDecl):
                self.declaration(loop.init, space=False)
            elif loop.init is not None:
                self.assignment(loop.init, space=False)
            self.take("SEMICOLON", space=False)
            if loop.cond is not None:
                self.list_break()
                self.expr(loop.cond)
            self.take("SEMICOLON", space=False)
            if loop.step is not None:
                self.list_break()
                if isinstance(loop.step, ast.Assign):
                    self.assignment(loop.step)
                else:
                    self.expr(loop.step.expr)
            self.take("RPAR", space=False)
        self.block(loop.body, indent)

    # ------------------------------------------------------------ expressions

    def comma(self) -> None:
        self.take("COMMA", space=False)
        self.list_break()

    def list_break(self) -> None:
        """Keep the author's line break before the next item of a list."""
        if self.broken_before(self.next):
            self.w.newline(self.w.cont_indent, NEVER)

    def expr(self, expr, space: bool = True) -> None:
        first, last, parens = self.extent(expr)
        for _ in range(parens):
            self.take("LPAR", space=space)
            space = False
        if isinstance(expr, ast.Binary):
            self.binary(expr, space)
        elif isinstance(expr, ast.Unary):
            self.take("MINUS", "BANG", space=space)
            operand = expr.operand
            if isinstance(operand, ast.Unary) and operand.op == expr.op and not self.extent(operand)[2]:
                self.expr(operand)  # `- -x`, not `--x`
            else:
                self.expr(operand, space=False)
        elif isinstance(expr, ast.IntLit) and last - parens > first + parens:  # `-9223372036854775808`
            while self.next <= last - parens:
                self.take(self.peek().type, space=space)
                space = False
        elif isinstance(expr, (ast.IntLit, ast.FloatLit, ast.BoolLit, ast.NameRef)):
            self.take("INT", "FLOAT", "TRUE", "FALSE", "NAME", space=space)
        elif isinstance(expr, ast.Call):
            self.take("NAME", space=space)
            self.take("LPAR", space=False)
            with self.cont(self.w.column()):
                for index, arg in enumerate(expr.args):
                    if index:
                        self.comma()
                    self.expr(arg, space=index > 0)
                self.take("RPAR", space=False)
        elif isinstance(expr, ast.Index):
            self.take("NAME", space=space)
            for index in expr.indexes:
                self.take("LSQB", space=False)
                self.expr(index, space=False)
                self.take("RSQB", space=False)
        elif isinstance(expr, ast.ArrayInit):
            self.array_init(expr, space)
        else:
            raise LayoutError(f"cannot lay out {type(expr).__name__}")
        for _ in range(parens):
            self.take("RPAR", space=False)

    def binary(self, expr: ast.Binary, space: bool) -> None:
        """`left op right`; a line break the author made next to the operator is kept, with
        the operator first on the continuation line."""
        # A chain of the same precedence level is printed as a loop, not a recursion.
        chain = [expr]
        while True:
            left = chain[-1].left
            if isinstance(left, ast.Binary) and not self.extent(left)[2]:
                chain.append(left)
            else:
                break
        self.expr(chain[-1].left, space)
        for node in reversed(chain):
            op_index = self.next
            right_first = self.extent(node.right)[0]
            if self.broken_before(op_index) or (self.broken_before(right_first) and not self.comments_between(op_index, right_first)):
                self.w.newline(self.w.cont_indent, NEVER)
            if self.take(self.peek().type).value != node.op:
                raise LayoutError(f"expected the operator {node.op!r}")
            self.expr(node.right)

    def comments_between(self, first: int, second: int) -> bool:
        return self.comment_between((self.tokens[first].line, self.tokens[first].column),
                                    (self.tokens[second].line, self.tokens[second].column))

    def array_init(self, init: ast.ArrayInit, space: bool) -> None:
        """`{a, b}` on one line; written across lines, a block: `{`, the items indented one
        level (with the author's line breaks), `}` on a line of its own."""
        open_index = self.next
        self.take("LBRACE", space=space)
        block = bool(init.items) and self.broken_before(open_index + 1)
        outer = self.w.indent_of_line()
        with self.cont(outer + self.unit if block else self.w.column()):
            if block:
                self.w.newline(outer + self.unit, NEVER)
            for index, item in enumerate(init.items):
                if index:
                    self.comma()
                self.expr(item, space=index > 0)
            self.skip("COMMA")
            if block:
                closing = self.peek()
                self.w.comments_before(closing.line, closing.column)
                self.w.newline(outer, NEVER)
        with self.cont(outer):
            self.take("RBRACE", space=False)

    def extent(self, expr) -> tuple[int, int, int]:
        """(first token, last token, parentheses around it) of an expression, parentheses
        included: the AST keeps no parentheses, the tokens do."""
        key = id(expr)
        found = self.extents.get(key)
        if found is not None:
            return found
        if isinstance(expr, ast.Binary):
            first, last = self.extent(expr.left)[0], self.extent(expr.right)[1]
        elif isinstance(expr, ast.Unary):
            first, last = self.starts[expr.span.start], self.extent(expr.operand)[1]
        else:
            first, last = self.starts[expr.span.start], self.ends[expr.span.end]
            if isinstance(expr, ast.IntLit) and last > first:  # `-(9223372036854775808)`
                last = max([last, *(self.match.get(i, i) for i in range(first, last + 1))])
        parens = 0
        tokens = self.tokens
        while (first > 0 and tokens[first - 1].type == "LPAR" and self.match.get(first - 1) == last + 1
               and (first < 2 or tokens[first - 2].type not in _NOT_GROUPING)):
            first, last, parens = first - 1, last + 1, parens + 1
        self.extents[key] = found = (first, last, parens)
        return found


def _matching_parens(tokens: list[Token]) -> dict[int, int]:
    """The index of the `)` matching each `(` (and back), by token index."""
    match: dict[int, int] = {}
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.type == "LPAR":
            stack.append(index)
        elif token.type == "RPAR" and stack:
            opening = stack.pop()
            match[opening] = index
            match[index] = opening
    return match


def _entry_width(entry: ast.StartEntry) -> int:
    return len(f"({entry.x.value},{entry.y.value}: {entry.obj.text}),")
