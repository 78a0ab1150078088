/* UInt32 (bellperson gadgets/uint32.rs): 32 Booleans, least significant first, with the value when
 * every bit has one. Rotations and shifts only rearrange bits (no constraint); xor, ch and maj work
 * bit by bit through the Boolean gadgets; addmany allocates the sum's bits and hands the equality
 * to a MultiEq. Outputs may alias inputs. */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/multieq.h"

typedef struct {
    cuzk_boolean_t bits[32]; /* least significant first */
    bool has_value;
    uint32_t value;
} cuzk_u32_t;

void cuzk_u32_constant(cuzk_u32_t *r, uint32_t value);
/* 32 AllocatedBits, least significant first; value NULL: unknown. */
void cuzk_u32_alloc(cuzk_u32_t *r, cuzk_cs_t *cs, const uint32_t *value);
/* Bits most significant first (into_bits_be) / least significant first (into_bits), and back. */
void cuzk_u32_into_bits_be(const cuzk_u32_t *x, cuzk_boolean_t out[32]);
void cuzk_u32_from_bits_be(cuzk_u32_t *r, const cuzk_boolean_t bits[32]);
void cuzk_u32_into_bits(const cuzk_u32_t *x, cuzk_boolean_t out[32]);
void cuzk_u32_from_bits(cuzk_u32_t *r, const cuzk_boolean_t bits[32]);
/* Rotation / logical shift right by `by` mod 32 (shifted-in bits are constant false). */
void cuzk_u32_rotr(cuzk_u32_t *r, const cuzk_u32_t *x, unsigned by);
void cuzk_u32_shr(cuzk_u32_t *r, const cuzk_u32_t *x, unsigned by);
/* Bitwise Boolean::xor / sha256_ch / sha256_maj, bit 0 first. */
void cuzk_u32_xor(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b);
void cuzk_u32_sha256_ch(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b, const cuzk_u32_t *c);
void cuzk_u32_sha256_maj(cuzk_u32_t *r, cuzk_cs_t *cs, const cuzk_u32_t *a, const cuzk_u32_t *b, const cuzk_u32_t *c);
/* Σ ops mod 2^32 for 2 <= n <= 10 operands. All-constant operands fold to a constant; otherwise
 * the full sum's bits (bit length of n·(2^32 − 1)) are allocated through me->cs and
 * Σ 2^i·operand bits = Σ 2^i·sum bits is queued in me; the carries are dropped. A bad n fails the
 * system. */
void cuzk_u32_addmany(cuzk_u32_t *r, cuzk_multieq_t *me, const cuzk_u32_t *const *ops, size_t n);

#endif
