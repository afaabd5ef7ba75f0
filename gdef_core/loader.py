"""Files -> parsed modules of one game: reads the named files, follows `use`, never raises on
bad content (only on a named file that cannot be read at all: GdefFileError)."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from gdef_core.codes import diagnostic
from gdef_core.diagnostics import Diagnostic
from gdef_core.files import binary_data_at, not_text_message, read_bytes
from gdef_core.semantics.program import Program
from gdef_core.span import Span, lone_cr_as_lf
from gdef_core.syntax import ParseResult, ast, parse


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
            binary = binary_data_at(text)
            return (lone_cr_as_lf(text), []) if binary is None else _not_text(path, text.encode(
                "utf-8", "surrogatepass"), binary)
    data = read_bytes(path)
    binary = binary_data_at(data)
    if binary is not None:
        return _not_text(path, data, binary)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return lone_cr_as_lf(data.decode("utf-8")), []
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8", errors="replace")
        line = before.count("\n")
        column = len(before) - (before.rfind("\n") + 1)
        bad = data[error.start: error.end]
        return lone_cr_as_lf(data.decode("utf-8", errors="replace")), [diagnostic(
            "G100", Span(path, line, column, line, column + 1),
            f"this file is not valid UTF-8 (byte {bad[:4].hex(' ')} at offset {error.start}): "
            "save it as UTF-8")]


def _not_text(path: str, data: bytes, offset: int) -> tuple[str, list[Diagnostic]]:
    before = lone_cr_as_lf(data[:offset].decode("utf-8", errors="replace"))
    line = before.count("\n")
    column = len(before) - (before.rfind("\n") + 1)
    return "", [diagnostic("G108", Span(path, line, column, line, column + 1), not_text_message(offset))]


@dataclass(slots=True)
class SourceFile:
    """One file, read and parsed once per Sources."""

    module: ast.Module
    diagnostics: list[Diagnostic]  # reading (G100) and syntax
    uses: list[tuple[str, ast.UseDecl]]  # (the used file's path, the `use` line)

    @property
    def declares_game(self) -> bool:
        return not self.module.is_library


class Sources:
    """Reads and parses each file once, however many games include it.

    `overlay` maps absolute paths to the text of unsaved editor buffers. `parse` is
    gdef_core.parse or anything with its contract (the language server passes one that
    re-parses only the definitions an edit touched)."""

    def __init__(self, overlay: Mapping[str, str] | None = None,
                 parse: Callable[[str, str], ParseResult] = parse, confine: str | None = None) -> None:
        self.overlay = overlay
        self.confine = os.path.realpath(confine) if confine is not None else None
        self._parse = parse
        self._files: dict[str, SourceFile] = {}
        self._keys: dict[str, str] = {}

    def key(self, path: str) -> str:
        """The identity of a file, whatever path reached it (its real path, looked up once).
        Never raises: a path read from a file may hold what no file name can (a NUL byte, a
        lone surrogate from an editor buffer); such a path names no file, it is its own key."""
        key = self._keys.get(path)
        if key is None:
            try:
                key = os.path.realpath(path)
            except (ValueError, UnicodeError):
                key = os.path.abspath(path)
            self._keys[path] = key
        return key

    def source(self, path: str) -> SourceFile:
        """The file, parsed. Raises OSError if it cannot be read."""
        key = self.key(path)
        cached = self._files.get(key)
        if cached is None:
            text, read_diagnostics = read_source(path, self.overlay)
            result = self._parse(text, path)
            uses = [(_used_path(path, item), item) for item in result.module.items
                    if isinstance(item, ast.UseDecl) and item.path]
            cached = SourceFile(result.module, [*read_diagnostics, *result.diagnostics], uses)
            self._files[key] = cached
        return cached

    def load(self, paths: Sequence[str]) -> tuple[list[ast.Module], list[Diagnostic]]:
        """The named files and every file they `use` (transitively, each once): modules
        (named files first, then used files as found) and the diagnostics of reading and
        parsing. Raises GdefFileError if a named file cannot be read."""
        modules: list[ast.Module] = []
        diagnostics: list[Diagnostic] = []
        seen: set[str] = set()
        queue: list[tuple[str, ast.UseDecl | None]] = [(path, None) for path in paths]
        while queue:
            path, used_by = queue.pop(0)
            problem = _unusable_path(path, used_by, self.confine)
            if problem is not None:
                if used_by is None:
                    raise GdefFileError(path, problem)
                diagnostics.append(diagnostic("G107", used_by.path_span, problem))
                continue
            key = self.key(path)
            if key in seen:
                continue
            try:
                source = self.source(path)
            except OSError as error:
                if used_by is None:
                    raise GdefFileError(path, _reason(error)) from None
                diagnostics.append(diagnostic(
                    "G107", used_by.path_span,
                    f"cannot read '{used_by.path}' ({error.strerror or error}): check the path, "
                    "which is relative to this file"))
                continue
            seen.add(key)
            modules.append(source.module)
            diagnostics.extend(source.diagnostics)
            queue.extend(source.uses)
        return modules, diagnostics


def _unusable_path(path: str, used_by: ast.UseDecl | None, confine: str | None) -> str | None:
    """Why a path must not be read, or None. A `use` names .gdef files only, so that a rules
    file cannot make gdef read (and quote, in its error messages) /proc/self/environ or
    /etc/passwd; with `confine`, only files inside that folder (symbolic links resolved)."""
    if "\0" in path or not _encodable(path):
        return "the path holds a character no file name can have (a NUL byte or a lone surrogate)"
    if used_by is None:
        return None
    if not is_gdef_name(path):
        return (f"'{used_by.path}' is not a .gdef file: `use` names .gdef files only "
                "(its content is not read)")
    if confine is not None:
        real = os.path.realpath(path)
        if os.path.commonpath([real, confine]) != confine:
            return (f"'{used_by.path}' is outside the project folder {confine}: "
                    "--confine-use reads only files inside it")
    return None


def is_gdef_name(path: str) -> bool:
    """Whether a path read from a file (a `use`, a game record's `files`) may be read: a .gdef
    name a file system can hold. Such paths come from files others may have written, so they
    never name /proc/self/environ or /etc/shadow, whose content error messages would quote."""
    return path.endswith(".gdef") and "\0" not in path and _encodable(path)


def _encodable(path: str) -> bool:
    try:
        os.fsencode(path)
        return True
    except UnicodeError:
        return False


def _used_path(path: str, use: ast.UseDecl) -> str:
    """A `use` path is relative to the file that names it."""
    return os.path.normpath(os.path.join(os.path.dirname(path), use.path))


def load_modules(paths: Iterable[str], overlay: Mapping[str, str] | None = None
                 ) -> tuple[list[ast.Module], list[Diagnostic]]:
    """Parse the named files and every file they `use` (see Sources.load)."""
    return Sources(overlay).load(list(paths))


def load_program(paths: Iterable[str], overlay: Mapping[str, str] | None = None,
                 params: Mapping[str, object] | None = None) -> Program:
    """Load and check one game (or library): every diagnostic, plus what the checker knows.
    `params`: values for the game's parameters (checked with them; refused ones are listed in
    `Program.param_errors`)."""
    from gdef_core.semantics.checker import check

    modules, diagnostics = load_modules(list(paths), overlay)
    return check(modules, diagnostics, params)


def check_files(paths: Iterable[str], overlay: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """All diagnostics of the game made of `paths` (and the files they use)."""
    return load_program(paths, overlay).diagnostics


def _reason(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "it is a directory (name .gdef files, or use gdef-check on directories)"
    if isinstance(error, PermissionError):
        return "permission denied"
    return error.strerror or str(error)


__all__ = ["GdefFileError", "SourceFile", "Sources", "check_files", "is_gdef_name", "load_modules",
           "load_program", "read_source"]
