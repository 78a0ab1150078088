/* Bit decomposition of a public value (circuits.h): boolean constraints, a packing LC built with
 * repeated variables, out-of-order inserts and a zero coefficient, and a cancelling term in B. */
#include "circuits.h"
#include "ff/fr.h"

void circuit_bits_synthesize(cuzk_cs_t *cs, const circuit_bits_params *p)
{
    bool vals = cuzk_cs_wants_values(cs);
    unsigned n = p->nbits;
    uint64_t v = n >= 64 ? p->value : p->value & ((1ULL << n) - 1);
    fr value, bit[64];
    if (vals) {
        fr_from_u64(&value, v);
        for (unsigned i = 0; i < n; i++)
            fr_from_u64(&bit[i], (v >> i) & 1);
    }
    cuzk_var_t num = cuzk_cs_alloc_input(cs, vals ? &value : NULL);
    cuzk_var_t b[64];
    for (unsigned i = 0; i < n; i++) {
        b[i] = cuzk_cs_alloc(cs, vals ? &bit[i] : NULL);
        cuzk_lc_t la, lb, lc;
        cuzk_lc_init(&la, cs);
        cuzk_lc_init(&lb, cs);
        cuzk_lc_init(&lc, cs);
        cuzk_lc_add(&la, cuzk_cs_one());
        cuzk_lc_sub(&la, b[i]);
        cuzk_lc_add(&lb, b[i]);
        cuzk_cs_enforce_free(cs, &la, &lb, &lc);
    }
    cuzk_var_t z = cuzk_cs_alloc(cs, vals ? &FR_ZERO : NULL);

    /* Only the LC-building backends need the packing LC: skip the field work otherwise. */
    cuzk_lc_t la, lb, lc;
    cuzk_lc_init(&la, cs);
    cuzk_lc_init(&lb, cs);
    cuzk_lc_init(&lc, cs);
    if (cuzk_cs_wants_lcs(cs)) {
        fr pow = FR_ONE, two, part;
        fr_from_u64(&two, 2);
        fr pows[64];
        for (unsigned i = 0; i < n; i++) {
            pows[i] = pow;
            fr_mul(&pow, &pow, &two);
        }
        cuzk_lc_add_term(&la, z, &FR_ZERO);
        for (unsigned i = n; i-- > 0;) {
            /* 2^i = (2^i − 1) + 1, added as two terms of the same variable */
            fr_sub(&part, &pows[i], &FR_ONE);
            cuzk_lc_add_term(&la, b[i], &part);
            cuzk_lc_add(&la, b[i]);
        }
        cuzk_lc_add(&lb, cuzk_cs_one());
        cuzk_lc_add(&lc, num);
    }
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);

    cuzk_lc_add(&la, b[0]);
    cuzk_lc_add(&lb, num);
    cuzk_lc_add(&lb, cuzk_cs_one());
    cuzk_lc_sub(&lb, num);
    cuzk_lc_add(&lc, b[0]);
    cuzk_cs_enforce_free(cs, &la, &lb, &lc);
}
