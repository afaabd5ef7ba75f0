"""One gdef function of the IR (gdef_core/lower/ir.py) -> one Python function (see codegen.py
for the whole program).

Expressions become Python expressions with the language's checks inlined. What the compiler can
prove makes checks disappear: every Code carries the range of its int value, so a board read
whose indexes are known to be on the board is a plain list subscript and a sum that cannot
leave 64 bits is a plain `+`. Ranges come from constants, from the built-ins (an operation's x
is on the board, onTurn() is a player), from locals assigned once, and from the conditions
around the code (`x >= 0 && x < 7 && ...`, `if (y > 0) { ... }`: lower/facts.py). A local
assigned once from an invariant value (a constant, onTurn(), an operation's field in the
single-operation variant) is replaced by that value.

The single-operation variant (`variant=True`) compiles the functions reachable from
isMoveLegal() for a move of exactly one operation, whose x, y, object and kind sit in the cells
PX, PY, PO, PP: operationsNum() is the constant 1, OperationList[0][j] is a cell, and
NextPosition needs no copy of the board. Candidate moves of one operation are judged by it.

What the whole program needs to know of a compiled function is recorded as it is compiled
(`Uses`), never read back from the generated text.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from gdef_core.lower import facts, inlining, ir
from gdef_core.lower.ir import Check
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS
from gdef_core.lower.values import INT_MAX, INT_MIN
from gdef_core.runtime.builtin_impl import IMPLEMENTATIONS
from gdef_core.runtime.code import Code, constant
from gdef_core.runtime.errors import Fail
from gdef_core.runtime.ops import COMPARISONS, int_div, int_mod
from gdef_core.span import Span

# Marks, inside generated expression text, where a gdef call starts: a new line is started
# there and mapped to the call's span.
MARK_START, MARK_END = "\x00", "\x01"

# Expressions nested deeper (in brackets, as each construct below nests its parts) are moved
# into a helper function: Python's tokenizer allows 200 nested parentheses at most.
_MAX_NESTING = 80

# An `else if` arm knows that the conditions before it were false; past this many facts a
# long chain would cost time quadratic in its length (each arm narrowing every fact again).
_MAX_CHAIN_FACTS = 64

# The cells of the generated factory an expression reads, as the single-operation judge over
# local variables names them (codegen.Compiler.local_judge); objects are `_o_NAME` there.
CELL_NAMES = {name: name for name in ("B", "N", "R", "PB", "T", "MN", "V", "PX", "PY", "PO", "PP", "EMPTY", "OPS", "NOPS")}
LOCAL_NAMES = {**CELL_NAMES, "B": "b", "T": "t", "MN": "mn", "V": "v", "PX": "px", "PY": "py", "PO": "po",
               "PP": "pp", "EMPTY": "_empty", "OPS": "ops", "NOPS": "1"}


class CompileError(Exception):
    """A construct the checker should have rejected (a bug of the checker or the compiler, never
    of the rules file), or rules nested beyond what Python can compile; carries the gdef span."""

    def __init__(self, message: str, span: Span) -> None:
        super().__init__(f"{span}: {message}")
        self.message = message
        self.span = span


@dataclass
class Uses:
    """What a compiled function's code uses, recorded as it is emitted: `calls` (a gdef function
    not inlined, or a hoisted helper: it needs the depth `_d`), `locals` (its locals are read),
    `steps` (step counts inside expressions), `cells` ("ST" when an expression counts steps),
    `quoted` (a string literal: a name in an error message), `dynamic` (a value typed at run
    time), `objects` (the objects named)."""

    calls: bool = False
    locals: bool = False
    steps: int = 0
    cells: set = field(default_factory=set)
    quoted: bool = False
    dynamic: bool = False
    objects: set = field(default_factory=set)


class FunctionCompiler:
    """Compiles one IR function (or the game variables' initialisers)."""

    def __init__(self, compiler, function: ir.Function, variant: bool = False,
                 inlined_into: "FunctionCompiler | None" = None, call_span: Span | None = None,
                 arguments: dict[str, tuple[Code, frozenset]] | None = None, count_steps: bool = True,
                 names: dict[str, str] = CELL_NAMES) -> None:
        """`inlined_into`: compile `function`'s arms as an expression inside that compiler's
        function, for the call at `call_span`, its parameters being `arguments` (each with
        the locals its text reads). `count_steps=False`: inlined calls do not count their
        step (for code whose steps are known to stay within the budget). `names`: what the
        cells are called (LOCAL_NAMES: locals of the judge over one operation)."""
        self.count_steps = count_steps
        self.compiler = compiler
        self.function = function
        self.name = function.name
        self.variant = variant
        self.names = inlined_into.names if inlined_into else names
        self.arguments = arguments or {}
        self.root = inlined_into.root if inlined_into else self
        self.chain = (*inlined_into.chain, (self.name, call_span)) if inlined_into else ()
        self.prefix = "u1_" if variant else "u_"
        self.local_types = function.locals
        declarations: dict[str, int] = {}
        for node in ir.walk(function.body):
            if isinstance(node, (ir.Declare, ir.DeclareArray)):
                declarations[node.name] = declarations.get(node.name, 0) + 1
        self.declarations = declarations
        # Array locals: name -> sizes known at compile time (each an int or None).
        self.array_sizes: dict[str, tuple] = {}
        # The loops being compiled, innermost last: the `for` step to run on `continue`.
        self.loops: list[tuple] = []
        self.optimize = compiler.optimize
        # Locals and parameters that keep one value once set: their range and facts about them
        # hold everywhere after their declaration.
        self.stable = set(function.stable) if self.optimize else set()
        self.int_names = {name for name, kind in self.local_types.items() if kind == "int"}
        self.constants: dict[str, int] = {"operationsNum": 1} if variant else {}
        params = {name for name, _ in function.params}
        # Ranges valid wherever the variable is read; facts (below) add what conditions imply.
        self.ranges: dict[str, tuple[int, int]] = facts.monotone_bounds(
            function.body, self.int_names - params, self.constants) if self.optimize else {}
        self.substitutes: dict[str, Code] = {}
        self.read_as_variable: set[str] = set()
        self.fact_stack: list[dict[str, tuple[int, int]]] = []
        self.facts_memo: dict = {}
        self.lines: list[tuple[int, str, Span | None]] = []
        self.temps = 0
        self.uses = Uses()
        # Per expression being compiled, innermost last: [the deepest nesting of its parts,
        # the brackets it adds around them, the locals it reads].
        self.frames: list[list] = []
        # Only functions on a cycle of the call graph can nest without bound: they check the
        # depth and the step budget on entry, and count one level of depth for their callees.
        self.recursive = function.recursive
        contexts = function.contexts
        self.only_context = next(iter(contexts)) if len(contexts) == 1 else None
        if inlined_into is not None:
            self.only_context = inlined_into.only_context
        self.depth_arg = "_d + 1" if self.recursive else "_d"
        # The returned expression when the body is one `return` (codegen's judge in place of a call).
        self.returned: Code | None = None
        self.returned_at = -1  # the line of the last `return (e)` emitted

    def loc(self, span: Span) -> int:
        return self.compiler.loc(span, self.chain)

    def temp(self) -> str:
        root = self.root
        root.temps += 1
        return f"_t{root.temps}"

    def cell(self, name: str) -> str:
        return self.names[name]

    def quoted(self, text: str) -> str:
        """A string literal in the generated code (a gdef name for an error message)."""
        self.root.uses.quoted = True
        return repr(text)

    def nests(self, brackets: int) -> None:
        """The expression being compiled puts its parts inside this many brackets."""
        if self.root.frames:
            frame = self.root.frames[-1]
            frame[1] = max(frame[1], brackets)

    def reads(self, local: str) -> None:
        self.root.uses.locals = True
        if self.root.frames:
            self.root.frames[-1][2].add(local)

    # ------------------------------------------------------------ function

    def compile(self) -> list[tuple[int, str, Span | None]]:
        function = self.function
        params = ", ".join(["_d", *(f"l_{name}" for name, _ in function.params)])
        self.emit(1, f"def {self.prefix}{self.name}({params}):", function.span)
        self.emit(2, "nonlocal ST", None)
        self.emit(2, "ST -= 1", None)
        enter, *body = function.body
        if enter.depth:
            self.emit(2, f"if ST < 0 or _d > {self.compiler.max_depth}: _enter_failed(_d)", None)
        elif self.compiler.graph.calls_not_inlined(self.name, self.compiler.arms):
            # Without recursion a call tree can still grow exponentially (f calls g twice, g
            # calls h twice, ...): every function that calls others checks the budget on entry.
            self.emit(2, "if ST < 0: _enter_failed(_d)", None)
        unset = sorted({node.name for node in ir.walk(body)
                        if isinstance(node, ir.Local) and Check.UNSET in node.checks})
        for name in unset:
            self.emit(2, f"l_{name} = _U", None)
        self.block(body, 2)
        if not (len(self.lines) == 4 and self.returned_at == 3):  # more than `return (e)` after the prologue
            self.returned = None
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
            self.forget(facts.written_names((stmt,)))
            if self.optimize and facts.is_guard(stmt):  # `if (c) { ... continue; }`: not c from here on
                self.add_facts(self.facts_false(stmt.cond))
        self.fact_stack.pop()
        if len(self.lines) == start:
            self.emit(indent, "pass", None)

    def stmt(self, stmt, indent: int) -> None:
        match stmt:
            case ir.DeclareArray():
                self.declare_array(stmt, indent)
            case ir.Declare(name=name, value=value):
                self.declare(name, value, stmt, indent)
            case ir.Assign(target=ir.Element() as target, value=value):
                self.assign_element(target, value, stmt, indent)
            case ir.Assign(target=target, value=value):
                self.assign(target, value, stmt, indent)
            case ir.Loop():
                self.loop(stmt, indent)
            case ir.Break():
                self.emit(indent, "break", stmt.span)
            case ir.Continue():
                for step in self.loops[-1] if self.loops else ():  # a `for` runs its step first
                    self.stmt(step, indent)
                self.emit(indent, "continue", stmt.span)
            case ir.Eval(expr=expr):
                code = self.expr(expr)
                if not code.pure:
                    self.emit(indent, f"({code.text})", stmt.span)
            case ir.Return(value=None):
                self.emit(indent, "return", stmt.span)
            case ir.Return(value=value):
                code = self.expr(value)
                self.returned, self.returned_at = code, len(self.lines)
                self.emit(indent, f"return ({code.text})", stmt.span)
            case ir.If():
                self.if_chain(stmt, indent)
            case ir.Fail(check=Check.NO_RETURN):
                self.emit(indent, f"_no_return({self.quoted(self.name)}, {self.loc(stmt.span)})", stmt.span)
            case _:
                raise CompileError(f"cannot run this statement ({type(stmt).__name__})", stmt.span)

    def declare(self, name: str, value_node, stmt, indent: int) -> None:
        value = self.expr(value_node)
        if name in self.stable:
            lo, hi = self.ranges.get(name, facts.FULL)
            self.ranges[name] = (max(lo, value.lo), min(hi, value.hi))
            if value.pure and name not in self.read_as_variable:
                self.substitutes[name] = value  # every read becomes the value itself
                if value.lo == value.hi:  # `int w = boardWidth();`: facts may compare with w
                    self.constants[facts.local_constant(name)] = value.lo
                return
        self.emit(indent, f"l_{name} = ({value.text})", stmt.span)

    def assign(self, target, value_node, stmt, indent: int) -> None:
        code = self.expr(value_node)
        if isinstance(target, ir.Local):
            self.emit(indent, f"l_{target.name} = ({code.text})", stmt.span)
            return
        index = self.compiler.var_index[target.name]
        self.emit(indent, f"if RO: _read_only({self.quoted(target.name)}, {self.loc(stmt.span)})", stmt.span)
        self.emit(indent, f"{self.cell('V')}[{index}] = ({code.text})", stmt.span)

    def if_chain(self, stmt: ir.If, indent: int) -> None:
        """if / elif / else, without the arms a constant condition rules out; each arm knows
        its condition and the negation of the ones before it."""
        keyword = "if"
        before: list = []  # facts: every earlier condition was false
        while True:
            cond = self.expr(stmt.cond)
            if cond.value is not False:
                arm_facts = before + self.facts_true(stmt.cond)
                if cond.value is True:  # always taken: the rest of the chain is dead
                    if keyword == "if":
                        self.block(stmt.then, indent, arm_facts)
                    else:
                        self.emit(indent, "else:", stmt.span)
                        self.block(stmt.then, indent + 1, arm_facts)
                    return
                self.emit(indent, f"{keyword} ({cond.text}):", stmt.span)
                self.block(stmt.then, indent + 1, arm_facts)
                keyword = "elif"
            if len(before) < _MAX_CHAIN_FACTS:  # fewer facts only keep more checks
                before = before + self.facts_false(stmt.cond)
            otherwise = stmt.otherwise
            if len(otherwise) == 1 and isinstance(otherwise[0], ir.If):
                stmt = otherwise[0]
                continue
            if otherwise:
                if keyword == "if":
                    self.block(otherwise, indent, before)
                else:
                    self.emit(indent, "else:", None)
                    self.block(otherwise, indent + 1, before)
            return

    def loop(self, stmt: ir.Loop, indent: int) -> None:
        """A `while`, or the loop of a `for` (its step runs after the body and on `continue`)."""
        self.forget(facts.written_names(stmt.body) | facts.written_names(stmt.step))
        cond = self.expr(stmt.cond) if stmt.cond is not None else constant(True)
        if cond.value is False:
            return
        self.emit(indent, "while True:" if cond.value is True else f"while ({cond.text}):", stmt.span)
        self.emit(indent + 1, "ST -= 1", stmt.span)
        self.emit(indent + 1, f"if ST < 0: _loop_limit({self.compiler.max_steps}, {self.loc(stmt.span)})",
                  stmt.span)
        self.loops.append(stmt.step)
        self.block((*stmt.body, *stmt.step), indent + 1,
                   self.facts_true(stmt.cond) if stmt.cond is not None else [])
        self.loops.pop()

    # ------------------------------------------------------------ arrays

    def declare_array(self, stmt: ir.DeclareArray, indent: int) -> None:
        """A local array: the sizes are evaluated and checked, the elements counted against the
        step budget, then the initialiser fills it (one value, or the list of every element)."""
        loc = self.loc(stmt.span)
        sizes = [self.expr(size) for size in stmt.sizes]
        known = tuple(size.value if size.constant else None for size in sizes)
        texts = []
        for size in sizes:
            if size.constant or size.simple:
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
        if self.declarations.get(stmt.name, 0) <= 1:
            self.array_sizes[stmt.name] = known
        if stmt.rows is not None:
            value = self.array_literal(stmt.rows, texts, known, loc, stmt.span, indent)
        else:
            fill = self.expr(stmt.fill)
            if not (fill.constant or fill.simple):
                t = self.temp()
                self.emit(indent, f"{t} = ({fill.text})", stmt.span)
                fill = Code(t, fill.type, simple=True)
            value = (f"[{fill.text}] * {texts[0]}" if len(texts) == 1
                     else f"[[{fill.text}] * {texts[1]} for _ in range({texts[0]})]")
        self.emit(indent, f"l_{stmt.name} = {value}", stmt.span)

    def array_literal(self, rows: tuple, texts: list, known: tuple, loc: int, span: Span, indent: int) -> str:
        """The list of every element; when the sizes are known only at run time, the number of
        elements is checked first (spec 15.1: before any element is evaluated)."""
        shape = (len(rows),) if len(texts) == 1 else (len(rows), len(rows[0]) if rows else 0)
        # Sizes the optimiser knows (`int n = boardWidth();`) but the checker does not: a list
        # that does not fit is the run-time error of spec 15.1, not a short array.
        if None in known or shape != known:
            self.emit(indent, f"_array_shape(({', '.join(texts)},), {shape}, {loc})", span)
        if len(texts) == 1:
            return "[" + ", ".join(self.expr(item).text for item in rows) + "]"
        return "[" + ", ".join("[" + ", ".join(self.expr(item).text for item in row) + "]" for row in rows) + "]"

    def array_of(self, node: ir.Local | ir.GameVar) -> Code:
        """An array (a local, a parameter, an inlined call's argument or a game variable) as Code."""
        if isinstance(node, ir.GameVar):
            decl = self.compiler.module.game_vars[node.name]
            return Code(f"{self.cell('V')}[{self.compiler.var_index[node.name]}]", decl.type, sizes=decl.sizes)
        argument = self.arguments.get(node.name)
        if argument is not None:
            code, reads = argument
            for local in reads:
                self.reads(local)
            return code
        text = f"l_{node.name}"
        self.reads(text)
        sizes = self.array_sizes.get(node.name)
        if Check.UNSET in node.checks:
            text = f"({text} if {text} is not _U else _unset_local({self.quoted(node.name)}, {self.loc(node.span)}))"
            return Code(text, node.type, sizes=sizes)
        return Code(text, node.type, sizes=sizes, simple=True, local=node.name)

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
            if prelude is not None and not (code.constant or code.simple):
                t = self.temp()
                prelude.append(f"{t} = ({code.text})")
                code = Code(t, "int", None, code.lo, code.hi, True, simple=True)
            if size is None:
                first, use = self.bind(code)
                tests.append(f"(0 <= {first} < len({base}{'[0]' * dim}))")
                uses.append(use)
            else:
                uses.append(self.index_part(code, size, tests))
        return uses, tests

    def element_read(self, node: ir.Element) -> Code:
        array = self.array_of(node.array)
        indexes = [self.expr(i) for i in node.indexes]
        uses, tests = self.element_indexes(array, indexes, None)
        read = array.text + "".join(f"[{use}]" for use in uses)
        if not tests:
            return Code(read, node.type)
        self.nests(3)
        failed = (f"_bad_index({array.text}, ({', '.join(uses)},), {self.quoted(node.array.name)}, "
                  f"{self.loc(node.span)})")
        return Code(f"({read} if {' & '.join(tests)} else {failed})", node.type)

    def assign_element(self, target: ir.Element, value, stmt, indent: int) -> None:
        name = target.array.name
        array = self.array_of(target.array)
        if isinstance(target.array, ir.GameVar):  # a game variable: only where they may be assigned
            self.emit(indent, f"if RO: _read_only({self.quoted(name)}, {self.loc(stmt.span)})", stmt.span)
        indexes = [self.expr(i) for i in target.indexes]
        prelude: list[str] = []
        uses, tests = self.element_indexes(array, indexes, prelude)
        for line in prelude:
            self.emit(indent, line, stmt.span)
        if tests:
            self.emit(indent, f"if not ({' & '.join(tests)}): _bad_index({array.text}, ({', '.join(uses)},), "
                              f"{self.quoted(name)}, {self.loc(target.span)})", stmt.span)
        code = self.expr(value)
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

    def expr(self, node) -> Code:
        frames = self.root.frames
        frames.append([0, 1, set()])
        code = self._expr(node)
        deepest, brackets, reads = frames.pop()
        if not self.optimize and not code.constant:
            code.lo, code.hi = INT_MIN, INT_MAX  # the reference compilation proves nothing
        nesting = deepest + brackets
        if nesting > _MAX_NESTING:
            code = self.hoist(code, reads)
            nesting = 1
        if frames:
            frames[-1][0] = max(frames[-1][0], nesting)
            frames[-1][2] |= reads
        return code

    def _expr(self, node) -> Code:
        match node:
            case ir.Const(value=value):
                return constant(value)
            case ir.Object(name=name, number=number):
                if number == 0:
                    return Code(self.cell("EMPTY"), "obj", pure=True, simple=True)
                self.root.uses.objects.add(name)
                prefix = "_o_" if self.names is LOCAL_NAMES else "o_"
                return Code(f"{prefix}{name}", "obj", pure=True, simple=True)
            case ir.Local():
                return self.local(node)
            case ir.GameVar(name=name, type=kind):
                if kind.endswith("[]"):
                    return self.array_of(node)
                return Code(f"{self.cell('V')}[{self.compiler.var_index[name]}]", kind)
            case ir.Element():
                return self.element_read(node)
            case ir.Board(builtin=builtin, indexes=indexes):
                return IMPLEMENTATIONS[builtin.name](self, node, [self.expr(i) for i in indexes])
            case ir.CallBuiltin(builtin=builtin, args=args):
                # each implementation converts its arguments itself, located at the call
                return IMPLEMENTATIONS[builtin.name](self, node, [self.expr(_unconverted(arg)) for arg in args])
            case ir.CallFunction():
                return self.call(node)
            case ir.Unary():
                return self.unary(node)
            case ir.Binary():
                return self.binary(node)
            case ir.Logic():
                return self.logic(node)
            case ir.Convert(value=value, type=want):
                return self.coerce(self.expr(value), want, node.span)
        raise CompileError(f"cannot run this expression ({type(node).__name__})", node.span)

    def local(self, node: ir.Local) -> Code:
        name = node.name
        argument = self.arguments.get(name)
        if argument is not None:
            code, reads = argument
            for local in reads:
                self.reads(local)
            return code
        kind = node.type
        if kind.endswith("[]"):  # passed to a function or to sizeOf: the list itself
            return self.array_of(node)
        if Check.UNSET in node.checks:
            self.reads(f"l_{name}")
            return Code(f"(l_{name} if l_{name} is not _U else _unset_local({self.quoted(name)}, "
                        f"{self.loc(node.span)}))", kind)
        substitute = self.substitutes.get(name)
        if substitute is not None:
            lo, hi = self.bounds(name)
            return replace(substitute, lo=max(lo, substitute.lo), hi=min(hi, substitute.hi))
        self.read_as_variable.add(name)
        self.reads(f"l_{name}")
        if kind == "int":
            lo, hi = self.bounds(name)
            return Code(f"l_{name}", kind, lo=lo, hi=hi, simple=True, local=name)
        return Code(f"l_{name}", kind, simple=True, local=name)

    def call(self, node: ir.CallFunction) -> Code:
        args = [self.expr(arg) for arg in node.args]
        arms = self.compiler.arms.get(node.name)
        if arms is not None:
            return self.inline(node, arms, args)
        self.root.uses.calls = True
        texts = [self.depth_arg, *(arg.text for arg in args)]
        return Code(f"{MARK_START}{self.loc(node.span)}{MARK_END}{self.prefix}{node.name}({', '.join(texts)})",
                    node.type)

    def inline(self, node: ir.CallFunction, arms, args: list[Code]) -> Code:
        """A call of an inlinable function as an expression: the arguments are evaluated once,
        in order, then one step is counted (as the call would), then the body's arms."""
        function = self.compiler.module.functions[node.name]
        arguments: dict[str, tuple[Code, frozenset]] = {}
        first: list[str] = []
        for code, (param, _) in zip(args, function.params):
            if code.constant or (code.simple and (code.pure or code.local is not None)):
                arguments[param] = (code, frozenset({f"l_{code.local}"} if code.local is not None else ()))
                continue
            t = self.temp()
            first.append(f"({t} := {code.text})")
            arguments[param] = (Code(t, code.type, None, code.lo, code.hi, sizes=code.sizes, simple=True),
                                frozenset())
        body = FunctionCompiler(self.compiler, function, self.variant, self, node.span, arguments)
        self.nests(3 + len(arms))  # the arguments' temporaries, then one conditional per arm
        value = body.arms(arms)
        if self.root.count_steps:
            first.append("(ST := ST - 1)")
            self.root.uses.steps += 1
            self.root.uses.cells.add("ST")
        if not first:
            return value
        return Code(f"({value.text} if ({', '.join(first)},) else None)", value.type, None, value.lo, value.hi)

    def arms(self, arms) -> Code:
        """`if (c1) return e1; ... return en;` as one conditional expression."""
        out: Code | None = None
        for cond, value in reversed(arms):
            code = self.expr(value)
            if cond is not None:
                test = self.expr(cond)
                if test.value is False:
                    continue
                if test.value is not True:
                    code = Code(f"({code.text} if {test.text} else {out.text})", code.type, None,
                                min(code.lo, out.lo), max(code.hi, out.hi), test.pure and code.pure and out.pure)
            out = code
        return out

    def unary(self, node: ir.Unary) -> Code:
        if node.op == "!":
            value = self.expr(node.operand)
            if value.constant:
                return constant(not value.value)
            return Code(f"(not {value.text})", "bool", pure=value.pure)
        operand = _unconverted(node.operand)
        value = self.expr(operand)
        loc = self.loc(node.span)
        if value.type == "dyn":
            self.root.uses.dynamic = True
            return Code(f"_dyn_negate({value.text}, {loc})", "int")
        if value.type == "int":
            if value.constant:
                return constant(-value.value) if value.value != INT_MIN else Code(f"_overflow({loc})", "int")
            if value.lo > INT_MIN:
                return Code(f"(-{value.text})", "int", lo=-value.hi, hi=-value.lo, pure=value.pure,
                            simple=value.simple)
            t = self.temp()
            self.nests(2)
            return Code(f"({t} if ({t} := -{value.text}) <= {INT_MAX} else _overflow({loc}))", "int")
        if value.constant:
            return constant(-value.value)
        return Code(f"(-{value.text})", "float", pure=value.pure, simple=value.simple)

    def binary(self, node: ir.Binary) -> Code:
        op = node.op
        raw_left, raw_right = _unconverted(node.left), _unconverted(node.right)
        if "dyn" in (raw_left.type, raw_right.type):
            left, right = self.expr(raw_left), self.expr(raw_right)
            return self.dynamic(op, left, right, self.loc(node.op_span))
        left = self.expr(node.left)
        right = self.expr(node.right)
        loc = self.loc(node.op_span)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            if left.constant and right.constant:
                return constant(COMPARISONS[op](left.value, right.value))
            pure = left.pure and right.pure
            if left.type == "obj":
                return Code(f"({left.text} {'is' if op == '==' else 'is not'} {right.text})", "bool", pure=pure)
            return Code(f"({left.text} {op} {right.text})", "bool", pure=pure)
        if left.type == "int":
            if left.constant and right.constant:
                try:
                    return constant(_fold(op, left.value, right.value, loc))
                except Fail:
                    pass  # fails when (if ever) it runs
            if op in ("/", "%") and right.constant and right.value > 0 and left.lo >= 0:
                return _natural(op, left, right.value)
            if op == "/":
                return Code(f"_int_div({left.text}, {right.text}, {loc})", "int")
            if op == "%":
                return Code(f"_int_mod({left.text}, {right.text}, {loc})", "int")
            return self.checked(op, left, right, loc)
        if op == "/":
            return Code(f"_float_div({left.text}, {right.text}, {loc})", "float")
        if op == "%":
            return Code(f"_float_mod({left.text}, {right.text}, {loc})", "float")
        return Code(f"({left.text} {op} {right.text})", "float", pure=left.pure and right.pure)

    def logic(self, node: ir.Logic) -> Code:
        """`&&` / `||`: short-circuit; the right side is compiled knowing what the left implies."""
        op = node.op
        left = self.expr(node.left)
        if left.constant and left.value == (op == "||"):
            return left  # true || ..., false && ...: the right side never runs
        self.push_facts(self.facts_true(node.left) if op == "&&" else self.facts_false(node.left))
        right = self.expr(node.right)
        self.fact_stack.pop()
        if left.constant:
            return right
        if right.constant and right.value == (op == "&&"):
            return left  # x && true, x || false
        return Code(f"({left.text} {'and' if op == '&&' else 'or'} {right.text})", "bool",
                    pure=left.pure and right.pure)

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
        self.nests(2)
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
        self.root.uses.dynamic = True
        if op in ("==", "!="):
            code = f"_dyn_equal({left.text}, {right.text}, {loc})"
            return Code(code if op == "==" else f"(not {code})", "bool")
        if op in ("<", "<=", ">", ">="):
            return Code(f"_dyn_order({self.quoted(op)}, {left.text}, {right.text}, {loc})", "bool")
        result = "float" if "float" in (left.type, right.type) else "int"
        return Code(f"_dyn_arith({self.quoted(op)}, {left.text}, {right.text}, {loc})", result)

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

    def hoist(self, code: Code, reads: set[str]) -> Code:
        """Move a deeply nested expression into a helper function of its own."""
        self.root.uses.calls = True
        self.compiler.helper_count += 1
        name = f"_h{self.compiler.helper_count}"
        params = ", ".join(["_d", *sorted(reads)])
        self.compiler.blocks.append([(1, f"def {name}({params}):", None), (2, "nonlocal ST", None),
                                     (2, f"return ({code.text})", None)])
        return replace(code, text=f"{name}({params})", simple=False, local=None)

    # ------------------------------------------------------------ board access (built-ins)

    def bind(self, code: Code) -> tuple[str, str]:
        """(text that evaluates the value the first time, text that reuses it)."""
        if code.simple:
            return code.text, code.text
        t = self.temp()
        return f"({t} := {code.text})", t

    def board_read(self, board: str, node: ir.Board, args: list[Code], counts: bool = False) -> Code:
        """A square of a board cell; `counts`: its count (the board holds the W*H counts
        after the W*H objects in a game whose squares count)."""
        w, h = self.compiler.width, self.compiler.height
        x, y = args
        loc = self.loc(node.span)
        kind = "int" if counts else "obj"
        if (x.constant and not 0 <= x.value < w) or (y.constant and not 0 <= y.value < h):
            return Code(f"_off_board({x.text}, {y.text}, {loc})", kind)
        if self.variant and board == "N":
            return self.next_position_one(x, y, loc)
        board = self.cell(board)
        base = w * h if counts else 0
        if x.constant and y.constant:
            return Code(f"{board}[{base + x.value * h + y.value}]", kind)
        tests: list[str] = []
        x_use = self.index_part(x, w, tests)
        y_use = self.index_part(y, h, tests)
        index = f"{base + x.value * h}+{y_use}" if x.constant else f"{x_use}*{h}+{y_use}"
        if base and not x.constant:
            index = f"{base}+{index}"
        if not tests:
            return Code(f"{board}[{index}]", kind)
        self.nests(3)
        return Code(f"({board}[{index}] if {' & '.join(tests)} else _off_board({x_use}, {y_use}, {loc}))", kind)

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
        if not on_board or not code.simple:  # a value bound here is evaluated by the test
            tests.append(f"(0 <= {first} < {limit})")
        return use

    def next_position_one(self, x: Code, y: Code, loc: int) -> Code:
        """NextPosition[x][y] in the single-operation variant: the operation's object on its
        square, the current position elsewhere."""
        px, py, po = self.cell("PX"), self.cell("PY"), self.cell("PO")
        if x.cell == "PX" and y.cell == "PY":
            return Code(f"({po})", "obj", pure=True, simple=True)
        w, h = self.compiler.width, self.compiler.height
        tests: list[str] = []
        x_use = self.index_part(x, w, tests)
        y_use = self.index_part(y, h, tests)
        read = f"({po} if {x_use} == {px} and {y_use} == {py} else {self.cell('B')}[{x_use}*{h}+{y_use}])"
        self.nests(3)
        if not tests:
            return Code(read, "obj")
        return Code(f"({read} if {' & '.join(tests)} else _off_board({x_use}, {y_use}, {loc}))", "obj")

    def operation_part(self, node, i: Code, field_number: int | str, result: str) -> Code:
        """Field `field_number` of operation `i` (0 x, 1 y, 2 object, 3 is-place), or "count"
        (its count, 0 but for a count operation) or "is count"."""
        if isinstance(field_number, str):
            return self.operation_count(node, i, field_number, result)
        loc = self.loc(node.span)
        w, h = self.compiler.width, self.compiler.height
        ranges = {0: (0, w - 1), 1: (0, h - 1)}.get(field_number, (INT_MIN, INT_MAX))
        ops, nops = self.cell("OPS"), self.cell("NOPS")
        if i.constant:
            if i.value < 0:
                return Code(f"_bad_operation({i.value}, {loc})", result)
            if self.variant and i.value == 0:
                cell = ("PX", "PY", "PO", "PP")[field_number]
                return Code(self.cell(cell), result, None, *ranges, True, simple=True, cell=cell)
            return Code(f"({ops}[{i.value}][{field_number}] if {nops} > {i.value} else _bad_operation({i.value}, {loc}))",
                        result, None, *ranges)
        self.nests(3)
        first, use = self.bind(i)
        return Code(f"({ops}[{use}][{field_number}] if 0 <= {first} < {nops} else _bad_operation({use}, {loc}))",
                    result, None, *ranges)

    def operation_count(self, node, i: Code, what: str, result: str) -> Code:
        """The count of operation `i`, or whether it is a count operation (five fields: no
        single-operation variant runs in a game that has them)."""
        loc = self.loc(node.span)
        ops, nops = self.cell("OPS"), self.cell("NOPS")
        self.nests(3)
        first, use = self.bind(i)
        op = f"{ops}[{use}]"
        value = f"_count_of({op})" if what == "count" else f"(len({op}) > 4)"
        return Code(f"({value} if 0 <= {first} < {nops} else _bad_operation({use}, {loc}))", result)

    def operation_field(self, node: ir.Board, args: list[Code]) -> Code:
        i, j = args
        if j.constant and j.value == 3:
            return self.operation_part(node, i, "count", "int")
        if j.constant and j.value in (0, 1, 2):
            return self.operation_part(node, i, j.value, "obj" if j.value == 2 else "int")
        self.root.uses.dynamic = True
        return Code(f"_operation_field({i.text}, {j.text}, {self.loc(node.span)})", "dyn")


def _unconverted(node):
    """An expression without the conversions the IR put around it (the Python backend checks a
    value typed at run time in the operation that uses it, with that operation's location)."""
    while isinstance(node, ir.Convert):
        node = node.value
    return node


def _natural(op: str, left: Code, k: int) -> Code:
    """`/` or `%` of a value known to be non-negative by a positive constant: C's division and
    remainder (lower/arithmetic.py) are then Python's `//` and `%`, and cannot fail."""
    if op == "/":
        return Code(f"({left.text} // {k})", "int", lo=left.lo // k, hi=left.hi // k, pure=left.pure)
    return Code(f"({left.text} % {k})", "int", lo=0, hi=min(k - 1, left.hi), pure=left.pure)


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


def function_arms(module: ir.Module, optimize: bool) -> dict[str, list]:
    """name -> the arms of each function the Python backend inlines (none in the reference
    build)."""
    if not optimize:
        return {}
    return {name: arms for name, function in module.functions.items()
            if (arms := inlining.arms(function)) is not None}
