"""Rule tests: `?` assertion lines (in gdef-run --moves and gdef-test files) and gdef-test."""
from __future__ import annotations

import io
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gdef_core import load_game
from gdef_core.cli.run import run as gdef_run
from gdef_core.cli.test import run as gdef_test
from gdef_core.testing.assertions import AssertionSyntaxError, evaluate, parse_assertion
from gdef_core.testing.select import KeywordError, keyword_matcher

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TICTACTOE = str(EXAMPLES / "tictactoe.gdef")


@pytest.fixture(scope="module")
def tictactoe():
    return load_game(TICTACTOE)


def position(game, *moves: str):
    state = game.new_state()
    for move in moves:
        state.apply(move)
    return state


WIN = ["place(0,0,X)", "place(1,1,O)", "place(1,0,X)", "place(2,2,O)", "place(2,0,X)"]


@pytest.mark.parametrize("line, moves, passed, expected, actual", [
    ("? legal place(1,1,X)", [], True, "place(1,1,X) is legal", "legal"),
    ("? legal place(1,1,O)", [], False, "place(1,1,O) is legal",
     "illegal: the rules do not allow this move (isMoveLegal() returned false)"),
    ("? illegal place(5,5,X)", [], True, "place(5,5,X) is illegal",
     "illegal: place(5,5,X) names square (5, 5), which is off the 3x3 board (x from 0 to 2, y from 0 to 2)"),
    ("? illegal place(0,0,X)", [], False, "place(0,0,X) is illegal", "legal"),
    ("? over", WIN, True, "over", "over, player 0 wins"),
    ("? over winner 0", WIN, True, "over, player 0 wins", "over, player 0 wins"),
    ("? over winner 1", WIN, False, "over, player 1 wins", "over, player 0 wins"),
    ("? over draw", WIN, False, "over, a draw", "over, player 0 wins"),
    ("? not over", [], True, "not over", "not over (player 0 on turn)"),
    ("? not over", WIN, False, "not over", "over, player 0 wins"),
    ("? turn 1", ["place(1,1,X)"], True, "player 1", "player 1"),
    ("? turn 0", ["place(1,1,X)"], False, "player 0", "player 1"),
    ("? square 1,1 X", ["place(1,1,X)"], True, "X at (1,1)", "X at (1,1)"),
    ("? square 1 1 X", ["place(1,1,X)"], True, "X at (1,1)", "X at (1,1)"),
    ("? square 0,0 empty", ["place(1,1,X)"], True, "empty at (0,0)", "empty at (0,0)"),
    ("? square 0,0 O", [], False, "O at (0,0)", "empty at (0,0)"),
    ("? square 3,0 X", [], False, "X at (3,0)", "(3,0) is off the 3x3 board"),
    ("? square 0,0 Q", [], False, "Q at (0,0)", "'Q' is not an object of this game (objects: X, O)"),
    ("? var lines 3", [], False, "lines = 3", "no game variable 'lines' (game variables: none)"),
    ("? score 0 0", [], True, "player 0's score 0", "player 0's score 0"),
    ("? score 1 5", [], False, "player 1's score 5", "player 1's score 0"),
    ("? score 2 0", [], False, "player 2's score 0", "no player 2 (players 0 to 1)"),
    ("? moves 9", [], True, "9 legal moves", None),
    ("? moves 0", WIN, True, "0 legal moves", "0 legal moves"),
])
def test_each_assertion_passes_and_fails_as_it_should(tictactoe, line, moves, passed, expected, actual):
    state = position(tictactoe, *moves)
    before = state.to_json()
    outcome = evaluate(parse_assertion(line), state)
    assert (outcome.passed, outcome.expected) == (passed, expected)
    if actual is not None:
        assert outcome.actual == actual
    assert state.to_json() == before  # an assertion changes nothing


def test_moves_lists_what_it_found(tictactoe):
    outcome = evaluate(parse_assertion("? moves 3"), position(tictactoe, *WIN[:4]))
    assert outcome.actual.startswith("5 legal moves: place(0,1,X), place(0,2,X)")


def test_var_compares_numbers_booleans_and_objects(tmp_path):
    rules = tmp_path / "vars.gdef"
    rules.write_text("name: vars\nplayers: 2\nsize: 2 x 2\nobj X\nint count = 0;\nbool flag = false;\n"
                     "obj last = empty;\nfloat ratio = 0.5;\n"
                     "define isMoveLegal() -> bool { return true; }\n"
                     "define end() -> bool { count = count + 1; flag = true; last = X; return false; }\n")
    game = load_game(str(rules))
    state = position(game, "place(0,0,X)")
    for line, passed in [("? var count 1", True), ("? var count 2", False), ("? var flag true", True),
                         ("? var flag 1", False), ("? var last X", True), ("? var last empty", False),
                         ("? var ratio 0.5", True), ("? var count 1.0", True)]:
        assert evaluate(parse_assertion(line), state).passed is passed, line


@pytest.mark.parametrize("line, message, column", [
    ("?", "an assertion needs a keyword after '?'", 1),
    ("? sqare 1,1 X", "unknown assertion 'sqare'", 2),
    ("? square 1 X", "write it as `? square X,Y OBJ`", 2),
    ("? over winner", "write it as `? over [winner P | draw]`", 2),
    ("? legal place(1,", "write it as `? legal MOVE`", 2),
    ("? moves -1", "write it as `? moves N`", 2),
    ("? turn 99999999999999999999999", "write it as `? turn P`", 2),
    ("? not done", "write it as `? not over`", 2),
])
def test_unreadable_assertions_are_located(line, message, column):
    with pytest.raises(AssertionSyntaxError) as caught:
        parse_assertion(line)
    assert message in caught.value.message
    assert caught.value.column == column


# ------------------------------------------------------------------ gdef-run --moves

def test_gdef_run_checks_assertions_and_exits_5_when_one_fails(tmp_path):
    script = tmp_path / "game.moves"
    script.write_text("place(1,1,X)\n? square 1,1 X\n? turn 0   # wrong: O is on turn\nplace(0,0,O)\n")
    out, err = io.StringIO(), io.StringIO()
    code = gdef_run([TICTACTOE, "--moves", str(script)], io.StringIO(), out, err)
    assert code == 5
    assert f"{script}:3: assertion failed: ? turn 0\n  expected: player 0\n  actual:   player 1" in err.getvalue()
    assert "1 assertion of" in err.getvalue()
    assert "2. player 1: 0,0 (place(0,0,O))" in out.getvalue()  # the moves after it still play


def test_gdef_run_assertions_after_the_end_are_checked(tmp_path):
    script = tmp_path / "game.moves"
    script.write_text("\n".join(WIN) + "\n? over winner 0\n")
    code = gdef_run([TICTACTOE, "--moves", str(script)], io.StringIO(), io.StringIO(), io.StringIO())
    assert code == 0


# ------------------------------------------------------------------ gdef-test

def run_tests(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        code = gdef_test(list(argv), out, err)
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_every_example_has_passing_rule_tests():
    code, out, err = run_tests(str(EXAMPLES))
    assert code == 0, out + err
    tested = {Path(line.split()[0]).resolve() for line in out.splitlines() if ".test.moves" in line}
    from gdef_core.loader import load_program

    games = [path for path in EXAMPLES.rglob("*.gdef") if not load_program([str(path)]).is_library]
    assert len(games) >= 7
    for game in games:
        assert any(test.parent == game.parent and test.name.startswith(game.stem) for test in tested), game
    assert "failed" not in out and " passed in " in out


@pytest.fixture
def project(tmp_path):
    shutil.copy(TICTACTOE, tmp_path / "tictactoe.gdef")
    return tmp_path


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_failures_show_where_what_and_the_board(project):
    write(project / "tictactoe.test.moves",
          "[ok]\n? turn 0\n[wrong winner]\n" + "\n".join(WIN) + "\n? over winner 1\n")
    code, out, err = run_tests(str(project))
    assert code == 1
    test_file = str(project / "tictactoe.test.moves")
    assert f"{test_file} .F\n" in out
    assert f"{test_file}::wrong winner" in out
    assert f"{test_file}:9:1: assertion failed: ? over winner 1\n  expected: over, player 1 wins\n" \
           f"  actual:   over, player 0 wins\n  after 5 moves (over, player 0 won):\n" in out
    assert "0 X X X 0" in out
    assert out.rstrip().endswith("1 failed, 1 passed in " + out.rstrip().split(" in ")[-1])


def test_a_rejected_move_fails_the_test_and_says_how_to_test_it(project):
    write(project / "tictactoe.test.moves", "place(1,1,X)\nplace(1,1,O)\n")
    code, out, _ = run_tests(str(project))
    assert code == 1
    assert "the move place(1,1,O) was rejected" in out and "write `? illegal place(1,1,O)`" in out


def test_a_rules_error_is_an_error_with_its_gdef_location(project):
    write(project / "broken.gdef", "name: broken\nplayers: 2\nsize: 3 x 3\nobj X\n"
          "define isMoveLegal() -> bool { int zero = 0; return 1 / zero == 1; }\n"
          "define end() -> bool { return false; }\n")
    write(project / "broken.test.moves", "? legal place(0,0,X)\n")
    code, out, _ = run_tests(str(project / "broken.test.moves"))
    assert code == 1
    assert "broken.test.moves E" in out
    assert "at " + str(project / "broken.gdef") + ":5:" in out
    assert "1 error in" in out


def test_a_game_with_errors_makes_every_test_an_error(project):
    write(project / "bad.gdef", "name: bad\nplayers: 2\nsize: 3 x 3\ndefine end() -> bool { return false; }\n")
    write(project / "bad.test.moves", "[one]\n? turn 0\n[two]\n? turn 0\n")
    code, out, _ = run_tests(str(project / "bad.test.moves"))
    assert code == 1
    assert "bad.test.moves EE" in out and "cannot run" in out


def test_the_game_header_names_the_game(project):
    (project / "tests").mkdir()
    write(project / "tests" / "corners.test.moves", "# game: ../tictactoe.gdef\n? moves 9\n")
    assert run_tests(str(project / "tests"))[0] == 0
    write(project / "tests" / "nogame.test.moves", "? moves 9\n")
    code, _, err = run_tests(str(project / "tests"))
    assert code == 2
    assert "which game does it test? Add a first line `# game: PATH.gdef`" in err


def test_keyword_selection_and_no_tests(project):
    write(project / "tictactoe-corners.test.moves", "[castle]\n? turn 0\n[capture]\n? turn 1\n")
    code, out, _ = run_tests(str(project), "-k", "castle")
    assert code == 0 and "1 passed, 1 deselected" in out
    code, out, _ = run_tests(str(project), "-k", "not castle and not capture")
    assert code == 5 and "2 deselected" in out
    assert run_tests(str(project / "nothing-here.test.moves"))[0] == 2
    assert run_tests(str(project), "-k", "(castle")[0] == 2


def test_junit_xml_for_ci(project):
    write(project / "tictactoe.test.moves", "[good]\n? turn 0\n[bad]\n? turn 1\n")
    report = project / "junit.xml"
    code, _, _ = run_tests(str(project / "tictactoe.test.moves"), "--junit-xml", str(report))
    assert code == 1
    suite = ET.parse(report).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "1", "0")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert cases["good"].find("failure") is None
    failure = cases["bad"].find("failure")
    assert failure.get("message") == "assertion failed: ? turn 1"
    assert "expected: player 1" in failure.text


def test_odd_files_are_refused_at_once(project, tmp_path):
    import os

    fifo = tmp_path / "pipe.test.moves"
    os.mkfifo(fifo)
    code, _, err = run_tests(str(fifo))
    assert code == 2 and "not a regular file" in err


def test_keyword_expressions():
    match = keyword_matcher("castling and not (queenside or long)")
    assert match("chess.test.moves::castling kingside")
    assert not match("chess.test.moves::castling queenside")
    assert not match("chess.test.moves::en passant")
    for bad in ["", "a and", "not", "(a", "a )"]:
        with pytest.raises(KeywordError):
            keyword_matcher(bad)
