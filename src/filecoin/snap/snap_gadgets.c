/* storage-proofs-update src/gadgets.rs in C: gen_challenge_bits, get_challenge_high_bits, label_r_new,
 * apex_por and allocated_num_to_allocated_bits, variable for variable and constraint for constraint, so that
 * the circuit built from them has Filecoin's R1CS (its trusted setup encodes exactly that). */
#include "filecoin/snap/snap_gadgets.h"
#include <stdlib.h>
#include "ff/fr.h"
#include "filecoin/hash/poseidon_constants.h"
#include "gadgets/consts.h"
#include "gadgets/constraint.h"
#include "gadgets/multipack.h"
#include "gadgets/poseidon.h"
#include "gadgets/por_no_challenge.h"
#include "gadgets/sha256_hasher.h"

cuzk_num_t cuzk_snap_poseidon_gen(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    fr tag;
    (void)cuzk_poseidon_tag_custom(&tag, 1, NULL); /* id 1 is in range */
    cuzk_num_t pre[2] = {*a, *b}, out;
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(2);
    if (!c) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "snap poseidon: out of memory for the arity-2 constants");
        return *a;
    }
    cuzk_poseidon_circuit_tagged(cs, &out, c, &tag, pre);
    return out;
}

void cuzk_snap_enforce_bits(cuzk_cs_t *cs, const cuzk_bit_t *bits, size_t n, const cuzk_num_t *num)
{
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    if (cuzk_cs_wants_lcs(cs)) {
        for (size_t i = 0; i < n; i++)
            cuzk_lc_add_term(&a, bits[i].var, cuzk_gadget_pow2((unsigned)i));
        cuzk_lc_add(&b, cuzk_cs_one());
        cuzk_lc_add(&c, num->var);
    }
    cuzk_cs_enforce_free(cs, &a, &b, &c);
}

void cuzk_snap_num_to_bits(cuzk_cs_t *cs, const cuzk_num_t *num, cuzk_bit_t out[255])
{
    cuzk_bits_from_field_le(cs, num->has_value ? &num->value : NULL, out);
    cuzk_snap_enforce_bits(cs, out, CUZK_FR_NUM_BITS, num);
}

void cuzk_snap_gen_challenge_bits(cuzk_cs_t *cs, const cuzk_num_t *comm_r_new, const cuzk_num_t *partition,
                                  uint32_t challenges, uint32_t bits_per_challenge, cuzk_bit_t *out)
{
    if (bits_per_challenge < 1 || bits_per_challenge > CUZK_FR_CAPACITY) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "gen_challenge_bits: %u bits per challenge (1..%u)",
                     bits_per_challenge, CUZK_FR_CAPACITY);
        return;
    }
    uint32_t per = CUZK_FR_CAPACITY / bits_per_challenge;
    uint32_t digests = (challenges + per - 1) / per; /* the reference's f32 ceil, exact at these sizes */
    fr f_digests;
    fr_from_u64(&f_digests, digests);
    uint32_t made = 0;
    for (uint32_t j = 0; j < digests; j++) {
        fr f_j, idx;
        fr_from_u64(&f_j, j);
        if (partition->has_value) {
            fr_mul(&idx, &partition->value, &f_digests);
            fr_add(&idx, &idx, &f_j);
        }
        cuzk_num_t digest_index = cuzk_num_alloc(cs, partition->has_value ? &idx : NULL);
        /* digests and j are constants folded into the LC (j = 0 leaves a zero ONE term, ignored) */
        cuzk_lc_t a, b, c;
        cuzk_lc_init(&a, cs);
        cuzk_lc_init(&b, cs);
        cuzk_lc_init(&c, cs);
        if (cuzk_cs_wants_lcs(cs)) {
            cuzk_lc_add_term(&a, partition->var, &f_digests);
            cuzk_lc_add_term(&a, cuzk_cs_one(), &f_j);
            cuzk_lc_add(&b, cuzk_cs_one());
            cuzk_lc_add(&c, digest_index.var);
        }
        cuzk_cs_enforce_free(cs, &a, &b, &c);

        cuzk_num_t digest = cuzk_snap_poseidon_gen(cs, comm_r_new, &digest_index);
        cuzk_bit_t bits[CUZK_FR_NUM_BITS];
        cuzk_snap_num_to_bits(cs, &digest, bits);
        uint32_t take = j == digests - 1 ? challenges - made : per;
        for (uint32_t t = 0; t < take; t++, made++)
            for (uint32_t i = 0; i < bits_per_challenge; i++)
                out[(size_t)made * bits_per_challenge + i] = bits[t * bits_per_challenge + i];
    }
}

cuzk_num_t cuzk_snap_challenge_high_bits(cuzk_cs_t *cs, const cuzk_bit_t *c_bits, size_t n,
                                         const cuzk_bit_t *h_select_bits, const uint32_t *hs, size_t nhs)
{
    cuzk_num_t zero = {.var = cuzk_cs_one(), .has_value = false};
    if (nhs < 1 || nhs > 64) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "get_challenge_high_bits: %zu h choices", nhs);
        return zero;
    }
    for (size_t k = 0; k < nhs; k++)
        if (hs[k] < 1 || hs[k] > n || hs[k] > CUZK_FR_CAPACITY) {
            cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "get_challenge_high_bits: h = %u for a challenge of %zu bits",
                         hs[k], n);
            return zero;
        }
    cuzk_num_t or_zero[64];
    bool sum_known = true;
    fr sum = FR_ZERO;
    for (size_t k = 0; k < nhs; k++) {
        cuzk_boolean_t high[CUZK_FR_CAPACITY];
        for (uint32_t i = 0; i < hs[k]; i++)
            high[i] = cuzk_boolean_from_bit(c_bits[n - hs[k] + i]);
        cuzk_num_t c_high = cuzk_multipack_pack_bits(cs, high, hs[k]);
        const cuzk_bit_t *sel = &h_select_bits[k];
        bool known = c_high.has_value && sel->has_value;
        fr v = FR_ZERO;
        if (known && sel->value)
            v = c_high.value;
        or_zero[k] = cuzk_num_alloc(cs, known ? &v : NULL);
        cuzk_enforce_var_product(cs, c_high.var, sel->var, or_zero[k].var);
        if (or_zero[k].has_value)
            fr_add(&sum, &sum, &or_zero[k].value);
        else
            sum_known = false;
    }
    cuzk_num_t selected = cuzk_num_alloc(cs, sum_known ? &sum : NULL);
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    if (cuzk_cs_wants_lcs(cs)) {
        for (size_t k = 0; k < nhs; k++)
            cuzk_lc_add(&a, or_zero[k].var);
        cuzk_lc_add(&b, cuzk_cs_one());
        cuzk_lc_add(&c, selected.var);
    }
    cuzk_cs_enforce_free(cs, &a, &b, &c);
    return selected;
}

cuzk_num_t cuzk_snap_label_r_new(cuzk_cs_t *cs, const cuzk_num_t *label_r_old, const cuzk_num_t *label_d_new,
                                 const cuzk_num_t *rho)
{
    cuzk_num_t prod = cuzk_num_mul(cs, label_d_new, rho);
    /* alloc(old + prod), then (old + prod)·ONE = new: the reference's two steps */
    return cuzk_constraint_add(cs, label_r_old, &prod);
}

void cuzk_snap_apex_por(cuzk_cs_t *cs, const cuzk_num_t *apex_leaves, size_t n, const cuzk_bit_t *partition_bits,
                        size_t pbits, const cuzk_num_t *partition_path, const cuzk_num_t *comm_d)
{
    if (n == 0 || (n & (n - 1))) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "apex_por: %zu apex leaves (a power of two)", n);
        return;
    }
    cuzk_num_t *row = malloc(n * sizeof *row);
    if (!row) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "apex_por: out of memory for %zu apex leaves", n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        row[i] = apex_leaves[i];
    /* row by row, left to right; node i of the next row overwrites a slot already read */
    for (size_t w = n; w > 1; w /= 2)
        for (size_t i = 0; i < w / 2; i++)
            row[i] = cuzk_sha256_hash2(cs, &row[2 * i], &row[2 * i + 1]);
    cuzk_por_shape_t shape = {.hasher = CUZK_POR_SHA256, .base_arity = 2, .base_levels = (unsigned)pbits};
    cuzk_por_no_challenge_input(cs, &shape, partition_bits, pbits, &row[0], partition_path, comm_d);
    free(row);
}
