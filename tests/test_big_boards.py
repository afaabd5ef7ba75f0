"""A 1000 x 1000 board in the tools a person or a program plays with (issue 26, goal 4): the
legal moves counted and paged instead of a million listed, the board drawn around the last
move instead of a million cells after every move. Sizes and exact lines, never times."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from gdef_core.cli.run import run

BIG = ("name: big\nplayers: 2\nsize: 1000 x 1000\nobj X\n"
       "define isMoveLegal() -> bool { return operationsNum() == 1; }\n"
       "define end() -> bool { return false; }\n")


@pytest.fixture
def big(tmp_path):
    rules = tmp_path / "big.gdef"
    rules.write_text(BIG, encoding="utf-8")
    return str(rules)


def play(rules: str, stdin: str, tmp_path) -> list[str]:
    out = io.StringIO()
    run([rules, "--record", str(tmp_path / "r.json")], io.StringIO(stdin), out, io.StringIO())
    return out.getvalue().splitlines()


def test_the_protocols_legal_answers_a_page_and_the_count(big):
    engine = subprocess.Popen([sys.executable, "-m", "gdef_core.cli.run", "--protocol", big],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(engine.stdout.readline())["protocol"] == "gdef"
        answers = []
        for request in ({"cmd": "legal"}, {"cmd": "legal", "offset": 999_998, "limit": 5},
                        {"cmd": "legal", "limit": -1}):
            engine.stdin.write(json.dumps(request) + "\n")
            engine.stdin.flush()
            answers.append(engine.stdout.readline())
    finally:
        engine.stdin.close()
        engine.wait(timeout=60)
    first, last, bad = (json.loads(answer) for answer in answers)
    assert len(answers[0]) < 400_000  # 10,000 moves and their names, not a million
    assert first["count"] == 1_000_000 and first["offset"] == 0 and len(first["moves"]) == 10_000
    assert first["moves"][:2] == ["place(0,0,X)", "place(0,1,X)"] and first["names"][:2] == ["0,0", "0,1"]
    assert last == {"ok": True, "moves": ["place(999,998,X)", "place(999,999,X)"], "names": ["999,998", "999,999"],
                    "chance": False, "count": 1_000_000, "offset": 999_998}
    assert bad == {"ok": False, "error": {"kind": "bad request", "message": '"limit" must be a whole number (0 or more)'}}


def test_the_console_lists_the_first_moves_and_draws_around_the_last_one(big, tmp_path):
    lines = play(big, "moves\n1002\nboard 999,999\nquit\n", tmp_path)
    assert len(lines) < 250  # each drawing 26 rows, the listing 400 moves in columns
    assert ("1,000,000 legal moves; showing the first 400. Type a number to play that move (any number up to "
            "1,000,000), or 'moves SQUARE' (3,1 or e2) for those touching a square.") in lines
    assert "Columns 0-25, rows 0-25 of the 1000x1000 board, from its corner; 'board SQUARE' draws around a " \
           "square (3,1 or e2), 'board all' the whole board." in lines
    assert "player 0> 1002" in lines and "Move 1002: 1,1" in lines
    drawn = lines.index("Move 1002: 1,1") + 1
    assert lines[drawn].split() == [str(x) for x in range(26)]
    assert lines[drawn + 25].split() == ["1", ".", "X", *["."] * 24, "1"]
    assert "Columns 0-25, rows 0-25 of the 1000x1000 board, around the last move; 'board SQUARE' draws " \
           "around a square (3,1 or e2), 'board all' the whole board." in lines
    assert lines[lines.index("player 1> board 999,999") + 1].split() == [str(x) for x in range(974, 1000)]
    assert "Columns 974-999, rows 974-999 of the 1000x1000 board, around 999,999; 'board SQUARE' draws " \
           "around a square (3,1 or e2), 'board all' the whole board." in lines


def test_board_all_draws_every_square(tmp_path):
    rules = tmp_path / "wide.gdef"
    rules.write_text(BIG.replace("1000 x 1000", "30 x 2"), encoding="utf-8")
    lines = play(str(rules), "board\nboard all\nboard 40,1\nquit\n", tmp_path)
    whole = lines.index("player 0> board all") + 1
    assert lines[whole].split() == [str(x) for x in range(30)] and lines[whole + 3].split() == lines[whole].split()
    assert "'40,1' is not a square of the board: write 'board', 'board all' or, say, 'board 15,1'." in lines
    assert sum(line.startswith("Columns 0-25, rows 0-1 of the 30x2 board") for line in lines) == 2


def test_tab_completes_a_typed_name_or_operation_without_naming_every_move(big):
    from gdef_core import load_game
    from gdef_core.cli.completion import completions

    state = load_game(big).new_state()
    assert completions(state, "") == ["place("] and completions(state, "cl") == []
    assert completions(state, "place(51,7") == [f"place(51,{y},X)" for y in (7, *range(70, 80), *range(700, 800))]
    assert completions(state, "51,77") == ["51,77", *(f"51,{y}" for y in range(770, 780))]
    assert completions(state, "51,777") == ["51,777"]
    assert completions(state, "place(") == [f"place({x}," for x in range(1000)]  # cut, not a million
    assert completions(state, "place(,") == completions(state, "place(-,") == []
    state.apply("place(51,777,X)")
    assert completions(state, "51,777") == []  # taken: no move of that name, no clear in this game


def test_tab_at_the_prompt_of_a_big_board(big, tmp_path):
    from test_run_prompt import Terminal, recorded_moves

    terminal = Terminal(tmp_path, game=big)
    terminal.expect("player 0> ")
    terminal.type("51,77\t7\t\r")  # 51,77 -> (several: no change) 51,777 -> the only move so named
    terminal.expect("player 1> ")
    terminal.type("place(3,99\t,\t\r")  # place(3,99 (place(3,99,X) or place(3,99N,X)) -> place(3,99,X)
    terminal.expect("player 0> ")
    terminal.type("q\r")
    shown = terminal.expect("continue with")
    assert terminal.finish() == 3
    assert recorded_moves(shown + terminal.seen) == ["place(51,777,X)", "place(3,99,X)"]


def test_a_name_typed_in_part_or_another_case_is_read_among_the_moves_it_could_name(tmp_path, monkeypatch):
    from gdef_core import load_game
    from gdef_core.runtime import notation

    rules = tmp_path / "two.gdef"
    rules.write_text(BIG.replace("obj X\n", "obj X\nobj O\n"), encoding="utf-8")
    state = load_game(str(rules)).new_state()
    named = []
    original = notation.move_names
    monkeypatch.setattr(notation, "move_names", lambda s, moves: named.append(len(moves)) or original(s, moves))
    assert str(state.read_move("x@51,777")) == "place(51,777,X)"
    assert str(state.read_move("o@51,7")) == "place(51,7,O)"
    ambiguous = state.read_move("1,777")
    assert ambiguous.kind.value == "ambiguous" and ambiguous.candidates[:4] == ("X@1,777", "O@1,777", "X@11,777", "O@11,777")
    vague = state.read_move("x@5")
    assert vague.kind.value == "unknown name" and vague.reason == (
        "'x@5' could be part of the names of too many of the 2,000,000 legal moves here: write more of the "
        "name, or the move's operations")
    assert max(named) < 25_000  # never the two million


def test_the_board_page_draws_a_big_board_in_part_and_follows_the_move(big, browser, web):
    from web_support import playwright_or_skip

    expect = playwright_or_skip()[0].expect
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(web(big).url)
    hang_guard = 300_000  # ms: the first legal moves of a million squares, on a loaded machine
    expect(page.locator("#legal-count")).to_have_text("(1000000)", timeout=hang_guard)
    expect(page.locator(".sq")).to_have_count(100 * 100)  # not a million squares
    view = page.locator("#view-text")
    expect(view).to_have_text("Columns 0–99, rows 0–99 of the 1000×1000 board")
    page.locator("#move-text").fill("place(500,700,X)")
    page.locator("#play").click()
    expect(view).to_have_text("Columns 450–549, rows 650–749 of the 1000×1000 board", timeout=hang_guard)
    expect(page.locator('.sq[data-x="500"][data-y="700"]')).to_have_attribute("data-object", "X")
    expect(page.locator(".sq")).to_have_count(100 * 100)
    page.locator("#view-right").click()
    expect(view).to_have_text("Columns 500–599, rows 650–749 of the 1000×1000 board")
    expect(page.locator('.sq[data-x="599"][data-y="749"]')).to_have_count(1)
    page.close()
    assert errors == []


def test_the_debuggers_output_draws_a_big_board_around_the_last_move(tmp_path):
    from gdef_core import load_game
    from gdef_core.debug.engine import _Reporter
    from gdef_core.runtime.session import Session

    rules = tmp_path / "sixty.gdef"
    rules.write_text(BIG.replace("1000 x 1000", "60 x 60"), encoding="utf-8")
    game = load_game(str(rules))
    session = Session(game, [str(rules)], game.new_state())
    assert session.last_square() is None
    assert session.play("place(50,40,X)").accepted and session.last_square() == (50, 40)
    said = []

    class Debugger:
        def _say(self, stream, text):
            said.append(text)

    _Reporter(Debugger()).show_board(session)
    lines = said[0].splitlines()
    assert len(lines) == 28 and lines[0].split() == [str(x) for x in range(34, 60)]
    assert lines[1].split()[0] == "52" and lines[13].split() == ["40", *["."] * 16, "X", *["."] * 9, "40"]


def _never(state):
    raise AssertionError("legal_moves() was called: every legal move made a Move")


@pytest.fixture
def no_move_lists(monkeypatch):
    """State.legal_moves() made unusable: what calls it on a big board makes a million Moves."""
    from gdef_core.runtime.game import State

    monkeypatch.setattr(State, "legal_moves", _never)


def test_mcts_searches_a_big_board_without_listing_its_moves(big, no_move_lists):
    from gdef_core import load_game
    from gdef_core.play.mcts import MctsAgent

    game = load_game(big)
    state = game.new_state()
    agent = MctsAgent(7, iterations=3, playouts="python", playout_cap=2)
    move = agent.choose(state)
    assert state.check(move) and agent.last_iterations == 3
    assert len(game._moves) < 20  # the three tried and their playouts' moves, not a million


def test_mcts_plays_a_big_boards_winning_move_when_it_tries_one(tmp_path, no_move_lists):
    from gdef_core import load_game
    from gdef_core.play.mcts import MctsAgent

    rules = tmp_path / "half.gdef"
    rules.write_text(BIG.replace("define end() -> bool { return false; }",
                                 "define end() -> bool {\n  if (OperationList[0][0] < 500) { setWinner(onTurn()); "
                                 "return true; }\n  return false;\n}"), encoding="utf-8")
    game = load_game(str(rules))
    state = game.new_state()
    agent = MctsAgent(7, iterations=100, playouts="python", playout_cap=2)
    move = agent.choose(state)
    assert move.ops[0].x < 500 and agent.last_iterations < 100  # played at once, not searched for


def test_greedy_looks_at_a_sample_of_a_big_boards_moves(big, no_move_lists):
    from gdef_core import load_game
    from gdef_core.play.agents import GreedyAgent

    game = load_game(big)
    state = game.new_state()
    move = GreedyAgent(7).choose(state)
    assert state.check(move)
    assert len(game._moves) <= 32 * 33  # its 32 moves and 32 replies to each, drawn, not a million


def test_greedys_replies_are_drawn_without_listing_each_positions_candidates(big, no_move_lists, monkeypatch):
    from gdef_core import load_game
    from gdef_core.play.agents import GreedyAgent
    from gdef_core.runtime.game import Game

    game = load_game(big)
    state = game.new_state()
    assert state.legal_count() == 1_000_000
    listed = []
    monkeypatch.setattr(Game, "candidates", lambda *arguments: listed.append(arguments) or [])
    assert str(GreedyAgent(7).choose(state)) == "place(129,815,X)"  # the move it chose listing them
    assert str(GreedyAgent(3).choose(state)) == "place(635,17,X)"
    assert listed == []  # each of its 32 x 32 replies drawn from a CandidateView, not from a new list of a million


def test_a_candidate_view_holds_the_candidates_in_their_order(tmp_path):
    from gdef_core import load_game
    from gdef_core.runtime.game import CandidateView
    from gdef_core.runtime.notation import touching

    rules = tmp_path / "small.gdef"
    rules.write_text(BIG.replace("1000 x 1000", "5 x 3").replace("obj X\n", "obj X\nobj O\n"), encoding="utf-8")
    state = load_game(str(rules)).new_state()
    for move in ("place(4,2,X)", "place(0,1,O)", "place(2,0,X)"):
        view = state.candidate_view()
        assert isinstance(view, CandidateView) and list(view) == state.candidate_ops()
        state.apply(move)
    assert len(view) == 5 * 3 * 2 + 2 + 1 and view[-1] == () and view[30] == ((0, 1, state.game.empty, False),)
    with pytest.raises(IndexError):
        view[33]
    squares = {(0, 1), (2, 0), (3, 2), (4, 2), (9, 9)}
    assert state.candidates_touching(squares) == touching(state.candidate_ops(), squares)
    assert len(state.candidates_touching(squares)) == 4 * 2 + 3 + 1  # places, clears of the three taken, pass


def test_has_legal_move_and_naming_a_move_on_a_big_board_make_no_candidate_list(tmp_path, no_move_lists):
    """end()'s hasLegalMove() stops at the first legal place, made as asked for; naming the move
    played looks at its square's candidates by number (the first move of such a game took 26 s
    and 1.3 GB making two million Moves)."""
    from gdef_core import load_game

    rules = tmp_path / "ends.gdef"
    rules.write_text(BIG.replace("return false; }\n", "return !hasLegalMove(); }\n"), encoding="utf-8")
    game = load_game(str(rules))
    state = game.new_state()
    state.apply("place(3,3,X)")
    assert not state.is_over and state.has_legal_move()
    assert state.move_name(game.to_move(((5, 7, game.objects["X"], True),))) == "5,7"
    made = {"_place_ops", "_clear_ops", "_places", "_clears"} & set(vars(game))
    assert made == set() and len(game._moves) < 10


@pytest.mark.parametrize("rules", [
    # the first legal candidate a place, a clear, the pass, or none: the same answer, one by one
    "define isMoveLegal() -> bool { return operationsNum() == 1 && isPlaceOperation(0) "
    "&& CurrentPosition[OperationList[0][0]][OperationList[0][1]] == empty && OperationList[0][0] > 1; }",
    "define isMoveLegal() -> bool { return operationsNum() == 1 && !isPlaceOperation(0) && OperationList[0][1] == 2; }",
    "define isMoveLegal() -> bool { return operationsNum() == 0 && moveNumber() < 3; }",
    "define isMoveLegal() -> bool { return operationsNum() == 1 && 6 / (OperationList[0][0] - 2) > 7; }",
])
def test_the_first_legal_automatic_candidate_is_the_full_lists_first(tmp_path, rules):
    import random

    from gdef_core import load_game

    path = tmp_path / "small.gdef"
    path.write_text(f"name: small\nplayers: 2\nsize: 4 x 3\nobj X\nobj O\n{rules}\n"
                    "define end() -> bool { return false; }\n", encoding="utf-8")
    game = load_game(str(path))
    rng = random.Random(5)
    for position in range(60):
        squares = [rng.choice([game.empty, game.objects["X"], game.objects["O"]]) for _ in range(12)]
        number = position % 5
        full = game.legal_ops(squares, 0, number, [])
        first = game.legal_ops(squares, 0, number, [], first_only=True)
        assert first == full[:1], (squares, number)


def test_random_moves_and_their_names_on_a_big_board_list_no_candidates(big, no_move_lists, monkeypatch):
    import random

    from gdef_core import load_game
    from gdef_core.runtime.game import Game

    state = load_game(big).new_state()
    monkeypatch.setattr(Game, "candidates", lambda *arguments: _never(None))
    rng = random.Random(7)
    played = []
    for _ in range(3):
        played.append(state.random_move(rng))
        state.apply(played[-1])
    assert [str(move) for move in played] == ["place(323,833,X)", "place(150,849,X)", "place(650,936,X)"]  # as before
    assert state.move_name(state.random_move(rng)) == "72,436"


def test_a_rule_tests_moves_count_and_random_play_on_a_big_board(big, no_move_lists):
    from gdef_core import load_game
    from gdef_core.testing.assertions import evaluate, parse_assertion
    from gdef_core.testing.play import PlayOptions, play_findings

    game = load_game(big)
    state = game.new_state()
    outcome = evaluate(parse_assertion("? moves 1000000"), state)
    assert outcome.passed and outcome.actual.startswith("1000000 legal moves: place(0,0,X), place(0,1,X),")
    assert outcome.actual.endswith("place(0,11,X), ...")
    findings, played = play_findings(game, PlayOptions(games=1, max_moves=3, out=str(big) + ".out"))
    assert played.moves == 3 and [finding.code for finding in findings] == ["G701"]


# gdef-run in a process of its own whose State.legal_moves() fails: the paths a person or a
# program starts on a big board never list every legal move.
GUARDED_RUN = ("import sys\n"
               "from gdef_core.runtime.game import State\n"
               "def never(state):\n"
               "    raise SystemExit('legal_moves() was called')\n"
               "State.legal_moves = never\n"
               "from gdef_core.cli.run import main\n"
               "main(sys.argv[1:])\n")


def guarded_run(arguments: list[str], stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", GUARDED_RUN, *arguments], input=stdin, capture_output=True,
                          text=True, timeout=600)


def test_a_program_player_is_sent_a_page_of_a_big_boards_moves_and_their_count(big, tmp_path):
    bot = tmp_path / "bot.py"
    seen = tmp_path / "seen.json"
    bot.write_text("import json, sys\n"
                   "for line in sys.stdin:\n"
                   "    request = json.loads(line)\n"
                   "    if request['cmd'] == 'go':\n"
                   "        with open(sys.argv[1], 'w') as out:\n"
                   "            json.dump({'keys': sorted(request), 'legal': request['legal'][:2],\n"
                   "                       'listed': len(request['legal']), 'count': request['count'],\n"
                   "                       'characters': len(line)}, out)\n"
                   "        print(json.dumps({'ok': True, 'move': 'place(999,999,X)'}), flush=True)\n"
                   "    elif request['cmd'] == 'quit':\n"
                   "        break\n", encoding="utf-8")
    done = guarded_run([big, "--record", str(tmp_path / "r.json"), "--player", f"0=cmd:{sys.executable} {bot} {seen}"],
                       "quit\n")
    assert done.returncode == 3, done.stderr
    request = json.loads(seen.read_text())
    assert request.pop("characters") < 200_000  # 10,000 moves, not a million (16 MB)
    assert request == {"keys": ["cmd", "count", "legal", "seed", "state"], "legal": ["place(0,0,X)", "place(0,1,X)"],
                       "listed": 10_000, "count": 1_000_000}
    assert [entry["move"] for entry in json.loads((tmp_path / "r.json").read_text())["moves"]] == ["place(999,999,X)"]


@pytest.mark.parametrize("player", ["mcts:time=0.5", "greedy", "random"])
def test_a_computers_first_move_and_a_hint_on_a_big_board(big, tmp_path, player):
    done = guarded_run([big, "--record", str(tmp_path / "r.json"), "--seed", "7", "--player", f"0={player}"],
                       "hint 0.5\nquit\n")
    assert done.returncode == 3, done.stderr
    hint = [line for line in done.stdout.splitlines() if line.startswith("Hint: ")]
    assert len(hint) == 1 and " of 1,000,001; type " in hint[0]
    assert len(json.loads((tmp_path / "r.json").read_text())["moves"]) == 1


# gdef-run as its own process, which sees at exit whether the objects it made were frozen out
# of the interpreter's last garbage collection (which frees a big board's candidates one at a time).
WATCHED_EXIT = ("import atexit, gc, sys\n"
                "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0, flush=True))\n"
                "from gdef_core.cli.{module} import main\n"
                "sys.argv[1:] = sys.argv[2:]\n"
                "main()\n")


@pytest.mark.parametrize("module, command", [("run", []), ("main", ["run"])])
def test_gdef_run_leaves_a_big_boards_candidates_to_the_system_at_exit(big, tmp_path, module, command):
    record = tmp_path / "r.json"
    done = subprocess.run([sys.executable, "-c", WATCHED_EXIT.format(module=module), "gdef", *command, big, "--seed",
                           "7", "--record", str(record), "--player", "0=greedy"], input="quit\n", capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines()[-1] == "frozen at exit: True"
    assert "player 1> " in done.stdout and "The record is in" in done.stderr
    assert [entry["move"] for entry in json.loads(record.read_text())["moves"]] == ["place(176,722,X)"]  # as before


def test_random_indices_draw_a_permutation_one_index_at_a_time():
    import itertools
    import random

    from gdef_core.play.untried import random_indices

    for count in (0, 1, 2, 7, 50):
        assert sorted(random_indices(count, random.Random(count))) == list(range(count))
    drawn = random_indices(10 ** 15, random.Random(3))  # nothing of this size is made
    first = list(itertools.islice(drawn, 1000))
    assert len(set(first)) == 1000 and all(0 <= index < 10 ** 15 for index in first)
