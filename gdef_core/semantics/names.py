"""Name resolution inside function bodies and game variable initialisers.

Fills Program.references for every use and declaration of a local, parameter, game variable,
object, function and built-in, and reports names that are undefined, misused or clash. A local
is visible from its declaration to the end of its function (spec section 6), so bodies are
walked in source order. Type questions are left to types.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gdef_core.builtins import ALIASES, BUILTINS, Kind, lookup
from gdef_core.diagnostics import Edit, Related, Suggestion, Tag
from gdef_core.semantics.collect import describe_builtin
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.semantics.report import Report, where
from gdef_core.semantics.statements import LoopCond, LoopEnd, statements
from gdef_core.semantics.suggest import did_you_mean, hint
from gdef_core.syntax import ast

VARIABLE_KINDS = (SymbolKind.LOCAL, SymbolKind.PARAMETER, SymbolKind.GAME_VAR)
_FUNCTION_NAMES = [n for n, b in BUILTINS.items() if b.kind is Kind.FUNCTION]
_BOARD_NAMES = [n for n, b in BUILTINS.items() if b.kind is Kind.BOARD]


def empt_warning(report: Report, name: ast.Name) -> None:
    report.add("G506", name.span, "'empt' is an old spelling of 'empty'; write 'empty'",
               suggestions=(Suggestion("replace 'empt' with 'empty'", (Edit(name.span, "empty"),)),),
               tags=frozenset({Tag.DEPRECATED}))


@dataclass(eq=False)
class Scope:
    """The locals and parameters of one function (none for a game variable initialiser)."""

    function: ast.FunctionDef | None = None
    visible: dict[str, Symbol] = field(default_factory=dict)
    later: dict[str, ast.VarDecl] = field(default_factory=dict)  # declared further down
    declared: list[Symbol] = field(default_factory=list)  # locals, in order
    reads: set = field(default_factory=set)  # symbols whose value is read
    declaring: Symbol | None = None  # the local whose initialiser is being resolved


def resolve_names(program: Program, report: Report) -> None:
    resolver = Resolver(program, report)
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.FunctionDef):
                resolver.function(item)
            elif isinstance(item, ast.GameVar):
                for size in item.sizes:
                    resolver.expr(size, Scope())
                resolver.expr(item.init, Scope())


class Resolver:
    def __init__(self, program: Program, report: Report) -> None:
        self.program = program
        self.report = report

    # ------------------------------------------------------------ declarations

    def function(self, function: ast.FunctionDef) -> None:
        scope = Scope(function)
        for node in ast.walk(function.body):
            if isinstance(node, ast.VarDecl) and not node.name.recovered:
                scope.later.setdefault(node.name.text, node)
        for param in function.params:
            self.param(scope, param)
        self.block(function.body, scope)
        for symbol in scope.declared:
            if symbol not in scope.reads:
                self.report.add("G501", symbol.name_span, f"local '{symbol.name}' is never read",
                                tags=frozenset({Tag.UNNECESSARY}))

    def param(self, scope: Scope, param: ast.Param) -> None:
        name = param.name
        if name.recovered or not name.text:
            return
        existing = scope.visible.get(name.text)
        if existing is not None:
            self.duplicate(name, existing)
            return
        self.register(scope, name, Symbol(SymbolKind.PARAMETER, name.text, array_type(param.type.name, param.rank),
                                          param, function=scope.function))

    def local(self, scope: Scope, decl: ast.VarDecl) -> None:
        name = decl.name
        for size in decl.sizes:
            self.expr(size, scope)
        if name.recovered or not name.text:
            self.expr(decl.init, scope)
            return
        existing = scope.visible.get(name.text)
        if existing is not None:
            self.expr(decl.init, scope)
            self.duplicate(name, existing)
            return
        symbol = Symbol(SymbolKind.LOCAL, name.text, array_type(decl.type.name, len(decl.sizes)), decl,
                        function=scope.function)
        scope.declaring = symbol
        self.expr(decl.init, scope)
        scope.declaring = None
        self.register(scope, name, symbol)
        scope.declared.append(symbol)

    def register(self, scope: Scope, name: ast.Name, symbol: Symbol) -> None:
        self.program.references[name] = symbol
        scope.visible[name.text] = symbol
        self.clash_with_global(name, symbol.kind)

    def duplicate(self, name: ast.Name, existing: Symbol) -> None:
        """A second declaration of a local or parameter; its name joins the first's references
        so that a rename changes both."""
        other = existing.name_span
        self.report.add("G205", name.span, f"'{name.text}' is already declared in this function "
                        f"({where(other, name.span)})",
                        related=(Related(other, f"the other declaration of '{name.text}'"),))
        self.program.references[name] = existing

    def clash_with_global(self, name: ast.Name, kind: SymbolKind) -> None:
        word = "local" if kind is SymbolKind.LOCAL else "parameter"
        related: tuple[Related, ...] = ()
        builtin = lookup(name.text)
        if builtin is not None and not builtin.soft:
            what = f"the {describe_builtin(name.text)}"
        else:  # a soft built-in's name may be a local's: the local hides it in its function
            symbol = self.program.symbols.get(name.text)
            if symbol is None or symbol.kind is SymbolKind.BUILTIN:
                return
            what = f"the {symbol.kind.value} defined at {where(symbol.name_span, name.span)}"
            related = (Related(symbol.name_span, f"the {symbol.kind.value} '{name.text}'"),)
        self.report.add("G206", name.span, f"a {word} cannot be named '{name.text}': that is {what}; "
                        "rename it", related=related)

    # ------------------------------------------------------------ statements

    def block(self, block: ast.Block, scope: Scope) -> None:
        for stmt in statements(block):
            match stmt:
                case LoopCond(loop=ast.For(cond=cond)) if cond is not None:
                    self.expr(cond, scope)
                case LoopEnd(loop=ast.For(init=ast.VarDecl(name=name))) if not name.recovered:
                    if scope.visible.get(name.text) is self.program.references.get(name):
                        del scope.visible[name.text]  # a local of INIT lives in its loop only
                case ast.VarDecl():
                    self.local(scope, stmt)
                case ast.Assign(target=target, value=value):
                    self.expr(value, scope)
                    self.target(target, scope)
                case ast.ExprStmt(expr=ast.Call() as call):
                    self.expr(call, scope)
                case ast.ExprStmt(expr=expr):  # not a statement: the parser reported it (G106)
                    with self.report.muted():
                        self.expr(expr, scope)
                case ast.Return(value=value) if value is not None:
                    self.expr(value, scope)
                case ast.If(cond=cond) | ast.While(cond=cond):
                    self.expr(cond, scope)

    def target(self, target, scope: Scope) -> None:
        """The left side of `=`: it must name a variable."""
        if isinstance(target, ast.ErrorExpr):
            return
        if isinstance(target, ast.Index):
            symbol = self.lookup(target.base, scope)
            if symbol is not None and symbol.kind in VARIABLE_KINDS and is_array(symbol.type):
                self.program.references[target.base] = symbol
                for position in target.indexes:
                    self.expr(position, scope)
                return
        if not isinstance(target, ast.NameRef):
            self.expr(target, scope)
            self.report.add("G211", target.span, "only a local, a parameter or a game variable can be "
                            "assigned" + (f"; '{target.base.text}' is a board, changed only by moves "
                                          "and by addPlace/addClear/addCount in setup() and end()"
                                          if isinstance(target, ast.Index) else ""))
            return
        name = target.name
        symbol = self.lookup(name, scope)
        if symbol is None:
            self.undefined(name, scope, assigned=True)
            return
        self.program.references[name] = symbol
        if symbol.kind not in VARIABLE_KINDS:
            self.report.add("G211", name.span, f"cannot assign to '{name.text}': it is "
                            f"{_what(symbol)}, not a variable")

    # ------------------------------------------------------------ expressions

    def expr(self, expr, scope: Scope) -> None:
        for node in ast.walk(expr):
            match node:
                case ast.NameRef(name=name):
                    self.value_name(name, scope)
                case ast.Call(callee=callee):
                    self.callee(callee, scope)
                case ast.Index(base=base):
                    self.board(base, scope)

    def value_name(self, name: ast.Name, scope: Scope) -> None:
        if name.recovered or not name.text:
            return
        declaring = scope.declaring
        if declaring is not None and name.text == declaring.name:
            self.program.references[name] = declaring
            self.report.add("G207", name.span, f"'{name.text}' is used in its own declaration; it has "
                            "no value yet")
            return
        symbol = self.lookup(name, scope)
        if symbol is None:
            self.undefined(name, scope)
            return
        self.program.references[name] = symbol
        scope.reads.add(symbol)
        if name.text in ALIASES:
            empt_warning(self.report, name)
        elif symbol.kind is SymbolKind.FUNCTION or (symbol.builtin and symbol.builtin.kind is Kind.FUNCTION):
            self.report.add("G210", name.span, f"'{name.text}' is a function; call it: "
                            f"'{name.text}({'' if not _arity(symbol) else '...'})'")
        elif symbol.builtin and symbol.builtin.kind is Kind.BOARD:
            self.report.add("G210", name.span, f"'{name.text}' is a board; index it: "
                            f"'{name.text}[x][y]'")

    def callee(self, name: ast.Name, scope: Scope) -> None:
        if name.recovered or not name.text:
            return
        symbol = self.lookup(name, scope)
        if symbol is None:
            if name.text in self.report.recovery.words:
                return
            suggestions = did_you_mean(name, list(self.program.functions) + _FUNCTION_NAMES)
            self.report.add("G202", name.span, f"no function named '{name.text}'{hint(suggestions)}",
                            suggestions=suggestions)
            return
        self.program.references[name] = symbol
        if symbol.kind is SymbolKind.FUNCTION or (symbol.builtin and symbol.builtin.kind is Kind.FUNCTION):
            return
        scope.reads.add(symbol)
        extra = f"; index it: '{name.text}[x][y]'" if symbol.builtin and symbol.builtin.kind is Kind.BOARD else ""
        self.report.add("G208", name.span, f"'{name.text}' is {_what(symbol)}, not a function{extra}")

    def board(self, name: ast.Name, scope: Scope) -> None:
        if name.recovered or not name.text:
            return
        symbol = self.lookup(name, scope)
        if symbol is None:
            if name.text in self.report.recovery.words:
                return
            suggestions = did_you_mean(name, _BOARD_NAMES)
            self.report.add("G201", name.span, f"no board named '{name.text}' (the boards are "
                            f"{', '.join(_BOARD_NAMES)}){hint(suggestions)}", suggestions=suggestions)
            return
        self.program.references[name] = symbol
        if symbol.builtin and symbol.builtin.kind is Kind.BOARD:
            return
        scope.reads.add(symbol)
        if symbol.kind in VARIABLE_KINDS and is_array(symbol.type):
            return
        self.report.add("G209", name.span, f"'{name.text}' is {_what(symbol)}, not a board; only "
                        f"{', '.join(_BOARD_NAMES)} can be indexed")

    # ------------------------------------------------------------ lookup

    def lookup(self, name: ast.Name, scope: Scope) -> Symbol | None:
        local = scope.visible.get(name.text)
        if local is not None:
            return local
        return self.program.symbols.get(ALIASES.get(name.text, name.text))

    def undefined(self, name: ast.Name, scope: Scope, assigned: bool = False) -> None:
        if name.recovered or not name.text or name.text in self.report.recovery.words:
            return
        later = scope.later.get(name.text)
        if later is not None and _declared_in_loop_header(scope.function, later) \
                and (later.span.line, later.span.column) < (name.span.line, name.span.column):
            self.report.add("G201", name.span, f"'{name.text}' is not declared here: a local declared in "
                            "a `for` header lives only in its loop",
                            related=(Related(later.name.span, f"the declaration of '{name.text}'"),))
            return
        if later is not None:
            self.report.add("G201", name.span, f"'{name.text}' is used before its declaration "
                            f"({where(later.name.span, name.span)}); a local is visible only after it",
                            related=(Related(later.name.span, f"the declaration of '{name.text}'"),))
            return
        candidates = [*scope.visible, *self.program.game_vars, *self.program.objects, "empty"]
        suggestions = did_you_mean(name, candidates)
        if assigned:
            message = f"'{name.text}' is not declared; declare it first (e.g. `int {name.text} = ...;`)"
        else:
            message = f"'{name.text}' is not declared"
        self.report.add("G201", name.span, message + hint(suggestions), suggestions=suggestions)


def _declared_in_loop_header(function: ast.FunctionDef | None, decl: ast.VarDecl) -> bool:
    return function is not None and any(isinstance(node, ast.For) and node.init is decl
                                        for node in ast.walk(function.body))


def array_type(element: str, rank: int) -> str:
    """The type of an array as the checker writes it: "int[]", "obj[][]"."""
    return element + "[]" * rank


def is_array(type_name: str | None) -> bool:
    return type_name is not None and type_name.endswith("[]")


def element_type(type_name: str) -> str:
    return type_name.split("[", 1)[0]


def rank_of(type_name: str | None) -> int:
    return type_name.count("[]") if type_name else 0


def _arity(symbol: Symbol) -> int:
    if symbol.builtin is not None:
        return len(symbol.builtin.params)
    return len(symbol.decl.params)


def _what(symbol: Symbol) -> str:
    if symbol.builtin is not None:
        return f"the {describe_builtin(symbol.name)}"
    article = "an" if symbol.kind.value[0] in "aeiou" else "a"
    return f"{article} {symbol.kind.value}"
