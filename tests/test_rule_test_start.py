"""Rule tests that start from a position (docs/runtime.md, "Starting from a position"): a
record gdef-run wrote (`# from: FILE.json`) or a written position (`# from: empty`, `# board:`,
`# turn:`, `# var:`, `# score:`, `# move:`), with exact outcomes, and every header that does
not fit reported at its line and column."""
from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import pytest

from gdef_core import load_game
from gdef_core.cli.run import run as gdef_run
from gdef_core.cli.test import run as gdef_test
from gdef_core.ide.rule_tests import Problem, read_report, syntax_problems
from gdef_core.runtime.render import render_board
from gdef_core.testing.start_header import read_start
from gdef_core.runtime.start_position import start_state

from support import EXAMPLES, ROOT


def run_tests(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = gdef_test(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path) -> Path:
    for name in ("tictactoe", "kalah", "checkers", "backgammon", "hex"):
        shutil.copy(EXAMPLES / f"{name}.gdef", tmp_path / f"{name}.gdef")
    return tmp_path


def record(project: Path, game: str, moves: list[str], name: str, *options: str) -> Path:
    """A record gdef-run writes of `moves` played in `game`."""
    script = project / f"{name}.moves"
    script.write_text("\n".join(moves) + "\n", encoding="utf-8")
    path = project / f"{name}.json"
    code = gdef_run([str(project / f"{game}.gdef"), "--moves", str(script), "--record", str(path), *options],
                    io.StringIO(), io.StringIO(), io.StringIO())
    assert code in (0, 3) and len(json.loads(path.read_text())["moves"]) == len(moves)
    return path


def passes(project: Path, name: str, text: str) -> None:
    (project / name).write_text(text, encoding="utf-8")
    code, out, err = run_tests(str(project / name))
    assert code == 0, out + err


# ------------------------------------------------------------------ written positions

def test_a_written_position_is_where_every_test_of_the_file_starts(project):
    passes(project, "tictactoe-corner.test.moves", """# from: empty
# board: place(0,0,X); place(1,0,X); place(1,1,O); place(2,2,O)
# turn: 0
[X completes the bottom row]
? moves 5
? square 0,0 X
? square 0,1 empty
place(2,0,X)
? over winner 0
[the same position again, not the one the test above left]
? not over
? turn 0
place(0,2,X)
? turn 1
""")


def test_start_is_setups_position_with_the_header_applied(project):
    passes(project, "tictactoe-start.test.moves", """# board: place(1,1,O)
? square 1,1 O
? turn 0
? moves 8
""")


def test_counts_and_the_move_number_of_a_written_position(project):
    passes(project, "kalah-end.test.moves", """# from: empty
# board: count(6,0,1); count(1,1,3); count(7,0,20); count(0,1,10)
# turn: 0
[South's last seed goes to its store: the game ends, North keeps its own seeds]
? moves 1
g1
? over winner 0
? score 0 21
? score 1 13
? count 7,0 21
""")
    passes(project, "kalah-long.test.moves", """# move: 1000
[after move 1000 the game ends]
? not over
b1
? over
""")


def test_variables_and_scores_of_a_written_position(project):
    passes(project, "checkers-quiet.test.moves", """# var: movesWithoutCapture=39
? var movesWithoutCapture 39
clear(2,2); place(3,3,W)
? over draw
""")
    passes(project, "tictactoe-score.test.moves", "# score: 1=7\n? score 1 7\n? score 0 0\n")


def test_a_later_line_writes_over_an_earlier_one(project):
    passes(project, "tictactoe-over.test.moves", """# board: place(0,0,X); place(0,0,O)
# board: clear(0,0); place(2,2,X)
? square 0,0 empty
? square 2,2 X
""")


def test_a_drawn_board_is_read_as_gdef_test_draws_it(project):
    passes(project, "checkers-drawn.test.moves", """# from: empty
# board:
#    a  b  c  d  e  f  g  h
# 8  .  .  .  .  .  .  .  . 8
# 7  .  .  .  .  .  .  .  . 7
# 6  .  .  .  .  .  .  .  . 6
# 5  .  .  .  .  .  .  .  . 5
# 4  .  .  .  B  .  .  .  . 4
# 3  .  .  W  .  .  .  .  . 3
# 2  .  .  .  .  .  .  .  . 2
# 1  .  .  .  .  .  .  .  . 1
#    a  b  c  d  e  f  g  h
#
# White to move: the capture is the only move, and it takes Black's last man
? moves 1
clear(2,2); clear(3,3); place(4,4,W)
? over winner 0
""")
    passes(project, "kalah-drawn.test.moves", """# board:
#   a  b  c  d  e  f  g  h
# 2 10 3  .  .  .  .  .  . 2
# 1 .  .  .  .  .  .  1 20 1
# turn: 0
g1
? over winner 0
? score 1 13
""")


def test_a_drawn_board_then_operations_in_the_order_written(project):
    passes(project, "tictactoe-drawn.test.moves", """# board: place(2,2,O)
# board:
# 2 X . .
# 1 . O .
# 0 . . X
# board: clear(0,2)
? square 2,2 empty
? square 1,1 O
? square 2,0 X
? square 0,2 empty
""")


def test_a_test_may_write_its_own_start_below_its_name(project):
    passes(project, "tictactoe-tests.test.moves", """# board: place(1,1,O)
# turn: 0

[the file's position]
? square 1,1 O
? turn 0

[its own lines follow the file's]
# board: place(0,0,X); place(1,0,X)
# turn: 1
? square 1,1 O
? square 0,0 X
? turn 1
place(2,0,O)
? not over

[with its own `from` only its own lines count]
# from: empty
# board: place(0,0,X); place(1,0,X)
? square 1,1 empty
place(2,0,X)
? over winner 0

[a later test starts where the file says again]
? square 0,0 empty
? square 1,1 O
""")


def test_a_tests_own_start_that_does_not_fit_errs_only_that_test(project):
    path = project / "tictactoe-mixed.test.moves"
    path.write_text("[fine]\n? turn 0\n[off]\n# comment lines may stand among them\n# board: place(5,5,X)\n"
                    "? turn 0\n[fine again]\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path} .E.\n" in out
    assert f"{path}:5:10: the start position does not fit tictactoe: place(5,5,X) names square (5, 5), which is " \
           "off the 3x3 board" in out
    path.write_text("[fine]\n? turn 0\n[unreadable]\n# turn: X\n? turn 0\n")
    code, _, err = run_tests(str(path))
    assert (code, err) == (2, f"gdef-test: error: {path}:4:9: `X` is not a player: write `# turn: P | chance then P`\n")


def test_tests_of_one_file_start_from_records_of_their_own(project):
    record(project, "tictactoe", ["place(1,1,X)"], "centre")
    record(project, "tictactoe", ["place(0,0,X)"], "corner")
    passes(project, "tictactoe-records.test.moves", """[centre]
# from: centre.json
? square 1,1 X
? turn 1
[corner]
# from: corner.json
? square 0,0 X
? square 1,1 empty
""")
    record(project, "hex", ["place(2,2,B)"], "small", "--param", "board_size=5")
    path = project / "hex-other.test.moves"
    path.write_text("[small]\n# from: small.json\n? turn 1\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:2:9: the start position does not fit hex: the record was played with board_size=5, the game " \
           "here with board_size=11: a record goes on with the parameters it was played with (set them with " \
           "`# param:` in a test file, --param for gdef-run)" in out


def test_the_editor_finds_unreadable_start_lines_and_missing_records_without_the_game(project):
    path = str(project / "tictactoe-typed.test.moves")
    text = "# from: gone.json\n[one]\n# var: x\n? turn 0\n"
    assert syntax_problems(path, text) == [Problem(2, 7, 8, "`x` is not a setting: write `# var: NAME=VALUE`")]
    text = "# from: gone.json\n[one]\n# from: lost.json\n? turn 0\n[two]\n? turn 0\n"
    assert syntax_problems(path, text) == [
        Problem(0, 8, 17, f"the record {project / 'gone.json'} is not a file"),
        Problem(2, 8, 17, f"the record {project / 'lost.json'} is not a file")]


def test_the_editor_finds_the_same_in_the_header_of_a_gdef_run_script(project):
    path = str(project / "corner.moves")
    assert syntax_problems(path, "# from: gone.json   # a record\nplace(1,1,X)\n") == [
        Problem(0, 8, 17, f"the record {project / 'gone.json'} is not a file")]
    assert syntax_problems(path, "# turn: one\nplace(1,1,X)\n# turn: two\n") == [
        Problem(0, 8, 11, "`one` is not a player: write `# turn: P | chance then P`")]   # a comment below the header


def test_the_editor_reads_a_gdef_run_scripts_param_lines_and_takes_move_names_as_moves(project):
    path = str(project / "named.moves")
    assert syntax_problems(path, "# param: board_size\ne2e4\nO-O\n2,0\nD4   # chance's outcome\n? legal e4\n") == [
        Problem(0, 0, 19, "`# param: board_size` is not a parameter setting: write `# param: NAME=VALUE` "
                          "(for example `# param: board_size=7`)")]
    assert syntax_problems(path, "two words\nplace(1,1\n") == [
        Problem(0, 0, 9, "not a move: expected 'place(x,y,OBJ)', 'clear(x,y)', 'count(x,y,N)' or 'pass', found 'two'"),
        Problem(1, 9, 9, "not a move: expected ',' after the y coordinate, found the end of the move")]


# ------------------------------------------------------------------ records

OPENING = ["D6+D2", "count(12,0,1); place(5,0,X); count(5,0,1); count(0,0,4); place(1,2,X); count(1,2,1); "
                    "clear(9,1); clear(10,1)"]


def test_a_record_starts_the_tests_where_its_moves_lead(project):
    record(project, "tictactoe", ["place(1,1,X)", "place(0,0,O)"], "two")
    passes(project, "tictactoe-rec.test.moves", """# from: two.json
? square 1,1 X
? square 0,0 O
? turn 0
? moves 7
[the record and a written change]
? square 0,0 O
""")
    passes(project, "tictactoe-rec2.test.moves", "# from: two.json\n# board: clear(0,0)\n# turn: 1\n"
                                                "? square 0,0 empty\n? turn 1\n? moves 8\n")


def test_a_record_keeps_its_chance_state(project):
    record(project, "backgammon", OPENING[:1], "rolled")
    passes(project, "backgammon-rolled.test.moves", "# from: rolled.json\n? turn 0\n? moves 14\n" + OPENING[1]
           + "\n? chance\n? moves 21\n")
    record(project, "backgammon", OPENING, "moved")
    passes(project, "backgammon-moved.test.moves", "# from: moved.json\n? chance\nD1+D2\n? turn 1\n")
    passes(project, "backgammon-written.test.moves", "# from: rolled.json\n# turn: chance then 1\n"
                                                     "? chance\n? moves 21\n")


def test_a_record_brings_its_parameters(project):
    record(project, "hex", ["place(2,2,B)"], "small", "--param", "board_size=5")
    passes(project, "hex-small.test.moves", "# from: small.json\n? square 2,2 B\n? illegal place(6,6,W)\n")
    (project / "hex-clash.test.moves").write_text("# from: small.json\n# param: board_size=7\n? turn 1\n")
    code, _, err = run_tests(str(project / "hex-clash.test.moves"))
    assert (code, err) == (2, f"gdef-test: error: {project / 'hex-clash.test.moves'}:1:9: the record was played "
                              "with board_size=5, not with board_size=7: a test from a record keeps its "
                              "parameters (drop the other setting)\n")


# ------------------------------------------------------------------ what does not fit, located

@pytest.mark.parametrize("header, where, message", [
    ("# board: place(0,0,X); place(3,0,X)", "2:24",
     "place(3,0,X) names square (3, 0), which is off the 3x3 board (x from 0 to 2, y from 0 to 2)"),
    ("# board: place(1,0,Q)", "2:10",
     "place(1,0,Q) names 'Q', which is not an object of this game (objects: X, O, empty)"),
    ("# board: count(1,1,2)", "2:10",
     "count(1,1,2): the squares of tictactoe hold no counts (its rules never read or write one)"),
    ("# turn: 2", "2:9", "tictactoe has no player 2 (players 0 to 1)"),
    ("# turn: chance then 1", "2:9", "chance never moves in tictactoe: it has no chance()"),
    ("# var: lines=3", "2:8", "tictactoe has no game variable 'lines' (game variables: none)"),
    ("# score: 5=1", "2:10", "tictactoe has no player 5 (players 0 to 1)"),
])
def test_a_header_that_does_not_fit_the_game_is_an_error_at_its_place(project, header, where, message):
    path = project / "tictactoe-bad.test.moves"
    path.write_text(f"# game: tictactoe.gdef\n{header}\n[one]\n? turn 0\n[two]\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path} EE\n" in out
    assert f"{path}:{where}: the start position does not fit tictactoe: {message}\n" in out


def test_a_variable_of_another_type_is_an_error_at_its_line(project):
    path = project / "checkers-bad.test.moves"
    path.write_text("# var: movesWithoutCapture=W\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:1:8: the start position does not fit checkers: game variable 'movesWithoutCapture': " \
           "'W' is not int\n" in out


def test_a_record_of_another_game_or_that_does_not_replay_is_an_error(project):
    record(project, "tictactoe", ["place(1,1,X)"], "ttt")
    path = project / "checkers-ttt.test.moves"
    path.write_text("# from: ttt.json\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:1:9: the start position does not fit checkers: the record is of 'tictactoe', not of " \
           "'checkers'\n" in out
    broken = project / "ttt.json"
    broken.write_text(broken.read_text().replace("place(1,1,X)", "place(1,1,O)"))
    path = project / "tictactoe-broken.test.moves"
    path.write_text("# from: ttt.json\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:1:9: the start position does not fit tictactoe: the record does not replay: move 1 " \
           "(place(1,1,O)) does not replay: refused by" in out


PICTURE = "# board:\n#   0 1 2\n# 2 . . .\n# 1 . X .\n# 0 . . .\n"


@pytest.mark.parametrize("picture, where, message", [
    (PICTURE.replace("# 2 . . .", "# 3 . . ."), "4:3",
     "`3` is not a row of tictactoe's board: a drawn row starts with its label (2 to 0); a line `#` alone "
     "ends the picture"),
    (PICTURE.replace("# 0 . . .", "# 1 . . ."), "6:3", "row 1 is drawn twice (lines 5 and 6)"),
    (PICTURE.replace("# 1 . X .", "# 1 . X . ."), "5:3", "row 1 draws 4 squares: the board is 3 wide"),
    (PICTURE.replace("# 1 . X .", "# 1 . Q ."), "5:7",
     "`Q` is not a square as drawn: an object (X, O), `.` for an empty square, a count after the object or alone"),
    (PICTURE.replace("# 1 . X .", "# 1 . X3 ."), "5:7",
     "`X3` draws a count, but the squares of tictactoe hold no counts"),
    (PICTURE.replace("# 0 . . .\n", ""), "2:3", "the drawn board has no row 0: draw every row of the 3x3 board"),
    (PICTURE + "# X to move\n", "7:3",
     "`X` is not a row of tictactoe's board: a drawn row starts with its label (2 to 0); a line `#` alone "
     "ends the picture"),
])
def test_a_drawn_board_that_does_not_fit_is_an_error_at_its_place(project, picture, where, message):
    path = project / "tictactoe-bad.test.moves"
    path.write_text(f"# game: tictactoe.gdef\n{picture}? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:{where}: the start position does not fit tictactoe: {message}\n" in out


@pytest.mark.parametrize("header, where, message", [
    ("# board:\n#\n? turn 0", "1:3", "no board is drawn below `# board:`: draw it on the lines below (a row a "
                                     "line, as gdef-test draws a board), or write operations after `# board:`"),
    ("# from: missing.json", "1:9", "# from: {folder}/missing.json: cannot read the record: No such file or directory"),
    ("# from: tictactoe.gdef", "1:9", "# from: {folder}/tictactoe.gdef: not a JSON game record: "),
    ("# board: place(0,0,X) place(1,1,O)", "1:23", "not operations: expected ';' between operations, found 'place'"),
    ("# board: pass", "1:10", "`pass` changes no square: write `# board: OPERATIONS`"),
    ("# turn: one", "1:9", "`one` is not a player: write `# turn: P | chance then P`"),
    ("# var: lines", "1:8", "`lines` is not a setting: write `# var: NAME=VALUE`"),
    ("# score: 0=X", "1:10", "`0=X` is not a player's score: write `# score: P=VALUE`"),
    ("# move: -1", "1:9", "`-1` is not a number of moves: write `# move: N`"),
    ("# move:", "1:8", "`# move:` needs a value: write `# move: N`"),
    ("# from: empty\n# from: start", "2:9", "a second `# from:` line: a header sets it once"),
])
def test_a_header_that_cannot_be_read_makes_the_file_unreadable(project, header, where, message):
    path = project / "tictactoe-bad.test.moves"
    path.write_text(f"{header}\n? turn 0\n")
    code, out, err = run_tests(str(path))
    assert code == 2 and "passed" not in out
    assert err.startswith(f"gdef-test: error: {path}:{where}: {message.format(folder=project)}")


# ------------------------------------------------------------------ round trip

def header_of(state, drawn: str) -> str:
    """A state written as a header: every square (as operations on the empty board, or the board
    drawn as render_board draws it: `ascii` or `glyphs`), the turn, variables, scores, move."""
    data = state.to_json()
    ops = [f"place({x},{y},{name})" for x, y, name in data["board"]]
    ops += [f"count({x},{y},{n})" for x, y, n in data.get("counts", [])]
    if drawn == "operations":
        board = ["# from: empty", *(f"# board: {'; '.join(ops[i:i + 8])}" for i in range(0, len(ops), 8))]
    else:
        game = state.game
        picture = render_board(state.board, list(game.objects), presentation=game.presentation,
                               ascii=drawn == "ascii")
        board = ["# board:", *(f"# {line}" for line in picture.splitlines()), "#"]
    lines = [*board,
             f"# turn: {'chance then ' if data.get('chance') else ''}{data['player']}",
             *(f"# var: {name}={written(value)}" for name, value in data["vars"].items()),
             *(f"# score: {player}={written(value)}" for player, value in enumerate(data["scores"])),
             f"# move: {data['move_number']}"]
    return "\n".join(lines) + "\n"


def written(value) -> str:
    if isinstance(value, list):
        return "{" + ", ".join(written(item) for item in value) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value != "" else "empty"


@pytest.mark.parametrize("name", ["tictactoe.gdef", "checkers.gdef", "kalah.gdef", "backgammon.gdef",
                                  "einstein.gdef", "oware.gdef", "hex.gdef", "chess/chess.gdef",
                                  "go/go9.gdef"])
@pytest.mark.parametrize("drawn", ["operations", "ascii", "glyphs"])
def test_every_position_of_random_games_reads_back_from_its_header(name, drawn):
    game = load_game(str(EXAMPLES / name))
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_state()
        for _ in range(rng.randrange(1, 40)):
            if state.is_over:
                break
            state.apply(state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_moves()))
            if not state.is_over:
                read = start_state(game, read_start(header_of(state, drawn)), None).to_json()
                read.pop("history", None)
                wanted = state.to_json()
                wanted.pop("history", None)
                assert read == wanted


def test_a_variable_beyond_the_languages_ints_is_refused(project):
    path = project / "checkers-big.test.moves"
    path.write_text("# var: movesWithoutCapture=9223372036854775808\n? turn 0\n")
    code, out, _ = run_tests(str(path))
    assert code == 1
    assert f"{path}:1:8: the start position does not fit checkers: game variable 'movesWithoutCapture': " \
           "9223372036854775808 is not int\n" in out
    path.write_text("# var: movesWithoutCapture=9223372036854775807\n? var movesWithoutCapture 9223372036854775807\n")
    assert run_tests(str(path))[0] == 0


@pytest.mark.parametrize("header", [
    "# board: place(99999999999999999999,0,X)", "# board: count(0,0,99999999999999999999)",
    "# var: movesWithoutCapture={1, {2}", "# var: movesWithoutCapture={1, 2}", "# score: 0=1e5",
    "# turn: 99999999999", "# move: 99999999999999999999999", "# from: .", "# from: ../../../../etc/passwd",
    "# board:\n# 8 ♜ ♜ ♜\n#", "# board:\n# ", "# from: " + "x" * 5000, "# turn: chance then",
])
def test_odd_headers_are_errors_never_tracebacks(project, header):
    path = project / "checkers-odd.test.moves"
    path.write_text(f"{header}\n? turn 0\n", encoding="utf-8")
    code, out, err = run_tests(str(path))
    assert code in (1, 2), out + err
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert f"{path}:" in out + err


def test_the_examples_of_the_docs_pass(project):
    section = (ROOT / "docs" / "runtime.md").read_text(encoding="utf-8").split("#### Starting from a position")[1]
    blocks = [block for block in section.split("```")[1::2] if block.lstrip("\n").startswith("# game: ../")]
    assert len(blocks) == 2
    for number, block in enumerate(blocks):
        passes(project, f"doc{number}.test.moves", block.lstrip("\n").replace("# game: ../", "# game: ", 1))


def test_a_runs_file_problems_come_back_at_their_line_and_column():
    stderr = ("gdef-test: error: /p/a.test.moves:2:9: # from: /p/gone.json: cannot read the record\n"
              "gdef-test: error: /p/a.test.moves:3: # param: board_size=99 is not in 1 to 25\n"
              "gdef-test: error: /p/b.test.moves: which game does it test?\n")
    report = read_report("", stderr)
    assert report.problems("/p/a.test.moves") == [
        Problem(1, 8, -1, "# from: /p/gone.json: cannot read the record"),
        Problem(2, 0, -1, "# param: board_size=99 is not in 1 to 25")]
    assert report.problems("/p/b.test.moves") == [Problem(0, 0, 0, "which game does it test?")]


# ------------------------------------------------------------------ gdef-run --moves reads the same header

def run_script(project: Path, game: str, text: str, *options: str, stdin: str | None = None):
    """gdef-run playing `text` as its --moves script (from standard input when `stdin`)."""
    script = project / "start.moves"
    script.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    source = "-" if stdin is not None else str(script)
    code = gdef_run([str(project / f"{game}.gdef"), "--moves", source, *options], io.StringIO(stdin or ""), out, err)
    return code, out.getvalue(), err.getvalue(), script


@pytest.mark.parametrize("from_stdin", [False, True])
def test_gdef_run_starts_a_script_where_its_header_says(project, from_stdin):
    text = """# from: empty   # a comment after a header line, as anywhere in a move script
# board: place(0,0,X); place(1,0,X); place(1,1,O); place(2,2,O)  # two in a row
# turn: 0
# move: 4
place(2,0,X)
? over winner 0
"""
    code, out, err, _ = run_script(project, "tictactoe", text, stdin=text if from_stdin else None)
    assert (code, err) == (0, "")
    # numbered as moveNumber() counts: four moves were played before it
    assert out.startswith("5. player 0: 2,0 (place(2,0,X))\n") and out.endswith("Player 0 wins: three in a row.\n")


def test_gdef_run_starts_a_script_from_a_record_and_keeps_the_position_in_its_own(project):
    record(project, "tictactoe", ["place(1,1,X)", "place(0,0,O)"], "opening")
    kept = project / "kept.json"
    code, out, err, _ = run_script(project, "tictactoe", "# from: opening.json\n? turn 0\nplace(2,2,X)\n",
                                   "--record", str(kept))
    assert code == 3 and out.startswith("3. player 0: 2,2 (place(2,2,X))\n")  # the record's two moves came first
    data = json.loads(kept.read_text())
    assert len(data["moves"]) == 1
    assert sorted(map(tuple, data["start"]["board"])) == [(0, 0, "O"), (1, 1, "X")]


@pytest.mark.parametrize("header, options, message", [
    ("# turn: one", (), "{script}:1:9: `one` is not a player: write `# turn: P | chance then P`"),
    ("# board: place(5,0,X)", (), "{script}:1:10: the start position does not fit tictactoe: place(5,0,X) names "
                                  "square (5, 0), which is off the 3x3 board"),
    ("# from: gone.json", (), "{script}:1:9: # from: {folder}/gone.json: cannot read the record"),
    ("# from: empty", ("--resume", "{folder}/centre.json"),
     "{script}:1:9: the script's header writes where it starts, and {folder}/centre.json is resumed: drop one"),
])
def test_gdef_run_refuses_a_header_that_does_not_fit_at_its_place(project, header, options, message):
    record(project, "tictactoe", ["place(1,1,X)"], "centre")
    options = [option.format(folder=project) for option in options]
    code, out, err, script = run_script(project, "tictactoe", f"{header}\nplace(0,0,O)\n", *options)
    assert code == 2 and "player" not in out
    assert err.startswith("gdef-run: error: " + message.format(script=script, folder=project)), err


SMALL_HEX = "# param: board_size=3   # the moves below are for a 3x3 board\n? moves 9\nplace(2,2,B)\n? moves 8\n"


@pytest.mark.parametrize("from_stdin", [False, True])
def test_gdef_run_plays_a_script_with_its_param_lines_as_gdef_test_does(project, from_stdin):
    code, out, err, _ = run_script(project, "hex", SMALL_HEX, stdin=SMALL_HEX if from_stdin else None)
    assert code == 3 and "assertion" not in err, err  # the moves ran out, every `?` held
    assert out.startswith("1. Black: 2,2 (place(2,2,B))\n")
    code, out, err, _ = run_script(project, "hex", SMALL_HEX, "--param", "board_size=3")  # the same value
    assert code == 3 and "assertion" not in err, err


@pytest.mark.parametrize("header, options, message", [
    ("# param: board_size=3", ("--param", "board_size=5"),
     "{script}:1:10: the script is played with board_size=3, and --param sets board_size=5: its moves are "
     "written for its own value (drop one of the two)\n"),
    ("# param: board_size=40", (), "{script}:1:10: # param: parameter 'board_size' cannot be 40: it takes 1 to 25\n"),
    ("# param: board_size", (), "{script}:1: `# param: board_size` is not a parameter setting: write "
                                "`# param: NAME=VALUE` (for example `# param: board_size=7`)\n"),
])
def test_gdef_run_refuses_param_lines_that_clash_or_do_not_fit_at_their_place(project, header, options, message):
    code, out, err, script = run_script(project, "hex", f"{header}\nplace(0,0,B)\n", *options)
    assert (code, out, err) == (2, "", "gdef-run: error: " + message.format(script=script))


def test_a_resumed_game_keeps_its_parameters_against_a_scripts_param_line(project):
    played = record(project, "hex", ["place(1,1,B)"], "small", "--param", "board_size=4")
    code, out, err, script = run_script(project, "hex", "# param: board_size=5\nplace(0,0,W)\n", "--resume", str(played))
    assert (code, out) == (2, "")
    assert err == (f"gdef-run: error: {played} was played with board_size=4: a resumed game keeps its parameters "
                   f"(drop the `# param:` line of {script}, line 1)\n")
    code, out, err, _ = run_script(project, "hex", "# param: board_size=4\nplace(0,0,W)\n", "--resume", str(played))
    assert code == 3 and out.startswith("2. White: 0,0 (place(0,0,W))\n")


def test_a_header_line_may_end_with_a_comment_as_any_line_of_a_script(project):
    passes(project, "hex-commented.test.moves", """# game: hex.gdef          # the game
# param: board_size=5       # a small board
# from: empty               # nothing on it
# board: place(2,2,B)       # the centre taken
# turn: 1                   # then player 1
? turn 1
? square 2,2 B
? moves 24
""")


def test_header_keys_are_worded_for_a_gdef_run_script_as_for_a_rule_test_file():
    """A plain `.moves` script has no tests: its header's help says where its moves start."""
    from gdef_core.ide.rule_tests import complete, hover

    script = "# from: opening.json\n# turn: 1\nplace(0,0,X)\n"
    said = [hover(script, 0, 3).markdown, hover(script, 1, 3).markdown,
            *(candidate.documentation for candidate in complete("# \n" + script, 0, 2)
              if candidate.label != "param:")]  # the parameters are not where the moves start
    assert len(said) == 2 + 6 and all("Where the moves start" in text for text in said)
    assert not [text for text in said if "the tests start" in text]
    assert "the position the moves start from (a gdef-run script's, each test's of a rule-test file)" in said[0]
