"""At most N syntax errors per file are reported, as compilers do (clang stops at 20): past
that, one G109 says how many more there are. The checker still sees every error (its
recovery rules need their positions); only what is shown is cut, by every tool alike
(gdef-check, gdef-run, gdef-test, the language server)."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from gdef_core.codes import DEFAULT_MAX_ERRORS, diagnostic
from gdef_core.diagnostics import Diagnostic

# Errors about a whole file (a `use` that cannot be read, binary data) are not syntax errors.
_NOT_COUNTED = frozenset({"G107", "G108", "G109"})


def is_syntax_error(found: Diagnostic) -> bool:
    return found.is_error and found.code.startswith("G1") and found.code not in _NOT_COUNTED


def limit_syntax_errors(diagnostics: Iterable[Diagnostic], max_errors: int = DEFAULT_MAX_ERRORS
                        ) -> list[Diagnostic]:
    """`diagnostics` (in their order) with each file's syntax errors past the first
    `max_errors` (in position order) replaced by one G109 where the first of them was;
    `max_errors` 0: no limit."""
    diagnostics = list(diagnostics)
    if max_errors <= 0:
        return diagnostics
    per_file: dict[str, list[Diagnostic]] = {}
    for found in diagnostics:
        if is_syntax_error(found):
            per_file.setdefault(found.span.file, []).append(found)
    hidden: dict[int, Diagnostic | None] = {}  # id of a dropped diagnostic -> what stands for it
    for errors in per_file.values():
        if len(errors) <= max_errors:
            continue
        errors.sort(key=lambda d: (d.span.line, d.span.column))
        dropped = errors[max_errors:]
        first = dropped[0]
        count = len(dropped)
        noun = "syntax error" if count == 1 else "syntax errors"
        summary = replace(diagnostic("G109", first.span, f"and {count} more {noun} in this file, not shown "
                                                 f"(at most {max_errors} per file: --max-errors N "
                                                 "shows more, 0 all)"), more=count - 1)
        hidden[id(first)] = summary
        hidden.update((id(d), None) for d in dropped[1:])
    if not hidden:
        return diagnostics
    return [hidden.get(id(d), d) for d in diagnostics if hidden.get(id(d), d) is not None]

