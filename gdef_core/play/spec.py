"""Agent descriptions as people type them: `random`, `greedy`, `mcts:iterations=2000`,
`mcts:time=0.5,c=1.0`, and the `--player N=SPEC` options of gdef-run and gdef-sim.

A spec is plain data (it crosses process boundaries in gdef-sim); `build(seed, think)` makes
the agent. A plain `mcts` (neither iterations= nor time=) thinks `think` seconds a move where
a person waits (gdef-run's `--think`, default 2 s), and DEFAULT_ITERATIONS iterations where
runs must repeat for a seed (gdef-sim: `think` None).
"""
from __future__ import annotations

from dataclasses import dataclass

from gdef_core.play.agents import GreedyAgent, RandomAgent
from gdef_core.play.errors import AgentSpecError
from gdef_core.play.mcts import DEFAULT_ITERATIONS, PLAYOUT_ENGINES, MctsAgent

HUMAN = "human"


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise ValueError
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0 or value == float("inf"):
        raise ValueError
    return value


def _non_negative_float(text: str) -> float:
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise ValueError
    return value


def _playout_engine(text: str) -> str:
    if text not in PLAYOUT_ENGINES:
        raise ValueError
    return text


# agent name -> {option: (parser, what it must be, MctsAgent keyword)}
_OPTIONS: dict[str, dict[str, tuple]] = {
    "random": {},
    "greedy": {},
    "cmd": {},
    "mcts": {
        "iterations": (_positive_int, "a positive integer", "iterations"),
        "time": (_positive_float, "a positive number of seconds", "time_limit"),
        "c": (_non_negative_float, "a number >= 0 (the UCT exploration constant)", "exploration"),
        "cap": (_positive_int, "a positive integer (the playout length cap)", "playout_cap"),
        "playouts": (_playout_engine, "python, native or auto (the playout engine)", "playouts"),
    },
}
_DESCRIPTIONS = {
    "random": "a uniformly random legal move",
    "greedy": "wins at once when it can, else blocks an immediate loss, else random",
    "mcts": "UCT tree search with random playouts "
            "(options: time=SECONDS (gdef-run's default: --think, 2 s) or iterations=N "
            "(gdef-sim's default: 1000), c=1.41, cap=1000, playouts=python|native|auto)",
    "cmd": 'another program speaking the bot protocol, e.g. cmd:"python mybot.py" (docs/protocol.md)',
}


@dataclass(frozen=True, slots=True)
class AgentSpec:
    name: str
    options: tuple[tuple[str, object], ...] = ()

    @property
    def is_human(self) -> bool:
        return self.name == HUMAN

    def build(self, seed: int | None = None, think: float | None = None):
        """A fresh agent with its own random generator seeded by `seed`; `think`: the seconds
        a move of a plain `mcts` (None: DEFAULT_ITERATIONS iterations)."""
        if self.name == "random":
            return RandomAgent(seed)
        if self.name == "greedy":
            return GreedyAgent(seed)
        if self.name == "cmd":
            from gdef_core.play.external import ExternalAgent
            return ExternalAgent(dict(self.options)["command"], seed)
        if self.name == "mcts":
            keywords = {_OPTIONS["mcts"][key][2]: value for key, value in self.options}
            if "iterations" not in keywords and "time_limit" not in keywords:
                keywords.update({"iterations": DEFAULT_ITERATIONS} if think is None else {"time_limit": think})
            return MctsAgent(seed, **keywords)
        raise AgentSpecError(f"'{self.name}' is a person, not a computer player")

    def __str__(self) -> str:
        if self.name == "cmd":
            return f"cmd:{dict(self.options)['command']}"
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.options)


def agent_help() -> str:
    """One line per agent, for --help texts."""
    return "; ".join(f"{name}: {text}" for name, text in _DESCRIPTIONS.items())


def parse_agent(text: str, *, allow_human: bool = False) -> AgentSpec:
    """`NAME[:KEY=VALUE[,KEY=VALUE...]]` -> AgentSpec; AgentSpecError says what is wrong."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    known = sorted(_OPTIONS) + ([HUMAN] if allow_human else [])
    if name == HUMAN and allow_human:
        if rest.strip():
            raise AgentSpecError("'human' takes no options")
        return AgentSpec(HUMAN)
    if name == "cmd":
        command = rest.strip()
        if not command:
            raise AgentSpecError('cmd: name the program, e.g. 1=cmd:"python mybot.py"')
        return AgentSpec("cmd", (("command", command),))
    if name not in _OPTIONS:
        raise AgentSpecError(f"unknown agent '{name}': use one of {', '.join(known)}")
    allowed = _OPTIONS[name]
    options: dict[str, object] = {}
    for item in (part.strip() for part in rest.split(",") if part.strip()):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not value:
            raise AgentSpecError(f"'{item}': write options as KEY=VALUE, e.g. mcts:iterations=2000")
        if key not in allowed:
            hint = f"its options are {', '.join(allowed)}" if allowed else "it takes no options"
            raise AgentSpecError(f"'{name}' has no option '{key}': {hint}")
        if key in options:
            raise AgentSpecError(f"option '{key}' is given twice")
        parser, what, _ = allowed[key]
        try:
            options[key] = parser(value)
        except ValueError:
            raise AgentSpecError(f"{name} option {key}={value}: must be {what}") from None
    if "iterations" in options and "time" in options:
        raise AgentSpecError("give mcts either iterations= or time=, not both")
    return AgentSpec(name, tuple(options.items()))


def parse_player(text: str, *, allow_human: bool = False) -> tuple[int, AgentSpec]:
    """`N=SPEC` (e.g. `1=mcts:iterations=2000`) -> (player number, spec)."""
    number, equals, spec = text.partition("=")
    if not equals:
        raise AgentSpecError(f"'{text}': write PLAYER=AGENT, e.g. 1=mcts:iterations=2000")
    try:
        player = int(number.strip())
    except ValueError:
        raise AgentSpecError(f"'{number.strip()}' is not a player number (players count from 0)") from None
    if player < 0:
        raise AgentSpecError(f"player {player}: players are numbered from 0")
    return player, parse_agent(spec, allow_human=allow_human)
