"""Document links: the path of each `use` line, linked to the file it names.

A path the loader would not read (missing, not a .gdef file) gets no link: its G107
diagnostic already says why, and a link to nothing would only open an empty editor.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from gdef_core.span import Span
from gdef_core.syntax import ast


@dataclass(frozen=True, slots=True)
class Link:
    span: Span  # the path, without its quotes
    target: str  # the absolute path of the file it names


def document_links(module: ast.Module, exists: Callable[[str], bool] = os.path.isfile) -> list[Link]:
    """A link per `use` line whose file `exists` (the server also counts open buffers)."""
    found = []
    for item in module.items:
        if not isinstance(item, ast.UseDecl) or not item.path.endswith(".gdef"):
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(module.path)), item.path))
        if exists(target):
            found.append(Link(_inside_quotes(item), target))
    return found


def _inside_quotes(use: ast.UseDecl) -> Span:
    span = use.path_span
    if span.line == span.end_line and span.end_column - span.column == len(use.path) + 2:
        return Span(span.file, span.line, span.column + 1, span.end_line, span.end_column - 1)
    return span
