"""Declared parameters (`param int n = 4 in 2 to 8;`, docs/language.md "Parameters"): values
set through the game API and the command-line tools, refused values named with what is
allowed, the checked Program bound to concrete values (both backends see constants), records
that keep the values for --resume, and the scanner's `size: n x n`."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from gdef_core import load_program, parse
from gdef_core.lower.build import lower_program
from gdef_core.runtime import ParamError, load_game
from gdef_core.syntax import ast

from support import ROOT

FILL = str(ROOT / "tests" / "data" / "params" / "fill.gdef")


def run_tool(tool: str, *argv: str, cwd=None, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(cwd or ROOT / "tests")}
    return subprocess.run([sys.executable, "-m", "gdef_core.cli.main", tool, *argv], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


# ---------------------------------------------------------------- the game API


def test_defaults_and_set_values_make_the_board_and_the_rules():
    game = load_game(FILL)
    assert (game.width, game.height) == (4, 4)
    assert game.params == {"n": 4, "komi": 0.5, "bonus": False}
    assert len(game.new_state().legal_moves()) == 15  # the mover's mark on 15 empty squares
    bigger = load_game(FILL, params={"n": 6, "komi": "-1.5", "bonus": "true"})
    assert (bigger.width, bigger.height) == (6, 6)
    assert bigger.params == {"n": 6, "komi": -1.5, "bonus": True}
    assert len(bigger.new_state().legal_moves()) == 35
    assert len(bigger.new_state().variables["placed"]) == 6  # the array sized by n


def test_a_game_is_played_to_its_end_with_the_values_in_use():
    game = load_game(FILL, params={"n": 2, "bonus": True})
    state = game.new_state()
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.move_number == 3 and state.winner == 1  # bonus and komi > 0: player 1 wins


@pytest.mark.parametrize("params, message", [
    ({"size": 5}, "the game has no parameter 'size' (its parameters: n (int, 2 to 8, default 4), "
                  "komi (float, -5.0 to 5.5, default 0.5), bonus (bool, true or false, default false))"),
    ({"n": 9}, "parameter 'n' cannot be 9: it takes 2 to 8"),
    ({"n": "four"}, "parameter 'n' cannot be four: it takes 2 to 8"),
    ({"n": 2.5}, "parameter 'n' cannot be 2.5: it takes 2 to 8"),
    ({"bonus": "yes"}, "parameter 'bonus' cannot be yes: it takes true or false"),
    ({"komi": 6}, "parameter 'komi' cannot be 6: it takes -5.0 to 5.5"),
])
def test_a_refused_value_names_the_parameter_and_what_it_allows(params, message):
    with pytest.raises(ParamError) as refused:
        load_game(FILL, params=params)
    assert str(refused.value) == message


def test_the_checked_program_holds_concrete_values_for_the_backends():
    program = load_program([FILL], params={"n": 7})
    assert program.ok and (program.width, program.height) == (7, 7)
    placed = program.game_vars["placed"]
    assert [type(size) for size in placed.sizes] == [ast.IntLit] and placed.sizes[0].value == 7
    assert program.game_vars["n"].init.value == 7
    module = lower_program(program)
    assert module.game_vars["placed"].sizes == (7,) and (module.width, module.height) == (7, 7)


def test_the_checker_runs_with_the_values_asked_for():
    program = load_program([FILL], params={"n": 3})
    assert program.ok
    with_start_off_board = load_program([FILL], params={"n": 2})  # start has (1,1): still on a 2 x 2
    assert with_start_off_board.ok
    text = open(FILL, encoding="utf-8").read().replace("start { (1,1: X) }", "start { (3,3: X) }")
    module = parse(text, "fill.gdef").module
    from gdef_core.semantics.checker import check
    assert [d.code for d in check([module], (), {"n": 3}).errors] == ["G408"]
    assert check([module], (), {"n": 4}).ok


# ---------------------------------------------------------------- the scanner


def test_size_sides_that_name_parameters_are_read_only_after_size():
    game = parse("size: n x m\nobj x obj y\nsize: nxn\n", "a.gdef").module
    first, obj_x, obj_y, last = game.items
    assert [type(side) for side in first.value] == [ast.Name, ast.Name]
    assert [side.text for side in first.value] == ["n", "m"]
    assert (first.value[1].span.column, first.value[1].span.end_column) == (10, 11)
    assert [obj_x.name.text, obj_y.name.text] == ["x", "y"]  # `x obj y` is still two objects
    assert isinstance(last.value, ast.Name) and last.value.text == "nxn"  # a name, reported by the checker


@pytest.mark.parametrize("text, where, inside, written", [
    ("size: n /* c */ x n\n", (0, 6, 0, 19), "a comment", "n x n"),
    ("size: 9 x /* nine */ 9\n", (0, 6, 0, 22), "a comment", "9 x 9"),
    ("size: 12 // wide\n  x 34\n", (0, 6, 1, 6), "a comment", "12 x 34"),
    ("size: board_size\n  x board_size\n", (0, 6, 1, 14), "a line break", "board_size x board_size"),
])
def test_a_size_broken_by_a_comment_or_a_line_break_is_one_error_saying_what_to_write(text, where, inside, written):
    parsed = parse(text + "obj X\nint y = 0;\n", "a.gdef")
    (error,) = parsed.diagnostics
    span = error.span
    assert (error.code, (span.line, span.column, span.end_line, span.end_column)) == ("G101", where)
    assert error.message == (f"{inside} inside the board size: `W x H` is one word, on one line with only spaces "
                             f"between its parts; write `size: {written}` (a comment may follow it)")
    size, obj, variable = parsed.module.items   # read as the size it means: nothing after it is misread
    assert [getattr(side, "text", getattr(side, "value", None)) for side in size.value] == \
        [int(part) if part.isdigit() else part for part in written.split(" x ")]
    assert (obj.name.text, variable.name.text) == ("X", "y")


# ---------------------------------------------------------------- the tools


def test_gdef_run_plays_with_param_and_the_record_keeps_the_values(tmp_path):
    record = tmp_path / "fill.json"
    done = run_tool("run", FILL, "--param", "n=3", "--param", "bonus=true", "--record", str(record),
                    "--moves", "-", cwd=tmp_path, stdin="place(0,0,X)\n")
    assert done.returncode == 3, done.stderr  # stopped before the end, record kept
    saved = json.loads(record.read_text())
    assert saved["params"] == {"n": 3, "komi": 0.5, "bonus": True}
    resumed = run_tool("run", "--resume", str(record), "--moves", "-", cwd=tmp_path,
                       stdin="place(3,3,O)\nplace(2,2,O)\n")
    assert resumed.returncode == 3, resumed.stderr
    # the 3 x 3 board of the record, not the default 4 x 4
    assert "names square (3, 3), which is off the 3x3 board" in resumed.stderr
    assert "2. player 1: 2,2 (place(2,2,O))" in resumed.stdout
    clash = run_tool("run", "--resume", str(record), "--param", "n=5", cwd=tmp_path)
    assert clash.returncode == 2
    assert "was played with n=3: a resumed game keeps its parameters" in clash.stderr


@pytest.mark.parametrize("tool", ["run", "sim", "check"])
def test_every_tool_refuses_a_bad_param_as_a_usage_error(tool, tmp_path):
    done = run_tool(tool, FILL, "--param", "n=12", cwd=tmp_path)
    assert done.returncode == 2
    assert "--param" in done.stderr and "parameter 'n' cannot be 12: it takes 2 to 8" in done.stderr
    malformed = run_tool(tool, FILL, "--param", "n", cwd=tmp_path)
    assert malformed.returncode == 2 and "'n' is not NAME=VALUE" in malformed.stderr


def test_gdef_check_reports_what_a_value_breaks_and_names_unknown_parameters(tmp_path):
    game = tmp_path / "fill.gdef"
    game.write_text(open(FILL, encoding="utf-8").read().replace("(1,1: X)", "(3,3: X)"))
    assert run_tool("check", str(game), cwd=tmp_path).returncode == 0
    small = run_tool("check", str(game), "--param", "n=3", cwd=tmp_path)
    assert small.returncode == 1 and "error[G408]" in small.stdout
    unknown = run_tool("check", str(game), "--param", "komy=1", cwd=tmp_path)
    assert unknown.returncode == 2 and "--param komy: no game checked declares a parameter 'komy'" in unknown.stderr


def test_gdef_sim_workers_play_with_the_values(tmp_path):
    done = run_tool("sim", FILL, "-n", "6", "-j", "2", "--param", "n=3", "--json", "out.json",
                    "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "out.json").read_text())
    assert summary["games"] == 6
    assert "average 8.0 moves, max 8" in done.stdout  # 3 x 3 less the start square: 8 moves


# ---------------------------------------------------------------- the native backend


def test_the_native_backend_compiles_the_value_in_use_and_agrees_with_python(cache_dir):
    from support import need_module

    need_module("numba", "pip install -e '.[fast]'")
    from gdef_core.native import NativeRules

    game = load_game(FILL, params={"n": 3, "bonus": True})  # not the default 4: its own module
    said: list[str] = []
    native = NativeRules.load(game, said.append)
    assert native is not None, said
    state = game.new_state()
    assert [str(m) for m in native.legal_moves(state)] == [str(m) for m in state.legal_moves()]
    assert len(native.legal_moves(state)) == 8
    assert native.perft(state, 2)[-1] == 8 * 7


def test_gdef_test_plays_rule_tests_with_param(tmp_path):
    script = tmp_path / "small.test.moves"
    script.write_text(f"# game: {FILL}\n[a 3 x 3 board]\n? moves 8\nplace(2,2,X)\n? illegal place(3,0,O)\n")
    assert run_tool("test", str(script), cwd=tmp_path).returncode == 1  # the default 4 x 4: 15 moves
    assert run_tool("test", str(script), "--param", "n=3", cwd=tmp_path).returncode == 0
    refused = run_tool("test", str(script), "--param", "n=30", cwd=tmp_path)
    assert refused.returncode == 2 and "--param: parameter 'n' cannot be 30: it takes 2 to 8" in refused.stderr
    unknown = run_tool("test", str(script), "--param", "size=3", cwd=tmp_path)
    assert unknown.returncode == 2 and "--param size: no game tested declares a parameter 'size'" in unknown.stderr


def test_a_test_files_param_lines_set_the_game_for_its_tests(tmp_path):
    script = tmp_path / "small.test.moves"
    script.write_text(f"# game: {FILL}\n# param: n=3\n\n[a 3 x 3 board]\n? moves 8\nplace(2,2,X)\n"
                      "? illegal place(3,0,O)\n")
    passed = run_tool("test", str(script), cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    # the command line wins over the file: 4 x 4 has 15 moves after none
    assert run_tool("test", str(script), "--param", "n=4", cwd=tmp_path).returncode == 1
    # a line below the first test is a comment, not a setting
    late = tmp_path / "late.test.moves"
    late.write_text(f"# game: {FILL}\n[default]\n# param: n=3\n? moves 15\n")
    assert run_tool("test", str(late), cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("line, message", [
    ("# param: n=30", "small.test.moves:2: # param: parameter 'n' cannot be 30: it takes 2 to 8"),
    ("# param: size=3", "small.test.moves:2: # param: the game has no parameter 'size'"),
    ("# param: n", "small.test.moves:2: `# param: n` is not a parameter setting: write `# param: NAME=VALUE`"),
])
def test_a_refused_param_line_is_an_error_at_its_line(tmp_path, line, message):
    script = tmp_path / "small.test.moves"
    script.write_text(f"# game: {FILL}\n{line}\n? moves 8\n")
    result = run_tool("test", str(script), cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
