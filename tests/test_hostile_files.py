"""Input that is not gdef text, too many errors, nesting past the limits, hostile neighbours:
every tool (gdef-check, gdef-run, gdef-fmt, gdef-test) gives one located answer, and the
summaries count every error they refer to (issues 30 and 32)."""
from __future__ import annotations

import io
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from gdef_core.cli import check, fmt, run as run_cli, sim, test as test_cli
from gdef_core.project import Workspace, games_using

EXAMPLES = Path(__file__).parent.parent / "examples"
HEADLINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?:error|warning)\[(?P<code>G\d{3})\]: "
                      r"(?P<message>.*)$", re.M)
GAME_HEAD = "players: 2\nsize: 3 x 3\nobj X\n"
END = "define end() -> bool { return true; }\n"


def headlines(text: str) -> list[tuple[int, int, str]]:
    return [(int(m["line"]), int(m["col"]), m["code"]) for m in HEADLINE.finditer(text)]


def gdef_check(capsys, *argv: str) -> tuple[int, str, str]:
    code = check.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def gdef_run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_cli.run(list(argv), io.StringIO(""), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def binary(tmp_path) -> Path:
    """An executable's first bytes (0x7f "ELF" ...), as /bin/ls starts."""
    path = tmp_path / "ls.gdef"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40)
    return path


# ---------------------------------------------------------------- not a text file


def test_gdef_check_refuses_a_binary_file_with_one_located_error(capsys, binary):
    code, out, err = gdef_check(capsys, str(binary))
    assert code == 1 and err == ""
    assert headlines(out) == [(1, 1, "G108")]
    assert "not a text file: binary data at byte 1" in out
    assert out.strip().endswith("1 error, 0 warnings in 1 file")


def test_real_binary_and_random_bytes_give_one_error_each(capsys, tmp_path):
    ls = shutil.which("ls")
    noise = tmp_path / "noise.gdef"
    noise.write_bytes(random.Random(7).randbytes(2048))
    code, out, _ = gdef_check(capsys, ls, str(noise))
    assert code == 1
    assert [h[2] for h in headlines(out)] == ["G108", "G108"]
    assert out.strip().endswith("2 errors, 0 warnings in 2 files")


def test_a_nul_byte_is_located_at_its_line_and_column(capsys, tmp_path):
    path = tmp_path / "nul.gdef"
    path.write_bytes(b"players: 2\nsize: 3 x 3\nobj \x00X\n")
    code, out, _ = gdef_check(capsys, str(path))
    assert headlines(out) == [(3, 5, "G108")]
    assert "binary data at byte 28" in out


def test_gdef_run_refuses_a_binary_file_as_gdef_check_does(binary):
    code, out, err = gdef_run(str(binary))
    assert code != 0
    assert headlines(err) == [(1, 1, "G108")]
    assert "1 error, 0 warnings in 1 file" in err


def test_gdef_fmt_refuses_a_binary_file_and_leaves_it(capsys, binary):
    before = binary.read_bytes()
    code = fmt.main([str(binary)])
    err = capsys.readouterr().err
    assert code != 0
    assert f"{binary}: not a text file: binary data at byte 1" in err
    assert binary.read_bytes() == before


def test_gdef_test_refuses_a_binary_test_file(capsys, tmp_path):
    tests = tmp_path / "t.test.moves"
    tests.write_bytes(b"# moves\n\x00\x01\x02")
    out, err = io.StringIO(), io.StringIO()
    code = test_cli.run([str(tests)], out, err)
    assert code != 0
    assert err.getvalue() == (f"gdef-test: error: {tests}: not a text file: binary data at byte 9 (gdef rules "
                              "are UTF-8 text; is this the file you meant?)\n")


# ---------------------------------------------------------------- the error limit


def many_errors(tmp_path, count: int = 30) -> Path:
    path = tmp_path / "prose.gdef"
    path.write_text("".join(f"define f{k}( -> {{ }}\n" for k in range(count)), encoding="utf-8")
    return path


def test_syntax_errors_stop_at_20_per_file_and_the_summary_counts_all(capsys, tmp_path):
    path = many_errors(tmp_path)
    code, out, _ = gdef_check(capsys, "--max-errors", "0", str(path))
    total = len(headlines(out))
    assert total > 21
    code, out, _ = gdef_check(capsys, str(path))
    found = headlines(out)
    assert len(found) == 21 and found[-1][2] == "G109"
    assert f"and {total - 20} more syntax errors in this file, not shown" in out
    assert out.strip().endswith(f"{total} errors, 0 warnings in 1 file")


def test_max_errors_changes_the_limit_in_gdef_check_and_gdef_run(capsys, tmp_path):
    path = many_errors(tmp_path)
    _, out, _ = gdef_check(capsys, "--max-errors", "3", str(path))
    assert [h[2] for h in headlines(out)][-1] == "G109" and len(headlines(out)) == 4
    code, _, err = gdef_run("--max-errors", "3", str(path))
    assert headlines(err) == headlines(out)
    assert re.search(r"^(\d+) errors, 0 warnings in 1 file$", err, re.M)[0] == \
        re.search(r"^(\d+) errors, 0 warnings in 1 file$", out, re.M)[0]


def test_gdef_fmt_shows_the_same_limited_errors(capsys, tmp_path):
    path = many_errors(tmp_path)
    _, out, _ = gdef_check(capsys, str(path))
    assert fmt.main([str(path)]) != 0
    err = capsys.readouterr().err
    assert headlines(err) == headlines(out)
    assert re.search(r"^\d+ errors, 0 warnings in 1 file$", err, re.M)[0] == out.strip().splitlines()[-1]


def test_gdef_sim_shows_the_same_limited_errors(capsys, tmp_path):
    path = many_errors(tmp_path)
    _, out, _ = gdef_check(capsys, str(path))
    assert sim.main([str(path)]) != 0
    err = capsys.readouterr().err
    assert headlines(err) == headlines(out)
    assert out.strip().splitlines()[-1] in err


# ---------------------------------------------------------------- summaries


def test_a_missing_file_counts_in_the_summary(capsys):
    code, out, err = gdef_check(capsys, str(EXAMPLES / "tictactoe.gdef"), "nosuch.gdef")
    assert code == 2
    assert err == "gdef-check: error: nosuch.gdef: no such file or directory\n"
    assert out == "1 error, 0 warnings in 2 files\n"


def test_the_empty_file_given_to_gdef_run_is_one_error(tmp_path):
    empty = tmp_path / "empty.gdef"
    empty.write_text("", encoding="utf-8")
    code, _, err = gdef_run(str(empty))
    assert code != 0
    assert "these files make a library, not a game" in err
    assert "1 error, 0 warnings in 1 file" in err
    assert "until these errors are fixed" not in err


# ---------------------------------------------------------------- nesting limits


def game(body: str) -> str:
    return GAME_HEAD + "define isMoveLegal() -> bool {\nint x = 0;\n" + body + "return true;\n}\n" + END


def loops(count: int) -> str:
    return "".join(f"for (int i{k} = 0; i{k} < 2; i{k} = i{k} + 1) {{\n" for k in range(count))


NESTED = {  # name -> (text, the G110 position or None)
    "ifs_at_limit": (game("if (x == 0) {\n" * 64 + "x = 1;\n" + "}\n" * 64), None),
    "ifs_past_limit": (game("if (x == 0) {\n" * 65 + "x = 1;\n" + "}\n" * 65), (70, 1)),
    "loops_at_limit": (game(loops(16) + "x = 1;\n" + "}\n" * 16), None),
    "loops_past_limit": (game("while (x < 1) {\n" + loops(16) + "x = 1;\n" + "}\n" * 17), (22, 1)),
    "sum_at_limit": (game("x = " + " + ".join(["1"] * 1000) + ";\n"), None),
    "sum_past_limit": (game("x = " + " + ".join(["1"] * 1001) + ";\n"), (6, 5)),
    "else_if_past_limit": (game("if (x == 0) { x = 1; }\n" + "else if (x == 1) { x = 2; }\n" * 1001), (1007, 6)),
}


@pytest.mark.parametrize("name", NESTED)
def test_nesting_limits_are_the_same_in_gdef_check_and_gdef_run(capsys, tmp_path, name):
    text, expected = NESTED[name]
    path = tmp_path / f"{name}.gdef"
    path.write_text(text, encoding="utf-8")
    code, out, _ = gdef_check(capsys, "--select", "G1,G6", str(path))
    run_code, _, err = gdef_run("--perft", "1", str(path))
    if expected is None:
        assert headlines(out) == [] and run_code == 0, err
    else:
        assert headlines(out) == [(*expected, "G110")]
        assert headlines(err) == [(*expected, "G110")]


# ---------------------------------------------------------------- hostile neighbours


def test_a_neighbour_using_a_path_with_a_nul_byte_does_not_break_gdef_check(capsys, tmp_path):
    (tmp_path / "game.gdef").write_text(GAME_HEAD + 'use "lib.gdef"\ndefine isMoveLegal() -> bool '
                                        "{ return helper(); }\n" + END, encoding="utf-8")
    (tmp_path / "lib.gdef").write_text("define helper() -> bool { return true; }\n", encoding="utf-8")
    (tmp_path / "hostile.gdef").write_bytes(GAME_HEAD.encode() + b'use "a\x00b.gdef"\n')
    code, out, err = gdef_check(capsys, str(tmp_path / "lib.gdef"))
    assert (code, err) == (0, "")
    assert out == "0 errors, 0 warnings in 1 file\n"


def test_a_neighbour_buffer_naming_an_impossible_path_is_skipped(tmp_path):
    """An editor buffer can hold what no file on disk does: a lone surrogate in a `use`."""
    (tmp_path / "game.gdef").write_text(GAME_HEAD + 'use "lib.gdef"\n' + END, encoding="utf-8")
    (tmp_path / "lib.gdef").write_text("define helper() -> bool { return true; }\n", encoding="utf-8")
    hostile = os.path.abspath(tmp_path / "hostile.gdef")
    Path(hostile).write_text(GAME_HEAD + END, encoding="utf-8")
    workspace = Workspace(overlay={hostile: GAME_HEAD + 'use "a\ud800b.gdef"\n' + END})
    assert games_using(str(tmp_path / "lib.gdef"), workspace) == [str(tmp_path / "game.gdef")]
