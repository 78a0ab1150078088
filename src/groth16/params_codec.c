/* Bulk codec for the uncompressed points of parameter files. Multi-GiB files hold hundreds of millions
 * of points, so decoding reads the big-endian limbs straight from the mapping and costs only the
 * canonical test and the Montgomery conversion unless a curve or subgroup check is asked for. At the
 * CURVE level it accepts what cuzk_g1/g2_deserialize_unchecked accept, at SUBGROUP what the checked
 * decoders accept (the tests hold them side by side), less infinity in queries and blst's G1 x = 0
 * rule (see params.h). */
#include <string.h>
#include "ec/ec.h"
#include "ec/ec_consts.h"
#include "ff/fp_inline.h"
#include "ff/mont.h"
#include "groth16/params_internal.h"
#include "util/map_guard.h"
#include "util/parallel.h"

#define FLAG_BITS 0xe0
#define FLAG_INFINITY 0x40

static inline void load_be384(uint64_t r[FP_LIMBS], const uint8_t *in)
{
    for (int i = 0; i < FP_LIMBS; i++) {
        uint64_t v;
        memcpy(&v, in + 8 * (FP_LIMBS - 1 - i), 8);
        r[i] = __builtin_bswap64(v);
    }
}

static inline void store_be384(uint8_t *out, const uint64_t a[FP_LIMBS])
{
    for (int i = 0; i < FP_LIMBS; i++) {
        uint64_t v = __builtin_bswap64(a[i]);
        memcpy(out + 8 * (FP_LIMBS - 1 - i), &v, 8);
    }
}

static inline bool below_p(const uint64_t a[FP_LIMBS])
{
    for (int i = FP_LIMBS - 1; i >= 0; i--)
        if (a[i] != FP_MODULUS[i])
            return a[i] < FP_MODULUS[i];
    return false;
}

static inline bool is_zero384(const uint64_t a[FP_LIMBS])
{
    return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5]) == 0;
}

static inline void to_mont(fp *r, const uint64_t a[FP_LIMBS])
{
    fp t;
    memcpy(t.l, a, sizeof t.l);
    fp_mul_inl(r, &t, &FP_R2);
}

static inline void from_mont(uint64_t r[FP_LIMBS], const fp *a)
{
    static const fp one_raw = {{1}};
    fp t;
    fp_mul_inl(&t, a, &one_raw);
    memcpy(r, t.l, sizeof t.l);
}

/* y² = x³ + 4 with the inline field code: the out-of-line check costs as much again as the rest of
 * the decoding. (0, 0) never reaches here. */
static inline bool g1_on_curve_inl(const g1_aff *p)
{
    fp lhs, rhs;
    fp_sqr_inl(&lhs, &p->y);
    fp_sqr_inl(&rhs, &p->x);
    fp_mul_inl(&rhs, &rhs, &p->x);
    fp_add_inl(&rhs, &rhs, &EC_G1_B);
    return memcmp(&lhs, &rhs, sizeof lhs) == 0;
}

/* A flag bit is set: valid only as the exact infinity encoding (0x40, then zeros). */
static int flagged(const uint8_t *in, size_t len, bool allow_inf)
{
    if (in[0] != FLAG_INFINITY)
        return CUZK_ERR_BAD_FLAGS;
    for (size_t i = 1; i < len; i++)
        if (in[i])
            return CUZK_ERR_BAD_FLAGS;
    return allow_inf ? CUZK_OK : PARAMS_DEC_INFINITY;
}

/* The coordinates of an unflagged G1 point into *out as raw canonical values (not yet in Montgomery form),
 * or a code: a value not below p, or x = 0, which is never valid ((0, 0) is our infinity; (0, ±2) are the
 * only curve points with x = 0, of order 3, and blst rejects them even in its unchecked deserializer). */
static int dec_g1_raw(g1_aff *out, const uint8_t in[PARAMS_G1_BYTES])
{
    load_be384(out->x.l, in);
    load_be384(out->y.l, in + FP_BYTES);
    if (!below_p(out->x.l) || !below_p(out->y.l))
        return CUZK_ERR_NOT_CANONICAL;
    if (__builtin_expect(is_zero384(out->x.l), 0)) {
        g1_aff q;
        to_mont(&q.x, out->x.l);
        to_mont(&q.y, out->y.l);
        return !is_zero384(out->y.l) && g1_aff_on_curve(&q) ? CUZK_ERR_NOT_IN_SUBGROUP : CUZK_ERR_NOT_ON_CURVE;
    }
    return CUZK_OK;
}

/* The same for G2: an Fp2 coordinate is c1 || c0; all four zero would read back as infinity. */
static int dec_g2_raw(g2_aff *out, const uint8_t in[PARAMS_G2_BYTES])
{
    uint64_t *v[4] = {out->x.c1.l, out->x.c0.l, out->y.c1.l, out->y.c0.l};
    for (int k = 0; k < 4; k++) {
        load_be384(v[k], in + k * FP_BYTES);
        if (!below_p(v[k]))
            return CUZK_ERR_NOT_CANONICAL;
    }
    if (__builtin_expect(is_zero384(v[0]) && is_zero384(v[1]) && is_zero384(v[2]) && is_zero384(v[3]), 0))
        return CUZK_ERR_NOT_ON_CURVE;
    return CUZK_OK;
}

int params_dec_g1(g1_aff *out, const uint8_t in[PARAMS_G1_BYTES], cuzk_params_check check,
                  bool allow_inf)
{
    if (__builtin_expect(in[0] & FLAG_BITS, 0)) {
        int c = flagged(in, PARAMS_G1_BYTES, allow_inf);
        if (c == CUZK_OK)
            g1_aff_set_inf(out);
        return c;
    }
    g1_aff q;
    int c = dec_g1_raw(&q, in);
    if (c != CUZK_OK)
        return c;
    to_mont(&q.x, q.x.l);
    to_mont(&q.y, q.y.l);
    if (check >= CUZK_PARAMS_CHECK_CURVE && !g1_on_curve_inl(&q))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= CUZK_PARAMS_CHECK_SUBGROUP && !g1_aff_in_subgroup(&q))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    *out = q;
    return CUZK_OK;
}

int params_dec_g2(g2_aff *out, const uint8_t in[PARAMS_G2_BYTES], cuzk_params_check check,
                  bool allow_inf)
{
    if (__builtin_expect(in[0] & FLAG_BITS, 0)) {
        int c = flagged(in, PARAMS_G2_BYTES, allow_inf);
        if (c == CUZK_OK)
            g2_aff_set_inf(out);
        return c;
    }
    g2_aff q;
    int c = dec_g2_raw(&q, in);
    if (c != CUZK_OK)
        return c;
    to_mont(&q.x.c1, q.x.c1.l);
    to_mont(&q.x.c0, q.x.c0.l);
    to_mont(&q.y.c1, q.y.c1.l);
    to_mont(&q.y.c0, q.y.c0.l);
    if (check >= CUZK_PARAMS_CHECK_CURVE && !g2_aff_on_curve(&q))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= CUZK_PARAMS_CHECK_SUBGROUP && !g2_aff_in_subgroup(&q))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    *out = q;
    return CUZK_OK;
}

void params_enc_g1(uint8_t out[PARAMS_G1_BYTES], const g1_aff *p)
{
    if (g1_aff_is_inf(p)) {
        memset(out, 0, PARAMS_G1_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    uint64_t c[FP_LIMBS];
    from_mont(c, &p->x);
    store_be384(out, c);
    from_mont(c, &p->y);
    store_be384(out + FP_BYTES, c);
}

void params_enc_g2(uint8_t out[PARAMS_G2_BYTES], const g2_aff *p)
{
    if (g2_aff_is_inf(p)) {
        memset(out, 0, PARAMS_G2_BYTES);
        out[0] = FLAG_INFINITY;
        return;
    }
    const fp *coords[4] = {&p->x.c1, &p->x.c0, &p->y.c1, &p->y.c0};
    for (int k = 0; k < 4; k++) {
        uint64_t c[FP_LIMBS];
        from_mont(c, coords[k]);
        store_be384(out + k * FP_BYTES, c);
    }
}

/* ---- arrays ------------------------------------------------------------------------------------ */

/* The input may be a file mapping that shrinks while it is read: each worker reads under its own
 * recovery point (util/map_guard.h), armed once per call, and a fault stops them all. Between chunk
 * hand-outs the workers hold nothing, so a fault abandons no lock and no allocation. */
typedef struct {
    void *out;
    const uint8_t *in;
    size_t n, grain;
    cuzk_params_check check;
    bool g2;
    size_t in_bytes;
    size_t next;  /* next chunk's first index (atomic) */
    uint64_t bad; /* lowest bad index << 16 | its code so far, UINT64_MAX = none (atomic) */
    uint64_t fault; /* lowest faulting byte offset in `in`, UINT64_MAX = none (atomic) */
} dec_job;

static void lower_to(uint64_t *slot, uint64_t v)
{
    uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(slot, &cur, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Point i of an array (no infinity) into j->out[i], with its coordinates left raw (raw) or fully decoded and
 * checked at j->check. */
static int dec_point(const dec_job *j, size_t i, bool raw)
{
    const size_t in_bytes = j->g2 ? PARAMS_G2_BYTES : PARAMS_G1_BYTES;
    const uint8_t *in = j->in + i * in_bytes;
    if (!raw)
        return j->g2 ? params_dec_g2((g2_aff *)j->out + i, in, j->check, false)
                     : params_dec_g1((g1_aff *)j->out + i, in, j->check, false);
    if (__builtin_expect(in[0] & FLAG_BITS, 0))
        return flagged(in, in_bytes, false);
    return j->g2 ? dec_g2_raw((g2_aff *)j->out + i, in) : dec_g1_raw((g1_aff *)j->out + i, in);
}

_Static_assert(sizeof(g1_aff) == 2 * sizeof(fp) && sizeof(g2_aff) == 4 * sizeof(fp),
               "a decoded point is its coordinates, nothing else");

/* Below the subgroup check level the points of a chunk are decoded with their coordinates raw, brought into
 * Montgomery form together (fp_to_mont_many: eight at a time in IFMA lanes) and, at the curve level, checked
 * together (g1/g2_aff_first_off_curve, likewise); the lowest bad index of the chunk is reported either way. */
static void dec_chunk(dec_job *j, size_t b, size_t e)
{
    const bool batch = j->check != CUZK_PARAMS_CHECK_SUBGROUP;
    const size_t point_bytes = j->g2 ? sizeof(g2_aff) : sizeof(g1_aff);
    size_t i = b;
    int c = CUZK_OK;
    for (; i < e; i++) {
        c = dec_point(j, i, batch);
        if (__builtin_expect(c != CUZK_OK, 0))
            break;
    }
    if (batch) /* the points before the first undecodable one, every coordinate (G1: 2 Fp, G2: 4) */
        fp_to_mont_many((fp *)((char *)j->out + b * point_bytes), (i - b) * (point_bytes / sizeof(fp)));
    if (j->check == CUZK_PARAMS_CHECK_CURVE) {
        size_t off = j->g2 ? g2_aff_first_off_curve((const g2_aff *)j->out + b, i - b)
                           : g1_aff_first_off_curve((const g1_aff *)j->out + b, i - b);
        if (off < i - b) {
            i = b + off;
            c = CUZK_ERR_NOT_ON_CURVE;
        }
    }
    if (__builtin_expect(c != CUZK_OK, 0))
        lower_to(&j->bad, (uint64_t)i << 16 | (unsigned)c); /* codes are below 2^16 */
}

static void dec_chunks(void *ctx)
{
    dec_job *j = ctx;
    while (__atomic_load_n(&j->fault, __ATOMIC_RELAXED) == UINT64_MAX) {
        size_t b = __atomic_fetch_add(&j->next, j->grain, __ATOMIC_RELAXED);
        if (b >= j->n)
            return;
        dec_chunk(j, b, b + j->grain < j->n ? b + j->grain : j->n);
    }
}

static void dec_worker(void *ctx, int tid, int nthreads)
{
    (void)tid, (void)nthreads;
    dec_job *j = ctx;
    size_t off;
    if (!cuzk_map_guard_run(j->in, j->in_bytes, dec_chunks, j, &off))
        lower_to(&j->fault, off);
}

static bool dec_array(void *out, const uint8_t *in, size_t n, cuzk_params_check check, bool g2,
                      int threads, size_t *bad_index, int *bad_code)
{
    size_t pt = g2 ? PARAMS_G2_BYTES : PARAMS_G1_BYTES;
    /* Chunks of a few hundred KiB: small enough to balance, large enough that the hand-out is noise.
     * Subgroup checks cost ~1000x more per point, so they get finer chunks. */
    size_t grain = check == CUZK_PARAMS_CHECK_SUBGROUP ? 64 : (g2 ? 2048 : 4096);
    dec_job j = {out, in, n, grain, check, g2, n * pt, 0, UINT64_MAX, UINT64_MAX};
    size_t chunks = (n + grain - 1) / grain;
    if (n)
        cuzk_parallel_run((size_t)threads < chunks ? threads : (int)chunks, dec_worker, &j);
    if (j.fault != UINT64_MAX) {
        *bad_index = (size_t)(j.fault / pt);
        *bad_code = PARAMS_DEC_MAP_FAULT;
        return false;
    }
    if (j.bad == UINT64_MAX)
        return true;
    /* the code comes with the index: reading the point again could fault if the file shrank since */
    *bad_index = (size_t)(j.bad >> 16);
    *bad_code = (int)(j.bad & 0xffff);
    return false;
}

bool params_dec_g1_array(g1_aff *out, const uint8_t *in, size_t n, cuzk_params_check check,
                         int threads, size_t *bad_index, int *bad_code)
{
    return dec_array(out, in, n, check, false, threads, bad_index, bad_code);
}

bool params_dec_g2_array(g2_aff *out, const uint8_t *in, size_t n, cuzk_params_check check,
                         int threads, size_t *bad_index, int *bad_code)
{
    return dec_array(out, in, n, check, true, threads, bad_index, bad_code);
}

typedef struct {
    uint8_t *out;
    const void *in;
    bool g2;
} enc_job;

static void enc_chunk(void *ctx, size_t b, size_t e)
{
    enc_job *j = ctx;
    for (size_t i = b; i < e; i++) {
        if (j->g2)
            params_enc_g2(j->out + i * PARAMS_G2_BYTES, (const g2_aff *)j->in + i);
        else
            params_enc_g1(j->out + i * PARAMS_G1_BYTES, (const g1_aff *)j->in + i);
    }
}

void params_enc_g1_array(uint8_t *out, const g1_aff *in, size_t n, int threads)
{
    enc_job j = {out, in, false};
    cuzk_parallel_for(threads, n, 4096, enc_chunk, &j);
}

void params_enc_g2_array(uint8_t *out, const g2_aff *in, size_t n, int threads)
{
    enc_job j = {out, in, true};
    cuzk_parallel_for(threads, n, 2048, enc_chunk, &j);
}

const char *params_code_str(int code)
{
    switch (code) {
    case CUZK_ERR_BAD_FLAGS: return "bad flag bits (compressed, sign or malformed infinity encoding)";
    case CUZK_ERR_NOT_CANONICAL: return "coordinate not below the field modulus";
    case CUZK_ERR_NOT_ON_CURVE: return "point not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point not in the prime-order subgroup";
    case PARAMS_DEC_INFINITY: return "point at infinity (not allowed here)";
    case PARAMS_DEC_MAP_FAULT: return "unreadable (the file shrank while in use, or a read failed)";
    default: return "bad point";
    }
}

cuzk_status params_code_status(int code)
{
    return code == PARAMS_DEC_INFINITY    ? CUZK_ERR_FORMAT
           : code == PARAMS_DEC_MAP_FAULT ? CUZK_ERR_IO
                                          : (cuzk_status)code;
}

int params_threads(int requested) { return requested > 0 ? requested : cuzk_cpu_count(); }
