/* The SnapDeals circuit at sizes too slow for the fast suite:
 *  - production counts: 512MiB 57,450,479, 32GiB 81,049,499 (storage-proofs-update tests/circuit.rs,
 *    test_empty_sector_update_constraints_32gib) and 64GiB 85,006,101 (derived), 5 inputs with ONE, by the
 *    count backend, with its time;
 *  - the two-partition test shapes of tests/circuit.rs (16KiB 8-8-0, 32KiB 8-8-2; H_SELECT = 1 << 2) built
 *    from whole trees (snap_fixture): both partitions satisfied on the check backend with the expected public
 *    inputs (6,300,021 and 6,760,091 constraints); partition 0's witness claimed as partition 1 and a changed
 *    partition path (every challenge's) are not satisfied; one challenge's partition path alone is refused.
 * Measurements (not tests): --measure times a real 2KiB partition on every backend, --measure-32gib a 32GiB
 * partition on the direct backend. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuzk/snap.h"
#include "ff/fr.h"
#include "snap_fixture.h"
#include "test_util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void production(void)
{
    static const size_t want[5] = {0, 0, 57450479, 81049499, 85006101};
    for (uint32_t id = 2; id < 5; id++) {
        cuzk_snap_config_t cfg;
        CHECK(cuzk_snap_config_for_proof(&cfg, id, NULL) == CUZK_OK);
        cuzk_circuit_info_t info;
        cuzk_err_t err = {{0}};
        double t0 = now_s();
        CHECK_MSG(cuzk_snap_circuit_info(&info, &cfg, false, &err) == CUZK_OK, "%s", err.msg);
        printf("update proof %u: %zu constraints, %zu inputs, %zu aux (count backend %.1f s)\n", id,
               info.num_constraints, info.num_inputs, info.num_aux, now_s() - t0);
        CHECK_MSG(info.num_constraints == want[id] && info.num_inputs == CUZK_SNAP_NUM_INPUTS, "proof %u: %zu", id,
                  info.num_constraints);
    }
}

static int64_t check_run(const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w, cuzk_status want_st,
                         size_t *constraints, const fr *inputs)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_CHECK, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_snap_synthesize(cs, cfg, w, 1, &err);
    CHECK_MSG(st == want_st, "status %d (%s), expected %d", (int)st, err.msg, (int)want_st);
    int64_t u = -2;
    if (st == CUZK_OK)
        CHECK(cuzk_cs_test_unsatisfied(cs, &u, NULL) == CUZK_OK);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    if (constraints)
        *constraints = c.num_constraints;
    if (inputs)
        CHECK(memcmp(cuzk_cs_inputs(cs), inputs, CUZK_SNAP_NUM_INPUTS * sizeof(fr)) == 0);
    cuzk_cs_free(cs);
    return u;
}

static void two_partitions(uint64_t size, size_t constraints)
{
    double t0 = now_s();
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_size(&cfg, size, NULL) == CUZK_OK && cfg.partition_count == 2);
    uint32_t hs[CUZK_SNAP_H_CHOICES];
    cuzk_snap_hs(cfg.nodes, hs);
    cfg.h = hs[2];
    snap_fixture_t f;
    snap_fixture_make(&f, &cfg);
    cuzk_snap_witness_t w[2];
    for (uint32_t k = 0; k < 2; k++) {
        fr want[CUZK_SNAP_NUM_INPUTS];
        snap_fixture_witness(&w[k], &f, k, want, NULL);
        size_t n = 0;
        int64_t u = check_run(&cfg, &w[k], CUZK_OK, &n, want);
        CHECK_MSG(u == -1 && n == constraints, "%llu bytes, partition %u: constraint %lld unsatisfied, %zu constraints",
                  (unsigned long long)size, k, (long long)u, n);
    }
    /* partition 0's paths as partition 1 (leaf_r_new re-encoded for partition 1's challenges, so that the
     * constraints, not the reference's assertion on the encoding, must tell) */
    w[0].k = 1;
    uint64_t ch[10];
    CHECK(cfg.challenge_count <= 10);
    uint8_t crn[32];
    fr_to_bytes_le(crn, &f.comm_r_new);
    CHECK(cuzk_snap_challenges(ch, &cfg, crn, 1, NULL) == CUZK_OK);
    for (uint32_t c = 0; c < cfg.challenge_count; c++) {
        fr rho, t;
        snap_fixture_rho(&rho, &f, ch[c]);
        fr_mul(&t, &w[0].challenges[c].leaf_d_new, &rho);
        fr_add(&w[0].challenges[c].leaf_r_new, &w[0].challenges[c].leaf_r_old, &t);
    }
    CHECK_MSG(check_run(&cfg, &w[0], CUZK_OK, NULL, NULL) >= 0, "%llu bytes: partition 0 passes as 1",
              (unsigned long long)size);
    /* another partition path: every challenge's (then only the apex check can tell), or one challenge's */
    unsigned top = cuzk_snap_tree_d_levels(&cfg) - 1;
    for (uint32_t c = 0; c < cfg.challenge_count; c++)
        fr_add(&w[1].challenges[c].siblings_d_new[top], &w[1].challenges[c].siblings_d_new[top], &FR_ONE);
    CHECK(check_run(&cfg, &w[1], CUZK_OK, NULL, NULL) >= 0);
    fr_add(&w[1].challenges[3].siblings_d_new[top], &w[1].challenges[3].siblings_d_new[top], &FR_ONE);
    CHECK(check_run(&cfg, &w[1], CUZK_ERR_MISMATCH, NULL, NULL) == -2);
    cuzk_snap_witness_free(&w[0]);
    cuzk_snap_witness_free(&w[1]);
    snap_fixture_free(&f);
    printf("%llu bytes, two partitions: %.1f s\n", (unsigned long long)size, now_s() - t0);
}

/* --measure: one real 2KiB partition synthesized on each backend, min / median / max of 5 runs. */
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(void)
{
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_size(&cfg, 2048, NULL) == CUZK_OK);
    snap_fixture_t f;
    snap_fixture_make(&f, &cfg);
    cuzk_snap_witness_t w;
    fr want[CUZK_SNAP_NUM_INPUTS];
    snap_fixture_witness(&w, &f, 0, want, NULL);
    static const char *const names[] = {"count", "witness", "record", "direct", "test", "hash", "check"};
    cuzk_circuit_info_t info;
    CHECK(cuzk_snap_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
    for (int b = 0; b <= CUZK_CS_CHECK; b++) {
        double t[5];
        for (int r = 0; r < 5; r++) {
            cuzk_cs_t *cs = NULL;
            CHECK(cuzk_cs_new(&cs, (cuzk_cs_backend)b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
            if (b == CUZK_CS_HASH)
                CHECK(cuzk_cs_hash_begin(cs, info.num_inputs, info.num_aux, info.num_constraints, NULL) == CUZK_OK);
            double t0 = now_s();
            CHECK(cuzk_snap_synthesize(cs, &cfg, &w, 1, NULL) == CUZK_OK);
            t[r] = now_s() - t0;
            cuzk_cs_free(cs);
        }
        qsort(t, 5, sizeof t[0], cmp_d);
        printf("snap 2KiB partition, %s backend: min %.3f / median %.3f / max %.3f s\n", names[b], t[0], t[2], t[4]);
    }
    cuzk_snap_witness_free(&w);
    snap_fixture_free(&f);
}

/* --measure-32gib [THREADS] [abc]: a 32GiB partition on the direct backend as the prover runs it (on THREADS
 * threads, 1 by default; C·z omitted, or kept with abc), from a witness of random paths whose
 * leaf_r_new are the encoding under the real phi, rho and challenges (the circuit's own assertions hold;
 * its constraints do not: this times synthesis only). */
static void measure_32gib(bool omit_c, int threads)
{
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_size(&cfg, 32ull << 30, NULL) == CUZK_OK);
    cuzk_snap_witness_t w;
    CHECK(cuzk_snap_witness_init(&w, &cfg, NULL) == CUZK_OK);
    w.has_values = true;
    w.k = 5;
    fr *v[] = {&w.comm_r_old, &w.comm_d_new, &w.comm_r_new, &w.comm_c, &w.root_r_old, &w.root_r_new};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        test_rand_fr(v[i]);
    for (uint32_t i = 0; i < cfg.apex_leaf_count; i++)
        test_rand_fr(&w.apex_leaves[i]);
    uint8_t crn[32], cdn[32], cro[32], phi_b[32];
    fr_to_bytes_le(crn, &w.comm_r_new);
    fr_to_bytes_le(cdn, &w.comm_d_new);
    fr_to_bytes_le(cro, &w.comm_r_old);
    CHECK(cuzk_snap_phi(phi_b, cdn, cro, NULL) == CUZK_OK);
    fr phi;
    CHECK(fr_from_bytes_le(&phi, phi_b));
    uint64_t *ch = malloc(cfg.challenge_count * sizeof *ch);
    CHECK(cuzk_snap_challenges(ch, &cfg, crn, w.k, NULL) == CUZK_OK);
    size_t r = cuzk_snap_tree_r_siblings(&cfg), dl = cuzk_snap_tree_d_levels(&cfg);
    for (uint32_t c = 0; c < cfg.challenge_count; c++) {
        cuzk_snap_challenge_witness_t *cw = &w.challenges[c];
        fr rho, t;
        test_rand_fr(&cw->leaf_r_old);
        test_rand_fr(&cw->leaf_d_new);
        cuzk_snap_rho(&rho, &cfg, &phi, ch[c]);
        fr_mul(&t, &cw->leaf_d_new, &rho);
        fr_add(&cw->leaf_r_new, &cw->leaf_r_old, &t);
        for (size_t i = 0; i < r; i++) {
            test_rand_fr(&cw->siblings_r_old[i]);
            test_rand_fr(&cw->siblings_r_new[i]);
        }
        for (size_t i = 0; i < dl; i++) /* the partition levels: challenge 0's */
            if (c == 0 || i < dl - 4)
                test_rand_fr(&cw->siblings_d_new[i]);
            else
                cw->siblings_d_new[i] = w.challenges[0].siblings_d_new[i];
    }
    free(ch);
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    if (omit_c)
        CHECK(cuzk_cs_omit_c(cs, NULL) == CUZK_OK);
    double t0 = now_s();
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_synthesize(cs, &cfg, &w, threads, &err) == CUZK_OK, "%s", err.msg);
    double t1 = now_s();
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    printf("snap 32GiB partition, direct backend%s, %d thread%s: %.1f s, %zu constraints\n",
           omit_c ? "" : " (C·z kept)", threads, threads == 1 ? "" : "s", t1 - t0, c.num_constraints);
    CHECK(c.num_constraints == 81049499);
    cuzk_cs_free(cs);
    cuzk_snap_witness_free(&w);
}

int main(int argc, char **argv)
{
    test_init("test_snap_circuit_slow");
    if (argc > 1 && strcmp(argv[1], "--measure") == 0) {
        measure();
        return test_finish();
    }
    if (argc > 1 && strcmp(argv[1], "--measure-32gib") == 0) {
        int threads = argc > 2 ? atoi(argv[2]) : 1;
        bool abc = argc > 2 && strcmp(argv[argc - 1], "abc") == 0;
        measure_32gib(!abc, threads > 0 ? threads : 1);
        return test_finish();
    }
    production();
    two_partitions(16384, 6300021);
    two_partitions(32768, 6760091);
    return test_finish();
}
