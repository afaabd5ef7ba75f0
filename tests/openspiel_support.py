"""Comparing a gdef game with OpenSpiel's implementation of it, turn by turn.

A turn's outcome is compared as a key: (position, over, winner, player on turn), where a
position is whatever the two sides' parsers make of a state (OpenSpiel's text, our board and
game variables). OpenSpiel games that split one turn into several actions of the same player
(checkers' multiple captures, amazons' from / to / shot, backgammon's doubles) are followed to
the end of the turn. At a chance node the player on turn is pyspiel's CHANCE (-1) on both
sides, and the outcomes are compared as the positions they reach with their probabilities.

`play_alongside` compares node by node instead, OpenSpiel's actions mapped to ours: games with
chance nodes (the same outcomes with the same probabilities) and games whose positions are read
from OpenSpiel's observation (counts), through our pyspiel adapter or the game API (`ApiState`).
"""
from __future__ import annotations

import random
from collections.abc import Callable

import pytest

CHANCE = -1  # pyspiel.PlayerId.CHANCE


def spiel_key(state, position) -> tuple:
    """(position, over, winner, player on turn) of an OpenSpiel state."""
    if state.is_terminal():
        returns = state.returns()
        best = max(returns)
        winner = returns.index(best) if best > 0 else None
        return position(str(state)), True, winner, None
    return position(str(state)), False, None, state.current_player()


def board_position(state) -> frozenset:
    return frozenset(state.board.occupied())


def our_key(state, position=board_position) -> tuple:
    if state.is_over:
        return position(state), True, state.winner, None
    return position(state), False, None, CHANCE if state.is_chance_node else state.current_player


def spiel_turns(state, position, *, follow: bool = True) -> dict:
    """key of each position the player on turn can reach in one turn -> the actions to it.
    With `follow`, actions after which the same player is on turn are one turn with the next
    (checkers' jumps); without, each action is a turn (dots and boxes' extra moves)."""
    mover = state.current_player()
    reached: dict[tuple, list[int]] = {}

    def expand(current, actions):
        for action in current.legal_actions():
            after = current.clone()
            after.apply_action(action)
            if follow and not after.is_terminal() and after.current_player() == mover:
                expand(after, [*actions, action])       # the turn goes on
            else:
                reached.setdefault(spiel_key(after, position), [*actions, action])

    expand(state, [])
    return reached


def board_after(state, move) -> frozenset:
    """The board a move leaves, from its operations alone (end() not run)."""
    squares = {(x, y): obj for x, y, obj in state.board.occupied()}
    for op in move.ops:
        if op.obj is None or op.obj == "empty":
            squares.pop((op.x, op.y), None)
        else:
            squares[op.x, op.y] = op.obj
    return frozenset((x, y, obj) for (x, y), obj in squares.items())


def our_turns(state, position=board_position, *, distinct: bool = True,
              boards_only: bool = False) -> dict:
    """key of each position reached by a legal move -> the move. With `distinct`, two legal
    moves with the same effect are an error (games whose rules list one move per effect).
    With `boards_only` the key is the board the move leaves, end() not run (for games whose
    end() is too slow to run for every move in a test)."""
    reached = {}
    for move in state.legal_moves():
        if boards_only:
            key = board_after(state, move)
        else:
            after = state.clone()
            after.apply(move)
            key = our_key(after, position)
        assert not (distinct and key in reached), f"moves {reached[key]} and {move} have the same effect"
        reached.setdefault(key, move)
    return reached


def spiel_outcomes(state, position) -> tuple[dict, dict]:
    """At an OpenSpiel chance node: key reached -> its probability, and key -> an action to it
    (outcomes that reach the same key are one, their probabilities added)."""
    chances: dict[tuple, float] = {}
    actions: dict[tuple, int] = {}
    for action, probability in state.chance_outcomes():
        after = state.clone()
        after.apply_action(action)
        key = spiel_key(after, position)
        chances[key] = chances.get(key, 0.0) + probability
        actions.setdefault(key, action)
    return chances, actions


def our_outcomes(state, position) -> tuple[dict, dict]:
    """At our chance node: key reached -> its probability, and key -> the outcome to it."""
    weights: dict[tuple, int] = {}
    outcomes: dict = {}
    for outcome, weight in state.chance_outcomes():
        after = state.clone()
        after.apply(outcome)
        key = our_key(after, position)
        weights[key] = weights.get(key, 0) + weight
        outcomes.setdefault(key, outcome)
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()}, outcomes


def chance_step(ours, theirs, spiel_position, our_position, rng, where: str) -> None:
    """Both sides offer the same outcomes with the same probabilities; one, drawn by
    OpenSpiel's probabilities, is applied to both."""
    assert ours.is_chance_node, where
    mine, outcomes = our_outcomes(ours, our_position)
    expected, actions = spiel_outcomes(theirs, spiel_position)
    assert set(mine) == set(expected), where
    assert [mine[key] for key in expected] == pytest.approx(list(expected.values())), where
    keys = list(expected)
    key = rng.choices(keys, [expected[k] for k in keys])[0]
    ours.apply(outcomes[key])
    theirs.apply_action(actions[key])


def play_against(game, spiel_game, spiel_position, *, games: int, seed: int, label: str,
                 our_position=board_position, distinct: bool = True,
                 boards_only: bool = False, follow: bool = True, pick=None,
                 scores: bool = False, results: list | None = None) -> int:
    """Seeded random games along which both sides must offer the same set of outcomes at every
    turn (`follow`: see spiel_turns; with `boards_only`, the same set of boards, whether each
    ends the game compared only for the move played), end at the same moment and name the same
    winner; returns the turns compared. At chance nodes both offer the same outcomes with the
    same probabilities (chance_step). With `scores`, our final scores are OpenSpiel's returns;
    `results` collects OpenSpiel's returns of each game.
    `pick(rng, moves)` chooses the move played among the legal ones (default: uniformly), to
    steer games towards rules random play seldom reaches."""
    rng = random.Random(seed)
    turns = 0
    for number in range(games):
        ours, theirs = game.new_state(), spiel_game.new_initial_state()
        assert our_key(ours, our_position) == spiel_key(theirs, spiel_position)
        step = 0
        while not ours.is_over:
            if ours.is_chance_node or theirs.is_chance_node():
                chance_step(ours, theirs, spiel_position, our_position, rng, f"{label} game {number} step {step}")
                assert our_key(ours, our_position) == spiel_key(theirs, spiel_position)
                step += 1
                continue
            our_moves = our_turns(ours, our_position, distinct=distinct, boards_only=boards_only)
            their_moves = spiel_turns(theirs, spiel_position, follow=follow)
            if boards_only:
                their_moves = {key[0]: actions for key, actions in their_moves.items()}
            where = f"{label} game {number} step {step}"
            assert set(our_moves) == set(their_moves), (
                f"{where}: only ours: {[str(our_moves[k]) for k in set(our_moves) - set(their_moves)]}, "
                f"only OpenSpiel's: {[their_moves[k] for k in set(their_moves) - set(our_moves)]}")
            ordered = sorted(our_moves.values(), key=str)
            chosen = pick(rng, ordered) if pick else rng.choice(ordered)
            key = next(k for k, move in our_moves.items() if move is chosen)
            ours.apply(our_moves[key])
            for action in their_moves[key]:
                theirs.apply_action(action)
            now = our_key(ours, our_position)
            assert now == spiel_key(theirs, spiel_position), where
            assert (now[0] if boards_only else now) == key, where
            step += 1
            turns += 1
        assert theirs.is_terminal()
        if scores:
            assert list(ours.scores) == theirs.returns(), f"{label} game {number}"
        if results is not None:
            results.append(tuple(theirs.returns()))
    return turns


class ApiState:
    """A state of gdef's game API spoken to as play_alongside speaks to a pyspiel state; its
    actions are our Moves."""

    def __init__(self, state) -> None:
        self.state = state

    def current_player(self) -> int:
        return self.state.current_player

    def is_terminal(self) -> bool:
        return self.state.is_over

    def apply_action(self, move) -> None:
        self.state.apply(move)

    def returns(self) -> list[float]:
        winner, players = self.state.winner, self.state.game.players
        return [0.0 if winner is None else 1.0 if p == winner else -1.0 for p in range(players)]


def play_alongside(new_ours: Callable, spiel_game, *, games: int, seed: int, label: str,
                   same: Callable, actions: Callable, final: Callable | None = None) -> set[tuple]:
    """Seeded games of ours (`new_ours()`: a pyspiel state, or an ApiState) and OpenSpiel's side
    by side, OpenSpiel choosing (players uniformly, chance by its probabilities). At every node:
    the same player on turn, `same(ours, theirs, where)` (asserting the positions agree); at a
    chance node the same outcomes with the same probabilities (our chance action k is theirs);
    at a player's node `actions(ours, theirs, player, where)`, OpenSpiel's action -> ours, whose
    keys must be OpenSpiel's legal actions. At the end the same returns, then `final(ours,
    theirs, where)`. Returns the set of returns seen."""
    rng = random.Random(seed)
    results = set()
    for number in range(games):
        ours, theirs = new_ours(), spiel_game.new_initial_state()
        step = 0
        while not theirs.is_terminal():
            where = f"{label} game {number} step {step}"
            assert not ours.is_terminal(), where
            player = theirs.current_player()
            assert ours.current_player() == player, where
            same(ours, theirs, where)
            if theirs.is_chance_node():
                mine, expected = ours.chance_outcomes(), theirs.chance_outcomes()
                assert [a for a, _ in mine] == [a for a, _ in expected], where
                assert [p for _, p in mine] == pytest.approx([p for _, p in expected]), where
                outcomes, weights = zip(*expected)
                action = rng.choices(outcomes, weights)[0]
                ours.apply_action(action)
            else:
                mine = actions(ours, theirs, player, where)
                assert sorted(mine) == theirs.legal_actions(), where
                action = rng.choice(theirs.legal_actions())
                ours.apply_action(mine[action])
            theirs.apply_action(action)
            step += 1
        where = f"{label} game {number}"
        assert ours.is_terminal() and ours.returns() == theirs.returns(), where
        if final is not None:
            final(ours, theirs, where)
        results.add(tuple(theirs.returns()))
    return results
