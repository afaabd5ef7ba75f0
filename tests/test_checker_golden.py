"""Every checker fixture under tests/data/checker gives exactly the diagnostics its comments
expect (code and position), no more and no fewer."""
from __future__ import annotations

from pathlib import Path

import pytest

from checker_golden import actual, check_paths, expected, files_of
from support import ROOT

DATA = ROOT / "tests" / "data" / "checker"
FIXTURES = sorted(p for p in DATA.iterdir() if p.is_dir() or (p.suffix == ".gdef" and p.stem != "original_tictactoe"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.name)
def test_fixture_gives_exactly_the_expected_diagnostics(fixture: Path) -> None:
    paths = files_of(fixture)
    wanted = expected(paths)
    assert wanted, f"{fixture} states no expectations"
    program = check_paths(paths)
    got = actual(program, wanted)
    assert sorted(got - wanted) == [] and sorted(wanted - got) == [], \
        "\n".join(str(d) for d in program.diagnostics)
