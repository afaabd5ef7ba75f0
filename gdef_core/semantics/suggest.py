""""Did you mean" suggestions for misspelt names, as quick fixes that replace the name."""
from __future__ import annotations

import difflib
from typing import Iterable

from gdef_core.diagnostics import Edit, Suggestion
from gdef_core.syntax import ast


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `word`: a different capitalisation first, then difflib's best."""
    pool = sorted({c for c in candidates if c and c != word})
    for candidate in pool:
        if candidate.lower() == word.lower():
            return candidate
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: ast.Name, candidates: Iterable[str]) -> tuple[Suggestion, ...]:
    """A suggestion that replaces `name` by the closest candidate, or nothing."""
    best = closest(name.text, candidates)
    if best is None:
        return ()
    return (Suggestion(f"did you mean '{best}'?", (Edit(name.span, best),)),)


def hint(suggestions: tuple[Suggestion, ...]) -> str:
    """The message tail for a suggestion, so the terminal shows it too."""
    return f"; {suggestions[0].message}" if suggestions else ""
