"""Agent descriptions (`mcts:iterations=2000`) and `--player N=SPEC` options."""
import pytest

from gdef_core.play.agents import GreedyAgent, RandomAgent
from gdef_core.play.errors import AgentSpecError
from gdef_core.play.mcts import MctsAgent
from gdef_core.play.spec import AgentSpec, parse_agent, parse_player


def test_plain_names():
    assert parse_agent("random") == AgentSpec("random")
    assert parse_agent(" greedy ") == AgentSpec("greedy")
    assert isinstance(parse_agent("random").build(1), RandomAgent)
    assert isinstance(parse_agent("greedy").build(1), GreedyAgent)


def test_mcts_options_are_typed_and_passed_on():
    spec = parse_agent("mcts:iterations=2000,c=0.5,cap=300")
    assert spec.options == (("iterations", 2000), ("c", 0.5), ("cap", 300))
    assert str(spec) == "mcts:iterations=2000,c=0.5,cap=300"
    agent = spec.build(3)
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.time_limit, agent.exploration, agent.playout_cap) == (2000, None, 0.5, 300)
    timed = parse_agent("mcts:time=0.25").build(3)
    assert (timed.iterations, timed.time_limit) == (None, 0.25)


def test_mcts_default_budget():
    agent = parse_agent("mcts").build(0)
    assert agent.iterations == 1000 and agent.time_limit is None   # gdef-sim: repeatable
    timed = parse_agent("mcts").build(0, think=2.0)
    assert (timed.iterations, timed.time_limit, timed.playouts) == (None, 2.0, "auto")


@pytest.mark.parametrize("text, words", [
    ("alphazero", "unknown agent 'alphazero'"),
    ("mcts:iterations=abc", "must be a positive integer"),
    ("mcts:iterations=0", "must be a positive integer"),
    ("mcts:time=-1", "positive number of seconds"),
    ("mcts:time=nan", "positive number of seconds"),
    ("mcts:depth=3", "has no option 'depth'"),
    ("mcts:iterations", "KEY=VALUE"),
    ("mcts:iterations=5,iterations=6", "given twice"),
    ("mcts:iterations=5,time=1", "not both"),
    ("random:iterations=5", "takes no options"),
    ("human", "unknown agent 'human'"),
])
def test_bad_specs_say_what_is_wrong(text, words):
    with pytest.raises(AgentSpecError, match=words):
        parse_agent(text)


def test_human_only_where_allowed():
    spec = parse_agent("human", allow_human=True)
    assert spec.is_human
    with pytest.raises(AgentSpecError):
        spec.build(0)


def test_player_option():
    assert parse_player("1=mcts:iterations=2000") == (1, AgentSpec("mcts", (("iterations", 2000),)))
    assert parse_player("0=human", allow_human=True) == (0, AgentSpec("human"))
    for text, words in [("mcts", "PLAYER=AGENT"), ("x=random", "not a player number"),
                        ("-1=random", "numbered from 0")]:
        with pytest.raises(AgentSpecError, match=words):
            parse_player(text)
