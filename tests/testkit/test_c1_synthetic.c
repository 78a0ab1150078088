/* Synthetic C1 outputs: for 2KiB, 8MiB, 512MiB and 32GiB (with --slow: 64GiB, and 32GiB at API 1.0) they
 * pass cuzk_fc_c1_verify, the seed's challenges and the replica_id check of their miner and sector, and
 * survive JSON (and Curio wrapper) write → parse. Independent checks: the whole trees D, C and R hashed over
 * the same leaves give the C1's roots (2KiB), partition 0 of a 2KiB one satisfies the PoRep circuit, and its
 * JSON has the same skeleton as a really sealed sector's. A damaged path, row or label is refused naming the
 * field; kinds whose challenges follow comm_r are refused unless asked for. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "filecoin/vanilla/c1_json.h"
#include "testkit/c1_synthetic.h"
#include "filecoin/porep/porep_circuit_c1.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/fc_porep_test.h"
#include "filecoin/fc_seal_test.h"
#include "test_util.h"

static const cuzk_fc_seal_proof_t *proof(const char *name)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    CHECK(cuzk_fc_seal_proof_parse(&p, name, NULL) == CUZK_OK);
    return p;
}

static bool make(cuzk_fc_c1_t *c1, const char *name, uint64_t miner, uint64_t sector, const uint8_t sb[32])
{
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_fc_c1_synthetic(c1, proof(name), miner, sector, sb, 0, 1 + (int)test_rand_below(2), &err);
    CHECK_MSG(st == CUZK_OK, "%s: %s", name, err.msg);
    return st == CUZK_OK;
}

/* JSON write → parse gives the same model; with `full`, also through Curio's wrapper with every check. */
static void round_trip(const cuzk_fc_c1_t *c1, uint64_t miner, uint64_t sector, bool full)
{
    char *j = NULL, *w = NULL;
    size_t jl = 0, wl = 0;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_c1_json_write(&j, &jl, c1, &err) == CUZK_OK);
    cuzk_fc_c1_t b;
    cuzk_status st = cuzk_fc_c1_json_parse(&b, j, jl, full ? 0 : CUZK_FC_C1_PARSE_NO_VERIFY, &err);
    CHECK_MSG(st == CUZK_OK, "%s: parse: %s", c1->proof->name, err.msg);
    if (st == CUZK_OK)
        CHECK(cuzk_fc_c1_compare(c1, &b) == 0);
    cuzk_fc_c1_free(&b);
    if (full) {
        CHECK(cuzk_fc_c1_wrapper_write(&w, &wl, j, jl, sector, c1->proof->sector_size, NULL) == CUZK_OK);
        cuzk_fc_c1_wrapper_info_t info;
        st = cuzk_fc_c1_parse_any(&b, &info, w, wl, 0, &err);
        CHECK_MSG(st == CUZK_OK, "%s: wrapper: %s", c1->proof->name, err.msg);
        if (st == CUZK_OK) {
            CHECK(info.wrapped && info.sector_num == sector && info.sector_size == c1->proof->sector_size);
            CHECK(cuzk_fc_c1_compare(c1, &b) == 0);
            CHECK(cuzk_porep_c1_check_sector(&b, c1->proof->sector_size, &info, &sector, &miner, NULL) == CUZK_OK);
        }
        cuzk_fc_c1_free(&b);
    }
    free(j);
    free(w);
}

/* Passes every check a prover makes, for its own miner and sector and no other. */
static void all_checks(const cuzk_fc_c1_t *c1, uint64_t miner, uint64_t sector)
{
    cuzk_err_t err = {{0}};
    const char *name = c1->proof->name;
    CHECK_MSG(cuzk_fc_c1_verify(c1, &err) == CUZK_OK, "%s: verify: %s", name, err.msg);
    CHECK_MSG(cuzk_fc_c1_check_challenges(c1, &err) == CUZK_OK, "%s: challenges: %s", name, err.msg);
    CHECK_MSG(cuzk_porep_c1_check_sector(c1, c1->proof->sector_size, NULL, &sector, &miner, &err) == CUZK_OK,
              "%s: sector: %s", name, err.msg);
    uint64_t other = miner + 1;
    CHECK(cuzk_porep_c1_check_sector(c1, 0, NULL, &sector, &other, NULL) == CUZK_ERR_MISMATCH);
    other = sector + 1;
    CHECK(cuzk_porep_c1_check_sector(c1, 0, NULL, &other, &miner, NULL) == CUZK_ERR_MISMATCH);
    CHECK(c1->n_partitions == c1->proof->partitions &&
          c1->challenges_per_partition == c1->proof->challenges_per_partition);
}

static void test_sizes(bool slow)
{
    static const char *fast[] = {"StackedDrg2KiBV1_1", "StackedDrg2KiBV1", "StackedDrg8MiBV1_1",
                                 "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1"};
    static const char *slow_only[] = {"StackedDrg64GiBV1_1", "StackedDrg32GiBV1"};
    const char **names = slow ? slow_only : fast;
    size_t n = slow ? 2 : 5;
    for (size_t i = 0; i < n; i++) {
        uint8_t sb[32];
        test_rand_bytes(sb, 32);
        uint64_t miner = test_rand64() >> 24, sector = test_rand64() >> 20;
        cuzk_fc_c1_t c1;
        if (!make(&c1, names[i], miner, sector, sb))
            continue;
        all_checks(&c1, miner, sector);
        /* The whole parse again with its checks is seconds for 32GiB: the shapes up to 512MiB and, in
         * the slow run, 64GiB take it; 32GiB compares the unchecked parse with the checked model. */
        bool huge = c1.proof->sector_size > (512ull << 20);
        round_trip(&c1, miner, sector, !huge || slow);
        if (!huge) { /* the same bytes give the same C1; other bytes another */
            cuzk_fc_c1_t again;
            if (make(&again, names[i], miner, sector, sb)) {
                CHECK(cuzk_fc_c1_compare(&c1, &again) == 0);
                cuzk_fc_c1_free(&again);
            }
            sb[0] ^= 1;
            if (make(&again, names[i], miner, sector, sb)) {
                CHECK(cuzk_fc_c1_compare(&c1, &again) != 0 && memcmp(c1.seed, again.seed, 32) != 0);
                cuzk_fc_c1_free(&again);
            }
        }
        cuzk_fc_c1_free(&c1);
    }
}

/* ---- the whole trees over the same leaves ---- */

static void fold(uint8_t root[32], uint8_t *lv, uint64_t n, unsigned arity)
{
    for (; n > 1; n /= arity)
        for (uint64_t g = 0; g < n / arity; g++)
            CHECK(cuzk_poseidon_node(lv + g * 32, arity, lv + g * arity * 32, NULL) == CUZK_OK);
    memcpy(root, lv, 32);
}

static void column_hash(uint8_t out[32], const cuzk_fc_c1_column_t *c, uint32_t layers)
{
    fr rows[CUZK_FC_C1_MAX_LAYERS], h;
    for (uint32_t l = 0; l < layers; l++)
        CHECK(fr_from_bytes_le(&rows[l], c->rows[l]));
    CHECK(cuzk_poseidon_hash(&h, layers, rows, NULL) == CUZK_OK);
    fr_to_bytes_le(out, &h);
}

/* Trees of base-only shape (2KiB..512MiB) hashed in full: tree D over nodes equal data nodes (sha256_tree.h's
 * full-tree code), tree C with every shown column's hash at its index, tree R with every challenge's last
 * label + data node; the other leaves the synthetic sector's defaults. */
static void test_full_trees(const char *name)
{
    uint8_t sb[32], d[32], dc[32], dr[32];
    test_rand_bytes(sb, 32);
    cuzk_fc_c1_t c1;
    if (!make(&c1, name, 1000, 1, sb))
        return;
    cuzk_fc_c1_synthetic_defaults(d, dc, dr, sb);
    uint64_t n = c1.proof->nodes;
    uint32_t L = c1.proof->layers;
    uint8_t *data = malloc(n * 32), *tc = malloc(n * 32), *tr = malloc(n * 32), root[32];
    for (uint64_t i = 0; i < n; i++) {
        memcpy(data + i * 32, d, 32);
        memcpy(tc + i * 32, dc, 32);
        memcpy(tr + i * 32, dr, 32);
    }
    CHECK(cuzk_fc_comm_d(root, data, n * 32, 1, NULL) == CUZK_OK);
    CHECK_MSG(memcmp(root, c1.comm_d, 32) == 0, "%s: comm_d is not tree D's root over the data nodes", name);
    fr dv, key;
    CHECK(fr_from_bytes_le(&dv, d));
    for (size_t j = 0; j < (size_t)c1.n_partitions * c1.challenges_per_partition; j++) {
        const cuzk_fc_c1_vproof_t *v = &c1.vproofs[j];
        const cuzk_fc_c1_column_t *cols[1 + CUZK_FC_PARENTS] = {&v->c_x};
        for (int q = 0; q < CUZK_FC_PARENTS; q++)
            cols[1 + q] = q < CUZK_FC_DRG_DEGREE ? &v->drg[q] : &v->exp[q - CUZK_FC_DRG_DEGREE];
        for (int q = 0; q <= CUZK_FC_PARENTS; q++)
            column_hash(tc + (uint64_t)cols[q]->index * 32, cols[q], L);
        CHECK(fr_from_bytes_le(&key, v->c_x.rows[L - 1]));
        fr_add(&key, &key, &dv);
        fr_to_bytes_le(tr + (uint64_t)v->c_x.index * 32, &key);
    }
    uint8_t comm_c[32], comm_r_last[32];
    fold(comm_c, tc, n, 8);
    fold(comm_r_last, tr, n, 8);
    CHECK_MSG(memcmp(comm_c, c1.vproofs[0].c_x.path.root, 32) == 0, "%s: comm_c is not tree C's root", name);
    CHECK_MSG(memcmp(comm_r_last, c1.vproofs[0].comm_r_last.root, 32) == 0, "%s: comm_r_last is not tree R's root",
              name);
    fr two[2], r;
    CHECK(fr_from_bytes_le(&two[0], comm_c) && fr_from_bytes_le(&two[1], comm_r_last));
    CHECK(cuzk_poseidon_hash(&r, 2, two, NULL) == CUZK_OK);
    fr_to_bytes_le(root, &r);
    CHECK(memcmp(root, c1.comm_r, 32) == 0);
    free(data);
    free(tc);
    free(tr);
    cuzk_fc_c1_free(&c1);
}

/* ---- 2KiB: the circuit, a sealed sector's skeleton, challenged parents ---- */

static void test_circuit(void)
{
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    cuzk_fc_c1_t c1;
    if (!make(&c1, "StackedDrg2KiBV1_1", 1000, 7, sb))
        return;
    cuzk_porep_witness_t w;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_witness_from_c1(&w, &c1, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(fc_test_porep_holds(&w.cfg, &w, NULL, 0, true),
              "the synthetic 2KiB C1's partition 0 does not satisfy the PoRep circuit");
    fr_add(&w.challenges[0].drg_parents[1].rows[0], &w.challenges[0].drg_parents[1].rows[0], &FR_ONE);
    CHECK_MSG(!fc_test_porep_holds(&w.cfg, &w, NULL, 0, true), "a tampered parent label still satisfies");
    cuzk_porep_witness_free(&w);
    cuzk_fc_c1_free(&c1);
}

/* JSON with every run of digits replaced by one 0: the field names, nesting and array lengths. */
static char *skeleton(const cuzk_fc_c1_t *c1)
{
    char *j = NULL;
    size_t jl = 0;
    CHECK(cuzk_fc_c1_json_write(&j, &jl, c1, NULL) == CUZK_OK);
    if (!j)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < jl; i++) {
        bool dig = j[i] >= '0' && j[i] <= '9';
        if (dig && o && j[o - 1] == '0' && i && j[i - 1] >= '0' && j[i - 1] <= '9')
            continue;
        j[o++] = dig ? '0' : j[i];
    }
    j[o] = 0;
    return j;
}

static void test_sealed_shape(void)
{
    cuzk_fc_sealed_t s;
    cuzk_fc_c1_t real, syn;
    if (!fc_test_seal_2kib(&s, &real, NULL))
        return;
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    if (make(&syn, real.proof->name, 1000, 7, sb)) {
        CHECK(syn.proof == real.proof && syn.n_partitions == real.n_partitions &&
              syn.challenges_per_partition == real.challenges_per_partition);
        char *a = skeleton(&real), *b = skeleton(&syn);
        CHECK_MSG(a && b && strcmp(a, b) == 0, "the synthetic C1's JSON skeleton differs from a sealed sector's");
        free(a);
        free(b);
        cuzk_fc_c1_free(&syn);
    }
    cuzk_fc_c1_free(&real);
    cuzk_fc_sealed_free(&s);
}

/* A node shown in several columns has the same rows in all; a challenged node shown as a DRG or expander
 * parent of another challenge shows its labels there (they feed that challenge's labels of the same layer or
 * the one above). 2KiB's 64 nodes make both frequent: seeds are tried until each has happened. */
static void test_challenged_parents(void)
{
    int found[2] = {0, 0}; /* DRG, expander */
    for (int tries = 0; tries < 5000 && !(found[0] && found[1]); tries++) {
        uint8_t sb[32];
        test_rand_bytes(sb, 32);
        cuzk_fc_c1_t c1;
        if (!make(&c1, "StackedDrg2KiBV1_1", 1000, 7, sb))
            return;
        const uint8_t(*rows[64])[32] = {0};
        bool challenged[64] = {false}, same = true;
        size_t nv = (size_t)c1.n_partitions * c1.challenges_per_partition;
        for (size_t j = 0; j < nv; j++) {
            const cuzk_fc_c1_vproof_t *v = &c1.vproofs[j];
            challenged[v->c_x.index] = true;
            for (int q = -1; q < CUZK_FC_PARENTS; q++) {
                const cuzk_fc_c1_column_t *c = q < 0                    ? &v->c_x
                                               : q < CUZK_FC_DRG_DEGREE ? &v->drg[q]
                                                                        : &v->exp[q - CUZK_FC_DRG_DEGREE];
                if (rows[c->index])
                    same &= memcmp(rows[c->index], c->rows, 2 * 32) == 0;
                rows[c->index] = (const uint8_t(*)[32])c->rows;
            }
        }
        CHECK_MSG(same, "a node shows different rows in two columns");
        int here[2] = {0, 0};
        for (size_t j = 0; j < nv; j++)
            for (int q = 0; q < CUZK_FC_PARENTS; q++) {
                const cuzk_fc_c1_vproof_t *v = &c1.vproofs[j];
                bool drg = q < CUZK_FC_DRG_DEGREE;
                here[!drg] |= challenged[drg ? v->drg[q].index : v->exp[q - CUZK_FC_DRG_DEGREE].index];
            }
        if (here[0] || here[1]) {
            cuzk_err_t err = {{0}};
            CHECK_MSG(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK, "%s", err.msg);
            found[0] |= here[0];
            found[1] |= here[1];
        }
        cuzk_fc_c1_free(&c1);
    }
    CHECK_MSG(found[0] && found[1], "no 2KiB seed out of 5000 challenged a DRG (%d) or expander (%d) parent of "
              "another challenge", found[0], found[1]);
}

/* ---- damage ---- */

static void expect_reject(const cuzk_fc_c1_t *c1, uint8_t *byte, const char *field, uint32_t k, uint32_t i)
{
    *byte ^= 1;
    cuzk_err_t err = {{0}};
    char where[64];
    snprintf(where, sizeof where, "partition %u challenge %u", k, i);
    cuzk_status st = cuzk_fc_c1_verify(c1, &err);
    CHECK_MSG(st == CUZK_ERR_MISMATCH && strstr(err.msg, field) && (k == ~0u || strstr(err.msg, where)),
              "%s of %s damaged: status %d, \"%s\"", field, where, st, err.msg);
    *byte ^= 1;
}

static uint8_t *sibling(const cuzk_fc_merkle_path_t *p, uint32_t level)
{
    size_t off = 0;
    for (uint32_t l = 0; l < level; l++)
        off += p->steps[l].arity - 1u;
    return (uint8_t *)p->siblings + off * 32 + test_rand_below(p->steps[level].arity - 1u) * 32;
}

/* A byte of each field of a random challenge (of partition 0 in a big C1, so that verify stops early). */
static void damage(const cuzk_fc_c1_t *c1, bool big)
{
    uint32_t k = big ? 0 : (uint32_t)test_rand_below(c1->n_partitions);
    uint32_t i = (uint32_t)test_rand_below(c1->challenges_per_partition);
    cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(c1, k, i);
    uint32_t L = v->n_layers, top = cuzk_fc_merkle_levels(&v->comm_r_last) - 1;
    uint32_t d = (uint32_t)test_rand_below(CUZK_FC_DRG_DEGREE), e = (uint32_t)test_rand_below(CUZK_FC_EXP_DEGREE);
    uint32_t l = (uint32_t)test_rand_below(L), lv = (uint32_t)test_rand_below(top + 1);
    char f[64];
    expect_reject(c1, sibling(&v->comm_d, (uint32_t)test_rand_below(cuzk_fc_merkle_levels(&v->comm_d))),
                  "comm_d_proofs", k, i);
    expect_reject(c1, &v->comm_d.leaf[0], "comm_d_proofs", k, i);
    expect_reject(c1, sibling(&v->comm_r_last, lv), "comm_r_last_proof", k, i);
    expect_reject(c1, sibling(&v->comm_r_last, top), "comm_r_last_proof", k, i); /* the sub / top level */
    expect_reject(c1, sibling(&v->c_x.path, lv), "replica_column_proofs.c_x", k, i);
    expect_reject(c1, &v->c_x.rows[l][3], "replica_column_proofs.c_x", k, i);
    snprintf(f, sizeof f, "replica_column_proofs.drg_parents[%u]", d);
    expect_reject(c1, &v->drg[d].rows[l][0], f, k, i);
    snprintf(f, sizeof f, "replica_column_proofs.exp_parents[%u]", e);
    expect_reject(c1, sibling(&v->exp[e].path, lv), f, k, i);
    snprintf(f, sizeof f, "labeling_proofs[%u]", l);
    expect_reject(c1, &v->labeling[l].parents[test_rand_below(CUZK_FC_LABEL_PARENTS)][0], f, k, i);
    expect_reject(c1, &v->encoding.parents[test_rand_below(CUZK_FC_LABEL_PARENTS)][5], "encoding_proof", k, i);
    if (!big) {
        expect_reject(c1, (uint8_t *)&c1->comm_r[0], "comm_r", ~0u, ~0u);
        CHECK(cuzk_fc_c1_verify(c1, NULL) == CUZK_OK);
    }
    /* Another seed: the same proofs, but not the seed's challenges. */
    ((cuzk_fc_c1_t *)c1)->seed[0] ^= 1;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_c1_check_challenges(c1, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "the seed gives"));
    ((cuzk_fc_c1_t *)c1)->seed[0] ^= 1;
}

static void test_damage(const char *name)
{
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    cuzk_fc_c1_t c1;
    if (make(&c1, name, 1000, 7, sb)) {
        damage(&c1, c1.proof->sector_size > (512ull << 20));
        cuzk_fc_c1_free(&c1);
    }
}

/* Synthetic and non-interactive challenges follow comm_r: refused, or made with the seed's interactive
 * challenges when asked (the proofs check, the challenges do not). */
static void test_kinds(void)
{
    static const char *names[] = {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                                  "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                                  "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep"};
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        cuzk_fc_c1_t c1;
        cuzk_err_t err = {{0}};
        const cuzk_fc_seal_proof_t *p = proof(names[i]);
        CHECK(cuzk_fc_c1_synthetic(&c1, p, 1, 2, sb, 0, 1, &err) == CUZK_ERR_UNSUPPORTED && strstr(err.msg, "comm_r"));
        CHECK(c1.vproofs == NULL && c1.arena == NULL);
        CHECK_MSG(cuzk_fc_c1_synthetic(&c1, p, 1, 2, sb, CUZK_FC_C1_SYNTH_ANY_CHALLENGES, 1, &err) == CUZK_OK, "%s",
                  err.msg);
        CHECK_MSG(cuzk_fc_c1_verify(&c1, &err) == CUZK_OK, "%s: %s", names[i], err.msg);
        CHECK(c1.n_partitions == p->partitions && c1.challenges_per_partition == p->challenges_per_partition);
        CHECK(cuzk_fc_c1_check_challenges(&c1, NULL) == CUZK_ERR_MISMATCH);
        cuzk_fc_c1_free(&c1);
    }
    cuzk_fc_c1_t c1;
    CHECK(cuzk_fc_c1_synthetic(&c1, NULL, 1, 2, sb, 0, 1, NULL) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_fc_c1_synthetic(&c1, proof("StackedDrg2KiBV1_1"), 1, 2, NULL, 0, 1, NULL) == CUZK_ERR_INVALID_ARG);
}

int main(int argc, char **argv)
{
    test_init("test_c1_synthetic");
    bool slow = argc > 1 && strcmp(argv[1], "--slow") == 0;
    if (slow) {
        test_sizes(true);
        test_damage("StackedDrg64GiBV1_1");
        return test_finish();
    }
    test_sizes(false);
    test_full_trees("StackedDrg2KiBV1_1");
    test_circuit();
    test_sealed_shape();
    test_challenged_parents();
    test_damage("StackedDrg2KiBV1_1");
    test_damage("StackedDrg512MiBV1_1");
    test_damage("StackedDrg32GiBV1_1");
    test_kinds();
    return test_finish();
}
