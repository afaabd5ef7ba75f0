"""The search for legal moves (candidates, duplicates, judging), a chance node's outcomes,
playing a move, random playouts and perft.

Part of every generated native module (see kernels/__init__.py): the lines below MODULE_TEXT
are copied into it; the imports above it are for linters and editors.
"""
import numpy as np
from numba import njit
from gdef_core.native.kernels.generated import (
    CACHE, CAP_MOVES, CAP_OPS, CHANCE, COUNTING, CTX_CHANCE, CTX_END, CTX_IS_MOVE_LEGAL, CTX_MOVES, H, HCAP,
    H_EB, H_PREV, H_ROWS, KEYLEN, KEYS, MAXSTEPS, MEMO, NB, NBO, NOBJ, NRT, OWN_CANDIDATES, P, PERFT_MOVES,
    PERFT_OPS, POOL, TABLE, USES_HISTORY, USES_PREVIOUS, W, WEIGHTS,
    _candidates, _chance_outcomes, e_end, e_isMoveLegal,
)
from gdef_core.native.kernels.helpers import (
    NSLOTS, _BAD, _CHN, _CTX, _DUP, _ERR, _ICM, _MN, _NC, _NM, _NOPS, _NXT, _OP0, _OWN, _POOL, _RO, _ST, _T,
    _WIN, _bad, _fail, _next_player,
)
from gdef_core.native.kernels.history import (
    _HBH, _HBV, _HN, _HN0, _HX, _hist_add, _hist_load, _hist_play, _hist_restart, _hist_truncate, _set,
)


# MODULE_TEXT (copied into each generated module from here on)


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
    TABLE, _dedupe_any's hash table; from MEMO, the memo of hasLegalMove()'s candidates (off);
    from WEIGHTS, the weights of a chance node's outcomes. Searches thus make no arrays: the
    kernels run without numba's reference counting unless the rules make arrays (codegen.NRT)."""
    CS = np.empty(WEIGHTS + CAP_MOVES, np.int64)
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
def _stamped(S, CO, CS, m):
    """The m candidates moves() proposed. When each is one operation with a stamp slot, the
    duplicates (the Python backend drops them: dict.fromkeys) are dropped at once; else they
    stay and S[_DUP] says so: a list of legal moves drops them (_gen_distinct), a random game
    skips them as it draws (_first_of), so a turn hashes no candidate."""
    single, kept = _single_unique(CO, CS, m)
    if single:
        return kept
    S[_DUP] = 1 if m > 1 else 0
    return m


@njit(cache=CACHE, inline='always')
def _first_of(CO, CS, k):
    """Whether candidate k is the first with its operations (no candidate before it the same)."""
    a, b = CS[k], CS[k + 1]
    for j in range(k):
        if _same(CO, CS[j], CS[j + 1], a, b):
            return False
    return True


@njit(cache=CACHE, inline='always')
def _keep(CO, CS, kept, a, b):
    """Candidate a..b becomes the kept-th: its operations moved down to follow the one before."""
    start = CS[kept]
    if start != a:
        for k in range(b - a):
            for f in range(4):
                CO[start + k, f] = CO[a + k, f]
    CS[kept + 1] = start + b - a


@njit(cache=CACHE, inline='always')
def _ops_hash(CO, a, b):
    """A hash of the operations a .. b - 1 for the duplicate table: each operation's four fields
    packed into one word, one multiplication per operation (equal hashes are compared whole,
    so collisions cost time only)."""
    h = np.uint64(b - a)
    for k in range(a, b):
        w = ((((np.uint64(CO[k, 0]) << np.uint64(16)) ^ np.uint64(CO[k, 1])) << np.uint64(16))
             ^ np.uint64(CO[k, 2])) << np.uint64(1)
        h = (h + (w ^ np.uint64(CO[k, 3]))) * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(29))


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
        h = _ops_hash(CO, a, b)
        slot = np.int64(h >> np.uint64(40)) & (size - 1)
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
def _propose_frame(S, CS, player, mn, context):
    """The state moves() and chance() start from: `player` proposing at move `mn`, read-only,
    a full step budget, no candidate or outcome yet (kernel.c's g_propose_frame)."""
    S[_T] = player
    S[_MN] = mn
    S[_CTX] = context
    S[_RO] = 1
    S[_NOPS] = 0
    S[_OP0] = 0
    S[_ST] = MAXSTEPS
    S[_NC] = 0
    S[_NM] = 0
    S[_BAD] = 0
    S[_ERR] = 0
    S[_DUP] = 0
    CS[0] = 0


@njit(cache=CACHE, inline='always')
def _gen(B, S, V, VF, SC, CO, CS, player, mn, HS):
    """The candidates of `player` (spec section 12) into CO / CS; -> how many (none, with
    S[_ERR] set, when moves() failed). They may hold duplicates (S[_DUP], _stamped)."""
    _propose_frame(S, CS, player, mn, CTX_MOVES)
    return _candidates(B, S, V, VF, SC, CO, CS, HS)


@njit(cache=CACHE, inline='always')
def _gen_distinct(B, S, V, VF, SC, CO, CS, player, mn, HS):
    """The candidates of `player`, each once (_gen, then the duplicates dropped)."""
    m = _gen(B, S, V, VF, SC, CO, CS, player, mn, HS)
    if S[_DUP] != 0:
        m = _dedupe_any(CO, CS, m)
        S[_DUP] = 0
    return m


@njit(cache=CACHE)
def _merge(CO, CS, m):
    """Drop outcomes equal to an earlier one, adding their weights to its (docs/language.md,
    "Chance": identical operation lists merged, in the order proposed): a few (the faces of a
    die) by comparing each with those kept, more (EinStein's 720 start placements) through a
    hash table in CS from TABLE (kernel.c's g_merge)."""
    size = 16
    while size < 2 * m:
        size *= 2
    if m > 16:
        for k in range(size):
            CS[TABLE + k] = -1
    kept = 0
    for i in range(m):
        a, b, w = CS[i], CS[i + 1], CS[WEIGHTS + i]
        j = -1
        slot = 0
        if m <= 16:
            for k in range(kept):
                if _same(CO, a, b, CS[k], CS[k + 1]):
                    j = k
                    break
        else:
            h = np.uint64(b - a)
            for k in range(a, b):
                for f in range(4):
                    h = (h ^ np.uint64(CO[k, f] + 7)) * np.uint64(0x100000001B3)
            slot = np.int64(h >> np.uint64(20)) & (size - 1)
            while CS[TABLE + slot] >= 0:
                e = CS[TABLE + slot]
                if _same(CO, a, b, CS[e], CS[e + 1]):
                    j = e
                    break
                slot = (slot + 1) & (size - 1)
        if j >= 0:
            CS[WEIGHTS + j] += w
            continue
        _keep(CO, CS, kept, a, b)
        CS[WEIGHTS + kept] = w
        if m > 16:
            CS[TABLE + slot] = kept
        kept += 1
    return kept


@njit(cache=CACHE, inline='always')
def _outcomes(B, S, V, VF, SC, CO, CS, player, mn, HS):
    """The outcomes of the chance node where `player` moves next into CO / CS, their weights
    from CS[WEIGHTS]; -> how many (none, with S[_ERR] set, when chance() failed or proposed
    none: G615, which the Python backend reports located)."""
    _propose_frame(S, CS, player, mn, CTX_CHANCE)
    m = _chance_outcomes(B, S, V, VF, SC, CO, CS, HS)
    if m == 0:
        S[_ERR] = 1
    return m


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


@njit(cache=CACHE, inline='always')
def _memo_keep(B, V, VF, CS, player, mn, m, first, dup):
    """Keep the candidates hasLegalMove() generated in end() for the next turn of a random game
    (which generates the same player's moves from the same position otherwise). CS from MEMO:
    0 off (perft, legal moves), 1 on and empty, 2 holding the candidates of player MEMO + 1 at
    move number MEMO + 2 (MEMO + 3 of them, in CO / CS), the first legal one (MEMO + 4; those
    before it are illegal), whether they may hold duplicates (MEMO + 5, S[_DUP]), from the
    board and int game variables from MEMO + 6. Games with float game variables keep none here
    (the C route compares their bits)."""
    if CS[MEMO] == 0 or VF.shape[0] > 0:
        return
    CS[MEMO] = 2
    CS[MEMO + 1] = player
    CS[MEMO + 2] = mn
    CS[MEMO + 3] = m
    CS[MEMO + 4] = first
    CS[MEMO + 5] = dup
    for k in range(NB):
        CS[MEMO + 6 + k] = B[k]
    for k in range(V.shape[0]):
        CS[MEMO + 6 + NB + k] = V[k]


@njit(cache=CACHE, inline='always')
def _gen_memo(B, S, V, VF, SC, CO, CS, player, mn, HS):
    """The candidates of `player` at move mn -> (how many, the first legal one or -1 when none
    was judged): those hasLegalMove() kept when the board, the game variables, the player and
    the move number are unchanged (end() may change the variables or the next player after
    asking), and then isMoveLegal() would see what it saw; else _gen(). The memo is emptied."""
    if CS[MEMO] == 2 and CS[MEMO + 1] == player and CS[MEMO + 2] == mn:
        CS[MEMO] = 1
        same = True
        for k in range(NB):
            if CS[MEMO + 6 + k] != B[k]:
                same = False
                break
        if same:
            for k in range(V.shape[0]):
                if CS[MEMO + 6 + NB + k] != V[k]:
                    same = False
                    break
        if same:
            S[_ERR] = 0
            S[_DUP] = CS[MEMO + 5]
            return CS[MEMO + 3], CS[MEMO + 4]
    if CS[MEMO] != 0:
        CS[MEMO] = 1
    return _gen(B, S, V, VF, SC, CO, CS, player, mn, HS), np.int64(-1)


@njit(cache=CACHE, _nrt=NRT)
def _has_legal_move(B, S, V, VF, SC, CO, CS, HS):
    """hasLegalMove() in end(): a search of its own, after which end()'s slots of S are put
    back; a failure of the search is end()'s (S[_ERR])."""
    if S[_CTX] != CTX_END:
        _bad(S)
        return False
    saved = (S[_T], S[_MN], S[_ST], S[_CTX], S[_RO], S[_WIN], S[_NXT], S[_NOPS], S[_OWN], S[_NC],
             S[_NM], S[_BAD], S[_POOL], S[_OP0])
    failed_before = S[_ERR] != 0   # an error of end() before the search stays one
    p = _next_player(S)
    mn = S[_MN]
    m = _gen(B, S, V, VF, SC, CO, CS, p, mn, HS)
    failed = S[_ERR] != 0
    found = False
    first = m
    S[_POOL] = POOL
    for c in range(m):
        legal = _judge(B, S, V, VF, SC, CO, CS, c, p, mn, HS)
        if S[_POOL] < 0:
            failed = True
            break
        if legal:
            found = True
            first = c
            break
    if not failed:
        _memo_keep(B, V, VF, CS, p, mn, m, first, S[_DUP])
    (S[_T], S[_MN], S[_ST], S[_CTX], S[_RO], S[_WIN], S[_NXT], S[_NOPS], S[_OWN], S[_NC],
     S[_NM], S[_BAD], S[_POOL], S[_OP0]) = saved
    S[_ERR] = 1 if failed or failed_before else 0
    return found


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
def _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, chance, HS):
    """Apply the move in rows a .. a + n - 1 of MV (a chance outcome when `chance`) and run
    end(); -> (1 when the game is over, 2 when the next move is chance's, else 0; the winner or
    -1; the next player, the one waiting at a chance node)."""
    if USES_PREVIOUS:  # the board before the move, for PreviousPosition
        for k in range(NB):
            HS[H_PREV + k] = B[k]
    # the newest entry is the board before the move: its hash is kept up to date (history._set)
    HS[_HBV] = 1 if USES_HISTORY and HS[_HN] > 0 else 0
    if HS[_HBV] != 0:
        HS[_HBH] = HS[H_EB + HS[_HN] - 1]
    for i in range(a, a + n):
        k = MV[i, 0] * H + MV[i, 1]
        if COUNTING and MV[i, 3] == 2:  # squares that count: a count operation
            _set(B, HS, NBO + k, MV[i, 2])
        else:
            _set(B, HS, k, MV[i, 2])
            if COUNTING:  # a place or a clear resets the count
                _set(B, HS, NBO + k, 0)
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
    S[_CHN] = 0
    S[_ICM] = 1 if chance else 0
    r = e_end(B, MV, S, V, VF, SC, CO, CS, HS)
    if S[_ST] < 0 or S[_ERR] != 0:
        _fail()
    if r:
        return 1, S[_WIN], player
    return 2 if S[_CHN] != 0 else 0, -1, _next_player(S)


@njit(cache=CACHE)
def _play_alone(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, chance, HS):
    """_play() as a call of its own, for perft's try block (see _fail)."""
    return _play(B, S, V, VF, SC, CO, CS, MV, a, n, player, mn, chance, HS)


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
def _pick(CS, R, m):
    """The outcome drawn by weight among the m in CO / CS: the first whose running sum of
    weights exceeds int(draw * total) (kernel.c's g_pick)."""
    total = 0
    for k in range(m):
        total += CS[WEIGHTS + k]
    t = int(_rand(R) * total)
    for k in range(m - 1):
        t -= CS[WEIGHTS + k]
        if t < 0:
            return k
    return m - 1


@njit(cache=CACHE, inline='always')
def _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, player, mn, max_moves, record, rec_ops, rec_starts, HS):
    """One random game (from a chance node when G[7]); -> status (0 ended, 1 capped, 2 no
    legal move). G holds its length, the moves recorded and the winner as it goes, so they are
    known when it fails. A chance node plays one outcome drawn by weight."""
    chance = CHANCE and G[7] != 0
    while True:
        if max_moves >= 0 and G[0] >= max_moves:
            return 1
        if chance:
            m = _outcomes(B, S, V, VF, SC, CO, CS, player, mn, HS)
            first = -1
            if CS[MEMO] != 0:   # the outcomes took CO / CS: the memo is gone
                CS[MEMO] = 1
        else:
            m, first = _gen_memo(B, S, V, VF, SC, CO, CS, player, mn, HS)
        if S[_ERR] != 0:
            _fail()
        S[_POOL] = POOL
        for i in range(m):
            order[i] = i
        chosen = _pick(CS, R, m) if chance else -1
        left = 0 if chance else m
        while left > 0:
            i = int(_rand(R) * left)
            left -= 1
            c = order[i]
            order[i] = order[left]
            if c < first:
                legal = False
            elif c == first:   # never a duplicate (its twin before it would be legal)
                legal = True
            elif S[_DUP] != 0 and not _first_of(CO, CS, c):
                legal = False
            else:
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
        over, winner, player = _play(B, S, V, VF, SC, CO, CS, MV, 0, n, player, mn, chance, HS)
        chance = CHANCE and over == 2
        if USES_HISTORY and over != 1:  # the position reached
            _hist_play(B, player, V, VF, HS)
        mn += 1
        G[0] += 1
        if over == 1:
            G[2] = winner
            return 0


@njit(cache=CACHE, inline='always')
def _mix(z):
    """splitmix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=CACHE, inline='always')
def _game_seed(seed, index, player):
    """The 64-bit seed of game `index` (player `player`) of a run seeded `seed` (a uint64),
    counter-based: the same for a game whichever call, process or machine plays it. Its
    Python twin, and the rule in words, are gdef_core.play.games.kernel_seed."""
    g = np.uint64(0x9E3779B97F4A7C15)
    z = _mix(seed + g)
    z = _mix(z + np.uint64(index + 1) * g)
    return _mix(z + np.uint64(player + 1) * g)


# The totals T of simulate() and playouts(): games the kernel finished (ended or capped),
# draws, capped, the sum and the maximum of their lengths, how many games it left to Python
# (their indexes in `odd`), then the wins of each player from T[_TWINS].
_TGAMES, _TDRAWS, _TCAPPED, _TLEN, _TMAX, _TODD, _TWINS = 0, 1, 2, 3, 4, 5, 6


@njit(cache=CACHE, inline='always')
def _game_over(g, state, G, SC, winners, lengths, status, scores, T, TS, odd):
    """Game g stopped with `state`: its row g of the per-game arrays (when they have rows)
    and its share of the totals (T, TS: each player's summed scores), or its index in `odd`
    when it did not end or reach the cap (no legal move, a run-time error or a limit)."""
    if winners.shape[0] > 0:
        winners[g] = G[2]
        lengths[g] = G[0]
        status[g] = state
        for p in range(P):
            scores[g, p] = SC[p]
    if state > 1:
        odd[T[_TODD]] = g
        T[_TODD] += 1
        return
    T[_TGAMES] += 1
    if state == 1:
        T[_TCAPPED] += 1
    elif G[2] >= 0:
        T[_TWINS + G[2]] += 1
    else:
        T[_TDRAWS] += 1
    T[_TLEN] += G[0]
    if G[0] > T[_TMAX]:
        T[_TMAX] = G[0]
    for p in range(P):
        TS[p] += SC[p]


@njit(cache=CACHE, inline='always')
def _copy(to, source):
    """to[:] = source, without the temporary view that needs numba's reference counting."""
    for k in range(source.shape[0]):
        to[k] = source[k]


@njit(cache=CACHE, _nrt=NRT)
def _games(seeds, first, stop, board, V0, VF0, SC0, winners, lengths, status, scores, T, TS, odd,
           record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G, HS):
    """Games first .. stop - 1: game g's moves drawn from seeds[g] when there are seeds
    (playouts(): games 0 .. stop - 1, a row each), else from _game_seed(R[1], g, 0). G[3]: the game being played, so that _run knows
    which one a run-time error stopped; G[4], G[5], G[6], G[7]: the player to move first, the
    first move number, the move cap, whether the first move is chance's (in G: a call of more
    than 30 arguments is one numba cannot
    compile). It makes no arrays, so unless the rules make some (NRT) it runs without numba's
    reference counting (see codegen: a counted call, or view, costs two atomic operations per
    array)."""
    for g in range(first, stop):
        G[3] = g
        _copy(B, board)
        _copy(V, V0)
        _copy(VF, VF0)
        _copy(SC, SC0)
        R[0] = seeds[g] if seeds.shape[0] > 0 else _game_seed(R[1], g, 0)
        G[0] = 0
        G[1] = 0
        G[2] = -1
        if USES_HISTORY:
            _hist_restart(HS)
        CS[MEMO] = 1  # hasLegalMove() keeps its candidates for the next turn
        state = _game(B, S, V, VF, SC, CO, CS, order, MV, R, G, G[4], G[5], G[6], record,
                      rec_ops, rec_starts, HS)
        _game_over(g, state, G, SC, winners, lengths, status, scores, T, TS, odd)


@njit(cache=CACHE)
def _run(seeds, seed, first, stop, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths,
         status, scores, T, TS, odd, record, rec_ops, rec_starts, CO, CS, order, MV, H0, HS, chance0):
    """_games() on to `stop` past the games a run-time error stopped (each counted as FAILED,
    3); -> how many moves were recorded."""
    S = np.zeros(NSLOTS, np.int64)
    R = np.zeros(2, np.uint64)
    R[1] = seed
    G = np.zeros(8, np.int64)
    G[4] = player0
    G[5] = mn0
    G[6] = max_moves
    G[7] = chance0
    B = board.copy()
    V = V0.copy()
    VF = VF0.copy()
    SC = SC0.copy()
    if USES_HISTORY:  # the start state's positions
        _hist_load(HS, H0)
    g = first
    while g < stop:
        try:
            _games(seeds, g, stop, board, V0, VF0, SC0, winners, lengths, status, scores, T, TS,
                   odd, record, rec_ops, rec_starts, B, S, V, VF, SC, CO, CS, order, MV, R, G, HS)
            g = stop
        except Exception:
            _game_over(G[3], 3, G, SC, winners, lengths, status, scores, T, TS, odd)
            g = G[3] + 1
    return G[1]


@njit(cache=CACHE)
def playouts(seeds, board, player0, mn0, V0, VF0, SC0, max_moves, winners, lengths, status, scores,
             record, rec_ops, rec_starts, CO, CS, order, MV, H0, HS, chance0):
    """Random playouts from one position (a chance node when chance0), one per seed, each game's result in its row of
    winners, lengths, status (0 ended, 1 capped, 2 no legal move, 3 a run-time error or
    limit: replayed in Python) and scores. With `record`, the moves of the (single) game are
    written to rec_ops / rec_starts. CO, CS (made by _starts()), order, MV: working buffers,
    CAP_OPS x 4, CAP_MOVES and CAP_OPS x 4, made once by the caller."""
    n = seeds.shape[0]
    T = np.zeros(_TWINS + P, np.int64)
    TS = np.zeros(P, np.float64)
    odd = np.empty(n, np.int64)
    return _run(seeds, np.uint64(0), np.int64(0), n, board, player0, mn0, V0, VF0, SC0, max_moves,
                winners, lengths, status, scores, T, TS, odd, record, rec_ops, rec_starts, CO, CS,
                order, MV, H0, HS, chance0)


@njit(cache=CACHE)
def simulate(seed, first, stop, board, player0, mn0, V0, VF0, SC0, max_moves, T, TS, odd, CO, CS,
             order, MV, H0, HS, chance0):
    """gdef-sim's random games first .. stop - 1 of a run seeded `seed` (a uint64), each
    seeded by _game_seed(seed, g, 0), added up into T and TS (zeroed by the caller) without
    a row per game; the indexes of the games left to Python in `odd` (stop - first long)."""
    none = np.empty(0, np.int64)
    record = stop < first  # False, but not a literal: numba would compile _run once more for one
    return _run(np.empty(0, np.uint64), seed, first, stop, board, player0, mn0, V0, VF0, SC0,
                max_moves, none, none, none, np.empty((0, P), np.float64), T, TS, odd, record,
                np.empty((1, 4), np.int64), np.zeros(1, np.int64), CO, CS, order, MV, H0, HS, chance0)


@njit(cache=CACHE)
def _legal_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS, HS):
    """The legal moves of a position, copied into LO / LS; -> how many."""
    m = _gen_distinct(B, S, V, VF, SC, CO, CS, player, mn, HS)
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
def _outcomes_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS, WT, HS):
    """The outcomes of a chance node, copied into LO / LS, their weights into WT (when it
    has rows); -> how many."""
    m = _outcomes(B, S, V, VF, SC, CO, CS, player, mn, HS)
    if S[_ERR] != 0:
        _fail()
    LS[0] = 0
    for k in range(m):
        a = CS[k]
        b = CS[k + 1]
        if k + 2 >= LS.shape[0] or LS[k] + b - a > LO.shape[0]:
            _fail()
        for r in range(b - a):
            for f in range(4):
                LO[LS[k] + r, f] = CO[a + r, f]
        LS[k + 1] = LS[k] + b - a
        if WT.shape[0] > 0:
            WT[k] = CS[WEIGHTS + k]
    return m


@njit(cache=CACHE, inline='always')
def _level_moves(B, S, V, VF, SC, CO, CS, chance, player, mn, LO, LS, HS):
    """The moves of a level of perft: a chance node's outcomes, else the legal moves."""
    if CHANCE and chance:
        return _outcomes_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS, LS[:0], HS)
    return _legal_into(B, S, V, VF, SC, CO, CS, player, mn, LO, LS, HS)


@njit(cache=CACHE)
def perft(board, player, mn, V, VF, SC, depth, counts, H0, HS, chance0):
    """counts[d - 1]: the move sequences of exactly d legal moves (runtime/perft.py; a chance
    outcome is one move), walked depth first with one frame per level (numba's cache cannot
    hold recursive functions), from a chance node when chance0."""
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
    chance = np.zeros(depth + 1, np.int64)
    chance[0] = chance0
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
    sizes[0] = _level_moves(Bs[0], S, Vs[0], VFs[0], SCs[0], CO, CS, chance0, player, mn, LO[0], LS[0], HS)
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
                                            a, LS[level, i + 1] - a, players[level], numbers[level],
                                            chance[level], HS)
        except Exception:
            if USES_HISTORY and HS[_HX] != 0:  # a key the kernel cannot compare
                _fail()
            continue  # end() failed: not a legal move
        counts[level] += 1
        if up < depth and over != 1:
            players[up] = nxt
            numbers[up] = numbers[level] + 1
            chance[up] = 1 if over == 2 else 0
            if USES_HISTORY:
                _hist_play(Bs[up], nxt, Vs[up], VFs[up], HS)
                hn[up] = HS[_HN]
            sizes[up] = _level_moves(Bs[up], S, Vs[up], VFs[up], SCs[up], CO, CS, chance[up], nxt,
                                     numbers[up], LO[up], LS[up], HS)
            next_move[up] = 0
            level = up
    return 0
