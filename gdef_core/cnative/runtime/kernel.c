/* The kernels of every generated C module, after the game's functions: the position history,
 * the search for legal moves (candidates, duplicates, judging), playing a move, random
 * playouts, perft and judging given moves; the functions native/backend.py calls (gdef_*) at
 * the end. The C twin of gdef_core/native/kernels/{history,kernel,judge}.py: the same buffers,
 * the same random numbers (splitmix64), so a seed plays the same game on both routes, but for
 * the lazy draw (g_lazy_draw, C only), whose candidates numbered before the off-board ones are
 * dropped and whose fallback after LAZY_REFUSALS draws again can take other numbers, and the
 * rejection draw (g_reject_draw, C only), which takes two numbers a try.
 *
 * Needs the generated g_candidates(), g_chance_outcomes(), g_key_row(), g_memo_row(),
 * e_isMoveLegal() and e_end() (and the constants) defined before it is included. */
#ifndef GDEF_KERNEL_C
#define GDEF_KERNEL_C

#if defined(_WIN32)
#define G_EXPORT __declspec(dllexport)
#else
#define G_EXPORT __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------ the history */

/* The key written at entry HS_N becomes the newest entry (full: a position; else only its
 * board, as seen). Only the tables the game reads are filled (USES_REPETITIONS: the positions',
 * USES_BOARD_SEEN: the boards'): each insertion is a probe at a random slot of 64 KB, a cache
 * miss a move that Go, which never asks repetitions(), paid for nothing. */
static void g_hist_add_hashed(int64_t *HS, int64_t full, uint64_t hb) {
    int64_t n = HS[HS_N];
    int64_t row = H_ROWS + n * KEYLEN;
    HS[H_EH + n] = USES_REPETITIONS ? g_fin(g_hash(HS, row + NB, KEYLEN - NB, hb)) : 0;
    HS[H_EB + n] = (int64_t)hb;
    HS[H_EK + n] = full;
    if (USES_BOARD_SEEN) g_tinsert(HS, H_BT, HS[H_EB + n], n);
    if (USES_REPETITIONS && full) g_tinsert(HS, H_PT, HS[H_EH + n], n);
    HS[HS_N] = n + 1;
}

static void g_hist_add(int64_t *HS, int64_t full) {
    g_hist_add_hashed(HS, full, g_board_hash(HS, H_ROWS + HS[HS_N] * KEYLEN));
}

/* The hash of the board B, which is the board of the row at `at` (g_key_row): the one g_play
 * kept (the newest entry's, changed by the move's operations), else computed. */
static inline uint64_t g_board_now(const int64_t *HS, int64_t at) {
    return HS[HS_BV] ? (uint64_t)HS[HS_BH] : g_board_hash(HS, at);
}

/* Drop the newest entries down to n. */
static void g_hist_truncate(int64_t *HS, int64_t n) {
    int64_t m = HS[HS_N];
    while (m > n) {
        m -= 1;
        if (USES_BOARD_SEEN) g_tremove(HS, H_BT, HS[H_EB + m], m);
        if (USES_REPETITIONS && HS[H_EK + m] != 0) g_tremove(HS, H_PT, HS[H_EH + m], m);
    }
    HS[HS_N] = m;
}

/* The start state's positions (H0, oldest first, its own last); HS_N0 = -1 when they leave
 * no room to play (every game then goes the failure path). */
static void g_hist_load(int64_t *HS, const int64_t *H0, int64_t rows) {
    for (int64_t k = H_PT; k < H_PT + 2 * TSIZE; k++) HS[k] = -1;
    HS[HS_N] = 0;
    HS[HS_X] = 0;
    HS[HS_BV] = 0;
    if (rows > HCAP / 2) {
        HS[HS_N0] = -1;
        return;
    }
    for (int64_t r = 0; r < rows; r++) {
        int64_t row = H_ROWS + HS[HS_N] * KEYLEN;
        memcpy(HS + row, H0 + r * KEYLEN, KEYLEN * sizeof(int64_t));
        g_hist_add(HS, 1);
    }
    HS[HS_N0] = HS[HS_N];
}

/* Back to the start state's positions, for the next game. */
static void g_hist_restart(Ctx *c) {
    if (c->HS[HS_N0] < 0) g_fail(c);
    g_hist_truncate(c->HS, c->HS[HS_N0]);
    c->HS[HS_BV] = 0;
}

/* The position reached by a move (the board, p to move) becomes the newest entry. */
static void g_hist_play(Ctx *c, int64_t p) {
    int64_t *HS = c->HS;
    if (HS[HS_N] >= HCAP) g_fail(c); /* a game longer than the buffer: the Python backend finishes it */
    int64_t row = H_ROWS + HS[HS_N] * KEYLEN;
    g_key_row(c, c->B, p, c->V, c->VF, row);
    g_hist_add_hashed(HS, 1, g_board_now(HS, row));
    HS[HS_BV] = 0;
}

/* In end(): the player who moves next unless end() ends the game (after a chance outcome, the
 * player who was waiting for it). */
static inline int64_t g_next_player(const int64_t *S) {
    return S[S_NXT] >= 0 ? S[S_NXT] : S[S_ICM] != 0 ? S[S_T] : (S[S_T] + 1) % P;
}

/* repetitions(): the earlier positions equal to the one end() has reached. */
static __attribute__((unused)) int64_t g_repetitions(Ctx *c) {
    int64_t *S = c->S, *HS = c->HS;
    if (S[S_CTX] != CTX_END) {
        g_bad(c);
        return 0;
    }
    int64_t p = g_next_player(S);
    g_key_row(c, c->B, p, c->V, c->VF, H_KEY);
    int64_t h = g_fin(g_hash(HS, H_KEY + NB, KEYLEN - NB, g_board_now(HS, H_KEY)));
    int64_t count = 0;
    int64_t s = h & TMASK;
    while (HS[H_PT + s] >= 0) {
        int64_t i = HS[H_PT + s];
        if (HS[H_EH + i] == h && g_same_key(HS, H_ROWS + i * KEYLEN, H_KEY, KEYLEN)) count += 1;
        s = (s + 1) & TMASK;
    }
    return count;
}

/* Whether the board in HS from `at` is the board of an entry of the history. */
static int g_board_known(const int64_t *HS, int64_t at) {
    int64_t h = (int64_t)g_board_hash(HS, at);
    int64_t s = h & TMASK;
    while (HS[H_BT + s] >= 0) {
        int64_t e = HS[H_BT + s];
        if (HS[H_EB + e] == h && g_same_key(HS, H_ROWS + e * KEYLEN, at, NB)) return 1;
        s = (s + 1) & TMASK;
    }
    return 0;
}

/* nextBoardSeen(): whether the board after the move judged is an earlier one's. The newest
 * entry is always the board judged from, so the next board's hash is its hash changed by the
 * operations; after consequences, ResultPosition (the scratch copy) is looked up whole. */
static __attribute__((unused)) int g_board_seen(Ctx *c) {
    int64_t *S = c->S, *HS = c->HS;
    if (S[S_CTX] != CTX_IS_MOVE_LEGAL) {
        g_bad(c);
        return 0;
    }
    if (HS[H_RES] != 0) return g_board_known(HS, H_RES + 1);
    uint64_t h = (uint64_t)HS[H_EB + HS[HS_N] - 1];
    int64_t a = S[S_OP0], n = S[S_NOPS];
    for (int64_t i = a; i < a + n; i++) {
        int64_t k = c->OPS[i][0] * H + c->OPS[i][1];
        int64_t old = c->B[k];
        for (int64_t j = i - 1; j >= a; j--) /* an earlier operation on the same square */
            if (c->OPS[j][0] * H + c->OPS[j][1] == k) {
                old = c->OPS[j][2];
                break;
            }
        h ^= g_z(k, old) ^ g_z(k, c->OPS[i][2]);
    }
    int64_t s = (int64_t)h & TMASK;
    int built = 0;
    while (HS[H_BT + s] >= 0) {
        int64_t e = HS[H_BT + s];
        if (HS[H_EB + e] == (int64_t)h) {
            if (!built) {
                memcpy(HS + H_KEY, c->B, NB * sizeof(int64_t));
                for (int64_t i = a; i < a + n; i++) HS[H_KEY + c->OPS[i][0] * H + c->OPS[i][1]] = c->OPS[i][2];
                built = 1;
            }
            if (g_same_key(HS, H_ROWS + e * KEYLEN, H_KEY, NB)) return 1;
        }
        s = (s + 1) & TMASK;
    }
    return 0;
}

/* nextBoardSeen() in a game whose squares count: the next board (objects and counts) built
 * and hashed whole, then looked up as g_board_seen does. */
static __attribute__((unused)) int g_board_seen_counted(Ctx *c) {
    int64_t *S = c->S, *HS = c->HS;
    if (S[S_CTX] != CTX_IS_MOVE_LEGAL) {
        g_bad(c);
        return 0;
    }
    if (HS[H_RES] != 0) return g_board_known(HS, H_RES + 1); /* after consequences: ResultPosition */
    memcpy(HS + H_KEY, c->B, NB * sizeof(int64_t));
    for (int64_t i = S[S_OP0]; i < S[S_OP0] + S[S_NOPS]; i++) g_apply(HS + H_KEY, c->OPS, i);
    return g_board_known(HS, H_KEY);
}

/* ------------------------------------------------------------ candidates */

static inline int g_same(Op *CO, int64_t a, int64_t b, int64_t c, int64_t d) {
    if (d - c != b - a) return 0;
    for (int64_t k = 0; k < b - a; k++)
        for (int f = 0; f < 4; f++)
            if (CO[a + k][f] != CO[c + k][f]) return 0;
    return 1;
}

/* Whether every candidate is one operation with a stamp slot; if so, the duplicates are
 * dropped by stamping (CS from CAP_MOVES: the search number, then one stamp per single
 * operation) and *kept says how many are left. One pass up to the first repeat, which moves
 * nothing (a list found not all single on the way is left as it was); only after a repeat are
 * the rest checked first, then moved down. */
static inline int64_t g_op_key(const int64_t *op) {
    return (op[0] * H + op[1]) * (NOBJ + 2) + (op[3] != 0 ? op[2] : NOBJ + 1);
}

static inline int g_single_unique(Op *CO, int64_t *CS, int64_t m, int64_t *kept_out) {
    if (KEYS == 0 || CS[m] - CS[0] != m) return 0;
    int64_t search = CS[CAP_MOVES] + 1;
    CS[CAP_MOVES] = search;
    int64_t i = 0;
    for (; i < m; i++) {
        int64_t a = CS[i];
        if (CS[i + 1] - a != 1) return 0;
        int64_t *slot = CS + CAP_MOVES + 1 + g_op_key(CO[a]);
        if (*slot == search) break;
        *slot = search;
    }
    *kept_out = i;
    if (i == m) return 1;
    for (int64_t j = i; j < m; j++)
        if (CS[j + 1] - CS[j] != 1) return 0;
    int64_t kept = i;
    for (; i < m; i++) {
        int64_t a = CS[i];
        int64_t *slot = CS + CAP_MOVES + 1 + g_op_key(CO[a]);
        if (*slot == search) continue;
        *slot = search;
        for (int f = 0; f < 4; f++) CO[kept][f] = CO[a][f];
        kept += 1;
        CS[kept] = kept;
    }
    *kept_out = kept;
    return 1;
}

/* Candidate a..b becomes the kept-th: its operations moved down to follow the one before. */
static inline void g_keep(Op *CO, int64_t *CS, int64_t kept, int64_t a, int64_t b) {
    int64_t start = CS[kept];
    if (start != a)
        for (int64_t k = 0; k < b - a; k++)
            for (int f = 0; f < 4; f++) CO[start + k][f] = CO[a + k][f];
    CS[kept + 1] = start + b - a;
}

/* A hash of the operations a .. b - 1 for the duplicate table: each operation's four fields
 * packed into one word, one multiplication per operation (equal hashes are compared whole, so
 * collisions cost time only). */
static inline uint64_t g_ops_hash(Op *CO, int64_t a, int64_t b) {
    uint64_t h = (uint64_t)(b - a);
    for (int64_t k = a; k < b; k++) {
        uint64_t w = ((((uint64_t)CO[k][0] << 16) ^ (uint64_t)CO[k][1]) << 16 ^ (uint64_t)CO[k][2]) << 1;
        h = (h + (w ^ (uint64_t)CO[k][3])) * UINT64_C(0x9E3779B97F4A7C15);
    }
    return h ^ (h >> 29);
}

static int64_t g_dedupe_any(Op *CO, int64_t *CS, int64_t m) {
    int64_t kept = 0;
    if (m <= 16) {
        for (int64_t i = 0; i < m; i++) {
            int64_t a = CS[i], b = CS[i + 1];
            int duplicate = 0;
            for (int64_t j = 0; j < kept; j++)
                if (g_same(CO, a, b, CS[j], CS[j + 1])) {
                    duplicate = 1;
                    break;
                }
            if (duplicate) continue;
            g_keep(CO, CS, kept, a, b);
            kept += 1;
        }
        return kept;
    }
    int64_t size = 16;
    while (size < 2 * m) size *= 2;
    int64_t *table = CS + TABLE;
    for (int64_t k = 0; k < size; k++) table[k] = -1;
    for (int64_t i = 0; i < m; i++) {
        int64_t a = CS[i], b = CS[i + 1];
        uint64_t h = g_ops_hash(CO, a, b);
        int64_t slot = (int64_t)(h >> 40) & (size - 1);
        int duplicate = 0;
        while (table[slot] >= 0) {
            int64_t j = table[slot];
            if (g_same(CO, a, b, CS[j], CS[j + 1])) {
                duplicate = 1;
                break;
            }
            slot = (slot + 1) & (size - 1);
        }
        if (duplicate) continue;
        g_keep(CO, CS, kept, a, b);
        table[slot] = kept;
        kept += 1;
    }
    return kept;
}

/* The m candidates moves() proposed. When each is one operation with a stamp slot, the
 * duplicates (the Python backend drops them: dict.fromkeys) are dropped at once; else they stay
 * and S[S_DUP] says so: a list of legal moves drops them (g_gen_distinct), a random game skips
 * them as it draws (g_first_of), so a turn hashes no candidate. */
static inline int64_t g_stamped(Ctx *c, int64_t m) {
    int64_t kept;
    if (g_single_unique(c->CO, c->CS, m, &kept)) return kept;
    c->S[S_DUP] = m > 1;
    return m;
}

/* Whether candidate k is the first with its operations (no candidate before it the same). */
static inline int g_first_of(Ctx *c, int64_t k) {
    int64_t a = c->CS[k], b = c->CS[k + 1];
    for (int64_t j = 0; j < k; j++)
        if (g_same(c->CO, c->CS[j], c->CS[j + 1], a, b)) return 0;
    return 1;
}

/* A game without moves(): every place, the clear of every occupied square, the pass. */
static inline int64_t g_automatic(Ctx *c) {
    int64_t n = 0, m = 0;
    int64_t need = W * H * (NOBJ + 1);
    if (need > c->co_rows || need + 2 > CAP_MOVES) {
        c->S[S_ERR] = 1; /* the buffers are too small: the Python backend plays this game */
        return 0;
    }
    for (int64_t x = 0; x < W; x++)
        for (int64_t y = 0; y < H; y++)
            for (int64_t o = 1; o <= NOBJ; o++) {
                c->CO[n][0] = x;
                c->CO[n][1] = y;
                c->CO[n][2] = o;
                c->CO[n][3] = 1;
                n += 1;
                m += 1;
                c->CS[m] = n;
            }
    for (int64_t k = 0; k < W * H; k++)
        if (c->B[k] != 0) {
            c->CO[n][0] = k / H;
            c->CO[n][1] = k % H;
            c->CO[n][2] = 0;
            c->CO[n][3] = 0;
            n += 1;
            m += 1;
            c->CS[m] = n;
        }
    m += 1;
    c->CS[m] = n;
    return m;
}

/* The state moves() and chance() start from: `player` proposing at move `mn`, read-only, a
 * full step budget, no candidate or outcome yet. */
static inline void g_propose_frame(Ctx *c, int64_t player, int64_t mn, int64_t context) {
    int64_t *S = c->S;
    S[S_T] = player;
    S[S_MN] = mn;
    S[S_CTX] = context;
    S[S_RO] = 1;
    S[S_NOPS] = 0;
    S[S_OP0] = 0;
    S[S_ST] = MAXSTEPS;
    S[S_NC] = 0;
    S[S_NM] = 0;
    S[S_BAD] = 0;
    S[S_ERR] = 0;
    S[S_DUP] = 0;
    c->CS[0] = 0;
}

/* The candidates of `player` (spec section 12) into CO / CS; -> how many (none, with
 * S[S_ERR] set, when moves() failed). Local arrays made by moves() are released. */
static inline int64_t g_gen(Ctx *c, int64_t player, int64_t mn) {
    g_propose_frame(c, player, mn, CTX_MOVES);
    size_t top = G_MARK(c);
    int64_t m = g_candidates(c);
    G_RELEASE(c, top);
    return m;
}

/* The candidates of `player`, each once (g_gen, then the duplicates dropped). */
static inline int64_t g_gen_distinct(Ctx *c, int64_t player, int64_t mn) {
    int64_t m = g_gen(c, player, mn);
    if (c->S[S_DUP] != 0) {
        m = g_dedupe_any(c->CO, c->CS, m);
        c->S[S_DUP] = 0;
    }
    return m;
}

/* ------------------------------------------------------------ chance */

/* Drop outcomes equal to an earlier one, adding their weights to its (docs/language.md,
 * "Chance": identical operation lists merged, in the order proposed): a few (the faces of a
 * die) by comparing each with those kept, more (EinStein's 720 start placements) through a
 * hash table in CS from TABLE. */
static __attribute__((unused)) int64_t g_merge(Op *CO, int64_t *CS, int64_t m) {
    int64_t *WT = CS + WEIGHTS, *table = CS + TABLE;
    int64_t size = 16;
    while (size < 2 * m) size *= 2;
    if (m > 16)
        for (int64_t k = 0; k < size; k++) table[k] = -1;
    int64_t kept = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t a = CS[i], b = CS[i + 1], w = WT[i], j = -1, slot = 0;
        if (m <= 16) {
            for (int64_t k = 0; k < kept && j < 0; k++)
                if (g_same(CO, a, b, CS[k], CS[k + 1])) j = k;
        } else {
            uint64_t h = (uint64_t)(b - a);
            for (int64_t k = a; k < b; k++)
                for (int f = 0; f < 4; f++) h = (h ^ (uint64_t)(CO[k][f] + 7)) * UINT64_C(0x100000001B3);
            slot = (int64_t)(h >> 20) & (size - 1);
            while (table[slot] >= 0 && j < 0) {
                if (g_same(CO, a, b, CS[table[slot]], CS[table[slot] + 1])) j = table[slot];
                slot = (slot + 1) & (size - 1);
            }
        }
        if (j >= 0) {
            WT[j] += w;
            continue;
        }
        g_keep(CO, CS, kept, a, b);
        WT[kept] = w;
        if (m > 16) table[slot] = kept;
        kept += 1;
    }
    return kept;
}

/* The outcomes of the chance node where `player` moves next into CO / CS, their weights from
 * CS[WEIGHTS]; -> how many (none, with S[S_ERR] set, when chance() failed or proposed none:
 * G615, which the Python backend reports located). */
static inline int64_t g_outcomes(Ctx *c, int64_t player, int64_t mn) {
    int64_t *S = c->S;
    g_propose_frame(c, player, mn, CTX_CHANCE);
    size_t top = G_MARK(c);
    int64_t m = g_chance_outcomes(c);
    G_RELEASE(c, top);
    if (m == 0) S[S_ERR] = 1;
    return m;
}

/* The slots of S for isMoveLegal() judging the move in rows a .. b - 1 (own: one of the
 * kernel's candidates, for isGenerated()). */
static inline void g_enter_judge(int64_t *S, int64_t player, int64_t mn, int64_t own, int64_t a, int64_t b) {
    S[S_T] = player;
    S[S_MN] = mn;
    S[S_CTX] = CTX_IS_MOVE_LEGAL;
    S[S_RO] = 1;
    S[S_OWN] = own;
    S[S_NOPS] = b - a;
    S[S_OP0] = a;
    S[S_ST] = MAXSTEPS;
    S[S_ERR] = 0;
}

/* isMoveLegal() of the move in OPS with its own step budget; a failure (g_bad, the steps
 * spent) makes it illegal. */
static inline int g_judge_ops(Ctx *c, Op *ops) {
    Op *saved = c->OPS;
    size_t top = G_MARK(c);
    c->OPS = ops;
    int r = e_isMoveLegal(c);
    c->OPS = saved;
    G_RELEASE(c, top);
    return r && c->S[S_ERR] == 0 && c->S[S_ST] >= 0;
}

/* Whether candidate k is legal. The steps of one search are bounded by the pool: the caller
 * tests S[S_POOL] < 0 (an error). */
static inline int g_judge(Ctx *c, int64_t k, int64_t player, int64_t mn) {
    g_enter_judge(c->S, player, mn, OWN_CANDIDATES, c->CS[k], c->CS[k + 1]);
    int r = g_judge_ops(c, c->CO);
    c->S[S_POOL] -= MAXSTEPS - c->S[S_ST];
    return r;
}

/* The candidates hasLegalMove() generated in end(), kept for the next turn of a random game
 * (which generates the same player's moves from the same position otherwise). CS from MEMO:
 * 0 off (perft, legal moves), 1 on and empty, 2 holding the candidates of player MEMO + 1 at
 * move number MEMO + 2 (MEMO + 3 of them, in CO / CS), the first legal one (MEMO + 4; those
 * before it are illegal), whether they may hold duplicates (MEMO + 5, S_DUP), from the board
 * and game variables from MEMO + 6 (the generated g_memo_row(): floats as their bits, the
 * constant tables left out). The next turn takes them only if all of these are unchanged (end() may go on to
 * change the variables or the next player after asking), and then judges again only the
 * candidates after the first legal one: isMoveLegal() sees the same position, move number,
 * variables and boards seen (spec 15.4: the position counts as seen in both). */

static inline void g_memo_keep(Ctx *c, int64_t player, int64_t mn, int64_t m, int64_t first) {
    int64_t *M = c->CS + MEMO;
    if (M[0] == 0) return;
    M[0] = 2;
    M[1] = player;
    M[2] = mn;
    M[3] = m;
    M[4] = first;
    M[5] = c->S[S_DUP];
    g_memo_row(c, M + 6);
}

/* The candidates of `player` at move mn kept by hasLegalMove() when still valid (and *first,
 * the first legal one), else -1 (*first -1: none judged); the memo is emptied either way. */
static inline int64_t g_memo_take(Ctx *c, int64_t player, int64_t mn, int64_t *first) {
    int64_t *M = c->CS + MEMO;
    *first = -1;
    if (M[0] == 2 && M[1] == player && M[2] == mn) {
        int64_t row[MEMO_LEN - 6 > 0 ? MEMO_LEN - 6 : 1];
        g_memo_row(c, row);
        M[0] = 1;
        if (memcmp(row, M + 6, (MEMO_LEN - 6) * sizeof(int64_t)) == 0) {
            c->S[S_ERR] = 0;
            c->S[S_DUP] = M[5];
            *first = M[4];
            return M[3];
        }
    }
    if (M[0] != 0) M[0] = 1;
    return -1;
}

static int g_rj_has_legal(Ctx *c, int64_t player, int64_t mn);

/* hasLegalMove() in end(): a search of its own, after which end()'s slots of S are put back;
 * a failure of the search is end()'s (S[S_ERR]), and so stays one of end() before it. */
static __attribute__((unused)) int g_has_legal_move(Ctx *c) {
    int64_t *S = c->S;
    if (S[S_CTX] != CTX_END) {
        g_bad(c);
        return 0;
    }
    int64_t saved[NSLOTS];
    memcpy(saved, S, sizeof saved);
    int64_t p = g_next_player(S);
    int64_t mn = S[S_MN];
    if (REJECT) { /* the next turn draws by rejection: no list to keep, stop at the first legal */
        int r = g_rj_has_legal(c, p, mn);
        if (r >= 0) {
            memcpy(S, saved, sizeof saved);
            if (r == 2) S[S_ERR] = 1;
            return r == 1;
        }
    }
    int64_t m = g_gen(c, p, mn);
    int failed = S[S_ERR] != 0;
    int found = 0;
    int64_t k = 0;
    S[S_POOL] = POOL;
    for (; k < m; k++) {
        int legal = g_judge(c, k, p, mn);
        if (S[S_POOL] < 0) {
            failed = 1;
            break;
        }
        if (legal) {
            found = 1;
            break;
        }
    }
    if (!failed) g_memo_keep(c, p, mn, m, k);
    memcpy(S, saved, sizeof saved); /* end()'s own flag included: an error before stays */
    if (failed) S[S_ERR] = 1;
    return found;
}

/* hasLegalMove() in a game with a history: the position end() has reached counts as seen
 * while the candidates are judged (spec 15.4). */
static __attribute__((unused)) int g_has_legal_move_seen(Ctx *c) {
    int64_t *HS = c->HS;
    if (HS[HS_N] >= HCAP) {
        g_bad(c); /* a game longer than the buffer: the Python backend finishes it */
        return 0;
    }
    int64_t row = H_ROWS + HS[HS_N] * KEYLEN;
    memcpy(HS + row, c->B, NB * sizeof(int64_t));
    g_hist_add_hashed(HS, 0, g_board_now(HS, row));
    int found = g_has_legal_move(c);
    g_hist_truncate(HS, HS[HS_N] - 1);
    return found;
}

/* ------------------------------------------------------------ playing */

/* Apply the move in rows a .. a + n - 1 of MV (a chance outcome when `chance`) and run end();
 * -> 1 when the game is over, 2 when the next move is chance's, else 0, with *winner (or -1)
 * and *next (the next player, the one waiting at a chance node). */
static int g_play(Ctx *c, Op *MV, int64_t a, int64_t n, int64_t player, int64_t mn, int64_t chance,
                  int64_t *winner, int64_t *next) {
    int64_t *S = c->S;
    if (USES_PREVIOUS) /* the board before the move, for PreviousPosition */
        memcpy(c->HS + H_PREV, c->B, NB * sizeof(int64_t));
    /* the newest entry is the board before the move: its hash is kept up to date (g_set) */
    c->HS[HS_BV] = USES_HISTORY && c->HS[HS_N] > 0;
    if (c->HS[HS_BV]) c->HS[HS_BH] = c->HS[H_EB + c->HS[HS_N] - 1];
    for (int64_t i = a; i < a + n; i++) {
        int64_t k = MV[i][0] * H + MV[i][1];
        if (COUNTING && MV[i][3] == 2) { /* squares that count: a count operation */
            g_set(c, NBO + k, MV[i][2]);
        } else {
            g_set(c, k, MV[i][2]);
            if (COUNTING) g_set(c, NBO + k, 0); /* a place or a clear resets the count */
        }
    }
    S[S_T] = player;
    S[S_MN] = mn + 1;
    S[S_CTX] = CTX_END;
    S[S_RO] = 0;
    S[S_WIN] = -1;
    S[S_NXT] = -1;
    S[S_NOPS] = n;
    S[S_OP0] = a;
    S[S_ST] = MAXSTEPS;
    S[S_ERR] = 0;
    S[S_CHN] = 0;
    S[S_ICM] = chance;
    Op *saved = c->OPS;
    size_t top = G_MARK(c);
    c->OPS = MV;
    int r = e_end(c);
    c->OPS = saved;
    G_RELEASE(c, top);
    if (S[S_ST] < 0 || S[S_ERR] != 0) g_fail(c);
    if (r) {
        *winner = S[S_WIN];
        *next = player;
        return 1;
    }
    *winner = -1;
    *next = g_next_player(S);
    return S[S_CHN] != 0 ? 2 : 0;
}

/* splitmix64: a float in [0, 1) (the numba kernels' numbers). */
static inline double g_rand(uint64_t *R) {
    uint64_t z = *R + UINT64_C(0x9E3779B97F4A7C15);
    *R = z;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z = z ^ (z >> 31);
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* The outcome drawn by weight among the m in CO / CS: the first whose running sum of weights
 * exceeds int(draw * total) (the numba kernels' _pick). */
static inline int64_t g_pick(Ctx *c, uint64_t *R, int64_t m) {
    const int64_t *WT = c->CS + WEIGHTS;
    int64_t total = 0;
    for (int64_t k = 0; k < m; k++) total += WT[k];
    int64_t t = (int64_t)(g_rand(R) * (double)total);
    for (int64_t k = 0; k < m - 1; k++) {
        t -= WT[k];
        if (t < 0) return k;
    }
    return m - 1;
}

/* The next of m candidates in a random order drawn as it goes (order[i] swapped with
 * order[left], *left of them not drawn yet): order starts as 0 .. m - 1 and is written only at
 * a second draw, as the first left it (*first_draw): most turns take their first draw. */
static inline int64_t g_shuffle_next(int64_t *order, uint64_t *R, int64_t m, int64_t *left, int64_t *first_draw) {
    int64_t i = (int64_t)(g_rand(R) * (double)*left);
    *left -= 1;
    if (*left == m - 1) {
        *first_draw = i;
        return i;
    }
    if (*left == m - 2) {
        for (int64_t j = 0; j < m; j++) order[j] = j;
        order[*first_draw] = m - 1;
    }
    int64_t k = order[i];
    order[i] = order[*left];
    return k;
}

/* Candidate k of the kinds player p's judgement may accept (lower/automatic_guards.py; every
 * kind where it cannot tell), numbered as g_automatic's list: the places of the objects
 * G_AUTO_OBJ[p][0 .. G_AUTO_N[p]) by square and object, written alone into row 0; then the clears
 * of the occupied squares (when G_AUTO_CLEARS[p]), g_automatic_draw's rows 1 ..; then the pass
 * (when G_AUTO_PASS[p]). With every kind kept this is g_automatic's numbering. */
static inline void g_automatic_one(Ctx *c, int64_t k, int64_t occupied, int64_t p) {
    int64_t nk = AUTO_NK ? AUTO_NK : G_AUTO_N[p]; /* a constant where the players place alike */
    c->CS[0] = 0;
    c->CS[1] = 1;
    if (k < W * H * nk) {
        int64_t square = k / nk;
        c->CO[0][0] = square / H;
        c->CO[0][1] = square % H;
        c->CO[0][2] = AUTO_NK == NOBJ ? k % (NOBJ > 0 ? NOBJ : 1) + 1 : G_AUTO_OBJ[p][k % nk];
        c->CO[0][3] = 1;
    } else if (k - W * H * nk < occupied) {
        c->CS[0] = 1 + k - W * H * nk;
        c->CS[1] = c->CS[0] + 1;
    } else {
        c->CS[1] = 0; /* the pass */
    }
}

/* A random game's move in a game without moves(), without writing g_automatic's whole list
 * (one place per square and object each turn, most of them illegal), and without the kinds of
 * candidates isMoveLegal() refuses for this player whatever the position
 * (lower/automatic_guards.py: never legal, so every legal move stays equally likely): the
 * kept candidates drawn in a uniformly random order, the clears written (CO rows 1 ..), each
 * place written when drawn. Where every kind is kept, the same draws over the same numbering as
 * numba's kernel, so the same games. -> 0 with the move in CO rows CS[0] .. CS[1], 1 when none
 * is legal, -1 when the buffers are too small for the list (g_automatic reports it). */
static int64_t g_automatic_draw(Ctx *c, int64_t *order, uint64_t *R, int64_t player, int64_t mn) {
    int64_t need = W * H * (NOBJ + 1);
    if (need > c->co_rows || need + 2 > CAP_MOVES) return -1;
    int64_t occupied = 0, first_draw = 0;
    if (G_AUTO_CLEARS[player])
        for (int64_t x = 0; x < W; x++)
            for (int64_t y = 0; y < H; y++)
                if (c->B[x * H + y] != 0) {
                    occupied += 1;
                    c->CO[occupied][0] = x;
                    c->CO[occupied][1] = y;
                    c->CO[occupied][2] = 0;
                    c->CO[occupied][3] = 0;
                }
    int64_t m = W * H * (AUTO_NK ? AUTO_NK : G_AUTO_N[player]) + occupied + G_AUTO_PASS[player];
    g_propose_frame(c, player, mn, CTX_MOVES);
    c->S[S_POOL] = POOL;
    for (int64_t left = m; left > 0;) {
        int64_t k = g_shuffle_next(order, R, m, &left, &first_draw);
        g_automatic_one(c, k, occupied, player);
        int legal = g_judge(c, 0, player, mn);
        if (c->S[S_POOL] < 0) g_fail(c);
        if (legal) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ the lazy draw (gdef.h) */

/* Below this many candidates a turn generates them all; after this many refused draws too. */
#define LAZY_MIN 16
#define LAZY_REFUSALS 8

/* One pass of moves()'s twin in `mode` about candidate k (of n operations), from the state
 * moves() starts from; it ends early by a longjmp to `here` (g_lazy_move). */
static void g_lazy_pass(Ctx *c, int64_t player, int64_t mn, int64_t mode, int64_t k, int64_t n) {
    int64_t *S = c->S;
    jmp_buf here;
    g_propose_frame(c, player, mn, CTX_MOVES);
    S[S_LK] = k;
    S[S_LN] = n;
    S[S_LD] = 0;
    c->stop = &here;
    size_t top = G_MARK(c);
    if (setjmp(here) == 0) { /* each pass its own copy of moves(), the mode a constant in it */
        if (mode == LZ_COUNT)
            g_lazy_moves(c, LZ_COUNT);
        else if (mode == LZ_SEEK)
            g_lazy_moves(c, LZ_SEEK);
        else
            g_lazy_moves(c, LZ_MATCH);
    }
    G_RELEASE(c, top);
}

/* A random game's move drawn without writing every candidate: the candidates counted
 * (LZ_COUNT), then k drawn among those not yet refused, written alone (LZ_SEEK), refused when it
 * names a square off the board (a full generation drops it) or an earlier candidate is the same
 * (LZ_MATCH: only the first of each kind is drawn, as g_first_of keeps it), else judged. -> 0
 * with the move in CO rows CS[0] .. CS[1], or -1: generate them all (the count failed or spent
 * the budget, which the full generation then reports exactly as always; few candidates; or
 * LAZY_REFUSALS refused). Each legal move is drawn with the same probability: a uniformly random
 * order of the candidates, the refused passed over. */
static int64_t g_lazy_draw(Ctx *c, int64_t *order, uint64_t *R, int64_t player, int64_t mn) {
    int64_t *S = c->S;
    g_lazy_pass(c, player, mn, LZ_COUNT, 0, 0);
    if (S[S_ERR] != 0 || S[S_ST] < 0 || S[S_NM] < LAZY_MIN) return -1;
    int64_t m = S[S_NM], first_draw = 0;
    S[S_POOL] = POOL;
    for (int64_t left = m, refused = 0; left > 0 && refused < LAZY_REFUSALS; refused++) {
        int64_t k = g_shuffle_next(order, R, m, &left, &first_draw);
        g_lazy_pass(c, player, mn, LZ_SEEK, k, 0);
        if (S[S_ERR] != 0) return -1;
        if (S[S_LD] != 0) continue; /* off the board */
        int64_t n = S[S_LN];
        if (k > 0) {
            g_lazy_pass(c, player, mn, LZ_MATCH, k, n);
            if (S[S_LD] == 2) continue; /* a duplicate */
        }
        c->CS[0] = 0;
        c->CS[1] = n;
        int legal = g_judge(c, 0, player, mn);
        if (S[S_POOL] < 0) g_fail(c);
        if (legal) return 0;
    }
    return -1;
}

/* ------------------------------------------------------------ the rejection draw (gdef.h) */

/* Tries of the rejection draw beyond the entries (a try walks one entry, a full generation
 * every entry once) before the turn generates every candidate. */
#define RJ_TRIES 16

/* The entries hasLegalMove() found in end() (g_rj_has_legal), kept for the next turn's draw,
 * which takes them when it starts from the same position: [0] 1 when kept, [1] the player,
 * [2] the move number, then g_memo_row() (the board and the game variables, as the memo of
 * hasLegalMove()'s candidates compares them: all that moves() reads). */
static _Thread_local int64_t g_rj_key[MEMO_LEN];

static inline int g_rj_kept(Ctx *c, int64_t player, int64_t mn) {
    if (g_rj_key[0] != 1 || g_rj_key[1] != player || g_rj_key[2] != mn) return 0;
    int64_t row[MEMO_LEN - 6 > 0 ? MEMO_LEN - 6 : 1];
    g_memo_row(c, row);
    return memcmp(row, g_rj_key + 3, (MEMO_LEN - 6) * sizeof(int64_t)) == 0;
}

/* The entries of the nest where `player` proposes at move mn (x_moves in RJ_OUTER, each
 * entry's steps' bound charged); -> how many, or -1: the pass failed, spent the budget or
 * found more than RJ_CAP (a full generation then says what happens). */
static __attribute__((unused)) int64_t g_rj_entries(Ctx *c, int64_t player, int64_t mn) {
    g_propose_frame(c, player, mn, CTX_MOVES);
    g_rj_n = 0;
    g_rj_key[0] = 0;
    size_t top = G_MARK(c);
    g_reject_moves(c, RJ_OUTER);
    G_RELEASE(c, top);
    if (c->S[S_ST] < 0 || c->S[S_ERR] != 0 || g_rj_n > RJ_CAP) return -1;
    return g_rj_n;
}

/* The candidates of entry k into CO / CS (x_moves in RJ_NEST), up to candidate `last` (the
 * nest left after it, g_rj_move); -> how many on the board, or -1. */
static __attribute__((unused)) int64_t g_rj_nest(Ctx *c, int64_t player, int64_t mn, int64_t k, int64_t last) {
    g_propose_frame(c, player, mn, CTX_MOVES);
    c->S[S_LK] = k;
    c->S[S_LN] = last;
    size_t top = G_MARK(c);
    g_reject_moves(c, RJ_NEST);
    G_RELEASE(c, top);
    if (c->S[S_ST] < 0 || c->S[S_ERR] != 0) return -1;
    return c->S[S_NM];
}

/* A random game's move drawn by rejection: an entry and j in [0, RJ_BOUND) drawn uniformly,
 * the entry's j-th candidate on the board taken when it has one and it is legal, else another
 * try. Every candidate has the chance 1 / (entries x RJ_BOUND) a try (moves() proposes each
 * once, lower/distinct.py), so each legal move is drawn alike. -> 0 with the move in CO rows
 * CS[0] .. CS[1], or -1: generate them all (no entry, the outer pass failed, or entries +
 * RJ_TRIES tries refused; a full generation and a uniform draw among all then). */
static __attribute__((unused)) int64_t g_reject_draw(Ctx *c, uint64_t *R, int64_t player, int64_t mn) {
    int64_t *S = c->S;
    int64_t n = g_rj_kept(c, player, mn) ? g_rj_n : g_rj_entries(c, player, mn);
    if (n <= 0) return -1;
    S[S_POOL] = POOL;
    for (int64_t tries = 0; tries < n + RJ_TRIES; tries++) {
        int64_t k = (int64_t)(g_rand(R) * (double)n);
        int64_t j = (int64_t)(g_rand(R) * (double)RJ_BOUND);
        int64_t m = g_rj_nest(c, player, mn, k, j);
        if (m < 0) return -1;
        if (j >= m) continue;
        int64_t a = c->CS[j], b = c->CS[j + 1];
        c->CS[0] = a;
        c->CS[1] = b;
        int legal = g_judge(c, 0, player, mn);
        if (S[S_POOL] < 0) g_fail(c);
        if (legal) return 0;
    }
    return -1;
}

/* hasLegalMove() from the entries: each entry's candidates judged in the order moves()
 * proposes them, up to the first legal one (the full search's order, so the same judgements
 * and pool); -> 1 found, 0 none, 2 the pool spent (a failure), -1 undecided (search them all).
 * The rest of moves() is never run: the outer pass ran all of it but the nest, whose runs
 * cannot fail and whose steps it charged (lower/rejection.py), so a full generation would
 * not fail either. */
static __attribute__((unused)) int g_rj_has_legal(Ctx *c, int64_t player, int64_t mn) {
    int64_t *S = c->S;
    int64_t n = g_rj_entries(c, player, mn);
    if (n < 0) return -1;
    g_rj_key[0] = 1; /* for the next turn's draw */
    g_rj_key[1] = player;
    g_rj_key[2] = mn;
    g_memo_row(c, g_rj_key + 3);
    S[S_POOL] = POOL;
    for (int64_t k = 0; k < n; k++) {
        int64_t m = g_rj_nest(c, player, mn, k, RJ_BOUND);
        if (m < 0) return -1;
        for (int64_t i = 0; i < m; i++) {
            int legal = g_judge(c, i, player, mn);
            if (S[S_POOL] < 0) return 2;
            if (legal) return 1;
        }
    }
    return 0;
}

typedef struct {
    int64_t *order;
    Op *MV;
    uint64_t R;
    int64_t length, recorded, winner;
    int record;
    Op *rec_ops;
    int64_t rec_rows;
    int64_t *rec_starts;
    int64_t rec_len;
} Game;

/* One random game (from a chance node when `chance`); -> status (0 ended, 1 capped, 2 no
 * legal move). G holds its length, the moves recorded and the winner as it goes, so they are
 * known when it fails. A chance node plays one outcome drawn by weight. */
static int64_t g_game(Ctx *c, Game *G, int64_t player, int64_t mn, int64_t chance, int64_t max_moves) {
    int64_t *S = c->S;
    for (;;) {
        if (max_moves >= 0 && G->length >= max_moves) return 1;
        chance = CHANCE && chance;
        int64_t first = -1;
        int64_t m, drawn = 0; /* drawn: the lazy draw chose candidate 0 */
        if (chance) {
            m = g_outcomes(c, player, mn);
            if (c->CS[MEMO] != 0) c->CS[MEMO] = 1; /* the outcomes took CO / CS: the memo is gone */
        } else {
            m = g_memo_take(c, player, mn, &first);
            if (m < 0 && LAZY) drawn = g_lazy_draw(c, G->order, &G->R, player, mn) == 0;
            if (m < 0 && REJECT && !drawn) drawn = g_reject_draw(c, &G->R, player, mn) == 0;
            if (m < 0 && !OWN_CANDIDATES) {
                int64_t r = g_automatic_draw(c, G->order, &G->R, player, mn);
                if (r == 1) return 2;
                drawn = r == 0;
            }
            if (m < 0) m = drawn ? 1 : g_gen(c, player, mn);
        }
        if (S[S_ERR] != 0) g_fail(c);
        S[S_POOL] = POOL;
        int64_t chosen = chance ? g_pick(c, &G->R, m) : drawn ? 0 : -1, left = chance || drawn ? 0 : m;
        int64_t first_draw = 0;
        while (left > 0) {
            int64_t k = g_shuffle_next(G->order, &G->R, m, &left, &first_draw);
            /* the first legal one is never a duplicate (its twin before it would be legal) */
            int legal = k < first                          ? 0
                        : k == first                       ? 1
                        : S[S_DUP] != 0 && !g_first_of(c, k) ? 0
                                                           : g_judge(c, k, player, mn);
            if (S[S_POOL] < 0) g_fail(c);
            if (legal) {
                chosen = k;
                break;
            }
        }
        if (chosen < 0) return 2;
        int64_t a = c->CS[chosen], n = c->CS[chosen + 1] - a;
        memcpy(G->MV, c->CO + a, n * sizeof(Op));
        if (G->record) {
            int64_t nrec = G->recorded;
            if (nrec + 1 >= G->rec_len || G->rec_starts[nrec] + n > G->rec_rows) g_fail(c);
            memcpy(G->rec_ops + G->rec_starts[nrec], G->MV, n * sizeof(Op));
            G->rec_starts[nrec + 1] = G->rec_starts[nrec] + n;
            G->recorded = nrec + 1;
        }
        int64_t winner, next;
        int over = g_play(c, G->MV, 0, n, player, mn, chance, &winner, &next);
        player = next;
        chance = over == 2;
        if (USES_HISTORY && over != 1) g_hist_play(c, player); /* the position reached */
        mn += 1;
        G->length += 1;
        if (over == 1) {
            G->winner = winner;
            return 0;
        }
    }
}

/* One game under its own jump target: -> its status, 3 when it failed. */
static int64_t g_game_caught(Ctx *c, Game *G, int64_t player, int64_t mn, int64_t chance, int64_t max_moves) {
    jmp_buf here;
    jmp_buf *outer = c->jump;
    c->jump = &here;
    int64_t status;
    if (setjmp(here) == 0) {
        if (USES_HISTORY) g_hist_restart(c);
        c->CS[MEMO] = 1; /* hasLegalMove() keeps its candidates for the next turn */
        status = g_game(c, G, player, mn, chance, max_moves);
    } else {
        status = 3;
        G_RELEASE(c, 0);
    }
    c->jump = outer;
    return status;
}

/* splitmix64's finaliser: a bijection of 64-bit words that scatters every input bit. */
static inline uint64_t g_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The 64-bit seed of game `index` (player `player`) of a run seeded `seed`, counter-based:
 * the numba kernels' _game_seed, whose Python twin is gdef_core.play.games.kernel_seed. */
static inline uint64_t g_game_seed(uint64_t seed, int64_t index, int64_t player) {
    const uint64_t g = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t z = g_mix(seed + g);
    z = g_mix(z + (uint64_t)(index + 1) * g);
    return g_mix(z + (uint64_t)(player + 1) * g);
}

/* The totals T of gdef_simulate (the numba kernels' slots): games the kernel finished (ended
 * or capped), draws, capped, the sum and the maximum of their lengths, how many games it left
 * to Python (their indexes in `odd`), then each player's wins from T[T_WINS]; TS each player's
 * summed scores. */
enum { T_GAMES, T_DRAWS, T_CAPPED, T_LEN, T_MAX, T_ODD, T_WINS };

/* Games first .. stop - 1 from one position (a chance node when chance0): game g drawn from seeds[g] (seeds not NULL),
 * else from g_game_seed(seed, g, 0); each game's row in winners .. scores (when not NULL) and
 * its share of T and TS (when not NULL). -> the moves recorded. */
static int64_t g_run(Ctx *c, Game *G, const uint64_t *seeds, uint64_t seed, int64_t first, int64_t stop,
                     const int64_t *board, int64_t player0, int64_t mn0, int64_t chance0, const int64_t *V0,
                     const double *VF0, const double *SC0, int64_t max_moves, int64_t *winners, int64_t *lengths,
                     int64_t *status, double *scores, int64_t *T, double *TS, int64_t *odd) {
    for (int64_t g = first; g < stop; g++) {
        memcpy(c->B, board, NB * sizeof(int64_t));
        memcpy(c->V, V0, NV * sizeof(int64_t));
        memcpy(c->VF, VF0, NVF * sizeof(double));
        memcpy(c->SC, SC0, P * sizeof(double));
        G->R = seeds != NULL ? seeds[g] : g_game_seed(seed, g, 0);
        G->length = 0;
        G->recorded = 0;
        G->winner = -1;
        int64_t state = g_game_caught(c, G, player0, mn0, chance0, max_moves);
        if (winners != NULL) {
            status[g] = state;
            winners[g] = G->winner;
            lengths[g] = G->length;
            for (int64_t p = 0; p < P; p++) scores[g * P + p] = c->SC[p];
        }
        if (T == NULL) continue;
        if (state > 1) { /* no legal move, a run-time error or a limit: the Python backend's */
            odd[T[T_ODD]++] = g;
            continue;
        }
        T[T_GAMES] += 1;
        if (state == 1)
            T[T_CAPPED] += 1;
        else if (G->winner >= 0)
            T[T_WINS + G->winner] += 1;
        else
            T[T_DRAWS] += 1;
        T[T_LEN] += G->length;
        if (G->length > T[T_MAX]) T[T_MAX] = G->length;
        for (int64_t p = 0; p < P; p++) TS[p] += c->SC[p];
    }
    return G->recorded;
}

/* Random playouts from one position (a chance node when chance0), one per seed. status: 0
 * ended, 1 capped, 2 no legal move, 3 a run-time error or limit (replayed in Python). With
 * `record`, the moves of the (single) game are written to rec_ops / rec_starts. CO, CS, order,
 * MV: working buffers made once by the caller. -> the moves recorded. */
G_EXPORT int64_t gdef_playouts(int64_t nseeds, const uint64_t *seeds, const int64_t *board, int64_t player0,
                               int64_t mn0, const int64_t *V0, const double *VF0, const double *SC0,
                               int64_t max_moves, int64_t *winners, int64_t *lengths, int64_t *status,
                               double *scores, int64_t record, int64_t *rec_ops, int64_t rec_rows,
                               int64_t *rec_starts, int64_t rec_len, int64_t *CO, int64_t co_rows,
                               int64_t *CS, int64_t *order, int64_t *MV, const int64_t *H0, int64_t h0_rows,
                               int64_t *HS, int64_t chance0) {
    int64_t S[NSLOTS] = {0};
    int64_t B[NB > 0 ? NB : 1];
    int64_t V[NV > 0 ? NV : 1];
    double VF[NVF > 0 ? NVF : 1];
    double SC[P];
    Ctx c = {B, (Op *)CO, S, V, VF, SC, (Op *)CO, co_rows, CS, HS, NULL,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
    Game G = {order, (Op *)MV, 0, 0, 0, -1, (int)record, (Op *)rec_ops, rec_rows, rec_starts, rec_len};
    if (USES_HISTORY) g_hist_load(HS, H0, h0_rows);
    return g_run(&c, &G, seeds, 0, 0, nseeds, board, player0, mn0, chance0, V0, VF0, SC0, max_moves, winners,
                 lengths, status, scores, NULL, NULL, NULL);
}

/* gdef-sim's random games first .. stop - 1 of a run seeded `seed`, each seeded by
 * g_game_seed(seed, g, 0), added up into T and TS (zeroed by the caller) without a row per
 * game; the indexes of the games left to Python in `odd` (stop - first long). */
G_EXPORT int64_t gdef_simulate(uint64_t seed, int64_t first, int64_t stop, const int64_t *board, int64_t player0,
                               int64_t mn0, const int64_t *V0, const double *VF0, const double *SC0,
                               int64_t max_moves, int64_t *T, double *TS, int64_t *odd, int64_t *CO,
                               int64_t co_rows, int64_t *CS, int64_t *order, int64_t *MV, const int64_t *H0,
                               int64_t h0_rows, int64_t *HS, int64_t chance0) {
    int64_t S[NSLOTS] = {0};
    int64_t B[NB > 0 ? NB : 1];
    int64_t V[NV > 0 ? NV : 1];
    double VF[NVF > 0 ? NVF : 1];
    double SC[P];
    Ctx c = {B, (Op *)CO, S, V, VF, SC, (Op *)CO, co_rows, CS, HS, NULL,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
    Game G = {order, (Op *)MV, 0, 0, 0, -1, 0, NULL, 0, NULL, 0};
    if (USES_HISTORY) g_hist_load(HS, H0, h0_rows);
    return g_run(&c, &G, NULL, seed, first, stop, board, player0, mn0, chance0, V0, VF0, SC0, max_moves, NULL,
                 NULL, NULL, NULL, T, TS, odd);
}

/* The legal moves of a position, copied into LO / LS; -> how many. */
static int64_t g_legal_into(Ctx *c, int64_t player, int64_t mn, Op *LO, int64_t lo_rows, int64_t *LS,
                            int64_t ls_len) {
    int64_t *S = c->S;
    int64_t m = g_gen_distinct(c, player, mn);
    if (S[S_ERR] != 0) g_fail(c);
    S[S_POOL] = POOL;
    int64_t n = 0;
    LS[0] = 0;
    for (int64_t k = 0; k < m; k++) {
        int legal = g_judge(c, k, player, mn);
        if (S[S_POOL] < 0) g_fail(c);
        if (legal) {
            int64_t a = c->CS[k], b = c->CS[k + 1];
            if (n + 2 >= ls_len || LS[n] + b - a > lo_rows) g_fail(c);
            memcpy(LO + LS[n], c->CO + a, (b - a) * sizeof(Op));
            LS[n + 1] = LS[n] + b - a;
            n += 1;
        }
    }
    return n;
}

/* The outcomes of a chance node, copied into LO / LS, their weights into WT (when not NULL);
 * -> how many. */
static int64_t g_outcomes_into(Ctx *c, int64_t player, int64_t mn, Op *LO, int64_t lo_rows, int64_t *LS,
                               int64_t ls_len, int64_t *WT) {
    int64_t m = g_outcomes(c, player, mn);
    if (c->S[S_ERR] != 0) g_fail(c);
    LS[0] = 0;
    for (int64_t k = 0; k < m; k++) {
        int64_t a = c->CS[k], b = c->CS[k + 1];
        if (k + 2 >= ls_len || LS[k] + b - a > lo_rows) g_fail(c);
        memcpy(LO + LS[k], c->CO + a, (b - a) * sizeof(Op));
        LS[k + 1] = LS[k] + b - a;
        if (WT != NULL) WT[k] = c->CS[WEIGHTS + k];
    }
    return m;
}

/* The outcomes of a chance node and their weights (NativeRules.chance_outcomes); -> how many,
 * -1 when the native run stopped (chance() failed or proposed none: the Python backend says). */
G_EXPORT int64_t gdef_outcomes_into(int64_t *B, int64_t *V, double *VF, double *SC, int64_t *CO, int64_t co_rows,
                                    int64_t *CS, int64_t player, int64_t mn, int64_t *LO, int64_t lo_rows,
                                    int64_t *LS, int64_t ls_len, int64_t *WT, int64_t *HS) {
    int64_t S[NSLOTS] = {0};
    jmp_buf here;
    Ctx c = {B, (Op *)CO, S, V, VF, SC, (Op *)CO, co_rows, CS, HS, &here,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
    if (setjmp(here) != 0) return -1;
    return g_outcomes_into(&c, player, mn, (Op *)LO, lo_rows, LS, ls_len, WT);
}

/* The legal moves of a position (NativeRules.legal_moves); -> how many, -1 when the native
 * run stopped (a run-time error or limit: the Python backend lists them). */
G_EXPORT int64_t gdef_legal_into(int64_t *B, int64_t *V, double *VF, double *SC, int64_t *CO, int64_t co_rows,
                                 int64_t *CS, int64_t player, int64_t mn, int64_t *LO, int64_t lo_rows,
                                 int64_t *LS, int64_t ls_len, int64_t *HS) {
    int64_t S[NSLOTS] = {0};
    jmp_buf here;
    Ctx c = {B, (Op *)CO, S, V, VF, SC, (Op *)CO, co_rows, CS, HS, &here,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
    if (setjmp(here) != 0) return -1;
    return g_legal_into(&c, player, mn, (Op *)LO, lo_rows, LS, ls_len);
}

G_EXPORT void gdef_hist_load(int64_t *HS, const int64_t *H0, int64_t rows) { g_hist_load(HS, H0, rows); }

/* isMoveLegal() of one move with a jump target: 1 legal, 0 rejected, -1 stopped. */
static int64_t g_verdict(Ctx *c, Op *ops, int64_t player, int64_t mn, int64_t a, int64_t b) {
    jmp_buf here;
    c->jump = &here;
    if (setjmp(here) != 0) {
        G_RELEASE(c, 0);
        return -1;
    }
    g_enter_judge(c->S, player, mn, 0, a, b);
    int legal = g_judge_ops(c, ops);
    return c->S[S_ERR] != 0 || c->S[S_ST] < 0 ? -1 : (legal ? 1 : 0);
}

/* isMoveLegal() of move k (ops[starts[k]:starts[k + 1]]) with its own step budget:
 * verdicts[k] 1 legal, 0 rejected, -1 stopped (a run-time error or limit, or isGenerated(),
 * which the kernels judge only for their own candidates). */
G_EXPORT void gdef_judge(int64_t *board, int64_t player, int64_t mn, int64_t *V, double *VF, double *SC,
                         int64_t *ops, const int64_t *starts, int64_t *verdicts, int64_t n, const int64_t *H0,
                         int64_t h0_rows, int64_t *HS) {
    int64_t S[NSLOTS] = {0};
    Op CO[1];
    int64_t CS[2] = {0, 0};
    Ctx c = {board, (Op *)ops, S, V, VF, SC, CO, 1, CS, HS, NULL,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
    if (USES_HISTORY) { /* the state's positions, for nextBoardSeen() */
        g_hist_load(HS, H0, h0_rows);
        if (HS[HS_N0] < 0) { /* more than the kernel holds: the Python backend judges */
            for (int64_t k = 0; k < n; k++) verdicts[k] = -1;
            return;
        }
    }
    for (int64_t k = 0; k < n; k++) verdicts[k] = g_verdict(&c, (Op *)ops, player, mn, starts[k], starts[k + 1]);
}

/* g_play() under a jump target: -> g_play's answer, -1 when end() failed. */
static int g_play_caught(Ctx *c, Op *MV, int64_t a, int64_t n, int64_t player, int64_t mn, int64_t chance,
                         int64_t *winner, int64_t *next) {
    jmp_buf here;
    jmp_buf *outer = c->jump;
    c->jump = &here;
    int r;
    if (setjmp(here) == 0) {
        r = g_play(c, MV, a, n, player, mn, chance, winner, next);
    } else {
        r = -1;
        G_RELEASE(c, 0);
    }
    c->jump = outer;
    return r;
}

typedef struct {
    Op *LO;
    int64_t *LS, *Bs, *Vs, *hn, *players, *numbers, *sizes, *next_move, *chance;
    double *VFs, *SCs;
    int64_t *CS;
    Op *CO;
} Perft;

/* The moves of a level of perft: a chance node's outcomes, else the legal moves. */
static int64_t g_level_moves(Ctx *c, int64_t chance, int64_t player, int64_t mn, Op *LO, int64_t *LS) {
    if (CHANCE && chance) return g_outcomes_into(c, player, mn, LO, PERFT_OPS, LS, PERFT_MOVES, NULL);
    return g_legal_into(c, player, mn, LO, PERFT_OPS, LS, PERFT_MOVES);
}

static int64_t g_perft(Ctx *c, Perft *w, int64_t player, int64_t mn, int64_t chance0, int64_t depth,
                       int64_t *counts) {
    int64_t *HS = c->HS;
#define G_LEVEL(l) (c->B = w->Bs + (l) * NB, c->V = w->Vs + (l) * NV, c->VF = w->VFs + (l) * NVF, \
                    c->SC = w->SCs + (l) * P)
    w->players[0] = player;
    w->numbers[0] = mn;
    w->chance[0] = chance0;
    if (USES_HISTORY) {
        if (HS[HS_N0] < 0 || HS[HS_N0] + depth + 2 > HCAP) g_fail(c);
        w->hn[0] = HS[HS_N0];
    }
    G_LEVEL(0);
    w->sizes[0] = g_level_moves(c, chance0, player, mn, w->LO, w->LS);
    int64_t level = 0;
    while (level >= 0) {
        int64_t i = w->next_move[level];
        if (i >= w->sizes[level]) {
            level -= 1;
            continue;
        }
        w->next_move[level] = i + 1;
        int64_t up = level + 1;
        memcpy(w->Bs + up * NB, w->Bs + level * NB, NB * sizeof(int64_t));
        memcpy(w->Vs + up * NV, w->Vs + level * NV, NV * sizeof(int64_t));
        memcpy(w->VFs + up * NVF, w->VFs + level * NVF, NVF * sizeof(double));
        memcpy(w->SCs + up * P, w->SCs + level * P, P * sizeof(double));
        if (USES_HISTORY) g_hist_truncate(HS, w->hn[level]);
        int64_t *LS = w->LS + level * PERFT_MOVES;
        int64_t a = LS[i], winner, next;
        G_LEVEL(up);
        int over = g_play_caught(c, w->LO + level * PERFT_OPS, a, LS[i + 1] - a, w->players[level],
                                 w->numbers[level], w->chance[level], &winner, &next);
        if (over < 0) {
            if (USES_HISTORY && HS[HS_X] != 0) g_fail(c); /* a key the kernel cannot compare */
            continue; /* end() failed: not a legal move */
        }
        counts[level] += 1;
        if (up < depth && over != 1) {
            w->players[up] = next;
            w->numbers[up] = w->numbers[level] + 1;
            w->chance[up] = over == 2;
            if (USES_HISTORY) {
                g_hist_play(c, next);
                w->hn[up] = HS[HS_N];
            }
            w->sizes[up] = g_level_moves(c, w->chance[up], next, w->numbers[up], w->LO + up * PERFT_OPS,
                                         w->LS + up * PERFT_MOVES);
            w->next_move[up] = 0;
            level = up;
        }
    }
#undef G_LEVEL
    return 0;
}

/* counts[d - 1]: the move sequences of exactly d legal moves (runtime/perft.py; a chance
 * outcome is one move), walked depth first with one frame per level, from a chance node when
 * chance0; -> 0, or -1 when the native run stopped (the Python backend counts). */
G_EXPORT int64_t gdef_perft(const int64_t *board, int64_t player, int64_t mn, const int64_t *V, const double *VF,
                            const double *SC, int64_t depth, int64_t *counts, const int64_t *H0, int64_t h0_rows,
                            int64_t *HS, int64_t chance0) {
    int64_t S[NSLOTS] = {0};
    Perft w;
    w.CO = malloc(CAP_OPS * sizeof(Op));
    w.CS = calloc(WEIGHTS + CAP_MOVES, sizeof(int64_t));
    w.LO = malloc(depth * PERFT_OPS * sizeof(Op));
    w.LS = malloc(depth * PERFT_MOVES * sizeof(int64_t));
    w.Bs = malloc((depth + 1) * (NB + 1) * sizeof(int64_t));
    w.Vs = malloc((depth + 1) * (NV + 1) * sizeof(int64_t));
    w.VFs = malloc((depth + 1) * (NVF + 1) * sizeof(double));
    w.SCs = malloc((depth + 1) * P * sizeof(double));
    w.hn = calloc(depth + 1, sizeof(int64_t));
    w.players = calloc(depth + 1, sizeof(int64_t));
    w.numbers = calloc(depth + 1, sizeof(int64_t));
    w.sizes = calloc(depth + 1, sizeof(int64_t));
    w.next_move = calloc(depth + 1, sizeof(int64_t));
    w.chance = calloc(depth + 1, sizeof(int64_t));
    volatile int64_t result = -1;
    if (w.CO && w.CS && w.LO && w.LS && w.Bs && w.Vs && w.VFs && w.SCs && w.hn && w.players && w.numbers &&
        w.sizes && w.next_move && w.chance) {
        memcpy(w.Bs, board, NB * sizeof(int64_t));
        memcpy(w.Vs, V, NV * sizeof(int64_t));
        memcpy(w.VFs, VF, NVF * sizeof(double));
        memcpy(w.SCs, SC, P * sizeof(double));
        jmp_buf here;
        Ctx c = {w.Bs, w.CO, S, w.Vs, w.VFs, w.SCs, w.CO, CAP_OPS, w.CS, HS, &here,
             (uintptr_t)__builtin_frame_address(0), NULL, NULL, 0};
        if (USES_HISTORY) g_hist_load(HS, H0, h0_rows);
        if (setjmp(here) == 0)
            result = g_perft(&c, &w, player, mn, chance0, depth, counts);
    }
    free(w.CO);
    free(w.CS);
    free(w.LO);
    free(w.LS);
    free(w.Bs);
    free(w.Vs);
    free(w.VFs);
    free(w.SCs);
    free(w.hn);
    free(w.players);
    free(w.numbers);
    free(w.sizes);
    free(w.next_move);
    free(w.chance);
    return result;
}

#endif
