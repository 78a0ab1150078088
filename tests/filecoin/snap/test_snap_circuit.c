/* The SnapDeals circuit (storage-proofs-update src/circuit.rs) on real instances:
 *  - a 2KiB partition (production shape) and the 1KiB test shape of tests/circuit.rs (8-4-0, h = hs[2]) built
 *    from whole trees (snap_fixture: textbook Poseidon, the SHA-256 node hash, vanilla.rs' encoding,
 *    challenges.rs' challenges) satisfy the circuit with the public inputs [ONE, k_and_h_select, comm_r_old,
 *    comm_d_new, comm_r_new]; every backend gives the same shape, the value-keeping ones the same
 *    assignment, the direct rows hold, circuit info's streamed hash is the test backend's;
 *  - a changed sibling (tree R old, tree D, tree R new), comm_r_new or comm_r_old (with leaf_r_new
 *    re-encoded under it), comm_c, an apex leaf, a leaf or a root leaves the system unsatisfied (check
 *    backend; the test backend finds the same first constraint); a leaf_r_new that is not the encoding (the
 *    reference asserts it) and a k beyond the partitions are refused;
 *  - on two threads (the challenges as pieces of the system) every backend that takes pieces gives the same
 *    system array for array, the same first unsatisfied constraint and the same refusals;
 *  - configuration, witness and value errors; stop requests. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/snap.h"
#include "ff/fr.h"
#include "snap_fixture.h"
#include "cs/cs_test_backends.h"
#include "cs/cs_test_compare.h"
#include "test_util.h"

/* ---- helpers ---------------------------------------------------------------------------------------- */

static unsigned log2u64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }

/* A synthesis on `threads` threads (the challenges as pieces of the system where the backend takes them). */
static cuzk_cs_t *synth_on(cuzk_cs_backend b, int threads, const cuzk_snap_config_t *cfg,
                           const cuzk_snap_witness_t *w, cuzk_status want)
{
    cuzk_cs_t *cs = cs_test_new(b);
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_snap_synthesize(cs, cfg, w, threads, &err);
    CHECK_MSG(st == want, "backend %d, %d threads: status %d (%s), expected %d", (int)b, threads, (int)st, err.msg,
              (int)want);
    return cs;
}

static cuzk_cs_t *synth(cuzk_cs_backend b, const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w,
                        cuzk_status want)
{
    return synth_on(b, 1, cfg, w, want);
}

/* ---- satisfaction, backends, tampering -------------------------------------------------------------------- */

static void backends_agree(const char *name, const cuzk_snap_config_t *cfg, const cuzk_snap_witness_t *w,
                           cuzk_cs_t *tst)
{
    cuzk_cs_counts_t ct;
    cuzk_cs_counts(tst, &ct);
    for (size_t k = 0; k < CS_TEST_OTHER_BACKENDS; k++) {
        cuzk_cs_backend b = cs_test_other_backends[k];
        /* the value-less backends get the witness too: its values are not read */
        cuzk_cs_t *cs = synth(b, cfg, w, CUZK_OK);
        cs_test_agrees_with_test(name, cs, tst);
        if (cuzk_cs_supports_pieces(cs)) { /* on two threads: the same system, array for array */
            cuzk_cs_t *two = synth_on(b, 2, cfg, w, CUZK_OK);
            char why[256] = "";
            CHECK_MSG(cs_test_same(cs, two, why, sizeof why), "%s: backend %d on two threads: %s", name, (int)b, why);
            cuzk_cs_free(two);
        }
        cuzk_cs_free(cs);
    }
    /* circuit info: the count backend's figures, and the hash backend's streamed hash = the test backend's */
    char want[65] = "";
    CHECK(cuzk_cs_test_hash(tst, want, NULL) == CUZK_OK);
    cuzk_circuit_info_t info;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_circuit_info(&info, cfg, true, &err) == CUZK_OK, "%s", err.msg);
    CHECK(info.num_constraints == ct.num_constraints && info.num_inputs == ct.num_inputs &&
          info.num_aux == ct.num_aux && info.nnz_a == ct.nnz_a && info.nnz_b == ct.nnz_b && info.nnz_c == ct.nnz_c &&
          info.b_aux_density == ct.b_aux_density);
    CHECK(info.has_hash && strcmp(info.hash, want) == 0);
}

static void witness_copy(cuzk_snap_witness_t *d, const cuzk_snap_witness_t *s)
{
    const cuzk_snap_config_t *cfg = &s->cfg;
    size_t r = cuzk_snap_tree_r_siblings(cfg), dl = cuzk_snap_tree_d_levels(cfg);
    CHECK(cuzk_snap_witness_init(d, cfg, NULL) == CUZK_OK);
    d->has_values = s->has_values, d->k = s->k;
    d->comm_r_old = s->comm_r_old, d->comm_d_new = s->comm_d_new, d->comm_r_new = s->comm_r_new;
    d->comm_c = s->comm_c, d->root_r_old = s->root_r_old, d->root_r_new = s->root_r_new;
    memcpy(d->apex_leaves, s->apex_leaves, cfg->apex_leaf_count * sizeof(fr));
    for (uint32_t c = 0; c < cfg->challenge_count; c++) {
        cuzk_snap_challenge_witness_t *x = &d->challenges[c];
        const cuzk_snap_challenge_witness_t *y = &s->challenges[c];
        x->leaf_r_old = y->leaf_r_old, x->leaf_d_new = y->leaf_d_new, x->leaf_r_new = y->leaf_r_new;
        memcpy(x->siblings_r_old, y->siblings_r_old, r * sizeof(fr));
        memcpy(x->siblings_d_new, y->siblings_d_new, dl * sizeof(fr));
        memcpy(x->siblings_r_new, y->siblings_r_new, r * sizeof(fr));
    }
}

/* leaf_r_new of every challenge re-encoded under phi and the challenges chal (vanilla.rs: old + data·rho,
 * rho = Poseidon2^Custom(1)(phi, c >> (log2 nodes − h))), by the fixture's oracle. */
static void reencode(cuzk_snap_witness_t *w, const snap_fixture_t *f, const fr *phi, const uint64_t *chal)
{
    for (uint32_t c = 0; c < w->cfg.challenge_count; c++) {
        cuzk_snap_challenge_witness_t *cw = &w->challenges[c];
        fr high, rho, t;
        fr_from_u64(&high, chal[c] >> (f->d_levels - w->cfg.h));
        snap_fixture_poseidon2(&rho, phi, &high, true);
        fr_mul(&t, &cw->leaf_d_new, &rho);
        fr_add(&cw->leaf_r_new, &cw->leaf_r_old, &t);
    }
}

/* Changed copies of a satisfied witness: unsatisfied on the check backend (and on the test backend at the
 * same first constraint, with compare). comm_r_old and comm_r_new change rho (through phi and the
 * challenges): leaf_r_new is re-encoded so that the constraints, not the reference's assertion, must tell. */
static void tamper(const char *name, const snap_fixture_t *f, const cuzk_snap_witness_t *good, unsigned kinds,
                   bool compare)
{
    const cuzk_snap_config_t *cfg = &good->cfg;
    size_t r = cuzk_snap_tree_r_siblings(cfg);
    unsigned n_sha = log2u64(cfg->nodes) - log2u64(cfg->partition_count) - log2u64(cfg->apex_leaf_count);
    static const char *const what[] = {"tree R old sibling", "tree D sibling", "tree R new sibling", "comm_r_new",
                                       "comm_r_old",         "comm_c",         "apex leaf",          "leaf_r_old",
                                       "root_r_new"};
    uint64_t *chal = malloc(cfg->challenge_count * sizeof *chal);
    for (int kind = 0; kind < 9; kind++) {
        if (!(kinds >> kind & 1))
            continue;
        cuzk_snap_witness_t w;
        witness_copy(&w, good);
        uint32_t c = (uint32_t)test_rand_below(cfg->challenge_count);
        cuzk_snap_challenge_witness_t *cw = &w.challenges[c];
        fr *x = NULL;
        switch (kind) {
        case 0: x = &cw->siblings_r_old[test_rand_below(r)]; break;
        case 1: x = &cw->siblings_d_new[test_rand_below(n_sha)]; break;
        case 2: x = &cw->siblings_r_new[test_rand_below(r)]; break;
        case 3: { /* the challenges follow comm_r_new */
            fr_add(&w.comm_r_new, &w.comm_r_new, &FR_ONE);
            uint8_t b[32];
            fr_to_bytes_le(b, &w.comm_r_new);
            CHECK(cuzk_snap_challenges(chal, cfg, b, w.k, NULL) == CUZK_OK);
            reencode(&w, f, &f->phi, chal);
            break;
        }
        case 4: { /* phi follows comm_r_old */
            fr phi;
            fr_add(&w.comm_r_old, &w.comm_r_old, &FR_ONE);
            snap_fixture_poseidon2(&phi, &w.comm_d_new, &w.comm_r_old, true);
            uint8_t b[32];
            fr_to_bytes_le(b, &w.comm_r_new);
            CHECK(cuzk_snap_challenges(chal, cfg, b, w.k, NULL) == CUZK_OK);
            reencode(&w, f, &phi, chal);
            break;
        }
        case 5: x = &w.comm_c; break;
        case 6: x = &w.apex_leaves[test_rand_below(cfg->apex_leaf_count)]; break;
        case 7: /* leaf_r_new follows, so that only the tree-R paths can tell */
            fr_add(&cw->leaf_r_old, &cw->leaf_r_old, &FR_ONE);
            x = &cw->leaf_r_new;
            break;
        case 8: x = &w.root_r_new; break;
        }
        if (x)
            fr_add(x, x, &FR_ONE);
        /* half the changes checked on two threads */
        cuzk_cs_t *k = synth_on(CUZK_CS_CHECK, 1 + (kind & 1), cfg, &w, CUZK_OK);
        int64_t uk = cs_test_unsatisfied(k);
        CHECK_MSG(uk >= 0, "%s: a changed %s (challenge %u) satisfies", name, what[kind], c);
        if (compare && kind == 0) {
            cuzk_cs_t *t = synth(CUZK_CS_TEST, cfg, &w, CUZK_OK), *k2 = synth_on(CUZK_CS_CHECK, 2, cfg, &w, CUZK_OK);
            CHECK_MSG(cs_test_unsatisfied(t) == uk && cs_test_unsatisfied(k2) == uk,
                      "%s: %s: test %lld, check %lld, check on two threads %lld", name, what[kind],
                      (long long)cs_test_unsatisfied(t), (long long)uk, (long long)cs_test_unsatisfied(k2));
            cuzk_cs_free(t);
            cuzk_cs_free(k2);
        }
        cuzk_cs_free(k);
        cuzk_snap_witness_free(&w);
    }
    free(chal);
    /* refused: a leaf_r_new that is not the encoding (the reference asserts it), k beyond the partitions */
    cuzk_snap_witness_t w;
    witness_copy(&w, good);
    uint32_t last = cfg->challenge_count - 1;
    fr_add(&w.challenges[last].leaf_r_new, &w.challenges[last].leaf_r_new, &FR_ONE);
    cuzk_err_t err = {{0}};
    char where[32];
    snprintf(where, sizeof where, "challenge %u", last);
    for (int threads = 1; threads <= 2; threads++) {
        cuzk_cs_t *cs = synth_on(CUZK_CS_WITNESS, threads, cfg, &w, CUZK_ERR_MISMATCH);
        CHECK(cuzk_cs_status(cs, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, where) &&
              strstr(err.msg, "leaf_r_new"));
        cuzk_cs_free(cs);
    }
    cuzk_snap_witness_free(&w);
    witness_copy(&w, good);
    w.k = cfg->partition_count;
    cuzk_cs_t *cs = cs_test_new(CUZK_CS_TEST);
    CHECK(cuzk_snap_synthesize(cs, cfg, &w, 1, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "partition"));
    CHECK(cs_test_num_constraints(cs) == 0);
    cuzk_cs_free(cs);
    cuzk_snap_witness_free(&w);
}

/* A real instance of cfg: every partition satisfied with the expected public inputs (test backend for
 * partition 0 with full, else check); with full also every backend and the test backend's verdicts on the
 * changes; the changes of tamper_kinds (bit i: change i of tamper). */
static void real_instance(const char *name, const cuzk_snap_config_t *cfg, size_t constraints, bool full,
                          unsigned tamper_kinds)
{
    snap_fixture_t f;
    snap_fixture_make(&f, cfg);
    for (uint32_t k = 0; k < cfg->partition_count; k++) {
        cuzk_snap_witness_t w;
        fr want[CUZK_SNAP_NUM_INPUTS];
        snap_fixture_witness(&w, &f, k, want, NULL);
        cuzk_cs_t *t = synth(full && k == 0 ? CUZK_CS_TEST : CUZK_CS_CHECK, cfg, &w, CUZK_OK);
        CHECK_MSG(cs_test_num_constraints(t) == constraints, "%s: %zu constraints", name, cs_test_num_constraints(t));
        CHECK_MSG(cs_test_unsatisfied(t) == -1, "%s partition %u: not satisfied (constraint %lld)", name, k,
                  (long long)cs_test_unsatisfied(t));
        CHECK_MSG(memcmp(cuzk_cs_inputs(t), want, sizeof want) == 0, "%s: public inputs", name);
        if (k == 0) {
            if (full)
                backends_agree(name, cfg, &w, t);
            tamper(name, &f, &w, tamper_kinds, full);
        }
        cuzk_cs_free(t);
        cuzk_snap_witness_free(&w);
    }
    snap_fixture_free(&f);
}

/* ---- stop requests, errors ----------------------------------------------------------------------------------- */

static void stops(void)
{
    cuzk_snap_config_t cfg = snap_fixture_config(2048, 3);
    test_stop_counter never = {0, 0}, soon = {0, 4};
    cuzk_cs_t *cs = cs_test_new(CUZK_CS_COUNT);
    cuzk_cs_set_stop(cs, test_stop_after, &never);
    CHECK(cuzk_snap_synthesize(cs, &cfg, NULL, 1, NULL) == CUZK_OK);
    CHECK_MSG(never.polls == (int)cfg.challenge_count, "%d polls", never.polls); /* before each challenge */
    cuzk_cs_free(cs);
    /* on two threads: still once before each challenge (through the pieces), and a stop stops them all */
    test_stop_counter never2 = {0, 0}, soon2 = {0, 4};
    cs = cs_test_new(CUZK_CS_COUNT);
    cuzk_cs_set_stop(cs, test_stop_after, &never2);
    CHECK(cuzk_snap_synthesize(cs, &cfg, NULL, 2, NULL) == CUZK_OK);
    CHECK_MSG(never2.polls == (int)cfg.challenge_count, "%d polls on two threads", never2.polls);
    cuzk_cs_free(cs);
    cs = cs_test_new(CUZK_CS_COUNT);
    cuzk_cs_set_stop(cs, test_stop_after, &soon2);
    CHECK(cuzk_snap_synthesize(cs, &cfg, NULL, 2, NULL) == CUZK_ERR_CANCELLED);
    cuzk_cs_free(cs);
    cs = cs_test_new(CUZK_CS_RECORD);
    cuzk_cs_set_stop(cs, test_stop_after, &soon);
    CHECK(cuzk_snap_synthesize(cs, &cfg, NULL, 1, NULL) == CUZK_ERR_CANCELLED);
    CHECK(cs_test_num_constraints(cs) < 1705039);
    cuzk_cs_free(cs);
}

static void errors(void)
{
    cuzk_snap_config_t good = snap_fixture_config(2048, 3);
    cuzk_snap_config_t bad[4] = {good, good, good, good};
    bad[0].nodes = 48;
    bad[1].challenge_count = 11;
    bad[2].h = 2;
    bad[3].base_arity = 4;
    for (int i = 0; i < 4; i++) {
        cuzk_err_t err = {{0}};
        cuzk_cs_t *cs = synth(CUZK_CS_COUNT, &bad[i], NULL, CUZK_ERR_INVALID_ARG);
        CHECK(cs_test_num_constraints(cs) == 0);
        cuzk_cs_free(cs);
        cuzk_snap_witness_t w;
        CHECK(cuzk_snap_witness_init(&w, &bad[i], &err) == CUZK_ERR_INVALID_ARG && !w.storage_);
        cuzk_snap_witness_free(&w);
        cuzk_circuit_info_t info;
        CHECK(cuzk_snap_circuit_info(&info, &bad[i], false, NULL) == CUZK_ERR_INVALID_ARG && info.num_constraints == 0);
    }
    /* a witness of another configuration (the 2KiB one for the 1KiB test shape) */
    cuzk_snap_witness_t w;
    CHECK(cuzk_snap_witness_init(&w, &good, NULL) == CUZK_OK && w.apex_leaves && w.challenges &&
          w.challenges[9].siblings_r_new && !w.has_values);
    cuzk_snap_config_t other = snap_fixture_config(1024, 3);
    cuzk_err_t err = {{0}};
    cuzk_cs_t *cs = cs_test_new(CUZK_CS_TEST);
    CHECK(cuzk_snap_synthesize(cs, &other, &w, 1, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "witness"));
    cuzk_cs_free(cs);
    /* no values where the backend needs them: the witness without values, or none */
    cs = synth(CUZK_CS_WITNESS, &good, &w, CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    cs = synth(CUZK_CS_DIRECT, &good, NULL, CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    /* a witness without values is the blank circuit on the count backend */
    cs = synth(CUZK_CS_COUNT, &good, &w, CUZK_OK);
    CHECK(cs_test_num_constraints(cs) == 1705039);
    cuzk_cs_free(cs);
    cuzk_snap_witness_free(&w);
    cuzk_snap_witness_free(&w); /* twice is fine */
    cuzk_snap_witness_free(NULL);
}

int main(void)
{
    test_init("test_snap_circuit");
    cuzk_snap_config_t c2k = snap_fixture_config(2048, 3), c1k = snap_fixture_config(1024, 2);
    /* the changes split between the two instances (each synthesis takes a while) */
    real_instance("2KiB (production)", &c2k, 1705039, true, 0x14d);
    real_instance("1KiB (8-4-0, h = hs[2])", &c1k, 1248389, false, 0x0b2);
    stops();
    errors();
    return test_finish();
}
