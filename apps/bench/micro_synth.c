/* Micro benchmark of circuit synthesis for the LC storage A/B: the Filecoin-shaped circuit of
 * synth_circuit.h (2^log2 constraints) on the count / witness / record / direct backends under each
 * LC strategy, ns per constraint. --threads T synthesizes T copies at once (one per thread, as
 * partitions are), and the figure is per constraint of all of them. Every (backend, strategy) pair
 * first runs once untimed (warm-up, and the run whose result is checked); then each iteration runs
 * every pair once, the order rotated by one pair per iteration and reversed every other iteration:
 * each pair takes every position in turn and follows each of its two neighbours equally often, so
 * slow drifts of the machine and after-effects of the previous pair (cache, allocator, page
 * cache) fall on every pair alike. The checks: equal counts, values, matrices and A·z, B·z,
 * C·z across strategies (and across backends where they overlap); then, at 2^min(log2, 18), the
 * test backend's hash equal across strategies, the circuit satisfied, the first SHA-256 digest of
 * the witness equal to OpenSSL's, and record + witness evaluated equal to the direct backend. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cuzk/cs.h"
#include "synth_circuit.h"
#include "util/parallel.h"
#include "util/timer.h"

#define CHECK_LOG2 18

static const char *const backend_names[] = {"count", "witness", "record", "direct"};
enum { N_BACKENDS = 4 };

typedef struct {
    const synth_plan *plan;
    cuzk_cs_backend backend;
    cuzk_lc_strategy lc;
    cuzk_cs_t **cs;         /* one per thread, freed after the clock stops */
    cuzk_cs_record_t *rec;  /* record backend: the taken matrices, one per thread */
    cuzk_status *st;
} run_ctx;

static void synth_one(void *p, int tid, int nthreads)
{
    (void)nthreads;
    run_ctx *r = p;
    cuzk_cs_t *cs = NULL;
    r->st[tid] = cuzk_cs_new(&cs, r->backend, r->lc, NULL);
    r->cs[tid] = cs;
    if (!cs)
        return;
    synth_circuit(cs, r->plan, 0x5eed, NULL);
    /* A record run is not done before its matrices are taken (ids become columns). */
    if (r->backend == CUZK_CS_RECORD)
        r->st[tid] = cuzk_cs_take_record_compact(cs, &r->rec[tid], NULL);
    else
        r->st[tid] = cuzk_cs_status(cs, NULL);
}

static void free_one(void *p, int tid, int nthreads)
{
    (void)nthreads;
    run_ctx *r = p;
    cuzk_cs_record_free(&r->rec[tid]);
    cuzk_cs_free(r->cs[tid]);
    r->cs[tid] = NULL;
}

/* ---- result fingerprints ---- */

typedef struct {
    uint64_t h;
} fp_hash;

static void fp_update(fp_hash *f, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t h = f->h ^ (len * 0x9E3779B97F4A7C15ULL), w;
    for (; len >= 8; p += 8, len -= 8) {
        memcpy(&w, p, 8);
        h = ((h ^ w) * 0xC2B2AE3D27D4EB4FULL);
        h = (h << 31) | (h >> 33);
    }
    w = 0;
    memcpy(&w, p, len);
    h = ((h ^ w) * 0xC2B2AE3D27D4EB4FULL);
    f->h = h ^ (h >> 29);
}

typedef struct {
    cuzk_cs_counts_t cnt;
    uint64_t values;  /* inputs and aux (witness, direct) */
    uint64_t product; /* matrices and bitmaps (record), A·z, B·z, C·z and bitmaps (direct) */
} fingerprint;

static void bitmaps(fp_hash *f, const uint64_t *a, const uint64_t *bi, const uint64_t *ba, size_t ni, size_t na)
{
    fp_update(f, a, (na + 63) / 64 * 8);
    fp_update(f, bi, (ni + 63) / 64 * 8);
    fp_update(f, ba, (na + 63) / 64 * 8);
}

static cuzk_status take_fingerprint(fingerprint *out, const run_ctx *r, int tid, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_cs_t *cs = r->cs[tid];
    cuzk_cs_counts(cs, &out->cnt);
    const cuzk_cs_counts_t *k = &out->cnt;
    if (cuzk_cs_wants_values(cs)) {
        fp_hash f = {1};
        fp_update(&f, cuzk_cs_inputs(cs), k->num_inputs * sizeof(cuzk_fr_t));
        fp_update(&f, cuzk_cs_aux(cs), k->num_aux * sizeof(cuzk_fr_t));
        out->values = f.h;
    }
    fp_hash f = {2};
    if (r->backend == CUZK_CS_RECORD) {
        cuzk_cs_record_t *rec = &r->rec[tid];
        cuzk_status st = cuzk_cs_record_expand(rec, err); /* the fingerprint is over the CSR form */
        if (st != CUZK_OK)
            return st;
        const cuzk_r1cs_t *m = &rec->r1cs;
        /* A record's counts live in the record once taken. */
        cuzk_cs_record_counts(rec, &out->cnt);
        out->cnt.num_inputs = m->num_inputs, out->cnt.num_aux = m->num_aux;
        out->cnt.num_constraints = m->num_constraints;
        const cuzk_csr_t *ms[3] = {&m->a, &m->b, &m->c};
        for (int i = 0; i < 3; i++) {
            size_t nnz = ms[i]->row_start[m->num_constraints];
            fp_update(&f, ms[i]->row_start, (m->num_constraints + 1) * 8);
            fp_update(&f, ms[i]->col, nnz * 4);
            fp_update(&f, ms[i]->coeff, nnz * sizeof(cuzk_fr_t));
        }
        bitmaps(&f, rec->a_aux_density, rec->b_input_density, rec->b_aux_density, m->num_inputs, m->num_aux);
        out->product = f.h;
    } else if (r->backend == CUZK_CS_DIRECT) {
        cuzk_groth16_witness_t w;
        cuzk_status st = cuzk_cs_groth16_witness(cs, &w, err);
        if (st != CUZK_OK)
            return st;
        fp_update(&f, w.a, w.num_constraints * sizeof(cuzk_fr_t));
        fp_update(&f, w.b, w.num_constraints * sizeof(cuzk_fr_t));
        fp_update(&f, w.c, w.num_constraints * sizeof(cuzk_fr_t));
        bitmaps(&f, w.a_aux_density, w.b_input_density, w.b_aux_density, w.num_inputs, w.num_aux);
        out->product = f.h;
    }
    return CUZK_OK;
}

static bool same_shape(const cuzk_cs_counts_t *x, const cuzk_cs_counts_t *y)
{
    return x->num_inputs == y->num_inputs && x->num_aux == y->num_aux && x->num_constraints == y->num_constraints;
}
static bool same_density(const cuzk_cs_counts_t *x, const cuzk_cs_counts_t *y)
{
    return x->a_aux_density == y->a_aux_density && x->b_input_density == y->b_input_density &&
           x->b_aux_density == y->b_aux_density;
}

static bool fp_equal(const fingerprint *x, const fingerprint *y)
{
    return same_shape(&x->cnt, &y->cnt) && same_density(&x->cnt, &y->cnt) && x->cnt.has_density == y->cnt.has_density &&
           x->values == y->values && x->product == y->product;
}

/* ---- the small-size checks against other oracles ---- */

static int fail(const char *what)
{
    fprintf(stderr, "synth: check failed: %s\n", what);
    return 1;
}

static cuzk_status synth_small(cuzk_cs_t **cs, cuzk_cs_backend b, cuzk_lc_strategy s, const synth_plan *p,
                               synth_probe *probe, cuzk_err_t *err)
{
    cuzk_status st = cuzk_cs_new(cs, b, s, err);
    if (st != CUZK_OK)
        return st;
    synth_circuit(*cs, p, 0x5eed, probe);
    return cuzk_cs_status(*cs, err);
}

static int check_small(unsigned log2, const cuzk_lc_strategy *lcs, int n_lcs)
{
    synth_plan p;
    cuzk_err_t err = {{0}};
    if (synth_plan_make(&p, log2, &err) != CUZK_OK)
        return fail(err.msg);
    int bad = 0;
    char hash0[65] = {0}, hash[65];
    synth_probe probe = {0};
    cuzk_cs_counts_t k0 = {0};
    /* Test backend: one hash for every strategy; satisfied; the counts of the count backend. */
    for (int i = 0; i < n_lcs && !bad; i++) {
        cuzk_cs_t *cs = NULL, *cc = NULL;
        int64_t first = 0;
        cuzk_cs_counts_t kt, kc;
        if (synth_small(&cs, CUZK_CS_TEST, lcs[i], &p, i == 0 ? &probe : NULL, &err) != CUZK_OK ||
            cuzk_cs_test_hash(cs, hash, &err) != CUZK_OK || cuzk_cs_test_unsatisfied(cs, &first, &err) != CUZK_OK ||
            synth_small(&cc, CUZK_CS_COUNT, lcs[i], &p, NULL, &err) != CUZK_OK) {
            bad = fail(err.msg);
        } else {
            cuzk_cs_counts(cs, &kt);
            cuzk_cs_counts(cc, &kc);
            if (i == 0) {
                memcpy(hash0, hash, sizeof hash);
                k0 = kt;
            }
            if (strcmp(hash, hash0) != 0)
                bad = fail("test-backend hash differs between LC strategies");
            if (first != -1)
                bad = fail("the circuit is not satisfied (test backend)");
            if (kt.num_constraints != p.constraints || !same_shape(&kt, &kc) || !same_shape(&kt, &k0) ||
                !same_density(&kt, &kc) || !same_density(&kt, &k0))
                bad = fail("test and count backends disagree on the counts");
            /* The first SHA-256 of the witness against OpenSSL. */
            if (i == 0 && probe.have) {
                uint8_t want[32];
                unsigned int wl = 0;
                EVP_Digest(probe.msg, probe.msg_len, want, &wl, EVP_sha256(), NULL);
                for (int b = 0; b < 256; b++) {
                    cuzk_fr_t v;
                    bool one = cuzk_cs_get_value(cs, probe.digest_var[b], &v) &&
                               memcmp(&v, &cuzk_lc_coeff_one, sizeof v) == 0;
                    if ((int)(one ^ probe.digest_neg[b]) != ((want[b / 8] >> (7 - b % 8)) & 1)) {
                        bad = fail("SHA-256 digest of the witness differs from OpenSSL's");
                        break;
                    }
                }
            }
        }
        cuzk_cs_free(cs);
        cuzk_cs_free(cc);
    }
    /* Record + witness evaluated = the direct backend's A·z, B·z, C·z (default strategy). */
    cuzk_cs_t *rcs = NULL, *wcs = NULL, *dcs = NULL;
    cuzk_cs_record_t rec = {0};
    cuzk_cs_abc_t abc = {0};
    cuzk_groth16_witness_t wr, wd;
    if (!bad) {
        if (synth_small(&rcs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, &p, NULL, &err) != CUZK_OK ||
            cuzk_cs_take_record(rcs, &rec, &err) != CUZK_OK ||
            synth_small(&wcs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, &p, NULL, &err) != CUZK_OK ||
            synth_small(&dcs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, &p, NULL, &err) != CUZK_OK ||
            cuzk_cs_record_witness(&wr, &abc, &rec, wcs, 1, &err) != CUZK_OK ||
            cuzk_cs_groth16_witness(dcs, &wd, &err) != CUZK_OK) {
            bad = fail(err.msg);
        } else {
            size_t n = wd.num_constraints * sizeof(cuzk_fr_t);
            if (wr.num_constraints != wd.num_constraints || memcmp(wr.a, wd.a, n) || memcmp(wr.b, wd.b, n) ||
                memcmp(wr.c, wd.c, n))
                bad = fail("record + witness evaluation differs from the direct backend");
        }
    }
    cuzk_cs_abc_free(&abc);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rcs);
    cuzk_cs_free(wcs);
    cuzk_cs_free(dcs);
    if (!bad)
        printf("synth check log2=%u: test-backend hash %.16s... equal for %d LC strateg%s, circuit satisfied, "
               "SHA-256 of the witness %s, record + witness = direct\n",
               log2, hash0, n_lcs, n_lcs == 1 ? "y" : "ies", probe.have ? "= OpenSSL" : "not in circuit");
    synth_plan_free(&p);
    return bad;
}

/* ---- the benchmark ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int parse_lists(const micro_args *a, cuzk_cs_backend *bk, int *nb, cuzk_lc_strategy *lc, int *nl)
{
    *nb = *nl = 0;
    for (int i = 0; i < N_BACKENDS; i++)
        if (!a->backend || strcmp(a->backend, "all") == 0 || strcmp(a->backend, backend_names[i]) == 0)
            bk[(*nb)++] = (cuzk_cs_backend)i;
    if (!a->lc || strcmp(a->lc, "all") == 0) {
        for (int i = 0; i < CUZK_LC_STRATEGY_COUNT; i++)
            lc[(*nl)++] = (cuzk_lc_strategy)i;
    } else {
        cuzk_err_t err;
        if (cuzk_lc_strategy_parse(&lc[0], a->lc, &err) != CUZK_OK)
            return micro_bad_arg("synth: %s", err.msg);
        *nl = 1;
    }
    if (*nb == 0)
        return micro_bad_arg("synth: --backend expects count, witness, record, direct or all, got '%s'", a->backend);
    return MICRO_OK;
}

int micro_synth(const micro_args *a)
{
    micro_args args = *a;
    args.log2 = a->log2_set ? a->log2 : 18;
    args.log2_set = true;
    cuzk_cs_backend bk[N_BACKENDS];
    cuzk_lc_strategy lcs[CUZK_LC_STRATEGY_COUNT];
    int nb, nl;
    int rc = parse_lists(a, bk, &nb, lcs, &nl);
    if (rc != MICRO_OK)
        return rc;
    synth_plan plan;
    cuzk_err_t err = {{0}};
    cuzk_status st = synth_plan_make(&plan, args.log2, &err);
    if (st == CUZK_ERR_INVALID_ARG)
        return micro_bad_arg("%s", err.msg);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return MICRO_ERROR;
    }
    const int T = args.threads, npairs = nb * nl;
    printf("synth log2=%u: %zu constraints per circuit: prelude %zu, ", args.log2, plan.constraints, plan.prelude);
    for (int k = 0; k < SYNTH_KINDS; k++)
        printf("%s %zu×%zu, ", synth_kind_name((synth_kind)k), plan.unit_count[k], plan.unit_constraints[k]);
    printf("booleans %zu; SHA-256 %.1f%%, Poseidon %.1f%%; %d circuit%s at once; "
           "the order of the pairs rotates and reverses each iteration\n",
           plan.booleans, 100.0 * (double)plan.sha_constraints / (double)plan.constraints,
           100.0 * (double)plan.poseidon_constraints / (double)plan.constraints, T, T == 1 ? "" : "s");
    fflush(stdout);

    cuzk_cs_t **css = calloc((size_t)T, sizeof *css);
    cuzk_cs_record_t *recs = calloc((size_t)T, sizeof *recs);
    cuzk_status *sts = calloc((size_t)T, sizeof *sts);
    double *samples = calloc((size_t)npairs * (size_t)args.iters, sizeof *samples);
    fingerprint *fps = calloc((size_t)npairs, sizeof *fps);
    if (!css || !recs || !sts || !samples || !fps) {
        fprintf(stderr, "synth: out of memory\n");
        free(css), free(recs), free(sts), free(samples), free(fps);
        synth_plan_free(&plan);
        return MICRO_ERROR;
    }
    int bad = 0;
    /* iteration −1: the untimed warm-up of every pair, whose result is the one checked */
    for (int it = -1; it < args.iters && !bad; it++) {
        for (int q = 0; q < npairs && !bad; q++) {
            int j = it < 0 ? q : ((it % 2 ? npairs - 1 - q : q) + it) % npairs;
            run_ctx r = {&plan, bk[j / nl], lcs[j % nl], css, recs, sts};
            uint64_t t0 = cuzk_now_ns();
            cuzk_parallel_run(T, synth_one, &r);
            double dt = (double)(cuzk_now_ns() - t0) * 1e-9;
            for (int t = 0; t < T && !bad; t++)
                if (sts[t] != CUZK_OK) {
                    fprintf(stderr, "synth: %s/%s failed: %s\n", backend_names[r.backend],
                            cuzk_lc_strategy_name(r.lc), cuzk_status_str(sts[t]));
                    bad = 1;
                }
            if (it >= 0) {
                samples[(size_t)j * (size_t)args.iters + (size_t)it] = dt;
            } else if (!bad) {
                for (int t = 0; t < T && !bad; t++) {
                    fingerprint f;
                    if (take_fingerprint(&f, &r, t, &err) != CUZK_OK)
                        bad = fail(err.msg);
                    else if (t == 0)
                        fps[j] = f;
                    else if (!fp_equal(&f, &fps[j]))
                        bad = fail("threads synthesized different systems");
                }
            }
            cuzk_parallel_run(T, free_one, &r);
        }
    }

    /* Within a backend every strategy gives the same result; across backends the shapes agree,
     * densities wherever tracked, and the witness and direct values. */
    for (int j = 0; j < npairs && !bad; j++) {
        const fingerprint *f = &fps[j], *f0 = &fps[(j / nl) * nl], *g = &fps[0];
        if (!fp_equal(f, f0))
            bad = fail("results differ between LC strategies");
        else if (!same_shape(&f->cnt, &g->cnt) || f->cnt.num_constraints != plan.constraints)
            bad = fail("backends disagree on the numbers of variables or constraints");
        else if (f->cnt.has_density && g->cnt.has_density && !same_density(&f->cnt, &g->cnt))
            bad = fail("backends disagree on the densities");
    }
    for (int x = 0; x < nb && !bad; x++)
        for (int y = 0; y < nb && !bad; y++)
            if (bk[x] == CUZK_CS_WITNESS && bk[y] == CUZK_CS_DIRECT && fps[x * nl].values != fps[y * nl].values)
                bad = fail("witness and direct backends computed different values");

    if (!bad) {
        double work = (double)T * (double)plan.constraints;
        for (int b = 0; b < nb; b++) {
            double mn[CUZK_LC_STRATEGY_COUNT], med[CUZK_LC_STRATEGY_COUNT], best_mn = 0, best_med = 0;
            for (int l = 0; l < nl; l++) {
                double *s = &samples[(size_t)(b * nl + l) * (size_t)args.iters];
                qsort(s, (size_t)args.iters, sizeof *s, cmp_double);
                int n = args.iters;
                bench_stats st = {s[0], n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]), s[n - 1]};
                char name[64];
                snprintf(name, sizeof name, "synth %s lc=%s", backend_names[bk[b]], cuzk_lc_strategy_name(lcs[l]));
                bench_print(name, &args, st, work, NULL);
                mn[l] = st.min, med[l] = st.median;
                if (l == 0 || st.min < best_mn)
                    best_mn = st.min;
                if (l == 0 || st.median < best_med)
                    best_med = st.median;
            }
            /* On a busy machine the minimum is the steadier figure: noise only ever adds time. */
            if (nl > 1) {
                printf("synth %s: relative to the fastest, min / median:", backend_names[bk[b]]);
                for (int l = 0; l < nl; l++)
                    printf(" %s %.3f/%.3f", cuzk_lc_strategy_name(lcs[l]), mn[l] / best_mn, med[l] / best_med);
                printf("\n");
            }
        }
        fflush(stdout);
        unsigned cl = args.log2 < CHECK_LOG2 ? args.log2 : CHECK_LOG2;
        bad = check_small(cl, lcs, nl);
    }
    free(css), free(recs), free(sts), free(samples), free(fps);
    synth_plan_free(&plan);
    return bad ? MICRO_WRONG : MICRO_OK;
}
