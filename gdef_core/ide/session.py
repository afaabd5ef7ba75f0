"""The editor's view of the files: open buffers override the disk, and every game is
analysed once per change of anything it could read.

Each change of a buffer (or a file on disk) starts a new generation; analyses of the older
generation are dropped, and the next request that needs one recomputes it. Parsing goes
through a per-definition cache (`ParseCache`), so a keystroke re-parses only the
definitions it touched.
"""
from __future__ import annotations

import os

from gdef_core.diagnostics import Diagnostic, sort_key
from gdef_core.ide import games
from gdef_core.ide.analysis import Analysis, analyse
from gdef_core.ide.parse_cache import ParseCache


def normalise(path: str) -> str:
    """The one spelling of a path used as a key everywhere (absolute, normalised)."""
    return os.path.normpath(os.path.abspath(path))


class Session:
    def __init__(self) -> None:
        self._buffers: dict[str, str] = {}
        self._disk: dict[str, str | None] = {}  # files read this generation (None: unreadable)
        self._analyses: dict[tuple[str, ...], Analysis] = {}
        self._games: dict[str, list[tuple[str, ...]]] = {}
        self.parse_cache = ParseCache()

    # ------------------------------------------------------------ text

    def set_buffer(self, path: str, text: str) -> None:
        """An editor opened or changed `path`: its text now wins over the disk."""
        path = normalise(path)
        if self._buffers.get(path) != text:
            self._buffers[path] = text
            self._invalidate(disk=False)

    def close_buffer(self, path: str) -> None:
        path = normalise(path)
        if self._buffers.pop(path, None) is not None:
            self._invalidate()

    def disk_changed(self) -> None:
        """Files on disk changed (saved, created, deleted): forget what was read."""
        self._invalidate()

    def is_open(self, path: str) -> bool:
        return normalise(path) in self._buffers

    def open_paths(self) -> list[str]:
        return list(self._buffers)

    def source(self, path: str) -> str | None:
        """The text of `path`: the open buffer, else the file on disk, else None."""
        path = normalise(path)
        text = self._buffers.get(path)
        if text is not None:
            return text
        if path not in self._disk:
            try:
                with open(path, encoding="utf-8", errors="replace", newline="") as handle:
                    self._disk[path] = handle.read()
            except OSError:
                self._disk[path] = None
        return self._disk[path]

    def overlay(self) -> dict[str, str]:
        return dict(self._buffers)

    def _invalidate(self, disk: bool = True) -> None:
        if disk:  # a buffer change cannot change the disk; a close or a save can
            self._disk.clear()
        self._analyses.clear()
        self._games.clear()

    # ------------------------------------------------------------ games

    def games(self, path: str) -> list[tuple[str, ...]]:
        """The games `path` belongs to, each as the files to load (see games.py)."""
        path = normalise(path)
        if path not in self._games:
            self._games[path] = games.games_containing(path, self.source, self.parse_cache.module,
                                                           tuple(self._buffers))
        return self._games[path]

    def analyses(self, path: str) -> list[Analysis]:
        """One analysis per game that contains `path` (a library can be in several)."""
        return [self._analysis_of(entry) for entry in self.games(path)]

    def analysis(self, path: str) -> Analysis:
        """The analysis of the first game that contains `path`."""
        return self.analyses(path)[0]

    def _analysis_of(self, entry: tuple[str, ...]) -> Analysis:
        found = self._analyses.get(entry)
        if found is None:
            found = self._analyses[entry] = analyse(entry, self.overlay(), self.parse_cache)
        return found

    def diagnostics(self, path: str) -> list[Diagnostic]:
        """Every diagnostic about `path` from every game it belongs to, without repeats."""
        path = normalise(path)
        seen: dict[tuple, Diagnostic] = {}
        for analysis in self.analyses(path):
            for diag in analysis.program.diagnostics:
                if normalise(diag.span.file) == path:
                    seen.setdefault((diag.code, diag.span, diag.message), diag)
        return sorted(seen.values(), key=sort_key)

    def game_files(self, path: str) -> set[str]:
        """Every file of every game that contains `path` (what a change of `path` affects)."""
        files: set[str] = set()
        for analysis in self.analyses(path):
            files.update(analysis.files)
        return files
