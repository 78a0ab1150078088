/* The Filecoin-shaped benchmark circuit (synth_circuit.h). The gadgets follow bellpepper's
 * constraint shapes, because the LC storage A/B depends on them: booleans (ONE − b)·b = 0, xor
 * (a + a)·b = a + b − c, ch / maj with 2–3 term LCs, UInt32 additions whose result bits are packed
 * with MultiEq into LCs of hundreds of terms (each accumulation clones the running LCs, as
 * bellpepper's `lhs.clone() + (coeff, &lhs)` does), 255-bit unpacking and 254-bit packing sums.
 * Poseidon uses random constants: the constraint shapes matter here, not the hash. */
#include "synth_circuit.h"
#include <stdlib.h>
#include <string.h>
#include "ff/fr.h"
#include "gadgets/sha256.h"

#define RF 8  /* Poseidon full rounds (half before, half after the partial ones) */
#define RP 57 /* Poseidon partial rounds */
#define PW_MAX 12
#define FR_CAPACITY 254 /* bits that always fit in an Fr element: MultiEq packs up to this */

typedef struct {
    unsigned w;
    fr rc[(RF + RP) * PW_MAX], mds[PW_MAX * PW_MAX], w_hat[PW_MAX], v[PW_MAX], tag;
} poseidon_consts;

struct synth_tables {
    fr pow2[256], npow2[256]; /* 2^i and −2^i */
    poseidon_consts pos[2];   /* widths 9 (OCT), 12 (COLUMN) */
};

/* A Boolean as bellpepper has it: a constant, a variable, or the negation of a variable. */
enum { B_ZERO, B_ONE, B_IS, B_NOT };
typedef struct {
    uint32_t var;
    uint8_t kind, val; /* val: the Boolean's value (the variable's is 1 − val for B_NOT) */
} bit_t;
typedef struct {
    bit_t b[32]; /* least significant first */
} u32_t;
typedef struct {
    cuzk_var_t v;
    fr val;
} num_t;
typedef struct {
    cuzk_lc_t lc;
    fr val;
} elt_t;

typedef struct {
    cuzk_cs_t *cs;
    const synth_tables *T;
    bool vals, lcs;
    uint64_t rng;
    cuzk_lc_t meq_l, meq_r; /* MultiEq accumulators */
    unsigned meq_bits;
    bit_t replica[256];
    num_t cur; /* the chained value */
    synth_probe *probe;
    size_t *sha_acc, *pos_acc; /* constraint accounting (planning runs only) */
} sctx;


/* ---- values ---- */

static uint64_t next_rand(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_fr(fr *out, uint64_t *s)
{
    uint64_t l[4];
    for (int i = 0; i < 4; i++)
        l[i] = next_rand(s);
    l[3] &= 0x3fffffffffffffffULL; /* below 2^254 < r */
    fr_to_mont(out, l);
}

/* Random values are drawn on every backend, so that all backends with values agree. */
static num_t alloc_num(sctx *c)
{
    num_t x;
    rand_fr(&x.val, &c->rng);
    x.v = cuzk_cs_alloc(c->cs, c->vals ? &x.val : NULL);
    return x;
}

static cuzk_var_t alloc_val(sctx *c, const fr *v) { return cuzk_cs_alloc(c->cs, c->vals ? v : NULL); }

static size_t n_constraints(const sctx *c)
{
    cuzk_cs_counts_t k;
    cuzk_cs_counts(c->cs, &k);
    return k.num_constraints;
}

/* ---- Booleans ---- */

static inline cuzk_var_t V(uint32_t id) { return (cuzk_var_t){id}; }
static inline bit_t bconst(int v) { return (bit_t){0, v ? B_ONE : B_ZERO, (uint8_t)(v != 0)}; }
static inline bool is_const(bit_t b) { return b.kind <= B_ONE; }
static inline bit_t bnot(bit_t b)
{
    static const uint8_t flip[4] = {B_ONE, B_ZERO, B_NOT, B_IS};
    b.kind = flip[b.kind];
    b.val ^= 1;
    return b;
}
static inline int raw(bit_t b) { return b.kind == B_NOT ? !b.val : b.val; } /* the variable's value */

static void E(sctx *c, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *k) { cuzk_cs_enforce_free(c->cs, a, b, k); }
static void init3(sctx *c, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *k)
{
    cuzk_lc_init(a, c->cs);
    cuzk_lc_init(b, c->cs);
    cuzk_lc_init(k, c->cs);
}

/* lc += k·b (nk = −k), as bellpepper's Boolean::lc */
static void lc_bit(cuzk_lc_t *lc, bit_t b, const fr *k, const fr *nk)
{
    switch (b.kind) {
    case B_ONE: cuzk_lc_add_term(lc, cuzk_cs_one(), k); break;
    case B_IS: cuzk_lc_add_term(lc, V(b.var), k); break;
    case B_NOT:
        cuzk_lc_add_term(lc, cuzk_cs_one(), k);
        cuzk_lc_add_term(lc, V(b.var), nk);
        break;
    default: break;
    }
}
static void lc_bit1(cuzk_lc_t *lc, bit_t b) { lc_bit(lc, b, &cuzk_lc_coeff_one, &cuzk_lc_coeff_minus_one); }
static void lc_bitm(cuzk_lc_t *lc, bit_t b) { lc_bit(lc, b, &cuzk_lc_coeff_minus_one, &cuzk_lc_coeff_one); }

static bit_t new_var_bit(sctx *c, int v)
{
    cuzk_var_t x = alloc_val(c, v ? &FR_ONE : &FR_ZERO);
    return (bit_t){x.id, B_IS, (uint8_t)v};
}

/* AllocatedBit::alloc: (ONE − b)·b = 0 */
static bit_t alloc_bit(sctx *c, int v)
{
    bit_t b = new_var_bit(c, v);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    cuzk_lc_add(&A, cuzk_cs_one());
    cuzk_lc_sub(&A, V(b.var));
    cuzk_lc_add(&B, V(b.var));
    E(c, &A, &B, &C);
    return b;
}

/* Boolean::xor: (x + x)·y = x + y − r on the variables, negated when exactly one input is */
static bit_t bxor(sctx *c, bit_t a, bit_t b)
{
    if (is_const(a))
        return a.val ? bnot(b) : b;
    if (is_const(b))
        return b.val ? bnot(a) : a;
    bit_t r = new_var_bit(c, raw(a) ^ raw(b));
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    cuzk_lc_add(&A, V(a.var));
    cuzk_lc_add(&A, V(a.var));
    cuzk_lc_add(&B, V(b.var));
    cuzk_lc_add(&C, V(a.var));
    cuzk_lc_add(&C, V(b.var));
    cuzk_lc_sub(&C, V(r.var));
    E(c, &A, &B, &C);
    return a.kind != b.kind ? bnot(r) : r;
}

/* Boolean::and (and, and_not, nor): lc(a)·lc(b) = r */
static bit_t band(sctx *c, bit_t a, bit_t b)
{
    if (is_const(a))
        return a.val ? b : a;
    if (is_const(b))
        return b.val ? a : b;
    bit_t r = new_var_bit(c, a.val & b.val);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    lc_bit1(&A, a);
    lc_bit1(&B, b);
    cuzk_lc_add(&C, V(r.var));
    E(c, &A, &B, &C);
    return r;
}
static bit_t bor(sctx *c, bit_t a, bit_t b) { return bnot(band(c, bnot(a), bnot(b))); }

/* sha256_ch = (a ∧ b) ⊕ (¬a ∧ g): a·(b − g) = r − g */
static bit_t bch(sctx *c, bit_t a, bit_t b, bit_t g)
{
    if (is_const(a))
        return a.val ? b : g;
    if (is_const(b) && is_const(g))
        return b.val == g.val ? b : b.val ? a : bnot(a);
    if (is_const(b))
        return b.val ? bor(c, a, g) : band(c, bnot(a), g);
    if (is_const(g))
        return g.val ? bor(c, bnot(a), b) : band(c, a, b);
    bit_t r = new_var_bit(c, a.val ? b.val : g.val);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    lc_bit1(&A, a);
    lc_bit1(&B, b);
    lc_bitm(&B, g);
    cuzk_lc_add(&C, V(r.var));
    lc_bitm(&C, g);
    E(c, &A, &B, &C);
    return r;
}

/* sha256_maj: t = b ∧ g, then (t + t − b − g)·a = t − r */
static bit_t bmaj(sctx *c, bit_t a, bit_t b, bit_t g)
{
    if (is_const(a))
        return a.val ? bor(c, b, g) : band(c, b, g);
    if (is_const(b))
        return b.val ? bor(c, a, g) : band(c, a, g);
    if (is_const(g))
        return g.val ? bor(c, a, b) : band(c, a, b);
    bit_t t = band(c, b, g);
    bit_t r = new_var_bit(c, (a.val & b.val) | (a.val & g.val) | (b.val & g.val));
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    cuzk_lc_add(&A, V(t.var));
    cuzk_lc_add(&A, V(t.var));
    lc_bitm(&A, b);
    lc_bitm(&A, g);
    lc_bit1(&B, a);
    cuzk_lc_add(&C, V(t.var));
    cuzk_lc_sub(&C, V(r.var));
    E(c, &A, &B, &C);
    return r;
}

/* ---- UInt32 and MultiEq ---- */

static u32_t u32_const(uint32_t x)
{
    u32_t r;
    for (int i = 0; i < 32; i++)
        r.b[i] = bconst((x >> i) & 1);
    return r;
}
static uint32_t u32_val(const u32_t *x)
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++)
        v |= (uint32_t)x->b[i].val << i;
    return v;
}
static u32_t rotr(const u32_t *x, int n)
{
    u32_t r;
    for (int i = 0; i < 32; i++)
        r.b[i] = x->b[(i + n) & 31];
    return r;
}
static u32_t shr(const u32_t *x, int n)
{
    u32_t r;
    for (int i = 0; i < 32; i++)
        r.b[i] = i + n < 32 ? x->b[i + n] : bconst(0);
    return r;
}
/* x.rotr(r0) ^ x.rotr(r1) ^ (x.rotr(r2) or x.shr(r2)), two xors per bit as bellpepper */
static u32_t sigma(sctx *c, const u32_t *x, int r0, int r1, int r2, bool shift)
{
    u32_t a = rotr(x, r0), b = rotr(x, r1), d = shift ? shr(x, r2) : rotr(x, r2), r;
    for (int i = 0; i < 32; i++)
        r.b[i] = bxor(c, a.b[i], b.b[i]);
    for (int i = 0; i < 32; i++)
        r.b[i] = bxor(c, r.b[i], d.b[i]);
    return r;
}

static void meq_flush(sctx *c)
{
    if (!c->meq_bits)
        return;
    cuzk_lc_t one;
    cuzk_lc_init(&one, c->cs);
    cuzk_lc_add(&one, cuzk_cs_one());
    E(c, &c->meq_l, &one, &c->meq_r);
    c->meq_bits = 0;
}

/* MultiEq::enforce_equal: the running sums take lhs, rhs at 2^bits_used; consumes lhs and rhs. */
static void meq_equal(sctx *c, unsigned nbits, cuzk_lc_t *lhs, cuzk_lc_t *rhs)
{
    if (c->meq_bits + nbits >= FR_CAPACITY)
        meq_flush(c);
    const fr *k = &c->T->pow2[c->meq_bits];
    cuzk_lc_t *acc[2] = {&c->meq_l, &c->meq_r}, *add[2] = {lhs, rhs};
    for (int s = 0; s < 2; s++) {
        cuzk_lc_t next;
        cuzk_lc_init(&next, c->cs);
        cuzk_lc_copy(&next, acc[s]); /* the clone */
        cuzk_lc_add_scaled_lc(&next, k, add[s]);
        cuzk_lc_free(acc[s]);
        *acc[s] = next;
        cuzk_lc_free(add[s]);
    }
    c->meq_bits += nbits;
}

/* UInt32::addmany: result bits allocated as booleans, Σ operands = Σ result bits through MultiEq */
static u32_t addmany(sctx *c, const u32_t *ops, int k)
{
    uint64_t sum = 0;
    bool all_const = true;
    for (int j = 0; j < k; j++) {
        sum += u32_val(&ops[j]);
        for (int i = 0; i < 32 && all_const; i++)
            all_const = is_const(ops[j].b[i]);
    }
    if (all_const)
        return u32_const((uint32_t)sum);
    unsigned nbits = 64 - (unsigned)__builtin_clzll((uint64_t)k * 0xffffffffULL);
    cuzk_lc_t lhs, rhs;
    cuzk_lc_init(&lhs, c->cs);
    cuzk_lc_init(&rhs, c->cs);
    for (int j = 0; c->lcs && j < k; j++)
        for (int i = 0; i < 32; i++)
            lc_bit(&lhs, ops[j].b[i], &c->T->pow2[i], &c->T->npow2[i]);
    u32_t r;
    for (unsigned i = 0; i < nbits; i++) {
        bit_t b = alloc_bit(c, (sum >> i) & 1);
        if (i < 32)
            r.b[i] = b;
        cuzk_lc_add_term(&rhs, V(b.var), &c->T->pow2[i]);
    }
    meq_equal(c, nbits, &lhs, &rhs);
    return r;
}

/* ---- SHA-256 ---- */

/* bellpepper's compression: the additions for a and e are deferred to where the values are next
 * used (the start of the next round, or the final additions with the chaining value). */
static void sha256_block(sctx *c, const bit_t *in, const u32_t cur[8], u32_t out[8])
{
    u32_t w[64];
    for (int t = 0; t < 16; t++)
        for (int i = 0; i < 32; i++)
            w[t].b[i] = in[32 * t + 31 - i];
    for (int t = 16; t < 64; t++) {
        u32_t ops[4];
        ops[0] = w[t - 16];
        ops[1] = sigma(c, &w[t - 15], 7, 18, 3, true);
        ops[2] = w[t - 7];
        ops[3] = sigma(c, &w[t - 2], 17, 19, 10, true);
        w[t] = addmany(c, ops, 4);
    }
    u32_t a = cur[0], b = cur[1], cc = cur[2], d = cur[3], e = cur[4], f = cur[5], g = cur[6], h = cur[7];
    u32_t a_def[8], e_def[8]; /* the deferred operand lists (0 operands: a / e hold the value) */
    int a_n = 0, e_n = 0;
    for (int t = 0; t < 64; t++) {
        if (e_n)
            e = addmany(c, e_def, e_n);
        u32_t temp1[5]; /* h + S1 + ch + K[t] + w[t] */
        temp1[0] = h;
        temp1[1] = sigma(c, &e, 6, 11, 25, false);
        temp1[3] = u32_const(cuzk_sha256_k[t]);
        temp1[4] = w[t];
        for (int i = 0; i < 32; i++)
            temp1[2].b[i] = bch(c, e.b[i], f.b[i], g.b[i]);
        if (a_n)
            a = addmany(c, a_def, a_n);
        u32_t S0 = sigma(c, &a, 2, 13, 22, false), maj;
        for (int i = 0; i < 32; i++)
            maj.b[i] = bmaj(c, a.b[i], b.b[i], cc.b[i]);
        h = g, g = f, f = e;
        memcpy(e_def, temp1, sizeof temp1);
        e_def[5] = d, e_n = 6;
        d = cc, cc = b, b = a;
        memcpy(a_def, temp1, sizeof temp1);
        a_def[5] = S0, a_def[6] = maj, a_n = 7;
    }
    a_def[a_n++] = cur[0];
    e_def[e_n++] = cur[4];
    const u32_t *last[8] = {NULL, &b, &cc, &d, NULL, &f, &g, &h};
    for (int j = 0; j < 8; j++) {
        if (j == 0 || j == 4) {
            out[j] = j == 0 ? addmany(c, a_def, a_n) : addmany(c, e_def, e_n);
        } else {
            u32_t two[2] = {cur[j], *last[j]};
            out[j] = addmany(c, two, 2);
        }
    }
    meq_flush(c);
}

/* SHA-256 of n message bits (most significant bit of each byte first), padding as constants. */
static void sha256_bits(sctx *c, const bit_t *msg, size_t n, bit_t digest[256])
{
    enum { MAX_BITS = 2048 };
    bit_t p[MAX_BITS];
    size_t total = (n + 1 + 64 + 511) / 512 * 512;
    size_t before = c->sha_acc ? n_constraints(c) : 0;
    memcpy(p, msg, n * sizeof *p);
    for (size_t i = n; i < total; i++)
        p[i] = bconst(i == n);
    for (int i = 0; i < 64; i++)
        p[total - 1 - i] = bconst(((uint64_t)n >> i) & 1);
    if (c->probe && !c->probe->have && c->vals) {
        c->probe->msg_len = n / 8;
        for (size_t k = 0; k < n / 8; k++) {
            uint8_t byte = 0;
            for (int j = 0; j < 8; j++)
                byte = (uint8_t)(byte << 1 | msg[8 * k + j].val);
            c->probe->msg[k] = byte;
        }
    }
    u32_t st[8], nx[8];
    for (int j = 0; j < 8; j++)
        st[j] = u32_const(cuzk_sha256_iv_words[j]);
    for (size_t blk = 0; blk < total / 512; blk++) {
        sha256_block(c, p + 512 * blk, st, nx);
        memcpy(st, nx, sizeof st);
    }
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < 32; k++)
            digest[32 * j + k] = st[j].b[31 - k];
    if (c->probe && !c->probe->have && c->vals) {
        for (int k = 0; k < 256; k++) {
            c->probe->digest_var[k] = V(digest[k].var);
            c->probe->digest_neg[k] = digest[k].kind == B_NOT;
        }
        c->probe->have = true;
    }
    if (c->sha_acc)
        *c->sha_acc += n_constraints(c) - before;
}

/* ---- packing ---- */

/* AllocatedNum::to_bits_le: 255 booleans, then 0·0 = Σ 2^i·b_i − x (x is older than the bits, so
 * it lands in front of them) */
static void num_to_bits(sctx *c, const num_t *x, bit_t out[256])
{
    uint8_t le[32] = {0};
    if (c->vals)
        fr_to_bytes_le(le, &x->val);
    for (int i = 0; i < 255; i++)
        out[i] = alloc_bit(c, (le[i / 8] >> (i % 8)) & 1);
    out[255] = bconst(0);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    for (int i = 0; c->lcs && i < 255; i++)
        cuzk_lc_add_term(&C, V(out[i].var), &c->T->pow2[i]);
    cuzk_lc_sub(&C, x->v);
    E(c, &A, &B, &C);
}

/* The little-endian bytes of an element (from its bits) fed to SHA-256 byte by byte. */
static void put_elem(bit_t *msg, const bit_t bits[256])
{
    for (int k = 0; k < 32; k++)
        for (int j = 0; j < 8; j++)
            msg[8 * k + j] = bits[8 * k + 7 - j];
}

/* The digest as a field element (bytes little-endian, top two bits dropped): (Σ 2^i·d_i)·ONE = x */
static num_t pack_digest(sctx *c, const bit_t d[256])
{
    uint8_t le[32];
    for (int k = 0; k < 32; k++) {
        uint8_t byte = 0;
        for (int j = 0; j < 8; j++)
            byte = (uint8_t)(byte << 1 | d[8 * k + j].val);
        le[k] = byte;
    }
    le[31] &= 0x3f;
    num_t x;
    x.val = FR_ZERO;
    if (c->vals)
        fr_from_bytes_le(&x.val, le);
    x.v = alloc_val(c, &x.val);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    for (int i = 0; c->lcs && i < 254; i++)
        lc_bit(&A, d[8 * (i / 8) + 7 - i % 8], &c->T->pow2[i], &c->T->npow2[i]);
    cuzk_lc_add(&B, cuzk_cs_one());
    cuzk_lc_add(&C, x.v);
    E(c, &A, &B, &C);
    return x;
}

/* ---- Poseidon ---- */

/* x⁵ of an LC: t·t = x², x²·x² = x⁴, x⁴·t = x⁵ (the LC is cloned into each enforce, as closures do) */
static num_t sbox(sctx *c, const elt_t *t)
{
    num_t x2, x4, x5;
    x2.val = x4.val = x5.val = FR_ZERO;
    if (c->vals) {
        fr_sqr(&x2.val, &t->val);
        fr_sqr(&x4.val, &x2.val);
        fr_mul(&x5.val, &x4.val, &t->val);
    }
    x2.v = alloc_val(c, &x2.val);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    cuzk_lc_copy(&A, &t->lc);
    cuzk_lc_copy(&B, &t->lc);
    cuzk_lc_add(&C, x2.v);
    E(c, &A, &B, &C);
    x4.v = alloc_val(c, &x4.val);
    cuzk_lc_add(&A, x2.v);
    cuzk_lc_add(&B, x2.v);
    cuzk_lc_add(&C, x4.v);
    E(c, &A, &B, &C);
    x5.v = alloc_val(c, &x5.val);
    cuzk_lc_add(&A, x4.v);
    cuzk_lc_copy(&B, &t->lc);
    cuzk_lc_add(&C, x5.v);
    E(c, &A, &B, &C);
    return x5;
}

static void elt_add_const(sctx *c, elt_t *e, const fr *k)
{
    cuzk_lc_add_term(&e->lc, cuzk_cs_one(), k);
    if (c->vals)
        fr_add(&e->val, &e->val, k);
}

/* Width-w permutation of s[1..w−1] (consumed) with the capacity element s[0] = tag; returns s[1]
 * allocated. Full rounds: every element through the S-box, then the dense matrix (LCs of w terms).
 * Partial rounds, in the sparse-matrix form: element 0 through the S-box, the new element 0 is a
 * combination of all LCs, the others gain one term, so LCs grow to ~RP terms. */
static num_t poseidon(sctx *c, const poseidon_consts *P, elt_t *in)
{
    size_t before = c->pos_acc ? n_constraints(c) : 0;
    unsigned w = P->w;
    elt_t s[PW_MAX];
    cuzk_lc_init(&s[0].lc, c->cs);
    s[0].val = FR_ZERO;
    elt_add_const(c, &s[0], &P->tag);
    memcpy(&s[1], in, (w - 1) * sizeof *in);
    num_t x[PW_MAX];
    for (unsigned r = 0; r < RF + RP; r++) {
        const fr *rc = &P->rc[r * w];
        if (r < RF / 2 || r >= RF / 2 + RP) {
            for (unsigned j = 0; j < w; j++) {
                elt_add_const(c, &s[j], &rc[j]);
                x[j] = sbox(c, &s[j]);
                cuzk_lc_free(&s[j].lc);
            }
            for (unsigned j = 0; j < w; j++) {
                s[j].val = FR_ZERO;
                for (unsigned k = 0; k < w; k++) {
                    const fr *m = &P->mds[j * w + k];
                    cuzk_lc_add_term(&s[j].lc, x[k].v, m);
                    if (c->vals) {
                        fr t;
                        fr_mul(&t, m, &x[k].val);
                        fr_add(&s[j].val, &s[j].val, &t);
                    }
                }
            }
        } else {
            elt_add_const(c, &s[0], &rc[0]);
            num_t x0 = sbox(c, &s[0]);
            cuzk_lc_free(&s[0].lc);
            elt_t n0;
            cuzk_lc_init(&n0.lc, c->cs);
            cuzk_lc_add_term(&n0.lc, x0.v, &P->w_hat[0]);
            n0.val = FR_ZERO;
            if (c->vals)
                fr_mul(&n0.val, &P->w_hat[0], &x0.val);
            for (unsigned k = 1; k < w; k++) {
                cuzk_lc_add_scaled_lc(&n0.lc, &P->w_hat[k], &s[k].lc);
                if (c->vals) {
                    fr t;
                    fr_mul(&t, &P->w_hat[k], &s[k].val);
                    fr_add(&n0.val, &n0.val, &t);
                }
            }
            for (unsigned j = 1; j < w; j++) {
                cuzk_lc_add_term(&s[j].lc, x0.v, &P->v[j - 1]);
                if (c->vals) {
                    fr t;
                    fr_mul(&t, &P->v[j - 1], &x0.val);
                    fr_add(&s[j].val, &s[j].val, &t);
                }
            }
            s[0] = n0;
        }
    }
    num_t out;
    out.val = s[1].val;
    out.v = alloc_val(c, &out.val);
    cuzk_lc_t B, C;
    cuzk_lc_init(&B, c->cs);
    cuzk_lc_init(&C, c->cs);
    cuzk_lc_add(&B, cuzk_cs_one());
    cuzk_lc_add(&C, out.v);
    E(c, &s[1].lc, &B, &C);
    for (unsigned j = 0; j < w; j++)
        cuzk_lc_free(&s[j].lc);
    if (c->pos_acc)
        *c->pos_acc += n_constraints(c) - before;
    return out;
}

static void elt_of(sctx *c, elt_t *e, const num_t *x)
{
    cuzk_lc_init(&e->lc, c->cs);
    cuzk_lc_add(&e->lc, x->v);
    e->val = x->val;
}

/* ---- units ---- */

static void unit_label(sctx *c)
{
    bit_t msg[1024], pb[256];
    put_elem(msg, c->replica);
    for (int k = 0; k < 32; k++) {
        uint64_t byte = next_rand(&c->rng) & 0xff;
        for (int j = 0; j < 8; j++)
            msg[256 + 8 * k + j] = bconst((int)(byte >> (7 - j)) & 1);
    }
    for (int i = 0; i < 2; i++) {
        num_t p = alloc_num(c);
        num_to_bits(c, &p, pb);
        put_elem(msg + 512 + 256 * i, pb);
    }
    bit_t d[256];
    sha256_bits(c, msg, 1024, d);
    c->cur = pack_digest(c, d);
}

/* (a − b)·cond = (a − r): r = cond ? b : a, with lc(cond) */
static num_t pick(sctx *c, bit_t cond, const num_t *a, const num_t *b)
{
    num_t r;
    r.val = cond.val ? b->val : a->val;
    r.v = alloc_val(c, &r.val);
    cuzk_lc_t A, B, C;
    init3(c, &A, &B, &C);
    cuzk_lc_add(&A, a->v);
    cuzk_lc_sub(&A, b->v);
    lc_bit1(&B, cond);
    cuzk_lc_add(&C, a->v);
    cuzk_lc_sub(&C, r.v);
    E(c, &A, &B, &C);
    return r;
}

static void unit_treed(sctx *c)
{
    num_t sib = alloc_num(c);
    bit_t b = alloc_bit(c, next_rand(&c->rng) & 1);
    num_t xl = pick(c, b, &c->cur, &sib), xr = pick(c, b, &sib, &c->cur);
    bit_t msg[512], bits[256];
    num_to_bits(c, &xl, bits);
    put_elem(msg, bits);
    num_to_bits(c, &xr, bits);
    put_elem(msg + 256, bits);
    bit_t d[256];
    sha256_bits(c, msg, 512, d);
    c->cur = pack_digest(c, d);
}

static void unit_oct(sctx *c)
{
    bit_t b[3], t[4], eq[8];
    for (int i = 0; i < 3; i++)
        b[i] = alloc_bit(c, next_rand(&c->rng) & 1);
    for (int i = 0; i < 4; i++)
        t[i] = band(c, i & 1 ? b[1] : bnot(b[1]), i & 2 ? b[2] : bnot(b[2]));
    for (int p = 0; p < 8; p++)
        eq[p] = band(c, p & 1 ? b[0] : bnot(b[0]), t[p >> 1]);
    num_t sib[8];
    for (int p = 0; p < 8; p++)
        sib[p] = alloc_num(c);
    elt_t in[8];
    for (int p = 0; p < 8; p++) {
        num_t e = pick(c, eq[p], &sib[p], &c->cur);
        elt_of(c, &in[p], &e);
    }
    c->cur = poseidon(c, &c->T->pos[0], in);
}

static void unit_column(sctx *c)
{
    elt_t in[11];
    for (int i = 0; i < 11; i++) {
        num_t x = alloc_num(c);
        elt_of(c, &in[i], &x);
    }
    c->cur = poseidon(c, &c->T->pos[1], in);
}

/* A field element unpacked to bits (Filecoin unpacks every hashed element): 255 booleans and a
 * 256-term packing constraint. */
static void unit_unpack(sctx *c)
{
    num_t x = alloc_num(c);
    bit_t bits[256];
    num_to_bits(c, &x, bits);
}

static void run_unit(sctx *c, synth_kind k)
{
    switch (k) {
    case SYNTH_LABEL: unit_label(c); break;
    case SYNTH_TREED: unit_treed(c); break;
    case SYNTH_OCT: unit_oct(c); break;
    case SYNTH_COLUMN: unit_column(c); break;
    default: unit_unpack(c); break;
    }
}

/* Public inputs (replica id, two commitments), the replica id unpacked, the first chained value. */
static void ctx_start(sctx *c, cuzk_cs_t *cs, const synth_tables *T, uint64_t seed, synth_probe *probe)
{
    memset(c, 0, sizeof *c);
    c->cs = cs;
    c->T = T;
    c->vals = cuzk_cs_wants_values(cs);
    c->lcs = cuzk_cs_wants_lcs(cs);
    c->rng = seed;
    c->probe = probe;
    if (probe)
        probe->have = false;
    cuzk_lc_init(&c->meq_l, cs);
    cuzk_lc_init(&c->meq_r, cs);
    num_t rid;
    rand_fr(&rid.val, &c->rng);
    rid.v = cuzk_cs_alloc_input(cs, c->vals ? &rid.val : NULL);
    for (int i = 0; i < 2; i++) {
        fr x;
        rand_fr(&x, &c->rng);
        cuzk_cs_alloc_input(cs, c->vals ? &x : NULL);
    }
    num_to_bits(c, &rid, c->replica);
    c->cur = alloc_num(c);
}

static void ctx_end(sctx *c)
{
    cuzk_lc_free(&c->meq_l);
    cuzk_lc_free(&c->meq_r);
}

void synth_circuit(cuzk_cs_t *cs, const synth_plan *p, uint64_t seed, synth_probe *probe)
{
    sctx c;
    ctx_start(&c, cs, p->tables, seed, probe);
    for (size_t i = 0; i < p->n_units; i++)
        run_unit(&c, (synth_kind)p->units[i]);
    for (size_t i = 0; i < p->booleans; i++)
        alloc_bit(&c, next_rand(&c.rng) & 1);
    ctx_end(&c);
}

/* ---- planning ---- */

const char *synth_kind_name(synth_kind k)
{
    static const char *const names[SYNTH_KINDS] = {"label", "treed", "oct", "column", "unpack"};
    return (unsigned)k < SYNTH_KINDS ? names[k] : "?";
}

static void tables_init(synth_tables *T)
{
    fr two;
    fr_from_u64(&two, 2);
    T->pow2[0] = FR_ONE;
    for (int i = 1; i < 256; i++)
        fr_mul(&T->pow2[i], &T->pow2[i - 1], &two);
    for (int i = 0; i < 256; i++)
        fr_neg(&T->npow2[i], &T->pow2[i]);
    static const unsigned widths[2] = {9, 12};
    uint64_t s = 0x706f736569646f6eULL;
    for (int k = 0; k < 2; k++) {
        poseidon_consts *P = &T->pos[k];
        P->w = widths[k];
        for (size_t i = 0; i < (RF + RP) * P->w; i++)
            rand_fr(&P->rc[i], &s);
        for (size_t i = 0; i < P->w * P->w; i++)
            rand_fr(&P->mds[i], &s);
        for (size_t i = 0; i < P->w; i++)
            rand_fr(&P->w_hat[i], &s), rand_fr(&P->v[i], &s);
        rand_fr(&P->tag, &s);
    }
}

static bool push(synth_plan *p, size_t *cap, synth_kind k)
{
    if (p->n_units == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        uint8_t *u = realloc(p->units, nc);
        if (!u)
            return false;
        p->units = u, *cap = nc;
    }
    p->units[p->n_units++] = (uint8_t)k;
    p->unit_count[k]++;
    return true;
}

cuzk_status synth_plan_make(synth_plan *p, unsigned log2, cuzk_err_t *err)
{
    memset(p, 0, sizeof *p);
    if (log2 < 10 || log2 > 26)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "synth: log2 %u out of range 10..26", log2);
    p->log2 = log2;
    p->constraints = (size_t)1 << log2;
    p->tables = calloc(1, sizeof *p->tables);
    if (!p->tables)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "synth: out of memory");
    tables_init(p->tables);

    /* One of each unit on a count system: sizes, and the SHA-256 / Poseidon parts of each. */
    cuzk_cs_t *cs;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_HEAP, err);
    if (st != CUZK_OK) {
        synth_plan_free(p);
        return st;
    }
    sctx c;
    size_t sha = 0, pos = 0, sha_of[SYNTH_KINDS], pos_of[SYNTH_KINDS];
    ctx_start(&c, cs, p->tables, 1, NULL);
    c.sha_acc = &sha, c.pos_acc = &pos;
    p->prelude = n_constraints(&c);
    for (int k = 0; k < SYNTH_KINDS; k++) {
        size_t n0 = n_constraints(&c), s0 = sha, p0 = pos;
        run_unit(&c, (synth_kind)k);
        p->unit_constraints[k] = n_constraints(&c) - n0;
        sha_of[k] = sha - s0, pos_of[k] = pos - p0;
    }
    ctx_end(&c);
    st = cuzk_cs_status(cs, err);
    cuzk_cs_free(cs);
    if (st != CUZK_OK) {
        synth_plan_free(p);
        return st;
    }

    static const uint8_t round[] = {SYNTH_LABEL, SYNTH_TREED, SYNTH_TREED, SYNTH_OCT, SYNTH_OCT,
                                    SYNTH_OCT,   SYNTH_OCT,   SYNTH_OCT,   SYNTH_OCT, SYNTH_OCT,
                                    SYNTH_OCT,   SYNTH_COLUMN};
    size_t round_size = 0, cap = 0, rem = p->constraints - p->prelude;
    for (size_t i = 0; i < sizeof round; i++)
        round_size += p->unit_constraints[round[i]];
    bool ok = true;
    for (; ok && rem >= round_size; rem -= round_size)
        for (size_t i = 0; ok && i < sizeof round; i++)
            ok = push(p, &cap, (synth_kind)round[i]);
    static const uint8_t fill[] = {SYNTH_TREED, SYNTH_UNPACK};
    for (size_t i = 0; i < sizeof fill; i++)
        for (; ok && rem >= p->unit_constraints[fill[i]]; rem -= p->unit_constraints[fill[i]])
            ok = push(p, &cap, (synth_kind)fill[i]);
    if (!ok) {
        synth_plan_free(p);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "synth: out of memory");
    }
    p->booleans = rem;
    for (int k = 0; k < SYNTH_KINDS; k++) {
        p->sha_constraints += p->unit_count[k] * sha_of[k];
        p->poseidon_constraints += p->unit_count[k] * pos_of[k];
    }
    return CUZK_OK;
}

void synth_plan_free(synth_plan *p)
{
    free(p->units);
    free(p->tables);
    memset(p, 0, sizeof *p);
}
