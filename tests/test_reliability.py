"""Issue "Reliability": hostile input never ends in an internal error, odd files are refused at
once, and gdef-run never loses a game. Each test failed before its fix."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gdef_core import load_game
from gdef_core.cli.check import run as gdef_check
from gdef_core.cli.run import run as gdef_run
from gdef_core.loader import GdefFileError, load_program
from gdef_core.syntax import parse

from support import ROOT

TICTACTOE = str(ROOT / "examples" / "tictactoe.gdef")
GDEF_RUN = str(Path(sys.executable).with_name("gdef-run"))
HUGE = "9" * 5000
GAME = "name: g\nplayers: {players}\nsize: 3 x 3\nobj X\n{extra}\n" \
       "define isMoveLegal() -> bool {{ return {legal}; }}\ndefine end() -> bool {{ {end} return false; }}\n"


def game_text(players="2", extra="", legal="true", end=""):
    return GAME.format(players=players, extra=extra, legal=legal, end=end)


def check(tmp_path, text: str) -> tuple[int, str]:
    path = tmp_path / "g.gdef"
    path.write_text(text)
    out = io.StringIO()
    err = io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = gdef_check([str(path), "--format", "json"])
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue() + err.getvalue()


def codes(output: str) -> list[tuple[str, int, int]]:
    report = json.loads(output)
    return [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]]


# ------------------------------------------------------------------ no internal errors

@pytest.mark.parametrize("where", ["rules", "players", "start"])
def test_integer_literals_of_thousands_of_digits_are_located_errors(tmp_path, where):
    text = {"rules": game_text(legal=f"{HUGE} > 0"), "players": game_text(players=HUGE),
            "start": game_text(extra=f"start {{ ({HUGE},0: X) }}")}[where]
    code, output = check(tmp_path, text)
    assert code == 1, output
    found = json.loads(output)["diagnostics"]
    assert any(d["code"] == "G104" and "more than 40 digits" in d["message"] for d in found)


def test_a_move_with_a_huge_number_is_rejected_not_a_crash():
    state = load_game(TICTACTOE).new_state()
    verdict = state.check(f"place({HUGE},0,X)")
    assert verdict.kind.value == "malformed" and "far too large" in verdict.reason


def test_fmod_with_an_infinite_operand_is_nan_as_in_c_and_records_stay_strict_json(tmp_path):
    rules = tmp_path / "inf.gdef"
    rules.write_text(game_text(extra="float f = 0.0;\nfloat m = 0.0;",
                               end="f = 10000000000.0; while (f < f * 2.0) { f = f * f; } m = f % 2.0;"))
    record = tmp_path / "r.json"
    code = gdef_run([str(rules), "--moves", "-", "--record", str(record)], io.StringIO("place(0,0,X)\n"),
                    io.StringIO(), io.StringIO())
    assert code == 3
    data = json.loads(record.read_text())  # strict JSON: json.loads would accept NaN, so check the text
    assert data["vars"] == {"f": "inf", "m": "nan"}
    assert "NaN" not in record.read_text() and "Infinity" not in record.read_text()
    out = io.StringIO()
    code = gdef_run(["--resume", str(record), "--moves", "-"], io.StringIO("place(1,1,X)\n"), out, io.StringIO())
    assert code == 3
    state = load_game(str(rules)).new_state()
    state.apply("place(0,0,X)")
    assert state.to_json()["vars"] == {"f": "inf", "m": "nan"}
    assert load_game(str(rules)).state_from_json(state.to_json()).variables["f"] == float("inf")


def test_a_deeply_nested_record_is_refused(tmp_path):
    record = tmp_path / "deep.json"
    record.write_text("[" * 100_000 + "]" * 100_000)
    err = io.StringIO()
    assert gdef_run(["--resume", str(record)], io.StringIO(), io.StringIO(), err) == 2
    assert "nested too deeply" in err.getvalue()


@pytest.mark.parametrize("path, code, message", [
    ("x\0y.gdef", "G108", "not a text file"),  # a NUL byte makes the whole text binary data
    ("\ud800.gdef", "G107", "no file name can have"),
])
def test_use_paths_with_nul_or_lone_surrogates_are_located_errors(tmp_path, path, code, message):
    # as an editor sends it: the language server's text may hold any code point
    rules = tmp_path / "g.gdef"
    rules.write_text("")
    program = load_program([str(rules)], overlay={str(rules): game_text(extra=f'use "{path}"')})
    found = [(d.code, d.span.line) for d in program.diagnostics]
    assert (code, 4) in found
    assert any(message in d.message for d in program.diagnostics)


def test_a_named_path_with_a_nul_byte_is_a_file_error():
    with pytest.raises(GdefFileError, match="no file name can have"):
        load_program(["bad\0name.gdef"])


# ------------------------------------------------------------------ what may be read

@pytest.mark.parametrize("target", ["/proc/self/environ", "../../etc/passwd"])
def test_use_never_reads_or_quotes_a_file_that_is_not_gdef(tmp_path, target, monkeypatch):
    monkeypatch.setenv("GDEF_SECRET_TOKEN", "hunter2")
    code, output = check(tmp_path, game_text(extra=f'use "{target}"'))
    assert code == 1
    assert "hunter2" not in output and "root:" not in output
    assert codes(output) == [("G107", 5, 5)]


def test_confine_use_keeps_use_inside_the_project(tmp_path, monkeypatch):
    outside = tmp_path / "outside.gdef"
    outside.write_text("define helper() -> int { return 1; }\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.gdef").symlink_to(outside)
    (project / "g.gdef").write_text(game_text(extra='use "../outside.gdef"\nuse "link.gdef"'))
    monkeypatch.chdir(project)
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        assert gdef_check(["g.gdef"]) == 0
        assert gdef_check(["g.gdef", "--confine-use", "--format", "json"]) == 1
    finally:
        sys.stdout = old
    report = json.loads(out.getvalue()[out.getvalue().index('{\n  "version"'):])
    messages = [d["message"] for d in report["diagnostics"]]
    assert len(messages) == 2 and all("outside the project folder" in m for m in messages)


@pytest.mark.parametrize("make", ["fifo", "device"])
def test_odd_files_are_refused_at_once_everywhere(tmp_path, make):
    if make == "fifo":
        odd = str(tmp_path / "odd.gdef")
        os.mkfifo(odd)
    else:
        odd = "/dev/zero"
    for argv in ([sys.executable, "-m", "gdef_core.cli.check", odd],
                 [GDEF_RUN, odd],
                 [GDEF_RUN, TICTACTOE, "--moves", odd],
                 [GDEF_RUN, "--resume", odd],
                 [str(Path(sys.executable).with_name("gdef-sim")), odd, "--games", "1"]):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, (argv, done.stderr)
        assert "not a regular file" in done.stderr, (argv, done.stderr)


def test_use_of_a_fifo_is_a_located_error_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.gdef")
    (tmp_path / "g.gdef").write_text(game_text(extra='use "pipe.gdef"'))
    program = load_program([str(tmp_path / "g.gdef")])
    assert [(d.code, d.span.line) for d in program.diagnostics] == [("G107", 4)]
    assert "not a regular file (a FIFO)" in program.diagnostics[0].message


# ------------------------------------------------------------------ no game lost

def start_game(tmp_path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([GDEF_RUN, TICTACTOE, *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_save_the_record(tmp_path, signal_name):
    record = tmp_path / "game.json"
    process = start_game(tmp_path, "--record", str(record))
    process.stdin.write("place(1,1,X)\n")
    process.stdin.flush()
    deadline = time.monotonic() + 20
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(getattr(signal, signal_name))
    out, err = process.communicate(timeout=20)
    assert process.returncode == 3
    assert f"Stopped (stopped by {signal_name})" in err
    assert json.loads(record.read_text())["moves"] == [{"player": 0, "move": "place(1,1,X)", "name": "1,1"}]


def test_two_games_stopped_in_the_same_second_keep_both_records(tmp_path):
    paths = []
    for _ in range(2):
        err = io.StringIO()
        assert gdef_run([TICTACTOE, "--moves", "-"], io.StringIO("place(1,1,X)\n"), io.StringIO(), err) == 3
        paths.append(err.getvalue().split("The record is in ")[1].split(";")[0])
    assert paths[0] != paths[1] and all(os.path.isfile(p) for p in paths)
    for path in paths:
        os.unlink(path)


def test_an_unwritable_record_falls_back_to_a_temporary_one(tmp_path):
    err = io.StringIO()
    bad = str(tmp_path / "no-such-folder" / "game.json")
    assert gdef_run([TICTACTOE, "--moves", "-", "--record", bad], io.StringIO("place(1,1,X)\n"),
                    io.StringIO(), err) == 3
    text = err.getvalue()
    assert f"cannot write the record to {bad}" in text
    assert text.count("cannot write the record") == 2  # once while playing, once when stopping
    fallback = text.split("The record is in ")[1].split(";")[0]
    assert json.loads(Path(fallback).read_text())["moves"][0]["move"] == "place(1,1,X)"
    os.unlink(fallback)


def test_an_existing_record_is_kept_as_a_backup(tmp_path):
    record = tmp_path / "game.json"
    record.write_text('{"precious": true}')
    err = io.StringIO()
    gdef_run([TICTACTOE, "--moves", "-", "--record", str(record)], io.StringIO("place(1,1,X)\n"),
             io.StringIO(), err)
    assert f"{record} already existed: it is kept as {record}.~1~" in err.getvalue()
    assert json.loads((tmp_path / "game.json.~1~").read_text()) == {"precious": True}
    assert json.loads(record.read_text())["moves"][0]["move"] == "place(1,1,X)"


def test_resuming_into_the_same_record_keeps_no_backup(tmp_path):
    record = tmp_path / "game.json"
    gdef_run([TICTACTOE, "--moves", "-", "--record", str(record)], io.StringIO("place(1,1,X)\n"),
             io.StringIO(), io.StringIO())
    err = io.StringIO()
    gdef_run(["--resume", str(record), "--record", str(record), "--moves", "-"],
             io.StringIO("place(0,0,O)\n"), io.StringIO(), err)
    assert "already existed" not in err.getvalue()
    assert len(json.loads(record.read_text())["moves"]) == 2


def test_another_games_record_is_refused(tmp_path):
    record = tmp_path / "game.json"
    gdef_run([TICTACTOE, "--moves", "-", "--record", str(record)], io.StringIO("place(1,1,X)\n"),
             io.StringIO(), io.StringIO())
    err = io.StringIO()
    code = gdef_run([str(ROOT / "examples" / "connect4.gdef"), "--resume", str(record)], io.StringIO(),
                    io.StringIO(), err)
    assert code == 2 and "is a record of 'tictactoe', but these files define 'connect4'" in err.getvalue()


def test_record_never_replaces_a_device(tmp_path):
    err = io.StringIO()
    assert gdef_run([TICTACTOE, "--record", "/dev/null", "--moves", "-"], io.StringIO("place(1,1,X)\n"),
                    io.StringIO(), err) == 2
    assert "--record /dev/null: not a regular file" in err.getvalue()
    assert Path("/dev/null").is_char_device()


def test_the_continue_line_is_shell_quoted(tmp_path):
    record = tmp_path / "my game's record.json"
    err = io.StringIO()
    gdef_run([TICTACTOE, "--record", str(record), "--moves", "-"], io.StringIO("place(1,1,X)\n"),
             io.StringIO(), err)
    import shlex

    line = err.getvalue().split("continue with: ")[1].strip()
    assert shlex.split(line) == ["gdef-run", "--resume", str(record)]


def test_an_internal_error_still_saves_the_moves(tmp_path, monkeypatch):
    from gdef_core.controller.play_session import PlaySession

    def broken_finish(self, show_board=False):
        raise RuntimeError("a bug")

    monkeypatch.setattr(PlaySession, "finish", broken_finish)
    err = io.StringIO()
    with pytest.raises(RuntimeError):
        gdef_run([TICTACTOE, "--moves", "-"], io.StringIO("place(1,1,X)\n"), io.StringIO(), err)
    saved = err.getvalue().split("The moves so far are saved in ")[1].strip().rstrip(".")
    assert json.loads(Path(saved).read_text())["moves"][0]["move"] == "place(1,1,X)"
    os.unlink(saved)


def test_parser_never_raises_on_the_new_input_classes():
    for text in [HUGE, f"size: {HUGE} x 3", 'use "\0"', 'use "\ud800"', "a\rb\rc", "(" * 5000,
                 "define f() -> int { return " + "(" * 2000 + "1" + ")" * 2000 + "; }"]:
        parse(text, "fuzz.gdef")


def test_hoisting_a_deep_expression_passes_the_locals_it_reads(tmp_path):
    """The helper a deep expression moves into gets the locals the expression reads, also one
    that may be read before its declaration ran (and is named in that error's message)."""
    expression = "l_x"
    for _ in range(45):
        expression = f"({expression} + 1)"
    rules = tmp_path / "deep.gdef"
    rules.write_text(game_text(extra="define f(int y) -> int { if (y > 0) { int l_x = y; } "
                                     f"return {expression} + y; }}",
                               legal="f(1) == 47 && f(0) == 0"))
    game = load_game(str(rules))
    source = game.rules.compiled.source
    assert "def _h1(_d, l_l_x):" in source
    verdict = game.new_state().check("place(0,0,X)")  # f(1) runs; f(0) reads l_x unset
    assert verdict.kind == "runtime error" and verdict.error.code == "G609" and "'l_x'" in verdict.error.message


def test_a_deeply_nested_expression_over_l_locals_runs(tmp_path):
    expression = "l_x"
    for _ in range(45):
        expression = f"({expression} + 1)"
    rules = tmp_path / "deep.gdef"
    rules.write_text(game_text(extra=f"define f(int l_x) -> int {{ int l_y = l_x; return {expression} + l_y; }}",
                               legal="f(1) == 47"))
    assert load_game(str(rules)).new_state().check("place(0,0,X)")


def test_undo_history_follows_the_move_not_the_board(tmp_path):
    from gdef_core.runtime.session import Session

    rules = tmp_path / "big.gdef"
    rules.write_text("name: big\nplayers: 2\nsize: 1000 x 1000\nobj X\nint placed = 0;\n"
                     "define isMoveLegal() -> bool { return operationsNum() == 1; }\n"
                     "define end() -> bool { placed = placed + 1; return false; }\n")
    game = load_game(str(rules))
    session = Session(game, [str(rules)], game.new_state())
    start = session.state.to_json()
    for x in range(5):
        assert session.play(f"place({x},7,X)").accepted
    entry = session.history[-1]
    assert len(entry.squares) == 1 and entry.variables == [4]
    middle = session.state.clone()
    session.play("place(4,7,X)")  # a square already X: still undoable exactly
    session.undo()
    assert session.state == middle
    while session.undo():
        pass
    assert session.state.to_json() == start


def test_operations_held_by_moves_are_bounded(tmp_path):
    rules = tmp_path / "bomb.gdef"
    rules.write_text("name: bomb\nplayers: 2\nsize: 3 x 3\nobj X\n"
                     "define isMoveLegal() -> bool { return true; }\n"
                     "define moves() { int i = 0; while (i < 100000000) { addPlace(0, 0, X); addPlace(0, 1, X);"
                     " i = i + 1; } addMove(); }\n"
                     "define end() -> bool { return false; }\n")
    from gdef_core.runtime.errors import GdefRuntimeError

    with pytest.raises(GdefRuntimeError) as caught:
        load_game(str(rules), max_steps=400_000).new_state().legal_moves()
    assert caught.value.code == "G607" and "counts 4" in caught.value.message


def test_the_step_limit_speaks_of_held_operations_only_in_moves(tmp_path):
    rules = tmp_path / "spin.gdef"
    rules.write_text("name: spin\nplayers: 2\nsize: 3 x 3\nobj X\n"
                     "define isMoveLegal() -> bool { return operationsNum() == 1; }\n"
                     "define end() -> bool { while (true) { } return false; }\n")
    from gdef_core.runtime.game import IllegalMoveError

    with pytest.raises(IllegalMoveError) as caught:
        load_game(str(rules), max_steps=1000).new_state().apply("place(0,0,X)")
    error = caught.value.verdict.error
    assert error.code == "G607"
    assert error.message == ("step limit exceeded: more than 1,000 loop iterations and calls in one call of the "
                             "rules (an endless loop?)")


def test_deep_json_is_refused_even_after_rules_raised_the_recursion_limit(tmp_path):
    # gdef-run --max-depth 100000 raises the recursion limit to fit the rules; json's C decoder
    # would then recurse 100,000 levels into the C stack and kill the process (seen in CI)
    record = tmp_path / "deep.json"
    record.write_text("[" * 100_000 + "]" * 100_000)
    script = ("import sys; sys.setrecursionlimit(700_000)\n"
              "from gdef_core.runtime.session import load_record, RecordError\n"
              f"try:\n    load_record({str(record)!r})\nexcept RecordError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("not a gdef-run game record: nested too deeply")


def test_json_input_measures_nesting_outside_strings():
    from gdef_core import json_input

    assert json_input.loads('{"a": "[[[[\\"[", "b": [1, [2]]}') == {"a": '[[[["[', "b": [1, [2]]}
    assert not json_input.too_deep("[[]]", 2) and json_input.too_deep("[[[]]]", 2)
    with pytest.raises(RecursionError):
        json_input.loads("{" * 501 + "}" * 501)
