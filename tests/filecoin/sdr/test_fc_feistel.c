/* The batched Feistel permutation (every 8-lane build) against the scalar one, which test_fc_graph checks
 * against the published parent tables: random keys, the element counts of Filecoin's graphs and odd ones,
 * indexes inside and outside the range; and the batched parent range against node-by-node parents. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/sdr/feistel.h"
#include "filecoin/sdr/feistel_kernels.h"
#include "filecoin/sdr/graph.h"
#include "test_util.h"

static void test_builds(void)
{
    static const uint64_t sizes[] = {1, 2, 3, 5, 16, 17, 1000, 512, 1u << 21, 1u << 27, 3u << 26, 1ull << 33,
                                     1ull << 34, (1ull << 40) + 12345};
    enum { N = 1500 };
    uint64_t in[N], want[N], got[N];
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint64_t keys[4];
        for (int k = 0; k < 4; k++)
            keys[k] = test_rand64();
        cuzk_fc_feistel_t f;
        cuzk_fc_feistel_init(&f, sizes[s], keys);
        for (int i = 0; i < N; i++)
            in[i] = i % 97 == 5 ? sizes[s] + test_rand64() % 1000 : test_rand64() % sizes[s];
        for (int i = 0; i < N; i++)
            want[i] = cuzk_fc_feistel_permute(&f, in[i]);
        for (int b = CUZK_FC_FEISTEL_SCALAR; b <= CUZK_FC_FEISTEL_AVX512; b++) {
            if (!cuzk_fc_feistel_build_supported((cuzk_fc_feistel_build_t)b)) {
                printf("feistel build %d not supported here: skipped\n", b);
                continue;
            }
            /* lengths around the lane count and the driver's 512-index blocks; fewer for the plain-vector
             * build, whose 16 lanes are slow without AVX-512 (and very slow under the sanitizers) */
            static const size_t lens[] = {0, 1, 2, 7, 8, 15, 16, 17, 31, 33, 511, 512, 513, 1000, N};
            for (size_t q = 0; q < sizeof lens / sizeof *lens; q++) {
                size_t n = lens[q];
                if (b == CUZK_FC_FEISTEL_GENERIC && n != 1 && n != 17 && n != 513 && n != N)
                    continue;
                memset(got, 0xa5, sizeof got);
                cuzk_fc_feistel_permute_n_with((cuzk_fc_feistel_build_t)b, &f, in, got, n);
                CHECK_MSG(memcmp(got, want, n * 8) == 0, "build %d, %llu elements, n %zu", b,
                          (unsigned long long)sizes[s], n);
                CHECK(n == N || got[n] == 0xa5a5a5a5a5a5a5a5ull);
            }
            memcpy(got, in, sizeof in); /* in place */
            cuzk_fc_feistel_permute_n_with((cuzk_fc_feistel_build_t)b, &f, got, got, N);
            CHECK(memcmp(got, want, sizeof want) == 0);
        }
    }
}

static void test_parents_range(void)
{
    static const char *proofs[] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1",
                                   "StackedDrg32GiBV1_1", "StackedDrg64GiBV1"};
    for (size_t i = 0; i < sizeof proofs / sizeof *proofs; i++) {
        const cuzk_fc_seal_proof_t *p;
        cuzk_fc_graph_t g;
        CHECK(cuzk_fc_seal_proof_parse(&p, proofs[i], NULL) == CUZK_OK);
        CHECK(cuzk_fc_graph_init_proof(&g, p, NULL) == CUZK_OK);
        uint64_t count = g.nodes < 700 ? g.nodes : 700;
        uint64_t first = g.nodes == count ? 0 : test_rand64() % (g.nodes - count);
        if (i == 4)
            first = g.nodes - count; /* the top of the V1_0 64GiB graph, where indexes pass 2^32 */
        uint32_t *got = malloc(count * 14 * 4), want[14];
        CHECK(got && cuzk_fc_graph_parents_range(&g, first, count, got) == CUZK_OK);
        int bad = 0;
        for (uint64_t v = 0; got && v < count; v++) {
            cuzk_fc_graph_parents(&g, first + v, want);
            bad += memcmp(got + 14 * v, want, sizeof want) != 0;
        }
        CHECK_MSG(bad == 0, "%s: %d of %llu nodes differ", proofs[i], bad, (unsigned long long)count);
        CHECK(cuzk_fc_graph_parents_range(&g, g.nodes - 1, 2, got) == CUZK_ERR_INVALID_ARG);
        free(got);
    }
}

/* Not a check: the per-hash figure of each build, for the notes. */
static void bench(void)
{
    uint64_t keys[4] = {1, 2, 3, 4};
    cuzk_fc_feistel_t f;
    cuzk_fc_feistel_init(&f, 1ull << 27, keys);
    enum { N = 1 << 16 };
    uint64_t *v = malloc(N * 8);
    if (!v)
        return;
    for (int b = CUZK_FC_FEISTEL_SCALAR; b <= CUZK_FC_FEISTEL_AVX512; b++) {
        if (!cuzk_fc_feistel_build_supported((cuzk_fc_feistel_build_t)b))
            continue;
        double best = 1e9;
        for (int it = 0; it < 3; it++) {
            for (int i = 0; i < N; i++)
                v[i] = (uint64_t)i * 2039;
            double t0 = test_thread_cpu_s();
            cuzk_fc_feistel_permute_n_with((cuzk_fc_feistel_build_t)b, &f, v, v, N);
            double t = test_thread_cpu_s() - t0;
            best = t < best ? t : best;
        }
        printf("feistel build %d: %.1f ns per permuted index (2^27 elements, min of 3)\n", b, best / N * 1e9);
    }
    free(v);
    /* the parent cache's two halves per node, 512MiB graph */
    const cuzk_fc_seal_proof_t *p;
    cuzk_fc_graph_t g;
    enum { NODES = 1 << 14 };
    uint32_t *par = malloc(NODES * 14 * 4);
    if (!par || cuzk_fc_seal_proof_parse(&p, "StackedDrg512MiBV1_1", NULL) != CUZK_OK ||
        cuzk_fc_graph_init_proof(&g, p, NULL) != CUZK_OK) {
        free(par);
        return;
    }
    double t0 = test_thread_cpu_s();
    cuzk_fc_graph_drg_parents_range(&g, 1000000, NODES, par);
    double t1 = test_thread_cpu_s();
    cuzk_fc_graph_exp_parents_range(&g, 1000000, NODES, par);
    double t2 = test_thread_cpu_s();
    printf("512MiB parents per node: DRG %.0f ns, expander %.0f ns\n", (t1 - t0) / NODES * 1e9,
           (t2 - t1) / NODES * 1e9);
    free(par);
}

int main(void)
{
    test_init("test_fc_feistel");
    test_builds();
    test_parents_range();
    if (!TEST_SANITIZED) /* figures from an instrumented build mean nothing */
        bench();
    return test_finish();
}
