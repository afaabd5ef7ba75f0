"""The bot protocol at chance nodes (docs/protocol.md, "Chance"), over a real `gdef-run
--protocol` process: state answers say when the next move is chance's and list the outcomes
with their weights; a client names an outcome with `play` or has the engine draw one with
`roll` (the run's seeded generator); and the game's declared parameters in `info`."""
from __future__ import annotations

import json

from support import ROOT
from test_protocol import Engine

DICE_RACE = ROOT / "tests" / "data" / "play" / "dice_race.gdef"
HEX = str(ROOT / "examples" / "hex.gdef")
FACES = [{"move": "place(7,2,D1)", "name": "D1", "weight": 1},
         {"move": "place(7,2,D2)", "name": "D2", "weight": 2},
         {"move": "place(7,2,D3)", "name": "D3", "weight": 3}]


def started(*argv: str) -> Engine:
    return Engine(str(DICE_RACE), *argv)


def test_a_chance_node_lists_its_outcomes_and_a_client_names_one():
    engine = started("--seed", "4")
    assert engine.hello["game"]["chance"] is True   # the game has chance nodes
    start = engine.ask(cmd="state")["state"]
    assert start["chance"] is True and start["player"] == 0   # player 0 moves after the roll
    assert start["outcomes"] == FACES
    legal = engine.ask(cmd="legal")
    assert (legal["moves"], legal["names"], legal["weights"], legal["chance"]) == (
        [face["move"] for face in FACES], ["D1", "D2", "D3"], [1, 2, 3], True)
    # a player's move is no outcome: refused, the outcomes named
    refused = engine.ask(cmd="play", move="clear(0,0); place(1,0,R)")["error"]
    assert refused["kind"] == "rejected" and refused["candidates"] == ["D1", "D2", "D3"]
    assert "only one of its outcomes may be played" in refused["message"]
    named = engine.ask(cmd="play", move="D2")   # by its name, as a move script would
    assert (named["ok"], named["move"], named["chance"]) == (True, "place(7,2,D2)", True)
    after = named["state"]
    assert after["chance"] is False and "outcomes" not in after and after["player"] == 0
    assert engine.ask(cmd="roll")["error"]["kind"] == "not chance"
    moved = engine.ask(cmd="play", move="clear(0,0); place(2,0,R)")
    assert moved["chance"] is False and moved["state"]["chance"] is True   # the die again, for player 1
    assert engine.ask(cmd="quit")["ok"] is True
    code, stderr = engine.close()
    assert code == 0 and "Traceback" not in stderr


def rolls(seed: str, count: int) -> list[str]:
    """The outcomes `roll` draws in a game where each player always moves its runner by one."""
    engine = started("--seed", seed)
    drawn = []
    while len(drawn) < count:
        state = engine.ask(cmd="state")["state"]
        if state["over"]:
            break
        if state["chance"]:
            rolled = engine.ask(cmd="roll")
            assert rolled["ok"] is True and rolled["chance"] is True, rolled
            assert rolled["move"] in [face["move"] for face in state["outcomes"]]
            drawn.append(rolled["name"])
        else:
            legal = engine.ask(cmd="legal")["moves"]
            assert engine.ask(cmd="play", move=legal[-1])["ok"] is True
    engine.ask(cmd="quit")
    assert engine.close()[0] == 0
    return drawn


def test_roll_draws_from_the_runs_seeded_generator():
    first = rolls("4", 12)
    assert len(first) == 12 and set(first) <= {"D1", "D2", "D3", "7,2"}
    assert rolls("4", 12) == first   # --seed repeats the rolls
    assert any(rolls(seed, 12) != first for seed in ("5", "6", "7"))


def test_undo_takes_back_a_roll_and_go_draws_one_without_playing_it():
    engine = started("--seed", "1")
    suggestion = engine.ask(cmd="go")
    assert suggestion["ok"] is True and suggestion["chance"] is True
    assert suggestion["move"] in [face["move"] for face in FACES]
    assert engine.ask(cmd="state")["state"]["move_number"] == 0   # not played
    rolled = engine.ask(cmd="roll")
    assert rolled["state"]["move_number"] == 1
    back = engine.ask(cmd="undo")["state"]
    assert back["move_number"] == 0 and back["chance"] is True and back["outcomes"] == FACES
    engine.ask(cmd="quit")
    assert engine.close()[0] == 0


def test_a_failing_chance_is_answered_with_its_location(tmp_path):
    """chance() fails from move 2 on (no outcome finished: G615): the state says so and
    `roll` answers the located error; the engine goes on answering."""
    text = DICE_RACE.read_text(encoding="utf-8").replace(
        "define chance() {", "define chance() {\n  if (moveNumber() >= 2) { return; }")
    path = tmp_path / "failing.gdef"
    path.write_text(text, encoding="utf-8")
    engine = Engine(str(path), "--seed", "2")
    engine.ask(cmd="play", move="D2")
    answer = engine.ask(cmd="play", move="clear(0,0); place(1,0,R)")
    assert answer["ok"] is True
    state = answer["state"]
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("define chance()"))
    assert state["chance"] is True and "outcomes" not in state
    assert state["chance_error"]["code"] == "G615"
    rolled = engine.ask(cmd="roll")["error"]
    assert (rolled["kind"], rolled["code"]) == ("runtime error", "G615")
    assert rolled["location"] == f"{path}:{line}:8"   # chance() finished no outcome
    assert engine.ask(cmd="result")["ok"] is True
    engine.ask(cmd="quit")
    code, stderr = engine.close()
    assert code == 0 and "Traceback" not in stderr


def test_info_lists_the_games_parameters():
    engine = Engine(HEX, "--param", "board_size=7")
    info = engine.ask(cmd="info")
    assert info["game"]["params"] == [{"name": "board_size", "type": "int", "default": 11, "value": 7,
                                       "range": [1, 25], "values": None}]
    assert engine.hello["game"] == info["game"]
    assert info["game"]["width"] == 7
    engine.ask(cmd="quit")
    assert engine.close()[0] == 0
    assert json.loads(json.dumps(info)) == info
