"""Declared parameters (`param int board_size = 11 in 1 to 25;`, docs/language.md "Parameters").

A parameter is a constant of one game whose value a tool chooses when it loads the game. The
checker runs with the values in use (`bindings`, else the defaults), so `size:`, array sizes
and every check see concrete numbers; a binding that names no parameter or lies outside its
domain is not a diagnostic of the text but a refused setting (`Program.param_errors`), which
the tool that asked reports as a usage error.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Mapping, Union

from gdef_core.semantics.constants import known_size
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast

Value = Union[int, float, bool]
_INT_TEXT = re.compile(r"-?[0-9]+", re.ASCII)
_FLOAT_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?", re.ASCII)
PARAM_TYPES = ("int", "float", "bool")


def check_param_decls(program: Program, report: Report, bindings: Mapping[str, object] | None) -> None:
    """Checks every declaration (G414, G415), then binds the values in use."""
    for module in program.modules:
        for item in module.items:
            if isinstance(item, ast.GameVar) and not report.recovery.distrusts(item):
                if item.param:
                    if program.game_vars.get(item.name.text) is item:  # not a duplicate (G203)
                        _declaration(program, report, item)
                elif item.domain is not None:
                    report.add("G414", item.domain.span, f"'{item.name.text}' is a game variable, which "
                               f"has no allowed values; declare it `param {item.type.name} "
                               f"{item.name.text} = ...` to make it a parameter")
    for name, given in (bindings or {}).items():
        decl = program.params.get(name)
        if decl is None:
            known = ", ".join(describe(program, other) for other in program.params) or "none"
            program.param_errors[name] = f"the game has no parameter '{name}' (its parameters: {known})"
            continue
        value = convert(decl.type.name, given)
        if value is None or not allowed(program, name, value):
            program.param_errors[name] = f"parameter '{name}' cannot be {given}: it takes " \
                                         f"{_domain_words(program, name)}"
            continue
        program.param_values[name] = value


def bind_values(program: Program) -> None:
    """The checked Program with the values in use written into it, so that the backends see
    concrete constants: each parameter's initial value, and every game-variable array size."""
    for name, decl in list(program.game_vars.items()):
        changes: dict = {}
        if name in program.param_values and program.param_values[name] != default_of(decl):
            changes["init"] = literal(program.param_values[name], decl.init.span)
        sizes = [known_size(program, size) for size in decl.sizes]
        if None not in sizes and any(isinstance(node, ast.NameRef) and node.name.text in program.params
                                     for size in decl.sizes for node in ast.walk(size)):
            changes["sizes"] = [ast.IntLit(value, size.span) for value, size in zip(sizes, decl.sizes)]
        if changes:
            program.game_vars[name] = dataclasses.replace(decl, **changes)


def _declaration(program: Program, report: Report, decl: ast.GameVar) -> None:
    name, kind, domain = decl.name.text, decl.type.name, decl.domain
    if kind not in PARAM_TYPES or decl.sizes:
        report.add("G414", decl.type.span if not decl.sizes else decl.sizes[0].span,
                   f"parameter '{name}' must be a single int, float or bool")
        return
    if kind == "bool":
        if domain is not None:
            report.add("G414", domain.span, f"the bool parameter '{name}' takes true or false; "
                       "remove the allowed values")
            return
    elif domain is None:
        example = "in 1 to 19" if kind == "int" else "in 0.0 to 10.0"
        report.add("G414", decl.name.span, f"the {kind} parameter '{name}' needs its allowed values: "
                   f"`{example}` or `in {{9, 13, 19}}` after the default")
        return
    bounds: list[Value] = []
    if domain is not None:
        for item in domain.items:
            value = constant(item, kind)
            if value is None:
                report.add("G414", item.span, f"the allowed values of the {kind} parameter '{name}' are "
                           f"{kind} literals{' (ints too)' if kind == 'float' else ''}, optionally with '-'")
                return
            if not domain.is_range and value in bounds:
                report.add("G414", item.span, f"{_shown(value)} is listed twice")
                return
            bounds.append(value)
        if domain.is_range and bounds[0] > bounds[1]:
            report.add("G414", domain.span, f"the range of '{name}' is empty: {_shown(bounds[0])} is "
                       f"above {_shown(bounds[1])}")
            return
        if not bounds:
            report.add("G414", domain.span, f"'{name}' lists no allowed value")
            return
    default = constant(decl.init, kind)
    program.params[name] = decl
    program.param_domains[name] = (domain is not None and domain.is_range, tuple(bounds))
    if default is None:
        report.add("G415", decl.init.span, f"the default of the {kind} parameter '{name}' must be "
                   f"{'an' if kind == 'int' else 'a'} {kind} literal")
        del program.params[name]
        return
    program.param_values[name] = default
    if not allowed(program, name, default):
        report.add("G415", decl.init.span, f"the default {_shown(default)} of '{name}' is not "
                   f"allowed: it takes {_domain_words(program, name)}")


def constant(expr, kind: str) -> Value | None:
    """The value of a literal of `kind` (an int literal for a float), with an optional '-'."""
    sign = 1
    if isinstance(expr, ast.Unary) and expr.op == "-" and kind != "bool":
        sign, expr = -1, expr.operand
    if kind == "bool":
        return expr.value if isinstance(expr, ast.BoolLit) else None
    if isinstance(expr, ast.IntLit) or (kind == "float" and isinstance(expr, ast.FloatLit)):
        return sign * (float(expr.value) if kind == "float" else expr.value)
    return None


def convert(kind: str, given: object) -> Value | None:
    """A value given by a tool (text from a command line, or a Python value) as `kind`."""
    if isinstance(given, str):
        text = given.strip()
        if kind == "bool":
            return {"true": True, "false": False}.get(text)
        # gdef's own number literals, with an optional '-' (not Python's: no '1_0', '+5', '١')
        if not (_INT_TEXT if kind == "int" else _FLOAT_TEXT).fullmatch(text):
            return None
        return int(text) if kind == "int" else float(text)
    if isinstance(given, bool):
        return given if kind == "bool" else None
    if kind == "int" and isinstance(given, int):
        return given
    if kind == "int" and isinstance(given, float) and given.is_integer():
        return int(given)
    if kind == "float" and isinstance(given, (int, float)):
        return float(given)
    return None


def allowed(program: Program, name: str, value: Value) -> bool:
    is_range, bounds = program.param_domains.get(name, (False, ()))
    if program.params[name].type.name == "bool":
        return isinstance(value, bool)
    if is_range:
        return bounds[0] <= value <= bounds[1]
    return value in bounds


def describe(program: Program, name: str) -> str:
    """`board_size (int, 1 to 25, default 11)`: a parameter for messages and hover."""
    decl = program.params[name]
    return f"{name} ({decl.type.name}, {_domain_words(program, name)}, default {_shown(default_of(decl))})"


def default_of(decl: ast.GameVar) -> Value | None:
    return constant(decl.init, decl.type.name)


def _domain_words(program: Program, name: str) -> str:
    if program.params[name].type.name == "bool":
        return "true or false"
    is_range, bounds = program.param_domains[name]
    if is_range:
        return f"{_shown(bounds[0])} to {_shown(bounds[1])}"
    return "one of " + ", ".join(_shown(value) for value in bounds)


def _shown(value: Value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def literal(value: Value, span):
    """A literal node for a bound value (a negative number as unary '-')."""
    if isinstance(value, bool):
        return ast.BoolLit(value, span)
    node = ast.FloatLit(abs(value), span) if isinstance(value, float) else ast.IntLit(abs(value), span)
    return ast.Unary("-", node, span) if value < 0 else node
