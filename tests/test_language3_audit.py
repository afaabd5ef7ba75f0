"""Language 3 audited from outside (issue 27): small games of our own (tests/data/language3_audit/)
driven through the public surfaces docs/language.md and the tool docs name, each test for a
discrepancy found and fixed."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gdef_core import load_game
from gdef_core.runtime import ParamError

from support import ROOT

DATA = ROOT / "tests" / "data" / "language3_audit"
DICERACE = str(DATA / "dicerace.gdef")   # params, chance (count-only outcomes), counts, a consequence
GDEF_RUN = str(Path(sys.executable).with_name("gdef-run"))


def protocol(*requests: dict, argv: tuple[str, ...] = ()) -> list[dict]:
    """Answers of `gdef-run --protocol` to the requests, the hello first."""
    lines = "".join(json.dumps(request) + "\n" for request in requests)
    done = subprocess.run([GDEF_RUN, "--protocol", DICERACE, *argv], input=lines, capture_output=True,
                          text=True, timeout=120)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


# ------------------------------------------------------------ a parameter is a constant of one game


def test_a_state_cannot_change_a_parameter_of_the_game_loaded():
    """A parameter "never changes within one game"; a state that says another value (protocol
    `set`, State.from_json) is refused, naming the parameter; one that leaves it out gets the
    game's value."""
    game = load_game(DICERACE, params={"faces": 6})
    data = game.new_state().to_json()
    assert data["vars"]["faces"] == 6
    with pytest.raises(ValueError, match=r"parameter 'faces' is 6 in this game, not 2"):
        game.state_from_json({**data, "vars": {**data["vars"], "faces": 2}})
    without = {name: value for name, value in data["vars"].items() if name not in game.params}
    assert game.state_from_json({**data, "vars": without}).variables["faces"] == 6
    changed = {**data, "vars": {**data["vars"], "len": 9}}
    hello, refused, kept = protocol({"id": 1, "cmd": "set", "state": changed}, {"id": 2, "cmd": "state"},
                                    argv=("--param", "faces=6"))
    assert refused["error"] == {"kind": "bad state",
                                "message": "parameter 'len' is 8 in this game, not 9: load the game with len=9"}
    assert kept["state"]["vars"]["len"] == 8


# ------------------------------------------------------------ what the editor says of the new built-ins


def test_hover_of_the_outcome_and_operation_built_ins_names_counts_too():
    """docs/language.md: an outcome is the operations of addPlace/addClear/addCount since the
    last addOutcome; isPlaceOperation is false for a clear or a count; repetitions() compares
    counts and whether chance moves next; nextBoardSeen() compares counts too."""
    from gdef_core.builtins import BUILTINS

    assert "`addCount` since the last `addOutcome`" in BUILTINS["addOutcome"].doc
    assert "(false: a `clear` or a `count`)" in BUILTINS["isPlaceOperation"].doc
    assert "board with its counts" in BUILTINS["repetitions"].doc
    assert "whether chance moves next" in BUILTINS["repetitions"].doc
    assert "counts included" in BUILTINS["nextBoardSeen"].doc


def test_the_audit_games_check_format_and_pass_their_rule_tests():
    """Each audit game checks and formats clean and its `.test.moves` (with `# param:` lines,
    named outcomes, counts and a consequence) passes under gdef-test."""
    tools = Path(sys.executable).parent
    for tool, argv in (("gdef-check", [str(DATA)]), ("gdef-fmt", ["--check", str(DATA)]),
                       ("gdef-test", [str(DATA)])):
        done = subprocess.run([str(tools / tool), *argv], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (tool, done.stdout, done.stderr)


# ------------------------------------------------------------ records keep the parameters


def test_resuming_a_record_whose_params_the_game_refuses_names_the_record(tmp_path):
    """A record's "params" the game refuses is a usage error about that record (exit 2), not
    about a --param the user never gave."""
    record = tmp_path / "game.json"
    played = subprocess.run([GDEF_RUN, DICERACE, "--param", "len=12", "--moves", "-", "--record", str(record)],
                            input="count(0,2,2)\n0,0-2,0\n", capture_output=True, text=True, timeout=120)
    assert played.returncode == 3, played.stderr
    data = json.loads(record.read_text())
    assert data["params"] == {"len": 12, "faces": 3, "weighted": False}
    data["params"]["len"] = 99
    record.write_text(json.dumps(data))
    done = subprocess.run([GDEF_RUN, "--resume", str(record), "--moves", "-"], input="", capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == (f"gdef-run: error: {record}: the record's \"params\" do not fit the game: "
                           "parameter 'len' cannot be 99: it takes 4 to 20\n")


def test_the_prompts_help_explains_the_count_operation():
    """Moves gain a third operation, count(x, y, n); the prompt's help says how to type it."""
    done = subprocess.run([GDEF_RUN, DICERACE, "--no-color"], input="help\n", capture_output=True, text=True,
                          timeout=120)
    assert "count(x,y,N) sets its count to N" in done.stdout


@pytest.mark.parametrize("setting", ["len=1_0", "len=+5", "len=\u0665", "len=0x5", "len=5.0"])
def test_a_param_value_on_the_command_line_is_a_literal_of_the_language(setting):
    """`--param` values are gdef literals: Python's other spellings of a number (underscores,
    a '+', other scripts' digits, hex) are refused, naming the parameter and what it takes."""
    done = subprocess.run([str(Path(sys.executable).with_name("gdef-check")), DICERACE, "--param", setting],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"parameter 'len' cannot be {setting[4:]}: it takes 4 to 20" in done.stderr


def test_a_float_param_takes_int_and_decimal_text_only(tmp_path):
    path = tmp_path / "komi.gdef"
    path.write_text("name: k\nplayers: 2\nsize: 3 x 1\nobj X\nparam float komi = 0.5 in -10 to 10;\n"
                    "define isMoveLegal() -> bool { return komi > 0.0; }\ndefine end() -> bool { return true; }\n")
    assert load_game(str(path), params={"komi": "-6.5"}).params["komi"] == -6.5
    assert load_game(str(path), params={"komi": "7"}).params["komi"] == 7.0
    for refused in ("1_0", "1e1", "nan", ".5"):
        with pytest.raises(ParamError, match=rf"parameter 'komi' cannot be {re.escape(refused)}: it takes"):
            load_game(str(path), params={"komi": refused})


def test_a_parameter_set_twice_in_a_test_files_header_is_an_error_at_the_second_line(tmp_path):
    """docs/runtime.md: `# param:` lines, one per parameter; a second one for the same name is
    an error at its line (exit 2), never a silent choice of one of them."""
    (tmp_path / "dicerace.gdef").write_text(Path(DICERACE).read_text())
    tests = tmp_path / "dicerace.test.moves"
    tests.write_text("# param: faces=6\n# param: faces=2\n[rolls]\n? chance\n")
    done = subprocess.run([str(Path(sys.executable).with_name("gdef-test")), str(tests)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert (f"gdef-test: error: {tests}:2: parameter 'faces' is already set on line 1: "
            "keep one `# param: faces=...` line") in done.stderr


def test_interop_docs_promise_no_undo_action_openspiel_cannot_give():
    """docs/interop.md listed `undo_action` as working; OpenSpiel has no undo for a game written
    in Python. The docs now say so, and what it does is what they say."""
    pyspiel = pytest.importorskip("pyspiel")
    import gdef_core.interop.openspiel  # noqa: F401  (registers "gdef")

    text = (ROOT / "docs" / "interop.md").read_text()
    assert "`undo_action` is not among them" in text
    state = pyspiel.load_game("gdef", {"path": DICERACE}).new_initial_state()
    state.apply_action(0)
    with pytest.raises(pyspiel.SpielError, match="UndoAction function is not overridden"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 0)


def test_gdef_sim_json_holds_the_parameter_values_it_played_with(tmp_path):
    """Records store the parameter values; so does the --json of gdef-sim, beside the seeds and
    file hashes it gives to reproduce a run (a default included)."""
    out = tmp_path / "run.json"
    done = subprocess.run([str(Path(sys.executable).with_name("gdef-sim")), DICERACE, "-n", "5", "--param", "len=6",
                           "--json", str(out), "--no-progress"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["params"] == {"len": 6, "faces": 3, "weighted": False}


OVERFLOW = ("name: t\nplayers: 2\nsize: 3 x 1\nobj X\n"
            "define setup() { addCount(0, 0, 1); chanceNext(); }\n"
            "define chance() { addCount(1, 0, 4); addOutcome(1); }\n"
            "define moves() { addCount(2, 0, CurrentCount[2][0] + 1); addMove(); }\n"
            "define isMoveLegal() -> bool { return isGenerated(); }\n"
            "define end() -> bool {\n"
            "  if (isChanceMove()) { addCount(0, 0, CurrentCount[0][0] * 4611686018427387904); return false; }\n"
            "  chanceNext();\n  return false;\n}\n")


def test_a_drawn_outcome_whose_end_fails_stops_the_game_saying_so(tmp_path):
    """The end() after an outcome the engine drew fails: gdef-run shows the located error and
    stops (exit 3) naming end(), not chance(), as the cause."""
    path = tmp_path / "t.gdef"
    path.write_text(OVERFLOW)
    done = subprocess.run([GDEF_RUN, str(path), "--seed", "1", "--no-color", "--record", str(tmp_path / "r.json")],
                          input="\n2,0\n\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert ("chance's outcome count(1,0,4) was rejected: end() failed after it, so the game cannot go on:\n"
            f"{path}:10:59: error[G602]: integer overflow") in done.stderr
    assert "Stopped (end() failed after chance's outcome) before the game ended, after 2 move(s)." in done.stderr


def test_has_legal_move_beside_chancenext_asks_about_the_board_before_the_roll(tmp_path):
    """docs/language.md (Chance): in the end() that calls chanceNext(), hasLegalMove() asks
    about the player who moves after the event on the board before any outcome."""
    path = tmp_path / "hl.gdef"
    path.write_text("name: hl\nplayers: 2\nsize: 3 x 1\nobj X\nint seen = -1;\n"
                    "define setup() { chanceNext(); }\n"
                    "define chance() { addCount(0, 0, 1); addOutcome(1); }\n"
                    "define moves() { if (CurrentCount[0][0] == 1) { addCount(0, 0, 0); addMove(); } }\n"
                    "define isMoveLegal() -> bool { return isGenerated(); }\n"
                    "define end() -> bool {\n  if (isChanceMove()) { return false; }\n  chanceNext();\n"
                    "  if (hasLegalMove()) { seen = 1; } else { seen = 0; }\n  return false;\n}\n")
    state = load_game(str(path)).new_state()
    state.apply("count(0,0,1)")
    state.apply("count(0,0,0)")
    assert state.variables["seen"] == 0 and state.is_chance_node
    assert "still asks whether the player who moves after the event has a legal move on the board as it\nis, before any outcome" in (ROOT / "docs" / "language.md").read_text()


def test_openspiel_takes_an_int_for_a_float_parameter(tmp_path):
    """A float parameter (komi) given as an int through pyspiel, in a dict or a game string,
    is that float; OpenSpiel alone refuses the type."""
    pyspiel = pytest.importorskip("pyspiel")
    import gdef_core.interop.openspiel  # noqa: F401  (registers "gdef")

    path = tmp_path / "komi.gdef"
    path.write_text("name: k\nplayers: 2\nsize: 3 x 1\nobj X\nparam float komi = 0.5 in -10 to 10;\n"
                    "define isMoveLegal() -> bool { return komi > 0.0; }\ndefine end() -> bool { return true; }\n")
    assert pyspiel.load_game("gdef", {"path": str(path), "komi": 7}).get_parameters()["komi"] == 7.0
    assert pyspiel.load_game(f"gdef(path={path},komi=-2)").get_parameters()["komi"] == -2.0
    assert pyspiel.load_game(f"gdef(path={path})").get_parameters()["komi"] == 0.5


def test_a_chance_function_in_a_game_without_chancenext_is_unused_saying_why(tmp_path):
    """A game's chance() runs only where chanceNext() is called; the unused-function warning
    says so at the name, as the new construct's author would need to hear."""
    path = tmp_path / "t.gdef"
    path.write_text("name: t\nplayers: 2\nsize: 3 x 1\nobj X\n"
                    "define chance() { addCount(0, 0, 1); addOutcome(1); }\n"
                    "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n")
    from gdef_core import check_files

    found = [(d.code, d.span.line + 1, d.span.column + 1, d.message) for d in check_files([str(path)])]
    assert found == [("G502", 5, 8, "function 'chance' is never called: the engine runs chance() only in a game "
                                    "that calls chanceNext() (in end() or setup())")]


def test_gdef_check_play_plays_every_game_when_a_param_is_meant_for_one_of_them():
    """`gdef-check --play N DIR --param len=5`: the parameter is dicerace's; stacks, which does
    not declare it, is still played (it used to be skipped without a word)."""
    done = subprocess.run([str(Path(sys.executable).with_name("gdef-check")), "--play", "3", str(DATA),
                           "--param", "len=5"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "played 3 random games of dicerace" in done.stdout
    assert "played 3 random games of stacks" in done.stdout


def test_perft_names_chance_when_chance_fails(tmp_path):
    """A chance() that fails while gdef-run --perft counts is named as chance(), not moves()."""
    path = tmp_path / "t.gdef"
    path.write_text("name: t\nplayers: 2\nsize: 3 x 1\nobj X\ndefine setup() { chanceNext(); }\n"
                    "define chance() { int z = 0; addCount(0, 0, 1 / z); addOutcome(1); }\n"
                    "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n")
    done = subprocess.run([GDEF_RUN, str(path), "--perft", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.startswith(f"chance() failed while counting:\n{path}:6:47: error[G601]: division by zero")


def test_moves_at_a_chance_node_lists_the_outcomes_with_their_probabilities():
    """At gdef-run's prompt a person waiting for chance may type an outcome; `moves` lists the
    outcomes with their odds (weight over the sum, in lowest terms), not as legal moves."""
    done = subprocess.run([GDEF_RUN, DICERACE, "--param", "weighted=true", "--no-color"], input="moves\n",
                          capture_output=True, text=True, timeout=120)
    assert "1. count(0,2,1) (1/6)   2. count(0,2,2) (1/3)   3. count(0,2,3) (1/2)\n" in done.stdout
    assert ("3 outcomes of chance, with their probabilities; type a number to play that one, or press Enter "
            "to roll.") in done.stdout
