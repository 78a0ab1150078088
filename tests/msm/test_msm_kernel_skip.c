/* The 8-lane batch addition the G1 buckets flush through (ec_ifma_ops.g1_batch_add_skip), against the
 * scalar Jacobian addition: random pairs with some Q = P, Q = −P, Q at infinity and Q = (0, 2) mixed
 * in (those must be flagged and left unwritten), random negation flags, batch sizes across the 8-lane
 * row boundaries and one of the MSM's size (rows far enough apart for the kernel's prefetch and
 * kept-row paths); the emulated build everywhere, the AVX-512 build where the CPU runs it. */
#include <stdlib.h>
#include <string.h>
#include "ec/ec.h"
#include "ec/ifma/ec_ifma.h"
#include "test_util.h"

static void rand_point(g1_aff *r, const g1_jac *g)
{
    cuzk_scalar_t k = {{test_rand64(), test_rand64(), test_rand64(), test_rand64() >> 2}};
    g1_jac t;
    g1_jac_mul(&t, g, &k);
    g1_jac_to_aff(r, &t);
}

static void t_batch(const ec_ifma_ops *o, size_t n, const g1_jac *g)
{
    g1_aff *P = calloc(n, sizeof *P), *Q = calloc(n, sizeof *Q), *out = calloc(n, sizeof *out);
    const g1_aff **pp = calloc(n, sizeof *pp), **qq = calloc(n, sizeof *qq);
    g1_aff **oo = calloc(n, sizeof *oo);
    uint8_t *neg = calloc(n, 1), *skipped = malloc(n);
    void *scratch = malloc(ec_ifma_g1_batch_add_scratch_bytes(n) + 1);
    size_t want_skips = 0;
    for (size_t i = 0; i < n; i++) {
        rand_point(&P[i], g);
        uint64_t what = test_rand_below(8);
        neg[i] = (uint8_t)test_rand_below(2);
        if (what == 0) {
            Q[i] = P[i]; /* ±P: doubling or cancellation, the caller's to do */
            want_skips++;
        } else if (what == 1) {
            g1_aff_neg(&Q[i], &P[i]);
            want_skips++;
        } else if (what == 2) {
            memset(&Q[i], 0, sizeof Q[i]); /* infinity, stored as (0, 0): the caller's too */
            want_skips++;
        } else if (what == 3 && (i & 1)) {
            memset(&Q[i].x, 0, sizeof Q[i].x); /* (0, 2): x = 0 but not infinity (order 3) */
            const uint64_t two[FP_LIMBS] = {2};
            fp_to_mont(&Q[i].y, two);
            want_skips++;
        } else {
            rand_point(&Q[i], g);
        }
        out[i] = P[i];
        pp[i] = &out[i]; /* in place, as the buckets are */
        qq[i] = &Q[i];
        oo[i] = &out[i];
    }
    memset(skipped, 0xee, n);
    size_t got = o->g1_batch_add_skip(oo, pp, qq, neg, n, scratch, skipped);
    CHECK_MSG(got == want_skips, "%s n=%zu: %zu skipped, expected %zu", o->name, n, got, want_skips);
    for (size_t i = 0; i < n; i++) {
        static const fp zero;
        bool eq = memcmp(&P[i].x, &Q[i].x, sizeof P[i].x) == 0 || memcmp(&Q[i].x, &zero, sizeof zero) == 0;
        CHECK_MSG(skipped[i] == (uint8_t)eq, "%s n=%zu pair %zu: skipped=%u", o->name, n, i, skipped[i]);
        if (eq) {
            CHECK_MSG(g1_aff_eq(&out[i], &P[i]), "%s n=%zu pair %zu: written though skipped", o->name, n, i);
            continue;
        }
        g1_aff q = Q[i];
        if (neg[i])
            g1_aff_neg(&q, &Q[i]);
        g1_jac a, b;
        g1_jac_from_aff(&a, &P[i]);
        g1_jac_from_aff(&b, &q);
        g1_jac_add(&a, &a, &b);
        g1_aff want;
        g1_jac_to_aff(&want, &a);
        CHECK_MSG(g1_aff_eq(&out[i], &want), "%s n=%zu pair %zu: wrong sum", o->name, n, i);
    }
    free(P), free(Q), free(out), free(pp), free(qq), free(oo), free(neg), free(skipped), free(scratch);
}

int main(void)
{
    test_init("test_msm_kernel_skip");
    g1_aff g;
    g1_generator(&g);
    g1_jac gj;
    g1_jac_from_aff(&gj, &g);
    const ec_ifma_ops *impls[2] = {&ec_ifma_ops_emulated, ec_ifma_ops_real()};
    for (int k = 0; k < 2; k++) {
        if (!impls[k]) {
            printf("  IFMA hardware not present: real kernel not exercised\n");
            continue;
        }
        printf("  build: %s\n", impls[k]->name);
        for (size_t n = 1; n <= 17; n++)
            t_batch(impls[k], n, &gj);
        t_batch(impls[k], 300, &gj);
        t_batch(impls[k], 1027, &gj); /* an MSM-sized batch with a partial last row */
    }
    return test_finish();
}
