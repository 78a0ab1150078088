/* A program built against an installed libcuzk (pkg-config cuzk), using the public headers only:
 * x³ + x + 5 = out, with x = 3 and out = 35 its one public input, through a development setup, a
 * proof and its verification, which must accept out = 35 and reject out = 36. Exit 0 on success. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cuzk/cs.h"
#include "cuzk/groth16.h"

/* r, the order of BLS12-381's scalar field, little-endian limbs. */
static const uint64_t R_MODULUS[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                      0x73eda753299d7d48ull};

static bool ge_modulus(const cuzk_fr_t *a)
{
    for (int i = 3; i >= 0; i--)
        if (a->l[i] != R_MODULUS[i])
            return a->l[i] > R_MODULUS[i];
    return true;
}

/* a + b mod r on fully reduced values (< r < 2^255: the sum cannot carry out); addition does not
 * care about the Montgomery form. */
static cuzk_fr_t fr_add(cuzk_fr_t a, const cuzk_fr_t *b)
{
    unsigned __int128 t;
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < 4; i++) {
        t = (unsigned __int128)a.l[i] + b->l[i] + carry;
        a.l[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    if (ge_modulus(&a))
        for (int i = 0; i < 4; i++) {
            t = (unsigned __int128)a.l[i] - R_MODULUS[i] - borrow;
            a.l[i] = (uint64_t)t;
            borrow = (uint64_t)(t >> 64) & 1;
        }
    return a;
}

/* The Montgomery form of a small integer: 1 (which the API publishes) added v times. The library's
 * field arithmetic is internal; a program that needs more uses its own. */
static cuzk_fr_t fr_small(uint64_t v)
{
    cuzk_fr_t acc = {{0, 0, 0, 0}};
    for (uint64_t i = 0; i < v; i++)
        acc = fr_add(acc, &cuzk_lc_coeff_one);
    return acc;
}

static void cubic(cuzk_cs_t *cs, uint64_t x)
{
    bool vals = cuzk_cs_wants_values(cs);
    cuzk_fr_t vx = fr_small(x), vx2 = fr_small(x * x), vx3 = fr_small(x * x * x),
              vout = fr_small(x * x * x + x + 5), five = fr_small(5);
    cuzk_var_t ax = cuzk_cs_alloc(cs, vals ? &vx : NULL);
    cuzk_var_t ax2 = cuzk_cs_alloc(cs, vals ? &vx2 : NULL);
    cuzk_var_t ax3 = cuzk_cs_alloc(cs, vals ? &vx3 : NULL);
    cuzk_var_t out = cuzk_cs_alloc_input(cs, vals ? &vout : NULL);
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, ax);
    cuzk_lc_add(&b, ax);
    cuzk_lc_add(&c, ax2);
    cuzk_cs_enforce_free(cs, &a, &b, &c); /* x · x = x² */
    cuzk_lc_add(&a, ax2);
    cuzk_lc_add(&b, ax);
    cuzk_lc_add(&c, ax3);
    cuzk_cs_enforce_free(cs, &a, &b, &c); /* x² · x = x³ */
    cuzk_lc_add(&a, ax3);
    cuzk_lc_add(&a, ax);
    cuzk_lc_add_term(&a, cuzk_cs_one(), &five);
    cuzk_lc_add(&b, cuzk_cs_one());
    cuzk_lc_add(&c, out);
    cuzk_cs_enforce_free(cs, &a, &b, &c); /* (x³ + x + 5) · 1 = out */
}

#define TRY(call)                                                                                    \
    do {                                                                                             \
        cuzk_status st_ = (call);                                                                    \
        if (st_ != CUZK_OK) {                                                                        \
            fprintf(stderr, "%s: %s: %s\n", #call, cuzk_status_str(st_), err.msg);                   \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

int main(void)
{
    cuzk_err_t err = {{0}};
    cuzk_cs_t *rec_cs, *direct;
    cuzk_cs_record_t rec;
    cuzk_groth16_pk_t pk;
    cuzk_groth16_witness_t w;
    cuzk_groth16_proof_t proof, reread;
    cuzk_groth16_pvk_t *pvk;
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];

    TRY(cuzk_cs_new(&rec_cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, &err));
    cubic(rec_cs, 3);
    TRY(cuzk_cs_take_record(rec_cs, &rec, &err));
    TRY(cuzk_groth16_setup(&pk, &rec.r1cs, 1, &err));

    TRY(cuzk_cs_new(&direct, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, &err));
    cubic(direct, 3);
    TRY(cuzk_cs_groth16_witness(direct, &w, &err));
    cuzk_groth16_prove_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.threads = 1;
    TRY(cuzk_groth16_prove(&proof, &pk, &w, 1, &opts, &err));
    cuzk_groth16_proof_write(bytes, &proof);
    TRY(cuzk_groth16_proof_read(&reread, bytes, &err));

    TRY(cuzk_groth16_pvk_new(&pvk, &pk.vk));
    cuzk_scalar_t input = {{35, 0, 0, 0}};
    bool valid = false;
    TRY(cuzk_groth16_verify(&valid, pvk, &reread, &input, 1, &err));
    if (!valid) {
        fprintf(stderr, "the proof of x = 3, out = 35 does not verify\n");
        return 1;
    }
    input.l[0] = 36;
    TRY(cuzk_groth16_verify(&valid, pvk, &reread, &input, 1, &err));
    if (valid) {
        fprintf(stderr, "the proof verifies with the public input out = 36\n");
        return 1;
    }

    cuzk_groth16_pvk_free(pvk);
    cuzk_groth16_pk_free(&pk);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rec_cs);
    cuzk_cs_free(direct);
    printf("cubic: proved and verified through the installed library; a tampered input is rejected\n");
    return 0;
}
