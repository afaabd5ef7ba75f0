"""The fixed part of a native module: value operations with the language's semantics, the
built-ins that touch the state, and the playout and perft kernels.

The generated gdef functions (native/codegen.py) sit between HELPERS and KERNEL in one module
file, so numba can cache every function on disk. Conventions shared with codegen:

- the board `B` is a flat int64 array (square x, y at x * H + y; 0 is empty, object k is k);
- `OPS` holds the move being judged or ended from row S[_OP0], S[_NOPS] rows of x, y, object,
  is-place (not a slice: making one costs a reference count);
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
_T, _MN, _ST, _CTX, _RO, _WIN, _NXT, _NOPS, _OWN, _NC, _NM, _BAD, _POOL, _ERR, _OP0 = range(15)
NSLOTS = 15


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
def _add(S, a, b):
    """Tested before adding, as _sub and _mul (fix, native property test): numba adds with
    LLVM's no-signed-wrap flag, so a test of the wrapped sum may be optimised away."""
    if (b > 0 and a > INT_MAX - b) or (b < 0 and a < INT_MIN - b):
        _bad(S)
    return a + b


@njit(cache=CACHE, inline='always')
def _sub(S, a, b):
    """Tested before subtracting (fix, native property test): LLVM removed the test of the
    wrapped difference where _sub was inlined (2 - INT_MIN gave no error)."""
    if (b < 0 and a > INT_MAX + b) or (b > 0 and a < INT_MIN + b):
        _bad(S)
    return a - b


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
    if a == INT_MIN:
        _bad(S)
    return -a


@njit(cache=CACHE, inline='always')
def _idiv(S, a, b):
    """C division: truncates toward zero."""
    if b == 0:
        _bad(S)
        return a * 0
    if b == -1:
        return _neg(S, a)
    q = a // b
    if a % b != 0 and (a < 0) != (b < 0):
        q += 1
    return q


@njit(cache=CACHE, inline='always')
def _imod(S, a, b):
    """C remainder: the sign of the dividend."""
    if b == 0:
        _bad(S)
        return a * 0
    if b == -1:
        return a * 0
    r = a % b
    if r != 0 and (r < 0) != (a < 0):
        r -= b
    return r


@njit(cache=CACHE, inline='always')
def _fdiv(S, a, b):
    if b == 0:
        _bad(S)
        return a * 0.0
    return a / b


@njit(cache=CACHE, inline='always')
def _fmod(S, a, b):
    if b == 0:
        _bad(S)
        return a * 0.0
    if math.isinf(a) or math.isnan(a) or math.isnan(b):
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
    if S[_CTX] == 1:
        a = S[_OP0]
        for i in range(a + S[_NOPS] - 1, a - 1, -1):
            if OPS[i, 0] * H + OPS[i, 1] == k:
                return OPS[i, 2]
    return B[k]


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
    if _player(S, p) and S[_CTX] == 2:
        S[_WIN] = p


@njit(cache=CACHE, inline='always')
def _set_next(S, p):
    if S[_CTX] != 2 and S[_CTX] != 4:
        _bad(S)
    elif _player(S, p):
        S[_NXT] = p


@njit(cache=CACHE, inline='always')
def _set_score(S, SC, p, v):
    if S[_CTX] != 2 and S[_CTX] != 4:
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
    """addPlace / addClear in moves(): one operation of the candidate being built."""
    if S[_CTX] != 3:
        _bad(S)
        return
    if x < 0 or x >= W or y < 0 or y >= H:
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
def _add_move(S, CS):
    if S[_CTX] != 3:
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
def _is_generated(S):
    if S[_CTX] != 1 or S[_OWN] == 0:  # OWN: judged as a candidate (a game without moves()
        _bad(S)                        # does not compile)
        return False
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
        S[_OP0] = a
        S[_ST] = MAXSTEPS
        S[_ERR] = 0
        legal = e_isMoveLegal(board, ops, S, V, VF, SC, CO, CS)
        verdicts[k] = -1 if S[_ERR] != 0 or S[_ST] < 0 else (1 if legal else 0)
'''

KERNEL = '''

@njit(cache=CACHE, inline='always')
def _same(CO, a, b, c, d):
    if d - c != b - a:
        return False
    for k in range(b - a):
        for f in range(4):
            if CO[a + k, f] != CO[c + k, f]:
                return False
    return True


@njit(cache=CACHE)
def _starts():
    """CS: the candidates' start offsets (CAP_MOVES), then the search number and one stamp per
    single-operation candidate (KEYS): the stamp says which search last generated it; from
    TABLE, _dedupe_any's hash table. Searches thus make no arrays: the kernels run without
    numba's reference counting unless the rules make arrays (codegen.NRT)."""
    CS = np.empty(TABLE + 2 * CAP_MOVES, np.int64)
    CS[CAP_MOVES:] = 0
    return CS


@njit(cache=CACHE, inline='always')
def _single_unique(CO, CS, m):
    """Whether every candidate is one operation with a stamp slot; if so, the duplicates are
    dropped by stamping (no comparison, no allocation) and -> (True, how many are left)."""
    if KEYS == 0 or CS[m] - CS[0] != m:
        return False, m
    for i in range(m):
        if CS[i + 1] - CS[i] != 1:
            return False, m
    search = CS[CAP_MOVES] + 1
    CS[CAP_MOVES] = search
    kept = 0
    for i in range(m):
        a = CS[i]
        key = CO[a, 0] * H + CO[a, 1]
        key = key * (NOBJ + 2) + (CO[a, 2] if CO[a, 3] != 0 else NOBJ + 1)
        if CS[CAP_MOVES + 1 + key] == search:
            continue
        CS[CAP_MOVES + 1 + key] = search
        if kept != i:
            for f in range(4):
                CO[kept, f] = CO[a, f]
        kept += 1
        CS[kept] = kept
    return True, kept


@njit(cache=CACHE, inline='always')
def _dedupe(CO, CS, m):
    """Drop candidates equal to an earlier one (the Python backend's dict.fromkeys): single
    operations by stamps, a few others by comparing each with those kept (no allocation),
    more with a hash table."""
    single, kept = _single_unique(CO, CS, m)
    if single:
        return kept
    return _dedupe_any(CO, CS, m)


@njit(cache=CACHE)
def _dedupe_any(CO, CS, m):
    if m <= 16:
        kept = 0
        for i in range(m):
            a, b = CS[i], CS[i + 1]
            duplicate = False
            for j in range(kept):
                if _same(CO, a, b, CS[j], CS[j + 1]):
                    duplicate = True
                    break
            if duplicate:
                continue
            start = CS[kept]
            if start != a:
                for k in range(b - a):
                    for f in range(4):
                        CO[start + k, f] = CO[a + k, f]
            CS[kept + 1] = start + b - a
            kept += 1
        return kept
    size = 16
    while size < 2 * m:
        size *= 2
    table = CS[TABLE:TABLE + size]  # a view: this function runs with reference counting
    table[:] = -1
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


@njit(cache=CACHE, inline='always')
def _gen(B, S, V, VF, SC, CO, CS, player, mn):
    """The candidates of `player` (spec section 12) into CO / CS; -> how many (none, with
    S[_ERR] set, when moves() failed)."""
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = 3
    S[_RO] = 1
    S[_NOPS] = 0
    S[_OP0] = 0
    S[_ST] = MAXSTEPS
    S[_NC] = 0
    S[_NM] = 0
    S[_BAD] = 0
    S[_ERR] = 0
    CS[0] = 0
    return _candidates(B, S, V, VF, SC, CO, CS)


@njit(cache=CACHE, inline='always')
def _automatic(B, S, CO, CS):
    """A game without moves(): every place, the clear of every occupied square, the pass."""
    n = 0
    m = 0
    need = W * H * (NOBJ + 1)
    if need > CO.shape[0] or need + 2 > CAP_MOVES:
        S[_ERR] = 1  # the buffers are too small: the Python backend plays this game
        return 0
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


@njit(cache=CACHE, inline='always')
def _judge(B, S, V, VF, SC, CO, CS, c, player, mn):
    """Whether candidate c is legal: isMoveLegal() with its own step budget; a failure
    (_bad, the steps spent) makes it illegal. The steps of one search are bounded by the pool:
    the caller tests S[_POOL] < 0 (an error)."""
    a = CS[c]
    b = CS[c + 1]
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = 1
    S[_RO] = 1
    S[_OWN] = OWN_CANDIDATES
    S[_NOPS] = b - a
    S[_OP0] = a
    S[_ST] = MAXSTEPS
    S[_ERR] = 0
    r = e_isMoveLegal(B, CO, S, V, VF, SC, CO, CS)
    S[_POOL] -= MAXSTEPS - S[_ST]
    return r and S[_ERR] == 0 and S[_ST] >= 0


@njit(cache=CACHE, _nrt=NRT)
def _has_legal_move(B, S, V, VF, SC, CO, CS):
    """hasLegalMove() in end(): a search of its own, after which end()'s slots of S are put
    back; a failure of the search is end()'s (S[_ERR])."""
    if S[_CTX] != 2:
        _bad(S)
        return False
    saved = (S[_T], S[_MN], S[_ST], S[_CTX], S[_RO], S[_WIN], S[_NXT], S[_NOPS], S[_OWN], S[_NC],
             S[_NM], S[_BAD], S[_POOL], S[_OP0])
    p = S[_NXT] if S[_NXT] >= 0 else (S[_T] + 1) % P
    mn = S[_MN]
    m = _gen(B, S, V, VF, SC, CO, CS, p, mn)
    failed = S[_ERR] != 0
    found = False
    S[_POOL] = POOL
    for c in range(m):
        legal = _judge(B, S, V, VF, SC, CO, CS, c, p, mn)
        if S[_POOL] < 0:
            failed = True
            break
        if legal:
            found = True
            break
    (S[_T], S[_MN], S[_ST], S[_CTX], S[_RO], S[_WIN], S[_NXT], S[_NOPS], S[_OWN], S[_NC],
     S[_NM], S[_BAD], S[_POOL], S[_OP0]) = saved
    S[_ERR] = 1 if failed else 0
    return found


@njit(cache=CACHE, inline='always')
def _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn):
    """Apply the move in rows a .. a + n - 1 of MV and run end(); -> (over, winner or -1, next
    player)."""
    for i in range(a, a + n):
        B[MV[i, 0] * H + MV[i, 1]] = MV[i, 2]
    S[_T] = player
    S[_MN] = mn + 1
    S[_CTX] = 2
    S[_RO] = 0
    S[_WIN] = -1
    S[_NXT] = -1
    S[_NOPS] = n
    S[_OP0] = a
    S[_ST] = MAXSTEPS
    S[_ERR] = 0
    r = e_end(B, MV, S, V, VF, SC, CO, CS)
    if S[_ST] < 0 or S[_ERR] != 0:
        _fail()
    if r:
        return True, S[_WIN], player
    return False, -1, S[_NXT] if S[_NXT] >= 0 else (player + 1) % P


@njit(cache=CACHE)
def _play_alone(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn):
    """_play() as a call of its own, for a try block (see _fail)."""
    return _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn)


@njit(cache=CACHE, inline='always')
def _rand(R):
    """splitmix64: a float in [0, 1)."""
    z = R[0] + np.uint64(0x9E3779B97F4A7C15)
    R[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=CACHE, inline='always')
def _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, player, mn, max_moves, record, rec_ops, rec_starts):
    """One random game; -> status (0 ended, 1 capped, 2 no legal move). G holds its length,
    the moves recorded and the winner as it goes, so they are known when it fails."""
    while True:
        if max_moves >= 0 and G[0] >= max_moves:
            return 1
        m = _gen(B, S, V, VF, SC, CO, CS, player, mn)
        if S[_ERR] != 0:
            _fail()
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
            legal = _judge(B, S, V, VF, SC, CO, CS, c, player, mn)
            if S[_POOL] < 0:
                _fail()
            if legal:
                chosen = c
                break
        if chosen < 0:
            return 2
        a = CS[chosen]
        n = CS[chosen + 1] - a
        for k in range(n):
            for f in range(4):
                MV[k, f] = CO[a + k, f]
        if record:
            nrec = G[1]
            if nrec + 1 >= rec_starts.shape[0] or rec_starts[nrec] + n > rec_ops.shape[0]:
                _fail()
            for k in range(n):
                for f in range(4):
                    rec_ops[rec_starts[nrec] + k, f] = MV[k, f]
            rec_starts[nrec + 1] = rec_starts[nrec] + n
            G[1] = nrec + 1
        over, winner, player = _play(B, S, V, VF, SC, CO, CS, MV, 0, n, player, mn)
        mn += 1
        G[0] += 1
        if over:
            G[2] = winner
            return 0


@njit(cache=CACHE, inline='always')
def _game_over(g, state, G, SC, winners, lengths, status, scores):
    winners[g] = G[2]
    lengths[g] = G[0]
    status[g] = state
    for p in range(P):
        scores[g, p] = SC[p]


@njit(cache=CACHE, inline='always')
def _copy(to, source):
    """to[:] = source, without the temporary view that needs numba's reference counting."""
    for k in range(source.shape[0]):
        to[k] = source[k]


@njit(cache=CACHE, _nrt=NRT)
def _games(seeds, first, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status,
           scores, record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G):
    """Games first, first + 1, ... to the last seed; G[3]: the game being played, so that
    playouts() knows which one a run-time error stopped. It makes no arrays, so unless the
    rules make some (NRT) it runs without numba's reference counting (see codegen: a counted
    call, or view, costs two atomic operations per array)."""
    for g in range(first, seeds.shape[0]):
        G[3] = g
        _copy(B, board)
        _copy(V, V0)
        _copy(VF, VF0)
        _copy(SC, SC0)
        R[0] = seeds[g]
        G[0] = 0
        G[1] = 0
        G[2] = -1
        state = _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, player0, mn0, max_moves, record,
                      rec_ops, rec_starts)
        _game_over(g, state, G, SC, winners, lengths, status, scores)


@njit(cache=CACHE)
def playouts(seeds, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status, scores,
             record, rec_ops, rec_starts, CO, CS, order, MV):
    """Random playouts from one position, one per seed. status: 0 ended, 1 capped, 2 no legal
    move, 3 a run-time error or limit (replayed in Python). With `record`, the moves of the
    (single) game are written to rec_ops / rec_starts. CO, CS (made by _starts()), order, MV:
    working buffers, CAP_OPS x 4, CAP_MOVES and CAP_OPS x 4, made once by the caller."""
    S = np.zeros(NSLOTS, np.int64)
    R = np.zeros(1, np.uint64)
    G = np.zeros(4, np.int64)
    B = board.copy()
    V = V0.copy()
    VF = VF0.copy()
    SC = SC0.copy()
    first = 0
    while first < seeds.shape[0]:
        try:
            _games(seeds, first, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths,
                   status, scores, record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G)
            first = seeds.shape[0]
        except Exception:
            _game_over(G[3], 3, G, SC, winners, lengths, status, scores)
            first = G[3] + 1
    return G[1]


@njit(cache=CACHE)
def _legal_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS):
    """The legal moves of a position, copied into LO / LS; -> how many."""
    m = _gen(B, S, V, VF, SC, CO, CS, player, mn)
    if S[_ERR] != 0:
        _fail()
    S[_POOL] = POOL
    n = 0
    LS[0] = 0
    for c in range(m):
        legal = _judge(B, S, V, VF, SC, CO, CS, c, player, mn)
        if S[_POOL] < 0:
            _fail()
        if legal:
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
    CS = _starts()
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
            a = LS[level, i]
            over, winner, nxt = _play_alone(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS, LO[level],
                                            a, LS[level, i + 1] - a, players[level], numbers[level])
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
