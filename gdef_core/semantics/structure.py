"""The entry points the runtime calls: isMoveLegal() and end() must exist in a game, and all
four (with moves() and setup(), and chance() in a game that calls chanceNext()) must have the
shape the runtime calls them with."""
from __future__ import annotations

from gdef_core.builtins import ENTRY_POINTS
from gdef_core.semantics.chance import is_entry_point
from gdef_core.semantics.params import first_param
from gdef_core.semantics.program import Program
from gdef_core.semantics.report import Report
from gdef_core.syntax import ast


def check_entry_points(program: Program, report: Report) -> None:
    anchor = first_param(program)
    for name, (result, required) in ENTRY_POINTS.items():
        function = program.functions.get(name)
        if function is not None and not is_entry_point(program, name, ENTRY_POINTS):
            continue  # the game's own chance(), in a game without chanceNext()
        if function is None:
            if required and anchor is not None and not program.is_library \
                    and not report.recovery.syntax_errors:  # it may be in broken text
                report.add("G405", anchor.key.span, f"the game has no '{name}()'; define it: "
                           f"`define {name}() -> bool {{ ... }}`")
            continue
        _shape(report, function, result)


def _shape(report: Report, function: ast.FunctionDef, result: str | None) -> None:
    name = function.name.text
    wanted = f"`define {name}()" + (f" -> {result}" if result else "") + " { ... }`"
    if function.params:
        span = function.params[0].span.to(function.params[-1].span)
        report.add("G406", span, f"'{name}()' takes no parameters; declare it as {wanted}")
    returned = function.return_type
    if result is None and returned is not None:
        report.add("G406", returned.span, f"'{name}()' has no result; declare it as {wanted}")
    elif result is not None and returned is None:
        report.add("G406", function.name.span, f"'{name}()' must return {result}; declare it as {wanted}")
    elif result is not None and returned.name != result:
        report.add("G406", returned.span, f"'{name}()' must return {result}, not {returned.name}; "
                   f"declare it as {wanted}")

