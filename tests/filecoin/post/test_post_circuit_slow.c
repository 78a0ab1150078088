/* The whole production PoSt partitions (docs/REFERENCE.md §8), slow suite:
 *  - Window 32GiB (2,349 sectors) 125,279,217 constraints and 25,840 inputs (rust-fil-proofs PR #1325,
 *    filecoin-proofs src/constants.rs), Window 64GiB (2,300 sectors) 129,887,900 (constants.rs), both also
 *    against the cost model, on the count backend sequentially and in parallel chunks (every count and
 *    density of the joined system equal to the sequential one's);
 *  - Winning 32GiB on the direct backend from a dummy witness (random values: the circuit's shape, not a
 *    satisfied system), sequential and joined equal in every array.
 * Timings are printed. `test_post_circuit_slow --measure PROOF_ID count|direct|direct-abc THREADS [SECTORS [RUNS]]`
 * synthesizes a registered proof's circuit (or its first SECTORS sectors; 0: all) on the count backend or
 * on the direct backend (as the prover runs it, C·z omitted; direct-abc: kept) from a dummy witness RUNS
 * times and prints each time: the measurements of
 * docs/PERF.md, run under /usr/bin/time -v for the peak memory. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cs/cs_test_compare.h"
#include "cuzk/post.h"
#include "ff/fr.h"
#include "test_util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Published gadget counts (docs/REFERENCE.md §2) per tree level, as in test_post_circuit. */
static size_t level_cost(unsigned a) { return a == 2 ? 314 : a == 4 ? 387 : 530; }

static size_t model(const cuzk_post_config_t *cfg)
{
    size_t p = 0;
    uint64_t per = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    for (uint64_t b = cfg->nodes / per; b > 1; b /= cfg->base_arity)
        p += level_cost(cfg->base_arity);
    if (cfg->sub_arity)
        p += level_cost(cfg->sub_arity);
    if (cfg->top_arity)
        p += level_cost(cfg->top_arity);
    return (size_t)cfg->sector_count * (313 + (size_t)cfg->challenge_count * (p + 2));
}

/* omit_c: the direct backend as the prover runs it (cuzk_cs_omit_c) */
static cuzk_cs_t *synth(cuzk_cs_backend b, bool omit_c, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w,
                        int threads, double *secs)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    if (omit_c)
        CHECK(cuzk_cs_omit_c(cs, NULL) == CUZK_OK);
    cuzk_err_t err = {{0}};
    double t0 = now_s();
    CHECK_MSG(cuzk_post_synthesize(cs, cfg, w, threads, &err) == CUZK_OK, "%s", err.msg);
    *secs = now_s() - t0;
    return cs;
}

/* Random values in every slot of the witness. */
static void dummy_witness(cuzk_post_witness_t *w, const cuzk_post_config_t *cfg)
{
    CHECK(cuzk_post_witness_init(w, cfg, NULL) == CUZK_OK);
    size_t sib = cuzk_post_tree_siblings(cfg);
    uint32_t lv = cuzk_post_tree_levels(cfg);
    for (uint32_t s = 0; s < cfg->sector_count; s++) {
        cuzk_post_sector_witness_t *ws = &w->sectors[s];
        test_rand_fr(&ws->comm_r), test_rand_fr(&ws->comm_c), test_rand_fr(&ws->comm_r_last);
        ws->has_comms = true;
        for (uint32_t c = 0; c < cfg->challenge_count; c++) {
            cuzk_porep_path_t *p = &ws->paths[c];
            for (size_t i = 0; i < sib; i++)
                test_rand_fr(&p->siblings[i]);
            for (uint32_t l = 0; l < lv; l++)
                p->positions[l] = (uint32_t)test_rand_below(2); /* below every arity */
            test_rand_fr(&p->leaf);
            p->root = ws->comm_r_last;
            p->has_values = true;
        }
    }
}

static void window_counts(void)
{
    static const struct {
        uint32_t id;
        size_t constraints, inputs;
    } want[2] = {{13, 125279217, 25840}, {14, 129887900, 25301}};
    for (int k = 0; k < 2; k++) {
        cuzk_post_config_t cfg;
        CHECK(cuzk_post_config_for_proof(&cfg, want[k].id, NULL) == CUZK_OK);
        CHECK(model(&cfg) == want[k].constraints);
        double t1, t2;
        cuzk_cs_t *seq = synth(CUZK_CS_COUNT, false, &cfg, NULL, 1, &t1);
        cuzk_cs_t *par = synth(CUZK_CS_COUNT, false, &cfg, NULL, 2, &t2);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(seq, &c);
        CHECK_MSG(c.num_constraints == want[k].constraints && c.num_inputs == want[k].inputs,
                  "proof %u: %zu constraints, %zu inputs", want[k].id, c.num_constraints, c.num_inputs);
        char why[256] = "";
        CHECK_MSG(cs_test_same(seq, par, why, sizeof why), "proof %u joined: %s", want[k].id, why);
        printf("window proof %u: %zu constraints, %zu inputs, %zu aux; count backend %.1f s (1 thread), %.1f s "
               "(2 threads)\n",
               want[k].id, c.num_constraints, c.num_inputs, c.num_aux, t1, t2);
        cuzk_cs_free(seq);
        cuzk_cs_free(par);
    }
}

static void winning_direct(void)
{
    cuzk_post_config_t cfg;
    CHECK(cuzk_post_config_for_proof(&cfg, 3, NULL) == CUZK_OK);
    cuzk_post_witness_t w;
    dummy_witness(&w, &cfg);
    double t1, t2;
    cuzk_cs_t *seq = synth(CUZK_CS_DIRECT, false, &cfg, &w, 1, &t1);
    cuzk_cs_t *par = synth(CUZK_CS_DIRECT, false, &cfg, &w, 2, &t2);
    char why[256] = "";
    CHECK_MSG(cs_test_same(seq, par, why, sizeof why), "winning 32GiB joined: %s", why);
    printf("winning 32GiB: direct backend %.3f s (1 thread), %.3f s (2 threads)\n", t1, t2);
    cuzk_cs_free(seq);
    cuzk_cs_free(par);
    cuzk_post_witness_free(&w);
}

/* --measure PROOF_ID count|direct|direct-abc THREADS [SECTORS [RUNS]] */
static int measure(int argc, char **argv)
{
    cuzk_post_config_t cfg;
    uint32_t id = (uint32_t)strtoul(argv[2], NULL, 10);
    /* direct: as the prover synthesizes (C·z omitted); direct-abc: C·z kept too */
    bool direct = strncmp(argv[3], "direct", 6) == 0, omit_c = strcmp(argv[3], "direct") == 0;
    int threads = atoi(argv[4]);
    uint32_t sectors = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 10) : 0;
    int runs = argc > 6 ? atoi(argv[6]) : 1;
    CHECK(cuzk_post_config_for_proof(&cfg, id, NULL) == CUZK_OK);
    if (sectors && sectors < cfg.sector_count)
        cfg.sector_count = sectors;
    cuzk_post_witness_t w = {0};
    if (direct)
        dummy_witness(&w, &cfg);
    for (int r = 0; r < runs; r++) {
        double ts;
        cuzk_cs_t *cs = synth(direct ? CUZK_CS_DIRECT : CUZK_CS_COUNT, omit_c, &cfg, direct ? &w : NULL, threads, &ts);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        printf("proof %u, %u sectors, %s, %d threads: synthesis %.3f s; %zu constraints, %zu aux\n", id,
               cfg.sector_count, argv[3], threads, ts, c.num_constraints, c.num_aux);
        cuzk_cs_free(cs);
    }
    cuzk_post_witness_free(&w);
    return test_finish();
}

int main(int argc, char **argv)
{
    test_init("test_post_circuit_slow");
    if (argc >= 5 && strcmp(argv[1], "--measure") == 0)
        return measure(argc, argv);
    window_counts();
    winning_direct();
    return test_finish();
}
