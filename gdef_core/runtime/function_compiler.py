"""One gdef function -> one Python function (see codegen.py for the whole program).

Expressions become Python expressions with the language's checks inlined. What the compiler can
prove makes checks disappear: every Code carries the range of its int value, so a board read
whose indexes are known to be on the board is a plain list subscript and a sum that cannot
leave 64 bits is a plain `+`. Ranges come from constants, from the built-ins (an operation's x
is on the board, onTurn() is a player), from locals assigned once, and from the conditions
around the code (`x >= 0 && x < 7 && ...`, `if (y > 0) { ... }`). A local assigned once from an
invariant value (a constant, onTurn(), an operation's field in the single-operation variant)
is replaced by that value.

The single-operation variant (`variant=True`) compiles the functions reachable from
isMoveLegal() for a move of exactly one operation, whose x, y, object and kind sit in the cells
PX, PY, PO, PP: operationsNum() is the constant 1, OperationList[0][j] is a cell, and
NextPosition needs no copy of the board. Candidate moves of one operation are judged by it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from gdef_core.builtins import ALIASES, BUILTINS, Kind
from gdef_core.runtime.builtin_impl import IMPLEMENTATIONS
from gdef_core.runtime.code import Code, constant
from gdef_core.runtime.errors import Fail
from gdef_core.runtime.ops import COMPARISONS, int_div, int_mod
from gdef_core.lower import facts, flow
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS
from gdef_core.lower.loops import scoped_loop_locals
from gdef_core.lower.values import INT_MAX, INT_MIN
from gdef_core.span import Span
from gdef_core.syntax import ast

# Marks, inside generated expression text, where a gdef call starts: a new line is started
# there and mapped to the call's span.
MARK_START, MARK_END = "\x00", "\x01"

# Deeper generated expressions are moved into a helper function: Python's tokenizer allows
# 200 nested parentheses at most.
_MAX_NESTING = 80

# An `else if` arm knows that the conditions before it were false; past this many facts a
# long chain would cost time quadratic in its length (each arm narrowing every fact again).
_MAX_CHAIN_FACTS = 64


class CompileError(Exception):
    """A construct the checker should have rejected (a bug of the checker or the compiler, never
    of the rules file), or rules nested beyond what Python can compile; carries the gdef span."""

    def __init__(self, message: str, span: Span) -> None:
        super().__init__(f"{span}: {message}")
        self.message = message
        self.span = span


_SIMPLE = re.compile(r"\(?-?[A-Za-z0-9_.]+\)?\Z")


def _is_simple(text: str) -> bool:
    """A name or a literal: safe to repeat in the generated text."""
    return bool(_SIMPLE.match(text))


class FunctionCompiler:
    """Compiles one gdef function (or the game variables' initialisers)."""

    def __init__(self, compiler, function: ast.FunctionDef, variant: bool = False,
                 inlined_into: "FunctionCompiler | None" = None, call_span: Span | None = None,
                 arguments: dict[str, Code] | None = None, count_steps: bool = True) -> None:
        """`inlined_into`: compile `function`'s body as an expression inside that compiler's
        function, for the call at `call_span`, its parameters being `arguments`.
        `count_steps=False`: inlined calls do not count their step (for code whose steps are
        known to stay within the budget)."""
        self.count_steps = count_steps
        self.compiler = compiler
        self.function = function
        self.name = function.name.text
        self.variant = variant
        self.arguments = arguments or {}
        self.root = inlined_into.root if inlined_into else self
        self.chain = (*inlined_into.chain, (self.name, call_span)) if inlined_into else ()
        self.prefix = "u1_" if variant else "u_"
        if inlined_into is None:
            function = self.function = scoped_loop_locals(function)
        self.local_types: dict[str, str] = {p.name.text: p.type.name + "[]" * p.rank for p in function.params}
        declarations: dict[str, int] = {}
        for node in ast.walk(function.body):
            if isinstance(node, ast.VarDecl):
                self.local_types.setdefault(node.name.text, node.type.name + "[]" * len(node.sizes))
                declarations[node.name.text] = declarations.get(node.name.text, 0) + 1
        self.declarations = declarations
        # Array locals: name -> sizes known at compile time (each an int or None).
        self.array_sizes: dict[str, tuple] = {}
        # The loops being compiled, innermost last: the `for` step to run on `continue` (or None).
        self.loops: list = []
        self.unset = flow.maybe_unset_reads(function, set(self.local_types))
        unset_names = {_read_name(node) for node in self.unset}
        reassigned = facts.assigned_names(function.body)
        # Locals and parameters that keep one value once set: their range and facts about them
        # hold everywhere after their declaration.
        self.stable = {name for name in self.local_types
                       if name not in reassigned and declarations.get(name, 0) <= 1 and name not in unset_names}
        self.int_names = {name for name, kind in self.local_types.items() if kind == "int"}
        self.constants = {"boardWidth": compiler.width, "boardHeight": compiler.height,
                          "playersNum": compiler.players}
        if variant:
            self.constants["operationsNum"] = 1
        params = {p.name.text for p in function.params}
        self.optimize = compiler.optimize
        if not self.optimize:
            self.stable = set()
        # Ranges valid wherever the variable is read; facts (below) add what conditions imply.
        self.ranges: dict[str, tuple[int, int]] = facts.monotone_bounds(
            function, self.int_names - params, self.constants) if self.optimize else {}
        self.substitutes: dict[str, Code] = {}
        self.read_as_variable: set[str] = set()
        self.fact_stack: list[dict[str, tuple[int, int]]] = []
        self.facts_memo: dict = {}
        self.lines: list[tuple[int, str, Span | None]] = []
        self.temps = 0
        # Only functions on a cycle of the call graph can nest without bound: they check the
        # depth and the step budget on entry, and count one level of depth for their callees.
        self.recursive = self.name in compiler.recursive
        contexts = compiler.contexts.get(self.name, frozenset())
        self.only_context = next(iter(contexts)) if len(contexts) == 1 else None
        if inlined_into is not None:
            self.only_context = inlined_into.only_context
        self.depth_arg = "_d + 1" if self.recursive else "_d"

    def loc(self, span: Span) -> int:
        return self.compiler.loc(span, self.chain)

    def temp(self) -> str:
        root = self.root
        root.temps += 1
        return f"_t{root.temps}"

    # ------------------------------------------------------------ function

    def compile(self) -> list[tuple[int, str, Span | None]]:
        function = self.function
        params = ", ".join(["_d", *(f"l_{p.name.text}" for p in function.params)])
        self.emit(1, f"def {self.prefix}{self.name}({params}):", function.name.span)
        self.emit(2, "nonlocal ST", None)
        self.emit(2, "ST -= 1", None)
        if self.recursive:
            self.emit(2, f"if ST < 0 or _d > {self.compiler.max_depth}: _enter_failed(_d)", None)
        elif self.compiler.graph.calls_not_inlined(self.name, self.compiler.inlinable):
            # Without recursion a call tree can still grow exponentially (f calls g twice, g
            # calls h twice, ...): every function that calls others checks the budget on entry.
            self.emit(2, "if ST < 0: _enter_failed(_d)", None)
        for name in sorted({_read_name(node) for node in self.unset}):
            self.emit(2, f"l_{name} = _U", None)
        self.block(function.body.stmts, 2)
        if function.return_type is not None and flow.completes(function):
            body = function.body.span
            end = Span(body.file, body.end_line, max(body.end_column - 1, 0), body.end_line, body.end_column)
            self.emit(2, f"_no_return({self.name!r}, {self.loc(end)})", end)
        return self.lines

    def emit(self, indent: int, text: str, span: Span | None) -> None:
        self.lines.append((indent, text, span))

    # ------------------------------------------------------------ statements

    def block(self, stmts, indent: int, known: list | None = None) -> None:
        """The statements at `indent`; `known`: facts that hold on entry. A fact about a
        variable lasts until the variable is given another value."""
        start = len(self.lines)
        self.push_facts(known or [])
        for stmt in stmts:
            self.stmt(stmt, indent)
            self.forget(facts.written_names(stmt))
            if self.optimize and facts.is_guard(stmt):  # `if (c) { ... continue; }`: not c from here on
                self.add_facts(self.facts_false(stmt.cond))
        self.fact_stack.pop()
        if len(self.lines) == start:
            self.emit(indent, "pass", None)

    def stmt(self, stmt, indent: int) -> None:
        match stmt:
            case ast.VarDecl(type=type_ref, name=name, init=init, sizes=sizes) if sizes:
                self.declare_array(name.text, type_ref.name, sizes, init, stmt, indent)
            case ast.VarDecl(type=type_ref, name=name, init=init):
                self.declare(name.text, type_ref.name, init, stmt, indent)
            case ast.Assign(target=ast.NameRef(name=name), value=value):
                self.assign(name, value, stmt, indent)
            case ast.Assign(target=ast.Index() as target, value=value):
                self.assign_element(target, value, stmt, indent)
            case ast.For():
                self.for_loop(stmt, indent)
            case ast.Break():
                self.emit(indent, "break", stmt.span)
            case ast.Continue():
                step = self.loops[-1] if self.loops else None
                if step is not None:  # a `for` runs its step before the next pass
                    self.stmt(step, indent)
                self.emit(indent, "continue", stmt.span)
            case ast.ExprStmt(expr=expr):
                code = self.expr(expr)
                if not code.pure:
                    self.emit(indent, f"({code.text})", stmt.span)
            case ast.Return(value=None):
                self.emit(indent, "return", stmt.span)
            case ast.Return(value=value):
                result = self.function.return_type
                if result is None:
                    raise CompileError("a value returned from a function without a result", stmt.span)
                code = self.coerce(self.expr(value), result.name, value.span)
                self.emit(indent, f"return ({code.text})", stmt.span)
            case ast.If():
                self.if_chain(stmt, indent)
            case ast.While(cond=cond, body=body):
                self.loop(stmt, cond, body, indent)
            case ast.Block(stmts=stmts):
                for inner in stmts:
                    self.stmt(inner, indent)
            case _:
                raise CompileError(f"cannot run this statement ({type(stmt).__name__})", stmt.span)

    def declare(self, name: str, type_name: str, init, stmt, indent: int) -> None:
        value = self.coerce(self.expr(init), type_name, init.span)
        if name in self.stable:
            lo, hi = self.ranges.get(name, facts.FULL)
            self.ranges[name] = (max(lo, value.lo), min(hi, value.hi))
            if value.pure and name not in self.read_as_variable:
                self.substitutes[name] = value  # every read becomes the value itself
                if value.lo == value.hi:  # `int w = boardWidth();`: facts may compare with w
                    self.constants[facts.local_constant(name)] = value.lo
                return
        self.emit(indent, f"l_{name} = ({value.text})", stmt.span)

    def assign(self, name: ast.Name, value, stmt, indent: int) -> None:
        text = name.text
        if text in self.local_types:
            code = self.coerce(self.expr(value), self.local_types[text], value.span)
            self.emit(indent, f"l_{text} = ({code.text})", stmt.span)
            return
        index = self.compiler.var_index.get(text)
        if index is None:
            raise CompileError(f"cannot assign to '{text}'", name.span)
        code = self.coerce(self.expr(value), self.compiler.var_types[text], value.span)
        self.emit(indent, f"if RO: _read_only({text!r}, {self.loc(stmt.span)})", stmt.span)
        self.emit(indent, f"V[{index}] = ({code.text})", stmt.span)

    def if_chain(self, stmt: ast.If, indent: int) -> None:
        """if / elif / else, without the arms a constant condition rules out; each arm knows
        its condition and the negation of the ones before it."""
        keyword = "if"
        before: list = []  # facts: every earlier condition was false
        while True:
            cond = self.condition(stmt.cond)
            if cond.value is not False:
                arm_facts = before + self.facts_true(stmt.cond)
                if cond.value is True:  # always taken: the rest of the chain is dead
                    if keyword == "if":
                        self.block(stmt.then.stmts, indent, arm_facts)
                    else:
                        self.emit(indent, "else:", stmt.span)
                        self.block(stmt.then.stmts, indent + 1, arm_facts)
                    return
                self.emit(indent, f"{keyword} ({cond.text}):", stmt.span)
                self.block(stmt.then.stmts, indent + 1, arm_facts)
                keyword = "elif"
            if len(before) < _MAX_CHAIN_FACTS:  # fewer facts only keep more checks
                before = before + self.facts_false(stmt.cond)
            otherwise = stmt.otherwise
            if isinstance(otherwise, ast.If):
                stmt = otherwise
                continue
            if otherwise is not None:
                if keyword == "if":
                    self.block(otherwise.stmts, indent, before)
                else:
                    self.emit(indent, "else:", otherwise.span)
                    self.block(otherwise.stmts, indent + 1, before)
            return

    def loop(self, stmt, cond_expr, body: ast.Block, indent: int, step=None) -> None:
        """A `while`, or the loop of a `for` (`step` runs after the body and on `continue`)."""
        self.forget(facts.written_names(body) | (facts.written_names(step) if step is not None else set()))
        cond = self.condition(cond_expr) if cond_expr is not None else constant(True)
        if cond.value is False:
            return
        self.emit(indent, "while True:" if cond.value is True else f"while ({cond.text}):", stmt.span)
        self.emit(indent + 1, "ST -= 1", stmt.span)
        self.emit(indent + 1, f"if ST < 0: _loop_limit({self.compiler.max_steps}, {self.loc(stmt.span)})",
                  stmt.span)
        self.loops.append(step)
        stmts = body.stmts if step is None else [*body.stmts, step]
        self.block(stmts, indent + 1, self.facts_true(cond_expr) if cond_expr is not None else [])
        self.loops.pop()

    def for_loop(self, stmt: ast.For, indent: int) -> None:
        """`for (INIT; COND; STEP)`: INIT, then a while loop whose passes end with STEP (a
        `continue` runs STEP first, see stmt())."""
        if stmt.init is not None:
            self.stmt(stmt.init, indent)
            self.forget(facts.written_names(stmt.init))
        self.loop(stmt, stmt.cond, stmt.body, indent, stmt.step)

    def condition(self, expr) -> Code:
        return self.coerce(self.expr(expr), "bool", expr.span)

    # ------------------------------------------------------------ arrays

    def declare_array(self, name: str, element: str, size_exprs: list, init, stmt, indent: int) -> None:
        """A local array: the sizes are evaluated and checked, the elements counted against the
        step budget, then the initialiser fills it (one value, or the list of every element)."""
        loc = self.loc(stmt.span)
        sizes = [self.coerce(self.expr(size), "int", size.span) for size in size_exprs]
        known = tuple(size.value if size.constant else None for size in sizes)
        texts = []
        for size in sizes:
            if size.constant or _is_simple(size.text):
                texts.append(size.text)
            else:
                t = self.temp()
                self.emit(indent, f"{t} = ({size.text})", stmt.span)
                texts.append(t)
        count = 1
        for size in known:
            count = count * size if size is not None and count is not None else None
        if count is not None and all(s >= 1 for s in known) and count <= MAX_ARRAY_ELEMENTS:
            self.emit(indent, f"ST -= {count}", stmt.span)
        else:
            self.emit(indent, f"ST -= _array_size(({', '.join(texts)},), {loc})", stmt.span)
        self.emit(indent, f"if ST < 0: _loop_limit({self.compiler.max_steps}, {loc})", stmt.span)
        if self.declarations.get(name, 0) <= 1:
            self.array_sizes[name] = known
        if isinstance(init, ast.ArrayInit):
            value = self.array_literal(init, element, texts, known, loc, stmt.span, indent)
        else:
            fill = self.coerce(self.expr(init), element, init.span)
            if not (fill.constant or _is_simple(fill.text)):
                t = self.temp()
                self.emit(indent, f"{t} = ({fill.text})", stmt.span)
                fill = Code(t, element)
            value = (f"[{fill.text}] * {texts[0]}" if len(texts) == 1
                     else f"[[{fill.text}] * {texts[1]} for _ in range({texts[0]})]")
        self.emit(indent, f"l_{name} = {value}", stmt.span)

    def array_literal(self, init: ast.ArrayInit, element: str, texts: list, known: tuple, loc: int,
                      span: Span, indent: int) -> str:
        """The list of every element; when the sizes are known only at run time, the number of
        elements is checked first (spec 15.1: before any element is evaluated)."""
        rows = [item.items if isinstance(item, ast.ArrayInit) else None for item in init.items]
        shape = (len(init.items),) if len(texts) == 1 else (len(init.items), len(rows[0] or ()))
        # Sizes the optimiser knows (`int n = boardWidth();`) but the checker does not: a list
        # that does not fit is the run-time error of spec 15.1, not a short array.
        if None in known or shape != known:
            self.emit(indent, f"_array_shape(({', '.join(texts)},), {shape}, {loc})", span)
        if len(texts) == 1:
            return "[" + ", ".join(self.coerce(self.expr(item), element, item.span).text for item in init.items) + "]"
        return "[" + ", ".join("[" + ", ".join(self.coerce(self.expr(item), element, item.span).text
                                               for item in row) + "]" for row in rows) + "]"

    def array_of(self, name: str, node=None) -> Code | None:
        """The array called `name` (a local, a parameter, an inlined call's argument or a game
        variable) as Code, or None when it is not an array."""
        argument = self.arguments.get(name)
        if argument is not None:
            return argument if is_array_type(argument.type) else None
        kind = self.local_types.get(name)
        if kind is not None:
            if not is_array_type(kind):
                return None
            text = f"l_{name}"
            if node is not None and node in self.unset:
                text = f"(l_{name} if l_{name} is not _U else _unset_local({name!r}, {self.loc(node.span)}))"
            return Code(text, kind, sizes=self.array_sizes.get(name))
        index = self.compiler.var_index.get(name)
        if index is not None and name in self.compiler.var_arrays:
            return Code(f"V[{index}]", self.compiler.var_types[name] + "[]" * len(self.compiler.var_arrays[name]),
                        sizes=self.compiler.var_arrays[name])
        return None

    def element_indexes(self, array: Code, indexes: list[Code], prelude: list[str] | None
                        ) -> tuple[list[str], list[str]]:
        """(the indexes' texts, the tests) for `a[i]` / `a[i][j]`: each index evaluated once,
        in order, and tested against its size unless its range proves it in range (a size
        known only at run time is the list's length). With `prelude` (a statement), indexes
        that need a temporary are assigned there first. The array's text is cheap to repeat."""
        base = array.text
        sizes = array.sizes or (None,) * len(indexes)
        tests: list[str] = []
        uses: list[str] = []
        for dim, (code, size) in enumerate(zip(indexes, sizes)):
            if prelude is not None and not (code.constant or _is_simple(code.text)):
                t = self.temp()
                prelude.append(f"{t} = ({code.text})")
                code = Code(t, "int", None, code.lo, code.hi, True)
            if size is None:
                first, use = self.bind(code)
                tests.append(f"(0 <= {first} < len({base}{'[0]' * dim}))")
                uses.append(use)
            else:
                uses.append(self.index_part(code, size, tests))
        return uses, tests

    def element_read(self, array: Code, node: ast.Index) -> Code:
        element = element_of(array.type)
        indexes = [self.coerce(self.expr(i), "int", i.span) for i in node.indexes]
        uses, tests = self.element_indexes(array, indexes, None)
        read = array.text + "".join(f"[{use}]" for use in uses)
        if not tests:
            return Code(read, element)
        failed = f"_bad_index({array.text}, ({', '.join(uses)},), {node.base.text!r}, {self.loc(node.span)})"
        return Code(f"({read} if {' & '.join(tests)} else {failed})", element)

    def assign_element(self, target: ast.Index, value, stmt, indent: int) -> None:
        name = target.base.text
        array = self.array_of(name, target)
        if array is None:
            raise CompileError(f"cannot assign to an element of '{name}'", target.span)
        if array.text.startswith("V["):  # a game variable: only where they may be assigned
            self.emit(indent, f"if RO: _read_only({name!r}, {self.loc(stmt.span)})", stmt.span)
        indexes = [self.coerce(self.expr(i), "int", i.span) for i in target.indexes]
        prelude: list[str] = []
        uses, tests = self.element_indexes(array, indexes, prelude)
        for line in prelude:
            self.emit(indent, line, stmt.span)
        if tests:
            self.emit(indent, f"if not ({' & '.join(tests)}): _bad_index({array.text}, ({', '.join(uses)},), "
                              f"{name!r}, {self.loc(target.span)})", stmt.span)
        code = self.coerce(self.expr(value), element_of(array.type), value.span)
        self.emit(indent, f"{array.text}{''.join(f'[{use}]' for use in uses)} = ({code.text})", stmt.span)

    # ------------------------------------------------------------ facts

    def facts_true(self, expr) -> list:
        return facts.facts_when_true(expr, self.int_names, self.constants, self.facts_memo,
                                     self.compiler.predicates) if self.optimize else []

    def facts_false(self, expr) -> list:
        return facts.facts_when_false(expr, self.int_names, self.constants, self.facts_memo,
                                      self.compiler.predicates) if self.optimize else []

    def add_facts(self, known: list) -> None:
        """Facts that hold from here to the end of the innermost block."""
        ranges = self.fact_stack[-1]
        for name, op, k in known:
            ranges[name] = facts.narrow(ranges.get(name) or self.bounds(name), op, k)

    def push_facts(self, known: list) -> None:
        ranges: dict[str, tuple[int, int]] = {}
        for name, op, k in known:
            ranges[name] = facts.narrow(ranges.get(name) or self.bounds(name), op, k)
        self.fact_stack.append(ranges)

    def forget(self, names: set[str]) -> None:
        """Facts about these variables no longer hold (they were given new values)."""
        for known in self.fact_stack:
            for name in names & known.keys():
                del known[name]

    def bounds(self, name: str) -> tuple[int, int]:
        lo, hi = self.ranges.get(name, facts.FULL)
        for known in self.fact_stack:
            if name in known:
                lo, hi = max(lo, known[name][0]), min(hi, known[name][1])
        return lo, hi

    # ------------------------------------------------------------ expressions

    def expr(self, expr) -> Code:
        code = self._expr(expr)
        if not self.optimize and not code.constant:
            code.lo, code.hi = INT_MIN, INT_MAX  # the reference compilation proves nothing
        if len(code.text) > 200 and _nesting(code.text) > _MAX_NESTING:
            return self.hoist(code)
        return code

    def _expr(self, expr) -> Code:
        match expr:
            case ast.IntLit(value=value):
                if value > INT_MAX:
                    raise CompileError("integer literal out of range", expr.span)
                return constant(value)
            case ast.FloatLit(value=value):
                return constant(float(value))
            case ast.BoolLit(value=value):
                return constant(bool(value))
            case ast.NameRef():
                return self.name_ref(expr)
            case ast.Call():
                return self.call(expr)
            case ast.Index(base=base, indexes=indexes):
                array = self.array_of(base.text, expr)
                if array is not None:
                    return self.element_read(array, expr)
                builtin = BUILTINS.get(base.text)
                if builtin is None or builtin.kind is not Kind.BOARD or len(indexes) != 2:
                    raise CompileError(f"'{base.text}' cannot be indexed", expr.span)
                return IMPLEMENTATIONS[base.text](self, expr, [self.expr(i) for i in indexes])
            case ast.Unary(op=op, operand=operand):
                return self.unary(expr, op, operand)
            case ast.Binary():
                return self.binary(expr)
        raise CompileError(f"cannot run this expression ({type(expr).__name__})", expr.span)

    def name_ref(self, expr: ast.NameRef) -> Code:
        text = expr.name.text
        argument = self.arguments.get(text)
        if argument is not None:
            return argument
        array = self.array_of(text, expr)
        if array is not None:  # passed to a function or to sizeOf: the list itself
            return array
        if text in self.local_types:
            kind = self.local_types[text]
            if expr in self.unset:
                return Code(f"(l_{text} if l_{text} is not _U else _unset_local({text!r}, {self.loc(expr.span)}))", kind)
            substitute = self.substitutes.get(text)
            if substitute is not None:
                lo, hi = self.bounds(text)
                return replace(substitute, lo=max(lo, substitute.lo), hi=min(hi, substitute.hi))
            self.read_as_variable.add(text)
            if kind == "int":
                lo, hi = self.bounds(text)
                return Code(f"l_{text}", kind, lo=lo, hi=hi)
            return Code(f"l_{text}", kind)
        index = self.compiler.var_index.get(text)
        if index is not None:
            return Code(f"V[{index}]", self.compiler.var_types[text])
        if text in self.compiler.program.objects:
            return Code(f"o_{text}", "obj", pure=True)
        builtin = BUILTINS.get(ALIASES.get(text, text))
        if builtin is not None and builtin.kind is Kind.VALUE:
            return IMPLEMENTATIONS[builtin.name](self, expr, [])
        raise CompileError(f"'{text}' is not a value", expr.span)

    def call(self, call: ast.Call) -> Code:
        name = call.callee.text
        args = [self.expr(arg) for arg in call.args]
        function = self.compiler.program.functions.get(name)
        if function is not None:
            if len(args) != len(function.params):
                raise CompileError(f"'{name}' takes {len(function.params)} arguments", call.span)
            arms = self.compiler.inlinable.get(name)
            if arms is not None:
                return self.inline(call, function, arms, args)
            texts = [self.depth_arg, *(self.coerce(arg, p.type.name + "[]" * p.rank, arg_node.span).text
                                       for arg, p, arg_node in zip(args, function.params, call.args))]
            result = function.return_type.name if function.return_type else None
            return Code(f"{MARK_START}{self.loc(call.span)}{MARK_END}{self.prefix}{name}({', '.join(texts)})", result)
        builtin = BUILTINS.get(name)
        if builtin is None or builtin.kind is not Kind.FUNCTION:
            raise CompileError(f"'{name}' is not a function", call.span)
        if len(args) != len(builtin.params):
            raise CompileError(f"'{name}' takes {len(builtin.params)} arguments", call.span)
        return IMPLEMENTATIONS[name](self, call, args)

    def inline(self, call: ast.Call, function: ast.FunctionDef, arms, args: list[Code]) -> Code:
        """A call of an inlinable function as an expression: the arguments are evaluated once,
        in order, then one step is counted (as the call would), then the body's arms."""
        arguments: dict[str, Code] = {}
        first: list[str] = []
        for arg, param, node in zip(args, function.params, call.args):
            code = self.coerce(arg, param.type.name + "[]" * param.rank, node.span)
            if not (code.constant or (_is_simple(code.text) and (code.pure or code.text.startswith("l_")))):
                t = self.temp()
                first.append(f"({t} := {code.text})")
                code = Code(t, code.type, None, code.lo, code.hi, sizes=code.sizes)
            arguments[param.name.text] = code
        body = FunctionCompiler(self.compiler, function, self.variant, self, call.span, arguments)
        value = body.arms(arms, function.return_type.name)
        if self.root.count_steps:
            first.append("(ST := ST - 1)")
        if not first:
            return value
        return Code(f"({value.text} if ({', '.join(first)},) else None)", value.type, None, value.lo, value.hi)

    def arms(self, arms, result: str) -> Code:
        """`if (c1) return e1; ... return en;` as one conditional expression."""
        out: Code | None = None
        for cond, value in reversed(arms):
            code = self.coerce(self.expr(value), result, value.span)
            if cond is not None:
                test = self.condition(cond)
                if test.value is False:
                    continue
                if test.value is not True:
                    code = Code(f"({code.text} if {test.text} else {out.text})", result, None,
                                min(code.lo, out.lo), max(code.hi, out.hi), test.pure and code.pure and out.pure)
            out = code
        return out

    def builtin_params(self, node):
        return BUILTINS[node.callee.text].params

    def unary(self, expr: ast.Unary, op: str, operand) -> Code:
        if op == "!":
            value = self.coerce(self.expr(operand), "bool", operand.span)
            if value.constant:
                return constant(not value.value)
            return Code(f"(not {value.text})", "bool", pure=value.pure)
        if isinstance(operand, ast.IntLit) and operand.value <= -INT_MIN:
            return constant(-operand.value)
        value = self.expr(operand)
        loc = self.loc(expr.span)
        if value.type == "int":
            if value.constant:
                return constant(-value.value) if value.value != INT_MIN else Code(f"_overflow({loc})", "int")
            if value.lo > INT_MIN:
                return Code(f"(-{value.text})", "int", lo=-value.hi, hi=-value.lo, pure=value.pure)
            t = self.temp()
            return Code(f"({t} if ({t} := -{value.text}) <= {INT_MAX} else _overflow({loc}))", "int")
        if value.type == "float":
            if value.constant:
                return constant(-value.value)
            return Code(f"(-{value.text})", "float", pure=value.pure)
        if value.type == "dyn":
            return Code(f"_dyn_negate({value.text}, {loc})", "int")
        raise CompileError(f"cannot negate {value.type}", expr.span)

    def binary(self, expr: ast.Binary) -> Code:
        op = expr.op
        if op in ("&&", "||"):
            return self.logic(expr)
        left = self.expr(expr.left)
        right = self.expr(expr.right)
        loc = self.loc(expr.op_span)
        if "dyn" in (left.type, right.type):
            return self.dynamic(op, left, right, loc)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            if left.constant and right.constant:
                return constant(COMPARISONS[op](left.value, right.value))
            if op in ("==", "!="):
                return self.equality(op, left, right, expr)
            a, b = self.numbers(left, right, expr)
            return Code(f"({a} {op} {b})", "bool", pure=left.pure and right.pure)
        return self.arithmetic(op, left, right, loc, expr)

    def logic(self, expr: ast.Binary) -> Code:
        """`&&` / `||`: short-circuit; the right side is compiled knowing what the left implies."""
        op = expr.op
        left = self.coerce(self.expr(expr.left), "bool", expr.left.span)
        if left.constant and left.value == (op == "||"):
            return left  # true || ..., false && ...: the right side never runs
        self.push_facts(self.facts_true(expr.left) if op == "&&" else self.facts_false(expr.left))
        right = self.coerce(self.expr(expr.right), "bool", expr.right.span)
        self.fact_stack.pop()
        if left.constant:
            return right
        if right.constant and right.value == (op == "&&"):
            return left  # x && true, x || false
        return Code(f"({left.text} {'and' if op == '&&' else 'or'} {right.text})", "bool",
                    pure=left.pure and right.pure)

    def numbers(self, left: Code, right: Code, expr) -> tuple[str, str]:
        """Both operands as numbers of one type (an int beside a float becomes a float)."""
        for side in (left, right):
            if side.type not in ("int", "float"):
                raise CompileError(f"'{expr.op}' takes numbers, not {side.type}", expr.span)
        if left.type == right.type:
            return left.text, right.text
        return self.coerce(left, "float", expr.span).text, self.coerce(right, "float", expr.span).text

    def equality(self, op: str, left: Code, right: Code, expr) -> Code:
        pure = left.pure and right.pure
        if left.type == "obj" and right.type == "obj":
            return Code(f"({left.text} {'is' if op == '==' else 'is not'} {right.text})", "bool", pure=pure)
        if left.type == right.type == "bool":
            return Code(f"({left.text} {op} {right.text})", "bool", pure=pure)
        a, b = self.numbers(left, right, expr)
        return Code(f"({a} {op} {b})", "bool", pure=pure)

    def arithmetic(self, op: str, left: Code, right: Code, loc: int, expr) -> Code:
        if left.type == right.type == "int":
            if left.constant and right.constant:
                try:
                    return constant(_fold(op, left.value, right.value, loc))
                except Fail:
                    pass  # fails when (if ever) it runs
            if op == "/":
                return Code(f"_int_div({left.text}, {right.text}, {loc})", "int")
            if op == "%":
                return Code(f"_int_mod({left.text}, {right.text}, {loc})", "int")
            return self.checked(op, left, right, loc)
        a, b = self.numbers(left, right, expr)
        if op == "/":
            return Code(f"_float_div({a}, {b}, {loc})", "float")
        if op == "%":
            return Code(f"_float_mod({a}, {b}, {loc})", "float")
        return Code(f"({a} {op} {b})", "float", pure=left.pure and right.pure)

    def checked(self, op: str, left: Code, right: Code, loc: int) -> Code:
        """An int `+ - *`. When the operands' ranges keep the result inside 64 bits it is plain
        Python; otherwise the overflow test is inlined (one-sided when adding a constant)."""
        if op == "+":
            corners = (left.lo + right.lo, left.hi + right.hi)
        elif op == "-":
            corners = (left.lo - right.hi, left.hi - right.lo)
        else:
            corners = (left.lo * right.lo, left.lo * right.hi, left.hi * right.lo, left.hi * right.hi)
        lo, hi = min(corners), max(corners)
        text = f"{left.text} {op} {right.text}"
        if INT_MIN <= lo and hi <= INT_MAX:
            return Code(f"({text})", "int", lo=lo, hi=hi, pure=left.pure and right.pure)
        t = self.temp()
        if lo >= INT_MIN:
            test = f"({t} := {text}) <= {INT_MAX}"
        elif hi <= INT_MAX:
            test = f"({t} := {text}) >= {INT_MIN}"
        else:
            test = f"{INT_MIN} <= ({t} := {text}) <= {INT_MAX}"
        return Code(f"({t} if {test} else _overflow({loc}))", "int",
                    lo=max(lo, INT_MIN), hi=min(hi, INT_MAX))

    def dynamic(self, op: str, left: Code, right: Code, loc: int) -> Code:
        """An operand's type is known only at run time: the operation checks it then."""
        if op in ("==", "!="):
            code = f"_dyn_equal({left.text}, {right.text}, {loc})"
            return Code(code if op == "==" else f"(not {code})", "bool")
        if op in ("<", "<=", ">", ">="):
            return Code(f"_dyn_order({op!r}, {left.text}, {right.text}, {loc})", "bool")
        result = "float" if "float" in (left.type, right.type) else "int"
        return Code(f"_dyn_arith({op!r}, {left.text}, {right.text}, {loc})", result)

    def coerce(self, code: Code, want: str, span: Span) -> Code:
        """The value as type `want`: ints widen to float; values typed only at run time are
        checked then."""
        have = code.type
        if have == want:
            return code
        if have == "int" and want == "float":
            if code.constant:
                return constant(float(code.value))
            return Code(f"float({code.text})", "float", pure=code.pure)
        if have == "dyn":
            return Code(f"_as_{want}({code.text}, {self.loc(span)})", want)
        raise CompileError(f"a {have} value where {want} is needed", span)

    def hoist(self, code: Code) -> Code:
        """Move a deeply nested expression into a helper function of its own."""
        self.compiler.helper_count += 1
        name = f"_h{self.compiler.helper_count}"
        used = locals_used(code.text)
        params = ", ".join(["_d", *used])
        self.compiler.blocks.append([(1, f"def {name}({params}):", None), (2, "nonlocal ST", None),
                                     (2, f"return ({code.text})", None)])
        return replace(code, text=f"{name}({params})")

    # ------------------------------------------------------------ board access (built-ins)

    def bind(self, code: Code) -> tuple[str, str]:
        """(text that evaluates the value the first time, text that reuses it)."""
        if _is_simple(code.text):
            return code.text, code.text
        t = self.temp()
        return f"({t} := {code.text})", t

    def board_read(self, board: str, node: ast.Index, args: list[Code]) -> Code:
        w, h = self.compiler.width, self.compiler.height
        x = self.coerce(args[0], "int", node.indexes[0].span)
        y = self.coerce(args[1], "int", node.indexes[1].span)
        loc = self.loc(node.span)
        if (x.constant and not 0 <= x.value < w) or (y.constant and not 0 <= y.value < h):
            return Code(f"_off_board({x.text}, {y.text}, {loc})", "obj")
        if self.variant and board == "N":
            return self.next_position_one(x, y, loc)
        if x.constant and y.constant:
            return Code(f"{board}[{x.value * h + y.value}]", "obj")
        tests: list[str] = []
        x_use = self.index_part(x, w, tests)
        y_use = self.index_part(y, h, tests)
        index = f"{x.value * h}+{y_use}" if x.constant else f"{x_use}*{h}+{y_use}"
        if not tests:
            return Code(f"{board}[{index}]", "obj")
        return Code(f"({board}[{index}] if {' & '.join(tests)} else _off_board({x_use}, {y_use}, {loc}))", "obj")

    def index_part(self, code: Code, limit: int, tests: list[str]) -> str:
        """Prepare one board index: the text that reads its value, after `tests` (run first, in
        order) have evaluated it once and checked `0 <= value < limit` unless its range proves it."""
        on_board = 0 <= code.lo and code.hi < limit
        if code.constant and not on_board:
            tests.append("False")  # a constant off the board: the test always fails
            return code.text
        if code.constant or (on_board and code.pure):
            return code.text  # nothing to test, and when it is evaluated does not matter
        first, use = self.bind(code)
        if not on_board or first != use:
            tests.append(f"(0 <= {first} < {limit})")
        return use

    def next_position_one(self, x: Code, y: Code, loc: int) -> Code:
        """NextPosition[x][y] in the single-operation variant: the operation's object on its
        square, the current position elsewhere."""
        if x.text == "PX" and y.text == "PY":
            return Code("(PO)", "obj", pure=True)
        w, h = self.compiler.width, self.compiler.height
        tests: list[str] = []
        x_use = self.index_part(x, w, tests)
        y_use = self.index_part(y, h, tests)
        read = f"(PO if {x_use} == PX and {y_use} == PY else B[{x_use}*{h}+{y_use}])"
        if not tests:
            return Code(read, "obj")
        return Code(f"({read} if {' & '.join(tests)} else _off_board({x_use}, {y_use}, {loc}))", "obj")

    def operation_part(self, node, index_expr: Code, field_number: int, result: str) -> Code:
        """Field `field_number` of operation `index_expr` (0 x, 1 y, 2 object, 3 is-place)."""
        i = self.coerce(index_expr, "int", node.span)
        loc = self.loc(node.span)
        w, h = self.compiler.width, self.compiler.height
        ranges = {0: (0, w - 1), 1: (0, h - 1)}.get(field_number, (INT_MIN, INT_MAX))
        if i.constant:
            if i.value < 0:
                return Code(f"_bad_operation({i.value}, {loc})", result)
            if self.variant and i.value == 0:
                return Code(("PX", "PY", "PO", "PP")[field_number], result, None, *ranges, True)
            return Code(f"(OPS[{i.value}][{field_number}] if NOPS > {i.value} else _bad_operation({i.value}, {loc}))",
                        result, None, *ranges)
        first, use = self.bind(i)
        return Code(f"(OPS[{use}][{field_number}] if 0 <= {first} < NOPS else _bad_operation({use}, {loc}))",
                    result, None, *ranges)

    def operation_field(self, node: ast.Index, args: list[Code]) -> Code:
        j = self.coerce(args[1], "int", node.indexes[1].span)
        if j.constant and j.value in (0, 1, 2):
            return self.operation_part(node, args[0], j.value, "obj" if j.value == 2 else "int")
        i = self.coerce(args[0], "int", node.indexes[0].span)
        return Code(f"_operation_field({i.text}, {j.text}, {self.loc(node.span)})", "dyn")


def _fold(op: str, a: int, b: int, loc: int) -> int:
    """Constant int arithmetic at compile time, with the run-time semantics."""
    if op == "/":
        return int_div(a, b, loc)
    if op == "%":
        return int_mod(a, b, loc)
    value = a + b if op == "+" else a - b if op == "-" else a * b
    if not INT_MIN <= value <= INT_MAX:
        raise Fail("G602", "overflow", loc)
    return value


def locals_used(text: str) -> list[str]:
    """The compiled locals (`l_...`) an expression reads: Python names, never the text of a
    string literal in it (an error message may quote a gdef name that starts with `l_`)."""
    import io
    import tokenize

    names = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NAME and token.string.startswith("l_"):
            names.add(token.string)
    return sorted(names)


_NOT_BRACKET = re.compile(r"[^()\[\]]+")


def _nesting(text: str) -> int:
    depth = deepest = 0
    for char in _NOT_BRACKET.sub("", text):
        if char in "([":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif char in ")]":
            depth -= 1
    return deepest


def is_array_type(type_name: str | None) -> bool:
    return type_name is not None and type_name.endswith("[]")


def element_of(type_name: str) -> str:
    return type_name.split("[", 1)[0]


def _read_name(node) -> str:
    """The local a possibly-unset read reads: a NameRef's name, an element read's array."""
    return node.name.text if isinstance(node, ast.NameRef) else node.base.text
