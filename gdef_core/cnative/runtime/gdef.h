/* The fixed part of every generated C module, before the game's functions: the context the
 * generated code runs in, the value operations with the language's semantics (C/int64
 * arithmetic with overflow checks, C division), the built-ins that touch the state, and the
 * position history of repetitions() and nextBoardSeen().
 *
 * The generated module (gdef_core/cnative/emit.py) defines the game's constants (W, H, P, ...)
 * before including this file, its gdef functions after it, then includes kernel.c.
 * It is the C twin of gdef_core/native/kernels/{helpers,history}.py, with the same conventions:
 *
 * - the board B is a flat int64 array (square x, y at x * H + y; 0 is empty, object k is k);
 * - OPS holds the move being judged or ended from row S[S_OP0], S[S_NOPS] rows of x, y,
 *   object, is-place;
 * - S holds the scalars of the call in progress (slots below), V the int, bool and obj game
 *   variables, VF the float ones, SC the scores;
 * - moves() appends candidate operations to CO and their start offsets to CS; chance() its
 *   outcomes likewise, their weights to CS from WEIGHTS;
 * - HS holds the board before the move and the positions of the game.
 *
 * Generated code never jumps out: a failed check is flagged in S[S_ERR] (g_bad) and the code
 * goes on with a harmless value until it returns to the kernel, which looks at the flag. A
 * failure of end() or moves() stops the game (g_fail: a longjmp to the kernel's entry), which
 * the caller (native/backend.py) replays through the Python backend for the located error.
 */
#ifndef GDEF_H
#define GDEF_H

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define G_INT_MIN (-INT64_C(9223372036854775807) - 1)

/* Slots of S (the same as the numba kernels' up to S_DUP; S_DUP: the candidates may hold
 * duplicates, kernel.c's g_stamped; S_LK .. S_LD: the lazy draw's pass, below). */
enum { S_T, S_MN, S_ST, S_CTX, S_RO, S_WIN, S_NXT, S_NOPS, S_OWN, S_NC, S_NM, S_BAD, S_POOL, S_ERR,
       S_OP0, S_CHN, S_ICM, S_DUP, S_LK, S_LN, S_LD, NSLOTS };
/* Slots of HS (HS_BH: the hash of the board after the move, kept by g_play and g_set
 * while HS_BV is 1; code that writes c->B anywhere else must set HS_BV to 0). */
enum { HS_N, HS_N0, HS_X, HS_F, HS_BH, HS_BV };

typedef int64_t Op[4];

typedef struct {
    int64_t *B;
    Op *OPS;
    int64_t *S;
    int64_t *V;
    double *VF;
    double *SC;
    Op *CO;
    int64_t co_rows;
    int64_t *CS;
    int64_t *HS;
    jmp_buf *jump; /* where g_fail goes */
    uintptr_t stack_top; /* the kernel's frame, for g_stack */
    jmp_buf *stop; /* where a pass of the lazy draw ends early (g_lazy_move) */
    char *arena; /* the thread's arena of local arrays (g_alloc), NULL until the call makes one */
    size_t arena_top; /* its top: 0 when the call starts */
} Ctx;

/* A local array (or a game-variable array passed as an argument): n0 x n1 elements, row by
 * row (n1 = 1 for one dimension); bools are 0 or 1. */
typedef struct { int64_t *p; int64_t n0, n1; } GArr;
typedef struct { double *p; int64_t n0, n1; } GArrF;
/* OperationList[i][j] with j known only at run time: the value and whether it is an obj. */
typedef struct { int64_t v; int64_t obj; } GDyn;

static void g_fail(Ctx *c) __attribute__((noreturn));
static void g_fail(Ctx *c) { longjmp(*c->jump, 1); }

static inline void g_bad(Ctx *c) { c->S[S_ERR] = 1; }

/* Recursion deeper than the C stack holds safely (a --max-depth in the tens of thousands)
 * stops the game instead of the process: the Python backend, whose stack is the heap, replays
 * it. Checked where the IR checks the depth. */
#define G_STACK_BYTES ((uintptr_t)1 << 20)
static inline void g_stack(Ctx *c) {
    char here;
    if (c->stack_top - (uintptr_t)&here > G_STACK_BYTES) g_fail(c);
}

/* ------------------------------------------------------------ local arrays */

/* Local arrays live in one arena per thread, released as each search, judgement or end()
 * returns to the kernel. Its size is bounded by the step budget (an array's elements count
 * as steps): one that outgrows it stops the game (g_fail), which the Python backend replays.
 * The thread owns the memory (g_arena, made at its first array, kept for the next calls); a
 * call keeps its base and top in its Ctx, made on the calling thread's stack, so that marking,
 * releasing and making an array reach no thread-local variable: in a shared library each such
 * access is a call into the loader (__tls_get_addr), once per judgement. */
static _Thread_local char *g_arena;
#define G_ARENA_BYTES ((size_t)(2 * MAXSTEPS + 2 * MAX_ARRAY_ELEMENTS + 64) * 8)

/* The arena's top, kept and put back by the kernels; nothing in games without local arrays
 * (ARRAYS 0). */
#define G_MARK(c) (ARRAYS ? (c)->arena_top : 0)
#define G_RELEASE(c, top) \
    do {                   \
        if (ARRAYS) (c)->arena_top = (top); \
    } while (0)

/* The calling thread's arena, made at its first array. */
static __attribute__((unused, noinline)) char *g_arena_base(Ctx *c) {
    if (g_arena == NULL) {
        g_arena = malloc(G_ARENA_BYTES);
        if (g_arena == NULL) g_fail(c);
    }
    return g_arena;
}

static __attribute__((unused)) void *g_alloc(Ctx *c, int64_t count) {
    size_t bytes = ((size_t)count * 8 + 15) & ~(size_t)15;
    if (c->arena == NULL) c->arena = g_arena_base(c);
    if (c->arena_top + bytes > G_ARENA_BYTES) g_fail(c);
    void *p = c->arena + c->arena_top;
    c->arena_top += bytes;
    return p;
}

/* ------------------------------------------------------------ values */

static inline int64_t g_add(Ctx *c, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) g_bad(c);
    return r;
}

static inline int64_t g_sub(Ctx *c, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) g_bad(c);
    return r;
}

static inline int64_t g_mul(Ctx *c, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) g_bad(c);
    return r;
}

static inline int64_t g_neg(Ctx *c, int64_t a) {
    if (a == G_INT_MIN) {
        g_bad(c);
        return a;
    }
    return -a;
}

/* C division truncates toward zero, as the language does. */
static inline int64_t g_idiv(Ctx *c, int64_t a, int64_t b) {
    if (b == 0) {
        g_bad(c);
        return 0;
    }
    if (b == -1) return g_neg(c, a);
    return a / b;
}

/* C remainder: the sign of the dividend. */
static inline int64_t g_imod(Ctx *c, int64_t a, int64_t b) {
    if (b == 0) {
        g_bad(c);
        return 0;
    }
    if (b == -1) return 0;
    return a % b;
}

static inline double g_fdiv(Ctx *c, double a, double b) {
    if (b == 0) {
        g_bad(c);
        return a * 0.0;
    }
    return a / b;
}

static inline double g_fmod(Ctx *c, double a, double b) {
    if (b == 0) {
        g_bad(c);
        return a * 0.0;
    }
    if (isinf(a) || isnan(a) || isnan(b)) return NAN;
    return fmod(a, b);
}

/* The index of square (x, y); off the board is an error. */
static inline int64_t g_sq(Ctx *c, int64_t x, int64_t y) {
    if (x < 0 || x >= W || y < 0 || y >= H) {
        g_bad(c);
        return 0;
    }
    return x * H + y;
}

/* An array index tested against its size. */
static inline int64_t g_ix(Ctx *c, int64_t i, int64_t n) {
    if (i < 0 || i >= n) {
        g_bad(c);
        return 0;
    }
    return i;
}

/* ------------------------------------------------------------ steps */

/* The step budget left is S[S_ST]: the kernels set it per call of the rules and look at it
 * when the call returns. A generated function counts its steps in a local copy (_st, emit.py)
 * that it writes back before each call of a function or helper that counts steps (reading it
 * back after) and before it returns. */

/* ------------------------------------------------------------ the move and the state */

/* Operation i applied to the board B (defined below). */
static inline void g_apply(int64_t *B, const Op *OPS, int64_t i);

/* NextPosition / NextCount while isMoveLegal() runs: the first G_NEXT_SCANS reads of a
 * judgement look the square up among the move's operations; later ones read a copy of the board
 * with the move applied (HS from H_NEXT + 1), made once, so that a judgement reading the board
 * after the move all over (chess's attacked()) pays one copy instead of a scan per read.
 * HS[H_NEXT] counts the reads (e_isMoveLegal resets it); -> the copy, or NULL: scan. */
#define G_NEXT_SCANS 8
static inline const int64_t *g_next_board(Ctx *c) {
    int64_t *HS = c->HS, n = HS[H_NEXT];
    if (n < G_NEXT_SCANS) {
        HS[H_NEXT] = n + 1;
        return NULL;
    }
    if (n == G_NEXT_SCANS) {
        memcpy(HS + H_NEXT + 1, c->B, NB * sizeof(int64_t));
        for (int64_t i = c->S[S_OP0]; i < c->S[S_OP0] + c->S[S_NOPS]; i++) g_apply(HS + H_NEXT + 1, c->OPS, i);
        HS[H_NEXT] = n + 1;
    }
    return HS + H_NEXT + 1;
}

/* NextPosition[x][y]: while isMoveLegal() runs, the board after the move. */
static inline int64_t g_nread(Ctx *c, int64_t x, int64_t y) {
    int64_t k = g_sq(c, x, y);
    if (c->S[S_CTX] == CTX_IS_MOVE_LEGAL) {
        const int64_t *next = g_next_board(c);
        if (next != NULL) return next[k];
        int64_t a = c->S[S_OP0];
        for (int64_t i = a + c->S[S_NOPS] - 1; i >= a; i--)
            if (c->OPS[i][0] * H + c->OPS[i][1] == k) return c->OPS[i][2];
    }
    return c->B[k];
}

static inline int64_t g_opf(Ctx *c, int64_t i, int64_t j) {
    if (i < 0 || i >= c->S[S_NOPS]) {
        g_bad(c);
        return 0;
    }
    return c->OPS[c->S[S_OP0] + i][j];
}

static inline GDyn g_opdyn(Ctx *c, int64_t i, int64_t j) {
    GDyn d = {0, 0};
    if (i < 0 || i >= c->S[S_NOPS] || j < 0 || j > 2) {
        g_bad(c);
        return d;
    }
    d.v = c->OPS[c->S[S_OP0] + i][j];
    d.obj = j == 2;
    return d;
}

/* The board hash's share of object o on square k (Zobrist; 0 for an empty square). */
static inline uint64_t g_z(int64_t k, int64_t o) {
    if (o == 0) return 0;
    uint64_t h = ((uint64_t)k * 1021u + (uint64_t)o) * UINT64_C(0x9E3779B97F4A7C15);
    h = (h ^ (h >> 32)) * UINT64_C(0xFF51AFD7ED558CCD);
    return h ^ (h >> 29);
}

/* Square (or count) k of the board becomes v, the board's hash kept by g_play changed with it
 * (HS_BV, kernel.c). */
static inline void g_set(Ctx *c, int64_t k, int64_t v) {
    if (USES_HISTORY && c->HS[HS_BV]) c->HS[HS_BH] = (int64_t)((uint64_t)c->HS[HS_BH] ^ g_z(k, c->B[k]) ^ g_z(k, v));
    c->B[k] = v;
}

/* Squares that count (runtime/counts.py): the board holds NBO objects, then NBO counts; a count
 * operation is (x, y, n, 2). Operation i applied to the board B: a place or a clear sets the
 * object (and resets the count), a count the count alone. */
static inline void g_apply(int64_t *B, const Op *OPS, int64_t i) {
    int64_t k = OPS[i][0] * H + OPS[i][1];
    if (OPS[i][3] == 2) {
        B[NBO + k] = OPS[i][2];
        return;
    }
    B[k] = OPS[i][2];
    if (COUNTING) B[NBO + k] = 0;
}

/* NextPosition[x][y] in a game whose squares count: count operations change no object. */
static inline int64_t g_nread_counted(Ctx *c, int64_t x, int64_t y) {
    int64_t k = g_sq(c, x, y);
    if (c->S[S_CTX] == CTX_IS_MOVE_LEGAL) {
        const int64_t *next = g_next_board(c);
        if (next != NULL) return next[k];
        int64_t a = c->S[S_OP0];
        for (int64_t i = a + c->S[S_NOPS] - 1; i >= a; i--)
            if (c->OPS[i][3] != 2 && c->OPS[i][0] * H + c->OPS[i][1] == k) return c->OPS[i][2];
    }
    return c->B[k];
}

/* NextCount[x][y]: while isMoveLegal() runs, the count after the move; else CurrentCount. */
static inline int64_t g_ncount(Ctx *c, int64_t x, int64_t y) {
    int64_t k = g_sq(c, x, y);
    if (c->S[S_CTX] == CTX_IS_MOVE_LEGAL) {
        const int64_t *next = g_next_board(c);
        if (next != NULL) return next[NBO + k];
        int64_t a = c->S[S_OP0];
        for (int64_t i = a + c->S[S_NOPS] - 1; i >= a; i--)
            if (c->OPS[i][0] * H + c->OPS[i][1] == k) return c->OPS[i][3] == 2 ? c->OPS[i][2] : 0;
    }
    return c->B[NBO + k];
}

/* OperationList[i][2] in a game whose squares count (empty for a count), and [i][3]. */
static inline int64_t g_opobj(Ctx *c, int64_t i) {
    int64_t v = g_opf(c, i, 2);
    return i >= 0 && i < c->S[S_NOPS] && c->OPS[c->S[S_OP0] + i][3] == 2 ? 0 : v;
}

static inline int64_t g_opcount(Ctx *c, int64_t i) {
    int64_t v = g_opf(c, i, 2);
    return i >= 0 && i < c->S[S_NOPS] && c->OPS[c->S[S_OP0] + i][3] == 2 ? v : 0;
}

static inline GDyn g_opdyn_counted(Ctx *c, int64_t i, int64_t j) {
    GDyn d = {0, 0};
    if (j == 2 || j == 3) {
        d.v = j == 2 ? g_opobj(c, i) : g_opcount(c, i);
        d.obj = j == 2;
        return d;
    }
    return g_opdyn(c, i, j);
}

static inline int64_t g_dyn_int(Ctx *c, GDyn t) {
    if (t.obj) g_bad(c);
    return t.v;
}

static inline int64_t g_dyn_obj(Ctx *c, GDyn t) {
    if (!t.obj) g_bad(c);
    return t.v;
}

static inline int g_dyn_bool(Ctx *c, GDyn t) {
    (void)t;
    g_bad(c); /* an int or an obj is never a bool */
    return 0;
}

static inline int g_dyn_eq(Ctx *c, GDyn t, GDyn u) {
    if (t.obj != u.obj) g_bad(c);
    return t.v == u.v;
}

/* Whether p is a player (else the error is flagged). */
static inline int g_player(Ctx *c, int64_t p) {
    if (p < 0 || p >= P) {
        g_bad(c);
        return 0;
    }
    return 1;
}

static inline void g_set_winner(Ctx *c, int64_t p) {
    if (g_player(c, p) && c->S[S_CTX] == CTX_END) c->S[S_WIN] = p;
}

static inline void g_set_next(Ctx *c, int64_t p) {
    if (c->S[S_CTX] != CTX_END && c->S[S_CTX] != CTX_SETUP)
        g_bad(c);
    else if (g_player(c, p))
        c->S[S_NXT] = p;
}

static inline void g_set_score(Ctx *c, int64_t p, double v) {
    if (c->S[S_CTX] != CTX_END && c->S[S_CTX] != CTX_SETUP)
        g_bad(c);
    else if (g_player(c, p))
        c->SC[p] = v;
}

/* Whether game variables may be assigned here (else the error is flagged). */
static inline int g_writable(Ctx *c) {
    if (c->S[S_RO] != 0) {
        g_bad(c);
        return 0;
    }
    return 1;
}

/* addPlace / addClear in a function only moves() reaches: one operation of the candidate being
 * built, the context known (a candidate naming a square off the board is dropped), written at
 * row *nc of CO: S[S_NC], which such a function keeps in a local (_nc, emit.py) so that the
 * cursor stays in a register while the operations (int64 stores, which could alias S) are
 * written. The step count is the function's local too (_st -= OPERATION_STEPS after the call). */
static inline void g_add_op_moves(Ctx *c, int64_t *nc, int64_t x, int64_t y, int64_t o, int64_t place) {
    if (x < 0 || x >= W || y < 0 || y >= H) {
        c->S[S_BAD] = 1;
        return;
    }
    int64_t n = *nc;
    if (n >= c->co_rows) {
        g_bad(c); /* more operations than the buffer holds: the Python backend plays this game */
        return;
    }
    int64_t *row = c->CO[n];
    row[0] = x;
    row[1] = y;
    row[2] = o;
    row[3] = place;
    *nc = n + 1;
}

/* addPlace / addClear in moves() (or chance()): one operation of the candidate (or outcome)
 * being built. Its steps are counted by the caller, as g_add_op_moves's. */
static inline void g_add_op(Ctx *c, int64_t x, int64_t y, int64_t o, int64_t place) {
    int64_t *S = c->S;
    if (S[S_CTX] != CTX_MOVES && S[S_CTX] != CTX_CHANCE) {
        g_bad(c);
        return;
    }
    if (S[S_CTX] == CTX_CHANCE && (x < 0 || x >= W || y < 0 || y >= H)) {
        g_bad(c); /* an outcome is exact: a square off the board is an error */
        return;
    }
    g_add_op_moves(c, &S[S_NC], x, y, o, place);
}

/* One consequence on board b (the board, or the scratch copy): a count (place 2, o the count)
 * sets the count and leaves the object; a place or a clear sets the object and resets the count. */
static inline void g_set_square(int64_t *b, int64_t k, int64_t o, int64_t place) {
    if (place == 2) {
        b[NBO + k] = o;
    } else {
        b[k] = o;
        if (COUNTING) b[NBO + k] = 0;
    }
}

/* A consequence of end() on square k: the board at once, through g_set, which keeps its hash. */
static inline void g_consequence_now(Ctx *c, int64_t k, int64_t o, int64_t place) {
    if (place == 2) {
        g_set(c, NBO + k, o);
    } else {
        g_set(c, k, o);
        if (COUNTING) g_set(c, NBO + k, 0); /* a place or a clear resets the count */
    }
}

/* The slots of a call kept for end() (HS from H_RPL; "a judgement's call replayed", below). */
enum { RPL_FN, RPL_ON, RPL_D, RPL_STEPS, RPL_R, RPL_N, RPL_ARG };
#define RPL_OP (RPL_ARG + RPL_ARGS)

static inline void g_replay_note(int64_t *HS, int64_t k, int64_t o, int64_t place);

/* addPlace / addClear / addCount in end(): the board at once; in isMoveLegal(): the scratch
 * copy ResultPosition, HS from H_RES + 1, made from the board after the move at the judgement's
 * first consequence (HS[H_RES] = 1; the entry point resets it). One step each; in a judgement,
 * noted while a call to replay in end() runs (RPL_ON). */
static inline void g_consequence(Ctx *c, int64_t x, int64_t y, int64_t o, int64_t place) {
    int64_t *S = c->S, *HS = c->HS;
    if (x < 0 || x >= W || y < 0 || y >= H) {
        g_bad(c);
        return;
    }
    S[S_ST] -= 1;
    int64_t k = x * H + y;
    if (S[S_CTX] == CTX_END) {
        g_consequence_now(c, k, o, place);
    } else if (S[S_CTX] == CTX_IS_MOVE_LEGAL) {
        if (HS[H_RES] == 0) {
            memcpy(HS + H_RES + 1, c->B, NB * sizeof(int64_t));
            for (int64_t i = S[S_OP0]; i < S[S_OP0] + S[S_NOPS]; i++)
                g_apply(HS + H_RES + 1, c->OPS, i);
            HS[H_RES] = 1;
        }
        g_set_square(HS + H_RES + 1, k, o, place);
        if (REPLAY && HS[H_RPL + RPL_ON]) g_replay_note(HS, k, o, place);
    } else {
        g_bad(c);
    }
}

/* addPlace / addClear / addCount in a function that moves() (or chance()) and end() both reach. */
static inline void g_add_any(Ctx *c, int64_t x, int64_t y, int64_t o, int64_t place) {
    if (c->S[S_CTX] == CTX_MOVES || c->S[S_CTX] == CTX_CHANCE) {
        g_add_op(c, x, y, o, place);
        c->S[S_ST] -= OPERATION_STEPS;
    } else
        g_consequence(c, x, y, o, place);
}

/* addMove() in a function only moves() reaches: the candidate built is finished (dropped when
 * it named a square off the board); *nc is S[S_NC] (g_add_op_moves). */
static inline void g_add_move_moves(Ctx *c, int64_t *nc) {
    int64_t *S = c->S;
    int64_t m = S[S_NM];
    if (S[S_BAD] != 0) {
        *nc = c->CS[m];
    } else {
        if (m + 2 >= CAP_MOVES) {
            g_bad(c);
            return;
        }
        c->CS[m + 1] = *nc;
        S[S_NM] = m + 1;
    }
    S[S_BAD] = 0;
}

/* ------------------------------------------------------------ a judgement's call replayed in end()
 * A function of lower/replayed.py called by isMoveLegal() and again by end() (Go's capture()):
 * emit.py's r_NAME_keep, in the judgement, keeps its call in HS from H_RPL (when no consequence
 * was made before it, so that ResultPosition is the board after the move): RPL_FN the function's
 * number + 1 (0: nothing kept), RPL_ON 1 while the call runs (g_consequence notes each
 * consequence), its depth, steps spent, result, consequences noted, arguments and the
 * consequences (square, value, place); the board it saw stays in H_NEXT. r_NAME_take, in
 * end(), answers a call with the same function, depth and arguments on the same board (end()'s
 * ResultPosition is the board) from them, when the budget left covers the steps kept; else it
 * runs the function. */
static inline void g_replay_note(int64_t *HS, int64_t k, int64_t o, int64_t place) {
    int64_t *R = HS + H_RPL, n = R[RPL_N];
    if (n < RPL_OPS) {
        R[RPL_OP + 3 * n] = k;
        R[RPL_OP + 3 * n + 1] = o;
        R[RPL_OP + 3 * n + 2] = place;
    }
    R[RPL_N] = n + 1;
}

/* Before a call to keep, in isMoveLegal(): whether it may be kept (no consequence made before
 * it); then nothing is kept while it runs, and its consequences are noted. */
static inline int g_replay_start(Ctx *c) {
    int64_t *R = c->HS + H_RPL;
    if (c->S[S_CTX] != CTX_IS_MOVE_LEGAL || c->HS[H_RES] != 0) return 0;
    R[RPL_FN] = 0;
    R[RPL_N] = 0;
    R[RPL_ON] = 1;
    return 1;
}

/* After it: whether it may be kept (no failure, the budget not spent, its consequences fit).
 * The board it saw is the board after the move: g_next_board's copy, made here if the call's
 * reads did not make it, and left as it is until the next judgement, which empties the kept
 * call too (e_isMoveLegal). */
static inline int g_replay_kept(Ctx *c) {
    int64_t *S = c->S, *HS = c->HS, *R = HS + H_RPL;
    R[RPL_ON] = 0;
    if (S[S_ERR] != 0 || S[S_ST] < 0 || R[RPL_N] > RPL_OPS) return 0;
    if (HS[H_NEXT] <= G_NEXT_SCANS) {
        memcpy(HS + H_NEXT + 1, c->B, NB * sizeof(int64_t));
        for (int64_t i = S[S_OP0]; i < S[S_OP0] + S[S_NOPS]; i++) g_apply(HS + H_NEXT + 1, c->OPS, i);
        HS[H_NEXT] = G_NEXT_SCANS + 1;
    }
    return 1;
}

/* In end(): whether the kept call of function `fn` at depth d, whose arguments the caller
 * compared, answers this one (the same board, the budget left covering its steps); then its
 * steps spent and its consequences made. */
static inline int g_replay_take(Ctx *c, int64_t fn, int64_t d) {
    int64_t *S = c->S;
    const int64_t *R = c->HS + H_RPL;
    if (R[RPL_FN] != fn || R[RPL_D] != d || S[S_CTX] != CTX_END || S[S_ST] < R[RPL_STEPS]
        || memcmp(c->HS + H_NEXT + 1, c->B, NB * sizeof(int64_t)) != 0)
        return 0;
    S[S_ST] -= R[RPL_STEPS];
    for (int64_t i = 0; i < R[RPL_N]; i++) g_consequence_now(c, R[RPL_OP + 3 * i], R[RPL_OP + 3 * i + 1], R[RPL_OP + 3 * i + 2]);
    return 1;
}

/* ------------------------------------------------------------ the lazy draw
 * A random game draws one candidate without writing every one (kernel.c, g_lazy_draw): passes
 * of moves()'s twin (z_moves, emit.py) in which `lz` (a constant once inlined into each pass of
 * g_lazy_pass) says what addPlace/addClear (g_lazy_op),
 * addMove (g_lazy_move) and the calls of skippable functions (g_lazy_skips, lower/skippable.py)
 * do. S[S_NM] numbers the candidates as proposed, those naming a square off the board too.
 * - LZ_COUNT: nothing written, every skippable call skipped (its steps' bound charged); the
 *   candidates counted.
 * - LZ_SEEK: candidate S[S_LK] alone written from row 0 (its skippable calls run); the pass
 *   stops after its addMove with S[S_LN] its operations and S[S_LD] 1 when one was off the board.
 * - LZ_MATCH: candidates before S[S_LK] compared, as proposed, with its S[S_LN] operations in
 *   rows 0 ..; S[S_LD] is 1 once the current one differs (its skippable calls then skipped); the
 *   pass stops with S[S_LD] 2 at an equal one (S[S_LK] is a duplicate), else at S[S_LK]. */
enum { LZ_COUNT = 1, LZ_SEEK, LZ_MATCH };

static inline int g_lazy_skips(const Ctx *c, int64_t lz) {
    const int64_t *S = c->S;
    if (lz == LZ_COUNT) return 1;
    return lz == LZ_SEEK ? S[S_NM] != S[S_LK] : S[S_LD] != 0;
}

static inline void g_lazy_op(Ctx *c, int64_t lz, int64_t *nc, int64_t x, int64_t y, int64_t o, int64_t place) {
    int64_t *S = c->S;
    if (lz == LZ_SEEK) {
        if (S[S_NM] == S[S_LK]) g_add_op_moves(c, nc, x, y, o, place);
    } else if (lz == LZ_MATCH && S[S_LD] == 0) {
        int64_t p = *nc;
        const int64_t *row = c->CO[p];
        if (p >= S[S_LN] || row[0] != x || row[1] != y || row[2] != o || row[3] != place)
            S[S_LD] = 1;
        else
            *nc = p + 1;
    }
}

static inline void g_lazy_move(Ctx *c, int64_t lz, int64_t *nc) {
    int64_t *S = c->S;
    int64_t m = S[S_NM];
    if (lz == LZ_COUNT) {
        if (m + 2 >= CAP_MOVES) { /* more than a full generation holds: it says what happens */
            g_bad(c);
            return;
        }
    } else if (lz == LZ_SEEK) {
        if (m == S[S_LK]) {
            S[S_LN] = *nc;
            S[S_LD] = S[S_BAD];
            longjmp(*c->stop, 1);
        }
    } else {
        if (S[S_LD] == 0 && *nc == S[S_LN]) {
            S[S_LD] = 2;
            longjmp(*c->stop, 1);
        }
        S[S_LD] = 0;
        *nc = 0;
        if (m + 1 == S[S_LK]) longjmp(*c->stop, 1);
    }
    S[S_NM] = m + 1;
}

/* ------------------------------------------------------------ the rejection draw
 * A random game draws one candidate by walking one loop nest of moves() (kernel.c,
 * g_reject_draw; lower/rejection.py): moves()'s twin x_moves (emit.py) runs in RJ_OUTER with
 * the nest replaced by saving its locals, one entry each (g_rj_save, at most RJ_CAP kept, more
 * counted: the turn then generates them all), or in RJ_NEST puts back the locals of entry
 * S[S_LK] (g_rj_entry), jumps into the nest, runs it and returns. The entries live in the
 * thread's buffer: a draw and hasLegalMove() never run at once in one thread. */
enum { RJ_OUTER = 1, RJ_NEST };
#define RJ_CAP 512
static _Thread_local int64_t g_rj_buf[RJ_CAP * RJ_NL];
static _Thread_local int64_t g_rj_n;

static inline __attribute__((unused)) void g_rj_save(const int64_t *locals) {
    int64_t n = g_rj_n;
    if (n < RJ_CAP) memcpy(g_rj_buf + n * RJ_NL, locals, RJ_NL * sizeof(int64_t));
    g_rj_n = n + 1;
}

static inline __attribute__((unused)) const int64_t *g_rj_entry(const Ctx *c) {
    return g_rj_buf + c->S[S_LK] * RJ_NL;
}

/* addMove() in the nest of x_moves: the candidate finished (g_add_move_moves); -> whether the
 * nest may stop, candidate S[S_LN] (numbered from 0 on the board) being written. */
static inline __attribute__((unused)) int g_rj_move(Ctx *c, int64_t *nc) {
    g_add_move_moves(c, nc);
    return c->S[S_NM] > c->S[S_LN];
}

static inline void g_add_move(Ctx *c) {
    if (c->S[S_CTX] != CTX_MOVES)
        g_bad(c);
    else
        g_add_move_moves(c, &c->S[S_NC]);
}

/* addOutcome(w) in chance(): the outcome being built is finished with weight w (1 .. 2^31,
 * else G616: flagged, the Python backend replays the game for the located error). */
static inline void g_add_outcome(Ctx *c, int64_t w) {
    int64_t *S = c->S;
    if (S[S_CTX] != CTX_CHANCE || w < 1 || w > (INT64_C(1) << 31)) {
        g_bad(c);
        return;
    }
    int64_t m = S[S_NM];
    if (m + 2 >= CAP_MOVES) {
        g_bad(c); /* more outcomes than the buffer holds: the Python backend plays this game */
        return;
    }
    c->CS[m + 1] = S[S_NC];
    c->CS[WEIGHTS + m] = w;
    S[S_NM] = m + 1;
}

/* chanceNext() in end(): the next move is chance's (when end() does not end the game). */
static inline void g_chance_next(Ctx *c) {
    if (c->S[S_CTX] != CTX_END)
        g_bad(c);
    else
        c->S[S_CHN] = 1;
}

static inline int g_is_generated(Ctx *c) {
    /* OWN: judged as a candidate (a game without moves() does not compile) */
    if (c->S[S_CTX] != CTX_IS_MOVE_LEGAL || c->S[S_OWN] == 0) {
        g_bad(c);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ the history
 * HS (int64) holds, from the offsets the generated constants give: slots (HS_N the entries,
 * HS_N0 those of the start state or -1 when they do not fit, HS_X set when a key cannot be
 * compared natively), the board before the move (H_PREV, for PreviousPosition), the scratch
 * copies of the board after consequences (H_RES, ResultPosition) and after the move being judged
 * (H_NEXT, g_next_board), a scratch key (H_KEY), two open-addressing tables of TSIZE slots (H_PT: position hash -> entry, H_BT: board
 * hash -> entry; -1 empty; each filled only in a game that calls the built-in reading it:
 * USES_REPETITIONS, USES_BOARD_SEEN) and the entries: position hash (H_EH, 0 when no table
 * needs it), board hash (H_EB), kind
 * (H_EK: 1 a position, 0 a board that only counts as seen) and key (H_ROWS, KEYLEN each: the
 * board, the player to move, the game variables not declared `counter`, floats as their bits).
 * Entries come and go last in, first out, so dropping the newest only empties its slots. */

/* PreviousPosition[x][y]: in end(), the square before the move; else CurrentPosition. */
static inline int64_t g_pread(Ctx *c, int64_t x, int64_t y) {
    int64_t k = g_sq(c, x, y);
    if (c->S[S_CTX] == CTX_END) return c->HS[H_PREV + k];
    return c->B[k];
}

/* PreviousCount[x][y]: in end(), the count before the move; else CurrentCount. */
static inline int64_t g_pcount(Ctx *c, int64_t x, int64_t y) {
    int64_t k = NBO + g_sq(c, x, y);
    if (c->S[S_CTX] == CTX_END) return c->HS[H_PREV + k];
    return c->B[k];
}

/* ResultPosition[x][y]: in isMoveLegal() the scratch copy once a consequence made it, else
 * NextPosition (which is the board, consequences of end() included, elsewhere). */
static inline int64_t g_rread(Ctx *c, int64_t x, int64_t y) {
    if (c->S[S_CTX] == CTX_IS_MOVE_LEGAL && c->HS[H_RES] != 0) return c->HS[H_RES + 1 + g_sq(c, x, y)];
    return COUNTING ? g_nread_counted(c, x, y) : g_nread(c, x, y);
}

/* ResultCount[x][y]: the counts of ResultPosition (the scratch copy holds them after its
 * objects), else NextCount. */
static inline int64_t g_rcount(Ctx *c, int64_t x, int64_t y) {
    if (c->S[S_CTX] == CTX_IS_MOVE_LEGAL && c->HS[H_RES] != 0) return c->HS[H_RES + 1 + NBO + g_sq(c, x, y)];
    return g_ncount(c, x, y);
}

/* A float of a key as int64 bits (0.0 and -0.0 alike); NaN, which Python compares by identity,
 * is left to the Python backend. */
static inline int64_t g_fbits(Ctx *c, double x) {
    if (x != x) {
        c->HS[HS_X] = 1;
        g_fail(c);
    }
    x += 0.0;
    int64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

static inline uint64_t g_board_hash(const int64_t *HS, int64_t at) {
    uint64_t h = 0;
    for (int64_t k = 0; k < NB; k++) h ^= g_z(k, HS[at + k]);
    return h;
}

static inline uint64_t g_hash(const int64_t *HS, int64_t at, int64_t n, uint64_t h) {
    for (int64_t k = at; k < at + n; k++) h = (h ^ (uint64_t)HS[k]) * UINT64_C(1099511628211);
    return h;
}

static inline int64_t g_fin(uint64_t h) {
    h = (h ^ (h >> 33)) * UINT64_C(0xFF51AFD7ED558CCD);
    return (int64_t)((h ^ (h >> 33)) >> 1); /* non-negative: -1 marks an empty slot */
}

static inline int g_same_key(const int64_t *HS, int64_t a, int64_t b, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        if (HS[a + k] != HS[b + k]) return 0;
    return 1;
}

static inline void g_tinsert(int64_t *HS, int64_t table, int64_t h, int64_t i) {
    int64_t s = h & TMASK;
    while (HS[table + s] >= 0) s = (s + 1) & TMASK;
    HS[table + s] = i;
}

static inline void g_tremove(int64_t *HS, int64_t table, int64_t h, int64_t i) {
    int64_t s = h & TMASK;
    while (HS[table + s] != i) s = (s + 1) & TMASK;
    HS[table + s] = -1;
}

/* Defined by the generated module: a position's key into HS from `at`. */
static void g_key_row(Ctx *c, const int64_t *B, int64_t p, const int64_t *V, const double *VF, int64_t at);
/* Defined in kernel.c, called by generated code. */
static int g_has_legal_move(Ctx *c);
static int g_has_legal_move_seen(Ctx *c);
static int64_t g_repetitions(Ctx *c);
static int g_board_seen(Ctx *c);
static int g_board_seen_counted(Ctx *c);

#endif
