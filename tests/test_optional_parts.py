"""A test that needs a missing optional part is skipped, and pytest's summary line says what is
missing and how to install it; in CI (CI set) the same test fails: CI must run every test."""
from __future__ import annotations

import os
import subprocess
import sys

from support import ROOT

NEEDS = """\
from support import need_module

need_module("gdef_no_such_module", "pip install gdef-no-such-module")


def test_uses_the_module():
    pass
"""
NEEDS_PROGRAM = """\
from support import need_program


def test_runs_the_program():
    need_program("gdef-no-such-program", "apt-get install gdef-no-such-program")
"""


def run_pytest(folder, ci: bool) -> subprocess.CompletedProcess:
    """pytest as scripts/test.sh runs it (the repository's configuration, and in CI on past a
    module that fails at import) on the files of `folder`."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("CI", "GDEF_REQUIRE_BROWSER", "GDEF_REQUIRE_EDITORS")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "tests"), env.get("PYTHONPATH", "")])
    options = ["--continue-on-collection-errors"] if ci else []
    if ci:
        env["CI"] = "true"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options,
                           "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(folder), str(folder)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_a_missing_part_skips_with_its_reason_and_fails_in_ci(tmp_path):
    (tmp_path / "test_needs_module.py").write_text(NEEDS)
    (tmp_path / "test_needs_program.py").write_text(NEEDS_PROGRAM)
    here = run_pytest(tmp_path, ci=False)
    assert here.returncode == 0, here.stdout + here.stderr
    assert ("SKIPPED [1] test_needs_module.py:3: gdef_no_such_module is not installed "
            "(pip install gdef-no-such-module)\n") in here.stdout
    assert ("SKIPPED [1] test_needs_program.py:5: gdef-no-such-program is not installed "
            "(apt-get install gdef-no-such-program)\n") in here.stdout
    assert "2 skipped" in here.stdout

    ci = run_pytest(tmp_path, ci=True)
    assert ci.returncode != 0
    assert ("ERROR test_needs_module.py - Failed: gdef_no_such_module is not installed "
            "(pip install gdef-no-such-module) (CI needs every optional part)") in ci.stdout
    assert ("FAILED test_needs_program.py::test_runs_the_program - Failed: gdef-no-such-program is not "
            "installed (apt-get install gdef-no-such-program) (CI needs every optional part)") in ci.stdout
    assert "1 failed, 1 error" in ci.stdout
