"""The fixed part of a native module: value operations with the language's semantics, the
built-ins that touch the state, and the playout and perft kernels.

The generated gdef functions (native/codegen.py) sit between HELPERS and KERNEL in one module
file, so numba can cache every function on disk. Conventions shared with codegen:

- the board `B` is a flat int64 array (square x, y at x * H + y; 0 is empty, object k is k);
- `OPS` holds the move being judged or ended from row S[_OP0], S[_NOPS] rows of x, y, object,
  is-place (not a slice: making one costs a reference count);
- `S` holds the scalars of the call in progress (slots below), `V` the int, bool and obj game
  variables, `VF` the float ones, `SC` the scores;
- moves() appends candidate operations to `CO` and their start offsets to `CS`;
- `HS` holds the board before the move and the positions of the game (HISTORY below);
- S[_CTX] is the entry point running: CTX_END and the like, builtins.Context's numbers.

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
    if S[_CTX] == CTX_IS_MOVE_LEGAL:
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
    """addPlace / addClear in moves(): one operation of the candidate being built."""
    if S[_CTX] != CTX_MOVES:
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
def _is_generated(S):
    # OWN: judged as a candidate (a game without moves() does not compile)
    if S[_CTX] != CTX_IS_MOVE_LEGAL or S[_OWN] == 0:
        _bad(S)
        return False
    return True
'''


# NativeRules.judge: given moves judged by isMoveLegal() alone, as State.check judges them
# (kept apart from KERNEL: numba compiles it only for the callers that use it).
JUDGE = '''

@njit(cache=CACHE)
def judge(board, player, mn, V, VF, SC, ops, starts, verdicts, H0, HS):
    """isMoveLegal() of move k (ops[starts[k]:starts[k + 1]]) with its own step budget:
    verdicts[k] 1 legal, 0 rejected, -1 stopped (a run-time error or limit, or isGenerated(),
    which the kernels judge only for their own candidates)."""
    S = np.zeros(NSLOTS, np.int64)
    CO = np.empty((1, 4), np.int64)
    CS = np.zeros(2, np.int64)
    if USES_HISTORY:  # the state's positions, for nextBoardSeen()
        _hist_load(HS, H0)
        if HS[_HN0] < 0:  # more than the kernel holds: the Python backend judges
            verdicts[:] = -1
            return
    for k in range(verdicts.shape[0]):
        _enter_judge(S, player, mn, 0, starts[k], starts[k + 1])
        legal = e_isMoveLegal(board, ops, S, V, VF, SC, CO, CS, HS)
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


@njit(cache=CACHE, inline='always')
def _keep(CO, CS, kept, a, b):
    """Candidate a..b becomes the kept-th: its operations moved down to follow the one before."""
    start = CS[kept]
    if start != a:
        for k in range(b - a):
            for f in range(4):
                CO[start + k, f] = CO[a + k, f]
    CS[kept + 1] = start + b - a


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
            _keep(CO, CS, kept, a, b)
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
        _keep(CO, CS, kept, a, b)
        table[slot] = kept
        kept += 1
    return kept


@njit(cache=CACHE, inline='always')
def _gen(B, S, V, VF, SC, CO, CS, player, mn, HS):
    """The candidates of `player` (spec section 12) into CO / CS; -> how many (none, with
    S[_ERR] set, when moves() failed)."""
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = CTX_MOVES
    S[_RO] = 1
    S[_NOPS] = 0
    S[_OP0] = 0
    S[_ST] = MAXSTEPS
    S[_NC] = 0
    S[_NM] = 0
    S[_BAD] = 0
    S[_ERR] = 0
    CS[0] = 0
    return _candidates(B, S, V, VF, SC, CO, CS, HS)


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
def _enter_judge(S, player, mn, own, a, b):
    """The slots of S for isMoveLegal() judging the move in rows a .. b - 1 (own: one of the
    kernel's candidates, for isGenerated())."""
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = CTX_IS_MOVE_LEGAL
    S[_RO] = 1
    S[_OWN] = own
    S[_NOPS] = b - a
    S[_OP0] = a
    S[_ST] = MAXSTEPS
    S[_ERR] = 0


@njit(cache=CACHE, inline='always')
def _judge(B, S, V, VF, SC, CO, CS, c, player, mn, HS):
    """Whether candidate c is legal: isMoveLegal() with its own step budget; a failure
    (_bad, the steps spent) makes it illegal. The steps of one search are bounded by the pool:
    the caller tests S[_POOL] < 0 (an error)."""
    _enter_judge(S, player, mn, OWN_CANDIDATES, CS[c], CS[c + 1])
    r = e_isMoveLegal(B, CO, S, V, VF, SC, CO, CS, HS)
    S[_POOL] -= MAXSTEPS - S[_ST]
    return r and S[_ERR] == 0 and S[_ST] >= 0


@njit(cache=CACHE, _nrt=NRT)
def _has_legal_move(B, S, V, VF, SC, CO, CS, HS):
    """hasLegalMove() in end(): a search of its own, after which end()'s slots of S are put
    back; a failure of the search is end()'s (S[_ERR])."""
    if S[_CTX] != CTX_END:
        _bad(S)
        return False
    saved = (S[_T], S[_MN], S[_ST], S[_CTX], S[_RO], S[_WIN], S[_NXT], S[_NOPS], S[_OWN], S[_NC],
             S[_NM], S[_BAD], S[_POOL], S[_OP0])
    p = S[_NXT] if S[_NXT] >= 0 else (S[_T] + 1) % P
    mn = S[_MN]
    m = _gen(B, S, V, VF, SC, CO, CS, p, mn, HS)
    failed = S[_ERR] != 0
    found = False
    S[_POOL] = POOL
    for c in range(m):
        legal = _judge(B, S, V, VF, SC, CO, CS, c, p, mn, HS)
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
def _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, HS):
    """Apply the move in rows a .. a + n - 1 of MV and run end(); -> (over, winner or -1, next
    player)."""
    if USES_PREVIOUS:  # the board before the move, for PreviousPosition
        for k in range(NB):
            HS[H_PREV + k] = B[k]
    for i in range(a, a + n):
        B[MV[i, 0] * H + MV[i, 1]] = MV[i, 2]
    S[_T] = player
    S[_MN] = mn + 1
    S[_CTX] = CTX_END
    S[_RO] = 0
    S[_WIN] = -1
    S[_NXT] = -1
    S[_NOPS] = n
    S[_OP0] = a
    S[_ST] = MAXSTEPS
    S[_ERR] = 0
    r = e_end(B, MV, S, V, VF, SC, CO, CS, HS)
    if S[_ST] < 0 or S[_ERR] != 0:
        _fail()
    if r:
        return True, S[_WIN], player
    return False, -1, S[_NXT] if S[_NXT] >= 0 else (player + 1) % P


@njit(cache=CACHE)
def _play_alone(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, HS):
    """_play() as a call of its own, for perft's try block (see _fail)."""
    return _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, HS)


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
def _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, player, mn, max_moves, record, rec_ops, rec_starts, HS):
    """One random game; -> status (0 ended, 1 capped, 2 no legal move). G holds its length,
    the moves recorded and the winner as it goes, so they are known when it fails."""
    while True:
        if max_moves >= 0 and G[0] >= max_moves:
            return 1
        m = _gen(B, S, V, VF, SC, CO, CS, player, mn, HS)
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
            legal = _judge(B, S, V, VF, SC, CO, CS, c, player, mn, HS)
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
        over, winner, player = _play(B, S, V, VF, SC, CO, CS, MV, 0, n, player, mn, HS)
        if USES_HISTORY and not over:  # the position reached
            _hist_play(B, player, V, VF, HS)
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
           scores, record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G, HS):
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
        if USES_HISTORY:
            _hist_restart(HS)
        state = _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, player0, mn0, max_moves, record,
                      rec_ops, rec_starts, HS)
        _game_over(g, state, G, SC, winners, lengths, status, scores)


@njit(cache=CACHE)
def playouts(seeds, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status, scores,
             record, rec_ops, rec_starts, CO, CS, order, MV, H0, HS):
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
    if USES_HISTORY:  # the start state's positions
        _hist_load(HS, H0)
    first = np.int64(0)  # not a literal: numba would compile _games once more for it
    while first < seeds.shape[0]:
        try:
            _games(seeds, first, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths,
                   status, scores, record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G,
                   HS)
            first = seeds.shape[0]
        except Exception:
            _game_over(G[3], 3, G, SC, winners, lengths, status, scores)
            first = G[3] + 1
    return G[1]


@njit(cache=CACHE)
def _legal_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS, HS):
    """The legal moves of a position, copied into LO / LS; -> how many."""
    m = _gen(B, S, V, VF, SC, CO, CS, player, mn, HS)
    if S[_ERR] != 0:
        _fail()
    S[_POOL] = POOL
    n = 0
    LS[0] = 0
    for c in range(m):
        legal = _judge(B, S, V, VF, SC, CO, CS, c, player, mn, HS)
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
def perft(board, player, mn, V, VF, SC, depth, counts, H0, HS):
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
    hn = np.zeros(depth + 1, np.int64)  # the positions of the history at each level
    if USES_HISTORY:
        _hist_load(HS, H0)
        if HS[_HN0] < 0 or HS[_HN0] + depth + 2 > HCAP:
            _fail()
        hn[0] = HS[_HN0]
    sizes[0] = _legal_into(Bs[0], S, Vs[0], VFs[0], SCs[0], CO, CS, player, mn, LO[0], LS[0], HS)
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
        if USES_HISTORY:
            _hist_truncate(HS, hn[level])
        try:
            a = LS[level, i]
            over, winner, nxt = _play_alone(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS, LO[level],
                                            a, LS[level, i + 1] - a, players[level], numbers[level], HS)
        except Exception:
            if USES_HISTORY and HS[_HX] != 0:  # a key the kernel cannot compare
                _fail()
            continue  # end() failed: not a legal move
        counts[level] += 1
        if up < depth and not over:
            players[up] = nxt
            numbers[up] = numbers[level] + 1
            if USES_HISTORY:
                _hist_play(Bs[up], nxt, Vs[up], VFs[up], HS)
                hn[up] = HS[_HN]
            sizes[up] = _legal_into(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS, nxt, numbers[up],
                                    LO[up], LS[up], HS)
            next_move[up] = 0
            level = up
    return 0
'''

# The state of spec section 15.4 (PreviousPosition, repetitions(), nextBoardSeen()) and the
# values typed only at run time (`OperationList[i][j]` with a computed j), between HELPERS and
# the generated functions.
HISTORY = '''

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


@njit(cache=CACHE, inline='always')
def _pread(B, S, HS, x, y):
    """PreviousPosition[x][y]: in end(), the square before the move; else CurrentPosition."""
    k = _sq(S, x, y)
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


@njit(cache=CACHE)
def _hist_add(HS, full):
    """The key written at entry _HN becomes the newest entry (full: a position; else only its
    board, as seen)."""
    n = HS[_HN]
    row = H_ROWS + n * KEYLEN
    hb = _board_hash(HS, row)
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


@njit(cache=CACHE)
def _hist_play(B, p, V, VF, HS):
    """The position reached by a move (the board, p to move) becomes the newest entry."""
    if HS[_HN] >= HCAP:
        _fail()  # a game longer than the buffer: the Python backend finishes it
    _key_row(B, p, V, VF, HS, H_ROWS + HS[_HN] * KEYLEN)
    _hist_add(HS, 1)


@njit(cache=CACHE)
def _repetitions(B, S, V, VF, HS):
    """repetitions(): the earlier positions equal to the one end() has reached."""
    if S[_CTX] != CTX_END:
        _bad(S)
        return 0
    p = S[_NXT] if S[_NXT] >= 0 else (S[_T] + 1) % P
    _key_row(B, p, V, VF, HS, H_KEY)
    h = _fin(_hash(HS, H_KEY + NB, KEYLEN - NB, _board_hash(HS, H_KEY)))
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
def _has_legal_move_seen(B, S, V, VF, SC, CO, CS, HS):
    """hasLegalMove() in a game with a history: the position end() has reached counts as
    seen while the candidates are judged (spec 15.4)."""
    if HS[_HN] >= HCAP:
        _bad(S)  # a game longer than the buffer: the Python backend finishes it
        return False
    row = H_ROWS + HS[_HN] * KEYLEN
    HS[row:row + NB] = B
    _hist_add(HS, 0)
    found = _has_legal_move(B, S, V, VF, SC, CO, CS, HS)
    _hist_truncate(HS, HS[_HN] - 1)
    return found


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
'''
