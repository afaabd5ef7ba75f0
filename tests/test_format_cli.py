"""gdef-fmt: rewriting in place, --check, --diff, stdin, configuration, exit codes, refusing
files with syntax errors, and the pre-commit hook."""
from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from gdef_core.cli.fmt import main

from support import ROOT, need_module, need_program

MESSY = "obj   X\ndefine f( ) -> int {return  1 ;}\ndefine g() {\nint x=1; x = x+1;\n}\n"
TIDY = "obj X\n\ndefine f() -> int { return 1; }\n\ndefine g() {\n  int x = 1;\n  x = x + 1;\n}\n"
BROKEN = "obj X\ndefine f() {\n  int x = ;\n}\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / "games" / "sub").mkdir(parents=True)
    (tmp_path / "games" / "messy.gdef").write_text(MESSY)
    (tmp_path / "games" / "sub" / "tidy.gdef").write_text(TIDY)
    (tmp_path / "games" / "notes.txt").write_text("x  =  1\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "games"


def test_rewrites_in_place_and_only_what_changes(capsys, tree):
    tidy = tree / "sub" / "tidy.gdef"
    os.utime(tidy, (1_000_000, 1_000_000))
    os.chmod(tree / "messy.gdef", 0o640)
    code, out, err = run(capsys, "games")
    assert (code, out) == (0, "")
    assert "reformatted games/messy.gdef" in err and "1 file reformatted, 1 file already formatted" in err
    assert (tree / "messy.gdef").read_text() == TIDY
    assert stat.S_IMODE((tree / "messy.gdef").stat().st_mode) == 0o640
    assert tidy.stat().st_mtime == 1_000_000  # not rewritten
    assert (tree / "notes.txt").read_text() == "x  =  1\n"
    assert sorted(p.name for p in tree.iterdir()) == ["messy.gdef", "notes.txt", "sub"]  # no temporary left


def test_a_symbolic_link_stays_a_link(capsys, tree):
    link = tree / "link.gdef"
    link.symlink_to("messy.gdef")
    code, _, _ = run(capsys, "games/link.gdef")
    assert code == 0 and link.is_symlink() and (tree / "messy.gdef").read_text() == TIDY


def test_check_lists_the_files_that_would_change_and_exits_1(capsys, tree):
    code, out, err = run(capsys, "--check", "games")
    assert (code, out) == (1, "would reformat games/messy.gdef\n")
    assert "1 file would be reformatted, 1 file already formatted" in err
    assert (tree / "messy.gdef").read_text() == MESSY
    assert run(capsys, "--check", "games/sub")[:2] == (0, "")


def test_diff_prints_a_unified_diff_and_changes_nothing(capsys, tree):
    code, out, _ = run(capsys, "--diff", "games/messy.gdef")
    assert code == 1
    assert out.startswith("--- games/messy.gdef (original)\n+++ games/messy.gdef (formatted)\n@@ ")
    assert "-obj   X\n" in out and "+obj X\n" in out and "-int x=1; x = x+1;\n+  int x = 1;\n+  x = x + 1;\n" in out
    assert (tree / "messy.gdef").read_text() == MESSY


def test_a_file_with_syntax_errors_is_refused_and_left_alone(capsys, tree):
    broken = tree / "broken.gdef"
    broken.write_text(BROKEN)
    code, out, err = run(capsys, "games")
    assert code == 2
    assert "games/broken.gdef:3:11: error[G101]" in err and "3 |   int x = ;" in err
    assert "games/broken.gdef has syntax errors: it is left as it is" in err
    assert broken.read_text() == BROKEN
    assert (tree / "messy.gdef").read_text() == TIDY  # the other files are still formatted
    assert run(capsys, "--check", "games")[0] == 2  # errors win over "would change"


def test_stdin_to_stdout(tree):
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.fmt", "-"], input=MESSY.encode(),
                          capture_output=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, TIDY.encode(), b"")
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.fmt", "-", "--stdin-filename", "x.gdef"],
                          input=BROKEN.encode(), capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stdout == BROKEN.encode()  # a filter gives its text back
    assert b"x.gdef:3:11: error[G101]" in done.stderr
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.fmt", "--check", "-"], input=MESSY.encode(),
                          capture_output=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, b"would reformat <stdin>\n")


def test_indent_width_from_gdef_toml_and_pyproject(capsys, tree):
    (tree / "sub" / "gdef.toml").write_text("[format]\nindent-width = 4\n")
    (tree / "pyproject.toml").write_text("[project]\nname = 'x'\n[tool.gdef.format]\nindent-width = 3\n")
    assert run(capsys, "games")[0] == 0
    assert "\n    x = x + 1;\n" in (tree / "sub" / "tidy.gdef").read_text()  # the nearest: gdef.toml
    assert "\n   x = x + 1;\n" in (tree / "messy.gdef").read_text()  # pyproject.toml above


@pytest.mark.parametrize("config, message", [
    ("[format]\nindent-width = 0\n", "indent-width must be a whole number from 1 to 8, not 0"),
    ("[format]\nindent_width = 4\n", "has no option 'indent_width': the one option is indent-width"),
    ("[format\n", "not valid TOML"),
])
def test_a_bad_configuration_exits_2_naming_the_file(capsys, tree, config, message):
    (tree / "gdef.toml").write_text(config)
    code, _, err = run(capsys, "games/messy.gdef")
    assert code == 2 and f"gdef.toml: " in err and message in err
    assert (tree / "messy.gdef").read_text() == MESSY


def test_unreadable_input_exits_2(capsys, tree):
    (tree / "latin1.gdef").write_bytes(b"obj X // caf\xe9\n")
    code, _, err = run(capsys, "games/latin1.gdef", "games/missing.gdef")
    assert code == 2
    assert "games/latin1.gdef: not valid UTF-8 (byte e9 at offset 12)" in err
    assert "games/missing.gdef: no such file or directory" in err
    assert (tree / "latin1.gdef").read_bytes() == b"obj X // caf\xe9\n"


@pytest.mark.parametrize("args, message", [
    ([], "no PATH given"),
    (["-", "games"], "cannot be mixed"),
    (["games", "--stdin-filename", "a.gdef"], "goes with - (stdin) only"),
    (["--indent", "4", "games"], "unrecognized arguments"),
])
def test_usage_errors_exit_2(capsys, tree, args, message):
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err


def test_the_examples_pass_check(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "--check", "examples")
    assert (code, out) == (0, ""), err


def test_the_pre_commit_hook_fails_on_an_unformatted_file(tmp_path):
    yaml = need_module("yaml", "pip install -e '.[dev]'")
    need_module("pre_commit", "pip install -e '.[dev]'")
    need_program("git", "apt-get install git")
    repo = tmp_path / "games"
    repo.mkdir()
    (repo / "messy.gdef").write_text(MESSY)
    (repo / "tidy.gdef").write_text(TIDY)
    hook = next(h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()) if h["id"] == "gdef-fmt")
    local = {key: hook[key] for key in ("id", "name", "entry", "files")}
    (repo / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": [{**local, "language": "system"}]}]}))
    git = ["git", "-c", "user.email=test@example.com", "-c", "user.name=test"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "would reformat messy.gdef" in done.stdout
    assert "tidy.gdef" not in done.stdout.replace("already formatted", "")
    assert (repo / "messy.gdef").read_text() == MESSY
