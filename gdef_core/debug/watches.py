"""gdef expressions evaluated where the game is stopped (watches, hovers, the debug console,
breakpoint conditions, logpoints), with the language's own checker and compiler, so that
nothing here redefines a value operation.

An expression becomes a function of the game, `define gdefDebugWatch(<the visible locals>) -> T
{ return EXPR; }`, added to the text of the stopped function's file: the checker types it (T is
the expression's type) and reports its mistakes; the Python backend compiles the whole game with
it (the reference build) and hands it back. It runs in a copy of the rules: the board, the next
and previous positions and the game variables are copies, `RO` is set and the step budget is
the game's, so an expression can neither change the game nor run forever.
"""
from __future__ import annotations

import itertools
import os
import re

from gdef_core.builtins import ALIASES, BUILTINS, Context
from gdef_core.debug.expressions import EvaluationError, Scope, local_values
from gdef_core.runtime import prelude
from gdef_core.runtime.codegen import Compiler
from gdef_core.runtime.errors import Fail
from gdef_core.runtime.function_compiler import CompileError
from gdef_core.syntax import ast

WATCH = "gdefDebugWatch"
_PREFIX = "  return "
_TYPES = ("int", "bool", "obj", "float")
_SHARED = set(prelude.CELLS.split(", "))  # the state of a game being judged (not the functions)
_COPIED = {"B", "N", "PB", "V"}  # mutable: every evaluation gets its own
_ids = itertools.count(1)
MAX_CACHED = 200
MAX_EXPRESSION = 10_000  # characters of one expression
_ASSIGNMENT = re.compile(r"\s*[A-Za-z_]\w*\s*(\[[^=]*\]\s*)*=(?!=)")  # `x = 1`, `a[i][j] = 2`: a statement
# The rules' CTX cell (gdef_core.runtime.prelude) as the checker's contexts.
_CONTEXTS = {context.number: context for context in Context}


class Watches:
    """The compiled expressions of one game, by text and the locals they see."""

    def __init__(self, files: list[str]) -> None:
        self.files = files
        self.cache: dict[tuple, object] = {}
        self.types: dict[tuple, str | EvaluationError] = {}  # (text, function) -> its type or why it has none

    def evaluate(self, text: str, scope: Scope, function: str | None):
        mistake = _shape_mistake(text)
        if mistake is not None:
            raise EvaluationError(mistake)
        game = scope.game
        params = _visible(game.program.functions.get(function) if function else None, scope.locals)
        context = scope.cells.get("CTX")
        key = (text, function, context, tuple((name, kind) for name, kind, _ in params))
        compiled = self.cache.get(key)
        if compiled is None:
            compiled = self._compile(text, game, function, params, context)
            if len(self.cache) >= MAX_CACHED:
                self.cache.clear()
            self.cache[key] = compiled
        return _run(compiled, game, scope.cells, [value for _, _, value in params])

    def mistake(self, text: str, game, function: str | None, bool_only: bool = False) -> str | None:
        """Why `text` cannot be evaluated anywhere in `function` (None: it can be), checked before
        the game runs (a breakpoint's condition, a logpoint's {expression}): every local the
        function declares is taken as visible."""
        shape = _shape_mistake(text)
        if shape is not None:
            return shape
        key = (text, function)
        if key not in self.types:  # an editor sends a file's breakpoints again at every change
            params = [(name, kind, None) for name, kind in _declared(game.program.functions.get(function)).items()]
            try:
                self.types[key] = self._checked(text, game, function, params)[1]
            except EvaluationError as error:
                self.types[key] = error
            if len(self.types) > MAX_CACHED:
                self.types.pop(next(iter(self.types)))
        found = self.types[key]
        if isinstance(found, EvaluationError):
            return str(found)
        if bool_only and found != "bool":
            return f"a condition must be a bool, not {found}"
        return None

    def _checked(self, text: str, game, function: str | None, params: list):
        """The game with the watch function added, checked: (program, the expression's type)."""
        owner = game.program.functions.get(function) if function else None
        path = owner.span.file if owner is not None else game.files[0]
        result = "int"
        for _ in range(2):  # checked as an int first; then as the type the checker found
            program, mistake, found = _check(text, game, self.files, path, params, result)
            if mistake is None:
                return program, result
            if _ASSIGNMENT.match(text):
                raise EvaluationError(f"'{text.strip()}' assigns: the debugger's expressions are read-only")
            if found not in _TYPES or found == result:
                raise EvaluationError(mistake)
            result = found
        raise EvaluationError(mistake)

    def _compile(self, text: str, game, function: str | None, params: list, scope_context: int | None):
        program, _ = self._checked(text, game, function, params)
        _check_context(program.functions[WATCH], scope_context)
        compiler = Compiler(program, game.max_steps, game.max_depth, f"<gdef watch #{next(_ids)}>",
                            optimize=False, export=(WATCH,))
        try:
            generated = compiler.compile()
        except CompileError as error:
            raise EvaluationError(error.message) from None
        namespace = prelude.namespace()
        exec(compile(generated.source, generated.filename, "exec"), namespace)
        return namespace["_factory"]((game.empty, *game.objects.values()))


def _shape_mistake(text: str) -> str | None:
    """Why `text` is not even read as an expression: more than one line, or too long to check
    in a moment (the checker would read the whole text first)."""
    if "\n" in text or "\r" in text:
        return "an expression is one line"
    if len(text) > MAX_EXPRESSION:
        return f"an expression is at most {MAX_EXPRESSION:,} characters (this one has {len(text):,})"
    return None


def _check(text: str, game, files: list[str], path: str, params: list, result: str):
    """The game with the watch function added to `path` (the texts the game was loaded from,
    whatever the files hold now), checked: (program, its first mistake or None, the type the
    checker gave the expression)."""
    from gdef_core.loader import load_program

    texts = {module.path: module.text for module in game.program.modules}
    first_line = texts[path].count("\n") + 2  # 0-based: the line of `return EXPR;`
    declared = ", ".join(f"{kind.split('[')[0]} {name}{'[]' * kind.count('[')}" for name, kind, _ in params)
    texts[path] += f"\ndefine {WATCH}({declared}) -> {result} {{\n{_PREFIX}{text};\n}}\n"
    program = load_program(files, {os.path.abspath(name): text for name, text in texts.items()})
    watch = program.functions.get(WATCH)
    returned = None
    if watch is not None and watch.body.stmts and isinstance(watch.body.stmts[0], ast.Return):
        returned = watch.body.stmts[0].value
    found = program.expr_types.get(returned) if returned is not None else None
    for error in program.errors:
        if error.span.file != path or error.span.line < first_line - 1:
            return program, "the game's files do not check any more: restart the session", found
        where = f"column {error.span.column - len(_PREFIX) + 1}: " if error.span.line == first_line else ""
        return program, f"{where}{error.message}", found
    return program, None, found


def _check_context(watch: ast.FunctionDef, context: int | None) -> None:
    """The checker's rule of where built-ins are valid, for the entry point that is running
    (the watch itself is called from none, so the checker cannot apply it)."""
    running = _CONTEXTS.get(context)
    if running is None:
        return
    for node in ast.walk(watch.body):
        name = node.name.text if isinstance(node, ast.NameRef) else node.callee.text if isinstance(node, ast.Call) else None
        builtin = BUILTINS.get(ALIASES.get(name, name)) if name else None
        if builtin is not None and running not in builtin.contexts:
            allowed = " and ".join(f"{c.value}()" for c in Context if c in builtin.contexts)
            raise EvaluationError(f"{name} is not valid while {running.value}() runs (only in {allowed})")


def _visible(function: ast.FunctionDef | None, python_locals: dict) -> list[tuple[str, str, object]]:
    """(name, type, value) of the locals the stopped function can see: `int[][]` for arrays."""
    declared = _declared(function)
    return [(name, declared[name], value) for name, value in local_values(python_locals).items() if name in declared]


def _declared(function: ast.FunctionDef | None) -> dict[str, str]:
    """name -> type of the parameters and locals `function` declares: `int[][]` for arrays."""
    declared: dict[str, str] = {}
    if function is None:
        return declared
    for param in function.params:
        declared[param.name.text] = param.type.name + "[]" * param.rank
    for node in ast.walk(function.body):
        if isinstance(node, ast.VarDecl):
            declared[node.name.text] = node.type.name + "[]" * len(node.sizes)
    return declared


def _run(entries: dict, game, cells: dict, values: list):
    """Call the compiled watch in its own copy of the rules' state."""
    function = entries[f"u_{WATCH}"]
    entries["_set_hook"](game._has_legal_move_hook)
    state = {name: _copied(value) if name in _COPIED else value for name, value in cells.items() if name in _SHARED}
    state.update(RO=True, ST=game.max_steps, WIN=None, NXT=None, SC=None)
    for cell_name, cell in _cells(function).items():
        if cell_name in state:
            cell.cell_contents = state[cell_name]
    try:
        return function(1, *values)
    except Fail as error:
        raise EvaluationError(f"error[{error.code}]: {error.message}") from None
    except RecursionError:
        raise EvaluationError("error[G608]: recursion too deep") from None


def _copied(value):
    """A list copied all the way down; its objects (Obj, numbers) stay themselves."""
    return [_copied(item) for item in value] if isinstance(value, list) else value


def _cells(function) -> dict:
    """Every shared cell of the generated factory that `function` can reach."""
    found: dict = {}
    todo = [function]
    seen = set()
    while todo:
        current = todo.pop()
        if id(current) in seen or not getattr(current, "__closure__", None):
            continue
        seen.add(id(current))
        for name, cell in zip(current.__code__.co_freevars, current.__closure__):
            found.setdefault(name, cell)
            try:
                inner = cell.cell_contents
            except ValueError:
                continue
            if callable(inner) and hasattr(inner, "__code__"):
                todo.append(inner)
    return found
