"""What the checker knows about a game: its declarations and what every name refers to.

The runtime compiles a Program; the language server answers go-to-definition, references,
rename, hover and completion from it. Nothing here runs user code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from gdef_core.builtins import Builtin, Context
from gdef_core.diagnostics import Diagnostic
from gdef_core.presentation import Presentation
from gdef_core.syntax import ast


class SymbolKind(str, Enum):
    FUNCTION = "function"
    OBJECT = "object"
    GAME_VAR = "game variable"
    LOCAL = "local"
    PARAMETER = "parameter"
    BUILTIN = "built-in"


@dataclass(eq=False, slots=True)
class Symbol:
    """One declared thing. `decl` is its declaring node (None for built-ins), `type` its value
    type ("int", "float", "bool", "obj", or None for a function without a result)."""

    kind: SymbolKind
    name: str
    type: str | None
    decl: object | None = None  # FunctionDef, ObjDecl, GameVar, VarDecl, ast.Param
    builtin: Builtin | None = None
    function: ast.FunctionDef | None = None  # for locals and parameters: their function

    @property
    def name_span(self):
        """The span of the declaring name (None for built-ins)."""
        decl = self.decl
        return None if decl is None else decl.name.span


@dataclass(eq=False)
class Program:
    """A whole game (or library): every file, every declaration, every resolved name."""

    modules: list[ast.Module]  # the files, in load order (the files named first, then `use`d ones)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # all of them, sorted
    name: str | None = None
    players: int | None = None
    width: int | None = None
    height: int | None = None
    # The sides of `size:` a parameter gives ("width", "height"): their labels may be longer.
    param_sides: frozenset[str] = frozenset()
    is_library: bool = False
    objects: dict[str, ast.ObjDecl] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    game_vars: dict[str, ast.GameVar] = field(default_factory=dict)  # parameters included
    # Declared parameters (`param int n = 9 in 1 to 19;`, also in game_vars: the backends read
    # them as game variables nobody assigns); their domains (is a range, bounds or values); the
    # values in use (set by a tool, else the defaults); settings a tool asked for and that were
    # refused (unknown name, value not allowed): the tool reports them as usage errors.
    params: dict[str, ast.GameVar] = field(default_factory=dict)
    param_domains: dict[str, tuple] = field(default_factory=dict)
    param_values: dict[str, object] = field(default_factory=dict)
    param_errors: dict[str, str] = field(default_factory=dict)  # parameter name -> why refused
    start: ast.StartDecl | None = None
    symbols: dict[str, Symbol] = field(default_factory=dict)  # top-level and built-in names
    # Every Name node that refers to something (uses AND declarations) -> its Symbol.
    references: dict[ast.Name, Symbol] = field(default_factory=dict)
    # The static type of every expression the checker could type ("int", "float", "bool",
    # "obj"; absent when unknown until run time).
    expr_types: dict[object, str] = field(default_factory=dict)
    # The call graph, as the context rules (contexts.py) found it: function -> the functions
    # its body calls, once per call in walk order; entry point -> every function it reaches
    # (itself included; absent when the game does not define it). The compiler reads these.
    calls: dict[str, list[str]] = field(default_factory=dict)
    reach: dict[Context, frozenset[str]] = field(default_factory=dict)
    # How the game is shown (its `show` blocks and the defaults); None for a library.
    presentation: Presentation | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors
