"""A game's rules as numba code: random playouts and perft run whole in compiled code.

    native = NativeRules.load(game, notify=print)   # None (after a one-line notice) when
                                                    # numba is missing or the game cannot compile
    outcomes = native.play(range(1000), seed=0, max_moves=10_000)
    native.perft(game.new_state(), 4)
    native.playout(state, seed=2**63 + 5, max_moves=1000)   # one game's winner, for mcts
    native.legal_moves(state); native.judge(state, ["place(0,0,X)"])   # [True | False | None]

Game k of a run seeded S draws its moves from the seed of player 0's agent in the Python
simulation (simulate.game_seed(S, k, 0)), so it is the same game whichever process plays it.
A game that stops on a run-time error, a limit, or a player without a legal move is replayed
move by move through the Python backend, which raises the usual located error (a game the
native buffers cannot hold is finished there too): numba's own messages never reach users.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

try:
    import numpy as np
except ImportError:  # numpy comes with numba (gdef[fast])
    np = None

from gdef_core.native.codegen import CAP_MOVES, CAP_OPS, NativeUnsupported, native_source, var_layout

Notify = Callable[[str], None]
ENDED, CAPPED, NO_MOVE, FAILED = 0, 1, 2, 3


def numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


class NativeRules:
    """The compiled kernels of one Game, with conversions from and to its states."""

    def __init__(self, game, module, int_scores: bool) -> None:
        self.game = game
        self.module = module
        self.int_scores = int_scores
        self.codes = {obj: i + 1 for i, obj in enumerate(game.objects.values())}
        self.codes[game.empty] = 0
        self.by_code = [game.empty, *game.objects.values()]
        self.layout = var_layout(game.program)
        self._one = None
        self._work = None
        self._hs = np.zeros(module.HSIZE, np.int64)   # the kernels' history and scratch (HS)
        self._rows: dict[int, tuple] = {}   # id(History) -> (History, its key as a row)

    @classmethod
    def load(cls, game, notify: Notify | None = _stderr) -> "NativeRules | None":
        """The native rules of `game`, compiled on first use and cached on disk; None, after a
        one-line notice, when numba is missing or the game uses what the backend lacks."""
        say = notify or (lambda message: None)
        if not numba_available():
            say("gdef: numba is not installed (pip install 'gdef[fast]'): using the Python backend")
            return None
        try:
            source, int_scores, cached = native_source(game.program, game.max_steps, game.max_depth)
        except NativeUnsupported as why:
            where = f" ({why.span})" if why.span is not None else ""
            say(f"gdef: the native backend cannot compile {game.name}: {why.what}{where}; "
                "using the Python backend")
            return None
        from gdef_core.native.cache import is_compiled, load_module, module_path

        if not cached:
            say(f"gdef: compiling rules for {game.name} (their recursion is not cached: in every run) ...")
        elif not is_compiled(module_path(source)):
            say(f"gdef: compiling rules (once) for {game.name} ...")
        module, _ = load_module(source)
        rules = cls(game, module, int_scores)
        try:
            rules.play(range(1), seed=0, max_moves=1)  # compiles (or loads) the playout kernel
        except Exception as error:  # numba's typing and lowering errors are many classes
            say(f"gdef: the native backend cannot compile {game.name} ({type(error).__name__}); "
                "using the Python backend")
            return None
        return rules

    # ------------------------------------------------------------ states

    def arrays(self, state) -> tuple:
        """(board, V, VF, SC) of a state as the kernels read them."""
        codes = self.codes
        board = np.array([codes[obj] for obj in state._board], dtype=np.int64)
        ints: list = []
        floats: list = []
        for slot, value in zip(self.layout.values(), state._vars):
            (floats if slot.floats else ints).extend(self._flat(slot, value))
        V = np.array(ints, dtype=np.int64)
        VF = np.array(floats, dtype=np.float64)
        SC = np.array(state._scores, dtype=np.float64)
        return board, V, VF, SC

    def _flat(self, slot, value) -> list:
        """A game variable's value as the kernel stores it: ints (an obj as its code, a
        bool as 0 or 1) or floats, an array row by row."""
        if len(slot.sizes) == 2:
            value = [item for row in value for item in row]
        elif not slot.sizes:
            value = [value]
        if slot.floats:
            return [float(v) for v in value]
        if slot.kind == "obj":
            return [self.codes[v] for v in value]
        return [int(v) for v in value]

    def values(self, V, VF) -> list:
        """The other way: the kernel's V and VF as a state's game variables."""
        out = []
        for slot in self.layout.values():
            store = VF if slot.floats else V
            flat = [store[slot.offset + k] for k in range(slot.count)]
            items = [float(v) if slot.floats else self.by_code[int(v)] if slot.kind == "obj"
                     else bool(v) if slot.kind == "bool" else int(v) for v in flat]
            if not slot.sizes:
                out.append(items[0])
            elif len(slot.sizes) == 1:
                out.append(items)
            else:
                n = slot.sizes[1]
                out.append([items[i:i + n] for i in range(0, len(items), n)])
        return out

    def history_rows(self, state):
        """The positions of the state's history (oldest first, its own last) as the kernels'
        keys (kernels/history.py); each History's key is converted once (a bounded cache)."""
        module = self.module
        history = state._history
        if not module.USES_HISTORY:
            return np.zeros((0, module.KEYLEN), np.int64)
        if history is None:   # a state kept without its history: it starts here
            key = self.game.rules.position_key(state._board, state.player, state._vars)
            return self._key_of(key)[None, :]
        if len(self._rows) > 8192:
            self._rows.clear()
        rows = []
        node = history
        while node is not None:
            entry = self._rows.get(id(node))
            if entry is None:
                entry = self._rows[id(node)] = (node, self._key_of(node.key))
            rows.append(entry[1])
            node = node.parent
        rows.reverse()
        return np.stack(rows)

    def _key_of(self, key: tuple):
        """One position (board, player, compared variables) as a kernel key."""
        board, player, values = key
        row = [self.codes[obj] for obj in board]
        row.append(player)
        compared = [slot for slot in self.layout.values() if not slot.counter]
        for slot, value in zip(compared, values):
            flat = self._flat(slot, value)
            if slot.floats:   # the bits of the float, 0.0 for -0.0 (they are equal)
                flat = list(np.array([v + 0.0 for v in flat], np.float64).view(np.int64))
            row.extend(flat)
        return np.array(row, dtype=np.int64)

    def ops_of(self, rows) -> tuple:
        """Kernel operations (x, y, code, place) as the Python backend's resolved operations."""
        return tuple((int(x), int(y), self.by_code[int(o)], bool(p)) for x, y, o, p in rows)

    # ------------------------------------------------------------ playouts

    def play(self, indexes: Iterable[int], seed: int, max_moves: int | None, state=None) -> list:
        """The outcomes (simulate.GameOutcome) of random games `indexes` of a run seeded
        `seed`, from `state` (default: the start). The entry of a game that fails is the
        error the Python backend raised there (GdefRuntimeError, IllegalMoveError or
        NoLegalMoveError)."""
        from gdef_core.play.simulate import GameOutcome, game_seed

        indexes = list(indexes)
        start = state if state is not None else self.game.new_state()
        if start.is_over:
            return [GameOutcome(i, start.winner, 0, False, tuple(start.scores)) for i in indexes]
        seeds = np.array([game_seed(seed, i, 0) for i in indexes], dtype=np.uint64)
        results = self._run(seeds, start, max_moves, record=False)
        winners, lengths, status, scores = results[:4]
        outcomes = []
        for k, index in enumerate(indexes):
            state_k = int(status[k])
            if state_k in (ENDED, CAPPED):
                winner = int(winners[k])
                outcomes.append(GameOutcome(index, winner if winner >= 0 and state_k == ENDED else None,
                                            int(lengths[k]), state_k == CAPPED, self._scores(scores[k])))
            else:
                outcomes.append(self._replayed(index, seeds[k:k + 1], seed, max_moves, start))
        return outcomes

    def playout(self, state, seed: int, max_moves: int | None) -> int | None:
        """The winner of one random game from `state`, its moves drawn from the 64-bit `seed`
        (mcts's playouts); None for a draw, the `max_moves` cap or a player without a legal
        move, as in mcts's Python playouts. A game that stops on a run-time error or a limit
        is replayed through the Python backend, which raises the located error."""
        from gdef_core.play.errors import NoLegalMoveError

        if state.is_over:
            return state.winner
        if self._one is None:   # the kernel's outputs for one game, reused by every call
            self._one = (np.empty(1, np.uint64), np.empty(1, np.int64), np.empty(1, np.int64),
                         np.empty(1, np.int64), np.empty((1, self.game.players), np.float64),
                         np.empty((1, 4), np.int64), np.zeros(1, np.int64))
        seeds, winners, lengths, status, scores, rec_ops, rec_starts = self._one
        seeds[0] = seed
        board, V, VF, SC = self.arrays(state)
        self.module.playouts(seeds, board, state.player, state.move_number, V, VF, SC,
                             -1 if max_moves is None else max_moves, winners, lengths, status,
                             scores, False, rec_ops, rec_starts, *self.workspace(),
                             self.history_rows(state), self._hs)
        code = int(status[0])
        if code == ENDED:
            return int(winners[0]) if winners[0] >= 0 else None
        if code != FAILED:
            return None
        try:
            return self.replay(0, seeds.copy(), seed, max_moves, state).winner
        except NoLegalMoveError:
            return None

    def _replayed(self, index: int, seeds, seed: int, max_moves, start):
        """replay()'s outcome, or the error that stopped the game."""
        from gdef_core.play.errors import AgentError
        from gdef_core.runtime import GdefRuntimeError, IllegalMoveError

        try:
            return self.replay(index, seeds, seed, max_moves, start)
        except (GdefRuntimeError, AgentError, IllegalMoveError) as error:
            return error

    def _scores(self, row) -> tuple:
        return tuple(int(v) if self.int_scores and float(v).is_integer() else float(v) for v in row)

    def workspace(self) -> tuple:
        """The kernel's working buffers (candidate operations and starts, the draw order, the
        move played), made once: mcts calls the kernel for one short game at a time, and
        making 4 MB of buffers per call cost about as much as the game (kernels/kernel.py: playouts)."""
        if self._work is None:
            self._work = (np.empty((CAP_OPS, 4), np.int64), self.module._starts(),
                          np.empty(CAP_MOVES, np.int64), np.empty((CAP_OPS, 4), np.int64))
        return self._work

    def _run(self, seeds, start, max_moves, record: bool):
        board, V, VF, SC = self.arrays(start)
        n = len(seeds)
        winners = np.empty(n, np.int64)
        lengths = np.empty(n, np.int64)
        status = np.empty(n, np.int64)
        scores = np.empty((n, self.game.players), np.float64)
        rec_ops = np.empty((CAP_OPS if record else 1, 4), np.int64)
        rec_starts = np.zeros(CAP_MOVES if record else 1, np.int64)
        recorded = self.module.playouts(seeds, board, start.player, start.move_number, V, VF, SC,
                                        -1 if max_moves is None else max_moves, winners, lengths,
                                        status, scores, record, rec_ops, rec_starts, *self.workspace(),
                                        self.history_rows(start), self._hs)
        return winners, lengths, status, scores, recorded, rec_ops, rec_starts

    def replay(self, index: int, seeds, seed: int, max_moves: int | None, start):
        """Game `index` again, natively with its moves recorded, then those moves through the
        Python backend, and on from there with Python random players: the step that failed
        natively fails there with the located error (or, when only a native buffer was too
        small, the game ends normally)."""
        from gdef_core.play.agents import RandomAgent
        from gdef_core.play.simulate import game_seed, play_on

        *_, recorded, rec_ops, rec_starts = self._run(seeds, start, max_moves, record=True)
        state = start.clone()
        length = 0
        for k in range(recorded):
            rows = rec_ops[int(rec_starts[k]):int(rec_starts[k + 1])]
            state.apply(self.game.to_move(self.ops_of(rows)))
            length += 1
        agents = [RandomAgent(game_seed(seed, index, p)) for p in range(self.game.players)]
        return play_on(state, agents, index, length, max_moves)

    # ------------------------------------------------------------ moves

    def legal_moves(self, state) -> list:
        """state.legal_moves(), found natively (the kernel of perft), in the same order. Where
        the native run stops (moves() fails, a limit, a buffer too small), the Python backend
        lists them or raises the located error."""
        if state.is_over:
            return []
        board, V, VF, SC = self.arrays(state)
        CO, CS, order, MV = self.workspace()
        found = (MV, order)  # free outside playouts(); read into Moves before the next call
        try:
            if self.module.USES_HISTORY:  # the state's positions, for nextBoardSeen()
                self.module._hist_load(self._hs, self.history_rows(state))
                if self._hs[1] < 0:  # _HN0: more positions than the kernel holds
                    return state.legal_moves()
            n = self.module._legal_into(board, np.zeros(self.module.NSLOTS, np.int64), V, VF, SC, CO, CS,
                                        state.player, state.move_number, *found, self._hs)
        except RuntimeError:  # kernels/helpers.py: _fail(): a run-time error or limit
            return state.legal_moves()
        ops, starts = found
        return [self.game.to_move(self.ops_of(ops[starts[k]:starts[k + 1]])) for k in range(n)]

    def judge(self, state, moves) -> list:
        """Whether each of `moves` (Moves or their text) is legal in `state`, by isMoveLegal()
        run natively as State.check runs it (end() does not run): True, False, or None where
        the native run stopped (a run-time error, a limit, isGenerated()), for which
        State.check(move) gives the verdict and the located error. All False once the game
        is over; a move that does not fit the game raises ValueError with the reason."""
        from gdef_core.runtime.moves import Move

        rows, starts = [], [0]
        for move in moves:
            verdict = self.game.resolve(Move.parse(move) if isinstance(move, str) else move)
            if not verdict:
                raise ValueError(verdict.reason)
            rows.extend((x, y, self.codes[obj], int(place)) for x, y, obj, place in verdict.ops)
            starts.append(len(rows))
        if state.is_over:
            return [False] * (len(starts) - 1)
        board, V, VF, SC = self.arrays(state)
        verdicts = np.empty(len(starts) - 1, np.int64)
        self.module.judge(board, state.player, state.move_number, V, VF, SC,
                          np.array(rows, np.int64).reshape(-1, 4), np.array(starts, np.int64), verdicts,
                          self.history_rows(state), self._hs)
        return [None if v < 0 else bool(v) for v in verdicts]

    # ------------------------------------------------------------ perft

    def perft(self, state, depth: int) -> list[int]:
        """The same counts as gdef_core.play.perft.perft; a failure of moves() there is left
        to the Python backend, which reports it located."""
        counts = np.zeros(max(depth, 0), np.int64)
        if depth <= 0 or state.is_over:
            return [0] * max(depth, 0)
        board, V, VF, SC = self.arrays(state)
        try:
            self.module.perft(board, state.player, state.move_number, V, VF, SC, depth, counts,
                              self.history_rows(state), self._hs)
        except RuntimeError:  # kernels/helpers.py: _fail(): a run-time error or limit (not a compile error)
            from gdef_core.play.perft import perft
            return perft(state, depth)
        return [int(c) for c in counts]
