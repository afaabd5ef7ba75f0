"""The board page's API at chance nodes (docs/web.md, "Chance"), against a real `gdef-run
--web`: the state lists the outcomes with their weights, `roll` plays one drawn from the run's
seeded generator, the computer rolls for its own players, a failing chance() is located."""
from __future__ import annotations

from support import ROOT
from web_support import WebRun

DICE_RACE = str(ROOT / "tests" / "data" / "play" / "dice_race.gdef")
FACES = [{"text": "place(7,2,D1)", "name": "D1", "weight": 1},
         {"text": "place(7,2,D2)", "name": "D2", "weight": 2},
         {"text": "place(7,2,D3)", "name": "D3", "weight": 3}]


def test_the_state_lists_the_outcomes_and_roll_plays_one() -> None:
    run = WebRun(DICE_RACE, "--seed", "3")
    try:
        state = run.get("/api/state")[1]
        assert (state["chance"], state["player"], state["outcomes"], state["computerToMove"]) == (
            True, 0, FACES, False)
        assert [move["name"] for move in run.get("/api/legal")[1]["moves"]] == ["D1", "D2", "D3"]
        rolled = run.post("/api/roll")[1]
        assert rolled["accepted"] is True and rolled["chance"] is True and rolled["player"] == 0
        assert rolled["move"] in [face["text"] for face in FACES]
        state = run.get("/api/state")[1]
        assert state["chance"] is False and "outcomes" not in state
        assert state["moves"] == [{"player": 0, "move": rolled["move"], "name": rolled["name"], "chance": True}]
        assert [7, 2, rolled["name"]] in state["board"]   # the die shows the roll
        assert run.post("/api/roll") == (409, {"error": "nothing to roll: player 0 is to move"})
        code, out, _ = run.interrupt()
        assert f"1. rolled: {rolled['name']}" in out   # the terminal's line too
    finally:
        run.close()


def rolled_names(seed: str) -> list[str]:
    """The rolls of a game whose two players are the computer, the page asking it to move
    until the game ends."""
    run = WebRun(DICE_RACE, "--seed", seed, "--player", "0=random", "--player", "1=random")
    try:
        for _ in range(200):
            state = run.get("/api/state")[1]
            if state["over"]:
                break
            assert state["computerToMove"] is True   # at a chance node too: the computer rolls
            answer = run.post("/api/computer")[1]
            assert answer["accepted"] is True and answer.get("chance", False) == state["chance"]
        return [move["name"] for move in run.get("/api/state")[1]["moves"] if move.get("chance")]
    finally:
        run.close()


def test_the_computer_rolls_for_its_players_and_the_seed_repeats_the_rolls() -> None:
    first = rolled_names("3")
    assert len(first) > 3 and set(first) <= {"D1", "D2", "D3", "7,2"}
    assert rolled_names("3") == first


def test_a_failing_chance_is_located(tmp_path) -> None:
    text = (ROOT / "tests" / "data" / "play" / "dice_race.gdef").read_text(encoding="utf-8").replace(
        "define chance() {", "define chance() {\n  if (moveNumber() >= 2) { return; }")
    path = tmp_path / "failing.gdef"
    path.write_text(text, encoding="utf-8")
    run = WebRun(str(path), "--seed", "1")
    try:
        assert run.post("/api/move", {"move": "D2"})[1]["accepted"] is True
        assert run.post("/api/move", {"move": "clear(0,0); place(1,0,R)"})[1]["accepted"] is True
        state = run.get("/api/state")[1]
        assert state["chance"] is True and "outcomes" not in state
        assert state["chanceError"]["code"] == "G615" and state["reason"].startswith("chance() failed:")
        rolled = run.post("/api/roll")[1]
        assert (rolled["accepted"], rolled["kind"], rolled["error"]["code"]) == (False, "runtime error", "G615")
    finally:
        run.close()
