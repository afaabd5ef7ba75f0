"""Files -> parsed modules of one game: reads the named files, follows `use`, never raises on
bad content (only on a named file that cannot be read at all: GdefFileError)."""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic
from gdef_core.semantics.program import Program
from gdef_core.span import Span
from gdef_core.syntax import ast, parse


class GdefFileError(Exception):
    """A file named by the user cannot be read. `str()` is a message fit for the terminal."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: cannot read file: {reason}")
        self.path = path
        self.reason = reason


def read_source(path: str, overlay: Mapping[str, str] | None = None) -> tuple[str, list[Diagnostic]]:
    """The text of a file (an open editor buffer wins over the disk), decoded as UTF-8.

    Undecodable bytes become U+FFFD and one G100 diagnostic at the first of them.
    Raises OSError when the file cannot be read.
    """
    if overlay:
        text = overlay.get(os.path.abspath(path))
        if text is not None:
            return text, []
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8", errors="replace")
        line = before.count("\n")
        column = len(before) - (before.rfind("\n") + 1)
        bad = data[error.start: error.end]
        return data.decode("utf-8", errors="replace"), [diagnostic(
            "G100", Span(path, line, column, line, column + 1),
            f"this file is not valid UTF-8 (byte {bad[:4].hex(' ')} at offset {error.start}): "
            "save it as UTF-8")]


def load_modules(paths: Iterable[str], overlay: Mapping[str, str] | None = None
                 ) -> tuple[list[ast.Module], list[Diagnostic]]:
    """Parse the named files and every file they `use` (transitively, each file once).

    Returns the modules (named files first, in order, then used files as found) and the
    diagnostics of reading and parsing. Raises GdefFileError if a named file cannot be read.
    """
    modules: list[ast.Module] = []
    diagnostics: list[Diagnostic] = []
    seen: set[str] = set()
    queue: list[tuple[str, ast.UseDecl | None]] = [(path, None) for path in paths]
    while queue:
        path, used_by = queue.pop(0)
        key = os.path.realpath(path)
        if key in seen:
            continue
        try:
            text, read_diagnostics = read_source(path, overlay)
        except OSError as error:
            reason = error.strerror or str(error)
            if used_by is None:
                raise GdefFileError(path, _reason(error, path)) from None
            diagnostics.append(diagnostic(
                "G107", used_by.path_span,
                f"cannot read '{used_by.path}' ({reason}): check the path, which is relative to "
                "this file"))
            continue
        seen.add(key)
        result = parse(text, path)
        modules.append(result.module)
        diagnostics.extend(read_diagnostics)
        diagnostics.extend(result.diagnostics)
        for item in result.module.items:
            if isinstance(item, ast.UseDecl) and item.path:
                target = os.path.normpath(os.path.join(os.path.dirname(path), item.path))
                queue.append((target, item))
    return modules, diagnostics


def load_program(paths: Iterable[str], overlay: Mapping[str, str] | None = None) -> Program:
    """Load and check one game (or library): every diagnostic, plus what the checker knows."""
    from gdef_core.semantics.checker import check

    modules, diagnostics = load_modules(list(paths), overlay)
    return check(modules, diagnostics)


def check_files(paths: Iterable[str], overlay: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """All diagnostics of the game made of `paths` (and the files they use)."""
    return load_program(paths, overlay).diagnostics


def _reason(error: OSError, path: str) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "it is a directory (name .gdef files, or use gdef-check on directories)"
    if isinstance(error, PermissionError):
        return "permission denied"
    return error.strerror or str(error)


__all__ = ["GdefFileError", "check_files", "load_modules", "load_program", "read_source"]
