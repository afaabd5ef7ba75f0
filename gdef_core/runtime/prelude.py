"""The fixed start of every compiled rules factory, and the globals the generated code may use.

runtime/codegen.py writes each game's rules as one function `_factory(OBJECTS, W=..., H=...,
P=..., MAX_DEPTH=..., MAX_STEPS=...)` whose closure holds the cells every generated function
shares (the board, the move being judged, the step budget ...): codegen copies the body of
`factory` below, up to its GENERATED line, into that function and writes the gdef functions
after it. The game's sizes and limits are parameters, closure cells that are read as fast as
constants. This is a real module so that linters, coverage and editors read it, and so that
tests can call the built-ins below without compiling a game.

`namespace()` gives the generated source its globals: the value operations of runtime/ops.py
under the names the generated code uses.
"""
from __future__ import annotations

from gdef_core.builtins import Context
from gdef_core.lower.limits import MAX_ARRAY_ELEMENTS, OPERATION_STEPS
from gdef_core.runtime import ops as _ops
from gdef_core.runtime.errors import CALL_SITE, IN_FRAME, Fail

_U = object()  # an unset local (flow.maybe_unset_reads)
_overflow, _int_div, _int_mod = _ops.overflow, _ops.int_div, _ops.int_mod
_float_div, _float_mod = _ops.float_div, _ops.float_mod
_no_return, _unset_local, _loop_limit_in = _ops.no_return, _ops.unset_local, _ops.loop_limit
_as_int, _as_float, _as_obj, _as_bool = _ops.as_int, _ops.as_float, _ops.as_obj, _ops.as_bool
_dyn_equal, _dyn_order, _dyn_arith, _dyn_negate = _ops.dyn_equal, _ops.dyn_order, _ops.dyn_arith, _ops.dyn_negate

# The entry point running (the cell CTX): builtins.Context's numbers, and their names.
CTX_IS_MOVE_LEGAL, CTX_END = Context.IS_MOVE_LEGAL.number, Context.END.number
CTX_MOVES, CTX_SETUP = Context.MOVES.number, Context.SETUP.number
CTX_CHANCE = Context.CHANCE.number
CTX_NAMES = {context.number: f"{context.value}()" for context in Context}

# The names of the generated source's globals (besides its own `_factory`).
_NAMES = ("Fail", "CALL_SITE", "IN_FRAME", "OPERATION_STEPS", "MAX_ARRAY_ELEMENTS", "_U",
          "CTX_IS_MOVE_LEGAL", "CTX_END", "CTX_MOVES", "CTX_SETUP", "CTX_CHANCE", "CTX_NAMES",
          "_overflow", "_int_div", "_int_mod", "_float_div", "_float_mod", "_no_return",
          "_unset_local", "_loop_limit_in", "_as_int", "_as_float", "_as_obj", "_as_bool",
          "_dyn_equal", "_dyn_order", "_dyn_arith", "_dyn_negate")

# The cells a function that saves and restores the state names (spelled out in `factory`'s
# nonlocal lines, which tests/test_runtime_prelude.py compares with this).
CELLS = "B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM"

# The line of `factory` after which codegen writes the generated functions.
GENERATED = "# GENERATED: the game's functions follow here (runtime/codegen.py)"


def namespace() -> dict:
    """A fresh globals dict for executing one generated source."""
    here = globals()
    return {name: here[name] for name in _NAMES}


def factory(OBJECTS, W, H, P, MAX_DEPTH, MAX_STEPS):  # noqa: C901 (one closure by design)
    """The cells and the built-ins that need them. CTX: the entry point running (CTX_END and
    the like above). R: ResultPosition, the board with the consequences made so far (in
    isMoveLegal() a scratch copy of N, copied at its first consequence; elsewhere B)."""
    EMPTY = OBJECTS[0]
    B = N = R = V = WIN = NXT = CAND = CUR = HOOK = PX = PY = PO = PP = SC = HIS = PB = GEN = None
    OWN = CHN = CHM = False  # CHN: chanceNext() called; CHM: end() runs after a chance outcome
    OPS = ()
    NOPS = T = MN = ST = CTX = 0
    RO = False
    # Defined by the generated code below: the entry point of moves() (when the game has one)
    # and the key a position is compared by (its game variables vary by game).
    _e_moves = _position_key = None

    def _set_hook(hook):
        nonlocal HOOK
        HOOK = hook

    def _next_board(b, ops):
        if not ops:
            return b
        after = b.copy()
        for x, y, o, _ in ops:
            after[x * H + y] = o
        return after

    def _next_counted(b, ops):  # _next_board of a game whose squares count (codegen rebinds it)
        if not ops:
            return b
        after = b.copy()
        for op in ops:
            k = op[0] * H + op[1]
            if len(op) > 4:  # count(x, y, n): (x, y, EMPTY, False, n)
                after[W * H + k] = op[4]
            else:  # place and clear reset the count
                after[k] = op[2]
                after[W * H + k] = 0
        return after

    def _count_of(op):  # OperationList[i][3]
        return op[4] if len(op) > 4 else 0

    def _loop_limit(limit, loc):
        _loop_limit_in(limit, loc, CTX == CTX_MOVES)

    def _search_limit(pool):
        raise Fail("G607", f"the search for legal moves ran more than {pool:,} steps in all (isMoveLegal() over every candidate)", IN_FRAME)

    def _enter_failed(d):
        if d > MAX_DEPTH:
            raise Fail("G608", f"recursion too deep: more than {MAX_DEPTH} nested recursive calls (a recursion without a base case?)", CALL_SITE)
        _loop_limit(MAX_STEPS, CALL_SITE)

    def _off_board(x, y, loc):
        raise Fail("G603", f"square ({x}, {y}) is off the board (x from 0 to {W - 1}, y from 0 to {H - 1})", loc)

    def _bad_operation(i, loc):
        raise Fail("G604", f"there is no operation {i}: the move has {NOPS} operation{'' if NOPS == 1 else 's'} (numbered from 0)", loc)

    def _operation_field(i, j, loc):
        if not 0 <= i < NOPS:
            _bad_operation(i, loc)
        if 0 <= j <= 2:
            return OPS[i][j]
        if j == 3:
            return _count_of(OPS[i])
        raise Fail("G604", f"OperationList[{i}][{j}]: the second index must be 0 (x), 1 (y), 2 (the object) or 3 (the count)", loc)

    def _player(what, p, loc):
        if not 0 <= p < P:
            raise Fail("G605", f"{what}({p}): there is no player {p} (players are 0 to {P - 1})", loc)

    def _not_here(what, allowed, loc):
        raise Fail("G611", f"{what} is not allowed while {CTX_NAMES[CTX]} runs (only in {allowed})", loc)

    def _set_winner(p, loc):
        nonlocal WIN
        _player("setWinner", p, loc)
        if CTX == CTX_END:
            WIN = p

    def _set_next_player(p, loc):
        nonlocal NXT
        if CTX != CTX_END and CTX != CTX_SETUP:
            _not_here("setNextPlayer()", "end() and setup()", loc)
        _player("setNextPlayer", p, loc)
        NXT = p

    def _add_place(x, y, o, loc):
        nonlocal ST
        if CTX == CTX_MOVES:  # a candidate with a square off the board is marked with None, then dropped
            CUR.append((x, y, o, True) if 0 <= x < W and 0 <= y < H else None)
            ST -= OPERATION_STEPS  # an operation held costs steps: memory bounded like time
        elif CTX == CTX_CHANCE:  # an outcome is exact: a square off the board is an error
            if not (0 <= x < W and 0 <= y < H):
                _off_board(x, y, loc)
            CUR.append((x, y, o, True))
            ST -= OPERATION_STEPS
        else:
            _change(x, y, o, loc)

    def _add_clear(x, y, loc):
        nonlocal ST
        if CTX == CTX_MOVES:
            CUR.append((x, y, EMPTY, False) if 0 <= x < W and 0 <= y < H else None)
            ST -= OPERATION_STEPS
        elif CTX == CTX_CHANCE:
            if not (0 <= x < W and 0 <= y < H):
                _off_board(x, y, loc)
            CUR.append((x, y, EMPTY, False))
            ST -= OPERATION_STEPS
        else:
            _change(x, y, EMPTY, loc)

    def _changed_board(x, y, loc):
        """The board that addPlace/addClear/addCount outside moves() and chance() change: the
        start position in setup(), the board at once in end() and the scratch copy R in
        isMoveLegal() (consequences of the move, a step each)."""
        nonlocal ST, R
        if not (0 <= x < W and 0 <= y < H):
            _off_board(x, y, loc)
        if CTX == CTX_SETUP:
            return B
        ST -= 1  # a consequence is a step
        if CTX != CTX_IS_MOVE_LEGAL:
            return B
        if R is N or R is B:  # the first consequence of this judgement: a copy of its own
            R = R.copy()
        return R

    def _change(x, y, o, loc):
        board = _changed_board(x, y, loc)
        board[x * H + y] = o
        if len(board) > W * H:  # a game whose squares count: a place or a clear resets the count
            board[W * H + x * H + y] = 0

    def _add_count(x, y, n, loc):
        nonlocal ST
        if CTX == CTX_MOVES:
            CUR.append((x, y, EMPTY, False, n) if 0 <= x < W and 0 <= y < H else None)
            ST -= OPERATION_STEPS
        elif CTX == CTX_CHANCE:
            if not (0 <= x < W and 0 <= y < H):
                _off_board(x, y, loc)
            CUR.append((x, y, EMPTY, False, n))
            ST -= OPERATION_STEPS
        else:  # the object stays
            _changed_board(x, y, loc)[W * H + x * H + y] = n

    def _add_move(loc):
        if CTX != CTX_MOVES:
            _not_here("addMove()", "moves()", loc)
        candidate = tuple(CUR)
        CUR.clear()
        if None not in candidate:  # None: an operation naming a square off the board
            CAND.append(candidate)

    def _next_player():
        """In end(): who moves next unless end() ends the game (after a chance outcome, the
        player who was waiting for it)."""
        if NXT is not None:
            return NXT
        return T if CHM else (T + 1) % P

    def _chance_next(loc):
        nonlocal CHN
        if CTX != CTX_END and CTX != CTX_SETUP:
            _not_here("chanceNext()", "end() and setup()", loc)
        CHN = True

    def _add_outcome(w, loc):
        if CTX != CTX_CHANCE:
            _not_here("addOutcome()", "chance()", loc)
        if not 1 <= w <= 2147483648:
            raise Fail("G616", f"addOutcome({w}): an outcome's weight must be from 1 to 2^31 (2147483648)", loc)
        CAND.append((tuple(CUR), w))
        CUR.clear()

    def _is_chance_move(loc):
        if CTX != CTX_END:
            _not_here("isChanceMove()", "end()", loc)
        return CHM

    def _no_outcomes(loc):
        raise Fail("G615", "chanceNext() made the next move chance's, but chance() finished no outcome "
                           "(no addOutcome() ran)", loc)

    def _has_legal_move(loc):
        nonlocal B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM
        if CTX != CTX_END:
            _not_here("hasLegalMove()", "end()", loc)
        saved = (B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM)
        his = None if HIS is None else HIS.with_board(tuple(B))  # the position reached counts as seen
        result = HOOK(B, _next_player(), MN, V, his)
        B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM = saved
        return result

    def _repetitions(loc):
        if CTX != CTX_END:
            _not_here("repetitions()", "end()", loc)
        if HIS is None:
            return 0
        return HIS.repetitions(_position_key(B, _next_player(), V, CHN))  # a chance node as chosen so far

    def _board_seen(b, loc):
        if CTX != CTX_IS_MOVE_LEGAL:
            _not_here("nextBoardSeen()", "isMoveLegal()", loc)
        return HIS is not None and tuple(b) in HIS.boards

    def _board_seen_one(b, x, y, o):
        if HIS is None:
            return False
        after = b.copy()
        after[x * H + y] = o
        return tuple(after) in HIS.boards

    def _set_score(p, v, loc):
        if CTX != CTX_END and CTX != CTX_SETUP:
            _not_here("setScore()", "end() and setup()", loc)
        _player("setScore", p, loc)
        if SC is not None:
            SC[p] = v

    def _effect(b, ops):
        after = {}
        for x, y, o, _ in ops:
            after[x * H + y] = o
        return frozenset([(k, o) for k, o in after.items() if b[k] is not o])

    def _effect_counted(b, ops):  # _effect of a game whose squares count (codegen rebinds it)
        after = {}
        for op in ops:
            k = op[0] * H + op[1]
            if len(op) > 4:
                after[W * H + k] = op[4]
            else:
                after[k] = op[2]
                after[W * H + k] = 0
        return frozenset([(k, o) for k, o in after.items() if b[k] != o])

    def _is_generated(loc):
        nonlocal B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM
        if CTX != CTX_IS_MOVE_LEGAL:
            _not_here("isGenerated()", "isMoveLegal()", loc)
        if OWN:  # a search for legal moves is judging the candidates moves() proposed here
            return True
        if GEN is None:  # one move judged alone: run moves() once for this call
            saved = (B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM)
            candidates = () if _e_moves is None else _e_moves(B, T, MN, V)
            B, N, R, OPS, NOPS, T, MN, V, ST, CTX, RO, WIN, NXT, CAND, CUR, PX, PY, PO, PP, SC, HIS, PB, GEN, OWN, CHN, CHM = saved
            GEN = {_effect(B, c) for c in candidates}
        return _effect(B, OPS) in GEN

    def _array_size(sizes, loc):
        count = 1
        for size in sizes:
            if size < 1:
                raise Fail("G613", f"an array size must be at least 1, not {size}", loc)
            count *= size
        if count > MAX_ARRAY_ELEMENTS:
            raise Fail("G613", f"an array of {' x '.join(map(str, sizes))} = {count:,} elements is more than the {MAX_ARRAY_ELEMENTS:,} one array may have", loc)
        return count

    def _array_shape(sizes, listed, loc):
        if sizes != listed:
            given = " x ".join(map(str, listed))
            raise Fail("G613", f"the initialiser lists {given} element{'s' if given != '1' else ''}, but the array "
                       f"is {' x '.join(map(str, sizes))}; list every element, or write `= value` to give each "
                       "the same value", loc)

    def _bad_index(array, indexes, name, loc):
        for dim, i in enumerate(indexes):
            size = len(array)
            if not 0 <= i < size:
                which = f"index {i}" if len(indexes) == 1 else f"index {i} of dimension {dim}"
                raise Fail("G614", f"'{name}': {which} is out of range (size {size}: 0 to {size - 1})", loc)
            array = array[i]
        raise Fail("G614", f"'{name}': index out of range", loc)

    def _read_only(name, loc):
        _not_here(f"assigning the game variable '{name}'", "end(), setup() and the functions they call", loc)

    # GENERATED: the game's functions follow here (runtime/codegen.py)
    return locals()  # only when called directly (tests): the built-ins above by name
