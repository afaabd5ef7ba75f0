"""Vendors the gdef language server into the extension: bundled/libs and bundled/manifest.json.

With the server inside the .vsix, installing the extension on a machine with only Python (3.11
or newer) is enough: the extension runs `python -m gdef_lsp` with PYTHONPATH=bundled/libs.
gdef is built from this repository's source; its dependencies are pinned to the versions
installed in the Python running this script (the ones the tests ran with, when it has them)
and must be pure-Python wheels (`py3-none-any`), so one bundle serves every OS and Python.

    python scripts/bundle_server.py          # run by `npm run package` (vscode:prepublish)

Needs pip and the package index (or pip's cache) once per packaging; nothing at run time.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

EXTENSION_DIR = Path(__file__).resolve().parent.parent
ROOT = EXTENSION_DIR.parent
BUNDLED = EXTENSION_DIR / "bundled"
LIBS = BUNDLED / "libs"
# What a wheel of gdef contains (pyproject's packages and package data) plus what setuptools reads.
SOURCES = ("pyproject.toml", "README.md", "gdef_core", "gdef_lsp", "gdef_dap")


class BundleError(Exception):
    """Packaging cannot go on; the message says what to do."""


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q", *args]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise BundleError(f"cannot run pip with {sys.executable}: {error}") from error
    if result.returncode != 0:
        raise BundleError(f"{' '.join(command)} failed (pip needs the package index, or the wheels in "
                          f"its cache; a wheel that is not pure Python is not found with these options):\n"
                          f"{result.stdout}{result.stderr}")


def minimum_python(requires: str) -> list[int]:
    """[3, 11] from requires-python '>=3.11' (the only form the extension needs to check)."""
    match = re.fullmatch(r"\s*>=\s*(\d+)\.(\d+)\s*", requires)
    if not match:
        raise BundleError(f"pyproject.toml: requires-python {requires!r} is not of the form '>=3.N'")
    return [int(match[1]), int(match[2])]


def installed_pins() -> str:
    """name==version of every distribution of this Python: constraints, so the bundle has the tested versions."""
    pins = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name and name.lower() != "gdef":
            pins[name.lower()] = f"{name}=={dist.version}"
    return "\n".join(sorted(pins.values())) + "\n"


def check_pure(libs: Path) -> dict[str, str]:
    """{name: version} of the bundled distributions; fails on anything that is not pure Python."""
    native = sorted(str(p.relative_to(libs)) for p in libs.rglob("*") if p.suffix in {".so", ".pyd", ".dylib", ".dll"})
    if native:
        raise BundleError(f"compiled files in the bundle (it must work on every OS): {', '.join(native)}")
    versions = {}
    for info in sorted(libs.glob("*.dist-info")):
        wheel = (info / "WHEEL").read_text(encoding="utf-8")
        if "Root-Is-Purelib: true" not in wheel:
            raise BundleError(f"{info.name} is not a pure-Python distribution")
        dist = metadata.Distribution.at(info)
        versions[dist.metadata["Name"]] = dist.version
    return versions


def bundle() -> dict:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    python = minimum_python(project["requires-python"])
    shutil.rmtree(BUNDLED, ignore_errors=True)
    LIBS.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="gdef-bundle-") as tmp:
        # gdef from a clean copy of the source: an in-tree build could reuse a stale build/ folder
        source = Path(tmp) / "source"
        for name in SOURCES:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                source.mkdir(exist_ok=True)
                shutil.copy2(src, source / name)
        pip("install", "--target", str(LIBS), "--no-deps", "--no-compile", str(source))
        constraints = Path(tmp) / "constraints.txt"
        constraints.write_text(installed_pins(), encoding="utf-8")
        # pure wheels only, resolved for the oldest Python gdef supports (it needs the most backports)
        pip("install", "--target", str(LIBS), "--no-compile", "--only-binary=:all:",
            "--implementation", "py", "--abi", "none", "--platform", "any",
            "--python-version", ".".join(map(str, python)), "-c", str(constraints), *project["dependencies"])
    shutil.rmtree(LIBS / "bin", ignore_errors=True)  # console scripts naming this machine's Python
    packages = check_pure(LIBS)
    manifest = {"gdef": project["version"], "requiresPython": python, "libs": "libs", "packages": packages}
    (BUNDLED / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main() -> int:
    try:
        manifest = bundle()
    except (BundleError, OSError, KeyError) as error:
        print(f"bundle_server: {error}", file=sys.stderr)
        return 1
    listed = ", ".join(f"{name} {version}" for name, version in manifest["packages"].items())
    print(f"bundled into {BUNDLED.relative_to(EXTENSION_DIR)}: {listed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
