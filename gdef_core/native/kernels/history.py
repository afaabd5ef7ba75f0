"""The position history of repetitions() and nextBoardSeen(), PreviousPosition, the
consequences of end() and isMoveLegal() (the board, whose hash the history keeps, and the
scratch ResultPosition), and the values of OperationList columns typed only at run time.

Part of every generated native module (see kernels/__init__.py): the lines below MODULE_TEXT
are copied into it; the imports above it are for linters and editors.
"""
import numpy as np
from numba import njit
from gdef_core.native.kernels.generated import (
    CACHE, COUNTING, CTX_CHANCE, CTX_END, CTX_IS_MOVE_LEGAL, CTX_MOVES, H, HCAP, H_BT, H_EB, H_EH, H_EK, H_KEY,
    H_PREV, H_PT, H_RES, H_ROWS, KEYLEN, NB, NBO, TMASK, TSIZE, USES_HISTORY, W, _key_row,
)
from gdef_core.native.kernels.helpers import (
    _CTX, _NOPS, _OP0, _ST, _add_op, _apply, _bad, _fail, _next_player, _opcount, _opobj, _set_square, _sq,
)


# MODULE_TEXT (copied into each generated module from here on)


# HS (int64) holds, from the offsets the generated constants give: slots (_HN the entries,
# _HN0 those of the start state or -1 when they do not fit, _HX set when a key cannot be
# compared natively), the board before the move (H_PREV, for PreviousPosition), a scratch key
# (H_KEY), two open-addressing tables of TSIZE slots (H_PT: position hash -> entry, H_BT: board
# hash -> entry; -1 empty) and the entries: position hash (H_EH), board hash (H_EB), kind
# (H_EK: 1 a position, 0 a board that only counts as seen) and key (H_ROWS, KEYLEN each: the
# board, the player to move, the game variables not declared `counter`, floats as their bits).
# Entries come and go last in, first out (a playout; perft's walk), so dropping the newest
# only empties its table slots.
_HN, _HN0, _HX, _HF = 0, 1, 2, 3
# _HBH: the hash of the board after the move, kept by kernel._play while _HBV is 1 (code that
# writes the board anywhere else must set _HBV to 0).
_HBH, _HBV = 4, 5


@njit(cache=CACHE, inline='always')
def _pread(B, S, HS, x, y):
    """PreviousPosition[x][y]: in end(), the square before the move; else CurrentPosition."""
    k = _sq(S, x, y)
    if S[_CTX] == CTX_END:
        return HS[H_PREV + k]
    return B[k]


@njit(cache=CACHE, inline='always')
def _pcount(B, S, HS, x, y):
    """PreviousCount[x][y]: in end(), the count before the move; else CurrentCount."""
    k = NBO + _sq(S, x, y)
    if S[_CTX] == CTX_END:
        return HS[H_PREV + k]
    return B[k]


@njit(cache=CACHE, inline='always')
def _fbits(HS, x):
    """A float of a key as int64 bits (0.0 and -0.0 alike); NaN, which Python compares by
    identity, is left to the Python backend."""
    if x != x:
        HS[_HX] = 1
        _fail()
    F = HS.view(np.float64)
    F[_HF] = x + 0.0
    return HS[_HF]


@njit(cache=CACHE, inline='always')
def _z(k, o):
    """The board hash's share of object o on square k (Zobrist; 0 for an empty square), so
    that a move changes the hash by its operations alone."""
    if o == 0:
        return 0
    h = (k * 1021 + o) * -7046029254386353131
    h = (h ^ (h >> 32)) * -49064778989728563
    return h ^ (h >> 29)


@njit(cache=CACHE, inline='always')
def _set(B, HS, k, v):
    """Square (or count) k of the board becomes v, the board's hash _play keeps (_HBV)
    changed with it."""
    if USES_HISTORY and HS[_HBV] != 0:
        HS[_HBH] ^= _z(k, B[k]) ^ _z(k, v)
    B[k] = v


@njit(cache=CACHE, inline='always')
def _consequence(B, OPS, S, HS, x, y, o, place):
    """addPlace / addClear / addCount in end(): the board at once (through _set, which keeps
    its hash); in isMoveLegal(): the scratch copy ResultPosition, HS from H_RES + 1, made from
    the board after the move at the judgement's first consequence (HS[H_RES] = 1; the entry
    point resets it). One step each."""
    if x < 0 or x >= W or y < 0 or y >= H:
        _bad(S)
        return
    S[_ST] -= 1
    k = x * H + y
    if S[_CTX] == CTX_END:
        if place == 2:   # a count sets the count and leaves the object
            _set(B, HS, NBO + k, o)
        else:
            _set(B, HS, k, o)
            if COUNTING:  # a place or a clear resets the count
                _set(B, HS, NBO + k, 0)
    elif S[_CTX] == CTX_IS_MOVE_LEGAL:
        if HS[H_RES] == 0:
            for j in range(NB):
                HS[H_RES + 1 + j] = B[j]
            a = S[_OP0]
            for i in range(a, a + S[_NOPS]):
                _apply(HS, OPS, i, H_RES + 1)
            HS[H_RES] = 1
        _set_square(HS, H_RES + 1, k, o, place)
    else:
        _bad(S)


@njit(cache=CACHE, inline='always')
def _add_any(B, OPS, S, CO, HS, x, y, o, place):
    """addPlace / addClear / addCount in a function that moves() (or chance()) and end() both reach."""
    if S[_CTX] == CTX_MOVES or S[_CTX] == CTX_CHANCE:
        _add_op(S, CO, x, y, o, place)
    else:
        _consequence(B, OPS, S, HS, x, y, o, place)


@njit(cache=CACHE, inline='always')
def _board_hash(HS, at):
    h = 0
    for k in range(NB):
        h ^= _z(k, HS[at + k])
    return h


@njit(cache=CACHE, inline='always')
def _hash(HS, at, n, h):
    for k in range(at, at + n):
        h = (h ^ HS[k]) * 1099511628211
    return h


@njit(cache=CACHE, inline='always')
def _fin(h):
    h = (h ^ (h >> 33)) * -49064778989728563
    return h ^ (h >> 33)


@njit(cache=CACHE, inline='always')
def _same_key(HS, a, b, n):
    for k in range(n):
        if HS[a + k] != HS[b + k]:
            return False
    return True


@njit(cache=CACHE, inline='always')
def _tinsert(HS, table, h, i):
    s = h & TMASK
    while HS[table + s] >= 0:
        s = (s + 1) & TMASK
    HS[table + s] = i


@njit(cache=CACHE, inline='always')
def _tremove(HS, table, h, i):
    s = h & TMASK
    while HS[table + s] != i:
        s = (s + 1) & TMASK
    HS[table + s] = -1


@njit(cache=CACHE, inline='always')
def _board_now(HS, at):
    """The hash of the board B, which is the board of the key at `at`: the one _play kept (the
    newest entry's, changed by the move's operations), else computed."""
    if HS[_HBV] != 0:
        return HS[_HBH]
    return _board_hash(HS, at)


@njit(cache=CACHE)
def _hist_add(HS, full):
    """The key written at entry _HN becomes the newest entry (full: a position; else only its
    board, as seen)."""
    n = HS[_HN]
    row = H_ROWS + n * KEYLEN
    hb = _board_now(HS, row)
    HS[H_EH + n] = _fin(_hash(HS, row + NB, KEYLEN - NB, hb))
    HS[H_EB + n] = hb
    HS[H_EK + n] = full
    _tinsert(HS, H_BT, HS[H_EB + n], n)
    if full:
        _tinsert(HS, H_PT, HS[H_EH + n], n)
    HS[_HN] = n + 1


@njit(cache=CACHE)
def _hist_truncate(HS, n):
    """Drop the newest entries down to n."""
    m = HS[_HN]
    while m > n:
        m -= 1
        _tremove(HS, H_BT, HS[H_EB + m], m)
        if HS[H_EK + m] != 0:
            _tremove(HS, H_PT, HS[H_EH + m], m)
    HS[_HN] = m


@njit(cache=CACHE)
def _hist_load(HS, H0):
    """The start state's positions (H0, oldest first, its own last); _HN0 = -1 when they
    leave no room to play (every game then goes the failure path)."""
    HS[H_PT:H_PT + 2 * TSIZE] = -1
    HS[_HN] = 0
    HS[_HX] = 0
    HS[_HBV] = 0
    if H0.shape[0] > HCAP // 2:
        HS[_HN0] = -1
        return
    for r in range(H0.shape[0]):
        row = H_ROWS + HS[_HN] * KEYLEN
        HS[row:row + KEYLEN] = H0[r]
        _hist_add(HS, 1)
    HS[_HN0] = HS[_HN]


@njit(cache=CACHE)
def _hist_restart(HS):
    """Back to the start state's positions, for the next game."""
    if HS[_HN0] < 0:
        _fail()
    _hist_truncate(HS, HS[_HN0])
    HS[_HBV] = 0


@njit(cache=CACHE)
def _hist_play(B, p, V, VF, HS):
    """The position reached by a move (the board, p to move) becomes the newest entry."""
    if HS[_HN] >= HCAP:
        _fail()  # a game longer than the buffer: the Python backend finishes it
    _key_row(B, p, V, VF, HS, H_ROWS + HS[_HN] * KEYLEN)
    _hist_add(HS, 1)
    HS[_HBV] = 0


@njit(cache=CACHE)
def _repetitions(B, S, V, VF, HS):
    """repetitions(): the earlier positions equal to the one end() has reached."""
    if S[_CTX] != CTX_END:
        _bad(S)
        return 0
    p = _next_player(S)
    _key_row(B, p, V, VF, HS, H_KEY)
    h = _fin(_hash(HS, H_KEY + NB, KEYLEN - NB, _board_now(HS, H_KEY)))
    count = 0
    s = h & TMASK
    while HS[H_PT + s] >= 0:
        i = HS[H_PT + s]
        if HS[H_EH + i] == h and _same_key(HS, H_ROWS + i * KEYLEN, H_KEY, KEYLEN):
            count += 1
        s = (s + 1) & TMASK
    return count


@njit(cache=CACHE)
def _board_seen(B, OPS, S, HS):
    """nextBoardSeen(): whether the board after the move judged is an earlier one's. The
    newest entry is always the board judged from (the position reached, or the board
    hasLegalMove() adds), so the next board's hash is its hash changed by the operations."""
    if S[_CTX] != CTX_IS_MOVE_LEGAL:
        _bad(S)
        return False
    if HS[H_RES] != 0:   # consequences made: ResultPosition, the scratch copy
        return _board_known(HS, H_RES + 1)
    h = HS[H_EB + HS[_HN] - 1]
    a = S[_OP0]
    n = S[_NOPS]
    for i in range(a, a + n):
        k = OPS[i, 0] * H + OPS[i, 1]
        old = B[k]
        for j in range(i - 1, a - 1, -1):   # an earlier operation on the same square
            if OPS[j, 0] * H + OPS[j, 1] == k:
                old = OPS[j, 2]
                break
        h ^= _z(k, old) ^ _z(k, OPS[i, 2])
    s = h & TMASK
    built = False
    while HS[H_BT + s] >= 0:
        e = HS[H_BT + s]
        if HS[H_EB + e] == h:
            if not built:
                HS[H_KEY:H_KEY + NB] = B
                for i in range(a, a + n):
                    HS[H_KEY + OPS[i, 0] * H + OPS[i, 1]] = OPS[i, 2]
                built = True
            if _same_key(HS, H_ROWS + e * KEYLEN, H_KEY, NB):
                return True
        s = (s + 1) & TMASK
    return False


@njit(cache=CACHE)
def _board_known(HS, at):
    """Whether the board in HS from `at` is the board of an entry of the history."""
    h = _board_hash(HS, at)
    s = h & TMASK
    while HS[H_BT + s] >= 0:
        e = HS[H_BT + s]
        if HS[H_EB + e] == h and _same_key(HS, H_ROWS + e * KEYLEN, at, NB):
            return True
        s = (s + 1) & TMASK
    return False


@njit(cache=CACHE, inline='always')
def _opdyn_counted(OPS, S, i, j):
    """_opdyn in a game whose squares count: j = 2 is empty for a count, j = 3 the count."""
    if i < 0 or i >= S[_NOPS] or j < 0 or j > 3:
        _bad(S)
        return (0, False)
    if j == 2:
        return (_opobj(OPS, S, i), True)
    if j == 3:
        return (_opcount(OPS, S, i), False)
    return (OPS[S[_OP0] + i, j], False)


@njit(cache=CACHE)
def _board_seen_counted(B, OPS, S, HS):
    """nextBoardSeen() in a game whose squares count: ResultPosition after consequences, else
    the next board (objects and counts) built and hashed whole, then looked up."""
    if S[_CTX] != CTX_IS_MOVE_LEGAL:
        _bad(S)
        return False
    if HS[H_RES] != 0:
        return _board_known(HS, H_RES + 1)
    HS[H_KEY:H_KEY + NB] = B
    a = S[_OP0]
    for i in range(a, a + S[_NOPS]):
        _apply(HS, OPS, i, H_KEY)
    return _board_known(HS, H_KEY)


@njit(cache=CACHE, inline='always')
def _opdyn(OPS, S, i, j):
    """OperationList[i][j] with j known only at run time: (value, whether it is an obj)."""
    if i < 0 or i >= S[_NOPS] or j < 0 or j > 2:
        _bad(S)
        return (0, False)
    return (OPS[S[_OP0] + i, j], j == 2)


@njit(cache=CACHE, inline='always')
def _dyn_int(S, t):
    if t[1]:
        _bad(S)
    return t[0]


@njit(cache=CACHE, inline='always')
def _dyn_obj(S, t):
    if not t[1]:
        _bad(S)
    return t[0]


@njit(cache=CACHE, inline='always')
def _dyn_bool(S, t):
    _bad(S)  # an int or an obj is never a bool
    return False


@njit(cache=CACHE, inline='always')
def _dyn_eq(S, t, u):
    if t[1] != u[1]:
        _bad(S)
    return t[0] == u[0]
