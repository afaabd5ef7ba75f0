"""gdef-check end to end: exit codes, options, discovery, multi-file games, bad input.

Most runs call gdef_core.cli.check.main in-process (fast); a few run the installed console
script to prove the real entry point behaves the same.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from gdef_core.cli.check import main

from support import EXAMPLES, ROOT

LINT = ROOT / "tests" / "data" / "lint"
HEADLINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)"
                      r"\[(?P<code>G\d{3})\]: (?P<message>.*)$", re.M)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def headlines(text: str) -> list[tuple[str, int, int, str]]:
    return [(m["file"], int(m["line"]), int(m["col"]), m["code"]) for m in HEADLINE.finditer(text)]


@pytest.fixture
def in_lint(monkeypatch):
    monkeypatch.chdir(LINT)


# ------------------------------------------------------------------------------ exit codes


def test_examples_are_clean(capsys):
    code, out, err = run(capsys, str(EXAMPLES))
    assert (code, err) == (0, "")
    assert re.search(r"^0 errors, 0 warnings in \d+ files$", out, re.M)


def test_errors_exit_1_with_summary(capsys, in_lint):
    code, out, _ = run(capsys, "broken", "--color", "never")
    assert code == 1
    assert out.splitlines()[-1] == "5 errors, 3 warnings in 4 files"


def test_warnings_pass_unless_strict(capsys, in_lint):
    code, out, _ = run(capsys, "warnings")
    assert code == 0
    assert headlines(out) == [("warnings/unused_local.gdef", 9, 7, "G501")]
    assert run(capsys, "warnings", "--strict")[0] == 1


def test_seed_original_gives_one_type_error(capsys, in_lint):
    code, out, _ = run(capsys, "seed/original_tictactoe.gdef", "--format", "json")
    document = json.loads(out)
    assert code == 1
    [only] = document["diagnostics"]
    assert only["code"].startswith("G3") and only["severity"] == "error"
    source_line = (LINT / "seed/original_tictactoe.gdef").read_text().splitlines()[only["line"] - 1]
    assert source_line[only["column"] - 1: only["endColumn"] - 1] == "placedObj != 0"


def test_missing_path_exits_2_and_names_it(capsys, in_lint):
    code, out, err = run(capsys, "warnings", "no/such/dir")
    assert code == 2
    assert "gdef-check: error: no/such/dir: no such file or directory" in err
    assert headlines(out) == [("warnings/unused_local.gdef", 9, 7, "G501")]  # the rest is checked


def test_unreadable_file_exits_2_and_names_it(capsys, in_lint, monkeypatch):
    import gdef_core.loader

    real = gdef_core.loader.read_source

    def deny(path, overlay=None):
        if path.endswith("typo.gdef"):
            raise PermissionError(13, "Permission denied", path)
        return real(path, overlay)

    monkeypatch.setattr(gdef_core.loader, "read_source", deny)
    code, out, err = run(capsys, "broken", "-q")
    assert code == 2
    assert "broken/typo.gdef: cannot read file: permission denied" in err
    assert {file for file, *_ in headlines(out)} == {"broken/split/game.gdef", "broken/split/helpers.gdef"}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root reads files whatever their permissions")
def test_file_without_read_permission_exits_2(capsys, tmp_path):
    locked = tmp_path / "locked.gdef"
    locked.write_text("obj X\n")
    locked.chmod(0)
    code, _, err = run(capsys, str(locked))
    assert code == 2 and str(locked) in err


def test_dangling_symlink_named_exits_2(capsys, tmp_path):
    link = tmp_path / "gone.gdef"
    link.symlink_to(tmp_path / "nowhere.gdef")
    code, _, err = run(capsys, str(link))
    assert code == 2 and f"{link}: cannot read file" in err


@pytest.mark.parametrize("args, message", [
    ([], "no PATH given"),
    (["--format", "xml", "x.gdef"], "invalid choice"),
    (["--select", "Q9", "x.gdef"], "no diagnostic code starts with 'Q9'"),
    (["--ignore", "G201,G9", "x.gdef"], "no diagnostic code starts with 'G9'"),
    (["--statistics", "--format", "sarif", "x.gdef"], "--statistics works with"),
    (["--color", "sometimes", "x.gdef"], "invalid choice"),
])
def test_usage_errors_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_version(capsys):
    from gdef_core import __version__

    code, out, _ = run(capsys, "--version")
    assert (code, out.strip()) == (0, f"gdef-check {__version__}")


# ------------------------------------------------------------------------------ options


def test_explain_prints_the_documentation(capsys):
    from gdef_core.codes import CODES

    code, out, _ = run(capsys, "--explain", "g201")
    assert code == 0
    entry = CODES["G201"]
    assert out.startswith(f"### G201: {entry.title}")
    assert entry.explanation in out and entry.fix in out and entry.example in out


def test_explain_prefix_lists_codes_and_unknown_code_fails(capsys):
    code, out, _ = run(capsys, "--explain", "G5")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == sorted(
        c for c in __import__("gdef_core.codes").codes.CODES if c.startswith("G5"))
    code, _, err = run(capsys, "--explain", "G999")
    assert code == 2 and "unknown code 'G999'" in err


def test_select_and_ignore_take_prefixes(capsys, in_lint):
    _, out, _ = run(capsys, "broken", "-q", "--select", "G2")
    assert {code for *_, code in headlines(out)} == {"G201", "G202", "G203"}
    _, out, _ = run(capsys, "broken", "-q", "--ignore", "G5,G203", "--ignore", "G2")
    assert {code for *_, code in headlines(out)} == {"G305"}
    _, out, _ = run(capsys, "broken", "-q", "--select", "G2,G3", "--ignore", "G20")
    assert {code for *_, code in headlines(out)} == {"G305"}


def test_ignoring_every_error_makes_the_run_pass(capsys, in_lint):
    assert run(capsys, "broken", "--ignore", "G2,G3")[0] == 0
    assert run(capsys, "broken", "--ignore", "G2,G3", "--strict")[0] == 1
    assert run(capsys, "broken", "--ignore", "G2,G3,G5", "--strict")[0] == 0


def test_statistics_counts_per_code(capsys, in_lint):
    code, out, _ = run(capsys, "broken", "--statistics", "--color", "never")
    assert code == 1
    rows = [line.split()[:3] for line in out.splitlines()[:-1]]
    assert rows == [["2", "G203", "error"], ["2", "G501", "warning"], ["1", "G201", "error"],
                    ["1", "G202", "error"], ["1", "G305", "error"], ["1", "G502", "warning"]]
    assert out.splitlines()[-1] == "5 errors, 3 warnings in 4 files"
    _, out, _ = run(capsys, "broken", "--statistics", "--format", "json")
    document = json.loads(out)
    assert {row["code"]: row["count"] for row in document["statistics"]}["G203"] == 2
    assert document["summary"] == {"errors": 5, "warnings": 3, "files": 4}


def test_quiet_prints_one_line_per_diagnostic(capsys, in_lint):
    _, out, _ = run(capsys, "broken", "-q")
    lines = out.splitlines()
    assert len(lines) == 8 and len(headlines(out)) == 8


def test_color(capsys, in_lint, monkeypatch):
    assert "\x1b[" in run(capsys, "broken", "--color", "always")[1]
    assert "\x1b[" not in run(capsys, "broken", "--color", "never")[1]
    assert "\x1b[" not in run(capsys, "broken")[1]  # auto, and captured output is no terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert "\x1b[" in run(capsys, "broken")[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run(capsys, "broken")[1]
    assert "\x1b[" in run(capsys, "broken", "--color", "always")[1]


# ------------------------------------------------------------------------------ discovery


def test_directories_are_searched_recursively_in_order(capsys, in_lint):
    _, out, _ = run(capsys, "broken", "--format", "json")
    assert json.loads(out)["files"] == ["broken/typo.gdef", "broken/lib/shared.gdef",
                                        "broken/split/game.gdef", "broken/split/helpers.gdef"]


def test_exclude_matches_names_and_paths(capsys, in_lint):
    _, out, _ = run(capsys, "broken", "--format", "json", "--exclude", "split")
    assert json.loads(out)["files"] == ["broken/typo.gdef", "broken/lib/shared.gdef"]
    _, out, _ = run(capsys, "broken", "--format", "json", "--exclude", "broken/lib/*",
                    "--exclude", "typo.gdef")
    assert json.loads(out)["files"] == ["broken/split/game.gdef", "broken/split/helpers.gdef"]


def test_hidden_directories_are_skipped_and_named_files_always_checked(capsys, tmp_path):
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "junk.gdef").write_text("this is not gdef")
    (tmp_path / "notes.txt").write_text("neither is this")
    (tmp_path / "lib.gdef").write_text("define one() -> int { return 1; }\n")
    code, out, _ = run(capsys, str(tmp_path), "--format", "json")
    assert code == 0
    assert json.loads(out)["files"] == [str(tmp_path / "lib.gdef")]  # absolute stays absolute
    code, out, _ = run(capsys, str(tmp_path / "notes.txt"), "-q")
    assert code == 1 and headlines(out)[0][0] == str(tmp_path / "notes.txt")


def test_a_file_named_twice_is_checked_once(capsys, in_lint):
    _, out, _ = run(capsys, "warnings/unused_local.gdef", "warnings", "./warnings/unused_local.gdef",
                    "--format", "json")
    document = json.loads(out)
    assert document["files"] == ["warnings/unused_local.gdef"]
    assert len(document["diagnostics"]) == 1


def test_directory_without_gdef_files_warns_and_exits_0(capsys, in_lint):
    code, out, err = run(capsys, "nogdef")
    assert code == 0
    assert "gdef-check: warning: no .gdef files found in nogdef" in err
    assert out.strip() == "0 errors, 0 warnings in 0 files"


def test_everything_excluded_warns(capsys, in_lint):
    code, _, err = run(capsys, "warnings", "--exclude", "warnings")
    assert code == 0 and "every path given is excluded" in err


# ------------------------------------------------------------------------------ multi-file games


def test_a_helper_is_reported_once_and_in_its_game(capsys, in_lint):
    _, out, _ = run(capsys, "broken/split", "-q")
    found = headlines(out)
    assert [h for h in found if h[3] == "G305"] == [("broken/split/helpers.gdef", 4, 10, "G305")]
    assert "G202" not in {h[3] for h in found}  # boardFull() is the game's, not undefined


def test_a_helper_named_alone_is_checked_in_its_folders_game(capsys, in_lint):
    code, out, _ = run(capsys, "broken/split/helpers.gdef", "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert document["files"] == ["broken/split/helpers.gdef"]
    assert [(d["file"], d["code"]) for d in document["diagnostics"]] == [
        ("broken/split/helpers.gdef", "G305"), ("broken/split/helpers.gdef", "G203")]
    related = document["diagnostics"][1]["related"][0]
    assert (related["file"], related["line"]) == ("broken/split/game.gdef", 15)


def test_a_game_names_its_used_files(capsys, in_lint):
    _, out, _ = run(capsys, "broken/split/game.gdef", "--format", "json")
    assert json.loads(out)["files"] == ["broken/split/game.gdef", "broken/split/helpers.gdef"]


def test_an_unused_library_is_checked_alone(capsys, in_lint):
    code, out, _ = run(capsys, "broken/lib/shared.gdef", "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []


def test_game_option_joins_files_without_use(capsys, in_lint):
    code, out, _ = run(capsys, "together/game.gdef", "together/helpers.gdef", "-q")
    assert code == 1
    assert headlines(out) == [("together/game.gdef", 8, 63, "G202")]
    _, out, _ = run(capsys, "together/game.gdef", "together/helpers.gdef", "--format", "json")
    [hint] = json.loads(out)["diagnostics"][0]["suggestions"]
    assert hint["message"].startswith("'isFree' is defined in together/helpers.gdef: add "
                                      "`use \"helpers.gdef\"`")
    assert "--game" in hint["message"]
    code, out, _ = run(capsys, "--game", "together/game.gdef", "together/helpers.gdef")
    assert code == 0 and out.strip() == "0 errors, 0 warnings in 2 files"
    assert run(capsys, "--game", "together")[0] == 0


# ------------------------------------------------------------------------------ bad input


def test_non_utf8_file_reports_g100(capsys, tmp_path):
    latin1 = tmp_path / "latin1.gdef"
    latin1.write_bytes(b"// caf\xe9\ndefine one() -> int { return 1; }\n")
    code, out, _ = run(capsys, str(latin1), "-q")
    assert code == 1
    assert headlines(out) == [(str(latin1), 1, 7, "G100")]


def _console_script() -> list[str]:
    script = shutil.which("gdef-check", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "gdef_core.cli.check"]


@pytest.mark.parametrize("content", [bytes(range(256)) * 4, b"\x00" * 100, b"", b"\xff\xfe\x00d\x00e"])
def test_binary_input_through_the_console_script(tmp_path, content):
    junk = tmp_path / "junk.gdef"
    junk.write_bytes(content)
    for fmt in ("text", "json", "sarif", "github"):
        done = subprocess.run([*_console_script(), str(junk), "--format", fmt],
                              capture_output=True, timeout=60)
        assert done.returncode in (0, 1), done.stderr
        assert b"Traceback" not in done.stderr + done.stdout
        if fmt in ("json", "sarif"):
            json.loads(done.stdout)


def test_console_script_exit_codes(tmp_path):
    script = _console_script()
    assert subprocess.run([*script, str(EXAMPLES)], capture_output=True, timeout=60).returncode == 0
    missing = subprocess.run([*script, str(tmp_path / "missing.gdef")], capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 2
    assert f"{tmp_path / 'missing.gdef'}: no such file or directory" in missing.stderr
    assert "Traceback" not in missing.stderr


# ------------------------------------------------------------------------------ project API
# The language server reuses gdef_core.project to find the games that give a library meaning.


def test_games_using_finds_the_games_of_a_librarys_folder(in_lint):
    from gdef_core.project import Workspace, games_using

    workspace = Workspace()
    assert games_using("broken/split/helpers.gdef", workspace) == ["broken/split/game.gdef"]
    assert games_using("broken/lib/shared.gdef", workspace) == []
    assert games_using("broken/split/game.gdef", workspace) == []  # nothing uses the game


def test_plan_groups_files_into_games(in_lint):
    from gdef_core.project import Unit, Workspace, discover, plan

    files = discover(["broken"]).files
    assert plan(files, Workspace()) == [Unit(("broken/typo.gdef",)), Unit(("broken/split/game.gdef",)),
                                        Unit(("broken/lib/shared.gdef",))]
    helpers = os.path.realpath("broken/split/helpers.gdef")
    assert plan(["broken/split/helpers.gdef"], Workspace()) == [
        Unit(("broken/split/game.gdef",), frozenset({helpers}))]
    assert plan(files, Workspace(), one_game=True) == [Unit(tuple(files))]


def test_libraries_that_use_each_other_are_checked_from_the_top(tmp_path):
    from gdef_core.project import Unit, Workspace, plan

    (tmp_path / "top.gdef").write_text('use "base.gdef"\ndefine two() -> int { return one() + 1; }\n')
    (tmp_path / "base.gdef").write_text("define one() -> int { return 1; }\n")
    (tmp_path / "a.gdef").write_text('use "b.gdef"\ndefine fa() -> int { return fb(); }\n')
    (tmp_path / "b.gdef").write_text('use "a.gdef"\ndefine fb() -> int { return 1; }\n')
    files = [str(tmp_path / name) for name in ("base.gdef", "top.gdef", "a.gdef", "b.gdef")]
    assert plan(files, Workspace()) == [Unit((files[1],)), Unit((files[2],)), Unit((files[3],))]


def test_overlay_text_wins_over_the_disk(in_lint):
    from gdef_core.project import Workspace

    path = os.path.abspath("broken/lib/shared.gdef")
    workspace = Workspace(overlay={path: "define other() -> int { return 1; }\n"})
    program = workspace.program(["broken/lib/shared.gdef"])
    assert list(program.functions) == ["other"] and program.is_library
