"""docs/editors.md shows the editor configurations that the tests run, not a copy that drifts."""
from __future__ import annotations

import json
import re

import pytest

from support import ROOT

DOC = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", DOC, flags=re.S | re.M)


@pytest.mark.parametrize("language, paths", [
    ("lua", ["editors/nvim/gdef.lua", "editors/nvim/gdef-dap.lua"]),
    ("toml", ["editors/helix/languages.toml"]),
    ("elisp", ["editors/emacs/gdef-mode.el"]),
])
def test_docs_embed_the_configuration_files_verbatim(language, paths):
    assert blocks(language) == [(ROOT / path).read_text(encoding="utf-8") for path in paths], (
        f"the {language} blocks of docs/editors.md differ from {', '.join(paths)}")


def test_example_tasks_use_the_extensions_task_type_and_matcher():
    package = json.loads((ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8"))
    definition = package["contributes"]["taskDefinitions"][0]
    matchers = {m["name"] for m in package["contributes"]["problemMatchers"]}
    (tasks_json,) = [b for b in blocks("json") if '"tasks"' in b]
    tasks = json.loads(tasks_json)["tasks"]
    for task in tasks:
        if task["type"] == definition["type"]:
            assert set(definition["required"]) <= task.keys()
            assert task["action"] in definition["properties"]["action"]["enum"]
            assert set(task) - {"label", "type", "problemMatcher", "group"} <= set(definition["properties"])
        for matcher in [task.get("problemMatcher")] if task.get("problemMatcher") else []:
            assert matcher.lstrip("$") in matchers
    assert any(t.get("problemMatcher") == "$gdef" for t in tasks)
