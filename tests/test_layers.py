"""The layer contract of ARCHITECTURE.md ("Layers"), over the import graph of gdef_core and
gdef_lsp read from the source (imports inside functions included, tests/import_graph.py), and
what `import gdef_lsp.server` really loads."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from import_graph import ROOT, circles, import_graph, layer_of, layers

# The compiler: what the language server must never load (ARCHITECTURE.md, layer lsp).
COMPILER = {"lower", "runtime", "native", "play", "testing"}


@pytest.fixture(scope="module")
def graph():
    return import_graph()


@pytest.fixture(scope="module")
def table():
    return layers()


def test_the_layer_list_is_complete_and_ordered(table):
    """Each layer names only layers below it, and none both as allowed and forbidden."""
    names = [layer.name for layer in table]
    assert len(names) == len(set(names)) and {"base", "runtime", "ide", "lsp"} <= set(names)
    for position, layer in enumerate(table):
        below = set(names[:position])
        assert layer.may_import <= below, (layer.name, layer.may_import - below)
        assert layer.never <= set(names) - {layer.name} - layer.may_import, layer.name


def test_every_module_is_placed_in_a_layer(graph, table):
    assert [module for module in sorted(graph) if layer_of(module, table) is None] == []


def test_imports_keep_the_layer_invariants(graph, table):
    crossings = set()
    for module, targets in graph.items():
        mine = layer_of(module, table)
        for target in targets:
            theirs = layer_of(target, table)
            if theirs is not mine and theirs.name not in mine.may_import:
                crossings.add((module, target))
    assert not crossings, "\n".join(
        f"{module} ({layer_of(module, table).name}) imports {target} ({layer_of(target, table).name})"
        for module, target in sorted(crossings))


def test_no_import_circles(graph):
    assert circles(graph) == []


def test_circles_are_found_through_imports_inside_functions(tmp_path):
    """The check sees an import inside a function, a relative one, and `from package import
    module`, and one under `if TYPE_CHECKING:` (for types only, it still ties the modules)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def later():\n    from .c import thing\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n")
    found = import_graph(tmp_path, ("pkg",))
    assert found["pkg.d"] == {"pkg.a"}
    assert circles(found) == [["pkg.a", "pkg.b", "pkg.c"]]


def server_modules() -> list[str]:
    """gdef's modules that `import gdef_lsp.server` loads, in a fresh process."""
    script = ("import json, sys; import gdef_lsp.server; "
              "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('gdef_core', 'gdef_lsp'))))")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=environment)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_language_server_does_not_load_the_compiler(graph, table):
    """In a fresh process, `import gdef_lsp.server` loads no module of the compiler layers.
    Python runs the `__init__` of every package above a module it imports: gdef_core's (the
    api layer, which imports the runtime only when a game name is asked of it) is not counted."""
    loaded = server_modules()
    assert "gdef_lsp.server" in loaded and "gdef_core.semantics.incremental" in loaded
    loaded = [m for m in loaded if graph[m] or not any(other.startswith(m + ".") for other in loaded)]
    assert [m for m in loaded if layer_of(m, table).name in COMPILER] == []
    allowed = next(layer for layer in table if layer.name == "lsp").may_import | {"lsp", "api"}
    assert [m for m in loaded if layer_of(m, table).name not in allowed] == []


# Read by the request that first needs them, not when the server starts (issue 31): the
# formatter, the rule tests and move scripts (gdef_core.testing, moves), the report formats of
# gdef-check, and each editor feature's module. What stays is what checking a file needs
# (syntax, semantics, the session) and the server's own adapters.
LOADED_WHEN_FIRST_USED = (
    "gdef_core.format", "gdef_core.testing", "gdef_core.moves", "gdef_core.report.model", "gdef_core.report.text",
    "gdef_core.report.sarif", "gdef_core.report.github", "gdef_core.report.json_report",
    *(f"gdef_core.ide.{name}" for name in (
        "completion", "describe", "fixes", "folding", "hover", "navigation", "outline", "rename", "run",
        "signature", "call_hierarchy", "inlay", "links", "selection", "rule_tests")))


def test_the_language_server_starts_without_its_features():
    loaded = server_modules()
    assert "gdef_lsp.server" in loaded and "gdef_lsp.rule_tests" in loaded and "gdef_core.report.limit" in loaded
    assert [m for m in loaded if m.startswith(LOADED_WHEN_FIRST_USED)] == []
