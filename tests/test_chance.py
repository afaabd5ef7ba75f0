"""Chance nodes (docs/language.md, "Chance"): the game API (outcomes in the order proposed,
merged, drawn by weight; refusal of anything else), the turn cycle around them, their run-time
errors, records and --resume without a seed, gdef-run's rolls and seeds, perft, gdef-sim and
the computer players. tests/data/chance/die.gdef rolls a three-sided die (weights 1, 2, 3,
face 1 proposed twice) before every move; a move made while it shows 3 wins."""
from __future__ import annotations

import io
import json
import random
import re
from collections import Counter

import pytest

from gdef_core import load_game
from gdef_core.cli.run import run as gdef_run
from gdef_core.cli.sim import main as gdef_sim
from gdef_core.play.agents import GreedyAgent, RandomAgent
from gdef_core.play.games import play_game
from gdef_core.play.mcts import MctsAgent
from gdef_core.play.spec import parse_agent
from gdef_core.runtime import GdefRuntimeError, IllegalMoveError, VerdictKind
from gdef_core.runtime.perft import perft
from gdef_core.runtime.session import RecordError, Session

from support import ROOT

DIE = str(ROOT / "tests" / "data" / "chance" / "die.gdef")


@pytest.fixture(scope="module")
def die():
    return load_game(DIE)


def outcomes(state) -> list[tuple[str, int]]:
    return [(str(move), weight) for move, weight in state.chance_outcomes()]


# ------------------------------------------------------------------ the game API


def test_setup_makes_a_chance_node_with_the_outcomes_merged_in_order(die):
    state = die.new_state()
    assert state.is_chance_node and state.current_player == 0 and not state.is_over
    assert outcomes(state) == [("place(0,0,D1)", 2), ("place(0,0,D2)", 2), ("place(0,0,D3)", 3)]
    assert state.legal_moves() == [move for move, _ in state.chance_outcomes()]
    assert state.move_names(state.legal_moves()) == ["D1", "D2", "D3"]


def test_a_player_move_at_a_chance_node_is_refused_with_the_outcomes(die):
    state = die.new_state()
    verdict = state.check("place(1,0,X)")
    assert verdict.kind is VerdictKind.REJECTED
    assert verdict.reason == "the next move is chance's: only one of its outcomes may be played (D1, D2, D3)"
    with pytest.raises(IllegalMoveError):
        state.apply("place(1,0,X)")
    assert state.is_chance_node and state.move_number == 0


def test_an_outcome_is_played_by_name_and_the_waiting_player_moves(die):
    state = die.new_state()
    state.apply("D2")
    assert not state.is_chance_node and state.current_player == 0 and state.move_number == 1
    assert state.board[0, 0] == "D2"
    assert outcomes(state) == []
    state.apply("place(2,0,X)")
    assert state.is_chance_node and state.current_player == 1 and state.move_number == 2
    state.apply("place(0,0,D3)")
    assert state.current_player == 1
    state.apply("place(1,0,X)")
    assert state.is_over and state.winner == 1 and not state.is_chance_node


def test_sample_chance_draws_by_weight_and_repeats_with_the_seed(die):
    state = die.new_state()
    draws = [str(state.sample_chance(random.Random(seed))) for seed in range(600)]
    again = [str(state.sample_chance(random.Random(seed))) for seed in range(600)]
    assert draws == again
    counts = Counter(draws)
    assert 150 < counts["place(0,0,D1)"] < 250 and 150 < counts["place(0,0,D2)"] < 250
    assert 240 < counts["place(0,0,D3)"] < 360
    after = state.clone()
    after.apply("D1")
    with pytest.raises(ValueError):
        after.sample_chance(random.Random(1))


def test_chance_node_state_round_trips_and_undo_restores_it(die):
    state = die.new_state()
    data = state.to_json()
    assert data["chance"] is True
    assert die.state_from_json(data) == state
    point = state.undo_point(state.legal_moves()[0])
    state.apply("D1")
    assert "chance" not in state.to_json()
    state.restore(point)
    assert state.is_chance_node and outcomes(state)[0] == ("place(0,0,D1)", 2)


FLIP = str(ROOT / "tests" / "data" / "chance" / "flip.gdef")


def test_a_chance_node_and_the_same_board_after_the_toss_are_different_positions():
    """tests/data/chance/flip.gdef: heads tossed onto heads leaves the board, the player and
    the variables as they were, but one position waits for chance and the other for a move:
    repetitions() and the history tell them apart, and the flag survives a state's JSON."""
    game = load_game(FLIP)
    state = game.new_state()
    state.apply("place(0,0,H)")
    state.apply("place(1,0,A)")
    assert state.is_chance_node and state.current_player == 1 and state.variables["seen"] == 0
    state.apply("place(0,0,H)")   # the same board, player 1 to move: not a chance node
    assert not state.is_chance_node and state.current_player == 1
    assert state.variables["seen"] == 0
    state.apply("place(1,0,B)")
    state.apply("place(0,0,H)")
    state.apply("place(1,0,A)")   # back to the chance node of move 2
    assert state.is_chance_node and state.variables["seen"] == 1
    data = state.to_json()
    assert [position.get("chance", False) for position in data["history"]] == [
        True, False, True, False, True, False, True]
    again = game.state_from_json(data)
    assert again == state
    for replayed in (state, again):
        replayed.apply("place(0,0,H)")   # and back to the position after that toss
        assert not replayed.is_chance_node and replayed.variables["seen"] == 1
    assert again == state


def test_perft_counts_each_outcome_as_one_move(die):
    assert perft(die.new_state(), 3) == [3, 9, 18]


# ------------------------------------------------------------------ run-time errors


def game_of(tmp_path, body: str):
    path = tmp_path / "g.gdef"
    path.write_text("name: g\nplayers: 2\nsize: 2 x 1\nobj D1\ndefine setup() { chanceNext(); }\n" + body
                    + "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n",
                    encoding="utf-8")
    return load_game(str(path)).new_state()


def test_a_chance_event_without_outcomes_is_g615_at_chance(tmp_path):
    state = game_of(tmp_path, "define chance() {\n  addPlace(0, 0, D1);\n}\n")
    with pytest.raises(GdefRuntimeError) as error:
        state.chance_outcomes()
    assert (error.value.code, error.value.span.line + 1, error.value.span.column + 1) == ("G615", 6, 8)
    assert state.check("place(0,0,D1)").kind is VerdictKind.RUNTIME_ERROR


@pytest.mark.parametrize("weight", ["0", "-3", "2147483649"])
def test_a_weight_out_of_range_is_g616_at_the_call(tmp_path, weight):
    state = game_of(tmp_path, f"define chance() {{\n  addPlace(0, 0, D1);\n  addOutcome({weight});\n}}\n")
    with pytest.raises(GdefRuntimeError) as error:
        state.chance_outcomes()
    assert (error.value.code, error.value.span.line + 1, error.value.span.column + 1) == ("G616", 8, 3)
    assert f"addOutcome({weight})" in error.value.message


def test_the_largest_weight_is_allowed_and_an_outcome_off_the_board_is_g603(tmp_path):
    state = game_of(tmp_path, "define chance() {\n  addPlace(0, 0, D1);\n  addOutcome(2147483648);\n}\n")
    assert outcomes(state) == [("place(0,0,D1)", 2147483648)]
    off = game_of(tmp_path, "define chance() {\n  addPlace(2, 0, D1);\n  addOutcome(1);\n}\n")
    with pytest.raises(GdefRuntimeError) as error:
        off.chance_outcomes()
    assert (error.value.code, error.value.span.line + 1) == ("G603", 7)


def test_chance_sees_an_empty_move_not_the_move_before_nor_the_outcome(tmp_path):
    """docs/language.md, "Chance": operationsNum() is 0 in chance(), at the start and after a
    player's move (which end() has just seen as OperationList), and reading an operation there
    is G604 where it is read."""
    path = tmp_path / "rolls.gdef"
    path.write_text("name: rolls\nplayers: 2\nsize: 2 x 1\nobj D1\ndefine setup() { chanceNext(); }\n"
                    "define chance() {\n  addPlace(0, 0, D1);\n  addOutcome(operationsNum() + 1);\n"
                    "  addPlace(1, 0, D1);\n  addOutcome(operationsNum() + 2);\n}\n"
                    "define isMoveLegal() -> bool { return true; }\n"
                    "define end() -> bool { if (!isChanceMove()) { chanceNext(); } return false; }\n", encoding="utf-8")
    state = load_game(str(path)).new_state()
    assert outcomes(state) == [("place(0,0,D1)", 1), ("place(1,0,D1)", 2)]
    state.apply("place(0,0,D1)")
    state.apply("clear(0,0); place(1,0,D1)")   # a player's move of two operations; end() rolls again
    assert state.is_chance_node and outcomes(state) == [("place(0,0,D1)", 1), ("place(1,0,D1)", 2)]
    reading = game_of(tmp_path, "define chance() {\n  addPlace(0, 0, D1);\n  addOutcome(1);\n"
                                "  if (isPlaceOperation(0)) { addOutcome(1); }\n}\n")
    with pytest.raises(GdefRuntimeError) as error:
        reading.chance_outcomes()
    assert (error.value.code, error.value.span.line + 1, error.value.span.column + 1) == ("G604", 9, 7)
    assert "there is no operation 0: the move has 0 operations" in error.value.message


# ------------------------------------------------------------------ records, gdef-run


def gdef(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = gdef_run(list(argv), io.StringIO(stdin), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_script_names_the_outcomes_and_the_record_keeps_them(tmp_path):
    moves, record = tmp_path / "m.moves", tmp_path / "r.json"
    moves.write_text("place(0,0,D3); place(0,0,D1)\nplace(1,0,X)\n? chance\nplace(2,0,X)   # refused: chance moves next\nD3\n"
                     "place(2,0,X)\n", encoding="utf-8")
    code, out, err = gdef(DIE, "--moves", str(moves), "--record", str(record))
    assert "m.moves:4: rejected 'place(2,0,X)' (player 1): the next move is chance's" in err
    assert "rejected" not in err.replace("m.moves:4: rejected", "") and "assertion" not in err
    assert out.splitlines()[1:5] == ["1. rolled: D1", "2. player 0: 1,0 (place(1,0,X))", "3. rolled: D3",
                                     "4. player 1: 2,0 (place(2,0,X))"]
    assert code == 0 and out.rstrip().endswith("Player 1 wins.")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert [(m["player"], m["move"], m.get("chance", False)) for m in data["moves"]] == [
        (0, "place(0,0,D1)", True), (0, "place(1,0,X)", False), (1, "place(0,0,D3)", True),
        (1, "place(2,0,X)", False)]


def test_seed_repeats_the_rolls_and_resume_needs_no_seed(tmp_path):
    record = tmp_path / "r.json"
    runs = [gdef(DIE, "--seed", "11", "--record", str(record), stdin="\nplace(1,0,X)\n\nquit\n")
            for _ in range(2)]
    assert runs[0][1] == runs[1][1] and "--seed 11 repeats them" in runs[0][1]
    assert re.findall(r"\d+\. rolled: (\w+)", runs[0][1]) == ["D1", "D1"]
    data = json.loads(record.read_text(encoding="utf-8"))
    assert [(m["player"], m["move"], m.get("chance", False)) for m in data["moves"]] == [
        (0, "place(0,0,D1)", True), (0, "place(1,0,X)", False), (1, "place(0,0,D1)", True)]
    session = Session.from_record(load_game(DIE), [DIE], data)  # no seed: the record holds the rolls
    assert [m["move"] for m in session.moves] == [m["move"] for m in data["moves"]]
    code, out, _ = gdef("--resume", str(record), stdin="place(2,0,X)\nquit\n")   # gdef-run, no seed
    assert code == 3 and "rolled" not in out and "Chance moves before player 0" in out
    assert [m["move"] for m in json.loads(record.read_text(encoding="utf-8"))["moves"]][3:] == ["place(2,0,X)"]
    data["moves"][0].pop("chance")
    with pytest.raises(RecordError, match="move 1 .* recorded as a player's move, but the next move here is chance's"):
        Session.from_record(load_game(DIE), [DIE], data)


def test_interactive_enter_rolls_and_undo_takes_back_the_roll_with_the_move():
    code, out, _ = gdef(DIE, "--seed", "3", stdin="hint\nD2\nplace(1,0,X)\n\nundo\nquit\n")
    assert "Chance moves next: no move to suggest (press Enter to roll)." in out
    assert code == 3
    assert "Chance moves before player 0: press Enter to roll" in out and "roll> D2" in out
    assert "3. rolled: " in out
    assert out.split("Took back the last move.")[1].splitlines()[2].split() == ["0", "D2", ".", ".", ".", "0"]
    assert "Player 0 to move" in out.split("Took back the last move.")[1]


# ------------------------------------------------------------------ players and gdef-sim


@pytest.mark.parametrize("agent", [RandomAgent(1), GreedyAgent(1), MctsAgent(1, iterations=60)],
                         ids=["random", "greedy", "mcts"])
def test_computer_players_play_chance_games(die, agent):
    state = die.new_state()
    rng = random.Random(5)
    while not state.is_over:
        state.apply(state.sample_chance(rng) if state.is_chance_node else agent.choose(state))
    assert state.move_number >= 2


def test_mcts_stopped_by_its_deadline_after_a_new_outcome_keeps_its_tree():
    """A time budget that ends in the playout from an outcome just drawn (the player there has no
    legal move) takes that node back from the chance node: it was put back among untried moves,
    which a chance node has none of (an AttributeError before)."""
    state = load_game(str(ROOT / "tests" / "data" / "chance" / "stuck.gdef")).new_state()
    state.apply("place(0,0,D1)")
    legal = {str(move) for move in state.legal_moves()}
    for ticks in range(1, 60):   # the deadline after 1, 2, ... readings of the clock
        calls = iter(range(10**6))
        agent = MctsAgent(3, time_limit=1.0, playouts="python",
                          clock=lambda: 0.0 if next(calls) < ticks else 1e9)
        assert str(agent.choose(state.clone())) in legal, ticks


def test_games_of_a_run_resolve_chance_from_its_seed(die):
    specs = [parse_agent("random"), parse_agent("random")]
    first = [play_game(die, specs, 9, index) for index in range(20)]
    assert first == [play_game(die, specs, 9, index) for index in range(20)]
    assert {outcome.winner for outcome in first} >= {0, 1}


def test_gdef_sim_on_python_is_reproducible_per_seed(tmp_path):
    results = []
    for name in ("a.json", "b.json"):
        assert gdef_sim([DIE, "-n", "40", "--seed", "4", "--backend", "python", "--json", str(tmp_path / name)]) == 0
        data = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        results.append({key: data[key] for key in ("wins", "draws", "avg_length")})
    assert results[0] == results[1] and sum(results[0]["wins"]) > 0


def test_g419_names_the_call_path():
    from gdef_core import check_files

    found = {(d.code, d.span.line + 1): d.message for d in check_files([str(ROOT / "tests/data/checker/chance.gdef")])}
    assert found[("G419", 11)].endswith("but moves() reaches it: moves() -> face() -> addOutcome()")
    assert found[("G419", 17)].endswith("but chance() reaches it: chance() -> addMove()")
    assert found[("G412", 15)].startswith("game variable 'rolls' is assigned while chance() runs")


def test_chance_outcomes_do_not_widen_the_players_action_numbering(tmp_path):
    """moves() proposes one operation a move; chance()'s outcomes of two operations are numbered
    apart (OpenSpiel's chance actions), so the players keep the small numbering."""
    from gdef_core.interop.actions import ActionMap

    path = tmp_path / "g.gdef"
    path.write_text("name: g\nplayers: 2\nsize: 3 x 1\nobj D1\nobj X\ndefine setup() { chanceNext(); }\n"
                    "define chance() {\n  addPlace(0, 0, D1);\n  addClear(1, 0);\n  addOutcome(1);\n}\n"
                    "define moves() {\n  addPlace(2, 0, X);\n  addMove();\n}\n"
                    "define isMoveLegal() -> bool { return true; }\ndefine end() -> bool { return false; }\n",
                    encoding="utf-8")
    actions = ActionMap(load_game(str(path)))
    assert not actions.multi and actions.size == 3 * 3 + 1
