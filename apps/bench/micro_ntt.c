/* Micro benchmark of the NTT: forward transforms of 2^log2 random Fr elements (natural order in
 * and out), once the twiddle tables are built. The arrays are allocated as the prover allocates
 * its vectors (cuzk_big_malloc: huge pages asked for). Outside the timed region the result is
 * checked: a few outputs against direct evaluation of the polynomial at ω^j, and the inverse
 * transform against the input; then the twiddle table bytes are printed (the peak RSS is on the
 * timing line).
 * CUZK_NTT_KERNELS=portable|adx|avx2|ifma selects the kernels for A/B runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuzk/ntt.h"
#include "ff/fr.h"
#include "ntt/ntt_internal.h"
#include "util/bigmem.h"
#include "util/timer.h"

typedef struct {
    fr *work;
    unsigned log2;
    int threads;
    cuzk_status st;
} ntt_ctx;

static void run_forward(void *p)
{
    ntt_ctx *c = p;
    cuzk_status st = cuzk_ntt(c->work, c->log2, CUZK_NTT_FORWARD, c->threads);
    if (st != CUZK_OK)
        c->st = st;
}

/* xorshift64*: reproducible inputs without a test framework */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static void horner(fr *out, const fr *a, size_t n, const fr *x)
{
    fr acc = FR_ZERO;
    for (size_t i = n; i-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &a[i]);
    }
    *out = acc;
}

int micro_ntt(const micro_args *a)
{
    const unsigned log2 = a->log2_set ? a->log2 : 20;
    if (log2 < 1 || log2 > CUZK_NTT_MAX_LOG)
        return micro_bad_arg("ntt: --log2 must be in 1..%d", CUZK_NTT_MAX_LOG);
    const size_t n = (size_t)1 << log2;
    fr *input = cuzk_big_malloc(n * sizeof(fr)), *work = cuzk_big_malloc(n * sizeof(fr));
    if (!input || !work) {
        fprintf(stderr, "ntt: out of memory for 2^%u elements\n", log2);
        free(input), free(work);
        return MICRO_ERROR;
    }
    uint64_t seed = 0x9e3779b97f4a7c15ULL ^ log2;
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        for (int j = 0; j < 4; j++) {
            uint64_t v = next_rand(&seed);
            memcpy(b + 8 * j, &v, 8);
        }
        b[31] &= 0x3f; /* below 2^254 < r: always canonical */
        fr_from_bytes_le(&input[i], b);
    }

    /* The first call builds the twiddle table: time it apart from the steady state. */
    uint64_t t0 = cuzk_now_ns();
    cuzk_status st = cuzk_ntt_prepare(log2, a->threads);
    double prep = (double)(cuzk_now_ns() - t0) * 1e-9;
    if (st != CUZK_OK) {
        fprintf(stderr, "ntt: table preparation failed: %s\n", cuzk_status_str(st));
        free(input), free(work);
        return MICRO_ERROR;
    }
    printf("ntt log2=%u: kernels %s, twiddle tables %.2f MiB, built in %.3fs\n", log2,
           ntt_kernels_current()->name, (double)cuzk_ntt_table_bytes() / (1 << 20), prep);

    /* Timed: repeated transforms in place (the data stays random-looking); the checked result
     * comes from one more transform of the original input, outside the timed region. */
    memcpy(work, input, n * sizeof(fr));
    ntt_ctx c = {work, log2, a->threads, CUZK_OK};
    bench_stats stats = bench_time(a->iters, run_forward, &c);
    bench_print("ntt", a, stats, (double)n * log2 / 2, "butterflies");
    memcpy(work, input, n * sizeof(fr));
    run_forward(&c);

    int bad = c.st != CUZK_OK;
    if (bad)
        fprintf(stderr, "ntt: transform failed: %s\n", cuzk_status_str(c.st));
    /* Check: outputs 1, n−1 and one in the middle against Horner evaluation at ω^j (O(n) each;
     * larger sizes check fewer points). */
    fr w;
    bad |= cuzk_ntt_root(&w, log2) != CUZK_OK;
    const uint64_t js[3] = {1, n - 1, n / 2 + 3 < n ? n / 2 + 3 : 0};
    const int npts = log2 > 22 ? 1 : 3;
    for (int i = 0; i < npts && !bad; i++) {
        fr pt, v;
        fr_pow(&pt, &w, &js[i], 1);
        horner(&v, input, n, &pt);
        if (!fr_eq(&v, &work[js[i]])) {
            fprintf(stderr, "ntt: output %llu differs from the evaluation at w^%llu\n",
                    (unsigned long long)js[i], (unsigned long long)js[i]);
            bad = 1;
        }
    }
    /* The inverse gives the input back. */
    if (!bad && (cuzk_ntt(work, log2, CUZK_NTT_INVERSE, a->threads) != CUZK_OK ||
                 memcmp(work, input, n * sizeof(fr)) != 0)) {
        fprintf(stderr, "ntt: the inverse transform does not give the input back\n");
        bad = 1;
    }
    /* Every table the forward and inverse transforms used (the timing line has the peak RSS, of
     * which the two arrays are 2·32·2^log2 bytes). */
    printf("ntt log2=%u: twiddle tables %.2f MiB\n", log2, (double)cuzk_ntt_table_bytes() / (1 << 20));
    free(input), free(work);
    return bad ? MICRO_WRONG : MICRO_OK;
}
