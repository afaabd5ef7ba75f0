"""The VS Code grammar's word lists are generated from gdef_core/builtins.py: keep them in step."""
from __future__ import annotations

import importlib.util
import json
import re

import pytest

from gdef_core.builtins import ALIASES, BUILTINS, GAME_PARAMETERS, KEYWORDS, Builtin, Kind

from support import ROOT

EXTENSION = ROOT / "vscode-extension"


def _load_sync():
    spec = importlib.util.spec_from_file_location("sync_grammar", EXTENSION / "scripts" / "sync_grammar.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sync = _load_sync()


def _words(regex: str) -> set[str]:
    """The words of a `\\b(?:a|b|c)\\b` alternation."""
    inner = re.fullmatch(r"\\b\(\?:(.*)\)\\b", regex).group(1)
    return set(inner.split("|"))


def test_committed_grammar_is_generated_from_current_builtins():
    assert sync.TARGET.read_text(encoding="utf-8") == sync.render(), (
        "run: python vscode-extension/scripts/sync_grammar.py")


def test_every_builtin_name_is_highlighted_with_its_kind():
    repository = json.loads(sync.TARGET.read_text(encoding="utf-8"))["repository"]
    by_kind = {Kind.VALUE: "builtin-values", Kind.BOARD: "builtin-boards", Kind.FUNCTION: "builtin-functions"}
    for builtin in BUILTINS.values():
        assert builtin.name in _words(repository[by_kind[builtin.kind]]["match"]), builtin.name
    for alias in ALIASES:
        assert alias in _words(repository["builtin-values"]["match"])
    params = re.fullmatch(r"\\b\((.*)\)\\s\*\(:\)", repository["game-parameter"]["begin"]).group(1)
    assert set(params.split("|")) == set(GAME_PARAMETERS)
    words = set().union(*(_words(repository[key]["match"]) for key in ("types", "control", "booleans")))
    assert words | set(sync.STRUCTURE_KEYWORDS) == set(KEYWORDS)


def test_a_new_builtin_reaches_the_grammar(monkeypatch):
    extra = Builtin("countPieces", Kind.FUNCTION, (), "int", "test only")
    monkeypatch.setattr(sync, "BUILTINS", {**BUILTINS, extra.name: extra})
    rendered = json.loads(sync.render())
    assert "countPieces" in _words(rendered["repository"]["builtin-functions"]["match"])
    assert sync.main(["--check"]) == 1


def test_a_keyword_without_a_colour_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(sync, "KEYWORDS", (*KEYWORDS, "for"))
    with pytest.raises(sync.OutOfStep, match="for"):
        sync.render()
    assert sync.main(["--check"]) == 1
    assert "put each keyword in one group" in capsys.readouterr().err
