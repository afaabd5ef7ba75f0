"""vscode-extension/scripts/bundle_server.py refuses what would not run everywhere.

The bundling itself needs pip and the package index, so it runs in the editor CI (which checks
the .vsix carries bundled/); here are its checks, on folders made up for the purpose.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from support import ROOT

_spec = importlib.util.spec_from_file_location("bundle_server", ROOT / "vscode-extension" / "scripts" / "bundle_server.py")
bundle_server = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bundle_server)


def dist(libs: Path, name: str, version: str, purelib: bool = True) -> None:
    info = libs / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    (info / "WHEEL").write_text(f"Wheel-Version: 1.0\nRoot-Is-Purelib: {str(purelib).lower()}\nTag: py3-none-any\n",
                                encoding="utf-8")


def test_pure_distributions_are_listed_with_their_versions(tmp_path):
    dist(tmp_path, "pygls", "2.1.1")
    dist(tmp_path, "lark", "1.3.1")
    (tmp_path / "lark").mkdir()
    (tmp_path / "lark" / "__init__.py").write_text("", encoding="utf-8")
    assert bundle_server.check_pure(tmp_path) == {"lark": "1.3.1", "pygls": "2.1.1"}


def test_a_compiled_module_is_refused(tmp_path):
    dist(tmp_path, "speedy", "1.0")
    (tmp_path / "speedy").mkdir()
    (tmp_path / "speedy" / "_core.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    with pytest.raises(bundle_server.BundleError, match=r"compiled files .*speedy/_core\.cpython-311-x86_64-linux-gnu\.so"):
        bundle_server.check_pure(tmp_path)


def test_a_platform_wheel_is_refused(tmp_path):
    dist(tmp_path, "native", "2.0", purelib=False)
    with pytest.raises(bundle_server.BundleError, match=r"native-2\.0\.dist-info is not a pure-Python distribution"):
        bundle_server.check_pure(tmp_path)


@pytest.mark.parametrize("requires, expected", [(">=3.11", [3, 11]), (" >= 3.12 ", [3, 12])])
def test_minimum_python(requires, expected):
    assert bundle_server.minimum_python(requires) == expected


def test_a_requires_python_the_extension_cannot_check_is_refused():
    with pytest.raises(bundle_server.BundleError, match="not of the form '>=3.N'"):
        bundle_server.minimum_python(">=3.11,<3.14")


def test_the_bundle_matches_the_projects_requires_python():
    """The extension's message says 3.11: the bundle's minimum comes from pyproject.toml."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert bundle_server.minimum_python(project["requires-python"]) == [3, 11]
