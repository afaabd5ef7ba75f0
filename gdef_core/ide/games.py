"""Which game(s) a file belongs to, as the editor sees it (spec section 1).

A file that declares game parameters is a game: it is loaded from itself (the loader follows
its `use` lines). A library (no game parameters) belongs to every game in its folder whose
`use` closure reaches it; a library no game uses is checked alone.

This is the one place that knows the grouping rule, so it can be replaced by
gdef_core.project once that module lands.
"""
from __future__ import annotations

import glob
import os
from typing import Callable

from gdef_core.syntax import ast

Source = Callable[[str], "str | None"]
ParseModule = Callable[[str, str], ast.Module]


def games_containing(path: str, source: Source, parse_module: ParseModule,
                     extra_files: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Each game containing `path`, as the tuple of files to load. `extra_files` are open
    buffers that may not exist on disk yet."""
    module = parse_module(path, source(path) or "")
    if not module.is_library:
        return [(path,)]
    folder = os.path.dirname(path)
    candidates = set(glob.glob(os.path.join(glob.escape(folder), "*.gdef")))
    candidates.update(f for f in extra_files if os.path.dirname(f) == folder)
    found = []
    for candidate in sorted(os.path.normpath(c) for c in candidates):
        if candidate == path:
            continue
        text = source(candidate)
        if text is None or parse_module(candidate, text).is_library:
            continue
        if path in use_closure(candidate, source, parse_module):
            found.append((candidate,))
    return found or [(path,)]


def use_closure(path: str, source: Source, parse_module: ParseModule) -> set[str]:
    """`path` and every file its `use` lines reach, transitively."""
    seen = {path}
    todo = [path]
    while todo:
        current = todo.pop()
        text = source(current)
        if text is None:
            continue
        for item in parse_module(current, text).items:
            if isinstance(item, ast.UseDecl):
                target = os.path.normpath(os.path.join(os.path.dirname(current), item.path))
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
    return seen
