"""The fixed part of native modules lives in real modules (gdef_core/native/kernels/): what
codegen copies of them, and the names each generated module must define for them."""
from __future__ import annotations

import ast
import importlib

import pytest

from gdef_core.loader import load_program
from gdef_core.native import kernels
from gdef_core.native.codegen import native_source

from support import ROOT, need_module


def _top_level_names(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names.add(leaf.id)
    return names


@pytest.mark.parametrize("part", kernels.PARTS)
def test_module_text_leaves_out_the_linters_imports(part):
    text = kernels.module_text(part)
    assert "from gdef_core" not in text and "import gdef_core" not in text
    assert text.lstrip().startswith(("@njit", "import", "#", "_"))
    source = (ROOT / f"{part.replace('.', '/')}.py").read_text(encoding="utf-8")
    assert source.endswith(text)


@pytest.mark.parametrize("game", ["tictactoe.gdef", "chess/chess.gdef", "go/go9.gdef"])
def test_generated_modules_define_every_declared_name(game):
    """generated.py declares what the parts use of the generated code; a name the parts need
    and codegen does not write would only fail when numba compiles, game by game."""
    program = load_program([str(ROOT / "examples" / game)])
    source, _, _ = native_source(program, 1000, 100)
    defined = _top_level_names(source)
    declared = {name for name in _top_level_names((ROOT / "gdef_core/native/kernels/generated.py")
                                                  .read_text(encoding="utf-8"))}
    missing = declared - defined
    if "moves" not in program.functions:
        missing.discard("e_moves")
    assert not missing
    for part in kernels.PARTS:
        assert kernels.module_text(part) in source


@pytest.mark.parametrize("part", kernels.PARTS)
def test_each_part_imports_as_a_module(part):
    """The parts are real modules: every name they use resolves (no numba compiling happens
    at import: njit compiles on the first call)."""
    need_module("numba", "pip install -e '.[fast]'")
    module = importlib.import_module(part)
    assert module.__doc__
