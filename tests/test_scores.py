"""Scores (spec 15.5): setScore in end() and setup(), every player starting at 0, committed
only when end() succeeds; state.scores, records, gdef-run (shown once non-zero) and gdef-sim
(mean final score per player, "mean_scores" in --json)."""
from __future__ import annotations

import json

import pytest

from gdef_core.cli import run as run_cli
from gdef_core.cli import sim as sim_cli
from gdef_core.runtime import IllegalMoveError, VerdictKind, load_game
from gdef_core.runtime.session import Session

SCORED = """name: scored
players: 2
size: 3 x 1
obj X
define setup() { setScore(1, 0.5); }
define isMoveLegal() -> bool {
  return operationsNum() == 1 && isPlaceOperation(0) && CurrentPosition[OperationList[0][0]][0] == empty;
}
define end() -> bool {
  setScore(onTurn(), moveNumber() * 10);
  if (OperationList[0][0] == 2 && moveNumber() == 1) { return 1 / 0 == 0; }
  return moveNumber() == 3;
}
"""


def make(tmp_path):
    path = tmp_path / "scored.gdef"
    path.write_text(SCORED, encoding="utf-8")
    return str(path), load_game([str(path)])


def test_scores_start_at_zero_setup_and_end_set_them(tmp_path) -> None:
    _, game = make(tmp_path)
    state = game.new_state()
    assert state.scores == [0, 0.5]
    state.apply("place(0,0,X)")
    assert state.scores == [10, 0.5] and type(state.scores[0]) is int
    state.scores[0] = 99                      # a copy: the state is not changed through it
    assert state.scores == [10, 0.5]


def test_scores_roll_back_when_end_fails(tmp_path) -> None:
    _, game = make(tmp_path)
    state = game.new_state()
    before = state.to_json()
    verdict = state.check("place(2,0,X)")
    assert verdict.legal                      # isMoveLegal() allows it; end() then fails
    with pytest.raises(IllegalMoveError) as caught:
        state.apply("place(2,0,X)")
    assert caught.value.verdict.kind is VerdictKind.RUNTIME_ERROR and caught.value.verdict.error.code == "G601"
    assert state.to_json() == before and state.scores == [0, 0.5]


def test_a_clone_keeps_its_own_scores(tmp_path) -> None:
    _, game = make(tmp_path)
    state = game.new_state()
    copy = state.clone()
    copy.apply("place(0,0,X)")
    assert state.scores == [0, 0.5] and copy.scores == [10, 0.5]
    assert game.state_from_json(json.loads(json.dumps(copy.to_json()))) == copy


def test_records_carry_the_scores(tmp_path) -> None:
    _, game = make(tmp_path)
    session = Session(game, [])
    session.play("place(0,0,X)")
    session.play("place(1,0,X)")
    assert session.record()["scores"] == [10, 20]


def test_gdef_run_shows_scores_once_non_zero(tmp_path, capsys) -> None:
    path, _ = make(tmp_path)
    script = tmp_path / "game.moves"
    script.write_text("place(0,0,X)\nplace(1,0,X)\nplace(2,0,X)\n", encoding="utf-8")
    record = tmp_path / "record.json"
    code = run_cli.run([path, "--moves", str(script), "--record", str(record)])
    out = capsys.readouterr().out
    assert code == 0
    assert "scores:" in out and "player 0: 30" in out and "player 1: 20" in out
    assert json.loads(record.read_text())["scores"] == [30, 20]


def test_gdef_run_shows_no_scores_while_all_are_zero(capsys) -> None:
    script = "examples/tictactoe.moves"
    run_cli.run(["examples/tictactoe.gdef", "--moves", script])
    assert "scores:" not in capsys.readouterr().out


def test_gdef_sim_reports_mean_final_scores(tmp_path, capsys) -> None:
    path = tmp_path / "two.gdef"
    path.write_text(SCORED.replace("moveNumber() == 1", "moveNumber() == 99")
                    .replace("moveNumber() * 10", "moveNumber()").replace("== 3;", "== 2;"), encoding="utf-8")
    out_file = tmp_path / "sim.json"
    code = sim_cli.run([str(path), "--games", "20", "--seed", "1", "--no-progress", "--json", str(out_file)])
    assert code == 0
    assert "mean final score: player 0 1.00, player 1 2.00" in capsys.readouterr().out
    assert json.loads(out_file.read_text())["mean_scores"] == [1.0, 2.0]
