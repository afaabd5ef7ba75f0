"""gdef-check --play: self-play finds what reading the rules cannot, reported as ordinary
diagnostics in every format, each with a move script that replays it."""
from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from gdef_core.cli.check import main as gdef_check
from gdef_core.cli.run import run as gdef_run

from support import ROOT

BROKEN = ROOT / "tests" / "data" / "playcheck"


def check(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    old = sys.stdout
    sys.stdout = out
    try:
        code = gdef_check(list(argv))
    finally:
        sys.stdout = old
    return code, out.getvalue()


def findings(path: Path, tmp_path, games: int = 20) -> list[dict]:
    code, out = check(str(path), "--play", str(games), "--play-out", str(tmp_path), "--format", "json")
    return json.loads(out)["diagnostics"]


@pytest.mark.parametrize("name, code, line, column", [
    ("never_ends", "G701", 12, 8),
    ("stuck", "G702", 11, 8),
    ("runtime_error", "G601", 13, 13),
])
def test_each_broken_game_is_caught_at_its_line(tmp_path, name, code, line, column):
    found = findings(BROKEN / f"{name}.gdef", tmp_path)
    assert [(d["code"], d["line"], d["column"]) for d in found] == [(code, line, column)]


def test_a_player_stuck_because_the_rules_fail_is_told_where_they_fail(tmp_path):
    """Every candidate refused by a division by zero: the failure, at its line, not G702."""
    found = findings(ROOT / "tests" / "data" / "play" / "fails_every_move.gdef", tmp_path)
    assert [(d["code"], d["line"], d["column"]) for d in found] == [("G601", 19, 12)]
    assert found[0]["message"].startswith("division by zero (6 / 0) (reached in play, game ")


def test_a_generator_that_misses_and_proposes_illegal_moves(tmp_path):
    found = findings(BROKEN / "generator_misses.gdef", tmp_path)
    by_code = {d["code"]: d for d in found}
    assert set(by_code) == {"G703", "G704"}
    assert (by_code["G704"]["line"], by_code["G704"]["severity"]) == (12, "warning")
    assert by_code["G704"]["message"].startswith("the legal move place(")
    assert not by_code["G704"]["message"].startswith("the legal move place(0,")  # column 0 is generated
    assert by_code["G703"]["severity"] == "info"


def test_findings_replay_with_gdef_run(tmp_path):
    found = findings(BROKEN / "runtime_error.gdef", tmp_path)
    note = found[0]["related"][-1]["message"]
    script = re.search(r"--moves (\S+)$", note)[1]
    assert Path(script).parent == tmp_path
    err = io.StringIO()
    code = gdef_run([str(BROKEN / "runtime_error.gdef"), "--moves", script], io.StringIO(), io.StringIO(), err)
    assert code == 3 and "error[G601]: division by zero (12 / 0)" in err.getvalue()


def test_findings_fail_the_run_and_infos_do_not(tmp_path):
    assert check(str(BROKEN / "stuck.gdef"), "--play", "5", "--play-out", str(tmp_path))[0] == 1
    assert check(str(BROKEN / "never_ends.gdef"), "--play", "5", "--play-out", str(tmp_path))[0] == 0
    assert check(str(BROKEN / "never_ends.gdef"), "--play", "5", "--strict", "--play-out", str(tmp_path))[0] == 1


def test_every_output_format_carries_the_findings(tmp_path):
    path = str(BROKEN / "generator_misses.gdef")
    _, sarif = check(path, "--play", "10", "--format", "sarif", "--play-out", str(tmp_path))
    results = json.loads(sarif)["runs"][0]["results"]
    assert {(r["ruleId"], r["level"]) for r in results} == {("G703", "note"), ("G704", "warning")}
    _, github = check(path, "--play", "10", "--format", "github", "--play-out", str(tmp_path))
    assert "::notice file=" in github and "::warning file=" in github
    _, text = check(path, "--play", "10", "--play-out", str(tmp_path))
    assert "info[G703]" in text and "warning[G704]" in text and "replay: gdef-run" in text


def test_without_play_nothing_runs(tmp_path):
    code, out = check(str(BROKEN / "stuck.gdef"), "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []


def test_the_examples_play_clean(tmp_path):
    examples = [str(path) for path in sorted((ROOT / "examples").iterdir())
                if path.name not in ("chess", "go") and (path.is_dir() or path.suffix == ".gdef")]
    code, out = check(*examples, "--play", "8", "--play-out", str(tmp_path), "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []


def test_go_plays_clean(tmp_path):
    """Two games only: random Go games run to OpenSpiel's move limit (162 moves on 9 x 9)."""
    code, out = check(str(ROOT / "examples" / "go" / "go9.gdef"), "--play", "2",
                      "--play-out", str(tmp_path), "--format", "json")
    assert code == 0 and json.loads(out)["diagnostics"] == []


def test_chess_plays_clean_but_for_its_pseudo_legal_generator(tmp_path):
    """Chess proposes pseudo-legal moves and lets isMoveLegal() drop those that leave the king
    attacked: by design, so the one finding is the G703 note (two games: chess games are long)."""
    code, out = check(str(ROOT / "examples" / "chess" / "chess.gdef"), "--play", "2",
                      "--play-out", str(tmp_path), "--format", "json")
    found = [(d["file"].rsplit("/", 1)[-1], d["severity"], d["code"]) for d in json.loads(out)["diagnostics"]]
    assert code == 0 and found == [("rules.gdef", "info", "G703")]


# ------------------------------------------------------------------ what was played, in the summary

def test_the_summary_says_how_many_games_and_moves_were_played(tmp_path):
    """Every game of never_ends reaches the move cap: 3 games of 50 moves; stuck's games stop
    after 4 moves each. A library, and a game with errors, play nothing."""
    library = tmp_path / "helpers.gdef"
    library.write_text("define helper() -> int { return 1; }\n")
    broken = ROOT / "tests" / "data" / "checker" / "original_tictactoe.gdef"
    code, out = check(str(BROKEN / "never_ends.gdef"), str(BROKEN / "stuck.gdef"), str(library), str(broken),
                      "--play", "3", "--play-moves", "50", "--play-out", str(tmp_path))
    summary = out.splitlines()[-3:]
    assert code == 1 and summary[0] == "2 errors, 1 warning in 4 files"
    assert re.fullmatch(r"played 3 random games of never_ends: 150 moves in \d+\.\d\d s", summary[1]), summary
    assert re.fullmatch(r"played 3 random games of stuck: 12 moves in \d+\.\d\d s", summary[2]), summary


def test_the_json_summary_counts_what_was_played(tmp_path):
    code, out = check(str(BROKEN / "never_ends.gdef"), "--play", "3", "--play-moves", "50",
                      "--play-out", str(tmp_path), "--format", "json")
    summary = json.loads(out)["summary"]
    assert [{key: value for key, value in played.items() if key != "seconds"} for played in summary["played"]] == [
        {"game": "never_ends", "games": 3, "asked": 3, "moves": 150}]
    assert check(str(BROKEN / "never_ends.gdef"), "--format", "json")[1].count('"played"') == 0


def test_games_cut_short_by_the_time_budget_are_counted_as_such():
    from gdef_core.report.model import Played
    from gdef_core.report.text import played_line

    assert played_line(Played("go9", 1, 200, 77, 1.0)) == (
        "played 1 of 200 random games of go9 (--play-seconds ran out): 77 moves in 1.00 s")
    assert played_line(Played("tictactoe", 1, 1, 9, 0.04)) == "played 1 random game of tictactoe: 9 moves in 0.04 s"
