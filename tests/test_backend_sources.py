"""Both backends emit from the IR alone (issue 31), read as text: no module under
gdef_core/runtime/ or gdef_core/native/ imports the syntax tree or reads it through the
Program, and none takes a decision by regex or tokenize over the code it generates. Imports
inside functions count."""
from __future__ import annotations

import ast as pyast

import pytest

from support import ROOT

BACKENDS = ("gdef_core/runtime", "gdef_core/native")
# The Program's fields that hold syntax nodes (semantics/program.py). Not listed: `modules`,
# read for the files' paths, text and comments (refusal reasons quote the rule and its
# comment), and `objects`, read for the objects' names.
_SYNTAX_FIELDS = {"functions", "game_vars", "start", "references", "expr_types", "symbols"}
# Modules that may use `re` for something other than generating code: with what for.
_TEXT_MODULES = {"gdef_core/runtime/render.py": "removing colour codes from a drawn board line",
                 "gdef_core/runtime/start_position.py": "reading the squares of a board a script's header draws"}


def _modules():
    return sorted(path for folder in BACKENDS for path in (ROOT / folder).rglob("*.py"))


def _imports(tree) -> set[str]:
    names: set[str] = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.ImportFrom):
            names.add(node.module or "")
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, pyast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_a_backend_module_reads_the_ir_not_the_syntax_tree(path):
    tree = pyast.parse(path.read_text(encoding="utf-8"))
    imports = _imports(tree)
    assert not {name for name in imports if name.startswith("gdef_core.syntax")}
    read = {node.attr for node in pyast.walk(tree) if isinstance(node, pyast.Attribute)
            and isinstance(node.value, pyast.Name) and node.value.id == "program"}
    assert not read & _SYNTAX_FIELDS, "read the lowered IR (gdef_core.lower.build.lowered) instead"
    relative = str(path.relative_to(ROOT))
    if relative not in _TEXT_MODULES:
        assert not imports & {"re", "tokenize"}, "decide from the IR, not from generated text"


def test_the_text_modules_exist():
    """The exceptions above name modules that are still there (and still need `re`)."""
    for relative in _TEXT_MODULES:
        assert "re" in _imports(pyast.parse((ROOT / relative).read_text(encoding="utf-8")))
