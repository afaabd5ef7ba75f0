"""The checker for an editor: the same Program and diagnostics as checker.check(), but the
work done inside each function is kept and reused while neither the function nor anything
it reads outside itself changed.

Most of a check is per function (names, types, flow, what it calls): those passes read the
function's own nodes, and outside it only the game's top-level names. So the result of one
function is kept with the facts it read (its dependencies):
- for every name written in it, what that name is at the top level (kind, type, a function's
  parameters and whether its header is damaged);
- for its local and parameter names, where a top-level name of the same spelling is declared
  (the clash message names the line);
- for names that did not resolve, whether they lie in skipped text, and every top-level name
  (the "did you mean" candidates).
A function is the same when it is the same node: the parse cache (gdef_core.ide.parse_cache)
hands back the very nodes of every definition an edit did not touch, moved in place when
lines were added or removed above it (its kept diagnostics then move with it). Top-level
symbols are kept from one check to the next while unchanged, so that kept resolved names
point at this check's symbols. The whole-game passes (declarations, game parameters, `start`,
game variables, entry points, call-graph rules, unused functions) run every time, over the
kept per-function facts; they are cheap.

tests/test_incremental_check.py compares this with checker.check() over long random edit
sessions, diagnostic for diagnostic.
"""
from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

from gdef_core.builtins import ALIASES
from gdef_core.diagnostics import Diagnostic, Edit, Related, Suggestion, sort_key
from gdef_core.semantics.chance import check_chance_defined
from gdef_core.semantics.collect import collect
from gdef_core.semantics.constants import check_game_var_inits
from gdef_core.semantics.contexts import (Sites, called_in, check_contexts, check_generator,
                                          check_unused_functions, sites_of)
from gdef_core.semantics.flow import check_function_flow
from gdef_core.semantics.names import Resolver, Scope
from gdef_core.semantics.param_decls import check_param_decls
from gdef_core.semantics.params import check_params
from gdef_core.semantics.program import Program, Symbol, SymbolKind
from gdef_core.semantics.recovery import Recovery, recovery, skipped_words
from gdef_core.semantics.report import Report
from gdef_core.semantics.show import check_show
from gdef_core.semantics.start import check_start
from gdef_core.semantics.structure import check_entry_points
from gdef_core.semantics.types import Typer, array_arguments
from gdef_core.span import Span
from gdef_core.syntax import ast

# Results kept for functions no longer in the game (an undo brings their nodes back).
_KEPT_EXTRA = 2_000


@dataclass(eq=False, slots=True)
class _Result:
    """What checking one function produced, and what it read outside itself."""

    function: ast.FunctionDef
    references: dict[ast.Name, Symbol]
    top_level: list[tuple[ast.Name, str]]  # the names among them that mean a top-level symbol
    top_keys: frozenset[str]  # the names of those symbols
    expr_types: dict
    names: list[Diagnostic]
    types: list[Diagnostic]
    flow: list[Diagnostic]
    sites: Sites
    called: set[str]
    depends: dict[str, tuple]  # name -> what it was at the top level
    positions: dict[str, object]  # local names -> the span of a top-level name spelt alike
    unresolved: dict[str, bool]  # names that did not resolve -> whether in skipped text
    candidates: tuple | None  # the top-level names, when a name did not resolve
    seen: int  # the last check that used it (its facts were true then)
    symbols_seen: int  # the last check whose top-level symbols `references` holds
    span: Span  # the function's span when the diagnostics above were made


class IncrementalChecker:
    """Checks successive versions of one game, reusing per-function results."""

    def __init__(self) -> None:
        self._results: OrderedDict[int, _Result] = OrderedDict()
        self._skipped: dict[int, tuple[object, frozenset[str]]] = {}
        self._symbols: dict[str, Symbol] = {}
        self._last: _Environment | None = None
        self._check = 0
        self.reused = self.checked = 0  # functions in the last check (for tests and benchmarks)

    def check(self, modules: list[ast.Module], load_diagnostics: Sequence[Diagnostic] = ()) -> Program:
        self._check += 1
        program = Program(modules=list(modules))
        found = recovery(program.modules, load_diagnostics, self._skipped_words())
        report = Report(found)
        collect(program, report)
        replaced = self._keep_symbols(program)
        check_param_decls(program, report, None)
        check_params(program, report)
        check_start(program, report)
        environment = _Environment(program, found, self._last)
        if self._last is None or environment.globals != self._last.globals:
            self._results.clear()
        self._last = environment
        self.reused = self.checked = 0
        results: list[_Result] = []
        # names, in item order (game variables in place, as resolve_names does)
        resolver = Resolver(program, report)
        for module in program.modules:
            for item in module.items:
                if isinstance(item, ast.FunctionDef):
                    result = self._result(item, program, found, environment)
                    results.append(result)
                    self._merge_references(program, result, replaced)
                    report.diagnostics += result.names
                elif isinstance(item, ast.GameVar):
                    for size in item.sizes:
                        resolver.expr(size, Scope())
                    resolver.expr(item.init, Scope())
        # types, in item order
        functions = iter(results)
        for module in program.modules:
            for item in module.items:
                if isinstance(item, ast.FunctionDef):
                    result = next(functions)
                    program.expr_types.update(result.expr_types)
                    report.diagnostics += result.types
                elif isinstance(item, ast.GameVar) and not item.param:  # a default is G415's
                    Typer(program, report, array_arguments([item], program.functions)).declare(
                        item, f"game variable '{item.name.text}'")
        check_game_var_inits(program, report)
        check_show(program, report)
        check_entry_points(program, report)
        for result in results:
            report.diagnostics += result.flow
        by_function = {id(result.function): result for result in results}
        check_contexts(program, report, {name: by_function[id(function)].sites
                                         for name, function in program.functions.items()})
        if any("isGenerated" in result.called for result in results):
            check_generator(program, report)
        check_chance_defined(program, report)
        called: set[str] = set()
        for module in program.modules:
            for item in module.items:
                if not isinstance(item, ast.FunctionDef):
                    called |= called_in(program, [item])
        for result in results:
            called |= result.called
        check_unused_functions(program, report, called)
        everything = sorted([*load_diagnostics, *report.kept()], key=sort_key)
        program.diagnostics = list(dict.fromkeys(everything))
        self._forget(len(results))
        return program

    # ------------------------------------------------------------ per function

    def _result(self, function: ast.FunctionDef, program: Program, found: Recovery,
                environment: _Environment) -> _Result:
        kept = self._results.get(id(function))
        if kept is not None and kept.function is function and environment.unchanged_for(kept, self._check) \
                and (kept.span == function.span or _moved(kept, function.span)):
            self._results.move_to_end(id(function))
            kept.seen = self._check
            self.reused += 1
            return kept
        result = _check_function(function, program, found, environment, self._check)
        self._results[id(function)] = result
        self._results.move_to_end(id(function))
        self.checked += 1
        return result

    def _merge_references(self, program: Program, result: _Result, replaced: set[str]) -> None:
        """Add the function's resolved names, pointing at this check's top-level symbols."""
        if result.symbols_seen != self._check - 1 or (replaced and not replaced.isdisjoint(result.top_keys)):
            symbols = program.symbols
            for name, key in result.top_level:
                result.references[name] = symbols[key]
        result.symbols_seen = self._check
        program.references.update(result.references)

    def _keep_symbols(self, program: Program) -> set[str]:
        """Put back the last check's top-level Symbol objects where nothing in them changed
        (kept results point at them); returns the names whose symbol is new."""
        previous, replaced = self._symbols, set()
        symbols, references = program.symbols, program.references
        for text, symbol in symbols.items():
            old = previous.get(text)
            if old is not None and old.kind is symbol.kind and old.type == symbol.type \
                    and old.decl is symbol.decl and old.builtin is symbol.builtin:
                symbols[text] = old
                if symbol.decl is not None and references.get(symbol.decl.name) is symbol:
                    references[symbol.decl.name] = old
            else:
                replaced.add(text)
        replaced.update(previous.keys() - symbols.keys())
        self._symbols = dict(symbols)
        return replaced

    def _forget(self, in_use: int) -> None:
        while len(self._results) > in_use + _KEPT_EXTRA:
            self._results.popitem(last=False)

    def _skipped_words(self):
        """recovery.skipped_words, kept per item (it walks the whole item)."""
        previous, self._skipped = self._skipped, {}

        def skipped(item, lines) -> frozenset[str]:
            kept = previous.get(id(item)) or self._skipped.get(id(item))
            if kept is None or kept[0] is not item:
                kept = (item, skipped_words(item, lines))
            self._skipped[id(item)] = kept
            return kept[1]

        return skipped


_NOTHING = (None, None)


class _Environment:
    """What a function's check can read outside the function, computed once per check, and
    what changed in it since the last check (so that a result used by the last check is
    checked against the changes only)."""

    def __init__(self, program: Program, found: Recovery, last: _Environment | None) -> None:
        self.program = program
        self.recovery = found
        symbols = program.symbols
        # symbols are kept from check to check while unchanged: so is what is read of them
        known = last.of_symbol if last is not None else {}
        self.of_symbol: dict[Symbol, tuple] = {}
        for symbol in symbols.values():
            signature = known.get(symbol)
            self.of_symbol[symbol] = signature if signature is not None else _signature(symbol)
        # a function's header is damaged only while there are syntax errors
        damaged = found.header_damaged if found.syntax_errors else (lambda decl: False)
        function = SymbolKind.FUNCTION
        self.signatures = {text: ((self.of_symbol[symbol], damaged(symbol.decl)) if symbol.kind is function
                                  else self.of_symbol[symbol], None)
                           for text, symbol in symbols.items()}
        for alias, target in ALIASES.items():
            self.signatures[alias] = (self.signatures.get(alias, _NOTHING)[0],
                                      self.signatures.get(target, _NOTHING)[0])
        # their values are array sizes the checker knows (spec 15.1): a function writing one
        # is checked again when the game parameters change
        for name, value in (("boardWidth", program.width), ("boardHeight", program.height),
                            ("playersNum", program.players)):
            self.signatures[name] = (self.signatures.get(name, _NOTHING), value)
        self.positions = {text: symbol.name_span for text, symbol in symbols.items()}
        self.candidates = (tuple(program.functions), tuple(program.game_vars), tuple(program.objects))
        # read by every function that compares an object with 0 ("did you mean 'O'?")
        self.globals = ("O" in program.objects,)
        if last is not None:
            self.changed = _changed(last.signatures, self.signatures)
            self.moved = _changed(last.positions, self.positions)
            self.words = last.recovery.words ^ found.words
            self.new_candidates = last.candidates != self.candidates

    def signature(self, text: str) -> tuple:
        return self.signatures.get(text, _NOTHING)

    def position(self, text: str):
        return self.positions.get(text)

    def unchanged_for(self, result: _Result, check: int) -> bool:
        if result.seen == check - 1:  # true at the last check: look at what changed since
            return (self.changed.isdisjoint(result.depends) and self.moved.isdisjoint(result.positions)
                    and self.words.isdisjoint(result.unresolved)
                    and (result.candidates is None or not self.new_candidates))
        signature, position, words = self.signature, self.position, self.recovery.words
        return (all(signature(text) == seen for text, seen in result.depends.items())
                and all(position(text) == seen for text, seen in result.positions.items())
                and all((text in words) == seen for text, seen in result.unresolved.items())
                and (result.candidates is None or result.candidates == self.candidates))


def _changed(old: dict, new: dict) -> set:
    changed = {key for key, value in new.items() if old.get(key, _NOTHING) != value}
    changed.update(old.keys() - new.keys())
    return changed


def _signature(symbol: Symbol) -> tuple:
    """What the per-function passes read of a top-level symbol (but whether a function's
    header is damaged, which depends on the syntax errors of the moment)."""
    if symbol.kind is SymbolKind.FUNCTION:
        decl: ast.FunctionDef = symbol.decl
        return (symbol.kind, symbol.type, tuple((p.name.text, p.type.name, p.rank) for p in decl.params))
    return (symbol.kind, symbol.type, symbol.builtin.name if symbol.builtin else None,
            getattr(symbol.decl, "param", False))


def _check_function(function: ast.FunctionDef, program: Program, found: Recovery,
                    environment: _Environment, check: int) -> _Result:
    """Run the per-function parts of every pass on `function` alone."""
    references, expr_types = program.references, program.expr_types
    program.references, program.expr_types = {}, {}
    try:
        names = Report(found)
        Resolver(program, names).function(function)
        types = Report(found)
        Typer(program, types, array_arguments([function], program.functions)).block(function.body, function)
        flow = Report(found)
        check_function_flow(function, flow)
        sites = sites_of(program, function)
        called = called_in(program, [function])
        mine, mine_types = program.references, program.expr_types
    finally:
        program.references, program.expr_types = references, expr_types
    symbols = program.symbols
    written = _names_in(function)
    unresolved = {name.text for name, _local in written
                  if name not in mine and not name.recovered and name.text}
    top_level = [(name, symbol.name) for name, symbol in mine.items() if symbols.get(symbol.name) is symbol]
    return _Result(
        function=function,
        references=mine,
        top_level=top_level, top_keys=frozenset(key for _, key in top_level),
        expr_types=mine_types,
        names=names.diagnostics, types=types.diagnostics, flow=flow.diagnostics,
        sites=sites, called=called,
        depends={name.text: environment.signature(name.text) for name, _local in written},
        positions={name.text: environment.position(name.text) for name, local in written if local},
        unresolved={text: text in found.words for text in unresolved},
        candidates=environment.candidates if unresolved else None,
        seen=check, symbols_seen=check, span=function.span,
    )


# A message naming a line ("already declared in this function (line 12)") or a place in
# another file: moving it would need knowing which of its numbers move.
_PLACE_IN_MESSAGE = re.compile(r"\bline \d|\.gdef:\d")


def _moved(result: _Result, now: Span) -> bool:
    """Move the result's diagnostics with its function (the parse cache moved the nodes in
    place: lines were added or removed above it). False when some diagnostic cannot simply
    move: it names a line, or points outside the function; the function is checked again."""
    before, lines = result.span, now.line - result.span.line
    if (now.file, now.end_line - now.line, now.column, now.end_column) != \
            (before.file, before.end_line - before.line, before.column, before.end_column):
        return False

    def inside(span: Span) -> bool:
        return span.file == before.file and before.line <= span.line and span.end_line <= before.end_line

    def move(span: Span) -> Span:
        return Span(span.file, span.line + lines, span.column, span.end_line + lines, span.end_column)

    moved: list[list[Diagnostic]] = []
    for found in (result.names, result.types, result.flow):
        moved.append([])
        for diagnostic in found:
            spans = [diagnostic.span, *(r.span for r in diagnostic.related),
                     *(e.span for s in diagnostic.suggestions for e in s.edits)]
            if _PLACE_IN_MESSAGE.search(diagnostic.message) or not all(inside(span) for span in spans):
                return False
            moved[-1].append(dataclasses.replace(
                diagnostic, span=move(diagnostic.span),
                related=tuple(Related(move(r.span), r.message) for r in diagnostic.related),
                suggestions=tuple(Suggestion(s.message, tuple(Edit(move(e.span), e.new_text) for e in s.edits))
                                  for s in diagnostic.suggestions)))
    result.names, result.types, result.flow = moved
    result.span = now
    return True


def _names_in(function: ast.FunctionDef) -> list[tuple[ast.Name, bool]]:
    """Every name written in the function, each with whether it declares a local or parameter."""
    found: list[tuple[ast.Name, bool]] = []
    for node in ast.walk(function):
        match node:
            case ast.NameRef(name=name):
                found.append((name, False))
            case ast.Call(callee=name) | ast.Index(base=name):
                found.append((name, False))
            case ast.VarDecl(name=name) | ast.Param(name=name):
                found.append((name, True))
    return found
