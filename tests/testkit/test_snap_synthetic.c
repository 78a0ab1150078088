/* Synthetic SnapDeals partition proofs: for every sector size constants.rs allows up to 512MiB (and every h of
 * hs for 8MiB) every partition decodes and passes cuzk_fc_snap_vproof_verify (checked against whole trees in
 * test_snap_vproof_check) with the synthetic sector's commitments, and not with another partition's number
 * or another comm_r_new; the proofs have the size's shape; the same arguments give the same bytes and
 * another seed other ones; bad arguments are refused with nothing made. With --slow, the 32GiB (8-8-0) and
 * 64GiB (8-8-2) sectors too, timed. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filecoin/vanilla/snap_vproof.h"
#include "testkit/snap_synthetic.h"
#include "test_util.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Every partition decodes and verifies; 1 when so. */
static int all_verify(const cuzk_fc_snap_synthetic_t *s, int threads, double *verify_s)
{
    int ok = s->n == s->cfg.partition_count;
    for (size_t k = 0; ok && k < s->n; k++) {
        cuzk_fc_snap_vproof_t v;
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_fc_snap_vproof_decode(&v, s->data[k], s->len[k], NULL, &err);
        if (st == CUZK_OK && (v.n_challenges != s->cfg.challenge_count || v.n_apex != s->cfg.apex_leaf_count))
            st = CUZK_ERR_MISMATCH;
        double t0 = now();
        if (st == CUZK_OK)
            st = cuzk_fc_snap_vproof_verify(&v, &s->cfg, (uint32_t)k, s->comm_r_old, s->comm_d_new, s->comm_r_new,
                                            threads, &err);
        if (verify_s)
            *verify_s += now() - t0;
        if (st != CUZK_OK) {
            fprintf(stderr, "%llu nodes, partition %zu: %s\n", (unsigned long long)s->cfg.nodes, k, err.msg);
            ok = 0;
        }
        /* as another partition, or for another comm_r_new: refused */
        if (st == CUZK_OK && s->n > 1)
            ok &= cuzk_fc_snap_vproof_verify(&v, &s->cfg, (uint32_t)((k + 1) % s->n), s->comm_r_old, s->comm_d_new,
                                             s->comm_r_new, threads, &err) == CUZK_ERR_MISMATCH;
        if (st == CUZK_OK && k == 0) {
            uint8_t other[32];
            memcpy(other, s->comm_r_new, 32);
            other[0] ^= 1;
            ok &= cuzk_fc_snap_vproof_verify(&v, &s->cfg, 0, s->comm_r_old, s->comm_d_new, other, threads, &err) ==
                  CUZK_ERR_MISMATCH;
        }
        cuzk_fc_snap_vproof_free(&v);
    }
    return ok;
}

static void one_size(uint64_t bytes, int slow)
{
    cuzk_snap_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_config_for_size(&cfg, bytes, &err) == CUZK_OK, "%s", err.msg);
    uint8_t comm_c[32], seed[32];
    test_rand_fr_bytes(comm_c);
    test_rand_bytes(seed, 32);
    cuzk_fc_snap_synthetic_t s;
    double t0 = now();
    cuzk_status st = cuzk_fc_snap_synthetic(&s, &cfg, comm_c, seed, 0, &err);
    double t1 = now();
    CHECK_MSG(st == CUZK_OK, "%llu bytes: %s", (unsigned long long)bytes, err.msg);
    if (st != CUZK_OK)
        return;
    double vs = 0;
    CHECK_MSG(all_verify(&s, 0, &vs), "%llu-byte synthetic partitions do not verify", (unsigned long long)bytes);
    if (slow) {
        size_t total = 0;
        for (size_t k = 0; k < s.n; k++)
            total += s.len[k];
        printf("%llu bytes: %zu partitions (%zu bytes of proofs) made in %.3f s, checked in %.3f s (%.1f ms a "
               "partition)\n",
               (unsigned long long)bytes, s.n, total, t1 - t0, vs, vs * 1e3 / (double)s.n);
    }
    /* the same arguments: the same bytes; another seed: others, still verifying */
    cuzk_fc_snap_synthetic_t again;
    CHECK(cuzk_fc_snap_synthetic(&again, &cfg, comm_c, seed, 1, &err) == CUZK_OK);
    int same = again.n == s.n && memcmp(again.comm_r_new, s.comm_r_new, 32) == 0;
    for (size_t k = 0; same && k < s.n; k++)
        same &= again.len[k] == s.len[k] && memcmp(again.data[k], s.data[k], s.len[k]) == 0;
    CHECK_MSG(same, "%llu bytes: the same arguments gave other bytes", (unsigned long long)bytes);
    cuzk_fc_snap_synthetic_free(&again);
    if (!slow) {
        seed[0] ^= 1;
        CHECK(cuzk_fc_snap_synthetic(&again, &cfg, comm_c, seed, 2, &err) == CUZK_OK);
        CHECK(memcmp(again.comm_r_new, s.comm_r_new, 32) != 0 && memcmp(again.comm_d_new, s.comm_d_new, 32) != 0 &&
              all_verify(&again, 1, NULL));
        cuzk_fc_snap_synthetic_free(&again);
    }
    cuzk_fc_snap_synthetic_free(&s);
}

static void every_h(void)
{
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_size(&cfg, 8u << 20, NULL) == CUZK_OK);
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(cfg.nodes, hs);
    uint8_t comm_c[32], seed[32];
    test_rand_fr_bytes(comm_c);
    test_rand_bytes(seed, 32);
    for (int i = 0; i < CUZK_SNAP_H_CHOICES; i++) {
        cfg.h = hs[i];
        cuzk_fc_snap_synthetic_t s;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_fc_snap_synthetic(&s, &cfg, comm_c, seed, 0, &err) == CUZK_OK && all_verify(&s, 2, NULL),
                  "8MiB with h = %u: %s", cfg.h, err.msg);
        cuzk_fc_snap_synthetic_free(&s);
    }
}

static void refusals(void)
{
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_size(&cfg, 2048, NULL) == CUZK_OK);
    uint8_t comm_c[32], seed[32] = {1}, big[32];
    test_rand_fr_bytes(comm_c);
    memset(big, 0xff, 32);
    cuzk_fc_snap_synthetic_t s;
    cuzk_err_t err;
    CHECK(cuzk_fc_snap_synthetic(&s, &cfg, big, seed, 1, &err) == CUZK_ERR_NOT_CANONICAL && s.n == 0 && !s.data[0]);
    cfg.h = 3; /* not one of hs */
    CHECK(cuzk_fc_snap_synthetic(&s, &cfg, comm_c, seed, 1, &err) == CUZK_ERR_INVALID_ARG && !s.data[0]);
    CHECK(cuzk_fc_snap_synthetic(NULL, &cfg, comm_c, seed, 1, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_fc_snap_synthetic_free(NULL);
}

int main(int argc, char **argv)
{
    test_init("test_snap_synthetic");
    int slow = argc > 1 && strcmp(argv[1], "--slow") == 0;
    if (slow) {
        one_size(32ull << 30, 1);
        one_size(64ull << 30, 1);
        return test_finish();
    }
    static const uint64_t sizes[] = {1024, 2048, 4096, 8192, 16384, 32768, 8u << 20, 16u << 20, 512u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        one_size(sizes[i], 0);
    every_h();
    refusals();
    return test_finish();
}
