"""The pre-commit hook (.pre-commit-hooks.yaml), tested offline in a throw-away repository.

pre-commit installs a `language: python` hook by pip-installing this repository, which needs
the package index; a test may not download. So the manifest is validated by pre-commit itself,
and the hook's own fields (entry, files, require_serial) are run as a `repo: local` hook with
`language: system`, on the gdef-check installed here. The full install from another
repository is shown in docs/gdef-check.md. Skipped when pre-commit or git is missing.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT, need_module, need_program

yaml = need_module("yaml", "pip install -e '.[dev]'")
need_module("pre_commit", "pip install -e '.[dev]'")
need_program("git", "apt-get install git")

MANIFEST = ROOT / ".pre-commit-hooks.yaml"
LINT = ROOT / "tests" / "data" / "lint"


def pre_commit(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-home"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_manifest_is_valid():
    done = pre_commit("validate-manifest", str(MANIFEST), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def repository(tmp_path):
    repo = tmp_path / "games"
    (repo / "split").mkdir(parents=True)
    for name in ("game.gdef", "helpers.gdef"):
        shutil.copy(LINT / "broken" / "split" / name, repo / "split" / name)
    (repo / "README.md").write_text("not a game\n")
    hook = next(h for h in yaml.safe_load(MANIFEST.read_text()) if h["id"] == "gdef-check")
    local = {key: hook[key] for key in ("id", "name", "entry", "files", "require_serial")}
    config = {"repos": [{"repo": "local", "hooks": [{**local, "language": "system"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    git = ["git", "-c", "user.email=test@example.com", "-c", "user.name=test"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    return repo


def test_hook_fails_on_a_broken_game_and_names_the_problem(repository):
    done = pre_commit("run", "--all-files", cwd=repository)
    assert done.returncode == 1
    assert "split/helpers.gdef:4:10: error[G305]" in done.stdout
    assert "README.md" not in done.stdout  # only .gdef files are passed


def test_hook_on_a_changed_helper_alone_sees_its_game(repository):
    helpers = repository / "split" / "helpers.gdef"
    helpers.write_text("define finished() -> bool {\n  if (boardFull()) { return true; }\n"
                       "  return false;\n}\n")
    game = repository / "split" / "game.gdef"
    game.write_text(game.read_text().replace("define markOf(int player) -> obj { return X; }", ""))
    done = pre_commit("run", "--files", "split/helpers.gdef", cwd=repository)
    assert done.returncode == 0, done.stdout  # boardFull() is defined by the game, not undefined
