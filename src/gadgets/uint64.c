/* UInt64 (storage-proofs-core gadgets/uint64.rs): constants, allocation, bit orders, packing. */
#include <string.h>
#include "gadgets/uint64.h"
#include "gadgets/multipack.h"

void cuzk_u64_constant(cuzk_u64_t *r, uint64_t value)
{
    for (unsigned i = 0; i < 64; i++)
        r->bits[i] = cuzk_boolean_constant((value >> i) & 1);
    r->has_value = true;
    r->value = value;
}

void cuzk_u64_alloc(cuzk_u64_t *r, cuzk_cs_t *cs, const uint64_t *value)
{
    cuzk_bits_from_u64_le(cs, value, r->bits);
    r->has_value = value && cuzk_cs_wants_values(cs);
    r->value = r->has_value ? *value : 0;
}

void cuzk_u64_pack_into_input(cuzk_cs_t *cs, const cuzk_u64_t *x)
{
    cuzk_multipack_pack_into_inputs(cs, x->bits, 64);
}

static void set_value(cuzk_u64_t *r)
{
    uint64_t v = 0;
    bool known = true;
    for (unsigned i = 0; i < 64; i++) {
        known = known && r->bits[i].has_value;
        v |= (uint64_t)r->bits[i].value << i;
    }
    r->has_value = known;
    r->value = known ? v : 0;
}

void cuzk_u64_to_bits_be(const cuzk_u64_t *x, cuzk_boolean_t out[64])
{
    cuzk_boolean_t t[64];
    for (unsigned i = 0; i < 64; i++)
        t[i] = x->bits[63 - i];
    memcpy(out, t, sizeof t);
}

void cuzk_u64_from_bits_be(cuzk_u64_t *r, const cuzk_boolean_t bits[64])
{
    cuzk_boolean_t t[64];
    for (unsigned i = 0; i < 64; i++)
        t[i] = bits[63 - i];
    memcpy(r->bits, t, sizeof t);
    set_value(r);
}

void cuzk_u64_to_bits_le(const cuzk_u64_t *x, cuzk_boolean_t out[64]) { memmove(out, x->bits, sizeof x->bits); }

void cuzk_u64_from_bits(cuzk_u64_t *r, const cuzk_boolean_t bits[64])
{
    memmove(r->bits, bits, sizeof r->bits);
    set_value(r);
}
