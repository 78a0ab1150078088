/* Pairing values against tests/vectors/noble-bls12-381.txt, computed by @noble/curves (an
 * independent implementation): e(a·G1, b·G2) for each record, through the single, multi and
 * prepared paths, and the multi-pairing of all records against the product of noble's values. */
#include <string.h>
#include "ec/ec.h"
#include "ec/pairing.h"
#include "ff/fp12.h"
#include "test_noble_common.h"
#include "test_util.h"

/* noble's Fp12 bytes: 12 big-endian Fp values in tower order c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
 * c1.c2.c1 (the same tower as ff/fp12.h). */
static bool fp12_from_noble(fp12 *r, const uint8_t in[576])
{
    fp *c[12] = {&r->c0.c0.c0, &r->c0.c0.c1, &r->c0.c1.c0, &r->c0.c1.c1, &r->c0.c2.c0, &r->c0.c2.c1,
                 &r->c1.c0.c0, &r->c1.c0.c1, &r->c1.c1.c0, &r->c1.c1.c1, &r->c1.c2.c0, &r->c1.c2.c1};
    for (int i = 0; i < 12; i++)
        if (!fp_from_bytes_be(c[i], in + 48 * i))
            return false;
    return true;
}

/* Plain uncompressed decoding of a finite point (no flags), independent of the curve codecs. */
static bool g1_raw(g1_aff *P, const uint8_t in[96])
{
    return fp_from_bytes_be(&P->x, in) && fp_from_bytes_be(&P->y, in + 48);
}

static bool g2_raw(g2_aff *Q, const uint8_t in[192])
{
    return fp_from_bytes_be(&Q->x.c1, in) && fp_from_bytes_be(&Q->x.c0, in + 48) &&
           fp_from_bytes_be(&Q->y.c1, in + 96) && fp_from_bytes_be(&Q->y.c0, in + 144);
}

#define MAX_PAIRS 8
static g1_aff pair_p[MAX_PAIRS];
static g2_aff pair_q[MAX_PAIRS];
static fp12 pair_product;
static size_t pair_count;

static void on_record(const noble_record *rec, void *ctx)
{
    (void)ctx;
    if (strcmp(rec->tok[0], "pairing") != 0)
        return;
    uint8_t a[32], b[32], pu[96], qu[192], gt[576];
    if (!noble_hex(rec, 1, a, 32) || !noble_hex(rec, 2, b, 32) || !noble_hex(rec, 3, pu, 96) ||
        !noble_hex(rec, 4, qu, 192) || !noble_hex(rec, 5, gt, 576))
        return;
    g1_aff P, aG;
    g2_aff Q, bG;
    fp12 want, got;
    CHECK(g1_raw(&P, pu) && g1_aff_on_curve(&P));
    CHECK(g2_raw(&Q, qu) && g2_aff_on_curve(&Q));
    CHECK(fp12_from_noble(&want, gt));
    noble_g1_mul_gen(&aG, a);
    noble_g2_mul_gen(&bG, b);
    CHECK_MSG(g1_aff_eq(&aG, &P) && g2_aff_eq(&bG, &Q), "line %d: pairing inputs are a·G1, b·G2", rec->line);

    pairing(&got, &P, &Q);
    CHECK_MSG(fp12_eq(&got, &want), "line %d: e(a·G1, b·G2)", rec->line);
    g2_prepared pq;
    g2_prepare(&pq, &Q);
    miller_loop_prepared(&got, &P, &pq, 1);
    final_exp(&got, &got);
    CHECK_MSG(fp12_eq(&got, &want), "line %d: prepared", rec->line);
    /* e(−P, Q)·noble's e(P, Q) = 1 */
    g1_aff nP;
    g1_aff_neg(&nP, &P);
    pairing(&got, &nP, &Q);
    fp12_mul(&got, &got, &want);
    CHECK_MSG(fp12_is_one(&got), "line %d: e(-P, Q)", rec->line);

    if (pair_count < MAX_PAIRS) {
        pair_p[pair_count] = P;
        pair_q[pair_count] = Q;
        pair_count++;
        fp12_mul(&pair_product, &pair_product, &want);
    }
}

int main(void)
{
    test_init("test_noble_pairing");
    pair_product = FP12_ONE;
    noble_for_each(on_record, NULL);
    CHECK_MSG(pair_count >= 3, "only %zu pairing records", pair_count);
    fp12 m;
    multi_pairing(&m, pair_p, pair_q, pair_count);
    CHECK(fp12_eq(&m, &pair_product));
    printf("test_noble_pairing: %zu pairings checked\n", pair_count);
    return test_finish();
}
