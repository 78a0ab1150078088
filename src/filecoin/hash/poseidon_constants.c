/* Derivation of neptune's Poseidon constants (round numbers, Grain round constants, Cauchy MDS) and
 * of its optimized schedule: round constants pushed back through the linear layers and the partial
 * rounds' MDS factored into sparse matrices (neptune preprocessing.rs, mds.rs). Built per arity on
 * first use and cached for the life of the process. */
#include "filecoin/hash/poseidon_constants.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- round numbers ------------------------------------------------------------------------- */

/* The security inequalities of the Poseidon paper as neptune evaluates them, in f32. A bound that
 * is negative is met by any rf (neptune casts it to usize, saturating at zero). */
static bool rounds_secure(unsigned t, float log2_t, unsigned rf, unsigned rp)
{
    const float n = 256.0f, m = 128.0f;
    float ft = (float)t, frp = (float)rp;
    float bounds[4] = {
        m <= (n - 3.0f) * (ft + 1.0f) ? 6.0f : 10.0f,
        0.43f * m + log2_t - frp,
        0.21f * n - frp,
        (0.14f * n - 1.0f - frp) / (ft - 1.0f),
    };
    for (int i = 0; i < 4; i++)
        if ((float)rf < ceilf(bounds[i]))
            return false;
    return true;
}

void cuzk_poseidon_round_numbers(unsigned t, unsigned *full_rounds, unsigned *partial_rounds)
{
    unsigned best_rf = 0, best_rp = 0, best_cost = ~0u;
    float log2_t = log2f((float)t);
    for (unsigned rf_outer = 2; rf_outer <= 1000; rf_outer += 2) {
        /* The reference adds the security margin to the outer loop's R_F inside the inner loop, so
         * it accumulates over the inner iterations; reproduced as is (the numbers depend on it). */
        unsigned rf = rf_outer;
        for (unsigned rp_test = 4; rp_test < 200; rp_test++) {
            if (!rounds_secure(t, log2_t, rf, rp_test))
                continue;
            rf += 2;
            unsigned rp = (unsigned)ceilf(1.075f * (float)rp_test);
            unsigned cost = t * rf + rp;
            if (cost < best_cost || (cost == best_cost && rf < best_rf)) {
                best_rf = rf;
                best_rp = rp;
                best_cost = cost;
            }
        }
    }
    *full_rounds = best_rf;
    *partial_rounds = best_rp;
}

/* ---- Grain LFSR ------------------------------------------------------------------------------ */

/* 80-bit state; bit i of s is the reference's state[i], state[0] the oldest bit. */
typedef struct {
    unsigned __int128 s;
} grain;

static unsigned grain_step(grain *g)
{
    unsigned __int128 s = g->s;
    unsigned b = (unsigned)((s >> 62) ^ (s >> 51) ^ (s >> 38) ^ (s >> 23) ^ (s >> 13) ^ s) & 1u;
    g->s = (s >> 1) | ((unsigned __int128)b << 79);
    return b;
}

/* Self-shrinking output: pairs (b1, b2), b2 is output when b1 = 1. */
static unsigned grain_bit(grain *g)
{
    while (!grain_step(g))
        grain_step(g);
    return grain_step(g);
}

static void grain_init(grain *g, unsigned width, unsigned rf, unsigned rp)
{
    /* field (2 bits) = 1, S-box (4) = 1 for x^5, field size (12) = 255, t (12), R_F (10), R_P (10),
     * 30 ones; each field most significant bit first, the first bit becoming state[0]. */
    const struct {
        unsigned bits;
        uint64_t v;
    } fields[] = {{2, 1}, {4, 1}, {12, 255}, {12, width}, {10, rf}, {10, rp}, {30, 0x3fffffff}};
    unsigned pos = 0;
    g->s = 0;
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (int i = (int)fields[f].bits - 1; i >= 0; i--, pos++)
            g->s |= (unsigned __int128)((fields[f].v >> i) & 1u) << pos;
    for (int i = 0; i < 160; i++)
        grain_step(g);
}

void cuzk_poseidon_grain_constants(fr *out, unsigned width, unsigned rf, unsigned rp)
{
    grain g;
    grain_init(&g, width, rf, rp);
    size_t n = (size_t)(rf + rp) * width;
    for (size_t k = 0; k < n; k++) {
        /* 255 bits, most significant first, as a big-endian integer; values >= r are drawn again */
        for (;;) {
            uint8_t be[32];
            for (int i = 0; i < 32; i++) {
                unsigned acc = 0;
                for (int j = 0; j < (i == 0 ? 7 : 8); j++)
                    acc = (acc << 1) | grain_bit(&g);
                be[i] = (uint8_t)acc;
            }
            if (fr_from_bytes_be(&out[k], be))
                break;
        }
    }
}

/* ---- small dense matrices over Fr (row-major, n×n) -------------------------------------------- */

/* out = m·v (neptune's left_apply_matrix); out must not alias v. */
static void mat_apply_left(fr *out, const fr *m, const fr *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        fr acc = FR_ZERO, t;
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&t, &m[i * n + j], &v[j]);
            fr_add(&acc, &acc, &t);
        }
        out[i] = acc;
    }
}

/* Solves a·X = B for X (a: n×n, consumed as scratch; B: n×k row-major, replaced by X) by Gaussian
 * elimination and back substitution; false if a is singular. The solution is unique, so the elimination
 * order need not be the reference's. */
static bool mat_solve_k(fr *a, fr *b, unsigned n, unsigned k)
{
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && fr_is_zero(&a[p * n + c]))
            p++;
        if (p == n)
            return false;
        if (p != c) {
            for (unsigned j = c; j < n; j++) {
                fr t = a[c * n + j];
                a[c * n + j] = a[p * n + j], a[p * n + j] = t;
            }
            for (unsigned j = 0; j < k; j++) {
                fr t = b[c * k + j];
                b[c * k + j] = b[p * k + j], b[p * k + j] = t;
            }
        }
        fr inv, f, t;
        fr_inv(&inv, &a[c * n + c]);
        for (unsigned r = c + 1; r < n; r++) {
            if (fr_is_zero(&a[r * n + c]))
                continue;
            fr_mul(&f, &a[r * n + c], &inv);
            for (unsigned j = c + 1; j < n; j++) {
                fr_mul(&t, &f, &a[c * n + j]);
                fr_sub(&a[r * n + j], &a[r * n + j], &t);
            }
            for (unsigned j = 0; j < k; j++) {
                fr_mul(&t, &f, &b[c * k + j]);
                fr_sub(&b[r * k + j], &b[r * k + j], &t);
            }
        }
    }
    for (unsigned c = n; c-- > 0;) {
        fr inv, t;
        fr_inv(&inv, &a[c * n + c]);
        for (unsigned j = 0; j < k; j++) {
            fr acc = b[c * k + j];
            for (unsigned i = c + 1; i < n; i++) {
                fr_mul(&t, &a[c * n + i], &b[i * k + j]);
                fr_sub(&acc, &acc, &t);
            }
            fr_mul(&b[c * k + j], &acc, &inv);
        }
    }
    return true;
}

/* The inverse of m (out = m^−1); false if m is singular. work: n·n scratch elements. */
static bool mat_inv(fr *out, const fr *m, unsigned n, fr *work)
{
    memcpy(work, m, sizeof(fr) * n * n);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            out[i * n + j] = i == j ? FR_ONE : FR_ZERO;
    return mat_solve_k(work, out, n, n);
}

/* a·x = b for one right-hand side (a consumed, b replaced by x). */
static bool mat_solve(fr *a, fr *b, unsigned n) { return mat_solve_k(a, b, n, 1); }

/* ---- the optimized schedule ------------------------------------------------------------------- */

/* neptune compress_round_constants with every partial round preprocessed: the first round's keys
 * as they are, then each later key row moved before the preceding MDS (M⁻¹·k), the partial rounds'
 * keys folded backwards so that a single scalar remains per partial round. */
static void compress_constants(fr *out, const cuzk_poseidon_constants_t *c, const fr *rc)
{
    unsigned t = c->width, h = c->half_full_rounds, p = c->partial_rounds;
    const fr *mi = c->mds_inv;
    fr acc[CUZK_POSEIDON_MAX_WIDTH], inv[CUZK_POSEIDON_MAX_WIDTH];
    fr *partial_keys = out + (size_t)(h + 1) * t; /* filled last-first below */
    size_t o = 0;

    for (unsigned i = 0; i < t; i++)
        out[o++] = rc[i];
    for (unsigned r = 1; r < h; r++, o += t)
        mat_apply_left(&out[o], mi, &rc[(size_t)r * t], t);

    memcpy(acc, &rc[(size_t)(h + p) * t], sizeof(fr) * t);
    for (unsigned i = 0; i < p; i++) {
        const fr *prev = &rc[(size_t)(h + p - i - 1) * t];
        mat_apply_left(inv, mi, acc, t);
        partial_keys[p - 1 - i] = inv[0]; /* the reference pushes, then pops in reverse */
        inv[0] = FR_ZERO;
        for (unsigned j = 0; j < t; j++)
            fr_add(&acc[j], &prev[j], &inv[j]);
    }
    mat_apply_left(&out[o], mi, acc, t);
    o += t + p;
    for (unsigned r = 1; r < h; r++, o += t)
        mat_apply_left(&out[o], mi, &rc[(size_t)(r + h + p) * t], t);
}

/* neptune factor_to_sparse_matrices(Mᵀ, R_P): repeatedly split the current matrix C into
 * C' (identity first row/column, C's lower-right block) and the sparse C'' with C = C'·C'', keep C''
 * and continue with Mᵀ·C'. The last C is the pre-sparse matrix; the C'' are used in reverse order.
 * C''s first column below the corner is ŵ = Ĉ⁻¹·w, the only solution of C = C'·C''. neptune 11 (the
 * version Filecoin pins) computed w·Ĉ⁻¹ instead; the two agree because Ĉ is always M̂^(k+1), a power
 * of the symmetric lower-right block of M, hence symmetric. */
static bool factor_sparse(cuzk_poseidon_constants_t *c, fr *pre, fr *w_hat_out, fr *v_rest_out, fr *work)
{
    unsigned t = c->width, p = c->partial_rounds, s = t - 1;
    size_t tt = (size_t)t * t;
    fr *base = work, *cur = base + tt, *next = cur + tt, *hat = next + tt;
    fr wh[CUZK_POSEIDON_MAX_WIDTH], x;

    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            base[i * t + j] = c->mds[j * t + i];
    memcpy(cur, base, sizeof(fr) * tt);
    for (unsigned k = 0; k < p; k++) {
        /* C'' = [[C00, v], [ŵ, I]] with ŵ = Ĉ⁻¹·w (Ĉ: C without row and column 0, w: C's column 0
         * below row 0) */
        for (unsigned i = 0; i < s; i++) {
            for (unsigned j = 0; j < s; j++)
                hat[i * s + j] = cur[(i + 1) * t + j + 1];
            wh[i] = cur[(i + 1) * t];
        }
        if (!mat_solve(hat, wh, s))
            return false;
        unsigned slot = p - 1 - k;
        fr *wo = &w_hat_out[(size_t)slot * t], *vo = &v_rest_out[(size_t)slot * s];
        wo[0] = cur[0];
        for (unsigned i = 0; i < s; i++) {
            wo[i + 1] = wh[i];
            vo[i] = cur[i + 1];
        }
        /* next = Mᵀ·C' where C' has an identity first row and column and C's lower-right block */
        for (unsigned i = 0; i < t; i++) {
            next[i * t] = base[i * t];
            for (unsigned j = 1; j < t; j++) {
                fr acc = FR_ZERO;
                for (unsigned m = 1; m < t; m++) {
                    fr_mul(&x, &base[i * t + m], &cur[m * t + j]);
                    fr_add(&acc, &acc, &x);
                }
                next[i * t + j] = acc;
            }
        }
        fr *sw = cur;
        cur = next, next = sw;
    }
    memcpy(pre, cur, sizeof(fr) * tt);
    return true;
}

static cuzk_poseidon_constants_t *build(unsigned arity)
{
    unsigned t = arity + 1, rf, rp;
    cuzk_poseidon_round_numbers(t, &rf, &rp);
    size_t tt = (size_t)t * t, nrc = (size_t)(rf + rp) * t, ncrc = (size_t)rf * t + rp;
    size_t nfr = nrc + 3 * tt + ncrc + (size_t)rp * t + (size_t)rp * (t - 1);
    cuzk_poseidon_constants_t *c = malloc((sizeof *c + 63) / 64 * 64 + nfr * sizeof(fr));
    fr *work = malloc(sizeof(fr) * 4 * tt); /* the Cauchy denominators, then mat_inv (t²), factor_sparse (4·t²) */
    if (!c || !work) {
        free(c), free(work);
        return NULL;
    }
    fr *p = (fr *)((char *)c + (sizeof *c + 63) / 64 * 64);
    fr *rc = p, *mds = rc + nrc, *mds_inv = mds + tt, *crc = mds_inv + tt, *pre = crc + ncrc,
       *w_hat = pre + tt, *v_rest = w_hat + (size_t)rp * t;
    *c = (cuzk_poseidon_constants_t){
        .arity = arity, .width = t, .full_rounds = rf, .half_full_rounds = rf / 2, .partial_rounds = rp,
        .round_constants = rc, .mds = mds, .mds_inv = mds_inv, .compressed_round_constants = crc,
        .pre_sparse = pre, .sparse_w_hat = w_hat, .sparse_v_rest = v_rest,
    };
    cuzk_poseidon_tag_merkle(&c->merkle_tag, arity);
    cuzk_poseidon_grain_constants(rc, t, rf, rp);

    /* Cauchy matrix: all x_i + y_j = i + t + j are distinct and non-zero, so one batch inversion */
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            fr_from_u64(&work[i * t + j], (uint64_t)i + t + j);
    fr_batch_inv(mds, work, tt);

    bool ok = mat_inv(mds_inv, mds, t, work) && factor_sparse(c, pre, w_hat, v_rest, work);
    if (ok)
        compress_constants(crc, c, rc);
    free(work);
    if (!ok) { /* cannot happen for a Cauchy matrix; kept as a failure rather than an abort */
        free(c);
        return NULL;
    }
    return c;
}

/* ---- cache ------------------------------------------------------------------------------------ */

static cuzk_poseidon_constants_t *cache[CUZK_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

cuzk_status cuzk_poseidon_constants_get(const cuzk_poseidon_constants_t **out, unsigned arity, cuzk_err_t *err)
{
    *out = NULL;
    if (arity < 1 || arity > CUZK_POSEIDON_MAX_ARITY)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "poseidon: arity %u outside 1..%u", arity,
                            CUZK_POSEIDON_MAX_ARITY);
    cuzk_poseidon_constants_t *c = __atomic_load_n(&cache[arity], __ATOMIC_ACQUIRE);
    if (!c) {
        pthread_mutex_lock(&cache_lock);
        c = cache[arity];
        if (!c && (c = build(arity)) != NULL)
            __atomic_store_n(&cache[arity], c, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&cache_lock);
        if (!c)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "poseidon: no memory for the arity-%u constants", arity);
    }
    *out = c;
    return CUZK_OK;
}

const cuzk_poseidon_constants_t *cuzk_poseidon_constants(unsigned arity)
{
    const cuzk_poseidon_constants_t *c;
    return cuzk_poseidon_constants_get(&c, arity, NULL) == CUZK_OK ? c : NULL;
}

/* ---- domain tags -------------------------------------------------------------------------------- */

void cuzk_poseidon_tag_merkle(fr *tag, unsigned arity)
{
    uint64_t l[4] = {0};
    /* 2^arity − 1 for arity up to 36 fits one limb */
    l[0] = arity >= 64 ? ~0ull : (1ull << arity) - 1;
    fr_to_mont(tag, l);
}

cuzk_status cuzk_poseidon_tag_custom(fr *tag, uint64_t id, cuzk_err_t *err)
{
    if (id < 1 || id > 256) {
        *tag = FR_ZERO;
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "poseidon: custom domain id %llu outside 1..256",
                            (unsigned long long)id);
    }
    uint64_t l[4] = {id << 40, 0, 0, 0}; /* id·2^40 < 2^49 */
    fr_to_mont(tag, l);
    return CUZK_OK;
}
