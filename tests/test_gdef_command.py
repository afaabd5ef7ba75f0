"""The unified `gdef` command: subcommands run the gdef-* tools, `gdef lsp` serves over real
stdio, --version (of every command, as real processes), and completion scripts that real
shells accept and complete with."""
from __future__ import annotations

import importlib
import json
import platform
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from gdef_core import __version__
from gdef_core.cli import check
from gdef_core.cli import main as gdef_main
from gdef_core.cli.main import TOOLS, build_parser, main

from support import ROOT, console_script

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


ENTRY_POINTS = ["gdef-check", "gdef-run", "gdef-sim", "gdef-test", "gdef-fmt", "gdef-lsp"]


@pytest.mark.parametrize("command", [[name] for name in ENTRY_POINTS] + [["gdef", "run"], ["gdef", "sim"]],
                         ids=" ".join)
def test_every_command_answers_version(command):
    done = subprocess.run([console_script(command[0]), *command[1:], "--version"],
                          capture_output=True, text=True, timeout=60)
    name = command[0] if len(command) == 1 else f"gdef-{command[1]}"
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{name} {__version__}\n", "")


def test_gdef_version_names_the_optional_parts_with_their_versions():
    done = subprocess.run([console_script("gdef"), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[:3] == [f"gdef {__version__}", f"Python {platform.python_version()}", "optional parts:"]
    parts = {line.split()[0]: line for line in lines[3:]}
    assert list(parts) == ["numba", "OpenSpiel", "PettingZoo", "Dask", "Playwright"]
    for name, distribution in [("numba", "numba"), ("OpenSpiel", "open_spiel"), ("PettingZoo", "pettingzoo"),
                               ("Dask", "distributed"), ("Playwright", "playwright")]:
        try:
            assert parts[name].startswith(f"  {name} {metadata.version(distribution)} "), parts[name]
        except metadata.PackageNotFoundError:
            assert "not installed" in parts[name] and "pip install 'gdef[" in parts[name], parts[name]


def test_a_missing_optional_part_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setattr(gdef_main, "OPTIONAL_PARTS", (
        ("numba", "numba", "the native backend", "pip install 'gdef[fast]'"),
        ("Nothing", "gdef-no-such-distribution", "nothing at all", "pip install 'gdef[nothing]'")))
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.splitlines()[-1] == "  Nothing              not installed: nothing at all (pip install 'gdef[nothing]')"


def test_help_lists_every_command(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in [*TOOLS, "lsp", "dap", "completion"]:
        assert re.search(rf"^\s+{command}\b", out, re.MULTILINE), command


@pytest.mark.parametrize("args, message", [
    ([], "name a command"),
    (["chek", "x.gdef"], "unknown command 'chek'; did you mean 'check'?"),
    (["completion"], "name one shell"),
    (["completion", "powershell"], "name one shell"),
])
def test_usage_errors_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "") and message in err


def test_check_is_gdef_check(capsys):
    expected = check.main([TICTACTOE, "--color", "never"]), capsys.readouterr()
    assert run(capsys, "check", TICTACTOE, "--color", "never") == (expected[0], *expected[1])
    assert run(capsys, "check", "--explain", "G101")[0] == 0


def test_fmt_run_sim_and_test_subcommands(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert run(capsys, "fmt", "--check", "examples")[:2] == (0, "")
    code, out, _ = run(capsys, "run", "--perft", "1", TICTACTOE)
    assert code == 0 and "depth 1: 9" in out
    code, out, _ = run(capsys, "sim", TICTACTOE, "--games", "2", "--no-progress")
    assert code == 0 and "2" in out
    code, out, _ = run(capsys, "test", str(ROOT / "examples" / "tictactoe.test.moves"), "-q")
    assert code == 0
    assert run(capsys, "run", "--no-such-option")[0] == 2  # gdef-run's own usage error and code


@pytest.mark.parametrize("command", TOOLS)
def test_usage_names_gdef_command_or_the_alias_as_called(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: gdef {command} [-h]"), out
    code, _, err = run(capsys, command, "--no-such-option")
    assert code == 2 and err.startswith(f"usage: gdef {command} [-h]"), err
    assert f"\ngdef {command}: error: " in err
    tool = importlib.import_module(TOOLS[command][0])
    try:
        code = tool.main(["--help"])
    except SystemExit as exit_:  # gdef-run exits even when given its arguments
        code = exit_.code
    out = capsys.readouterr().out
    assert code == 0 and out.startswith(f"usage: gdef-{command} [-h]"), out


def test_the_console_scripts_name_themselves():
    bin_dir = Path(sys.executable).parent
    gdef, alias = bin_dir / "gdef", bin_dir / "gdef-check"
    if not (gdef.exists() and alias.exists()):
        pytest.skip("the console scripts are not installed beside this Python")
    through_gdef = subprocess.run([str(gdef), "check"], capture_output=True, text=True, timeout=60)
    assert through_gdef.returncode == 2
    assert through_gdef.stderr.startswith("usage: gdef check [-h]")
    assert "gdef check: error: no PATH given" in through_gdef.stderr and "(e.g. `gdef check .`)" in through_gdef.stderr
    as_alias = subprocess.run([str(alias)], capture_output=True, text=True, timeout=60)
    assert as_alias.returncode == 2 and as_alias.stderr.startswith("usage: gdef-check [-h]")
    assert "gdef-check: error: no PATH given" in as_alias.stderr


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_frames(data: bytes) -> list[dict]:
    messages = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        messages.append(json.loads(rest[:length]))
        data = rest[length:]
    return messages


def test_gdef_lsp_serves_over_stdio():
    requests = b"".join(_frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.main", "lsp"], input=requests,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    replies = {m["id"]: m for m in _read_frames(done.stdout) if "id" in m}
    assert replies[1]["result"]["serverInfo"]["name"] == "gdef-lsp"
    assert replies[1]["result"]["capabilities"]["documentFormattingProvider"]
    assert replies[2]["result"] is None


def test_gdef_lsp_passes_its_arguments_on():
    done = subprocess.run([sys.executable, "-m", "gdef_core.cli.main", "lsp", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"gdef-lsp {__version__}")


def test_the_lsp_options_for_completion_are_gdef_lsp_s_own():
    done = subprocess.run([sys.executable, "-m", "gdef_lsp", "--help"], capture_output=True, text=True, timeout=60)
    theirs = set(re.findall(r"(?<![\w-])--?[a-z][\w-]*", done.stdout))
    lsp = build_parser()._subparsers._group_actions[0].choices["lsp"]
    ours = {option for action in lsp._actions for option in action.option_strings}
    assert ours == theirs


def test_the_core_does_not_import_the_language_server():
    code = ("import sys; from gdef_core.cli.main import build_parser, run; "
            "run(['--version']); run(['completion', 'bash']); run(['--help']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gdef_lsp', 'pygls')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("[]"), done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_commands_options_choices_and_files(capsys, tmp_path):
    script = tmp_path / "gdef.bash"
    script.write_text(_completion(capsys, "bash"))
    (tmp_path / "game.gdef").write_text("obj X\n")

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        program = (f"source {script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)}); "
                   f"COMP_CWORD={len(words) - 1}; COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}\n"
                   f"_shtab_gdef gdef {words[-1]!r} {words[-2]!r}\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
        done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("gdef", "fm") == ["fmt"]
    assert complete("gdef", "fmt", "--ch") == ["--check"]
    assert complete("gdef", "sim", "--ga") == ["--games"]
    assert complete("gdef", "completion", "") == ["bash", "zsh", "fish"]
    assert complete("gdef", "check", "ga") == ["game.gdef"]


def _completion(capsys, shell: str) -> str:
    code, out, err = run(capsys, "completion", shell)
    assert code == 0 and err == ""
    return out


@pytest.mark.parametrize("shell, words", [
    ("zsh", ["#compdef gdef", '"--check[change nothing', '{--games,-n}"[how many games', "completion"]),
    ("fish", ["_shtab_gdef_commands check run sim test fmt lsp dap completion",
              "'_shtab_gdef_using fmt' -l check", "'_shtab_gdef_using sim' -l games", '-ka "bash zsh fish"']),
])
def test_zsh_and_fish_scripts(capsys, tmp_path, shell, words):
    script = _completion(capsys, shell)
    for word in words:
        assert word in script
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed: the script's syntax is not checked")
    path = tmp_path / f"gdef.{shell}"
    path.write_text(script)
    done = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
