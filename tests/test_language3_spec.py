"""Language 3 read from its normative text alone (docs/language.md "Parameters: `param`" and
"Language 3": chance, squares that count, consequences of a move), one small test per
sentence that can be tested, through the public surfaces the text names: check_files,
load_game and the State API, and the gdef-check/gdef-run/gdef-test command lines."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from gdef_core import Severity, check_files, load_game
from gdef_core.runtime import GdefRuntimeError, IllegalMoveError, Move, ParamError, VerdictKind

from support import ROOT

HEAD = "name: t\nplayers: 2\nsize: 3 x 1\nobj X\nobj Y\n"
RULES = ("define isMoveLegal() -> bool { return true; }\n"
         "define end() -> bool { return false; }\n")


def write(tmp_path, text: str, name: str = "t.gdef") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def diagnostics(tmp_path, text: str, severity=Severity.ERROR) -> list[tuple[str, int, int]]:
    """(code, line, column), both 1-based, of the diagnostics of one severity."""
    found = check_files([write(tmp_path, text)])
    return [(d.code, d.span.line + 1, d.span.column + 1) for d in found if d.severity == severity]


def codes(tmp_path, text: str, severity=Severity.ERROR) -> list[str]:
    return [code for code, _, _ in diagnostics(tmp_path, text, severity)]


def tool(name: str, *argv: str, cwd=None, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(cwd or ROOT / "tests")}
    return subprocess.run([sys.executable, "-m", "gdef_core.cli.main", name, *argv], capture_output=True,
                          input=stdin, text=True, timeout=120, cwd=cwd, env=env)


def located(error: GdefRuntimeError) -> tuple[str, int, int]:
    return error.code, error.span.line + 1, error.span.column + 1


# ============================================================ Parameters


PARAMS = (HEAD.replace("size: 3 x 1", "size: n x 1")
          + "param int n = 3 in 2 to 5;\nparam int h = 0 in {0, 2, 3};\n"
            "param float komi = 1 in -2.5 to 7;\nparam bool pie = false;\n" + RULES)


def test_a_range_includes_both_ends_and_a_list_only_its_values(tmp_path):
    path = write(tmp_path, PARAMS)
    assert load_game(path).params == {"n": 3, "h": 0, "komi": 1.0, "pie": False}
    assert load_game(path, params={"n": 2}).width == 2
    assert load_game(path, params={"n": 5}).width == 5
    assert load_game(path, params={"h": 3, "komi": -2.5, "pie": True}).params["komi"] == -2.5
    for refused in ({"n": 1}, {"n": 6}, {"h": 1}, {"komi": 7.5}, {"pie": 1}, {"m": 2}):
        with pytest.raises(ParamError) as error:
            load_game(path, params=refused)
        assert repr(next(iter(refused))) in str(error.value)


@pytest.mark.parametrize("declaration, column", [
    ("param obj p = X;", 7),                 # not obj
    ("param int p[2] = 0 in 0 to 1;", 7),     # not an array
    ("param int p = 0;", 7),                  # an int needs a domain
    ("param float p = 0.5;", 7),              # a float needs a domain
    ("param bool p = true in {true};", 7),    # a bool has none
    ("param int p = 0 in 0 to 1.5;", 7),      # an int takes int literals only
    ("param int p = 0 in 2 to 1;", 7),        # LOW > HIGH
    ("param int p = 0 in {};", 7),            # an empty list
    ("param int p = 0 in {0, 1, 0};", 7),     # a value listed twice
    ("int p = 0 in 0 to 1;", 1),              # a domain on a game variable not declared param
])
def test_declarations_the_language_does_not_allow_are_g414(tmp_path, declaration, column):
    found = diagnostics(tmp_path, HEAD + declaration + "\n" + RULES)
    assert [code for code, _, _ in found] == ["G414"] and found[0][1] == 6


def test_a_word_other_than_in_or_to_in_a_domain_is_g101(tmp_path):
    assert codes(tmp_path, HEAD + "param int p = 0 in 0 upto 1;\n" + RULES) == ["G101"]


@pytest.mark.parametrize("declaration, ok", [
    ("param int p = 3 in 0 to 2;", False),       # outside the range
    ("param int p = 1 in {0, 2};", False),       # not in the list
    ("param int p = 1 + 1 in 0 to 2;", False),   # not a literal
    ("param bool p = 1;", False),                # not of the type
    ("param float p = 1 in 0 to 2;", True),      # an int literal may default a float
    ("param float p = -0.5 in -1 to 2.5;", True),
    ("param int p = -1 in -2 to 0;", True),
])
def test_defaults_outside_the_domain_or_not_literals_are_g415(tmp_path, declaration, ok):
    assert codes(tmp_path, HEAD + declaration + "\n" + RULES) == ([] if ok else ["G415"])


def test_param_in_and_to_stay_ordinary_names_elsewhere(tmp_path):
    text = (HEAD + "int to = 1;\ndefine in(int param) -> int { return param; }\n"
            "define isMoveLegal() -> bool { return in(to) == 1; }\ndefine end() -> bool { return false; }\n")
    assert codes(tmp_path, text) == []


def test_a_parameter_is_read_everywhere_and_sizes_arrays(tmp_path):
    text = (HEAD.replace("size: 3 x 1", "size: n x 1") + "param int n = 3 in 1 to 9;\n"
            "int cells[n] = n;\nint first = n + 1;\n"
            "define setup() { int local[n] = 0; cells[n - 1] = local[0] + first; }\n" + RULES)
    state = load_game(write(tmp_path, text), params={"n": 4}).new_state()
    assert state.variables["cells"] == [4, 4, 4, 5] and state.variables["first"] == 5


def test_assigning_a_parameter_is_g416_and_indexing_it_g209(tmp_path):
    text = PARAMS.replace("define end() -> bool { return false; }",
                          "define end() -> bool {\n  n = 4;\n  return h[0] == 0;\n}")
    assert diagnostics(tmp_path, text) == [("G416", 12, 3), ("G209", 13, 10)]


def test_start_cannot_name_a_parameter(tmp_path):
    text = PARAMS + "start { (n,0: X) }\n"
    assert diagnostics(tmp_path, text) == [("G101", 12, 10)]   # its squares are numbers


def test_size_naming_what_is_not_an_int_parameter_is_g404(tmp_path):
    text = HEAD.replace("size: 3 x 1", "size: komi x 1") + "param float komi = 1 in 0 to 2;\n" + RULES
    assert codes(tmp_path, text) == ["G404"]
    assert codes(tmp_path, HEAD.replace("size: 3 x 1", "size: m x 1") + RULES) == ["G404"]


def test_gdef_check_checks_with_the_values_asked_for(tmp_path):
    path = write(tmp_path, HEAD.replace("size: 3 x 1", "size: n x 1") + "param int n = 3 in 1 to 2000;\n"
                 + "start { (2,0: X) }\n" + RULES)
    assert tool("check", path).returncode == 0
    small = tool("check", "--param", "n=2", path)
    assert small.returncode == 1 and "G408" in small.stdout + small.stderr
    assert "t.gdef:7:10: error[G408]" in small.stdout   # at the start square
    large = tool("check", "--param", "n=1001", path)
    assert large.returncode == 1 and "G404" in large.stdout + large.stderr


@pytest.mark.parametrize("tool_name", ["check", "run", "sim", "test"])
@pytest.mark.parametrize("setting, named", [("n=9", "'n'"), ("size=3", "'size'")])
def test_a_refused_param_is_a_usage_error_naming_it(tmp_path, tool_name, setting, named):
    path = write(tmp_path, PARAMS)
    # gdef-run reads its script first (its `# param:` lines decide how the game loads): an empty one
    extra = {"run": ["--moves", write(tmp_path, "", "m.moves")], "sim": ["--games", "1"]}.get(tool_name, [])
    if tool_name == "test":
        path = write(tmp_path, "place(0,0,X)\n", "t.test.moves")
    done = tool(tool_name, path, "--param", setting, *extra, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert named in done.stderr and "Traceback" not in done.stderr


def test_records_store_the_values_and_resume_uses_them(tmp_path):
    path = write(tmp_path, PARAMS)
    moves = write(tmp_path, "place(0,0,X)\n", "m.moves")
    record = tmp_path / "r.json"
    done = tool("run", path, "--param", "n=4", "--moves", moves, "--record", str(record), cwd=tmp_path)
    assert done.returncode == 3, done.stderr   # the moves ran out before the game ended
    assert json.loads(record.read_text(encoding="utf-8"))["params"]["n"] == 4
    more = write(tmp_path, "place(3,0,X)\n", "more.moves")
    again = tool("run", path, "--resume", str(record), "--moves", more, cwd=tmp_path)
    assert again.returncode == 3 and "rejected" not in again.stderr, again.stderr


def test_the_openspiel_adapter_takes_and_lists_the_parameters(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from gdef_core.interop import openspiel  # noqa: F401  registers the game
    path = write(tmp_path, PARAMS)
    game = pyspiel.load_game("gdef", {"path": path, "n": 4})
    assert game.get_parameters()["n"] == 4 and game.get_parameters()["h"] == 0


# ============================================================ Soft built-ins: G421


@pytest.mark.parametrize("name", ["chanceNext", "addOutcome", "isChanceMove", "CurrentCount", "NextCount",
                                  "PreviousCount", "ResultPosition", "ResultCount", "addCount",
                                  "isCountOperation"])
@pytest.mark.parametrize("kind", ["define {}() -> int {{ return 1; }}", "obj {}", "int {} = 0;"])
def test_each_soft_name_may_be_defined_with_a_warning(tmp_path, name, kind):
    text = HEAD + kind.format(name) + "\n" + RULES
    assert codes(tmp_path, text) == []
    warnings = [w for w in diagnostics(tmp_path, text, Severity.WARNING) if w[0] != "G502"]  # G502: unused
    assert warnings == [("G421", 6, kind.index("{") + 1)]


def test_a_function_of_its_own_named_chance_is_not_called_without_chancenext(tmp_path):
    text = HEAD + "define chance(int a) -> int { return a; }\n" + RULES
    assert codes(tmp_path, text) == []
    state = load_game(write(tmp_path, text)).new_state()
    assert not state.is_chance_node and state.chance_outcomes() == []
    state.apply("place(0,0,X)")
    assert not state.is_chance_node


# ============================================================ Chance


def chance_game(chance: str, end: str = "if (isChanceMove()) { return false; }\n  chanceNext();\n  return false;",
                setup: str = "chanceNext();", legal: str = "return true;") -> str:
    return (HEAD + "obj D1\nobj D2\n" + f"define setup() {{ {setup} }}\n" + f"define chance() {{\n{chance}\n}}\n"
            + f"define isMoveLegal() -> bool {{ {legal} }}\n" + f"define end() -> bool {{\n  {end}\n}}\n")


TWO_FACES = "  addPlace(2, 0, D1); addOutcome(1);\n  addPlace(2, 0, D2); addOutcome(3);"


def test_g406_for_a_chance_of_the_wrong_shape_in_a_game_that_calls_chancenext(tmp_path):
    text = chance_game(TWO_FACES).replace("define chance() {", "define chance(int a) {")
    assert codes(tmp_path, text) == ["G406"]
    text = chance_game(TWO_FACES).replace("define chance() {", "define chance() -> int {")
    assert "G406" in codes(tmp_path, text)


def test_g418_for_chancenext_in_a_game_without_chance(tmp_path):
    text = HEAD + "define setup() { chanceNext(); }\n" + RULES
    assert diagnostics(tmp_path, text) == [("G418", 6, 18)]


@pytest.mark.parametrize("call", ["addMove();", "bool h = hasLegalMove();", "setScore(0, 1);", "setNextPlayer(1);",
                                  "bool c = isChanceMove();", "chanceNext();"])
def test_g419_for_a_built_in_chance_may_not_use(tmp_path, call):
    text = chance_game(TWO_FACES + f"\n  {call}")
    found = diagnostics(tmp_path, text)
    assert [code for code, _, _ in found] == ["G419"] and found[0][1] == 12


def test_g419_for_addoutcome_outside_chance_with_the_call_path(tmp_path):
    text = chance_game(TWO_FACES, end="helper();\n  return false;") + "define helper() { addOutcome(1); }\n"
    found = check_files([write(tmp_path, text)])
    errors = [d for d in found if d.severity == Severity.ERROR]
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in errors] == [("G419", 18, 19)]
    assert "end" in errors[0].message or any("end" in r.message for r in errors[0].related)


def test_g412_for_a_game_variable_assigned_in_chance(tmp_path):
    text = chance_game(TWO_FACES + "\n  rolls = rolls + 1;").replace("obj D1\n", "obj D1\nint rolls = 0;\n")
    assert codes(tmp_path, text) == ["G412"]


@pytest.mark.parametrize("where", ["isMoveLegal", "moves"])
def test_chancenext_is_allowed_only_in_end_and_setup(tmp_path, where):
    text = chance_game(TWO_FACES)
    if where == "isMoveLegal":
        text = text.replace("{ return true; }", "{ chanceNext(); return true; }")
    else:
        text += "define moves() { chanceNext(); }\n"
    assert codes(tmp_path, text) == ["G411"]


def test_is_chance_move_is_allowed_only_in_end(tmp_path):
    text = chance_game(TWO_FACES, legal="return !isChanceMove();")
    assert diagnostics(tmp_path, text) == [("G411", 13, 40)]


def test_outcomes_are_merged_in_order_with_weights_added_and_the_tail_discarded(tmp_path):
    chance = ("  addPlace(2, 0, D2); addOutcome(2);\n  addPlace(2, 0, D1); addOutcome(1);\n"
              "  addPlace(2, 0, D2); addOutcome(5);\n  addPlace(1, 0, D1);")
    state = load_game(write(tmp_path, chance_game(chance))).new_state()
    assert [(str(m), w) for m, w in state.chance_outcomes()] == [("place(2,0,D2)", 7), ("place(2,0,D1)", 1)]


def test_a_two_object_outcome_is_named_by_its_objects_and_typed_in_any_order(tmp_path):
    chance = "  addPlace(2, 0, D2); addPlace(1, 0, D1); addOutcome(1);\n  addPlace(2, 0, D1); addOutcome(1);"
    state = load_game(write(tmp_path, chance_game(chance))).new_state()
    assert state.move_names([m for m, _ in state.chance_outcomes()]) == ["D2+D1", "D1"]  # operation order
    state.apply("place(1,0,D1); place(2,0,D2)")
    assert state.board[1, 0] == "D1" and state.board[2, 0] == "D2"
    again = load_game(write(tmp_path, chance_game(chance))).new_state()
    again.apply("D2+D1")
    assert again.board[2, 0] == "D2"


def test_only_identical_operation_lists_are_merged(tmp_path):
    chance = ("  addPlace(1, 0, D1); addPlace(2, 0, D2); addOutcome(1);\n"
              "  addPlace(2, 0, D2); addPlace(1, 0, D1); addOutcome(2);\n  addPlace(2, 0, D1); addOutcome(1);")
    state = load_game(write(tmp_path, chance_game(chance))).new_state()
    outcomes = state.chance_outcomes()
    assert [w for _, w in outcomes] == [1, 2, 1]     # the same operations in another order: not merged
    assert state.move_names([m for m, _ in outcomes]) == ["D1+D2", "D2+D1", "D1"]
    assert state.check("place(2,0,D2); place(1,0,D1)").ops[0][:2] == (2, 0)   # the outcome typed


def test_a_runtime_error_in_chance_stops_the_game_with_the_located_error(tmp_path):
    path = write(tmp_path, chance_game("  addPlace(2, 0, D1); addOutcome(1 / (moveNumber() - moveNumber()));"))
    done = tool("run", path, "--moves", write(tmp_path, "D1\n", "m.moves"), cwd=tmp_path)
    assert done.returncode == 3 and "rejected" not in done.stderr
    assert "chance() failed, so the game cannot go on:\n" in done.stderr and "t.gdef:10:36: error[G601]" in done.stderr
    assert "Stopped (chance() failed) before the game ended, after 0 move(s)." in done.stderr


def test_openspiel_sees_an_explicit_stochastic_game_with_outcomes_in_order(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    import gdef_core.interop.openspiel  # noqa: F401  registers "gdef"
    game = pyspiel.load_game("gdef", {"path": write(tmp_path, chance_game(TWO_FACES))})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.75)]
    state.apply_action(1)
    assert state.current_player() == 0


def test_a_move_that_is_not_an_outcome_is_refused_with_the_outcomes_listed(tmp_path):
    state = load_game(write(tmp_path, chance_game(TWO_FACES))).new_state()
    verdict = state.check("place(0,0,X)")
    assert verdict.kind is VerdictKind.REJECTED and "D1" in verdict.reason and "D2" in verdict.reason
    with pytest.raises(IllegalMoveError):
        state.apply("place(2,0,X)")


def test_at_a_chance_node_on_turn_is_the_waiting_player_and_outcomes_count_as_moves(tmp_path):
    chance = ("  if (onTurn() == 1 && moveNumber() == 2) { addPlace(2, 0, D2); addOutcome(1); }\n"
              "  else { addPlace(2, 0, D1); addOutcome(1); }")
    state = load_game(write(tmp_path, chance_game(chance))).new_state()
    assert state.is_chance_node and state.current_player == 0 and state.move_number == 0
    state.apply("D1")
    assert state.current_player == 0 and state.move_number == 1   # the cycle did not advance
    state.apply("place(0,0,X)")
    assert state.is_chance_node and state.current_player == 1 and state.move_number == 2
    assert state.move_names([m for m, _ in state.chance_outcomes()]) == ["D2"]


def test_an_outcome_is_not_judged_by_is_move_legal(tmp_path):
    state = load_game(write(tmp_path, chance_game(TWO_FACES, legal="return false;"))).new_state()
    state.apply("D2")
    assert state.board[2, 0] == "D2" and not state.is_chance_node


def test_end_may_call_chancenext_again_for_a_second_die(tmp_path):
    end = ("if (isChanceMove() && CurrentPosition[1][0] == empty) { addPlace(1, 0, X); chanceNext(); return false; }\n"
           "  if (isChanceMove()) { return false; }\n  chanceNext();\n  return false;")
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D1")
    assert state.is_chance_node and state.current_player == 0 and state.board[1, 0] == "X"
    state.apply("D2")
    assert not state.is_chance_node and state.current_player == 0


def test_set_next_player_after_an_outcome_picks_who_moves(tmp_path):
    end = "if (isChanceMove()) { setNextPlayer(1); return false; }\n  chanceNext();\n  return false;"
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D1")
    assert state.current_player == 1


def test_chancenext_has_no_effect_when_end_returns_true(tmp_path):
    end = "if (isChanceMove()) { return false; }\n  chanceNext();\n  return true;"
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D1")
    state.apply("place(0,0,X)")
    assert state.is_over and not state.is_chance_node and state.chance_outcomes() == []


def test_end_can_end_the_game_on_an_outcome(tmp_path):
    end = "if (isChanceMove()) { setWinner(1); return true; }\n  return false;"
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D2")
    assert state.is_over and state.winner == 1


def test_operation_list_in_end_is_the_outcome(tmp_path):
    end = ("if (isChanceMove() && operationsNum() == 1 && OperationList[0][2] == D2) { setWinner(0); return true; }\n"
           "  return false;")
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D2")
    assert state.is_over and state.winner == 0


def test_g615_without_outcomes_at_chance_and_g616_at_the_addoutcome(tmp_path):
    state = load_game(write(tmp_path, chance_game("  addPlace(2, 0, D1);"))).new_state()
    with pytest.raises(GdefRuntimeError) as error:
        state.chance_outcomes()
    assert located(error.value) == ("G615", 9, 8)
    for weight in ("0", "2147483649"):
        state = load_game(write(tmp_path, chance_game(f"  addPlace(2, 0, D1); addOutcome({weight});"))).new_state()
        with pytest.raises(GdefRuntimeError) as error:
            state.chance_outcomes()
        assert located(error.value) == ("G616", 10, 23)
    state = load_game(write(tmp_path, chance_game("  addPlace(2, 0, D1); addOutcome(2147483648);"))).new_state()
    assert state.chance_outcomes()[0][1] == 2147483648


def test_an_outcome_off_the_board_is_g603(tmp_path):
    state = load_game(write(tmp_path, chance_game("  addPlace(3, 0, D1); addOutcome(1);"))).new_state()
    with pytest.raises(GdefRuntimeError) as error:
        state.chance_outcomes()
    assert located(error.value) == ("G603", 10, 3)


def test_a_script_names_outcomes_the_run_prints_them_and_the_record_marks_them(tmp_path):
    path = write(tmp_path, chance_game(TWO_FACES))
    moves = write(tmp_path, "D2\nplace(0,0,X)\n? chance\nplace(2,0,D1)\n", "m.moves")
    record = tmp_path / "r.json"
    done = tool("run", path, "--moves", moves, "--record", str(record), cwd=tmp_path)
    assert done.returncode == 3 and "rejected" not in done.stderr, done.stderr
    assert "rolled: D2" in done.stdout and "rolled: D1" in done.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert [m.get("chance", False) for m in data["moves"]] == [True, False, True]


def test_seed_reproduces_the_rolls(tmp_path):
    end = "if (isChanceMove()) { return false; }\n  if (moveNumber() >= 6) { return true; }\n  chanceNext();\n  return false;"
    path = write(tmp_path, chance_game(TWO_FACES, end=end))
    runs = [tool("run", path, "--seed", "5", "--player", "0=random", "--player", "1=random", "--no-color",
                 cwd=tmp_path, stdin="") for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout and "rolled:" in runs[0].stdout


# ============================================================ Squares that count


COUNTING = (HEAD + "define setup() { addCount(1, 0, 4); }\n"
            "define isMoveLegal() -> bool { return NextCount[1][0] != 99; }\n"
            "define end() -> bool { return false; }\n")


def test_a_count_is_zero_until_changed_and_count_operations_leave_the_object(tmp_path):
    state = load_game(write(tmp_path, COUNTING)).new_state()
    assert state.board.count(0, 0) == 0 and state.board.count(1, 0) == 4
    state.apply("place(1,0,X)")
    assert state.board[1, 0] == "X" and state.board.count(1, 0) == 0      # place sets the count to 0
    state.apply("count(1,0,7)")
    assert state.board[1, 0] == "X" and state.board.count(1, 0) == 7      # the object stays
    state.apply("count(1,0,-3)")
    assert state.board.count(1, 0) == -3                                   # any int
    state.apply("clear(1,0)")
    assert state.board[1, 0] == "empty" and state.board.count(1, 0) == 0


def test_next_previous_and_current_count_and_the_operation_list(tmp_path):
    text = (HEAD + "int seen[5] = 0;\ndefine setup() { addCount(1, 0, 4); }\n"
            "define isMoveLegal() -> bool { return NextCount[1][0] != 9 || CurrentCount[1][0] == 4; }\n"
            "define end() -> bool {\n  seen[0] = PreviousCount[1][0]; seen[1] = CurrentCount[1][0];\n"
            "  seen[2] = OperationList[0][3]; seen[3] = NextCount[1][0];\n"
            "  if (isCountOperation(0) && !isPlaceOperation(0) && OperationList[0][2] == empty) { seen[4] = 1; }\n"
            "  else { seen[4] = 0; }\n  return false;\n}\n")
    state = load_game(write(tmp_path, text)).new_state()
    assert state.check("count(1,0,9)").kind is VerdictKind.LEGAL    # NextCount: 9, CurrentCount: 4
    state.apply("count(1,0,9)")
    assert state.variables["seen"] == [4, 9, 9, 9, 1]               # NextCount in end(): CurrentCount
    assert state.check("count(1,0,9)").kind is VerdictKind.REJECTED
    state.apply("place(1,0,Y)")
    assert state.variables["seen"] == [9, 0, 0, 0, 0]               # [i][3] of a place is 0


def test_a_game_without_counts_refuses_a_count_move(tmp_path):
    state = load_game(write(tmp_path, HEAD + RULES)).new_state()
    verdict = state.check("count(0,0,2)")
    assert verdict.kind is not VerdictKind.LEGAL and "the squares of t hold no counts" in verdict.reason
    assert state.board.counts() == []


def test_a_move_of_counts_only_is_named_by_its_first_square(tmp_path):
    text = COUNTING.replace("size: 3 x 1", "size: 3 x 2")
    state = load_game(write(tmp_path, text)).new_state()
    names = state.move_names([Move.parse("count(1,0,5); count(0,1,2)"), Move.parse("place(0,0,X); count(1,0,5)")])
    assert names[0] == "1,0"   # the name of square (1, 0) on a board whose labels are numbers
    assert names[1] == state.move_names([Move.parse("place(0,0,X)")])[0]


def test_a_count_that_is_not_an_int_is_a_malformed_move(tmp_path):
    state = load_game(write(tmp_path, COUNTING)).new_state()
    for text in ("count(1,0,x)", "count(1,0,99999999999999999999)"):
        verdict = state.check(text)
        assert verdict.kind is VerdictKind.MALFORMED, text


def test_counts_are_ints_for_the_checker(tmp_path):
    text = COUNTING.replace("return NextCount[1][0] != 99;",
                            "obj o = CurrentCount[0][0];\n  return NextCount[1] >= 0 && CurrentCount[0][0] == o;")
    assert diagnostics(tmp_path, text) == [("G304", 7, 40), ("G309", 8, 10), ("G301", 8, 31)]


def test_gdef_test_checks_a_count(tmp_path):
    write(tmp_path, COUNTING)   # t.gdef, the game of t.test.moves beside it
    script = write(tmp_path, "count(2,0,6)\n? count 2,0 6\n? count 1,0 4\n", "t.test.moves")
    assert tool("test", script, cwd=tmp_path).returncode == 0
    write(tmp_path, "count(2,0,6)\n? count 2,0 5\n", "t.test.moves")
    failed = tool("test", script, cwd=tmp_path)
    assert failed.returncode == 1 and "t.test.moves:2" in failed.stdout + failed.stderr


def test_the_console_shows_a_count_unless_hidden(tmp_path):
    path = write(tmp_path, COUNTING)
    shown = tool("run", path, "--no-color", cwd=tmp_path, stdin="count(2,0,37)\nquit\n").stdout
    assert "0  .  4 37 0" in shown             # right-aligned, alone on an empty square
    hidden = write(tmp_path, COUNTING + "show { counts: hidden; }\n", "h.gdef")
    assert "37 0" not in tool("run", hidden, "--no-color", cwd=tmp_path, stdin="count(2,0,37)\nquit\n").stdout


def test_repetitions_compare_counts_with_the_objects(tmp_path):
    text = (HEAD + "int reps = 0;\ndefine setup() { addCount(1, 0, 1); }\n"
            "define isMoveLegal() -> bool { return CurrentCount[1][0] >= 0; }\n"
            "define end() -> bool { reps = repetitions(); return false; }\n")
    state = load_game(write(tmp_path, text)).new_state()
    state.apply("count(1,0,2)")
    assert state.variables["reps"] == 0            # player 1 to move: a new position
    other = state.clone()
    state.apply("count(1,0,1)")
    assert state.variables["reps"] == 1            # the start position again
    other.apply("count(1,0,7)")
    assert other.variables["reps"] == 0            # the same objects, another count


# ============================================================ Consequences of a move


def consequences(end: str, legal: str = "return true;", extra: str = "") -> str:
    return (HEAD + "int seen[4] = 0;\ndefine setup() { addCount(1, 0, 2); }\n" + extra
            + f"define isMoveLegal() -> bool {{\n  {legal}\n}}\n" + f"define end() -> bool {{\n  {end}\n}}\n")


def test_end_changes_the_position_at_once_and_previous_stays(tmp_path):
    end = ("addPlace(2, 0, Y);\n  if (CurrentPosition[2][0] == Y) { seen[0] = 1; }\n"
           "  if (PreviousPosition[2][0] == empty) { seen[1] = 1; }\n"
           "  if (operationsNum() == 1 && OperationList[0][0] == 0) { seen[2] = 1; }\n"
           "  if (ResultPosition[2][0] == Y) { seen[3] = 1; }\n  return false;")
    state = load_game(write(tmp_path, consequences(end))).new_state()
    state.apply("place(0,0,X)")
    assert state.variables["seen"] == [1, 1, 1, 1] and state.board[2, 0] == "Y"


def test_consequences_apply_when_end_returns_true(tmp_path):
    state = load_game(write(tmp_path, consequences("addClear(0, 0);\n  return true;"))).new_state()
    state.apply("place(0,0,X)")
    assert state.is_over and state.board[0, 0] == "empty"


@pytest.mark.parametrize("order, obj, count", [
    ("addCount(1, 0, 3); addClear(1, 0);", "empty", 0),
    ("addClear(1, 0); addCount(1, 0, 3);", "empty", 3),
    ("addCount(1, 0, 3); addPlace(1, 0, Y);", "Y", 0),
    ("addPlace(1, 0, Y); addCount(1, 0, 3);", "Y", 3),
    ("addPlace(1, 0, Y); addPlace(1, 0, X);", "X", 0),
])
def test_consequences_apply_in_order_and_a_later_one_wins(tmp_path, order, obj, count):
    state = load_game(write(tmp_path, consequences(order + "\n  return false;"))).new_state()
    state.apply("place(0,0,X)")
    assert (state.board[1, 0], state.board.count(1, 0)) == (obj, count)


def test_a_runtime_error_in_end_discards_the_consequences_with_the_move(tmp_path):
    state = load_game(write(tmp_path, consequences("addClear(1, 0);\n  return 1 / 0 == 0;"))).new_state()
    with pytest.raises((GdefRuntimeError, IllegalMoveError)):
        state.apply("place(0,0,X)")
    assert state.board[0, 0] == "empty" and state.board.count(1, 0) == 2 and state.move_number == 0


def test_is_move_legal_changes_a_scratch_copy_read_through_result_position(tmp_path):
    legal = ("addClear(1, 0);\n  addCount(2, 0, 5);\n"
             "  return ResultCount[2][0] == 5 && NextCount[2][0] == 0 && ResultCount[1][0] == 0\n"
             "    && ResultPosition[0][0] == X && NextPosition[0][0] == X && ResultPosition[1][0] == empty;")
    state = load_game(write(tmp_path, consequences("return false;", legal=legal))).new_state()
    assert state.check("place(0,0,X)").kind is VerdictKind.LEGAL
    assert state.check("place(0,0,Y)").kind is VerdictKind.REJECTED
    state.apply("place(0,0,X)")
    assert state.board.count(1, 0) == 2 and state.board.count(2, 0) == 0   # the game never changed


def test_result_position_elsewhere_is_current_position(tmp_path):
    extra = "define moves() { if (ResultPosition[0][0] == empty && ResultCount[1][0] == 2) { addPlace(0, 0, X); addMove(); } }\n"
    state = load_game(write(tmp_path, consequences("return false;", extra=extra))).new_state()
    assert [str(m) for m in state.legal_moves()] == ["place(0,0,X)"]


def test_next_board_seen_compares_the_position_after_the_consequences(tmp_path):
    # A stone placed on (0, 0) is captured at once: the board after the move is the start board.
    legal = "addClear(0, 0);\n  return !nextBoardSeen();"
    state = load_game(write(tmp_path, consequences("addClear(0, 0);\n  return false;", legal=legal))).new_state()
    assert state.check("place(0,0,X)").kind is VerdictKind.REJECTED
    assert state.check("place(2,0,X)").kind is VerdictKind.LEGAL


def test_has_legal_move_in_end_sees_the_consequences(tmp_path):
    text = (HEAD.replace("size: 3 x 1", "size: 1 x 1") + "int stuck = 0;\n"
            "define isMoveLegal() -> bool { return CurrentPosition[0][0] == empty; }\n"
            "define moves() { addPlace(0, 0, X); addMove(); }\n"
            "define end() -> bool {\n  addClear(0, 0);\n  if (!hasLegalMove()) { stuck = 1; }\n  return false;\n}\n")
    state = load_game(write(tmp_path, text)).new_state()
    state.apply("place(0,0,X)")
    assert state.variables["stuck"] == 0 and state.board[0, 0] == "empty"


def test_g420_names_both_call_paths_and_moves_with_end_is_allowed(tmp_path):
    extra = ("define capture() { addClear(0, 0); }\n"
             "define moves() { capture(); addPlace(0, 0, X); addMove(); }\n")
    found = check_files([write(tmp_path, consequences("return false;", legal="capture();\n  return true;",
                                                      extra=extra))])
    errors = [d for d in found if d.severity == Severity.ERROR]
    assert [(d.code, d.span.line + 1) for d in errors] == [("G420", 8)]
    said = errors[0].message + " ".join(r.message for r in errors[0].related)
    assert "moves" in said and "isMoveLegal" in said
    fine = consequences("capture();\n  return false;", extra=extra)
    assert codes(tmp_path, fine) == []


def test_addmove_stays_moves_only(tmp_path):
    assert codes(tmp_path, consequences("addMove();\n  return false;")) == ["G411"]


def test_a_consequence_off_the_board_is_g603_at_run_time(tmp_path):
    state = load_game(write(tmp_path, consequences("addCount(5, 0, 1);\n  return false;"))).new_state()
    with pytest.raises(IllegalMoveError) as error:
        state.apply("place(0,0,X)")
    assert "t.gdef:12:3: error[G603]" in str(error.value)
    assert state.board[0, 0] == "empty" and state.move_number == 0


def test_records_hold_the_players_operations_and_resume_recomputes(tmp_path):
    path = write(tmp_path, consequences("addClear(1, 0);\n  addPlace(2, 0, Y);\n  return false;"))
    moves = write(tmp_path, "place(0,0,X)\n", "m.moves")
    record = tmp_path / "r.json"
    assert tool("run", path, "--moves", moves, "--record", str(record), cwd=tmp_path).returncode == 3
    data = json.loads(record.read_text(encoding="utf-8"))
    assert [m["move"] for m in data["moves"]] == ["place(0,0,X)"]


# ============================================================ the text's own examples


def examples_of(heading: str, next_heading: str) -> list[tuple[int, str]]:
    """The ```gdef blocks between two headings of docs/language.md, with their first line."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index(heading):text.index(next_heading)]
    offset = text[:text.index(heading)].count("\n")
    return [(offset + section[:match.start()].count("\n") + 2, match.group(1))
            for match in re.finditer(r"```gdef\n(.*?)```", section, re.S)]


SECTIONS = [("### Parameters: `param`", "### Objects"),
            ("## Language 3", "## Games in several files")]


@pytest.mark.parametrize("heading, next_heading", SECTIONS)
def test_the_examples_parse_but_for_their_elisions(tmp_path, heading, next_heading):
    from gdef_core import parse
    blocks = examples_of(heading, next_heading)
    assert blocks
    for first, body in blocks:
        lines = body.splitlines()
        problems = [(first + d.span.line, d.message) for d in parse(body, "x.gdef").diagnostics
                    if "..." not in lines[d.span.line]]
        assert problems == [], f"docs/language.md:{first}"


def test_the_parameter_example_checks_clean_in_a_game(tmp_path):
    (_, declarations), *_ = examples_of(*SECTIONS[0])
    assert "param float komi = 7.5 in -50.0 to 50.0;" in declarations
    assert diagnostics(tmp_path, "name: go\nplayers: 2\nobj X\nobj Y\n" + declarations + RULES) == []


def test_the_header_examples_are_the_example_files_own():
    for _, body in examples_of(*SECTIONS[0]) + examples_of(*SECTIONS[1]):
        named = re.match(r"// (?:\w+ \()?(examples/[\w/.]+\.gdef)", body)
        if named and "..." not in body:
            source = (ROOT / named.group(1)).read_text(encoding="utf-8")
            for line in body.splitlines()[1:]:
                if line.strip() and not line.startswith("//"):
                    assert line in source, (named.group(1), line)


def test_nxn_is_one_name_in_size(tmp_path):
    text = "name: t\nplayers: 2\nparam int n = 3 in 1 to 5;\nsize: nxn\nobj X\n" + RULES
    assert diagnostics(tmp_path, text) == [("G404", 4, 7)]
    assert codes(tmp_path, text.replace("nxn", "n x n")) == []


def test_result_count_reads_as_current_count_does_and_makes_a_game_count(tmp_path):
    text = HEAD + "define isMoveLegal() -> bool { return ResultCount[0] == 0; }\ndefine end() -> bool { return false; }\n"
    assert diagnostics(tmp_path, text) == [("G309", 6, 39)]
    state = load_game(write(tmp_path, text.replace("ResultCount[0]", "ResultCount[0][0]"))).new_state()
    state.apply("count(1,0,3)")                     # a game that reads ResultCount keeps counts
    assert state.board.count(1, 0) == 3


def test_each_candidate_of_moves_is_judged_with_a_scratch_copy_of_its_own(tmp_path):
    legal = "if (ResultPosition[2][0] == Y) { return false; }\n  addPlace(2, 0, Y);\n  return true;"
    extra = "define moves() { addPlace(0, 0, X); addMove(); addPlace(1, 0, X); addMove(); }\n"
    state = load_game(write(tmp_path, consequences("return false;", legal=legal, extra=extra))).new_state()
    assert [str(m) for m in state.legal_moves()] == ["place(0,0,X)", "place(1,0,X)"]
    assert state.board[2, 0] == "empty"


def test_g419_in_chance_names_the_call_path(tmp_path):
    text = chance_game(TWO_FACES + "\n  helper();") + "define helper() { setScore(0, 1); }\n"
    found = [d for d in check_files([write(tmp_path, text)]) if d.severity == Severity.ERROR]
    assert [(d.code, d.span.line + 1, d.span.column + 1) for d in found] == [("G419", 20, 19)]
    assert "chance() -> helper() -> setScore()" in found[0].message


def test_has_legal_move_after_an_outcome_asks_about_the_waiting_player(tmp_path):
    end = ("if (isChanceMove()) {\n    if (!hasLegalMove()) { setWinner(0); return true; }\n    return false;\n  }\n"
           "  chanceNext();\n  return false;")
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end, legal="return onTurn() == 0;"))).new_state()
    state.apply("D1")
    assert not state.is_over and state.current_player == 0       # player 0 waited, and can move
    state.apply("place(0,0,X)")
    state.apply("D2")
    assert state.is_over and state.winner == 0                   # player 1 waited, and cannot


@pytest.mark.parametrize("value, status", [("true", 0), ("false", 0), ("1", 2), ("yes", 2)])
def test_a_bool_parameter_takes_true_or_false_on_the_command_line(tmp_path, value, status):
    done = tool("check", "--param", f"pie={value}", write(tmp_path, PARAMS), cwd=tmp_path)
    assert done.returncode == status, done.stdout + done.stderr


def test_pettingzoo_takes_parameters_and_resolves_chance_with_its_seed(tmp_path):
    pytest.importorskip("pettingzoo")
    from gdef_core.interop.pettingzoo import env
    params_env = env(write(tmp_path, PARAMS, "p.gdef"), n=4)
    params_env.reset(seed=1)
    assert params_env.unwrapped.state.game.width == 4
    boards = []
    for _ in range(2):
        chance_env = env(write(tmp_path, chance_game(TWO_FACES)))
        chance_env.reset(seed=7)
        state = chance_env.unwrapped.state
        assert not state.is_chance_node and state.move_number == 1   # the roll was made in reset()
        boards.append(state.board[2, 0])
    assert boards[0] == boards[1]


def test_outcomes_placing_nothing_are_named_by_their_operations_and_shared_names_as_moves(tmp_path):
    counts = "  addCount(2, 0, 1); addOutcome(1);\n  addCount(2, 0, 2); addOutcome(1);"
    state = load_game(write(tmp_path, chance_game(counts))).new_state()
    assert state.move_names([m for m, _ in state.chance_outcomes()]) == ["count(2,0,1)", "count(2,0,2)"]
    state.apply("count(2,0,2)")
    assert state.board.count(2, 0) == 2
    shared = "  addPlace(1, 0, D1); addOutcome(1);\n  addPlace(2, 0, D1); addOutcome(1);"
    state = load_game(write(tmp_path, chance_game(shared))).new_state()
    assert state.move_names([m for m, _ in state.chance_outcomes()]) == ["1,0", "2,0"]


RESULT_ELSEWHERE = """name: t
players: 2
size: 3 x 1
obj X
obj D1
int flag = 0;
int prev = 0;
define setup() {
  addPlace(0, 0, X); addCount(1, 0, 3);
  if (ResultPosition[0][0] == X && CurrentPosition[0][0] == X && ResultCount[1][0] == 3) { flag = 1; }
  chanceNext();
}
define chance() {
  if (ResultPosition[0][0] == X) { addPlace(2, 0, D1); addOutcome(1); } else { addClear(2, 0); addOutcome(1); }
}
define isMoveLegal() -> bool { return true; }
define end() -> bool {
  addCount(1, 0, 9); prev = PreviousCount[1][0];
  if (isChanceMove()) { return false; }
  chanceNext();
  return false;
}
"""


def test_result_position_in_setup_and_chance_and_consequences_after_an_outcome(tmp_path):
    state = load_game(write(tmp_path, RESULT_ELSEWHERE)).new_state()
    assert state.variables["flag"] == 1                        # setup(): the start made so far
    assert [str(m) for m, _ in state.chance_outcomes()] == ["place(2,0,D1)"]   # chance(): CurrentPosition
    state.apply("D1")
    assert state.board.count(1, 0) == 9 and state.variables["prev"] == 3   # end() after an outcome


def test_a_parameter_may_be_declared_in_any_file_of_the_game_but_once(tmp_path):
    write(tmp_path, "param int n = 3 in 1 to 2000;\n", "lib.gdef")
    game = write(tmp_path, 'name: t\nplayers: 2\nsize: n x 1\nuse "lib.gdef"\nobj X\n' + RULES)
    assert load_game(game, params={"n": 5}).width == 5
    large = tool("check", game, "--param", "n=1001", cwd=tmp_path)
    assert large.returncode == 1
    assert "t.gdef:3:7: error[G404]: the board's width must be from 1 to 1000, not n = 1001" in large.stdout
    write(tmp_path, "param int n = 3 in 1 to 2000;\nparam int n = 4 in 1 to 5;\nobj n\n", "lib.gdef")
    found = [(d.code, d.span.line + 1, d.span.column + 1) for d in check_files([game])]
    assert found == [("G203", 2, 11), ("G203", 3, 5)]


def test_a_weight_is_an_int(tmp_path):
    found = diagnostics(tmp_path, chance_game("  addPlace(2, 0, D1); addOutcome(1.5);"))
    assert found == [("G303", 10, 34)]


def test_set_next_player_with_chancenext_names_who_moves_after_the_event(tmp_path):
    end = "if (isChanceMove()) { return false; }\n  setNextPlayer(0);\n  chanceNext();\n  return false;"
    state = load_game(write(tmp_path, chance_game(TWO_FACES, end=end))).new_state()
    state.apply("D1")
    state.apply("place(0,0,X)")
    assert state.is_chance_node and state.current_player == 0
    state.apply("D2")
    assert state.current_player == 0


def test_the_history_keeps_the_position_after_the_consequences(tmp_path):
    end = "addClear(0, 0);\n  seen[0] = repetitions();\n  return false;"
    state = load_game(write(tmp_path, consequences(end))).new_state()
    state.apply("place(0,0,X)")
    assert state.variables["seen"][0] == 0
    state.apply("place(0,0,Y)")
    assert state.variables["seen"][0] == 1 and state.board[0, 0] == "empty"   # the start again


def test_perft_counts_each_outcome_as_one_move(tmp_path):
    text = chance_game(TWO_FACES) + "define moves() { addPlace(0, 0, X); addMove(); addPlace(1, 0, X); addMove(); }\n"
    done = tool("run", write(tmp_path, text), "--perft", "3", cwd=tmp_path)
    assert done.stdout.splitlines() == ["depth 1: 2", "depth 2: 4", "depth 3: 8"], done.stderr


def test_openspiel_observations_of_a_game_that_counts_get_one_more_plane(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    import gdef_core.interop.openspiel  # noqa: F401  registers "gdef"
    plain = write(tmp_path, HEAD + RULES, "plain.gdef")
    counting = write(tmp_path, HEAD + RULES.replace("return true;", "return CurrentCount[0][0] == 0;"), "counts.gdef")
    shapes = [pyspiel.load_game("gdef", {"path": path}).observation_tensor_shape() for path in (plain, counting)]
    assert shapes[1] == [shapes[0][0] + 1, *shapes[0][1:]]
