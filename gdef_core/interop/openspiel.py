"""A gdef game as an OpenSpiel game: importing this module registers the game "gdef".

    import pyspiel
    import gdef_core.interop.openspiel as gdef_openspiel

    game = pyspiel.load_game("gdef", {"path": "examples/connect4.gdef"})
    game = gdef_openspiel.load("examples/connect4.gdef")          # the same

Parameters: `path` (the game file; other files it `use`s are found as usual), `max_game_length`
(default 10000: a game still running after that many moves ends as a draw, because OpenSpiel
needs a bound), `returns` ("winner": +1 for the winner, -1/(N-1) for the others, 0 each in a
draw; "scores": the final scores of `setScore`), `max_chance_outcomes` (default 4096: the
most outcomes a chance node may have, OpenSpiel's bound on chance actions) and `move_variants`
(default 4: how many legal moves of a position may share their first operation and last
square; backgammon's whole turns need more). Actions are numbered by gdef_core.interop.actions; observations are the planes of
gdef_core.interop.observation. Serialisation is OpenSpiel's own: the game's parameters and the
history of actions.

A game that calls `chanceNext()` is EXPLICIT_STOCHASTIC: at a chance node `current_player()`
is `pyspiel.PlayerId.CHANCE` and `chance_outcomes()` lists (k, weight / total weight) for the
k-th outcome in the order `chance()` proposed them (identical ones merged): chance action k is
that outcome.

The game's own parameters (`param int board_size = 11 in 1 to 25;`) are OpenSpiel parameters
too: `pyspiel.load_game("gdef", {"path": "examples/hex.gdef", "board_size": 7})`. OpenSpiel
checks parameter names against the registered game type before the game is made, and a gdef
file's parameters are known only once it is read, so importing this module wraps
`pyspiel.load_game`: for "gdef" it reads the file's parameters and registers the game type
again with them (each with its default) before OpenSpiel's own load_game runs. A string such
as "gdef(path=...,board_size=7)" given to OpenSpiel by other means (a C++ caller) works once
the file has been loaded (or `register_parameters(path)` called) in the process.
"""
from __future__ import annotations

import os

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from gdef_core.interop.actions import DEFAULT_VARIANTS, ActionMap
from gdef_core.interop.loading import declared_params, load_gdef_game, returns_of
from gdef_core.interop.observation import board_text, fill_planes, plane_shape

SHORT_NAME = "gdef"
DEFAULT_MAX_GAME_LENGTH = 10_000
DEFAULT_MAX_CHANCE_OUTCOMES = 4096
_PARAMETERS = {"path": "", "max_game_length": DEFAULT_MAX_GAME_LENGTH, "returns": "winner",
               "max_chance_outcomes": DEFAULT_MAX_CHANCE_OUTCOMES, "move_variants": DEFAULT_VARIANTS}


def _game_type(players: int, returns: str, game_params: dict | None = None,
               chance: bool = False) -> pyspiel.GameType:
    zero_sum = returns == "winner" and players > 1
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="gdef game (rules from a .gdef file)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**(game_params or {}), **_PARAMETERS})


class GdefGame(pyspiel.Game):
    """The OpenSpiel view of one gdef game (loaded, checked and compiled once)."""

    def __init__(self, params=None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        game_params = {name: value for name, value in params.items() if name not in _PARAMETERS}
        path = params["path"]
        if not path:
            raise ValueError('gdef: give the game file, e.g. pyspiel.load_game("gdef", '
                             '{"path": "examples/connect4.gdef"})')
        returns = params["returns"]
        if returns not in ("winner", "scores"):
            raise ValueError(f'gdef: returns must be "winner" or "scores", not {returns!r}')
        max_length = params["max_game_length"]
        if max_length < 1:
            raise ValueError("gdef: max_game_length must be at least 1")
        max_outcomes = params["max_chance_outcomes"]
        if max_outcomes < 1:
            raise ValueError("gdef: max_chance_outcomes must be at least 1")
        variants = params["move_variants"]
        if variants < 1:
            raise ValueError("gdef: move_variants must be at least 1")
        self.shared = _shared((os.path.abspath(os.fspath(path)), max_length, returns,
                               tuple(sorted(game_params.items())), max_outcomes, variants))
        players = self.shared.gdef.players
        chance = self.shared.gdef.rules.raw_chance is not None
        params = {**params, **self.shared.gdef.params}  # every parameter's value in use
        by_winner = returns == "winner"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.actions.size,
            max_chance_outcomes=max_outcomes if chance else 0,
            num_players=players,
            min_utility=-1.0 if by_winner else -1e18,
            max_utility=1.0 if by_winner else 1e18,
            utility_sum=0.0 if by_winner and players > 1 else None,
            max_game_length=max_length)
        super().__init__(_game_type(players, returns, self.shared.gdef.params, chance), info, params)

    def new_initial_state(self) -> "GdefState":
        return GdefState(self, _Position(self.shared, self.shared.gdef.new_state()))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Shared:
    """What every state of one OpenSpiel game shares. Kept out of the pyspiel.Game object,
    whose Python attributes do not survive OpenSpiel's cloning of states."""

    def __init__(self, gdef, max_length: int, returns: str, key: tuple = (),
                 max_outcomes: int = DEFAULT_MAX_CHANCE_OUTCOMES, variants: int = DEFAULT_VARIANTS) -> None:
        self.key = key
        self.gdef = gdef
        self.actions = ActionMap(gdef, variants)
        self.max_length = max_length
        self.returns_kind = returns
        self.max_outcomes = max_outcomes


_SHARED: dict[tuple, _Shared] = {}


def _shared(key: tuple) -> _Shared:
    """The shared part of the game (path, max_game_length, returns, the game's parameters,
    max_chance_outcomes), loaded once per process."""
    shared = _SHARED.get(key)
    if shared is None:
        path, max_length, returns, game_params, max_outcomes, variants = key
        shared = _SHARED[key] = _Shared(load_gdef_game(path, dict(game_params)), max_length, returns, key,
                                        max_outcomes, variants)
    return shared


def _restore(key: tuple, data: dict, length: int) -> "_Position":
    shared = _shared(key)
    return _Position(shared, shared.gdef.state_from_json(data), length)


class _Position:
    """A state's own data. Deep-copying it (OpenSpiel's clone) clones the gdef state and shares
    the game; pickling it (OpenSpiel's serialize) keeps the game's key and the state's JSON."""

    def __init__(self, shared: _Shared, inner, length: int = 0, legal: dict | None = None) -> None:
        self.shared = shared
        self.inner = inner
        self.length = length
        self.legal = legal

    def __deepcopy__(self, memo) -> "_Position":
        return _Position(self.shared, self.inner.clone(), self.length, self.legal)

    def __reduce__(self):
        return _restore, (self.shared.key, self.inner.to_json(), self.length)

    @property
    def terminal(self) -> bool:
        return self.inner.is_over or self.length >= self.shared.max_length

    def legal_moves(self) -> dict:
        """action -> Move: the legal moves of a player, or at a chance node its outcomes (action
        k the k-th)."""
        if self.legal is None:
            if self.inner.is_chance_node:
                self.legal = dict(enumerate(move for move, _ in self.outcomes()))
            else:
                self.legal = self.shared.actions.legal(self.inner)
        return self.legal

    def outcomes(self) -> list:
        """The chance node's outcomes [(Move, weight)], at most max_chance_outcomes."""
        outcomes = self.inner.chance_outcomes()
        if len(outcomes) > self.shared.max_outcomes:
            raise ValueError(f"gdef: chance() proposed {len(outcomes)} outcomes here, more than "
                             f"max_chance_outcomes ({self.shared.max_outcomes}): load the game with a "
                             "larger max_chance_outcomes")
        return outcomes


class GdefState(pyspiel.State):
    """One position; wraps a gdef_core State."""

    def __init__(self, game: GdefGame, position: _Position) -> None:
        super().__init__(game)
        self.pos = position

    # ------------------------------------------------------------ the OpenSpiel API

    def current_player(self) -> int:
        pos = self.pos
        if pos.terminal:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if pos.inner.is_chance_node else pos.inner.current_player

    def is_terminal(self) -> bool:
        return self.pos.terminal

    def _legal_actions(self, player) -> list[int]:
        pos = self.pos
        if pos.terminal or pos.inner.is_chance_node or player != pos.inner.current_player:
            return []
        return list(pos.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action k, probability) of each outcome of a chance node, in the order proposed."""
        pos = self.pos
        if pos.terminal or not pos.inner.is_chance_node:
            return []
        outcomes = pos.outcomes()
        total = sum(weight for _, weight in outcomes)
        return [(k, weight / total) for k, (_, weight) in enumerate(outcomes)]

    def _apply_action(self, action: int) -> None:
        from gdef_core.runtime import IllegalMoveError

        pos = self.pos
        move = pos.legal_moves().get(action)
        if move is None and pos.inner.is_chance_node:
            raise ValueError(f"gdef: chance action {action} is not one of the {len(pos.legal)} outcomes here")
        if move is None:
            raise ValueError(f"gdef: action {action} ({pos.shared.actions.describe(action)}) "
                             "is not legal here")
        try:
            pos.inner.apply(move)
        except IllegalMoveError as error:   # a legal move whose end() failed
            raise RuntimeError(f"gdef: {move}: {error.verdict.error or error.verdict.reason}") from None
        pos.length += 1
        pos.legal = None

    def _action_to_string(self, player, action: int) -> str:
        pos = self.pos
        if player == pyspiel.PlayerId.CHANCE and not pos.terminal and pos.inner.is_chance_node:
            pos.legal_moves()   # an outcome's number says nothing without the outcomes
        if pos.legal is not None and action in pos.legal:
            return str(pos.legal[action])
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return pos.shared.actions.describe(action)

    def returns(self) -> list[float]:
        pos = self.pos
        if not pos.terminal:
            return [0.0] * pos.shared.gdef.players
        return returns_of(pos.inner, pos.shared.returns_kind)

    def __str__(self) -> str:
        pos = self.pos
        return board_text(pos.inner, pos.length if pos.terminal else None)


class BoardObserver:
    """OpenSpiel's observer interface: `tensor` (flat) and `dict` (shaped views of it)."""

    def __init__(self, game: GdefGame, params) -> None:
        if params:
            raise ValueError(f"gdef: observation parameters are not supported (got {params})")
        shape = plane_shape(game.shared.gdef)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: GdefState, player: int) -> None:
        fill_planes(state.pos.inner, self.dict["observation"])

    def string_from(self, state: GdefState, player: int) -> str:
        return str(state)


def load(path, **params) -> GdefGame:
    """The OpenSpiel game of a .gdef file: the same as pyspiel.load_game("gdef", {"path": ...})."""
    return pyspiel.load_game(SHORT_NAME, {"path": os.fspath(path), **params})


def register_parameters(path) -> dict:
    """Register the game type "gdef" again with the parameters `path` declares, so that
    OpenSpiel accepts their names (it checks them before the game is made); returns them
    (name -> default)."""
    declared = declared_params(os.fspath(path))
    pyspiel.register_game(_game_type(2, "winner", declared), GdefGame)
    return declared


_OPENSPIEL_LOAD_GAME = pyspiel.load_game


def _load_game(game, params=None):
    """pyspiel.load_game, which for "gdef" first registers the file's parameters. An int given
    for a float parameter (`komi=7`, as in a game string) is taken as that float: OpenSpiel
    itself would refuse its type."""
    if params is None and isinstance(game, str) and game.startswith(SHORT_NAME + "("):
        game, params = SHORT_NAME, pyspiel.game_parameters_from_string(game)
        params.pop("name", None)
    if params is not None and game == SHORT_NAME and isinstance(params, dict) and params.get("path"):
        declared = register_parameters(params["path"])
        params = {name: float(value) if isinstance(declared.get(name), float) and type(value) is int else value
                  for name, value in params.items()}
    return _OPENSPIEL_LOAD_GAME(game) if params is None else _OPENSPIEL_LOAD_GAME(game, params)


pyspiel.register_game(_game_type(2, "winner"), GdefGame)
pyspiel.load_game = _load_game
