"""`mcts`: Monte Carlo tree search with the UCT selection rule and uniformly random playouts.

Each iteration walks down the tree choosing the child with the best upper confidence bound,
adds one untried move as a new leaf, plays the game out at random from there, and credits the
result to every node on the way back: 1 to the player who made the node's move if that player
won, 1/2 for a draw (or a playout stopped by the length cap), 0 otherwise. Players are scored
independently, so games with more than two players work too. The move played is the root's
most visited child.

The budget is either `iterations` (the same moves for the same seed, whatever the machine) or
`time` in seconds (depends on the machine's speed, so not reproducible).

`playouts` picks the engine of the random playouts: "python" (the default: the same moves on
every machine), "native" (each playout one call of the game's compiled kernel,
gdef_core.native; the tree stays in Python) or "auto" (native when numba is installed). A game
the native backend cannot compile, or numba missing for "native", falls back to Python after a
one-line notice. Each engine gives the same moves for the same seed; the two differ.
"""
from __future__ import annotations

import math
import random
import time
import weakref

from gdef_core.play.agents import legal_moves
from gdef_core.play.native_sim import native_playout

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = math.sqrt(2)
DEFAULT_PLAYOUT_CAP = 1000  # moves; a playout longer than this counts as a draw
PLAYOUT_ENGINES = ("python", "native", "auto")

# Game -> its NativeRules, or None when it runs on Python: loaded (and the notice said) once
# per process, however many agents gdef-sim builds.
_native_rules: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def native_rules(game, engine: str):
    """The NativeRules mcts plays `game`'s playouts with under `engine`, or None for Python."""
    if engine == "python" or not hasattr(game, "program"):
        return None
    if game not in _native_rules:
        from gdef_core.native import NativeRules, native_available

        if engine == "auto" and not native_available():
            _native_rules[game] = None
        else:
            _native_rules[game] = NativeRules.load(game)
    return _native_rules[game]


class _Node:
    __slots__ = ("move", "mover", "parent", "state", "children", "untried", "visits", "reward")

    def __init__(self, move, mover: int | None, parent: "_Node | None", state) -> None:
        self.move = move
        self.state = state          # the position after `move`, never changed: a walk down
                                    # the tree applies no moves (costly in the Python backend)
        self.mover = mover          # the player who made `move`
        self.parent = parent
        self.children: list[_Node] = []
        self.untried: list | None = None   # filled the first time the node is reached
        self.visits = 0
        self.reward = 0.0


class MctsAgent:
    name = "mcts"

    def __init__(self, seed: int | None = None, *, iterations: int | None = None,
                 time_limit: float | None = None, exploration: float = DEFAULT_EXPLORATION,
                 playout_cap: int = DEFAULT_PLAYOUT_CAP, playouts: str = "python") -> None:
        if playouts not in PLAYOUT_ENGINES:
            raise ValueError(f"playouts={playouts!r}: use one of {', '.join(PLAYOUT_ENGINES)}")
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.playout_cap = playout_cap
        self.playouts = playouts
        self._native = None    # the NativeRules of the game last played, when native
        self.last_iterations = 0  # of the last choose(), for people who ask how hard it looked

    def choose(self, state, stop=None):
        """The most visited move after the budget, or after `stop()` turns true."""
        moves = legal_moves(state)
        self.last_iterations = 0
        if len(moves) == 1:
            return moves[0]
        self._native = native_rules(getattr(state, "game", None), self.playouts)
        root = _Node(None, None, None, state)
        root.untried = moves
        self.rng.shuffle(root.untried)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if stop is not None and stop():
                break
            self._iterate(root)
            done += 1
            self.last_iterations = done
        return max(root.children, key=lambda child: child.visits).move if root.children else moves[0]

    def _iterate(self, root: _Node) -> None:
        node = root
        # Selection: down through fully expanded nodes.
        while not node.untried and node.children:
            node = self._select(node)
        state = node.state
        # Expansion: one new child, unless the game is over here.
        if not state.is_over:
            if node.untried is None:
                node.untried = state.legal_moves()
                self.rng.shuffle(node.untried)
            if node.untried:
                move = node.untried.pop()
                after = state.clone()
                after.apply(move)
                child = _Node(move, state.current_player, node, after)
                node.children.append(child)
                node, state = child, after
        if self._native is not None:
            winner = native_playout(self._native, state, self.rng.getrandbits(64), self.playout_cap)
        else:
            winner = self._playout(state.clone())
        # Backpropagation.
        while node is not None:
            node.visits += 1
            if winner is None:
                node.reward += 0.5
            elif winner == node.mover:
                node.reward += 1.0
            node = node.parent

    def _select(self, node: _Node) -> _Node:
        log_visits = math.log(node.visits)
        c = self.exploration
        best, best_score = None, -1.0
        for child in node.children:
            score = child.reward / child.visits + c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _playout(self, state) -> int | None:
        """Random moves to the end; the winner, or None for a draw, a cap or a stuck player."""
        rng = self.rng
        for _ in range(self.playout_cap):
            if state.is_over:
                return state.winner
            move = state.random_move(rng)
            if move is None:
                return None
            state.apply(move)
        return state.winner if state.is_over else None
