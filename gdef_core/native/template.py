"""The fixed part of a native module: value operations with the language's semantics, the
built-ins that touch the state, and the playout and perft kernels.

The generated gdef functions (native/codegen.py) sit between HELPERS and KERNEL in one module
file, so numba can cache every function on disk. Conventions shared with codegen:

- the board `B` is a flat int64 array (square x, y at x * H + y; 0 is empty, object k is k);
- `OPS` is the move being judged or ended: an (n, 4) int64 array of x, y, object, is-place;
- `S` holds the scalars of the call in progress (slots below), `V` the int, bool and obj game
  variables, `VF` the float ones, `SC` the scores;
- moves() appends candidate operations to `CO` and their start offsets to `CS`.

Any run-time error raises; the caller (native/backend.py) replays that game through the Python
backend, which produces the located gdef error. Nothing here formats messages.
"""

HELPERS = '''
import math
import numpy as np
from numba import njit

INT_MIN = -9223372036854775807 - 1
INT_MAX = 9223372036854775807
# Slots of S.
_T, _MN, _ST, _CTX, _RO, _WIN, _NXT, _NOPS, _OWN, _NC, _NM, _BAD, _POOL = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
NSLOTS = 13


@njit(cache=CACHE, inline='always')
def _fail():
    raise RuntimeError("gdef")


@njit(cache=CACHE, inline='always')
def _add(a, b):
    """Tested before adding, as _sub and _mul (fix, native property test): numba adds with
    LLVM's no-signed-wrap flag, so a test of the wrapped sum may be optimised away."""
    if (b > 0 and a > INT_MAX - b) or (b < 0 and a < INT_MIN - b):
        _fail()
    return a + b


@njit(cache=CACHE, inline='always')
def _sub(a, b):
    """Tested before subtracting (fix, native property test): LLVM removed the test of the
    wrapped difference where _sub was inlined (2 - INT_MIN gave no error)."""
    if (b < 0 and a > INT_MAX + b) or (b > 0 and a < INT_MIN + b):
        _fail()
    return a - b


@njit(cache=CACHE, inline='always')
def _mul(a, b):
    """Tested before multiplying (fix, native property test): numba multiplies with LLVM's
    no-signed-wrap flag, so LLVM removed a test of the wrapped product (r // b != a)."""
    if abs(float(a) * float(b)) < 4.6e18:  # under 2**62 whatever the rounding: no overflow
        return a * b
    ua = np.uint64(a) if a >= 0 else np.uint64(-(a + 1)) + np.uint64(1)
    ub = np.uint64(b) if b >= 0 else np.uint64(-(b + 1)) + np.uint64(1)
    limit = np.uint64(INT_MAX) + (np.uint64(1) if (a < 0) != (b < 0) else np.uint64(0))
    if ua > limit // ub:
        _fail()
    return a * b


@njit(cache=CACHE, inline='always')
def _neg(a):
    if a == INT_MIN:
        _fail()
    return -a


@njit(cache=CACHE, inline='always')
def _idiv(a, b):
    """C division: truncates toward zero."""
    if b == 0:
        _fail()
    if b == -1:
        return _neg(a)
    q = a // b
    if a % b != 0 and (a < 0) != (b < 0):
        q += 1
    return q


@njit(cache=CACHE, inline='always')
def _imod(a, b):
    """C remainder: the sign of the dividend."""
    if b == 0:
        _fail()
    if b == -1:
        return a * 0
    r = a % b
    if r != 0 and (r < 0) != (a < 0):
        r -= b
    return r


@njit(cache=CACHE, inline='always')
def _fdiv(a, b):
    if b == 0:
        _fail()
    return a / b


@njit(cache=CACHE, inline='always')
def _fmod(a, b):
    if b == 0:
        _fail()
    if math.isinf(a) or math.isnan(a) or math.isnan(b):
        return math.nan
    return np.fmod(a, b)


@njit(cache=CACHE, inline='always')
def _sq(x, y):
    """The index of square (x, y); off the board is an error."""
    if x < 0 or x >= W or y < 0 or y >= H:
        _fail()
    return x * H + y


@njit(cache=CACHE, inline='always')
def _ix(i, n):
    if i < 0 or i >= n:
        _fail()
    return i


@njit(cache=CACHE, inline='always')
def _limit(S):
    S[_ST] -= 1
    if S[_ST] < 0:
        _fail()


@njit(cache=CACHE, inline='always')
def _steps(S, n):
    S[_ST] -= n
    if S[_ST] < 0:
        _fail()


@njit(cache=CACHE, inline='always')
def _nread(B, OPS, S, x, y):
    """NextPosition[x][y]: while isMoveLegal() runs, the board after the move."""
    k = _sq(x, y)
    if S[_CTX] == 1:
        for i in range(S[_NOPS] - 1, -1, -1):
            if OPS[i, 0] * H + OPS[i, 1] == k:
                return OPS[i, 2]
    return B[k]


@njit(cache=CACHE, inline='always')
def _opf(OPS, S, i, j):
    if i < 0 or i >= S[_NOPS]:
        _fail()
    return OPS[i, j]


@njit(cache=CACHE, inline='always')
def _player(p):
    if p < 0 or p >= P:
        _fail()


@njit(cache=CACHE, inline='always')
def _set_winner(S, p):
    _player(p)
    if S[_CTX] == 2:
        S[_WIN] = p


@njit(cache=CACHE, inline='always')
def _set_next(S, p):
    if S[_CTX] != 2 and S[_CTX] != 4:
        _fail()
    _player(p)
    S[_NXT] = p


@njit(cache=CACHE, inline='always')
def _set_score(S, SC, p, v):
    if S[_CTX] != 2 and S[_CTX] != 4:
        _fail()
    _player(p)
    SC[p] = v


@njit(cache=CACHE, inline='always')
def _read_only(S):
    if S[_RO] != 0:
        _fail()


@njit(cache=CACHE, inline='always')
def _add_op(S, CO, x, y, o, place):
    """addPlace / addClear in moves(): one operation of the candidate being built."""
    if S[_CTX] != 3:
        _fail()
    if x < 0 or x >= W or y < 0 or y >= H:
        S[_BAD] = 1  # a candidate naming a square off the board is dropped
    else:
        n = S[_NC]
        if n >= CO.shape[0]:
            _fail()  # more operations than the buffer holds: the Python backend plays this game
        CO[n, 0] = x
        CO[n, 1] = y
        CO[n, 2] = o
        CO[n, 3] = place
        S[_NC] = n + 1
    S[_ST] -= OPERATION_STEPS


@njit(cache=CACHE, inline='always')
def _add_move(S, CS):
    if S[_CTX] != 3:
        _fail()
    m = S[_NM]
    if S[_BAD] != 0:
        S[_NC] = CS[m]
    else:
        if m + 2 >= CS.shape[0]:
            _fail()
        CS[m + 1] = S[_NC]
        S[_NM] = m + 1
    S[_BAD] = 0


@njit(cache=CACHE, inline='always')
def _is_generated(S):
    if S[_CTX] != 1:
        _fail()
    if S[_OWN] == 0:
        _fail()  # judged alone: not done natively
    return True
'''


# NativeRules.judge: given moves judged by isMoveLegal() alone, as State.check judges them
# (kept apart from KERNEL: numba compiles it only for the callers that use it).
JUDGE = '''

@njit(cache=CACHE)
def judge(board, player, mn, V, VF, SC, ops, starts, verdicts):
    """isMoveLegal() of move k (ops[starts[k]:starts[k + 1]]) with its own step budget:
    verdicts[k] 1 legal, 0 rejected, -1 stopped (a run-time error or limit, or isGenerated(),
    which the kernels judge only for their own candidates)."""
    S = np.zeros(NSLOTS, np.int64)
    CO = np.empty((1, 4), np.int64)
    CS = np.zeros(2, np.int64)
    for k in range(verdicts.shape[0]):
        a = starts[k]
        b = starts[k + 1]
        S[_T] = player
        S[_MN] = mn
        S[_CTX] = 1
        S[_RO] = 1
        S[_OWN] = 0
        S[_NOPS] = b - a
        S[_ST] = MAXSTEPS
        try:
            verdicts[k] = 1 if u_isMoveLegal(board, ops[a:b], S, V, VF, SC, CO, CS, 1) else 0
        except Exception:
            verdicts[k] = -1
        if S[_ST] < 0:
            verdicts[k] = -1
'''

KERNEL = '''

@njit(cache=CACHE)
def _same(CO, a, b, c, d):
    if d - c != b - a:
        return False
    for k in range(b - a):
        for f in range(4):
            if CO[a + k, f] != CO[c + k, f]:
                return False
    return True


@njit(cache=CACHE)
def _dedupe(CO, CS, m):
    """Drop candidates equal to an earlier one (the Python backend's dict.fromkeys), with a
    hash table of the candidates kept."""
    size = 16
    while size < 2 * m:
        size *= 2
    table = np.full(size, -1, np.int64)
    kept = 0
    for i in range(m):
        a, b = CS[i], CS[i + 1]
        h = np.uint64(b - a)
        for k in range(a, b):
            for f in range(4):
                h = (h ^ np.uint64(CO[k, f] + 7)) * np.uint64(0x100000001B3)
        slot = np.int64(h >> np.uint64(20)) & (size - 1)
        duplicate = False
        while table[slot] >= 0:
            j = table[slot]
            if _same(CO, a, b, CS[j], CS[j + 1]):
                duplicate = True
                break
            slot = (slot + 1) & (size - 1)
        if duplicate:
            continue
        start = CS[kept]
        if start != a:
            for k in range(b - a):
                for f in range(4):
                    CO[start + k, f] = CO[a + k, f]
        CS[kept + 1] = start + b - a
        table[slot] = kept
        kept += 1
    return kept


@njit(cache=CACHE)
def _gen(B, S, V, VF, SC, CO, CS, player, mn):
    """The candidates of `player` (spec section 12) into CO / CS; -> how many."""
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = 3
    S[_RO] = 1
    S[_NOPS] = 0
    S[_ST] = MAXSTEPS
    S[_NC] = 0
    S[_NM] = 0
    S[_BAD] = 0
    CS[0] = 0
    return _candidates(B, S, V, VF, SC, CO, CS)


@njit(cache=CACHE)
def _automatic(B, S, CO, CS):
    """A game without moves(): every place, the clear of every occupied square, the pass."""
    n = 0
    m = 0
    need = W * H * (NOBJ + 1)
    if need > CO.shape[0] or need + 2 > CS.shape[0]:
        _fail()
    for x in range(W):
        for y in range(H):
            for o in range(1, NOBJ + 1):
                CO[n, 0] = x
                CO[n, 1] = y
                CO[n, 2] = o
                CO[n, 3] = 1
                n += 1
                m += 1
                CS[m] = n
    for k in range(W * H):
        if B[k] != 0:
            CO[n, 0] = k // H
            CO[n, 1] = k % H
            CO[n, 2] = 0
            CO[n, 3] = 0
            n += 1
            m += 1
            CS[m] = n
    m += 1
    CS[m] = n
    return m


@njit(cache=CACHE)
def _judge(B, S, V, VF, SC, CO, CS, c, player, mn):
    """Whether candidate c is legal: isMoveLegal() with its own step budget; a failure makes
    it illegal; the steps of one search are bounded by the pool (an error)."""
    a = CS[c]
    b = CS[c + 1]
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = 1
    S[_RO] = 1
    S[_OWN] = OWN_CANDIDATES
    S[_NOPS] = b - a
    S[_ST] = MAXSTEPS
    try:
        r = u_isMoveLegal(B, CO[a:b], S, V, VF, SC, CO, CS, 1)
    except Exception:
        r = False
    S[_POOL] -= MAXSTEPS - S[_ST]
    if S[_POOL] < 0:
        _fail()
    return r and S[_ST] >= 0


@njit(cache=CACHE)
def _has_legal_move(B, S, V, VF, SC, CO, CS):
    if S[_CTX] != 2:
        _fail()
    S2 = S.copy()
    p = S[_NXT] if S[_NXT] >= 0 else (S[_T] + 1) % P
    m = _gen(B, S2, V, VF, SC, CO, CS, p, S[_MN])
    S2[_POOL] = POOL
    for c in range(m):
        if _judge(B, S2, V, VF, SC, CO, CS, c, p, S[_MN]):
            return True
    return False


@njit(cache=CACHE)
def _play(B, S, V, VF, SC, CO, CS, MV, player, mn):
    """Apply the move MV and run end(); -> (over, winner or -1, next player)."""
    n = MV.shape[0]
    for i in range(n):
        B[MV[i, 0] * H + MV[i, 1]] = MV[i, 2]
    S[_T] = player
    S[_MN] = mn + 1
    S[_CTX] = 2
    S[_RO] = 0
    S[_WIN] = -1
    S[_NXT] = -1
    S[_NOPS] = n
    S[_ST] = MAXSTEPS
    r = u_end(B, MV, S, V, VF, SC, CO, CS, 1)
    if S[_ST] < 0:
        _fail()
    if r:
        return True, S[_WIN], player
    return False, -1, S[_NXT] if S[_NXT] >= 0 else (player + 1) % P


@njit(cache=CACHE)
def _rand(R):
    """splitmix64: a float in [0, 1)."""
    z = R[0] + np.uint64(0x9E3779B97F4A7C15)
    R[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=CACHE)
def playouts(seeds, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status, scores,
             record, rec_ops, rec_starts):
    """Random playouts from one position, one per seed. status: 0 ended, 1 capped, 2 no legal
    move, 3 a run-time error or limit (replayed in Python). With `record`, the moves of the
    (single) game are written to rec_ops / rec_starts."""
    CO = np.empty((CAP_OPS, 4), np.int64)
    CS = np.empty(CAP_MOVES, np.int64)
    order = np.empty(CAP_MOVES, np.int64)
    MV = np.empty((CAP_OPS, 4), np.int64)
    S = np.zeros(NSLOTS, np.int64)
    R = np.zeros(1, np.uint64)
    nrec = 0
    B = board.copy()
    V = V0.copy()
    VF = VF0.copy()
    SC = SC0.copy()
    for g in range(seeds.shape[0]):
        B[:] = board
        V[:] = V0
        VF[:] = VF0
        SC[:] = SC0
        R[0] = seeds[g]
        player = player0
        mn = mn0
        length = 0
        state = 0
        winner = -1
        nrec = 0
        try:
            while True:
                if max_moves >= 0 and length >= max_moves:
                    state = 1
                    break
                m = _gen(B, S, V, VF, SC, CO, CS, player, mn)
                S[_POOL] = POOL
                for i in range(m):
                    order[i] = i
                chosen = -1
                left = m
                while left > 0:
                    i = int(_rand(R) * left)
                    left -= 1
                    c = order[i]
                    order[i] = order[left]
                    if _judge(B, S, V, VF, SC, CO, CS, c, player, mn):
                        chosen = c
                        break
                if chosen < 0:
                    state = 2
                    break
                a = CS[chosen]
                n = CS[chosen + 1] - a
                for k in range(n):
                    for f in range(4):
                        MV[k, f] = CO[a + k, f]
                if record:
                    if nrec + 1 >= rec_starts.shape[0] or rec_starts[nrec] + n > rec_ops.shape[0]:
                        _fail()
                    for k in range(n):
                        for f in range(4):
                            rec_ops[rec_starts[nrec] + k, f] = MV[k, f]
                    rec_starts[nrec + 1] = rec_starts[nrec] + n
                    nrec += 1
                over, winner, player = _play(B, S, V, VF, SC, CO, CS, MV[:n], player, mn)
                mn += 1
                length += 1
                if over:
                    break
        except Exception:
            state = 3
        winners[g] = winner
        lengths[g] = length
        status[g] = state
        for p in range(P):
            scores[g, p] = SC[p]
    return nrec


@njit(cache=CACHE)
def _legal_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS):
    """The legal moves of a position, copied into LO / LS; -> how many."""
    m = _gen(B, S, V, VF, SC, CO, CS, player, mn)
    S[_POOL] = POOL
    n = 0
    LS[0] = 0
    for c in range(m):
        if _judge(B, S, V, VF, SC, CO, CS, c, player, mn):
            a = CS[c]
            b = CS[c + 1]
            if n + 2 >= LS.shape[0] or LS[n] + b - a > LO.shape[0]:
                _fail()
            for k in range(b - a):
                for f in range(4):
                    LO[LS[n] + k, f] = CO[a + k, f]
            LS[n + 1] = LS[n] + b - a
            n += 1
    return n


@njit(cache=CACHE)
def perft(board, player, mn, V, VF, SC, depth, counts):
    """counts[d - 1]: the move sequences of exactly d legal moves (play/perft.py), walked
    depth first with one frame per level (numba's cache cannot hold recursive functions)."""
    CO = np.empty((CAP_OPS, 4), np.int64)
    CS = np.empty(CAP_MOVES, np.int64)
    S = np.zeros(NSLOTS, np.int64)
    LO = np.empty((depth, PERFT_OPS, 4), np.int64)
    LS = np.empty((depth, PERFT_MOVES), np.int64)
    Bs = np.empty((depth + 1, board.shape[0]), np.int64)
    Vs = np.empty((depth + 1, V.shape[0]), np.int64)
    VFs = np.empty((depth + 1, VF.shape[0]), np.float64)
    SCs = np.empty((depth + 1, SC.shape[0]), np.float64)
    players = np.empty(depth + 1, np.int64)
    numbers = np.empty(depth + 1, np.int64)
    sizes = np.zeros(depth, np.int64)
    next_move = np.zeros(depth, np.int64)
    Bs[0] = board
    Vs[0] = V
    VFs[0] = VF
    SCs[0] = SC
    players[0] = player
    numbers[0] = mn
    sizes[0] = _legal_into(Bs[0], S, Vs[0], VFs[0], SCs[0], CO, CS, player, mn, LO[0], LS[0])
    level = 0
    while level >= 0:
        i = next_move[level]
        if i >= sizes[level]:
            level -= 1
            continue
        next_move[level] = i + 1
        up = level + 1
        Bs[up] = Bs[level]
        Vs[up] = Vs[level]
        VFs[up] = VFs[level]
        SCs[up] = SCs[level]
        try:
            over, winner, nxt = _play(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS,
                                      LO[level, LS[level, i]:LS[level, i + 1]], players[level], numbers[level])
        except Exception:
            continue  # end() failed: not a legal move
        counts[level] += 1
        if up < depth and not over:
            players[up] = nxt
            numbers[up] = numbers[level] + 1
            sizes[up] = _legal_into(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS, nxt, numbers[up],
                                    LO[up], LS[up])
            next_move[up] = 0
            level = up
    return 0
'''
