"""Who calls whom: entry-point context rules and unused functions; the call graph and what
each entry point reaches, kept on the Program for the compiler (gdef_core/lower/calls.py).

Some built-ins work only under some entry points (builtins.Builtin.contexts), and game
variables may change only under end() and setup() (spec sections 12-14). A rule is broken
when a forbidden call or assignment is reachable from an entry point through user functions;
the message names the call path, e.g. "isMoveLegal() -> helper() -> addMove()".
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from gdef_core.builtins import CONSEQUENCE_BUILTINS, ENTRY_POINTS, Context
from gdef_core.diagnostics import Tag
from gdef_core.semantics.chance import is_entry_point, uses_chance
from gdef_core.semantics.program import Program, SymbolKind
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast

# Entry points that judge or propose a move (or chance's outcomes) and must not change the game.
_READ_ONLY = (Context.IS_MOVE_LEGAL, Context.MOVES, Context.CHANCE)


@dataclass(eq=False)
class Sites:
    """What one function does that the rules care about."""

    calls: list[str] = field(default_factory=list)  # user functions called, in order
    builtin_calls: list[ast.Call] = field(default_factory=list)
    game_var_assigns: list[ast.Assign] = field(default_factory=list)
    game_var_passes: list[ast.NameRef] = field(default_factory=list)  # arrays given to user functions
    param_assigns: list[ast.Assign] = field(default_factory=list)  # never allowed (G416)


def check_contexts(program: Program, report: Report, sites: dict[str, Sites] | None = None) -> None:
    """`sites`: sites_of() each function of program.functions, when already known."""
    if sites is None:
        sites = {name: sites_of(program, function) for name, function in program.functions.items()}
    program.calls = {name: list(found.calls) for name, found in sites.items()}
    program.reach = {}
    for function_sites in sites.values():
        for assign in function_sites.param_assigns:
            report.add("G416", assign.target.span, f"'{program.references[_target_name(assign)].name}' "
                       "is a parameter, a constant for the whole game; it cannot be assigned (use a "
                       "game variable initialised from it)")
    reported: set[int] = set()
    chance = uses_chance(program)
    reached: dict[Context, dict[str, _CallPath]] = {}
    for context in Context:
        if context.value not in program.functions or (context is Context.CHANCE and not chance):
            continue
        paths = reached[context] = _reachable(context.value, sites)
        program.reach[context] = frozenset(paths)
        for function, path in paths.items():
            for call in sites[function].builtin_calls:
                builtin = program.references[call.callee].builtin
                if context not in builtin.contexts and id(call) not in reported:
                    reported.add(id(call))
                    allowed = " and ".join(f"{c.value}()" for c in Context if c in builtin.contexts)
                    # G419: a chance() built-in outside chance(), or chance() calling one it may not
                    chance_side = context is Context.CHANCE or builtin.contexts == {Context.CHANCE}
                    report.add("G419" if chance_side else "G411", call.callee.span, f"'{builtin.name}()' works only in {allowed} "
                               f"(and functions called from there), but {context.value}() reaches "
                               f"it: {_path(path, builtin.name)}")
            if context in _READ_ONLY:
                for assign in sites[function].game_var_assigns:
                    if id(assign) not in reported:
                        reported.add(id(assign))
                        target = assign.target
                        name = (target.name if isinstance(target, ast.NameRef) else target.base).text
                        what = "assigned" if isinstance(target, ast.NameRef) else "changed (an element)"
                        report.add("G412", target.span, f"game variable '{name}' is {what} "
                                   f"while {context.value}() runs ({_path(path)}); only end() and "
                                   "setup() may change game variables")
                for passed in sites[function].game_var_passes:
                    if id(passed) not in reported:
                        reported.add(id(passed))
                        report.add("G412", passed.span, f"game variable array '{passed.name.text}' is "
                                   f"passed to a function while {context.value}() runs ({_path(path)}); "
                                   "the callee could change it: only end() and setup() may pass it")
    _check_double_meaning(program, report, sites, reached, reported)


def _check_double_meaning(program: Program, report: Report, sites: dict[str, Sites],
                          reached: dict, reported: set[int]) -> None:
    """G420: addPlace/addClear/addCount (builtins.CONSEQUENCE_BUILTINS) in a function reached
    from both moves() (a candidate) and isMoveLegal() (a consequence on the scratch copy): one
    function may not serve both. Reported with both call paths."""
    proposing, judging = reached.get(Context.MOVES, {}), reached.get(Context.IS_MOVE_LEGAL, {})
    for function in proposing.keys() & judging.keys():
        for call in sites[function].builtin_calls:
            name = program.references[call.callee].builtin.name
            if name in CONSEQUENCE_BUILTINS and id(call) not in reported:
                reported.add(id(call))
                report.add("G420", call.callee.span, f"'{name}()' builds a candidate move when moves() "
                           f"reaches it ({_path(proposing[function], name)}) but changes "
                           f"{'ResultCount' if name == 'addCount' else 'ResultPosition'} "
                           f"when isMoveLegal() does ({_path(judging[function], name)}): write one "
                           "function for each")


def _target_name(assign: ast.Assign) -> ast.Name:
    target = assign.target
    return target.name if isinstance(target, ast.NameRef) else target.base


def check_generator(program: Program, report: Report) -> None:
    """`isGenerated()` in a game that has no `moves()` to generate with (spec 15.3)."""
    if program.is_library or "moves" in program.functions or report.recovery.syntax_errors:
        return  # a library's game may define moves(); a broken file may hold it
    for function in program.functions.values():
        for node in ast.walk(function.body):
            if isinstance(node, ast.Call) and node.callee.text == "isGenerated":
                symbol = program.references.get(node.callee)
                if symbol is not None and symbol.kind is SymbolKind.BUILTIN:
                    report.add("G413", node.callee.span, "'isGenerated()' asks whether moves() proposes this "
                               "move, but the game defines no moves(): define moves(), or judge the move here")


def check_unused_functions(program: Program, report: Report, called: set[str] | None = None) -> None:
    """`called`: called_in() every item of the program, when already known."""
    if program.is_library:
        return
    if called is None:
        called = called_in(program, program.modules)
    maybe_called = report.recovery.near_errors  # a call may be in broken text
    for name, function in program.functions.items():
        if name not in called and not is_entry_point(program, name, ENTRY_POINTS) and name not in maybe_called:
            why = (": the engine runs chance() only in a game that calls chanceNext() (in end() or setup())"
                   if name == "chance" else "")
            report.add("G502", function.name.span, f"function '{name}' is never called{why}",
                       tags=frozenset({Tag.UNNECESSARY}))


def called_in(program: Program, roots) -> set[str]:
    """The names of what the calls under the nodes `roots` resolved to."""
    return {program.references[node.callee].name for root in roots for node in ast.walk(root)
            if isinstance(node, ast.Call) and node.callee in program.references}


def sites_of(program: Program, function: ast.FunctionDef) -> Sites:
    sites = Sites()
    for node in ast.walk(function.body):
        if isinstance(node, ast.Call):
            symbol = program.references.get(node.callee)
            if symbol is None:
                continue
            if symbol.kind is SymbolKind.FUNCTION and symbol.name in program.functions:
                sites.calls.append(symbol.name)
                for arg in node.args:
                    passed = program.references.get(arg.name) if isinstance(arg, ast.NameRef) else None
                    if passed is not None and passed.kind is SymbolKind.GAME_VAR and passed.type.endswith("[]"):
                        sites.game_var_passes.append(arg)
            elif symbol.builtin is not None:
                sites.builtin_calls.append(node)
        elif isinstance(node, ast.Assign) and isinstance(node.target, (ast.NameRef, ast.Index)):
            target = node.target
            symbol = program.references.get(target.name if isinstance(target, ast.NameRef) else target.base)
            if symbol is not None and symbol.kind is SymbolKind.GAME_VAR:
                if getattr(symbol.decl, "param", False):
                    sites.param_assigns.append(node)
                else:
                    sites.game_var_assigns.append(node)
    return sites


def _reachable(entry: str, sites: dict[str, Sites]) -> dict[str, "_CallPath"]:
    """Every function reachable from `entry`, with the shortest call path to it (kept as a
    link to the caller's path: a chain of thousands of functions stays linear)."""
    paths = {entry: _CallPath(entry, None)}
    queue = deque([entry])
    while queue:
        current = queue.popleft()
        for callee in sites[current].calls:
            if callee not in paths:
                paths[callee] = _CallPath(callee, paths[current])
                queue.append(callee)
    return paths


class _CallPath:
    """A call path from an entry point, built into a list only when a message needs it."""

    __slots__ = ("name", "caller")

    def __init__(self, name: str, caller: "_CallPath | None") -> None:
        self.name, self.caller = name, caller

    def names(self) -> list[str]:
        path, link = [], self
        while link is not None:
            path.append(link.name)
            link = link.caller
        return path[::-1]


def _path(path: _CallPath, last: str | None = None) -> str:
    names = path.names()
    return " -> ".join(f"{name}()" for name in (names + [last] if last else names))
