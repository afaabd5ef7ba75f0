"""Value operations with the language's semantics as numba runs them (lower/arithmetic.py
defines them for both backends: here they are jitted and a failure is flagged; overflow is
found on int64's wrapped results), the slots of the scalar array S, and the built-ins that
touch the state.

Part of every generated native module (see kernels/__init__.py): the lines below MODULE_TEXT
are copied into it; the imports above it are for linters and editors.
"""
from gdef_core.lower.arithmetic import (
    INT_MAX, float_div, float_mod_is_nan, int_div, int_div_fails, int_mod, negate_fails,
)
from gdef_core.native.kernels.generated import (
    CACHE, CAP_MOVES, COUNTING, CTX_CHANCE, CTX_END, CTX_IS_MOVE_LEGAL, CTX_MOVES, CTX_SETUP, H, H_RES, NBO,
    OPERATION_STEPS, P, WEIGHTS, W,
)


# MODULE_TEXT (copied into each generated module from here on)


import math
import numpy as np
from numba import njit

# lower/arithmetic.py's operations (their text is above this part in a generated module)
negate_fails, int_div_fails, int_div, int_mod, float_div, float_mod_is_nan = (
    njit(cache=CACHE, inline='always')(operation)
    for operation in (negate_fails, int_div_fails, int_div, int_mod, float_div, float_mod_is_nan))
# Slots of S (_CHN: end() called chanceNext(); _ICM: the move end() follows is a chance outcome;
# _DUP: the candidates may hold duplicates, kernel._stamped).
_T, _MN, _ST, _CTX, _RO, _WIN, _NXT, _NOPS, _OWN, _NC, _NM, _BAD, _POOL, _ERR, _OP0, _CHN, _ICM, _DUP = range(18)
NSLOTS = 18


@njit(cache=CACHE)
def _fail():
    """A run-time error or limit: the game stops (playouts() catches it per game, and the
    game is replayed through the Python backend). Never inlined, and every try block holds
    just one call of a function that is not inlined: with code inlined into a try block,
    numba (0.6x) runs on past a raise (measured), which could let a failed index touch memory."""
    raise RuntimeError("gdef")


@njit(cache=CACHE, inline='always')
def _bad(S):
    """A failed check in generated code: flagged in S[_ERR], and the code goes on with a
    harmless value (an index 0, no write, a loop left when the steps are spent) until it
    returns to the kernel, which looks at the flag: a candidate whose isMoveLegal() failed is
    illegal, as in the Python backend; a failure of end() or moves() stops the game (_fail),
    which is then replayed through the Python backend for the located error. Generated
    functions thus never raise: numba calls a function that may raise at a high cost."""
    S[_ERR] = 1


@njit(cache=CACHE, inline='always')
def _wrapping_add(a, b):
    """Added as unsigned ints, which wrap (numba adds int64 with LLVM's no-signed-wrap flag,
    so a test of a wrapped signed sum may be optimised away: found by the native property
    test), to be tested on the signs (_add_wrapped); 12% faster on connect four than testing
    first."""
    return np.int64(np.uint64(a) + np.uint64(b))


@njit(cache=CACHE, inline='always')
def _add_wrapped(a, b, r):
    return ((a ^ r) & (b ^ r)) < 0


@njit(cache=CACHE, inline='always')
def _wrapping_sub(a, b):
    """As _wrapping_add (LLVM removed the test of a wrapped signed difference: 2 - INT_MIN
    gave no error)."""
    return np.int64(np.uint64(a) - np.uint64(b))


@njit(cache=CACHE, inline='always')
def _sub_wrapped(a, b, r):
    return ((a ^ b) & (a ^ r)) < 0


@njit(cache=CACHE, inline='always')
def _add(S, a, b):
    """a + b in an expression; a local assigned a sum is written as statements instead
    (codegen's set_local)."""
    r = _wrapping_add(a, b)
    if _add_wrapped(a, b, r):
        _bad(S)
    return r


@njit(cache=CACHE, inline='always')
def _sub(S, a, b):
    r = _wrapping_sub(a, b)
    if _sub_wrapped(a, b, r):
        _bad(S)
    return r


@njit(cache=CACHE, inline='always')
def _mul(S, a, b):
    """Tested before multiplying (fix, native property test): numba multiplies with LLVM's
    no-signed-wrap flag, so LLVM removed a test of the wrapped product (r // b != a)."""
    if abs(float(a) * float(b)) < 4.6e18:  # under 2**62 whatever the rounding: no overflow
        return a * b
    ua = np.uint64(a) if a >= 0 else np.uint64(-(a + 1)) + np.uint64(1)
    ub = np.uint64(b) if b >= 0 else np.uint64(-(b + 1)) + np.uint64(1)
    limit = np.uint64(INT_MAX) + (np.uint64(1) if (a < 0) != (b < 0) else np.uint64(0))
    if ua > limit // ub:
        _bad(S)
    return a * b


@njit(cache=CACHE, inline='always')
def _neg(S, a):
    if negate_fails(a):
        _bad(S)
    return -a


@njit(cache=CACHE, inline='always')
def _idiv(S, a, b):
    if int_div_fails(a, b):
        _bad(S)
        return a * 0
    return int_div(a, b)


@njit(cache=CACHE, inline='always')
def _imod(S, a, b):
    if b == 0:
        _bad(S)
        return a * 0
    return int_mod(a, b)


@njit(cache=CACHE, inline='always')
def _fdiv(S, a, b):
    if b == 0:
        _bad(S)
        return a * 0.0
    return float_div(a, b)


@njit(cache=CACHE, inline='always')
def _fmod(S, a, b):
    """C's fmod: np.fmod (numba has no math.fmod)."""
    if b == 0:
        _bad(S)
        return a * 0.0
    if float_mod_is_nan(a, b):
        return math.nan
    return np.fmod(a, b)


@njit(cache=CACHE, inline='always')
def _sq(S, x, y):
    """The index of square (x, y); off the board is an error."""
    if x < 0 or x >= W or y < 0 or y >= H:
        _bad(S)
        return 0
    return x * H + y


@njit(cache=CACHE, inline='always')
def _ix(S, i, n):
    """An array index tested against its size (n >= 1)."""
    if i < 0 or i >= n:
        _bad(S)
        return 0
    return i


@njit(cache=CACHE, inline='always')
def _limit(S):
    """One step (a call of a function that calls nothing): counted, checked at the next loop
    pass, call or return to the kernel."""
    S[_ST] -= 1


@njit(cache=CACHE, inline='always')
def _spent(S):
    """One step of a loop pass or of a call of a function that calls others; True when the
    budget is spent (the loop is left, the function returns: the error is flagged)."""
    S[_ST] -= 1
    if S[_ST] < 0:
        S[_ERR] = 1
        return True
    return False


@njit(cache=CACHE, inline='always')
def _steps(S, n):
    S[_ST] -= n
    if S[_ST] < 0:
        S[_ERR] = 1


@njit(cache=CACHE, inline='always')
def _nread(B, OPS, S, x, y):
    """NextPosition[x][y]: while isMoveLegal() runs, the board after the move."""
    k = _sq(S, x, y)
    if S[_CTX] == CTX_IS_MOVE_LEGAL:
        a = S[_OP0]
        for i in range(a + S[_NOPS] - 1, a - 1, -1):
            if OPS[i, 0] * H + OPS[i, 1] == k:
                return OPS[i, 2]
    return B[k]


@njit(cache=CACHE, inline='always')
def _apply(B, OPS, i, at):
    """Operation i applied to the board held from B[at]: a place or a clear sets the square's
    object (and, in a game whose squares count, resets its count); a count (place flag 2,
    its count in the object's field) sets the count alone (runtime/counts.py)."""
    k = at + OPS[i, 0] * H + OPS[i, 1]
    if OPS[i, 3] == 2:
        B[NBO + k] = OPS[i, 2]
    else:
        B[k] = OPS[i, 2]
        if COUNTING:
            B[NBO + k] = 0


@njit(cache=CACHE, inline='always')
def _nread_counted(B, OPS, S, x, y):
    """NextPosition[x][y] in a game whose squares count: count operations change no object."""
    k = _sq(S, x, y)
    if S[_CTX] == CTX_IS_MOVE_LEGAL:
        a = S[_OP0]
        for i in range(a + S[_NOPS] - 1, a - 1, -1):
            if OPS[i, 3] != 2 and OPS[i, 0] * H + OPS[i, 1] == k:
                return OPS[i, 2]
    return B[k]


@njit(cache=CACHE, inline='always')
def _ncount(B, OPS, S, x, y):
    """NextCount[x][y]: while isMoveLegal() runs, the count after the move (a place or a
    clear resets it); else CurrentCount."""
    k = _sq(S, x, y)
    if S[_CTX] == CTX_IS_MOVE_LEGAL:
        a = S[_OP0]
        for i in range(a + S[_NOPS] - 1, a - 1, -1):
            if OPS[i, 0] * H + OPS[i, 1] == k:
                return OPS[i, 2] if OPS[i, 3] == 2 else 0
    return B[NBO + k]


@njit(cache=CACHE, inline='always')
def _opobj(OPS, S, i):
    """OperationList[i][2] in a game whose squares count: empty (0) for a count."""
    if i < 0 or i >= S[_NOPS]:
        _bad(S)
        return 0
    return 0 if OPS[S[_OP0] + i, 3] == 2 else OPS[S[_OP0] + i, 2]


@njit(cache=CACHE, inline='always')
def _opcount(OPS, S, i):
    """OperationList[i][3]: the count of a count operation, else 0."""
    if i < 0 or i >= S[_NOPS]:
        _bad(S)
        return 0
    return OPS[S[_OP0] + i, 2] if OPS[S[_OP0] + i, 3] == 2 else 0


@njit(cache=CACHE, inline='always')
def _opf(OPS, S, i, j):
    if i < 0 or i >= S[_NOPS]:
        _bad(S)
        return 0
    return OPS[S[_OP0] + i, j]


@njit(cache=CACHE, inline='always')
def _player(S, p):
    """Whether p is a player (else the error is flagged)."""
    if p < 0 or p >= P:
        _bad(S)
        return False
    return True


@njit(cache=CACHE, inline='always')
def _set_winner(S, p):
    if _player(S, p) and S[_CTX] == CTX_END:
        S[_WIN] = p


@njit(cache=CACHE, inline='always')
def _set_next(S, p):
    if S[_CTX] != CTX_END and S[_CTX] != CTX_SETUP:
        _bad(S)
    elif _player(S, p):
        S[_NXT] = p


@njit(cache=CACHE, inline='always')
def _set_score(S, SC, p, v):
    if S[_CTX] != CTX_END and S[_CTX] != CTX_SETUP:
        _bad(S)
    elif _player(S, p):
        SC[p] = v


@njit(cache=CACHE, inline='always')
def _writable(S):
    """Whether game variables may be assigned here (else the error is flagged)."""
    if S[_RO] != 0:
        _bad(S)
        return False
    return True


@njit(cache=CACHE, inline='always')
def _add_op(S, CO, x, y, o, place):
    """addPlace / addClear in moves() (or chance()): one operation of the candidate (or
    outcome) being built."""
    if S[_CTX] != CTX_MOVES and S[_CTX] != CTX_CHANCE:
        _bad(S)
        return
    if x < 0 or x >= W or y < 0 or y >= H:
        if S[_CTX] == CTX_CHANCE:
            _bad(S)  # an outcome is exact: a square off the board is an error
            return
        S[_BAD] = 1  # a candidate naming a square off the board is dropped
    else:
        n = S[_NC]
        if n >= CO.shape[0]:
            _bad(S)  # more operations than the buffer holds: the Python backend plays this game
            return
        CO[n, 0] = x
        CO[n, 1] = y
        CO[n, 2] = o
        CO[n, 3] = place
        S[_NC] = n + 1
    S[_ST] -= OPERATION_STEPS


@njit(cache=CACHE, inline='always')
def _set_square(b, at, k, o, place):
    """One consequence on the board b from `at` (the board, or the scratch copy in HS): a count
    (place 2, o the count) sets the count and leaves the object; a place or a clear sets the
    object and resets the count."""
    if place == 2:
        b[at + NBO + k] = o
    else:
        b[at + k] = o
        if COUNTING:
            b[at + NBO + k] = 0


@njit(cache=CACHE, inline='always')
def _rread(B, OPS, S, HS, x, y):
    """ResultPosition[x][y]: in isMoveLegal() the scratch copy once a consequence made it,
    else NextPosition (which is the board, consequences of end() included, elsewhere)."""
    if S[_CTX] == CTX_IS_MOVE_LEGAL and HS[H_RES] != 0:
        return HS[H_RES + 1 + _sq(S, x, y)]
    if COUNTING:
        return _nread_counted(B, OPS, S, x, y)
    return _nread(B, OPS, S, x, y)


@njit(cache=CACHE, inline='always')
def _rcount(B, OPS, S, HS, x, y):
    """ResultCount[x][y]: the counts of ResultPosition (the scratch copy holds them after its
    objects), else NextCount."""
    if S[_CTX] == CTX_IS_MOVE_LEGAL and HS[H_RES] != 0:
        return HS[H_RES + 1 + NBO + _sq(S, x, y)]
    return _ncount(B, OPS, S, x, y)


@njit(cache=CACHE, inline='always')
def _add_move(S, CS):
    if S[_CTX] != CTX_MOVES:
        _bad(S)
        return
    m = S[_NM]
    if S[_BAD] != 0:
        S[_NC] = CS[m]
    else:
        if m + 2 >= CAP_MOVES:
            _bad(S)
            return
        CS[m + 1] = S[_NC]
        S[_NM] = m + 1
    S[_BAD] = 0


@njit(cache=CACHE, inline='always')
def _add_outcome(S, CS, w):
    """addOutcome(w) in chance(): the outcome being built is finished with weight w (1 ..
    2^31, else G616: flagged, and the Python backend replays the game for the located error),
    kept in CS from WEIGHTS."""
    if S[_CTX] != CTX_CHANCE or w < 1 or w > 2147483648:
        _bad(S)
        return
    m = S[_NM]
    if m + 2 >= CAP_MOVES:
        _bad(S)  # more outcomes than the buffer holds: the Python backend plays this game
        return
    CS[m + 1] = S[_NC]
    CS[WEIGHTS + m] = w
    S[_NM] = m + 1


@njit(cache=CACHE, inline='always')
def _chance_next(S):
    """chanceNext() in end(): the next move is chance's (when end() does not end the game)."""
    if S[_CTX] != CTX_END:
        _bad(S)
    else:
        S[_CHN] = 1


@njit(cache=CACHE, inline='always')
def _next_player(S):
    """In end(): the player who moves next unless end() ends the game (after a chance
    outcome, the player who was waiting for it)."""
    if S[_NXT] >= 0:
        return S[_NXT]
    if S[_ICM] != 0:
        return S[_T]
    return (S[_T] + 1) % P


@njit(cache=CACHE, inline='always')
def _is_generated(S):
    # OWN: judged as a candidate (a game without moves() does not compile)
    if S[_CTX] != CTX_IS_MOVE_LEGAL or S[_OWN] == 0:
        _bad(S)
        return False
    return True
