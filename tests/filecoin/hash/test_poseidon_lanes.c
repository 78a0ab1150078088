/* The 8-lane Poseidon (emulated build everywhere, the IFMA build where the CPU has it) against the scalar
 * OptimizedStatic hash, which test_poseidon checks against neptune's published digests and the textbook
 * permutation: every arity 1..36, batch sizes around the lane count, extreme inputs, the fr and byte
 * forms, in-place tree levels; and the dispatching batch API. Prints hashes per second. */
#include <stdlib.h>
#include <string.h>
#include "ff/ifma/ifma.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/poseidon_ifma.h"
#include "test_util.h"

/* r − 1, 0, 1 and random canonical values. */
static void pick_fr(fr *x, int kind)
{
    static const uint8_t rm1[32] = {0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff,
                                    0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33,
                                    0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    uint8_t b[32];
    if (kind == 0) {
        CHECK(fr_from_bytes_le(x, rm1));
        return;
    }
    if (kind == 1 || kind == 2) {
        memset(b, 0, 32);
        b[0] = (uint8_t)(kind - 1);
        CHECK(fr_from_bytes_le(x, b));
        return;
    }
    test_rand_fr(x);
}

static int same_fr(const fr *a, const fr *b, size_t n) { return memcmp(a, b, n * sizeof(fr)) == 0; }

/* quick: only the arities Filecoin uses and the extremes, and fewer batch sizes (the emulated build, slow
 * by design, and any build under the sanitizers). */
static void check_build(const cuzk_pl_kernels_t *k, int quick)
{
    enum { NMAX = 19 };
    fr *in = malloc(sizeof(fr) * NMAX * CUZK_POSEIDON_MAX_ARITY), want[NMAX], got[NMAX];
    uint8_t *bin = malloc(32 * NMAX * CUZK_POSEIDON_MAX_ARITY), bout[32 * NMAX], bw[32];
    if (!in || !bin)
        return;
    for (unsigned arity = 1; arity <= CUZK_POSEIDON_MAX_ARITY; arity++) {
        if (quick && arity != 1 && arity != 2 && arity != 8 && arity != 11 && arity != 36)
            continue;
        const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
        const cuzk_pl_table_t *tb = cuzk_pl_table(c);
        CHECK(c && tb);
        if (!c || !tb)
            continue;
        fr tag = c->merkle_tag;
        if (arity == 2) { /* a custom tag as SnapDeals uses */
            CHECK(cuzk_poseidon_tag_custom(&tag, 1, NULL) == CUZK_OK);
        }
        cuzk_pl_const_t ltag;
        cuzk_pl_const_from_fr(&ltag, &tag);
        for (size_t i = 0; i < NMAX * arity; i++)
            pick_fr(&in[i], i < 3 * arity ? (int)(i / arity) : 3);
        for (size_t i = 0; i < NMAX; i++)
            cuzk_poseidon_hash_with(&want[i], c, &tag, &in[i * arity]);
        static const size_t ns[] = {1, 7, 8, 9, 16, 17, NMAX};
        for (size_t q = 0; q < sizeof ns / sizeof *ns; q++) {
            size_t n = ns[q];
            if (quick && n != 9 && n != NMAX)
                continue;
            memset(got, 0, sizeof got);
            k->hash_fr(tb, &ltag, got, in, n);
            CHECK_MSG(same_fr(got, want, n), "%s fr, arity %u, n %zu", k->name, arity, n);
            for (size_t i = 0; i < n * arity; i++)
                fr_to_bytes_le(bin + 32 * i, &in[i]);
            k->hash_bytes(tb, &ltag, bout, bin, n);
            int ok = 1;
            for (size_t i = 0; i < n; i++) {
                fr_to_bytes_le(bw, &want[i]);
                ok &= memcmp(bw, bout + 32 * i, 32) == 0;
            }
            CHECK_MSG(ok, "%s bytes, arity %u, n %zu", k->name, arity, n);
        }
        /* in place, as a tree level is built: out[i] overwrites the inputs of hash i / arity */
        for (size_t i = 0; i < NMAX * arity; i++)
            fr_to_bytes_le(bin + 32 * i, &in[i]);
        k->hash_bytes(tb, &ltag, bin, bin, NMAX);
        int ok = 1;
        for (size_t i = 0; i < NMAX; i++) {
            fr_to_bytes_le(bw, &want[i]);
            ok &= memcmp(bw, bin + 32 * i, 32) == 0;
        }
        CHECK_MSG(ok, "%s bytes in place, arity %u", k->name, arity);
        memcpy(got, in, sizeof(fr) * NMAX); /* the fr form in place too (enough elements for NMAX hashes) */
        k->hash_fr(tb, &ltag, in, in, NMAX);
        CHECK_MSG(same_fr(in, want, NMAX), "%s fr in place, arity %u", k->name, arity);
    }
    free(in);
    free(bin);
}

/* The public batch entry points, whatever they dispatch to, against the scalar hash. */
static void check_dispatch(void)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(8);
    enum { N = 100 };
    fr in[N * 8], want[N], got[N];
    uint8_t bin[N * 8 * 32], bout[N * 32], bw[32];
    for (int i = 0; i < N * 8; i++) {
        pick_fr(&in[i], 3);
        fr_to_bytes_le(bin + 32 * i, &in[i]);
    }
    for (int i = 0; i < N; i++)
        cuzk_poseidon_hash_with(&want[i], c, &c->merkle_tag, &in[8 * i]);
    cuzk_poseidon_hash_batch(got, c, &c->merkle_tag, in, N);
    CHECK(same_fr(got, want, N));
    cuzk_poseidon_hash_batch_bytes(bout, c, &c->merkle_tag, bin, N);
    int ok = 1;
    for (int i = 0; i < N; i++) {
        fr_to_bytes_le(bw, &want[i]);
        ok &= memcmp(bw, bout + 32 * i, 32) == 0;
    }
    CHECK(ok);
    printf("batch kernels in use: %s\n", cuzk_pl_kernels() ? cuzk_pl_kernels()->name : "scalar");
}

/* Not a check: hashes per second, one thread, scalar vs lanes. */
static void bench(void)
{
    static const unsigned arities[] = {2, 8, 11};
    enum { N = 512 };
    uint8_t *buf = malloc(32 * N * 11), *out = malloc(32 * N);
    if (!buf || !out)
        return;
    for (size_t a = 0; a < 3; a++) {
        const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arities[a]);
        for (size_t i = 0; i < N * arities[a]; i++) {
            fr x;
            pick_fr(&x, 3);
            fr_to_bytes_le(buf + 32 * i, &x);
        }
        double best_s = 1e9, best_l = 1e9;
        for (int it = 0; it < 3; it++) {
            double t0 = test_thread_cpu_s();
            for (int i = 0; i < N / 8; i++) {
                fr x[11], r;
                for (unsigned j = 0; j < arities[a]; j++)
                    (void)fr_from_bytes_le(&x[j], buf + 32 * (i * arities[a] + j));
                cuzk_poseidon_hash_with(&r, c, &c->merkle_tag, x);
                fr_to_bytes_le(out + 32 * i, &r);
            }
            double t1 = test_thread_cpu_s();
            if (cuzk_pl_kernels())
                cuzk_poseidon_hash_batch_bytes(out, c, &c->merkle_tag, buf, N);
            double t2 = test_thread_cpu_s();
            best_s = t1 - t0 < best_s ? t1 - t0 : best_s;
            best_l = t2 - t1 < best_l ? t2 - t1 : best_l;
        }
        printf("poseidon arity %u, 1 thread: scalar %.0f hashes/s, lanes %.0f hashes/s\n", arities[a],
               N / 8 / best_s, cuzk_pl_kernels() ? N / best_l : 0.0);
    }
    free(buf);
    free(out);
}

int main(void)
{
    test_init("test_poseidon_lanes");
    check_build(&cuzk_pl_kernels_emulated, 1);
    if (cuzk_pl_kernels_ifma_compiled && ifma_available())
        check_build(&cuzk_pl_kernels_ifma, TEST_SANITIZED); /* every arity, but not at sanitizer speed */
    else
        printf("IFMA build not runnable here: only the emulated lanes checked\n");
    check_dispatch();
    if (!TEST_SANITIZED) /* figures from an instrumented build mean nothing */
        bench();
    return test_finish();
}
