"""The checker's codes are documented and tested: docs/diagnostics.md is generated from the
code table, and every G2xx-G5xx code is expected by at least one checker fixture."""
from __future__ import annotations

from pathlib import Path

from checker_golden import expected, files_of
from gdef_core.codes import CODES, render_markdown

ROOT = Path(__file__).parent.parent
DATA = ROOT / "tests" / "data" / "checker"


def test_docs_diagnostics_md_is_generated_from_the_code_table() -> None:
    docs = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert docs == render_markdown(), \
        "regenerate it: python -m gdef_core.codes > docs/diagnostics.md"


def test_every_checker_code_has_a_fixture() -> None:
    fixtures = [p for p in DATA.iterdir() if p.is_dir() or p.suffix == ".gdef"]
    covered = {key[1] for fixture in fixtures for key in expected(files_of(fixture))}
    checker_codes = {code for code in CODES if code[:2] in ("G2", "G3", "G4", "G5", "G8")}
    assert checker_codes - covered == set()


def test_every_checker_code_is_fully_documented() -> None:
    for code, entry in CODES.items():
        if code[:2] in ("G2", "G3", "G4", "G5", "G8"):
            assert entry.title and entry.explanation and entry.example and entry.fix, code
