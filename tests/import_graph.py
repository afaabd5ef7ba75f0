"""The import graph of gdef's own packages, read from the source with ast (nothing is imported),
and the layer contract of ARCHITECTURE.md read from its "Layers" section.

Every import statement counts wherever it stands (module level, inside a function, in a try,
under `if TYPE_CHECKING:`: an import for types only still ties the two modules). `from a.b import c` is an edge to the
module a.b.c when there is one, else to a.b. Importing a module also runs its parents'
`__init__`; those edges are left out, as every import tool does (else every module would be in
a circle with its package).

    python tests/import_graph.py          # the circles of gdef_core, gdef_lsp and gdef_dap, one a line
"""
from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from gdef_core.lower.calls import cycles

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gdef_core", "gdef_lsp", "gdef_dap")
# The root package is the public API (`from gdef_core import load_game`): it covers only itself,
# so every other module must be placed in a layer of its own.
API_PACKAGE = "gdef_core"


def modules(root: Path = ROOT, packages=PACKAGES) -> dict[str, Path]:
    """Dotted module name -> its file, for every .py file of `packages`."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(root: Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    """Module -> the modules of `packages` it imports."""
    files = modules(root, packages)
    return {name: _imports(name, path, files) for name, path in files.items()}


def _imports(name: str, path: Path, files: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def known(dotted: str) -> str | None:
        while dotted and dotted not in files:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [known(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else known(base)
                       for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target and target != name)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module, each
    sorted, in sorted order (the call graph's cycle finder, lower/calls.py, over modules)."""
    components = cycles({module: sorted(targets) for module, targets in sorted(graph.items())})
    return sorted(sorted(component) for component in components if len(component) > 1)


# ---------------------------------------------------------------- the layers of ARCHITECTURE.md


@dataclass(frozen=True)
class Layer:
    name: str
    modules: tuple[str, ...]   # dotted names; each covers its submodules (the API package only itself)
    may_import: frozenset[str]  # the other layers it may import
    never: frozenset[str]       # the layers its invariant line names as forbidden


_LAYER = re.compile(r"^- \*\*(\w+)\*\*: (.+)$")
_INVARIANT = re.compile(r"^\s+Architecture invariant: imports (?:only (.+?)|nothing else of gdef)"
                        r"(?:; never (.+?))?\.$")
_NAME = re.compile(r"`([\w.]+)`")


def layers(text: str | None = None) -> list[Layer]:
    """The layers ARCHITECTURE.md's "Layers" section lists, lowest first: a line
    `- **name**: `module`, ...` then its `Architecture invariant: imports only `a`, `b`;
    never `c`, ...` line."""
    if text is None:
        text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    found = []
    lines = section.splitlines()
    for number, line in enumerate(lines):
        head = _LAYER.match(line)
        if not head:
            continue
        invariant = _INVARIANT.match(lines[number + 1]) if number + 1 < len(lines) else None
        if invariant is None:
            raise ValueError(f"ARCHITECTURE.md: the layer {head[1]} has no "
                             "'Architecture invariant: imports only ...; never ...' line under it")
        never = re.sub(r"\(.*?\)", "", invariant[2] or "")   # an aside names modules, not layers
        found.append(Layer(head[1], tuple(_NAME.findall(head[2])),
                           frozenset(_NAME.findall(invariant[1] or "")), frozenset(_NAME.findall(never))))
    return found


def layer_of(module: str, table: list[Layer]) -> Layer | None:
    """The layer whose listed name is the longest prefix of `module` (None: not placed)."""
    best, length = None, -1
    for layer in table:
        for prefix in layer.modules:
            covers = module == prefix or (prefix != API_PACKAGE and module.startswith(prefix + "."))
            if covers and len(prefix) > length:
                best, length = layer, len(prefix)
    return best


def main() -> int:
    for circle in circles(import_graph()):
        print("circle: " + ", ".join(circle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
