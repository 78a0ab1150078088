/* The PoSt product path on real production data (slow suite): curio's golden vanilla proof of a real 32GiB
 * sector (tests/vectors/filecoin, docs/REFERENCE.md §5; StackedDrgWindow32GiBV1, sector 1, randomness 0).
 * cuzk_post_check accepts it and refuses it under another randomness or sector index; its public inputs
 * are the published comm_r and leaves, repeated to the 2349 sectors of a partition (25,840 inputs with ONE,
 * as PR #1325's circuit figures give); and the whole 32GiB Window circuit built from it (that sector
 * repeated 2349 times, 125,279,217 constraints) is satisfied, synthesized in parallel chunks into the
 * check backend. A small circuit of the same sectors with one sibling changed is not satisfied. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/post.h"
#include "filecoin/fc_vectors.h"
#include "test_util.h"

static const char *GOLDEN_COMM_R = "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b";
static const uint64_t GOLDEN_LEAVES[10] = {707914199, 439148358,  967788220, 548708700,  1061661429,
                                           6202012,   1055504637, 389535735, 1000069704, 600088878};

/* The first constraint cfg's circuit leaves unsatisfied with w (-1: none), on the check backend. */
static int64_t unsatisfied(const cuzk_post_config_t *cfg, const cuzk_post_witness_t *w, int threads,
                           cuzk_cs_counts_t *counts)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    int64_t first = -2;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_CHECK, CUZK_LC_DEFAULT, &err);
    if (st == CUZK_OK)
        st = cuzk_post_synthesize(cs, cfg, w, threads, &err);
    if (st == CUZK_OK)
        st = cuzk_cs_test_unsatisfied(cs, &first, &err);
    CHECK_MSG(st == CUZK_OK, "%s", err.msg);
    if (st == CUZK_OK && counts)
        cuzk_cs_counts(cs, counts);
    cuzk_cs_free(cs);
    return first;
}

int main(void)
{
    test_init("test_post_api_slow");
    cuzk_err_t err = {{0}};
    cuzk_post_vanilla_t *v = NULL;
    CHECK_MSG(cuzk_post_vanilla_load(&v, FC_VECTORS "curio-32GiB-window-post.vproof", &err) == CUZK_OK, "%s", err.msg);
    cuzk_post_registered_proof_t p;
    CHECK(cuzk_post_registered_proof_parse(&p, "StackedDrgWindow32GiBV1", &err) == CUZK_OK && p.id == 8 &&
          p.sector_count == 2349);
    if (!v || p.id != 8)
        return test_finish();
    const cuzk_post_vanilla_t *vs[1] = {v};
    cuzk_post_request_t req = {.proof_id = 8, .miner_id = 1000, .vanilla = vs, .n_vanilla = 1};
    CHECK_MSG(cuzk_post_check(&req, &err) == CUZK_OK, "%s", err.msg);
    /* another randomness; the same sector as the second of a partition (V1_0: challenge indexes 10 + n) */
    cuzk_post_request_t bad = req;
    bad.randomness[0] = 1;
    CHECK(cuzk_post_check(&bad, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "sector 1") && strstr(err.msg, "leaf"));
    const cuzk_post_vanilla_t *two[2] = {v, v};
    bad = req;
    bad.vanilla = two;
    bad.n_vanilla = 2;
    CHECK(cuzk_post_check(&bad, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "vanilla 1 of 2"));

    /* public inputs: the published comm_r and leaves, then 2348 copies */
    size_t n = 0, want_n = 2349 * 11;
    cuzk_scalar_t *in = malloc(want_n * sizeof *in);
    CHECK(in && cuzk_post_public_inputs(in, want_n, &n, &req, &err) == CUZK_OK && n == want_n);
    uint8_t comm_r[32];
    CHECK(test_hex_decode(GOLDEN_COMM_R, comm_r, 32) == 32);
    cuzk_scalar_t c = {{0}};
    for (int i = 0; i < 4; i++)
        for (int j = 7; j >= 0; j--)
            c.l[i] = c.l[i] << 8 | comm_r[8 * i + j];
    int ok = n == want_n && memcmp(&in[0], &c, sizeof c) == 0;
    for (int k = 0; ok && k < 10; k++)
        ok = in[1 + k].l[0] == GOLDEN_LEAVES[k] && !in[1 + k].l[1] && !in[1 + k].l[2] && !in[1 + k].l[3];
    for (size_t i = 11; ok && i < n; i++)
        ok = memcmp(&in[i], &in[i % 11], sizeof *in) == 0;
    CHECK_MSG(ok, "the public inputs are not the published comm_r and leaves, repeated");
    free(in);

    /* the whole partition circuit from the vanilla proof, on the check backend */
    cuzk_post_witness_t w;
    CHECK_MSG(cuzk_post_request_witness(&w, &req, &err) == CUZK_OK, "%s", err.msg);
    if (w.sectors) {
        double t = test_thread_cpu_s();
        cuzk_cs_counts_t counts;
        int64_t first = unsatisfied(&w.cfg, &w, 2, &counts);
        CHECK_MSG(first == -1, "constraint %lld of the 32GiB Window circuit does not hold", (long long)first);
        CHECK(counts.num_constraints == 125279217 && counts.num_inputs == 25840);
        printf("32GiB Window PoSt partition: %zu constraints, %zu inputs, %zu aux, satisfied (%.1f s CPU, main "
               "thread)\n",
               counts.num_constraints, counts.num_inputs, counts.num_aux, test_thread_cpu_s() - t);

        /* two of its sectors, then the same with one sibling of the second's path 7 changed */
        cuzk_post_config_t small = w.cfg;
        small.sector_count = 2;
        cuzk_post_witness_t s;
        CHECK(cuzk_post_witness_init(&s, &small, &err) == CUZK_OK);
        size_t sib = cuzk_post_tree_siblings(&small), levels = cuzk_post_tree_levels(&small);
        for (int i = 0; i < 2 && s.sectors; i++) {
            cuzk_post_sector_witness_t *d = &s.sectors[i];
            const cuzk_post_sector_witness_t *from = &w.sectors[i];
            d->comm_r = from->comm_r, d->comm_c = from->comm_c, d->comm_r_last = from->comm_r_last;
            d->has_comms = true;
            for (uint32_t k = 0; k < small.challenge_count; k++) {
                memcpy(d->paths[k].siblings, from->paths[k].siblings, sib * sizeof(cuzk_fr_t));
                memcpy(d->paths[k].positions, from->paths[k].positions, levels * sizeof(uint32_t));
                d->paths[k].leaf = from->paths[k].leaf, d->paths[k].root = from->paths[k].root;
                d->paths[k].has_values = true;
            }
        }
        if (s.sectors) {
            CHECK(unsatisfied(&small, &s, 1, NULL) == -1);
            s.sectors[1].paths[7].siblings[3].l[0] ^= 1;
            CHECK(unsatisfied(&small, &s, 2, NULL) >= 0);
        }
        cuzk_post_witness_free(&s);
    }
    cuzk_post_witness_free(&w);
    cuzk_post_vanilla_free(v);
    return test_finish();
}
