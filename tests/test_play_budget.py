"""Computer players think for a time budget where a person waits: plain `mcts` thinks
`--think` seconds a move (2 by default) in gdef-run and `hint`, stops at the deadline even in
the middle of a long playout, plays a winning move without a search, and keeps 1000
iterations in gdef-sim (repeatable runs). Clocks are fake: the tests assert on when the agent
looks at the clock and what it does then, never on how long anything took."""
from __future__ import annotations

import io
import re
import sys

import pytest

from gdef_core import load_game
from gdef_core.cli.run import run
from gdef_core.controller.play_session import PlayOptions, PlaySession
from gdef_core.play.mcts import DEFAULT_THINK_SECONDS, MctsAgent
from gdef_core.play.opponents import computer_players
from gdef_core.play.spec import parse_agent

from support import EXAMPLES

CHESS = str(EXAMPLES / "chess" / "chess.gdef")
CONNECT4 = str(EXAMPLES / "connect4.gdef")
TICTACTOE = str(EXAMPLES / "tictactoe.gdef")


class FakeClock:
    """Reads 0.0 `reads` times, then `late` (past any deadline); counts its reads."""

    def __init__(self, reads: int, late: float = 1000.0) -> None:
        self.left, self.late, self.count = reads, late, 0

    def __call__(self) -> float:
        self.count += 1
        self.left -= 1
        return 0.0 if self.left >= 0 else self.late


@pytest.fixture(autouse=True)
def no_numba(monkeypatch):
    """numba missing: `auto` playouts are Python's, and no compile starts in the background."""
    monkeypatch.setitem(sys.modules, "numba", None)


def test_the_deadline_cuts_a_long_playout_short():
    # A chess playout is hundreds of moves; the clock passes the deadline after a few reads,
    # in the middle of the first one: it is dropped, nothing is counted, the answer comes.
    # Reads: the start, one before each of the 20 root moves is applied, the first
    # iteration's check, 5 moves of its playout; the 6th move finds the deadline passed.
    game = load_game(CHESS)
    clock = FakeClock(reads=1 + 20 + 1 + 5)
    agent = MctsAgent(0, time_limit=1.0, clock=clock)
    state = game.new_state()
    move = agent.choose(state)
    assert move in state.legal_moves()
    assert agent.last_iterations == 0
    assert clock.count == 27 + 2   # and the loop's check, which stops


def test_the_deadline_stops_applying_the_roots_moves():
    # Each of the root's moves is applied once before the search (a winning one is played at
    # once); with hundreds of them (Go 19x19) that too stops at the deadline.
    game = load_game(CHESS)
    clock = FakeClock(reads=1 + 3)
    agent = MctsAgent(0, time_limit=1.0, clock=clock)
    state = game.new_state()
    assert agent.choose(state) in state.legal_moves() and agent.last_iterations == 0
    assert clock.count == 1 + 3 + 1 + 1   # the 4th root move finds the deadline passed, the loop stops


def test_the_agent_counts_only_the_playouts_before_the_deadline():
    game = load_game(CONNECT4)
    clock = FakeClock(reads=400)
    agent = MctsAgent(1, time_limit=1.0, clock=clock, playouts="python")
    agent.choose(game.new_state())
    assert 0 < agent.last_iterations < 400
    assert clock.count == 402   # no look at the clock after the deadline but the one that stops


def test_a_winning_move_is_played_without_a_search():
    game = load_game(CONNECT4)
    state = game.state_from_json({
        "game": game.name, "width": game.width, "height": game.height, "player": 0,
        "move_number": 6, "over": False, "winner": None, "vars": {},
        "board": [[0, 0, "X"], [1, 0, "X"], [2, 0, "X"], [0, 1, "O"], [1, 1, "O"], [2, 1, "O"]]})
    for seed in range(3):
        agent = MctsAgent(seed, time_limit=1.0, clock=FakeClock(reads=1 + 7))   # the start, 7 root moves
        assert str(agent.choose(state)) == "place(3,0,X)"
        assert agent.last_iterations == 0


def test_plain_mcts_thinks_a_time_where_a_person_waits_and_iterates_in_gdef_sim():
    agent = MctsAgent(0)
    assert (agent.iterations, agent.time_limit, agent.playouts) == (None, DEFAULT_THINK_SECONDS, "auto")
    assert parse_agent("mcts").build(0).iterations == 1000   # gdef-sim: the same games for a seed
    computers = computer_players(["1=mcts", "0=mcts:iterations=50"], 2, 7, think=0.5)
    assert (computers.agents[1].time_limit, computers.agents[1].iterations) == (0.5, None)
    assert (computers.agents[0].time_limit, computers.agents[0].iterations) == (None, 50)
    assert computers.agents[0].playouts == "python"   # iterations: the same moves on every machine
    assert computer_players(["1=mcts:time=3"], 2, 7, think=0.5).agents[1].time_limit == 3.0


class Quiet:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def test_think_sets_the_players_and_the_hints_budget(monkeypatch, tmp_path):
    # a cache of its own, cold: rules compiled by a test run before this one in the same
    # process would make the hint's playouts native
    monkeypatch.setenv("GDEF_CACHE_DIR", str(tmp_path / "cache"))
    play = PlaySession.start(PlayOptions(files=[TICTACTOE], players=["1=mcts"], seed=1, think=0.25), Quiet())
    assert play.computers.agents[1].time_limit == 0.25
    legal = play.legal_ops()
    hint = play.hint(legal)
    assert hint.move in play.session.state.legal_moves() and hint.engine == "python" and hint.iterations > 0
    assert legal[hint.number - 1] == play.game.resolve(hint.move).ops   # the number gdef-run shows
    play.computers.assign(0, parse_agent("mcts"))   # as the board page does
    assert play.computers.agents[0].time_limit == 0.25
    default = PlaySession.start(PlayOptions(files=[TICTACTOE], players=["1=mcts"], seed=1), Quiet())
    assert default.computers.agents[1].time_limit == DEFAULT_THINK_SECONDS


@pytest.mark.parametrize("argv, words", [
    (["--think", "0", TICTACTOE], "--think: 0 must be more than 0 and at most 3600 seconds"),
    (["--think", "soon", TICTACTOE], "--think: 'soon' is not a number of seconds"),
    (["--perft", "1", "--think", "1", TICTACTOE], "so --think would do nothing"),
])
def test_bad_think_is_a_usage_error(argv, words):
    err = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        sys_stderr, sys.stderr = sys.stderr, err
        try:
            run(argv, io.StringIO(""), io.StringIO(), err)
        finally:
            sys.stderr = sys_stderr
    assert stopped.value.code == 2
    assert words in err.getvalue()


def test_the_hint_line_says_which_playouts_it_ran():
    out, err = io.StringIO(), io.StringIO()
    run(["--think", "0.2", "--seed", "3", TICTACTOE], io.StringIO("hint\nquit\n"), out, err)
    assert "Thinking for up to 0.2 s ..." in out.getvalue()
    # Which engines ran depends on whether the native rules were ready in time
    # (a warm cache loads them within the 0.2 s), so the line names what ran. How long it took
    # is the machine's business (a loaded CI machine has shown 3.2 s): not asserted.
    assert re.search(r"mcts, [\d,]+ (python|native|python and native) playouts in \d+\.\d s\)", out.getvalue())


def test_a_thinking_player_starts_its_native_playouts_work_before_the_first_move():
    from gdef_core.play import background_compile

    play = PlaySession.start(PlayOptions(files=[TICTACTOE], players=["1=mcts"], seed=1), Quiet())
    assert background_compile.state(play.game) is not None   # started: loaded by the time it moves
    repeatable = PlaySession.start(PlayOptions(files=[TICTACTOE], players=["1=mcts:iterations=20"], seed=1), Quiet())
    assert background_compile.state(repeatable.game) is None   # Python playouts: nothing to start
    play.computers.assign(0, parse_agent("mcts:time=1"))
    assert background_compile.state(play.game) is not None
