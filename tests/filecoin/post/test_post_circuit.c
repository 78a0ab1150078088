/* The Fallback PoSt circuit (storage-proofs-post src/fallback/circuit.rs; docs/REFERENCE.md §8):
 *  - storage-proofs-post tests/fallback_circuit.rs, its six shapes (64 leaves per base tree, 5 challenges,
 *    sectors padded with the last one), synthesized from real witnesses on the test backend: satisfied,
 *    16,869 / 22,674 / 27,384 / 11,246 / 16,869 / 16,869 constraints, 19 / 19 / 19 / 13 / 19 / 19 inputs, and
 *    the inputs equal [comm_r, challenged leaf indexes...] per sector. The trees are built here by a slow
 *    oracle (neptune's textbook Poseidon permutation, level by level);
 *  - the same shapes on every backend: the same counts, densities equal where kept, the hash backend's hash
 *    equal to the test backend's, direct rows holding, the check backend's verdict equal to the test one's;
 *  - tampering (a sibling, comm_c, comm_r, a leaf, a position bit) makes the system unsatisfied, at the
 *    same first constraint on the test and check backends, sequential or joined;
 *  - production counts: Winning 2KiB..64GiB 90,750 / 230,670 / 300,630 / 370,590 (published, rust-fil-proofs
 *    PR #1325) / 391,314 with 133 inputs; Window 2KiB / 8MiB / 512MiB 21,866 / 64,266 / 85,466 with 23
 *    inputs; the ignored bench test's 266,665 (32GiB-sized 8-0-0 tree, 10 challenges, 5 sectors); Window
 *    32GiB and 64GiB with few sectors; and the cost model N = S·(313 + Ch·(P + 2)), P = Σ per level
 *    log2(a) + insert(a) + Poseidon(a), re-evaluated here from the published gadget counts, for every
 *    registered proof and random shapes (the full 32GiB / 64GiB partitions: test_post_circuit_slow);
 *  - parallel synthesis (1, 2, 3, 7 threads, sector counts that do not divide into the chunks) equal to
 *    sequential synthesis on count, witness, record, direct, test and check: every array;
 *  - stop requests reach every chunk; configuration and witness errors; circuit info. */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_test_compare.h"
#include "cuzk/post.h"
#include "ff/fr.h"
#include "filecoin/hash/poseidon.h"
#include "cs/cs_test_backends.h"
#include "test_util.h"

/* ---- a real tree R, by the slow oracle ------------------------------------------------------------ */

#define MAX_LEVELS 16

typedef struct {
    unsigned levels, arity[MAX_LEVELS];
    uint64_t width[MAX_LEVELS + 1]; /* nodes per level, leaves first */
    fr *node[MAX_LEVELS + 1];
} tree_t;

static fr textbook(unsigned arity, const fr *in)
{
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(arity);
    fr out;
    cuzk_poseidon_hash_textbook(&out, c, &c->merkle_tag, in);
    return out;
}

/* The levels' arities of cfg's tree: base levels up to the base trees' leaf count, then sub, then top. */
static unsigned arities(const cuzk_post_config_t *cfg, unsigned *a)
{
    uint64_t per = (uint64_t)(cfg->sub_arity ? cfg->sub_arity : 1) * (cfg->top_arity ? cfg->top_arity : 1);
    unsigned n = 0;
    for (uint64_t b = cfg->nodes / per; b > 1; b /= cfg->base_arity)
        a[n++] = cfg->base_arity;
    if (cfg->sub_arity)
        a[n++] = cfg->sub_arity;
    if (cfg->top_arity)
        a[n++] = cfg->top_arity;
    return n;
}

static void tree_build(tree_t *t, const cuzk_post_config_t *cfg)
{
    t->levels = arities(cfg, t->arity);
    t->width[0] = cfg->nodes;
    t->node[0] = malloc(cfg->nodes * sizeof(fr));
    for (uint64_t i = 0; i < cfg->nodes; i++)
        test_rand_fr(&t->node[0][i]);
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = t->arity[l];
        t->width[l + 1] = t->width[l] / a;
        t->node[l + 1] = malloc(t->width[l + 1] * sizeof(fr));
        for (uint64_t j = 0; j < t->width[l + 1]; j++)
            t->node[l + 1][j] = textbook(a, &t->node[l][j * a]);
    }
}

static void tree_free(tree_t *t)
{
    for (unsigned l = 0; l <= t->levels; l++)
        free(t->node[l]);
}

static const fr *tree_root(const tree_t *t) { return &t->node[t->levels][0]; }

/* The path of leaf idx: per level the siblings in the tree's order without the node itself. */
static void tree_path(const tree_t *t, uint64_t idx, cuzk_porep_path_t *p)
{
    size_t s = 0;
    uint64_t j = idx;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = t->arity[l];
        uint64_t first = j / a * a;
        p->positions[l] = (uint32_t)(j % a);
        for (unsigned k = 0; k < a; k++)
            if (first + k != j)
                p->siblings[s++] = t->node[l][first + k];
        j /= a;
    }
    p->leaf = t->node[0][idx];
    p->root = *tree_root(t);
    p->has_values = true;
}

/* One real sector: its tree, comm_c, comm_r = Poseidon2(comm_c, comm_r_last), challenged leaves. */
typedef struct {
    tree_t tree;
    fr comm_c, comm_r;
    uint64_t leaves[64];
} sector_t;

static void sector_make(sector_t *s, const cuzk_post_config_t *cfg)
{
    tree_build(&s->tree, cfg);
    test_rand_fr(&s->comm_c);
    fr pre[2] = {s->comm_c, *tree_root(&s->tree)};
    s->comm_r = textbook(2, pre);
    for (uint32_t c = 0; c < cfg->challenge_count && c < 64; c++)
        s->leaves[c] = test_rand_below(cfg->nodes);
}

/* Circuit sector i of the witness from real sector s; expected public inputs appended at *in. */
static void witness_sector(cuzk_post_witness_t *w, uint32_t i, const sector_t *s, fr **in)
{
    cuzk_post_sector_witness_t *ws = &w->sectors[i];
    ws->comm_r = s->comm_r;
    ws->comm_c = s->comm_c;
    ws->comm_r_last = *tree_root(&s->tree);
    ws->has_comms = true;
    *(*in)++ = s->comm_r;
    for (uint32_t c = 0; c < w->cfg.challenge_count; c++) {
        tree_path(&s->tree, s->leaves[c], &ws->paths[c]);
        fr_from_u64((*in)++, s->leaves[c]);
    }
}

/* ---- helpers ---------------------------------------------------------------------------------------- */

static cuzk_cs_t *synth(cuzk_cs_backend b, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w, int threads,
                        cuzk_status want)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_post_synthesize(cs, cfg, w, threads, &err);
    CHECK_MSG(st == want, "backend %d, %d threads: status %d (%s), expected %d", (int)b, threads, (int)st, err.msg,
              (int)want);
    return cs;
}

/* Published gadget counts (docs/REFERENCE.md §2): Poseidon of arity a, insert of a, and a tree level. */
static size_t poseidon_cost(unsigned a) { return a == 2 ? 311 : a == 4 ? 377 : a == 8 ? 505 : 761; }
static size_t insert_cost(unsigned a) { return a == 2 ? 2 : a == 4 ? 8 : a == 8 ? 22 : (size_t)a * (a - 1); }
static size_t level_cost(unsigned a) { return (size_t)__builtin_ctz(a) + insert_cost(a) + poseidon_cost(a); }

/* The cost model: per sector comm_r inputized (1), Poseidon2 (311), the equality (1); per challenge the
 * path's levels, the packed index (1) and the root equality (1). */
static size_t model(const cuzk_post_config_t *cfg)
{
    unsigned a[MAX_LEVELS];
    unsigned n = arities(cfg, a);
    size_t p = 0;
    for (unsigned l = 0; l < n; l++)
        p += level_cost(a[l]);
    return (size_t)cfg->sector_count * (313 + (size_t)cfg->challenge_count * (p + 2));
}

/* ---- storage-proofs-post tests/fallback_circuit.rs -------------------------------------------------- */

typedef struct {
    const char *name;
    uint32_t base, sub, top;
    uint32_t total, sector_count, partitions;
    size_t inputs, constraints;
} ref_case;

static const ref_case REF[6] = {
    {"single_partition_base_8", 8, 0, 0, 3, 3, 1, 19, 16869},
    {"single_partition_sub_8_4", 8, 4, 0, 3, 3, 1, 19, 22674},
    {"single_partition_top_8_4_2", 8, 4, 2, 3, 3, 1, 19, 27384},
    {"two_partitions_base_8", 8, 0, 0, 4, 2, 2, 13, 11246},
    {"single_partition_smaller_base_8", 8, 0, 0, 2, 3, 1, 19, 16869},
    {"two_partitions_smaller_base_8", 8, 0, 0, 5, 3, 2, 19, 16869},
};

static cuzk_post_config_t ref_config(const ref_case *r)
{
    uint32_t trees = (r->sub ? r->sub : 1) * (r->top ? r->top : 1);
    return (cuzk_post_config_t){.nodes = 64ull * trees,
                                .sector_count = r->sector_count,
                                .challenge_count = 5,
                                .base_arity = r->base,
                                .sub_arity = r->sub,
                                .top_arity = r->top};
}

/* Partition j's witness: sectors j·S.. of the proof, the last real one repeated to fill it
 * (compound.rs / vanilla.rs); *inputs gets the public inputs, ONE first. */
static void ref_witness(cuzk_post_witness_t *w, const cuzk_post_config_t *cfg, const sector_t *secs, uint32_t total,
                        uint32_t j, fr *inputs)
{
    CHECK(cuzk_post_witness_init(w, cfg, NULL) == CUZK_OK);
    fr *in = inputs;
    *in++ = FR_ONE;
    for (uint32_t i = 0; i < cfg->sector_count; i++) {
        uint32_t k = j * cfg->sector_count + i;
        witness_sector(w, i, &secs[k < total ? k : total - 1], &in);
    }
}

static void backends_agree(const char *name, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w,
                           cuzk_cs_t *tst)
{
    cuzk_cs_counts_t ct;
    cuzk_cs_counts(tst, &ct);
    for (size_t k = 0; k < CS_TEST_OTHER_BACKENDS; k++) {
        cuzk_cs_backend b = cs_test_other_backends[k];
        cuzk_cs_t *cs = synth(b, cfg, cs_test_backend_has_values(b) ? w : NULL, 1, CUZK_OK);
        cs_test_agrees_with_test(name, cs, tst);
        cuzk_cs_free(cs);
    }
    /* the hash backend streams the test backend's hash */
    char want[65] = "", got[65] = "";
    CHECK(cuzk_cs_test_hash(tst, want, NULL) == CUZK_OK);
    cuzk_cs_t *h = NULL;
    CHECK(cuzk_cs_new(&h, CUZK_CS_HASH, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_cs_hash_begin(h, ct.num_inputs, ct.num_aux, ct.num_constraints, NULL) == CUZK_OK);
    CHECK(cuzk_post_synthesize(h, cfg, NULL, 4, NULL) == CUZK_OK); /* threads: sequential all the same */
    CHECK(cuzk_cs_hash_finish(h, got, NULL) == CUZK_OK);
    CHECK_MSG(strcmp(want, got) == 0, "%s: hash %s vs test %s", name, got, want);
    cuzk_cs_free(h);
    /* circuit info: the count backend's figures and the same hash */
    cuzk_circuit_info_t info;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_post_circuit_info(&info, cfg, true, &err) == CUZK_OK, "%s", err.msg);
    CHECK(info.num_constraints == ct.num_constraints && info.num_inputs == ct.num_inputs &&
          info.num_aux == ct.num_aux && info.nnz_a == ct.nnz_a && info.b_aux_density == ct.b_aux_density);
    CHECK(info.has_hash && strcmp(info.hash, want) == 0);
}

/* Tampered copies of a satisfied witness: test and check agree on the first failing constraint,
 * sequentially and joined. */
static void tamper(const char *name, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *good)
{
    cuzk_post_witness_t w;
    CHECK(cuzk_post_witness_init(&w, cfg, NULL) == CUZK_OK);
    size_t sib = cuzk_post_tree_siblings(cfg);
    uint32_t lv = cuzk_post_tree_levels(cfg);
    for (int kind = 0; kind < 6; kind++) {
        /* copy every value */
        for (uint32_t s = 0; s < cfg->sector_count; s++) {
            cuzk_post_sector_witness_t *d = &w.sectors[s];
            const cuzk_post_sector_witness_t *g = &good->sectors[s];
            d->comm_r = g->comm_r, d->comm_c = g->comm_c, d->comm_r_last = g->comm_r_last, d->has_comms = true;
            for (uint32_t c = 0; c < cfg->challenge_count; c++) {
                memcpy(d->paths[c].siblings, g->paths[c].siblings, sib * sizeof(fr));
                memcpy(d->paths[c].positions, g->paths[c].positions, lv * sizeof(uint32_t));
                d->paths[c].leaf = g->paths[c].leaf, d->paths[c].root = g->paths[c].root;
                d->paths[c].has_values = true;
            }
        }
        uint32_t s = (uint32_t)test_rand_below(cfg->sector_count), c = (uint32_t)test_rand_below(cfg->challenge_count);
        cuzk_porep_path_t *p = &w.sectors[s].paths[c];
        fr one = FR_ONE;
        switch (kind) {
        case 0: {
            size_t i = test_rand_below(sib);
            fr_add(&p->siblings[i], &p->siblings[i], &one);
            break;
        }
        case 1: fr_add(&w.sectors[s].comm_c, &w.sectors[s].comm_c, &one); break;
        case 2: fr_add(&w.sectors[s].comm_r, &w.sectors[s].comm_r, &one); break;
        case 3: fr_add(&p->leaf, &p->leaf, &one); break;
        case 4: fr_add(&w.sectors[s].comm_r_last, &w.sectors[s].comm_r_last, &one); break;
        case 5: { /* another position at one level: another leaf, the path no longer fits */
            unsigned l = (unsigned)test_rand_below(lv);
            p->positions[l] ^= 1;
            break;
        }
        }
        cuzk_cs_t *t = synth(CUZK_CS_TEST, cfg, &w, 1, CUZK_OK);
        int64_t ut = cs_test_unsatisfied(t);
        CHECK_MSG(ut >= 0, "%s: tamper %d in sector %u challenge %u not seen", name, kind, s, c);
        for (int threads = 1; threads <= 3; threads += 2) {
            cuzk_cs_t *k = synth(CUZK_CS_CHECK, cfg, &w, threads, CUZK_OK);
            CHECK_MSG(cs_test_unsatisfied(k) == ut, "%s: tamper %d, %d threads: check %lld, test %lld", name, kind, threads,
                      (long long)cs_test_unsatisfied(k), (long long)ut);
            cuzk_cs_free(k);
        }
        cuzk_cs_t *tj = synth(CUZK_CS_TEST, cfg, &w, 3, CUZK_OK);
        CHECK(cs_test_unsatisfied(tj) == ut);
        cuzk_cs_free(tj);
        cuzk_cs_free(t);
    }
    cuzk_post_witness_free(&w);
}

static void reference_shapes(void)
{
    for (int r = 0; r < 6; r++) {
        const ref_case *rc = &REF[r];
        cuzk_post_config_t cfg = ref_config(rc);
        CHECK(cuzk_post_num_inputs(&cfg) == rc->inputs);
        CHECK_MSG(model(&cfg) == rc->constraints, "%s: model %zu", rc->name, model(&cfg));
        sector_t *secs = calloc(rc->total, sizeof *secs);
        for (uint32_t i = 0; i < rc->total; i++)
            sector_make(&secs[i], &cfg);
        for (uint32_t j = 0; j < rc->partitions; j++) {
            cuzk_post_witness_t w;
            fr *want = malloc(rc->inputs * sizeof(fr));
            ref_witness(&w, &cfg, secs, rc->total, j, want);
            cuzk_cs_t *t = synth(CUZK_CS_TEST, &cfg, &w, 1, CUZK_OK);
            cuzk_cs_counts_t c;
            cuzk_cs_counts(t, &c);
            CHECK_MSG(c.num_constraints == rc->constraints && c.num_inputs == rc->inputs,
                      "%s: %zu constraints, %zu inputs", rc->name, c.num_constraints, c.num_inputs);
            CHECK_MSG(cs_test_unsatisfied(t) == -1, "%s partition %u: not satisfied", rc->name, j);
            CHECK_MSG(memcmp(cuzk_cs_inputs(t), want, rc->inputs * sizeof(fr)) == 0, "%s: public inputs", rc->name);
            if (j == 0) {
                backends_agree(rc->name, &cfg, &w, t);
                if (r == 0 || r == 2)
                    tamper(rc->name, &cfg, &w);
            }
            cuzk_cs_free(t);
            cuzk_post_witness_free(&w);
            free(want);
        }
        for (uint32_t i = 0; i < rc->total; i++)
            tree_free(&secs[i].tree);
        free(secs);
    }
}

/* ---- production counts ------------------------------------------------------------------------------- */

static void production_counts(void)
{
    /* id, constraints, inputs */
    static const struct {
        uint32_t id;
        size_t constraints, inputs;
    } want[] = {{0, 90750, 133}, {1, 230670, 133}, {2, 300630, 133}, {3, 370590, 133}, {4, 391314, 133}, {5, 21866, 23},
                {6, 64266, 23},  {7, 85466, 23},   {10, 21866, 23},  {11, 64266, 23},  {12, 85466, 23}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cuzk_post_config_t cfg;
        CHECK(cuzk_post_config_for_proof(&cfg, want[i].id, NULL) == CUZK_OK);
        cuzk_circuit_info_t info;
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_post_circuit_info(&info, &cfg, false, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(info.num_constraints == want[i].constraints && info.num_inputs == want[i].inputs,
                  "proof %u: %zu constraints, %zu inputs", want[i].id, info.num_constraints, info.num_inputs);
        CHECK(model(&cfg) == want[i].constraints && cuzk_post_num_inputs(&cfg) == want[i].inputs);
        CHECK(!info.has_hash && info.b_input_density == 1); /* ONE alone in B, as in PoRep */
    }
    /* the 32GiB and 64GiB Window circuits are sector_count copies of one sector: a few of them here, the
     * whole partitions (125,279,217 and 129,887,900) in the slow test */
    for (uint32_t id = 8; id <= 14; id += 5) {
        for (uint32_t k = 8; k <= 9; k++) {
            cuzk_post_config_t cfg;
            CHECK(cuzk_post_config_for_proof(&cfg, id + k - 8, NULL) == CUZK_OK);
            size_t full = model(&cfg);
            CHECK(full == (k == 8 ? 125279217u : 129887900u));
            cfg.sector_count = 3;
            cuzk_circuit_info_t info;
            CHECK(cuzk_post_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
            CHECK_MSG(info.num_constraints == model(&cfg), "id %u: %zu", id + k - 8, info.num_constraints);
            CHECK(info.num_constraints / 3 * (k == 8 ? 2349 : 2300) == (k == 8 ? 125279217u : 129887900u));
        }
    }
    /* test_fallback_post_circuit_poseidon_base_8_bench_cs: 32GiB of an 8-0-0 tree, 10 challenges, 5 sectors */
    cuzk_post_config_t bench = {.nodes = 1ull << 30, .sector_count = 5, .challenge_count = 10, .base_arity = 8};
    cuzk_circuit_info_t info;
    CHECK(cuzk_post_circuit_info(&info, &bench, false, NULL) == CUZK_OK && info.num_constraints == 266665);
    /* the model against random shapes, 16-ary levels included */
    static const unsigned ar[4] = {2, 4, 8, 16};
    for (int r = 0; r < 12; r++) {
        cuzk_post_config_t cfg = {.base_arity = ar[test_rand_below(4)],
                                  .sector_count = 1 + (uint32_t)test_rand_below(3),
                                  .challenge_count = 1 + (uint32_t)test_rand_below(3)};
        cfg.sub_arity = test_rand_below(2) ? ar[test_rand_below(4)] : 0;
        cfg.top_arity = cfg.sub_arity && test_rand_below(2) ? ar[test_rand_below(4)] : 0;
        uint64_t base = cfg.base_arity;
        for (uint64_t l = test_rand_below(3); l > 0; l--)
            base *= cfg.base_arity;
        cfg.nodes = base * (cfg.sub_arity ? cfg.sub_arity : 1) * (cfg.top_arity ? cfg.top_arity : 1);
        CHECK(cuzk_post_circuit_info(&info, &cfg, false, NULL) == CUZK_OK);
        CHECK_MSG(info.num_constraints == model(&cfg) && info.num_inputs == cuzk_post_num_inputs(&cfg),
                  "%llu nodes %u-%u-%u, %u x %u: %zu, model %zu", (unsigned long long)cfg.nodes, cfg.base_arity,
                  cfg.sub_arity, cfg.top_arity, cfg.sector_count, cfg.challenge_count, info.num_constraints,
                  model(&cfg));
    }
}

/* ---- parallel chunks --------------------------------------------------------------------------------- */

static void joins_for(const char *name, const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w)
{
    static const cuzk_cs_backend bs[] = {CUZK_CS_COUNT,  CUZK_CS_WITNESS, CUZK_CS_RECORD,
                                         CUZK_CS_DIRECT, CUZK_CS_TEST,    CUZK_CS_CHECK};
    static const int threads[] = {2, 3, 7};
    for (size_t b = 0; b < sizeof bs / sizeof bs[0]; b++) {
        bool values = bs[b] != CUZK_CS_COUNT && bs[b] != CUZK_CS_RECORD;
        cuzk_cs_t *seq = NULL;
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            if (!seq)
                seq = synth(bs[b], cfg, values ? w : NULL, 1, CUZK_OK);
            cuzk_cs_t *par = synth(bs[b], cfg, values ? w : NULL, threads[t], CUZK_OK);
            char why[256] = "";
            CHECK_MSG(cs_test_same(seq, par, why, sizeof why), "%s, backend %d, %d threads: %s", name, (int)bs[b],
                      threads[t], why);
            cuzk_cs_free(par);
            if (bs[b] == CUZK_CS_RECORD) { /* the comparison took its record */
                cuzk_cs_free(seq);
                seq = NULL;
            }
        }
        cuzk_cs_free(seq);
    }
}

static void joins(void)
{
    /* 13 and 29 sectors: neither divides into the chunks of 2, 3 or 7 threads */
    cuzk_post_config_t cfgs[2] = {
        {.nodes = 64, .sector_count = 13, .challenge_count = 3, .base_arity = 8},
        {.nodes = 16, .sector_count = 29, .challenge_count = 1, .base_arity = 4, .sub_arity = 2, .top_arity = 2},
    };
    for (int k = 0; k < 2; k++) {
        const cuzk_post_config_t *cfg = &cfgs[k];
        sector_t s[2];
        sector_make(&s[0], cfg);
        sector_make(&s[1], cfg);
        cuzk_post_witness_t w;
        CHECK(cuzk_post_witness_init(&w, cfg, NULL) == CUZK_OK);
        fr *in = malloc(cuzk_post_num_inputs(cfg) * sizeof(fr)), *p = in;
        *p++ = FR_ONE;
        for (uint32_t i = 0; i < cfg->sector_count; i++)
            witness_sector(&w, i, &s[i % 2], &p);
        cuzk_cs_t *par = synth(CUZK_CS_TEST, cfg, &w, 3, CUZK_OK);
        CHECK(cs_test_unsatisfied(par) == -1);
        CHECK(memcmp(cuzk_cs_inputs(par), in, cuzk_post_num_inputs(cfg) * sizeof(fr)) == 0);
        cuzk_cs_free(par);
        joins_for(k ? "29 sectors" : "13 sectors", cfg, &w);
        /* a missing value fails the system, sequential or joined, with the same message */
        w.sectors[cfg->sector_count - 2].has_comms = false;
        cuzk_cs_t *f1 = synth(CUZK_CS_DIRECT, cfg, &w, 1, CUZK_ERR_INVALID_ARG);
        cuzk_cs_t *f3 = synth(CUZK_CS_DIRECT, cfg, &w, 3, CUZK_ERR_INVALID_ARG);
        cuzk_err_t e1 = {{0}}, e3 = {{0}};
        CHECK(cuzk_cs_status(f1, &e1) == cuzk_cs_status(f3, &e3) && strcmp(e1.msg, e3.msg) == 0);
        char where[32];
        snprintf(where, sizeof where, "sector %u", cfg->sector_count - 2);
        CHECK_MSG(strstr(e1.msg, where), "%s", e1.msg);
        cuzk_cs_free(f1), cuzk_cs_free(f3);
        cuzk_post_witness_free(&w);
        free(in);
        tree_free(&s[0].tree), tree_free(&s[1].tree);
    }
}

/* ---- stop requests ----------------------------------------------------------------------------------- */

static void stops(void)
{
    cuzk_post_config_t cfg = {.nodes = 64, .sector_count = 23, .challenge_count = 2, .base_arity = 8};
    for (int threads = 1; threads <= 7; threads += 2) {
        /* the pool asks the hook one call at a time: a plain counter */
        test_stop_counter never = {0, 0}, soon = {0, 5};
        cuzk_cs_t *cs = NULL;
        CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        cuzk_cs_set_stop(cs, test_stop_after, &never);
        CHECK(cuzk_post_synthesize(cs, &cfg, NULL, threads, NULL) == CUZK_OK);
        /* polled before every sector, in whichever system it is synthesized */
        CHECK_MSG(never.polls == 23, "%d threads: %d polls", threads, never.polls);
        bool (*fn)(void *);
        void *arg;
        cuzk_cs_get_stop(cs, &fn, &arg);
        CHECK(fn == test_stop_after && arg == &never); /* the caller's request is back in place */
        cuzk_cs_free(cs);
        CHECK(cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
        cuzk_cs_set_stop(cs, test_stop_after, &soon);
        cuzk_err_t err = {{0}};
        CHECK(cuzk_post_synthesize(cs, &cfg, NULL, threads, &err) == CUZK_ERR_CANCELLED);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        CHECK_MSG(c.num_constraints < model(&cfg), "%d threads: %zu constraints after the stop", threads,
                  c.num_constraints);
        cuzk_cs_free(cs);
    }
}

/* ---- errors ------------------------------------------------------------------------------------------ */

static void errors(void)
{
    cuzk_post_config_t good = {.nodes = 64, .sector_count = 2, .challenge_count = 2, .base_arity = 8};
    CHECK(cuzk_post_config_check(&good, NULL) == CUZK_OK);
    CHECK(cuzk_post_config_check(NULL, NULL) == CUZK_ERR_INVALID_ARG);
    struct {
        cuzk_post_config_t cfg;
        const char *word;
    } bad[] = {
        {{.nodes = 0, .sector_count = 2, .challenge_count = 2, .base_arity = 8}, "nodes"},
        {{.nodes = 48, .sector_count = 2, .challenge_count = 2, .base_arity = 8}, "nodes"},
        {{.nodes = 128, .sector_count = 2, .challenge_count = 2, .base_arity = 8}, "base arity"},
        {{.nodes = 64, .sector_count = 0, .challenge_count = 2, .base_arity = 8}, "sectors"},
        {{.nodes = 64, .sector_count = 2, .challenge_count = 0, .base_arity = 8}, "challenges"},
        {{.nodes = 64, .sector_count = 100000, .challenge_count = 2, .base_arity = 8}, "sectors"},
        {{.nodes = 64, .sector_count = 2, .challenge_count = 2, .base_arity = 3}, "arity"},
        {{.nodes = 64, .sector_count = 2, .challenge_count = 2, .base_arity = 8, .top_arity = 2}, "top"},
        {{.nodes = 64, .sector_count = 2, .challenge_count = 2, .base_arity = 64}, "arity"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cuzk_err_t err = {{0}};
        CHECK_MSG(cuzk_post_config_check(&bad[i].cfg, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, bad[i].word),
                  "case %zu: %s", i, err.msg);
        cuzk_post_witness_t w;
        CHECK(cuzk_post_witness_init(&w, &bad[i].cfg, NULL) == CUZK_ERR_INVALID_ARG && !w.storage_);
        cuzk_post_witness_free(&w);
        cuzk_cs_t *cs = synth(CUZK_CS_COUNT, &bad[i].cfg, NULL, 2, CUZK_ERR_INVALID_ARG);
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        CHECK(c.num_constraints == 0 && c.num_inputs == 1);
        cuzk_cs_free(cs);
    }
    /* a witness of another configuration */
    cuzk_post_witness_t w;
    CHECK(cuzk_post_witness_init(&w, &good, NULL) == CUZK_OK && w.sectors && w.sectors[1].paths);
    cuzk_post_config_t other = good;
    other.sector_count = 3;
    cuzk_err_t err = {{0}};
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_TEST, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    CHECK(cuzk_post_synthesize(cs, &other, &w, 1, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "witness"));
    cuzk_cs_free(cs);
    /* no values on a value backend: the missing assignment */
    cs = synth(CUZK_CS_WITNESS, &good, &w, 2, CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    cs = synth(CUZK_CS_DIRECT, &good, NULL, 1, CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    cuzk_post_witness_free(&w);
    cuzk_post_witness_free(&w); /* twice is fine */
    cuzk_post_witness_free(NULL);
    cuzk_circuit_info_t info;
    CHECK(cuzk_post_circuit_info(&info, &bad[0].cfg, false, NULL) == CUZK_ERR_INVALID_ARG);
    /* more threads than sectors: as many as there are sectors */
    cs = synth(CUZK_CS_COUNT, &good, NULL, 1 << 30, CUZK_OK);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    CHECK(c.num_constraints == model(&good) && c.num_inputs == cuzk_post_num_inputs(&good));
    cuzk_cs_free(cs);
}

int main(void)
{
    test_init("test_post_circuit");
    reference_shapes();
    production_counts();
    joins();
    stops();
    errors();
    return test_finish();
}
