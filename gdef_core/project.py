"""Which .gdef files a run reads, and how they group into games.

A game can be split over several files (`use "helpers.gdef"`), and a helper file alone means
little: the names it calls may be defined by the game that uses it. So:

- a game file (one that declares game parameters) is checked with the files it `use`s;
- a library file (no game parameters) that a game of the same run uses is checked inside that
  game, where its names are defined, and only there (its problems are not reported twice);
- a library file that no game of the run uses is checked inside the games *of its own folder*
  that use it, reporting only its own diagnostics: so a pre-commit run that passes only the
  changed helper does not call the game's names undefined;
- a library file that no game uses at all is checked alone, as a library;
- with `one_game`, all the files form one game (`gdef-run game.gdef helpers.gdef` style).

The language server asks the same question ("which games give this library its meaning?")
through `games_using`. Nothing here prints or exits: the CLI decides what to do with problems.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import PurePath

from gdef_core.loader import Sources
from gdef_core.semantics.program import Program
from gdef_core.syntax import ParseResult, ast, parse

GDEF_SUFFIX = ".gdef"
# Never searched when walking a directory (named explicitly, they are searched).
SKIPPED_DIRECTORIES = frozenset({"node_modules", "__pycache__"})


@dataclass(frozen=True, slots=True)
class InputProblem:
    """An input that could not be checked at all (missing, unreadable)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


# ---------------------------------------------------------------------------- discovery


@dataclass(slots=True)
class Discovery:
    files: list[str] = field(default_factory=list)  # in order: as named, directories sorted
    problems: list[InputProblem] = field(default_factory=list)
    empty_directories: list[str] = field(default_factory=list)  # named, but no .gdef inside


def discover(paths: Iterable[str], exclude: Sequence[str] = ()) -> Discovery:
    """The .gdef files under `paths`. A named file is taken whatever its name; directories are
    searched recursively for `*.gdef`, skipping hidden directories and SKIPPED_DIRECTORIES.
    `exclude` globs are matched against each file's or directory's name and its path (as
    shown), for named paths too. Each file is listed once, under the first name it was met by.
    """
    found = Discovery()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            found.files.append(path)

    for path in paths:
        if is_excluded(path, exclude):
            continue
        if os.path.isdir(path):
            inside = _walk(path, exclude, found.problems)
            if not inside:
                found.empty_directories.append(path)
            for file in inside:
                add(file)
        elif os.path.lexists(path):
            add(path)
        else:
            found.problems.append(InputProblem(path, "no such file or directory"))
    return found


def _walk(directory: str, exclude: Sequence[str], problems: list[InputProblem]) -> list[str]:
    files = []

    def on_error(error: OSError) -> None:
        where = error.filename or directory
        problems.append(InputProblem(where, f"cannot read directory: {error.strerror or error}"))

    for root, dirs, names in os.walk(directory, onerror=on_error):
        dirs[:] = sorted(name for name in dirs
                         if not name.startswith(".") and name not in SKIPPED_DIRECTORIES
                         and not is_excluded(_join(root, name), exclude))
        for name in sorted(names):
            path = _join(root, name)
            if name.endswith(GDEF_SUFFIX) and os.path.isfile(path) and not is_excluded(path, exclude):
                files.append(path)
    return files


def _join(directory: str, name: str) -> str:
    """`dir/name` without a leading `./` (paths are shown as the user would write them)."""
    return os.path.normpath(os.path.join(directory, name))


def is_excluded(path: str, patterns: Sequence[str]) -> bool:
    if not patterns:
        return False
    normal = PurePath(os.path.normpath(path)).as_posix()
    name = PurePath(normal).name
    return any(fnmatchcase(name, pattern) or fnmatchcase(normal, pattern.rstrip("/"))
               for pattern in patterns)


# ---------------------------------------------------------------------------- reading


class Workspace(Sources):
    """The loader's file cache, plus the questions a run asks about games: which files a
    game includes, which games of a folder use a library."""

    def __init__(self, overlay: Mapping[str, str] | None = None,
                 parse: Callable[[str, str], ParseResult] = parse, confine: str | None = None) -> None:
        super().__init__(overlay, parse, confine)
        self._closures: dict[str, frozenset[str]] = {}
        self._folder_games: dict[str, list[str]] = {}

    def program(self, paths: Sequence[str], params: Mapping[str, object] | None = None) -> Program:
        """Load and check one game (or library), as gdef_core.load_program does."""
        from gdef_core.semantics.checker import check

        return check(*self.load(paths), params)

    def closure(self, path: str) -> frozenset[str]:
        """The keys of `path` and of every file it uses, transitively (readable ones)."""
        start = self.key(path)
        cached = self._closures.get(start)
        if cached is None:
            found: set[str] = set()
            seen: set[str] = set()
            queue = [path]
            while queue:
                current = queue.pop()
                key = self.key(current)
                if key in seen:
                    continue
                seen.add(key)
                try:
                    source = self.source(current)
                except OSError:
                    continue
                found.add(key)
                queue.extend(used for used, _ in source.uses)
            cached = self._closures[start] = frozenset(found)
        return cached

    def games_in(self, folder: str) -> list[str]:
        """The readable game files (not libraries) directly in `folder`, sorted by name."""
        cached = self._folder_games.get(folder)
        if cached is None:
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                names = []
            cached = []
            for name in names:
                candidate = _join(folder, name)
                if not name.endswith(GDEF_SUFFIX):
                    continue
                try:
                    if self.source(candidate).declares_game:
                        cached.append(candidate)
                except OSError:
                    continue
            self._folder_games[folder] = cached
        return cached


# ---------------------------------------------------------------------------- games


@dataclass(frozen=True, slots=True)
class Unit:
    """One program to check: the files loaded together (plus what they use).

    `report_only`: when set, real paths of the only files whose diagnostics belong to the run
    (a game of the library's folder checked just to give the library its meaning)."""

    paths: tuple[str, ...]
    report_only: frozenset[str] | None = None


def plan(files: Sequence[str], workspace: Workspace, *, one_game: bool = False) -> list[Unit]:
    """The programs that check `files`, following the rules in this module's docstring.
    Files that cannot be read become units of their own (loading them reports the problem)."""
    if one_game:
        return [Unit(tuple(files))] if files else []
    games, libraries, unreadable = [], [], []
    for path in files:
        try:
            (games if workspace.source(path).declares_game else libraries).append(path)
        except OSError:
            unreadable.append(path)
    units = [Unit((game,)) for game in games]
    covered = {key for game in games for key in workspace.closure(game)}
    loose = [lib for lib in libraries if workspace.key(lib) not in covered]
    context: dict[str, set[str]] = {}  # a game of the folder -> the loose libraries it explains
    alone = []
    for library in loose:
        users = games_using(library, workspace)
        for user in users:
            context.setdefault(user, set()).add(workspace.key(library))
        if not users:
            alone.append(library)
    units += [Unit((game,), frozenset(keys)) for game, keys in context.items()]
    units += [Unit((library,)) for library in _library_roots(alone, workspace)]
    units += [Unit((path,)) for path in unreadable]
    return units


def _library_roots(libraries: list[str], workspace: Workspace) -> list[str]:
    """The libraries that no other one of the list uses (both, when two use each other):
    checking those checks the rest through `use`."""
    keys = {workspace.key(lib) for lib in libraries}
    used_by: dict[str, list[str]] = {}  # a library's key -> the other libraries of the list using it
    for lib in libraries:
        for key in workspace.closure(lib) & keys:
            if key != workspace.key(lib):
                used_by.setdefault(key, []).append(lib)
    roots = []
    for lib in libraries:
        key = workspace.key(lib)
        if not any(workspace.key(other) not in workspace.closure(lib) for other in used_by.get(key, ())):
            roots.append(lib)
    return roots


def games_using(path: str, workspace: Workspace | None = None) -> list[str]:
    """The game files in `path`'s folder whose `use` closure includes `path`, sorted by name:
    the games that give a library file its meaning. Unreadable files are skipped."""
    workspace = workspace or Workspace()
    key = workspace.key(path)
    games = workspace.games_in(os.path.dirname(path) or ".")
    return [game for game in games if workspace.key(game) != key and key in workspace.closure(game)]


def top_level_names(workspace: Workspace, paths: Sequence[str]) -> dict[str, str]:
    """Each function, object and game variable that `paths` define -> the first file defining
    it (unreadable files are skipped)."""
    defined: dict[str, str] = {}
    for path in paths:
        try:
            module = workspace.source(path).module
        except OSError:
            continue
        for item in module.items:
            if isinstance(item, (ast.FunctionDef, ast.ObjDecl, ast.GameVar)) and item.name.text:
                defined.setdefault(item.name.text, module.path)
    return defined
