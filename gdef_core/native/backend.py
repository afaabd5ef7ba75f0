"""A game's rules as numba code: the compiled-rules adapter of the native backend.

    native = NativeRules.load(game, notify=print)   # None (after a one-line notice) when
                                                    # numba is missing or the game cannot compile
    native.legal_moves(state); native.judge(state, ["place(0,0,X)"])   # [True | False | None]
    native.chance_outcomes(state)                     # at a chance node: [(Move, weight), ...]
    native.perft(game.new_state(), 4)
    native.playouts(seeds, state, max_moves=10_000)   # random games, one per 64-bit seed
    native.playout(state, seed, max_moves=1000)       # one game, (status, winner), for mcts
    native.simulate(seed, 0, 100_000, state, 10_000)  # gdef-sim's games 0 .. 99,999, added up
    native.recorded_moves(seed, state, max_moves)     # the moves of one of those games

It answers what the rules say, from and to the states of the Python backend; what to do with
a game that stopped (ENDED, CAPPED, NO_MOVE, FAILED) is gdef_core.play's (native_sim.py replays
a failed game through the Python backend, which raises the usual located error): numba's own
messages never reach users. Where a native run stops on a run-time error or a limit, the
legal moves and the perft counts are the Python backend's, which raises the located error; so
are all answers for a state the kernels would misread (compiled_for: a state set by hand with
another value in an array the C route compiled as a constant table).

What gdef-sim needs of compiled rules, for any backend that offers the same methods
(`simulate`, and `recorded_moves` for the games it leaves to Python): game g of a run seeded
S is played from one splitmix64 stream (kernels/kernel.py: _rand) seeded with
games.kernel_seed(S, g, 0); each turn draws the candidates without replacement, index
int(draw * left) into the shrinking list (the last one moved into the hole), until
isMoveLegal() accepts one; `simulate` adds up the games that ended or reached the cap
(Totals) and lists the others in `left`, in order; `recorded_moves(kernel_seed(S, g, 0), ...)`
gives the moves of game g up to where it stopped. Game g then depends on (S, g) alone, so the
table does not depend on how the games are cut into calls or processes. A chance node draws
one number from the same stream and plays the first outcome whose running sum of weights
exceeds int(draw * total weight) (kernels/kernel.py: _pick); it counts as one move.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NamedTuple

try:
    import numpy as np
except ImportError:  # numpy comes with numba (gdef[fast])
    np = None

from gdef_core.cnative.library import (
    CompileFailed, CUnsupported, c_compiler_available, c_library_cached, c_source, load_c_rules,
)
from gdef_core.lower.layout import keyed_slots
from gdef_core.native.codegen import CAP_MOVES, CAP_OPS, NativeUnsupported, native_source, var_layout

Notify = Callable[[str], None]
# How a game of the playout kernel stopped: end() ended it, the move cap, a player without a
# legal move, a run-time error or a limit (or a native buffer too small).
ENDED, CAPPED, NO_MOVE, FAILED = 0, 1, 2, 3


class Playouts(NamedTuple):
    """The kernel's results, one row per seed: the winner (-1 for none), moves played, the
    status (ENDED ...) and each player's score."""

    winners: object
    lengths: object
    status: object
    scores: object


class Totals(NamedTuple):
    """What games first .. stop - 1 of a gdef-sim run add to its table, added up in the
    kernel (no row per game): the games it finished (ended or capped), each player's wins,
    draws, capped games, the sum and maximum of their lengths, each player's summed scores;
    and `left`, the indexes of the games it did not finish (no legal move, a run-time error
    or a limit, a buffer too small), in order, for the Python backend to replay."""

    games: int
    wins: list
    draws: int
    capped: int
    total_length: int
    max_length: int
    total_scores: list
    left: list


def numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


# How the rules are compiled (docs/performance.md, "Two routes"): "c" by the system C compiler
# (gdef_core/cnative: seconds), "numba" (tens of seconds, cached on disk), "auto" C where a C
# compiler exists, else numba. GDEF_NATIVE_ROUTE overrides the default.
ROUTES = ("auto", "c", "numba")
DEFAULT_ROUTE = "auto"


def native_route() -> str:
    route = os.environ.get("GDEF_NATIVE_ROUTE", DEFAULT_ROUTE)
    return route if route in ROUTES else DEFAULT_ROUTE


def c_route_source(game):
    """The C source (cnative's CSource) NativeRules.load compiles for `game` on the C route, or
    None when it takes another: no numpy or C compiler, GDEF_NATIVE_ROUTE=numba, or a construct
    the C emitter lacks. Quick: nothing is compiled."""
    if np is None or native_route() == "numba" or not hasattr(game, "program") or not c_compiler_available():
        return None
    try:
        return c_source(game.program, game.max_steps, game.max_depth)
    except CUnsupported:
        return None


def native_available() -> bool:
    """Whether some route can compile rules here (numpy and a C compiler, or numba)."""
    if np is None:
        return False
    route = native_route()
    return (route != "numba" and c_compiler_available()) or (route != "c" and numba_available())


def _chance(state) -> bool:
    """Whether `state` is a chance node (its next move is chance's)."""
    return bool(state.is_chance_node)


def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


class NativeRules:
    """The compiled kernels of one Game, with conversions from and to its states."""

    def __init__(self, game, module, int_scores: bool, tables: dict[str, tuple[int, ...]] | None = None) -> None:
        self.game = game
        self.module = module
        self.int_scores = int_scores
        self.codes = {obj: i + 1 for i, obj in enumerate(game.objects.values())}
        self.codes[game.empty] = 0
        self.by_code = [game.empty, *game.objects.values()]
        self.layout = var_layout(game.program)
        # The slots of V the kernels read from constant tables instead (the C route: CSource.tables)
        # and the values compiled in: a state holding others there is answered by the Python backend.
        tables = tables or {}
        self._table_slots = np.array([self.layout[name].offset + k for name, values in tables.items()
                                      for k in range(len(values))], np.int64)
        self._table_values = np.array([value for values in tables.values() for value in values], np.int64)
        # the variables of a history key (lower/layout.py's keyed_slots), each with its place
        # among those a position's key compares (the variables not declared `counter`)
        compared = [name for name, slot in self.layout.items() if not slot.counter]
        keyed = keyed_slots(self.layout, tables)
        self._keyed = [(k, keyed[name]) for k, name in enumerate(compared) if name in keyed]
        self._one = None
        self._work = None
        self._hs = np.zeros(module.HSIZE, np.int64)   # the kernels' history and scratch (HS)
        self._rows: dict[int, tuple] = {}   # id(History) -> (History, its key as a row)
        self.compiled = False   # load() compiled the rules in this run (else the disk cache had them)
        self.route = "numba"    # which route compiled them: "c" or "numba"

    @classmethod
    def load(cls, game, notify: Notify | None = _stderr, kernel: str = "playouts",
             route: str | None = None) -> "NativeRules | None":
        """The native rules of `game`, compiled on first use and cached on disk; None, after a
        one-line notice, when no route can compile them (no C compiler and no numba) or the
        game uses what the backend lacks. `route`: native_route()'s by default. `kernel`
        (numba): the entry point made ready here (compiled, or loaded from the cache), so that
        its time is the load's: "playouts" (mcts, perft's caller) or "simulate" (gdef-sim);
        the C route compiles every kernel at once."""
        say = notify or (lambda message: None)
        route = route or native_route()
        if np is not None and route != "numba" and c_compiler_available():
            rules = cls._load_c(game, say, fallback=route == "auto")
            if rules is not None or route == "c":
                return rules
        if route == "c":
            say("gdef: no C compiler found (cc, gcc or clang; or set CC): using the Python backend")
            return None
        if not numba_available():
            say("gdef: numba is not installed (pip install 'gdef[fast]'): using the Python backend")
            return None
        return cls._load_numba(game, say, kernel)

    @classmethod
    def _load_c(cls, game, say: Notify, fallback: bool) -> "NativeRules | None":
        """Through the system C compiler (gdef_core/cnative); None when the game uses what the
        C emitter lacks or the compiler fails: said, unless the numba route is tried next
        (`fallback`)."""
        try:
            source = c_source(game.program, game.max_steps, game.max_depth)
            if not c_library_cached(source):
                say(f"gdef: compiling rules (once) for {game.name} ...")
            module, compiled = load_c_rules(source)
        except CUnsupported as why:
            if not fallback:
                where = f" ({why.span})" if why.span is not None else ""
                say(f"gdef: the native backend cannot compile {game.name}: {why.what}{where}; "
                    "using the Python backend")
            return None
        except (CompileFailed, OSError) as error:
            if not fallback:
                say(f"gdef: the C compiler failed on {game.name} ({error}); using the Python backend")
            return None
        rules = cls(game, module, source.int_scores, source.tables)
        rules.compiled = compiled
        rules.route = "c"
        return rules

    @classmethod
    def _load_numba(cls, game, say: Notify, kernel: str) -> "NativeRules | None":
        try:
            source, int_scores, cached = native_source(game.program, game.max_steps, game.max_depth)
        except NativeUnsupported as why:
            where = f" ({why.span})" if why.span is not None else ""
            say(f"gdef: the native backend cannot compile {game.name}: {why.what}{where}; "
                "using the Python backend")
            return None
        from gdef_core.native.cache import is_compiled, load_module, module_path

        compiling = not cached or not is_compiled(module_path(source))
        if not cached:
            say(f"gdef: compiling rules for {game.name} (their recursion is not cached: in every run) ...")
        elif compiling:
            say(f"gdef: compiling rules (once) for {game.name} ...")
        module, _ = load_module(source)
        rules = cls(game, module, int_scores)
        rules.compiled = compiling
        rules.route = "numba"
        start = game.new_state()
        try:
            if start.is_over:
                pass
            elif kernel == "simulate":   # compiles (or loads) gdef-sim's kernel
                rules.simulate(0, 0, 1, start, max_moves=1)
            else:   # the playout kernel
                rules.playouts(np.zeros(1, np.uint64), start, max_moves=1)
        except Exception as error:  # numba's typing and lowering errors are many classes
            say(f"gdef: the native backend cannot compile {game.name} ({type(error).__name__}); "
                "using the Python backend")
            return None
        return rules

    # ------------------------------------------------------------ states

    def arrays(self, state) -> tuple:
        """(board, V, VF, SC) of a state as the kernels read them."""
        board = np.array(self._board_row(state._board), dtype=np.int64)
        ints: list = []
        floats: list = []
        for slot, value in zip(self.layout.values(), state._vars):
            (floats if slot.floats else ints).extend(self._flat(slot, value))
        V = np.array(ints, dtype=np.int64)
        VF = np.array(floats, dtype=np.float64)
        SC = np.array(state._scores, dtype=np.float64)
        return board, V, VF, SC

    def compiled_for(self, V) -> bool:
        """Whether the kernels read the state whose game variables are V (arrays()) as it is:
        false where it holds another value than the compiled one in an array the C route reads
        from a constant table (never written by the rules, so only a state set by hand: the
        protocol's `set`, State.from_json, a test's `# var:`). Such a state, and every position
        played from it, is answered by the Python backend, as where a native run stops."""
        return bool(np.array_equal(V[self._table_slots], self._table_values))

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
            key = self.game.rules.position_key(state._board, state.player, state._vars, state.chance)
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
        """One position (board, player, compared variables) as a kernel key. Its chance flag is
        always false: a game with chance and a history plays on Python (codegen refuses it)."""
        board, player, values, _chance = key
        row = self._board_row(board)
        row.append(player)
        for k, slot in self._keyed:
            value = values[k]
            flat = self._flat(slot, value)
            if slot.floats:   # the bits of the float, 0.0 for -0.0 (they are equal)
                flat = list(np.array([v + 0.0 for v in flat], np.float64).view(np.int64))
            row.extend(flat)
        return np.array(row, dtype=np.int64)

    def _board_row(self, board) -> list:
        """A board as the kernels hold it: each object's code, then (a game whose squares
        count, runtime/counts.py) the counts as they are."""
        size = self.game.width * self.game.height
        codes = self.codes
        return [codes[obj] for obj in board[:size]] + [int(n) for n in board[size:]]

    def ops_of(self, rows) -> tuple:
        """Kernel operations (x, y, code, place) as the Python backend's resolved operations;
        place 2 is count(x, y, n), its n in the code's place."""
        empty = self.game.empty
        return tuple((int(x), int(y), empty, False, int(o)) if p == 2 else (int(x), int(y), self.by_code[int(o)], bool(p))
                     for x, y, o, p in rows)

    # ------------------------------------------------------------ playouts

    def playouts(self, seeds, start, max_moves: int | None) -> Playouts:
        """Random games from `start`, the moves of each drawn from its 64-bit seed (a uint64
        array), to the end, the `max_moves` cap or where the kernel stops."""
        return Playouts(*self._run(seeds, start, max_moves, record=False)[:4])

    def playout(self, state, seed: int, max_moves: int | None) -> tuple[int, int]:
        """(status, winner) of one random game from `state`, its moves drawn from `seed`, with
        the kernel's outputs made once for every call (mcts plays one short game at a time)."""
        if self._one is None:
            self._one = (np.empty(1, np.uint64), np.empty(1, np.int64), np.empty(1, np.int64),
                         np.empty(1, np.int64), np.empty((1, self.game.players), np.float64),
                         np.empty((1, 4), np.int64), np.zeros(1, np.int64))
        seeds, winners, lengths, status, scores, rec_ops, rec_starts = self._one
        seeds[0] = seed
        board, V, VF, SC = self.arrays(state)
        if not self.compiled_for(V):   # the caller replays it through the Python backend
            return FAILED, -1
        self.module.playouts(seeds, board, state.player, state.move_number, V, VF, SC,
                             -1 if max_moves is None else max_moves, winners, lengths, status,
                             scores, False, rec_ops, rec_starts, *self.workspace(),
                             self.history_rows(state), self._hs, _chance(state))
        return int(status[0]), int(winners[0])

    def simulate(self, seed: int, first: int, stop: int, start, max_moves: int | None) -> Totals:
        """Random games first .. stop - 1 of a run seeded `seed` from `start`, game g's moves
        drawn from gdef_core.play.games.kernel_seed(seed, g, 0) (derived in the kernel), to
        their end or the `max_moves` cap, added up."""
        m = self.module
        players = self.game.players
        T = np.zeros(m._TWINS + players, np.int64)
        TS = np.zeros(players, np.float64)
        odd = np.empty(max(stop - first, 0), np.int64)
        board, V, VF, SC = self.arrays(start)
        if not self.compiled_for(V):   # every game is left to the Python backend
            return Totals(0, [0] * players, 0, 0, 0, 0, list(self.scores(TS)), list(range(first, stop)))
        m.simulate(np.uint64(seed % 2**64), first, stop, board, start.player, start.move_number,
                   V, VF, SC, -1 if max_moves is None else max_moves, T, TS, odd, *self.workspace(),
                   self.history_rows(start), self._hs, _chance(start))
        return Totals(int(T[m._TGAMES]), [int(w) for w in T[m._TWINS:]], int(T[m._TDRAWS]),
                      int(T[m._TCAPPED]), int(T[m._TLEN]), int(T[m._TMAX]), list(self.scores(TS)),
                      [int(g) for g in odd[:T[m._TODD]]])

    def recorded_moves(self, seed: int, start, max_moves: int | None) -> list:
        """The moves the kernel plays in the game of `seed` from `start`, up to where it stops
        (those of a failed game, to replay through the Python backend)."""
        seeds = np.array([seed], dtype=np.uint64)
        *_, recorded, rec_ops, rec_starts = self._run(seeds, start, max_moves, record=True)
        return [self.game.to_move(self.ops_of(rec_ops[int(rec_starts[k]):int(rec_starts[k + 1])]))
                for k in range(recorded)]

    def scores(self, row) -> tuple:
        """A row of the kernel's scores as the Python backend gives them (ints when the game's
        scores are)."""
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
        if not self.compiled_for(V):   # no game played: each is left to the Python backend
            winners.fill(-1)
            lengths.fill(0)
            status.fill(FAILED)
            scores.fill(0.0)
            return winners, lengths, status, scores, 0, rec_ops, rec_starts
        recorded = self.module.playouts(seeds, board, start.player, start.move_number, V, VF, SC,
                                        -1 if max_moves is None else max_moves, winners, lengths,
                                        status, scores, record, rec_ops, rec_starts, *self.workspace(),
                                        self.history_rows(start), self._hs, _chance(start))
        return winners, lengths, status, scores, recorded, rec_ops, rec_starts

    # ------------------------------------------------------------ moves

    def legal_moves(self, state) -> list:
        """state.legal_moves(), found natively (the kernel of perft), in the same order. Where
        the native run stops (moves() fails, a limit, a buffer too small), the Python backend
        lists them or raises the located error."""
        if state.is_over:
            return []
        if _chance(state):
            return [move for move, _ in self.chance_outcomes(state)]
        board, V, VF, SC = self.arrays(state)
        if not self.compiled_for(V):
            return state.legal_moves()
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

    def chance_outcomes(self, state) -> list:
        """state.chance_outcomes() found natively: at a chance node, its outcomes and their
        integer weights in the order chance() proposed them, identical ones merged; [] at a
        player's turn or once the game is over. Where the native run stops (chance() fails or
        proposes nothing), the Python backend answers or raises the located error."""
        if state.is_over or not _chance(state):
            return []
        found = self._outcome_rows(state)
        if found is None:   # the native run stopped: the Python backend answers or raises the located error
            return state.chance_outcomes()
        return [(self.game.to_move(self.ops_of(ops)), weight) for ops, weight in found]

    def _outcome_rows(self, state) -> list | None:
        """The kernel's outcomes at chance node `state`: (operations as kernel rows, weight)
        each; None where the native run stopped."""
        board, V, VF, SC = self.arrays(state)
        if not self.compiled_for(V):
            return None
        CO, CS, order, MV = self.workspace()
        weights = np.empty(CAP_MOVES, np.int64)
        try:
            n = self.module._outcomes_into(board, np.zeros(self.module.NSLOTS, np.int64), V, VF, SC, CO, CS,
                                           state.player, state.move_number, MV, order, weights, self._hs)
        except RuntimeError:  # kernels/helpers.py: _fail(): a run-time error or limit
            return None
        return [(MV[order[k]:order[k + 1]].copy(), int(weights[k])) for k in range(n)]

    def judge(self, state, moves) -> list:
        """Whether each of `moves` (Moves or their text) is legal in `state`, by isMoveLegal()
        run natively as State.check runs it (end() does not run): True, False, or None where
        the native run stopped (a run-time error, a limit, isGenerated()), for which
        State.check(move) gives the verdict and the located error. All False once the game
        is over; a move that does not fit the game raises ValueError with the reason."""
        from gdef_core.moves import Move

        rows, starts = [], [0]
        for move in moves:
            verdict = self.game.resolve(Move.parse(move) if isinstance(move, str) else move)
            if not verdict:
                raise ValueError(verdict.reason)
            rows.extend((op[0], op[1], op[4], 2) if len(op) > 4 else (op[0], op[1], self.codes[op[2]], int(op[3]))
                        for op in verdict.ops)
            starts.append(len(rows))
        if state.is_over:
            return [False] * (len(starts) - 1)
        if _chance(state):   # a chance node: its outcomes are its legal moves (isMoveLegal() does not judge),
            from gdef_core.runtime.chance import effect   # in any order of their operations

            found = self._outcome_rows(state)
            if found is None:   # the native run stopped: State.check gives the verdict
                return [None] * (len(starts) - 1)
            outcomes = {effect(self.ops_of(ops)) for ops, _ in found}
            return [effect(self.ops_of(rows[a:b])) in outcomes for a, b in zip(starts, starts[1:])]
        board, V, VF, SC = self.arrays(state)
        if not self.compiled_for(V):   # State.check gives the verdicts
            return [None] * (len(starts) - 1)
        verdicts = np.empty(len(starts) - 1, np.int64)
        self.module.judge(board, state.player, state.move_number, V, VF, SC,
                          np.array(rows, np.int64).reshape(-1, 4), np.array(starts, np.int64), verdicts,
                          self.history_rows(state), self._hs)
        return [None if v < 0 else bool(v) for v in verdicts]

    # ------------------------------------------------------------ perft

    def perft(self, state, depth: int) -> list[int]:
        """The same counts as gdef_core.runtime.perft.perft; a failure of moves() there is
        left to the Python backend, which reports it located."""
        counts = np.zeros(max(depth, 0), np.int64)
        if depth <= 0 or state.is_over:
            return [0] * max(depth, 0)
        from gdef_core.runtime.perft import perft

        board, V, VF, SC = self.arrays(state)
        if not self.compiled_for(V):
            return perft(state, depth)
        try:
            self.module.perft(board, state.player, state.move_number, V, VF, SC, depth, counts,
                              self.history_rows(state), self._hs, _chance(state))
        except RuntimeError:  # kernels/helpers.py: _fail(): a run-time error or limit (not a compile error)
            return perft(state, depth)
        return [int(c) for c in counts]
