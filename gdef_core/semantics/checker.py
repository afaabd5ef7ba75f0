"""The checker: parsed modules -> a Program with its tables and every diagnostic.

It runs small passes in a fixed order over one shared Program (collect declarations, game
parameters, start, names, ...). It never runs user code and never raises on an AST the parser
produces; names and expressions the parser had to invent are left alone (their syntax error is
already reported).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from gdef_core.diagnostics import Diagnostic, sort_key
from gdef_core.semantics.chance import check_chance_defined
from gdef_core.semantics.collect import collect
from gdef_core.semantics.constants import check_game_var_inits
from gdef_core.semantics.contexts import check_contexts, check_generator, check_unused_functions
from gdef_core.semantics.flow import check_flow
from gdef_core.semantics.names import resolve_names
from gdef_core.semantics.param_decls import bind_values, check_param_decls
from gdef_core.semantics.params import check_params
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report
from gdef_core.semantics.recovery import recovery
from gdef_core.semantics.show import check_show
from gdef_core.semantics.start import check_start
from gdef_core.semantics.structure import check_entry_points
from gdef_core.semantics.types import check_types
from gdef_core.syntax import ast


def check(modules: list[ast.Module], load_diagnostics: Sequence[Diagnostic] = (),
          params: Mapping[str, object] | None = None) -> Program:
    """`params`: values for the game's declared parameters (by name), else their defaults."""
    program = Program(modules=list(modules))
    report = Report(recovery(program.modules, load_diagnostics))
    collect(program, report)
    check_param_decls(program, report, params)
    check_params(program, report)
    check_start(program, report)
    resolve_names(program, report)
    check_types(program, report)
    check_game_var_inits(program, report)
    check_show(program, report)
    check_entry_points(program, report)
    check_flow(program, report)
    check_contexts(program, report)
    check_generator(program, report)
    check_chance_defined(program, report)
    check_unused_functions(program, report)
    everything = sorted([*load_diagnostics, *report.kept()], key=sort_key)
    program.diagnostics = list(dict.fromkeys(everything))
    if program.ok:
        bind_values(program)
    return program
