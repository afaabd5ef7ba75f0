"""`mcts`: Monte Carlo tree search with the UCT selection rule and uniformly random playouts.

Each iteration walks down the tree choosing the child with the best upper confidence bound,
adds one untried move as a new leaf, plays the game out at random from there, and credits the
result to every node on the way back: 1 to the player who made the node's move if that player
won, 1/2 for a draw (or a playout stopped by the length cap), 0 otherwise. Players are scored
independently, so games with more than two players work too. The move played is the root's
most visited child.

The budget is a time in seconds (`time`, by default DEFAULT_THINK_SECONDS: a person is waiting;
the moves depend on the machine's speed) or `iterations` (the same moves for the same seed,
whatever the machine). Under a time budget the deadline is also looked at between the moves
of a Python playout, so one long playout (chess) cannot overrun it: a playout cut short is
not counted, and the answer comes within the budget plus one move's work.

Moves that win at once are played without a search: a playout would find them only by luck
when few playouts fit in the budget. A position of more than untried.EAGER_LIMIT legal moves
(a 1000 x 1000 board has two million) is searched without listing them: its moves are drawn
at random as the search tries them (play/untried.py), and one that wins at once is played
when it is tried.

Chance nodes (docs/language.md, "Chance") are expanded by their outcomes: a walk down the tree
draws an outcome by weight there (adding its child the first time it is drawn) instead of
choosing by the bound, and playouts draw outcomes by weight (`State.random_move`).

`playouts` picks the engine of the random playouts: "python" (the same moves on every
machine), "native" (each playout one call of the game's compiled kernel, gdef_core.native,
compiled first if need be; the tree stays in Python) or "auto": native once the compile is
ready, Python meanwhile; the compile runs in the background and never makes a move wait
(play/background_compile.py), and a search switches to native playouts between two
iterations when it becomes ready; a position of more than untried.EAGER_LIMIT legal moves plays
Python playouts, which stop at the deadline (a native playout cannot, and on a 1000 x 1000
board one costs seconds). The default is "auto" under a time budget and "python" with
`iterations`. A game the native backend cannot compile, or numba missing for "native", falls
back to Python after a one-line notice ("auto" falls back silently). Each engine gives the
same moves for the same seed; the two differ.
"""
from __future__ import annotations

import math
import random
import time
import weakref

from gdef_core.play import background_compile
from gdef_core.play.agents import legal_ops
from gdef_core.play.native_sim import native_playout
from gdef_core.play.untried import Untried

DEFAULT_THINK_SECONDS = 2.0   # a move's budget when none is given
DEFAULT_ITERATIONS = 1000     # the budget of a plain `mcts` where runs must repeat (gdef-sim)
DEFAULT_EXPLORATION = math.sqrt(2)
DEFAULT_PLAYOUT_CAP = 1000  # moves; a playout longer than this counts as a draw
PLAYOUT_ENGINES = ("python", "native", "auto")

# Game -> its NativeRules, or None when it runs on Python: loaded (and the notice said) once
# per process, however many agents gdef-sim builds.
_native_rules: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def native_rules(game, engine: str):
    """The NativeRules mcts plays `game`'s playouts with under `engine` ("python" or
    "native", compiling now if need be), or None for Python."""
    if engine == "python" or not hasattr(game, "program"):
        return None
    if game not in _native_rules:
        from gdef_core.native import NativeRules

        _native_rules[game] = NativeRules.load(game)
    return _native_rules[game]


_CUT = object()   # a playout stopped short: the deadline came, or native playouts got ready


class _Node:
    __slots__ = ("move", "mover", "parent", "state", "children", "untried", "visits", "reward", "after")

    def __init__(self, move, mover: int | None, parent: "_Node | None", state) -> None:
        self.move = move
        self.state = state          # the position after `move`, never changed: a walk down
                                    # the tree applies no moves (costly in the Python backend)
        self.mover = mover          # the player who made `move`
        self.parent = parent
        self.children: list[_Node] = []
        self.untried: Untried | None = None   # made the first time the node is reached
        self.after: dict | None = None   # the root's: its untried moves' states, made by choose()
        self.visits = 0
        self.reward = 0.0


class MctsAgent:
    name = "mcts"

    def __init__(self, seed: int | None = None, *, iterations: int | None = None,
                 time_limit: float | None = None, exploration: float = DEFAULT_EXPLORATION,
                 playout_cap: int = DEFAULT_PLAYOUT_CAP, playouts: str | None = None,
                 clock=time.perf_counter) -> None:
        if playouts is None:
            playouts = "python" if iterations is not None else "auto"
        if playouts not in PLAYOUT_ENGINES:
            raise ValueError(f"playouts={playouts!r}: use one of {', '.join(PLAYOUT_ENGINES)}")
        if iterations is None and time_limit is None:
            time_limit = DEFAULT_THINK_SECONDS
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.playout_cap = playout_cap
        self.playouts = playouts
        self.clock = clock     # seconds, for the time budget (tests pass a fake one)
        self._native = None    # the NativeRules of the game last played, when native
        self._waiting_for = None   # the game whose native rules an "auto" search waits for
        self._deadline = None
        self._winning = None   # a root move found to win at once while searching
        self.last_iterations = 0  # of the last choose(), for people who ask how hard it looked
        self.last_engine = "python"  # the last choose()'s playouts: "python", "native" or both
        self._played = {"python": 0, "native": 0}

    def prepare(self, game) -> None:
        """Start now what playing `game` will need: the background work of "auto" playouts
        (loading a cached compile takes a second or two; better while a person thinks)."""
        if self.playouts == "auto" and hasattr(game, "program"):
            background_compile.rules_when_ready(game)

    def choose(self, state, stop=None):
        """The most visited move after the budget, or after `stop()` turns true; a move that
        wins at once without a search."""
        started = self.clock()
        if state.is_chance_node:  # the engine's to resolve; drawn by weight if asked
            return state.sample_chance(self.rng)
        found = legal_ops(state)   # operations: a big board's millions are not all made Moves
        self.last_iterations = 0
        if len(found) == 1:
            return state.moves_of(found)[0]
        root = _Node(None, None, None, state)
        root.untried = Untried(state, self.rng)
        root.after = {}
        game = getattr(state, "game", None)
        # A native playout cannot stop at the deadline, and on a board of a million squares
        # one costs seconds: "auto" plays a big position's playouts in Python.
        engine = "python" if self.playouts == "auto" and not root.untried.drawn_at_once else self.playouts
        waiting = engine == "auto" and hasattr(game, "program")   # for the background compile
        self._native = None if waiting else native_rules(game, engine)
        self._waiting_for = game if waiting else None
        self._played = {"python": 0, "native": 0}
        self._deadline = None if self.time_limit is None else started + self.time_limit
        self._winning = None
        # The states after a small position's moves, made once (in time); a big position's
        # moves are looked at as the search tries them (_iterate), never all.
        for move in root.untried.in_order() if root.untried.drawn_at_once else ():
            if self._deadline is not None and self.clock() >= self._deadline:
                break
            after = state.clone()
            after.apply(move)
            if after.is_over and after.winner == state.current_player:
                return move
            root.after[move] = after
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if self._deadline is not None and self.clock() >= self._deadline:
                break
            if stop is not None and stop():
                break
            if waiting and self._native is None:   # ready since the last iteration?
                self._native = background_compile.rules_when_ready(game)
                if self._native is not None:
                    self._waiting_for = None
            if self._iterate(root):
                done += 1
                self.last_iterations = done
            if self._winning is not None:
                return self._winning
        self.last_engine = " and ".join(engine for engine, count in self._played.items() if count) or "python"
        best = max(root.children, key=lambda child: (child.visits, child.reward), default=None)
        return best.move if best is not None and best.visits else root.untried.fallback()

    def _iterate(self, root: _Node) -> bool:
        """One iteration; False when its playout was cut short (nothing counted)."""
        node = root
        # Selection: down through fully expanded nodes, and through chance nodes by drawing.
        while True:
            if node.state.is_chance_node:
                node = self._chance_child(node)
            elif not node.untried and node.children:
                node = self._select(node)
            else:
                break
        state = node.state
        # Expansion: one new child, unless the game is over here.
        if not state.is_over:
            if node.untried is None:
                node.untried = Untried(state, self.rng)
            if node.untried:
                move = node.untried.pop()
                after = root.after.pop(move, None) if node is root else None
                if after is None:
                    after = state.clone()
                    after.apply(move)
                    if node is root and after.is_over and after.winner == state.current_player:
                        self._winning = move   # wins at once (a big position's, met as tried)
                        return False
                child = _Node(move, state.current_player, node, after)
                node.children.append(child)
                node, state = child, after
        if self._native is not None:
            winner = native_playout(self._native, state, self.rng.getrandbits(64), self.playout_cap)
            self._played["native"] += 1
        else:
            winner = self._playout(state.clone())
            if winner is _CUT:
                if node.visits == 0 and node.parent is not None:   # take the new leaf back
                    node.parent.children.remove(node)
                    if node.parent.untried is not None:   # (a chance node's child is drawn again)
                        node.parent.untried.put_back(node.move)
                    if node.parent is root:
                        root.after[node.move] = node.state
                return False
            self._played["python"] += 1
        # Backpropagation.
        while node is not None:
            node.visits += 1
            if winner is None:
                node.reward += 0.5
            elif winner == node.mover:
                node.reward += 1.0
            node = node.parent
        return True

    def _chance_child(self, node: _Node) -> _Node:
        """The child of chance node `node` for an outcome drawn by weight, added when new."""
        move = node.state.sample_chance(self.rng)
        for child in node.children:
            if child.move == move:
                return child
        after = node.state.clone()
        after.apply(move)
        child = _Node(move, None, node, after)
        node.children.append(child)
        return child

    def _select(self, node: _Node) -> _Node:
        log_visits = math.log(node.visits)
        c = self.exploration
        best, best_score = None, -1.0
        for child in node.children:
            score = child.reward / child.visits + c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _playout(self, state):
        """Random moves to the end; the winner, or None for a draw, a cap or a stuck player;
        _CUT when the deadline came first, or when the native rules an "auto" search waits for
        got ready (a Python playout of Go 19 x 19 takes about a second: the search switches at
        once instead of finishing it)."""
        rng, clock, deadline, waiting_for = self.rng, self.clock, self._deadline, self._waiting_for
        for _ in range(self.playout_cap):
            if state.is_over:
                return state.winner
            if deadline is not None and clock() >= deadline:
                return _CUT
            if waiting_for is not None:
                rules = background_compile.rules_when_ready(waiting_for)
                if rules is not None:
                    self._native, self._waiting_for = rules, None
                    return _CUT
            move = state.random_move(rng)
            if move is None:
                return None
            state.apply(move)
        return state.winner if state.is_over else None
