/* The streaming development setup: fixed-base products against plain scalar multiplication (every
 * width, lane kernels real, emulated and none); the streamed .params/.vk byte for byte equal to the
 * in-memory setup's files for the same toxic waste, on circuits whose variables sit in only some matrices
 * (zero columns, zero coefficients, interleaved inputs); proofs made with the streamed key verify under
 * its .vk and tampered ones do not; the unconstrained-variable refusal; no file left after a failure or a
 * stop; the sink backend's contract. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "ec/ec.h"
#include "ff/fr.h"
#include "groth16/fixed_base.h"
#include "groth16/setup_internal.h"
#include "groth16/setup_stream.h"
#include "test_util.h"

/* ---- fixed-base products ---- */

static void check_fixed_base(unsigned w, const ec_ifma_ops *lanes, const char *what)
{
    enum { N = 700 }; /* more than a batch's worth of lanes, not a multiple of 8 */
    fr *sc = malloc(N * sizeof *sc);
    g1_aff *p1 = malloc(N * sizeof *p1);
    g2_aff *p2 = malloc(N * sizeof *p2);
    for (size_t i = 0; i < N; i++)
        test_rand_fr(&sc[i]);
    sc[0] = FR_ZERO;                       /* infinity */
    sc[1] = FR_ONE;                        /* the generator */
    fr_sub(&sc[2], &FR_ZERO, &FR_ONE);     /* r − 1: the top digits, −G */
    fr_from_u64(&sc[3], (uint64_t)1 << (w - 1)); /* a digit at the top of the table */
    fr_from_u64(&sc[4], ((uint64_t)1 << w) - 1); /* a negative digit and a carry */
    g16_fb_table *t1 = NULL, *t2 = NULL;
    CHECK(g16_fb_table_new(&t1, false, w, 2) == CUZK_OK);
    CHECK(g16_fb_table_new(&t2, true, w, 2) == CUZK_OK);
    if (!t1 || !t2)
        goto out;
    g16_fb_table_set_lanes(t1, lanes);
    g16_fb_table_set_lanes(t2, lanes);
    CHECK(g16_fb_mul_g1(t1, p1, sc, N, 2) == CUZK_OK);
    CHECK(g16_fb_mul_g2(t2, p2, sc, 100, 2) == CUZK_OK);
    CHECK(g16_fb_mul_g2(t1, p2, sc, 1, 1) == CUZK_ERR_INVALID_ARG); /* a G1 table for G2 products */
    g1_aff g1;
    g2_aff g2;
    g1_generator(&g1);
    g2_generator(&g2);
    size_t bad1 = 0, bad2 = 0;
    for (size_t i = 0; i < N; i++) {
        cuzk_scalar_t s;
        fr_to_scalar(&s, &sc[i]);
        g1_jac j;
        g1_aff a;
        g1_jac_from_aff(&j, &g1);
        g1_jac_mul(&j, &j, &s);
        g1_jac_to_aff(&a, &j);
        bad1 += !g1_aff_eq(&a, &p1[i]);
        if (i < 100) {
            g2_jac j2;
            g2_aff a2;
            g2_jac_from_aff(&j2, &g2);
            g2_jac_mul(&j2, &j2, &s);
            g2_jac_to_aff(&a2, &j2);
            bad2 += !g2_aff_eq(&a2, &p2[i]);
        }
    }
    CHECK_MSG(bad1 == 0 && bad2 == 0, "fixed base, %u-bit windows, %s: %zu G1 and %zu G2 products wrong", w, what,
              bad1, bad2);
out:
    g16_fb_table_free(t1);
    g16_fb_table_free(t2);
    free(sc);
    free(p1);
    free(p2);
}

/* ---- a circuit with uneven columns ---- */

/* Inputs: ni (besides ONE), half before the constraints, half after half of them. aux: f free variables,
 * then one w_k per constraint. Free variable 3k+1 appears only in A, 3k+2 only in B, 3k only in C (all
 * of them once at least); w_k = (A·z)(B·z) is C of constraint k, and only some w_k are used again (in A
 * or B), so the rest have zero A and B columns. Coefficients: random, 1, −1 and 0 (kept in the LC). */
typedef struct {
    uint64_t seed;
    size_t ni, f, nc;   /* f a multiple of 3, at most 3·nc */
    bool unconstrained; /* one more free aux that no constraint mentions */
} uneven_params;

static void lc_eval(const cuzk_lc_t *lc, const cuzk_fr_t *in, const cuzk_fr_t *aux, cuzk_fr_t *out)
{
    fr acc = FR_ZERO, t;
    const cuzk_lc_term_t *tm = cuzk_lc_terms(lc);
    for (size_t k = 0; k < cuzk_lc_len(lc); k++) {
        const fr *z = (tm[k].var & CUZK_VAR_AUX_BIT) ? &aux[tm[k].var & ~CUZK_VAR_AUX_BIT] : &in[tm[k].var];
        fr_mul(&t, &tm[k].coeff, z);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

static void rand_coeff(uint64_t *st, cuzk_fr_t *c)
{
    uint64_t r = test_splitmix64(st) % 8;
    if (r == 0)
        *c = FR_ZERO;
    else if (r == 1)
        fr_sub(c, &FR_ZERO, &FR_ONE);
    else if (r < 5)
        *c = FR_ONE;
    else
        fr_from_u64(c, test_splitmix64(st));
}

static cuzk_status uneven_synthesize(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err)
{
    const uneven_params *p = arg;
    uint64_t st = p->seed;
    bool vals = cuzk_cs_wants_values(cs);
    size_t nfree = p->f + (p->unconstrained ? 1 : 0);
    cuzk_fr_t *in = calloc(p->ni + 1, sizeof *in), *aux = calloc(nfree + p->nc, sizeof *aux);
    cuzk_var_t *inv = calloc(p->ni + 1, sizeof *inv), *auxv = calloc(nfree + p->nc, sizeof *auxv);
    in[0] = FR_ONE;
    inv[0] = cuzk_cs_one();
    size_t n_in = 1, n_aux = 0;
    for (; n_in <= p->ni / 2; n_in++) {
        fr_from_u64(&in[n_in], test_splitmix64(&st));
        inv[n_in] = cuzk_cs_alloc_input(cs, vals ? &in[n_in] : NULL);
    }
    for (; n_aux < nfree; n_aux++) {
        fr_from_u64(&aux[n_aux], test_splitmix64(&st));
        auxv[n_aux] = cuzk_cs_alloc(cs, vals ? &aux[n_aux] : NULL);
    }
    for (size_t k = 0; k < p->nc; k++) {
        if (k == p->nc / 2)
            for (; n_in <= p->ni; n_in++) {
                fr_from_u64(&in[n_in], test_splitmix64(&st));
                inv[n_in] = cuzk_cs_alloc_input(cs, vals ? &in[n_in] : NULL);
            }
        cuzk_lc_t lc[3];
        for (int m = 0; m < 3; m++)
            cuzk_lc_init(&lc[m], cs);
        for (int m = 0; m < 2; m++) {
            size_t terms = 1 + test_splitmix64(&st) % 4;
            for (size_t t = 0; t < terms; t++) {
                cuzk_fr_t c;
                rand_coeff(&st, &c);
                uint64_t kind = test_splitmix64(&st) % 4;
                if (kind == 0) { /* an input (input 1 never in B) */
                    size_t i = test_splitmix64(&st) % n_in;
                    if (!(m == 1 && i == 1))
                        cuzk_lc_add_term(&lc[m], inv[i], &c);
                } else if (kind == 1 && k > 0 && test_splitmix64(&st) % 3 == 0) { /* an earlier w */
                    cuzk_lc_add_term(&lc[m], auxv[nfree + test_splitmix64(&st) % k], &c);
                } else { /* a free variable of this matrix */
                    size_t j = 3 * (test_splitmix64(&st) % (p->f / 3)) + 1 + (size_t)m;
                    cuzk_lc_add_term(&lc[m], auxv[j], &c);
                }
            }
        }
        /* the free variables of C (3j), each once at least, and their guaranteed first uses in A and B */
        if (k < p->f / 3) {
            cuzk_fr_t c;
            fr_from_u64(&c, k + 2);
            cuzk_lc_add_term(&lc[2], auxv[3 * k], &c);
            cuzk_lc_add(&lc[0], auxv[3 * k + 1]);
            cuzk_lc_add(&lc[1], auxv[3 * k + 2]);
        }
        cuzk_fr_t va = FR_ZERO, vb = FR_ZERO, vc = FR_ZERO, w = FR_ZERO;
        if (vals) {
            lc_eval(&lc[0], in, aux, &va);
            lc_eval(&lc[1], in, aux, &vb);
            lc_eval(&lc[2], in, aux, &vc);
            fr_mul(&w, &va, &vb);
            fr_sub(&w, &w, &vc); /* C = w_k + (the rest) = A·B */
        }
        aux[nfree + k] = w;
        auxv[nfree + k] = cuzk_cs_alloc(cs, vals ? &w : NULL);
        n_aux++;
        cuzk_lc_add(&lc[2], auxv[nfree + k]);
        cuzk_cs_enforce_free(cs, &lc[0], &lc[1], &lc[2]);
    }
    free(in);
    free(aux);
    free(inv);
    free(auxv);
    return cuzk_cs_status(cs, err);
}

/* ---- files ---- */

static char tmpdir[64];

static char *path_in(const char *name)
{
    static char buf[4][sizeof tmpdir + 256 + 2];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%.256s", tmpdir, name);
    return b;
}

static bool same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = test_read_file(a, &la), *y = test_read_file(b, &lb);
    bool same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static size_t dir_entries(void)
{
    DIR *d = opendir(tmpdir);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void clear_dir(void)
{
    DIR *d = opendir(tmpdir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            unlink(path_in(e->d_name));
    if (d)
        closedir(d);
}

static void fixed_waste(g16_toxic_waste *tw)
{
    test_rand_fr(&tw->tau);
    test_rand_fr(&tw->alpha);
    test_rand_fr(&tw->beta);
    test_rand_fr(&tw->gamma);
    test_rand_fr(&tw->delta);
}

/* The in-memory setup's files for the same waste (the reference), then the streamed ones. */
static cuzk_status both_setups(const uneven_params *p, const g16_toxic_waste *tw, int threads, cuzk_err_t *err_mem,
                               cuzk_err_t *err_stream, cuzk_status *st_stream)
{
    cuzk_cs_t *cs = NULL;
    cuzk_cs_record_t rec;
    memset(&rec, 0, sizeof rec);
    cuzk_groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, err_mem);
    if (st == CUZK_OK)
        st = uneven_synthesize(cs, p, err_mem);
    if (st == CUZK_OK)
        st = cuzk_cs_take_record(cs, &rec, err_mem);
    if (st == CUZK_OK)
        st = g16_setup_with_waste(&pk, &rec.r1cs, tw, threads, err_mem);
    if (st == CUZK_OK)
        st = cuzk_params_write(path_in("mem.params"), &pk, threads, err_mem);
    if (st == CUZK_OK)
        st = cuzk_params_vk_write(path_in("mem.vk"), &pk.vk, err_mem);
    cuzk_groth16_pk_free(&pk);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);
    g16_stream_opts o = {.threads = threads, .waste = tw};
    *st_stream = g16_setup_stream(path_in("s.params"), path_in("s.vk"), uneven_synthesize, p, &o, err_stream);
    return st;
}

/* check: every point of the small key in the subgroup; the larger ones on the curve. */
static bool prove_verify(const uneven_params *p, uint64_t tamper, cuzk_params_check check)
{
    cuzk_err_t err = {{0}};
    cuzk_params_t *par = NULL;
    cuzk_groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    cuzk_cs_t *cs = NULL;
    bool ok = false;
    cuzk_groth16_pvk_t *pvk = NULL;
    if (cuzk_params_open(&par, path_in("s.params"), check, 2, &err) != CUZK_OK ||
        cuzk_params_vk_read(&vk, path_in("s.vk"), &err) != CUZK_OK ||
        cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, &err) != CUZK_OK) {
        fprintf(stderr, "prove_verify: %s\n", err.msg);
        goto out;
    }
    uneven_synthesize(cs, p, &err);
    cuzk_groth16_witness_t w;
    cuzk_groth16_proof_t proof;
    const cuzk_groth16_pk_t *pk = NULL;
    if (cuzk_params_get(&pk, par, &err) != CUZK_OK || cuzk_cs_groth16_witness(cs, &w, &err) != CUZK_OK ||
        cuzk_groth16_prove(&proof, pk, &w, 1, NULL, &err) != CUZK_OK || cuzk_groth16_pvk_new(&pvk, &vk) != CUZK_OK) {
        fprintf(stderr, "prove_verify: %s\n", err.msg);
        goto out;
    }
    size_t n = w.num_inputs - 1;
    cuzk_scalar_t *inputs = malloc((n ? n : 1) * sizeof *inputs);
    for (size_t i = 0; i < n; i++)
        fr_to_scalar(&inputs[i], &w.input[i + 1]);
    if (tamper)
        inputs[tamper % n].l[0] ^= 1;
    bool valid = false;
    ok = cuzk_groth16_verify(&valid, pvk, &proof, inputs, n, &err) == CUZK_OK && valid;
    free(inputs);
out:
    cuzk_groth16_pvk_free(pvk);
    cuzk_cs_free(cs);
    cuzk_groth16_vk_free(&vk);
    cuzk_params_close(par);
    return ok;
}

static void test_same_key(void)
{
    const uneven_params cases[] = {
        {.seed = 11, .ni = 4, .f = 30, .nc = 60},   /* domain 64 */
        {.seed = 12, .ni = 1, .f = 3, .nc = 1},     /* tiny: the inputs' rows make the domain */
        {.seed = 13, .ni = 7, .f = 300, .nc = 1200} /* several chunks of Lagrange values per lane batch */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int threads = 1; threads <= 2; threads++) {
            g16_toxic_waste tw;
            fixed_waste(&tw);
            cuzk_err_t e1 = {{0}}, e2 = {{0}};
            cuzk_status st2;
            cuzk_status st1 = both_setups(&cases[c], &tw, threads, &e1, &e2, &st2);
            CHECK_MSG(st1 == CUZK_OK, "case %zu: in-memory setup: %s", c, e1.msg);
            CHECK_MSG(st2 == CUZK_OK, "case %zu: streamed setup: %s", c, e2.msg);
            CHECK_MSG(same_file(path_in("mem.params"), path_in("s.params")),
                      "case %zu, %d threads: the streamed .params differs from the in-memory setup's", c, threads);
            CHECK_MSG(same_file(path_in("mem.vk"), path_in("s.vk")),
                      "case %zu, %d threads: the streamed .vk differs", c, threads);
            if (threads == 2) {
                cuzk_params_check check = c == 0 ? CUZK_PARAMS_CHECK_SUBGROUP : CUZK_PARAMS_CHECK_CURVE;
                CHECK_MSG(prove_verify(&cases[c], 0, check), "case %zu: a proof under the streamed key does not verify",
                          c);
                CHECK_MSG(!prove_verify(&cases[c], 1 + c, check), "case %zu: a tampered input verifies", c);
            }
            clear_dir();
        }
    }
}

/* ---- failures: refusals, no file left behind ---- */

static int stop_after;
static bool stop_countdown(void *arg)
{
    (void)arg;
    return --stop_after < 0;
}

static void test_refusals(void)
{
    uneven_params p = {.seed = 21, .ni = 3, .f = 30, .nc = 300};
    g16_toxic_waste tw;
    fixed_waste(&tw);
    cuzk_err_t err = {{0}};
    g16_stream_opts o = {.threads = 2, .waste = &tw};
    /* an unconstrained variable: refused as the in-memory setup refuses it */
    uneven_params u = p;
    u.unconstrained = true;
    CHECK(g16_setup_stream(path_in("u.params"), path_in("u.vk"), uneven_synthesize, &u, &o, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(err.msg, "aux variable 30 is unconstrained") != NULL, "message: %s", err.msg);
    CHECK(dir_entries() == 0);
    /* a missing directory */
    char missing[200];
    snprintf(missing, sizeof missing, "%s/no/such", tmpdir);
    char pm[240], vm[240];
    snprintf(pm, sizeof pm, "%s.params", missing);
    snprintf(vm, sizeof vm, "%s.vk", missing);
    CHECK(g16_setup_stream(pm, vm, uneven_synthesize, &p, &o, &err) == CUZK_ERR_IO);
    /* stops at every stage (the count run, both passes, each section) leave nothing */
    for (int after = 0; after < 40; after += 3) {
        stop_after = after;
        o.should_stop = stop_countdown;
        cuzk_status st = g16_setup_stream(path_in("x.params"), path_in("x.vk"), uneven_synthesize, &p, &o, &err);
        if (st == CUZK_OK) {
            CHECK(dir_entries() == 2);
            clear_dir();
            break;
        }
        CHECK_MSG(st == CUZK_ERR_CANCELLED, "stop after %d polls: %s", after, err.msg);
        CHECK_MSG(dir_entries() == 0, "stop after %d polls left a file behind", after);
    }
    o.should_stop = NULL;
    /* a circuit whose passes differ from its count run (here: another plan given) */
    g16_stream_plan plan;
    CHECK(g16_stream_plan_circuit(&plan, uneven_synthesize, &p, NULL, NULL, NULL, NULL, &err) == CUZK_OK);
    plan.b_aux_density--;
    plan.b--;
    o.plan = &plan;
    CHECK(g16_setup_stream(path_in("y.params"), path_in("y.vk"), uneven_synthesize, &p, &o, &err) ==
          CUZK_ERR_INVALID_ARG);
    CHECK(dir_entries() == 0);
}

/* ---- the plan and the sink backend ---- */

typedef struct {
    size_t calls, terms;
    bool in_order;
} sink_count;

static void count_terms(void *arg, size_t index, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c)
{
    sink_count *k = arg;
    k->in_order &= index == k->calls;
    k->calls++;
    const cuzk_lc_t *l[3] = {a, b, c};
    for (int m = 0; m < 3; m++)
        for (size_t t = 0; t < cuzk_lc_len(l[m]); t++)
            k->terms += !fr_is_zero(&cuzk_lc_terms(l[m])[t].coeff);
}

static void test_sink_and_plan(void)
{
    uneven_params p = {.seed = 31, .ni = 5, .f = 60, .nc = 100};
    cuzk_err_t err = {{0}};
    cuzk_cs_t *count = NULL, *sink = NULL;
    CHECK(cuzk_cs_new(&count, CUZK_CS_COUNT, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    CHECK(cuzk_cs_new(&sink, CUZK_CS_SINK, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    if (!count || !sink)
        return;
    sink_count k = {0, 0, true};
    CHECK(cuzk_cs_sink_begin(count, count_terms, &k, &err) == CUZK_ERR_INVALID_ARG); /* another backend */
    CHECK(cuzk_cs_sink_begin(sink, NULL, &k, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_cs_sink_begin(sink, count_terms, &k, &err) == CUZK_OK);
    CHECK(cuzk_cs_sink_begin(sink, count_terms, &k, &err) == CUZK_ERR_INVALID_ARG); /* twice */
    CHECK(uneven_synthesize(count, &p, &err) == CUZK_OK);
    CHECK(uneven_synthesize(sink, &p, &err) == CUZK_OK);
    cuzk_cs_counts_t cc, cs_;
    cuzk_cs_counts(count, &cc);
    cuzk_cs_counts(sink, &cs_);
    CHECK(memcmp(&cc, &cs_, sizeof cc) == 0);
    CHECK(k.calls == p.nc && k.in_order && k.terms == cc.nnz_a + cc.nnz_b + cc.nnz_c);
    cuzk_cs_t *part = NULL;
    CHECK(cuzk_cs_new(&part, CUZK_CS_SINK, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    CHECK(part && cuzk_cs_extend(sink, part, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(!cuzk_cs_supports_pieces(sink));
    cuzk_cs_free(part);
    /* a constraint with no consumer fails the system */
    cuzk_cs_reset(sink);
    cuzk_lc_t a, b, c;
    cuzk_lc_init(&a, sink);
    cuzk_lc_init(&b, sink);
    cuzk_lc_init(&c, sink);
    cuzk_cs_enforce_free(sink, &a, &b, &c);
    CHECK(cuzk_cs_status(sink, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(count);
    cuzk_cs_free(sink);

    /* the plan: bellperson's lengths from the counts (1 + ni inputs, all dense in A) */
    g16_stream_plan plan;
    CHECK(g16_stream_plan_circuit(&plan, uneven_synthesize, &p, NULL, NULL, NULL, NULL, &err) == CUZK_OK);
    CHECK(plan.ic == p.ni + 1 && plan.l == p.f + p.nc && plan.a == plan.ic + cc.a_aux_density &&
          plan.b == cc.b_input_density + cc.b_aux_density && plan.h == 127 && plan.log_m == 7);
    CHECK(plan.params_bytes == cuzk_params_vk_size(plan.ic) + 20 + 96 * (plan.h + plan.l + plan.a + plan.b) +
                                   192 * plan.b);
}

int main(void)
{
    test_init("test_setup_stream");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cuzk_setup_stream_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    const ec_ifma_ops *real = ec_ifma_ops_real();
    static const unsigned widths[] = {5, G16_FB_WINDOW_SMALL, G16_FB_WINDOW_LARGE};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        check_fixed_base(widths[i], NULL, "Jacobian");
        check_fixed_base(widths[i], &ec_ifma_ops_emulated, "emulated lanes");
        if (real)
            check_fixed_base(widths[i], real, "IFMA lanes");
    }
    check_fixed_base(16, real ? real : &ec_ifma_ops_emulated, "the widest"); /* a G2 table of 96 MiB */
    test_sink_and_plan();
    test_same_key();
    test_refusals();
    clear_dir();
    rmdir(tmpdir);
    return test_finish();
}
