"""The editor's view of the files: open buffers override the disk, and every game is
analysed once per change of anything it could read.

Each change of a buffer (or of the disk) starts a new generation: the files read, the
games found and the analyses of the older one are dropped, and the next request that needs
them recomputes them. Parsing goes through a per-definition cache (ParseCache), so a
keystroke re-parses only the definitions it touched. Which files make a game is decided by
gdef_core.project, as for gdef-check.
"""
from __future__ import annotations

import os

from gdef_core import project
from gdef_core.diagnostics import Diagnostic, sort_key
from gdef_core.ide.analysis import Analysis
from gdef_core.ide.parse_cache import ParseCache
from gdef_core.loader import GdefFileError
from gdef_core.report.limit import limit_syntax_errors
from gdef_core.semantics.incremental import IncrementalChecker
from gdef_core.semantics.program import Program


# Open buffers longer than this (in characters) are not analysed: each would hold the server
# for seconds (parsing and checking cost about 0.1 s per 1,000 lines) while other requests
# wait. Such a buffer is seen as empty until it shrinks; the server tells the user why.
MAX_ANALYSED_CHARS = 1_000_000


def normalise(path: str) -> str:
    """The one spelling of a path used as a key everywhere (absolute, normalised)."""
    return os.path.abspath(path)


class Session:
    def __init__(self) -> None:
        self._buffers: dict[str, str] = {}
        self._too_large: dict[str, int] = {}  # open buffers not analysed -> their length
        self.parse_cache = ParseCache()
        self._workspace: project.Workspace | None = None
        self._analyses: dict[tuple[str, ...], Analysis] = {}
        self._previous: dict[tuple[str, ...], Analysis] = {}  # the last analysis of each game
        self._games: dict[str, list[tuple[str, ...]]] = {}
        self._checkers: dict[tuple[str, ...], IncrementalChecker] = {}  # per game: kept results

    # ------------------------------------------------------------ text

    def set_buffer(self, path: str, text: str) -> None:
        """An editor opened or changed `path`: its text now wins over the disk (a text longer
        than MAX_ANALYSED_CHARS counts as empty: see too_large)."""
        path = normalise(path)
        if len(text) > MAX_ANALYSED_CHARS:
            self._too_large[path] = len(text)
            text = ""
        else:
            self._too_large.pop(path, None)
        if self._buffers.get(path) != text:
            self._buffers[path] = text
            self.disk_changed()

    def too_large(self, path: str) -> int | None:
        """The length of the open buffer of `path` when it is too long to be analysed, else None."""
        return self._too_large.get(normalise(path))

    def close_buffer(self, path: str) -> None:
        self._too_large.pop(normalise(path), None)
        if self._buffers.pop(normalise(path), None) is not None:
            self.disk_changed()

    def disk_changed(self) -> None:
        """Something any game could read changed: forget everything read or computed."""
        self._workspace = None
        self._previous.update(self._analyses)
        self._analyses.clear()
        self._games.clear()

    def open_paths(self) -> list[str]:
        return list(self._buffers)

    @property
    def workspace(self) -> project.Workspace:
        if self._workspace is None:
            self._workspace = project.Workspace(dict(self._buffers), parse=self.parse_cache.parse)
        return self._workspace

    def source(self, path: str) -> str | None:
        """The text of `path`: the open buffer, else the file on disk, else None."""
        path = normalise(path)
        text = self._buffers.get(path)
        if text is not None:
            return text
        try:
            return self.workspace.source(path).module.text
        except OSError:
            return None

    # ------------------------------------------------------------ games

    def games(self, path: str) -> list[tuple[str, ...]]:
        """The games `path` belongs to, each as the files to load: the file itself if it
        declares a game (or no game uses it), else each game of its folder that uses it."""
        path = normalise(path)
        found = self._games.get(path)
        if found is None and path in self._too_large:  # empty for now: no game to look for
            found = self._games[path] = [(path,)]
        if found is None:
            try:
                is_game = self.workspace.source(path).declares_game
            except OSError:
                is_game = True
            users = [] if is_game else project.games_using(path, self.workspace)
            found = self._games[path] = [(normalise(user),) for user in users] or [(path,)]
        return found

    def analyses(self, path: str) -> list[Analysis]:
        """One analysis per game that contains `path` (a library can be in several)."""
        return [self._analysis_of(entry) for entry in self.games(path)]

    def recent_analyses(self, path: str) -> list[Analysis]:
        """Like analyses(), but a game whose text changed since its last analysis gives that
        last analysis instead of waiting for a new one. For answers that need only the
        game's names (completion, signature help), not positions: they stay instant on
        large files, and the names are at most one keystroke old."""
        return [self._analyses.get(entry) or self._previous.get(entry) or self._analysis_of(entry)
                for entry in self.games(path)]

    def analysis(self, path: str) -> Analysis:
        """The analysis of the first game that contains `path`."""
        return self.analyses(path)[0]

    def _analysis_of(self, entry: tuple[str, ...]) -> Analysis:
        found = self._analyses.get(entry)
        if found is None:
            checker = self._checkers.get(entry)
            if checker is None:
                checker = self._checkers[entry] = IncrementalChecker()
            try:
                program = checker.check(*self.workspace.load(entry))
            except GdefFileError:  # deleted since the games were listed
                program = Program(modules=[])
            found = self._analyses[entry] = Analysis(program, entry)
        return found

    def diagnostics(self, path: str) -> list[Diagnostic]:
        """Every diagnostic about `path` from every game it belongs to, without repeats; past
        DEFAULT_MAX_ERRORS syntax errors, one G109 says how many more (as gdef-check)."""
        path = normalise(path)
        seen: dict[tuple, Diagnostic] = {}
        for analysis in self.analyses(path):
            for diag in analysis.program.diagnostics:
                if normalise(diag.span.file) == path:
                    seen.setdefault((diag.code, diag.span, diag.message), diag)
        return limit_syntax_errors(sorted(seen.values(), key=sort_key))

    def game_files(self, path: str) -> set[str]:
        """Every file of every game that contains `path` (what a change of `path` affects)."""
        files: set[str] = set()
        for analysis in self.analyses(path):
            files.update(analysis.files)
        return files
