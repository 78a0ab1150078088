/* UInt32 (bellperson gadgets/uint32.rs): constants, allocation, bit orders, rotations, bitwise
 * gadgets and the multi-operand addition that SHA-256 is made of. */
#include <string.h>
#include "gadgets/uint32.h"
#include "gadgets/consts.h"

void cuzk_u32_constant(cuzk_u32_t *r, uint32_t value)
{
    for (unsigned i = 0; i < 32; i++)
        r->bits[i] = cuzk_boolean_constant((value >> i) & 1);
    r->has_value = true;
    r->value = value;
}

void cuzk_u32_alloc(cuzk_u32_t *r, cuzk_cs_t *cs, const uint32_t *value)
{
    for (unsigned i = 0; i < 32; i++)
        r->bits[i] = cuzk_boolean_from_bit(cuzk_bit_alloc(cs, value ? (int)((*value >> i) & 1) : CUZK_BIT_UNKNOWN));
    r->has_value = value && cuzk_cs_wants_values(cs);
    r->value = r->has_value ? *value : 0;
}

/* The value of 32 bits given least significant first, when all are known. */
static void set_value(cuzk_u32_t *r)
{
    uint32_t v = 0;
    bool known = true;
    for (unsigned i = 0; i < 32; i++) {
        known = known && r->bits[i].has_value;
        v |= (uint32_t)r->bits[i].value << i;
    }
    r->has_value = known;
    r->value = known ? v : 0;
}

void cuzk_u32_into_bits_be(const cuzk_u32_t *x, cuzk_boolean_t out[32])
{
    cuzk_boolean_t t[32];
    for (unsigned i = 0; i < 32; i++)
        t[i] = x->bits[31 - i];
    memcpy(out, t, sizeof t);
}

void cuzk_u32_from_bits_be(cuzk_u32_t *r, const cuzk_boolean_t bits[32])
{
    cuzk_boolean_t t[32];
    for (unsigned i = 0; i < 32; i++)
        t[i] = bits[31 - i];
    memcpy(r->bits, t, sizeof t);
    set_value(r);
}

void cuzk_u32_into_bits(const cuzk_u32_t *x, cuzk_boolean_t out[32])
{
    memmove(out, x->bits, sizeof x->bits);
}

void cuzk_u32_from_bits(cuzk_u32_t *r, const cuzk_boolean_t bits[32])
{
    memmove(r->bits, bits, sizeof r->bits);
    set_value(r);
}

void cuzk_u32_rotr(cuzk_u32_t *r, const cuzk_u32_t *x, unsigned by)
{
    by %= 32;
    cuzk_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = x->bits[(i + by) % 32];
    t.has_value = x->has_value;
    t.value = by ? (x->value >> by) | (x->value << (32 - by)) : x->value;
    *r = t;
}

void cuzk_u32_shr(cuzk_u32_t *r, const cuzk_u32_t *x, unsigned by)
{
    by %= 32;
    cuzk_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = i + by < 32 ? x->bits[i + by] : cuzk_boolean_constant(false);
    t.has_value = x->has_value;
    t.value = x->value >> by;
    *r = t;
}

void cuzk_u32_xor(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b)
{
    cuzk_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cuzk_boolean_xor(cs, a->bits[i], b->bits[i]);
    t.has_value = a->has_value && b->has_value;
    t.value = t.has_value ? a->value ^ b->value : 0;
    *r = t;
}

void cuzk_u32_sha256_ch(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b, const cuzk_u32_t *c)
{
    cuzk_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cuzk_boolean_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    t.has_value = a->has_value && b->has_value && c->has_value;
    t.value = t.has_value ? (a->value & b->value) ^ (~a->value & c->value) : 0;
    *r = t;
}

void cuzk_u32_sha256_maj(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b, const cuzk_u32_t *c)
{
    cuzk_u32_t t;
    for (unsigned i = 0; i < 32; i++)
        t.bits[i] = cuzk_boolean_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    t.has_value = a->has_value && b->has_value && c->has_value;
    t.value = t.has_value ? (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value) : 0;
    *r = t;
}

/* One operand term before sorting: variable id and weight ±2^exp. */
typedef struct {
    uint32_t var;
    uint16_t exp;
    uint16_t neg;
} op_term;

/* Sorts by variable: a natural merge sort, since each operand's bits are one or two ascending
 * runs (allocation order, rotated). tmp has room for n terms. */
static void sort_terms(op_term *t, size_t n, op_term *tmp)
{
    size_t bounds[10 * 32 + 1], nb = 0;
    bounds[nb++] = 0;
    for (size_t i = 1; i < n; i++)
        if (t[i].var < t[i - 1].var)
            bounds[nb++] = i;
    bounds[nb] = n; /* nb runs: [bounds[k], bounds[k + 1]) */
    op_term *src = t, *dst = tmp;
    while (nb > 1) {
        size_t w = 0;
        for (size_t k = 0; k < nb; k += 2) {
            size_t lo = bounds[k], mid = bounds[k + 1], hi = k + 2 <= nb ? bounds[k + 2] : mid;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = src[j].var < src[i].var ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
            bounds[w++] = lo;
        }
        bounds[w] = n;
        nb = w;
        op_term *x = src;
        src = dst, dst = x;
    }
    if (src != t)
        memcpy(t, src, n * sizeof *t);
}

/* Σ 2^(shift+i)·bit_i over the operands, as bellperson's Σ bit.lc(ONE, 2^i) scaled by MultiEq's
 * 2^shift, built without multiplications: constant parts summed into one ONE term, the variable
 * terms sorted so that they append (repeated variables merge as bellpepper's LC does). */
static void operands_lc(cuzk_lc_t *lc, const cuzk_u32_t *const *ops, size_t n, size_t shift)
{
    const fr *p2 = cuzk_gadget_pow2_table(), *m2 = cuzk_gadget_neg_pow2_table();
    op_term t[10 * 32], tmp[10 * 32];
    size_t nt = 0;
    fr konst = FR_ZERO;
    bool has_const = false;
    for (size_t k = 0; k < n; k++)
        for (unsigned i = 0; i < 32; i++) {
            cuzk_boolean_t b = ops[k]->bits[i];
            uint16_t e = (uint16_t)(shift + i);
            if (b.kind == CUZK_BOOLEAN_CONST) {
                if (b.value)
                    fr_add(&konst, &konst, &p2[e]), has_const = true;
            } else {
                if (b.kind == CUZK_BOOLEAN_NOT)
                    fr_add(&konst, &konst, &p2[e]), has_const = true;
                t[nt++] = (op_term){b.var.id, e, b.kind == CUZK_BOOLEAN_NOT};
            }
        }
    sort_terms(t, nt, tmp);
    if (has_const)
        cuzk_lc_add_term(lc, cuzk_cs_one(), &konst);
    for (size_t j = 0; j < nt; j++)
        cuzk_lc_add_term(lc, (cuzk_var_t){t[j].var}, t[j].neg ? &m2[t[j].exp] : &p2[t[j].exp]);
}

void cuzk_u32_addmany(cuzk_u32_t *r, cuzk_multieq_t *me, const cuzk_u32_t *const *ops, size_t n)
{
    cuzk_cs_t *cs = me->cs;
    if (n < 2 || n > 10) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "UInt32::addmany: %zu operands (2 to 10 allowed)", n);
        cuzk_u32_constant(r, 0);
        return;
    }
    uint64_t max_value = (uint64_t)n * UINT32_MAX, sum = 0;
    bool known = true, all_constants = true;
    for (size_t k = 0; k < n; k++) {
        known = known && ops[k]->has_value;
        sum += ops[k]->value;
        for (unsigned i = 0; i < 32; i++)
            all_constants = all_constants && cuzk_boolean_is_constant(ops[k]->bits[i]);
    }
    if (all_constants && known) {
        cuzk_u32_constant(r, (uint32_t)sum);
        return;
    }
    size_t width = 0;
    for (uint64_t m = max_value; m; m >>= 1)
        width++;
    size_t shift = cuzk_multieq_next_shift(me, width);
    /* the sum's bits come first: a flush of the MultiEq follows them, as in bellperson */
    cuzk_u32_t t;
    cuzk_var_t bits[64];
    for (size_t i = 0; i < width; i++) {
        cuzk_bit_t b = cuzk_bit_alloc(cs, known ? (int)((sum >> i) & 1) : CUZK_BIT_UNKNOWN);
        bits[i] = b.var;
        if (i < 32)
            t.bits[i] = cuzk_boolean_from_bit(b);
    }
    cuzk_lc_t lhs, rhs;
    cuzk_lc_init(&lhs, cs);
    cuzk_lc_init(&rhs, cs);
    if (cuzk_cs_wants_lcs(cs) && shift + width < 256) {
        operands_lc(&lhs, ops, n, shift);
        const fr *p2 = cuzk_gadget_pow2_table();
        for (size_t i = 0; i < width; i++)
            cuzk_lc_add_term(&rhs, bits[i], &p2[shift + i]);
    }
    cuzk_multieq_enforce_equal_shifted(me, width, &lhs, &rhs);
    cuzk_lc_free(&lhs);
    cuzk_lc_free(&rhs);
    t.has_value = known && cuzk_cs_wants_values(cs);
    t.value = t.has_value ? (uint32_t)sum : 0;
    *r = t;
}
