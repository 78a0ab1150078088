/* cuzk_fc_c1_verify's batched Merkle check (every path's nodes hashed level by level across the C1, each
 * distinct node input once) against the scalar oracle (CUZK_FC_C1_VERIFY_SCALAR: node after node, path after
 * path): synthetic C1 outputs, intact and with one path, leaf, root, index or column row of a late challenge
 * damaged, must give the same status and message on any thread count. For 32GiB the expected message is
 * built from the damaged path alone (cuzk_fc_merkle_verify of that path, or the known field message), so
 * that the default run stays fast; --small leaves 32GiB out, --slow compares whole 32GiB / 64GiB runs with
 * the scalar oracle. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/c1.h"
#include "testkit/c1_synthetic.h"
#include "test_util.h"

/* Paths of a challenge: tree R, c_x and the 14 parent columns. */
#define SLOTS (2 + CUZK_FC_PARENTS)

enum { SIB_FLIP, SIB_BIG, LEAF_FLIP, LEAF_BIG, ROOT_FLIP, INDEX, ROW_FLIP, ROW_BIG, KINDS };
static const char *kind_name[KINDS] = {"sibling", "non-canonical sibling", "leaf", "non-canonical leaf",
                                       "root", "step index", "column row", "non-canonical column row"};

static const cuzk_fc_seal_proof_t *proof(const char *name)
{
    const cuzk_fc_seal_proof_t *p = NULL;
    CHECK(cuzk_fc_seal_proof_parse(&p, name, NULL) == CUZK_OK);
    return p;
}

/* Slot s of a challenge as c1_hashes.h numbers them: 0 tree R, 1 c_x, 2..7 DRG, 8..15 expander parents. */
static cuzk_fc_c1_column_t *column_of(cuzk_fc_c1_vproof_t *v, unsigned s)
{
    return s == 1 ? &v->c_x : s < 2 + CUZK_FC_DRG_DEGREE ? &v->drg[s - 2] : &v->exp[s - 2 - CUZK_FC_DRG_DEGREE];
}

static cuzk_fc_merkle_path_t *path_of(cuzk_fc_c1_vproof_t *v, unsigned s)
{
    return s == 0 ? &v->comm_r_last : &column_of(v, s)->path;
}

static void field_of(char *out, size_t n, unsigned s)
{
    if (s == 0)
        snprintf(out, n, "comm_r_last_proof");
    else if (s == 1)
        snprintf(out, n, "replica_column_proofs.c_x");
    else if (s < 2 + CUZK_FC_DRG_DEGREE)
        snprintf(out, n, "replica_column_proofs.drg_parents[%u]", s - 2);
    else
        snprintf(out, n, "replica_column_proofs.exp_parents[%u]", s - 2 - CUZK_FC_DRG_DEGREE);
}

/* A damage: a private copy of what it changes, so that nothing shared with another proof changes too; undone
 * by restoring the saved proof (every pointer in it still points at the untouched original). */
typedef struct {
    uint32_t k, i;
    unsigned slot, kind;
    cuzk_fc_c1_vproof_t saved;
    cuzk_status want_st;
    char want[700];
} damage_t;

static void *copy_into(cuzk_fc_c1_t *c1, const void *src, size_t n)
{
    void *d = cuzk_fc_c1_alloc(c1, n);
    CHECK(d != NULL);
    if (d)
        memcpy(d, src, n);
    return d;
}

/* Applies damage d (k, i, slot, kind set; level chosen here unless level >= 0) and works out the message
 * the scalar checks give for it from the damaged part alone. */
static void apply(cuzk_fc_c1_t *c1, damage_t *d, int level)
{
    cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(c1, d->k, d->i);
    d->saved = *v;
    cuzk_fc_merkle_path_t *p = path_of(v, d->slot);
    uint32_t L = v->n_layers, levels = cuzk_fc_merkle_levels(p);
    size_t nsib = cuzk_fc_merkle_sibling_count(p);
    p->siblings = copy_into(c1, p->siblings, nsib * 32);
    uint32_t lv = level >= 0 ? (uint32_t)level : (uint32_t)test_rand_below(levels);
    size_t off = 0;
    for (uint32_t l = 0; l < lv; l++)
        off += p->steps[l].arity - 1u;
    uint8_t *sib = (uint8_t *)p->siblings + (off + test_rand_below(p->steps[lv].arity - 1u)) * 32;
    uint32_t row = (uint32_t)test_rand_below(L);
    cuzk_fc_c1_column_t *col = d->slot ? column_of(v, d->slot) : NULL;
    if (col)
        col->rows = copy_into(c1, col->rows, (size_t)L * 32);
    unsigned kind = d->kind;
    if (!col && (kind == ROW_FLIP || kind == ROW_BIG))
        kind = d->kind = SIB_FLIP; /* tree R has no rows */
    switch (kind) {
    case SIB_FLIP: sib[test_rand_below(31)] ^= (uint8_t)(1u << test_rand_below(8)); break;
    case SIB_BIG: sib[31] = 0xff; break;
    case LEAF_FLIP: p->leaf[test_rand_below(31)] ^= 1; break;
    case LEAF_BIG: p->leaf[31] |= 0x80; break;
    case ROOT_FLIP: p->root[test_rand_below(32)] ^= 0x10; break;
    case INDEX: p->steps[lv].index = (uint8_t)((p->steps[lv].index + 1) % p->steps[lv].arity); break;
    case ROW_FLIP: col->rows[row][0] ^= (uint8_t)(1u << test_rand_below(8)); break; /* stays below r */
    case ROW_BIG: col->rows[row][31] = 0xf0; break;
    }
    char field[64], m[600];
    field_of(field, sizeof field, d->slot);
    cuzk_err_t e = {{0}};
    if (kind == INDEX) {
        uint64_t idx = 0;
        CHECK(cuzk_fc_merkle_leaf_index(&idx, p, NULL) == CUZK_OK);
        uint64_t want = d->slot ? col->index : v->labeling[0].node;
        d->want_st = CUZK_ERR_MISMATCH;
        snprintf(m, sizeof m, "%s: the path opens leaf %llu, expected %llu", field, (unsigned long long)idx,
                 (unsigned long long)want);
    } else if (kind == ROW_FLIP) {
        d->want_st = CUZK_ERR_MISMATCH;
        snprintf(m, sizeof m, "%s: the column's hash is not the inclusion_proof leaf", field);
    } else if (kind == ROW_BIG) {
        d->want_st = CUZK_ERR_NOT_CANONICAL;
        snprintf(m, sizeof m, "%s: column row %u is not a canonical field element", field, row);
    } else {
        d->want_st = cuzk_fc_merkle_verify(p, &e);
        CHECK_MSG(d->want_st != CUZK_OK, "%s damage left the path valid", kind_name[kind]);
        snprintf(m, sizeof m, "%s: %s", field, e.msg);
    }
    snprintf(d->want, sizeof d->want, "c1: partition %u challenge %u: %s", d->k, d->i, m);
}

static void undo(cuzk_fc_c1_t *c1, const damage_t *d)
{
    *cuzk_fc_c1_vproof(c1, d->k, d->i) = d->saved;
}

/* Batched verify on 1..3 threads gives (st, msg); with `oracle`, so does the scalar one. */
static void same(const cuzk_fc_c1_t *c1, bool oracle, cuzk_status st, const char *msg, const char *what)
{
    cuzk_err_t e = {{0}};
    int t = 1 + (int)test_rand_below(3);
    cuzk_status got = cuzk_fc_c1_verify_opts(c1, t, 0, &e);
    CHECK_MSG(got == st && (st == CUZK_OK || strcmp(e.msg, msg) == 0),
              "%s, %s, batched on %d threads: status %d \"%s\", expected %d \"%s\"", c1->proof->name, what, t, got,
              e.msg, st, st == CUZK_OK ? "" : msg);
    if (!oracle)
        return;
    cuzk_err_t s = {{0}};
    t = 1 + (int)test_rand_below(2);
    got = cuzk_fc_c1_verify_opts(c1, t, CUZK_FC_C1_VERIFY_SCALAR, &s);
    CHECK_MSG(got == st && (st == CUZK_OK || strcmp(s.msg, msg) == 0),
              "%s, %s, scalar on %d threads: status %d \"%s\", expected %d \"%s\"", c1->proof->name, what, t, got,
              s.msg, st, st == CUZK_OK ? "" : msg);
}

static bool make(cuzk_fc_c1_t *c1, const char *name, unsigned flags)
{
    uint8_t sb[32];
    test_rand_bytes(sb, 32);
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_fc_c1_synthetic(c1, proof(name), 1000, 3, sb, flags, 2, &err);
    CHECK_MSG(st == CUZK_OK, "%s: %s", name, err.msg);
    return st == CUZK_OK;
}

static void late(const cuzk_fc_c1_t *c1, damage_t *d)
{
    size_t n = (size_t)c1->n_partitions * c1->challenges_per_partition;
    size_t j = n / 2 + test_rand_below(n - n / 2);
    d->k = (uint32_t)(j / c1->challenges_per_partition);
    d->i = (uint32_t)(j % c1->challenges_per_partition);
}

/* `rounds` random damages of a late challenge, each kind in turn, and two damages at once (the earlier
 * challenge is named); with `oracle` every result is compared with the scalar verify as well. */
static void damages(const char *name, unsigned flags, int rounds, bool oracle)
{
    cuzk_fc_c1_t c1;
    if (!make(&c1, name, flags))
        return;
    same(&c1, oracle, CUZK_OK, "", "intact");
    for (int r = 0; r < rounds; r++) {
        damage_t d = {.kind = (unsigned)r % KINDS, .slot = (unsigned)test_rand_below(SLOTS)};
        late(&c1, &d);
        apply(&c1, &d, -1);
        char what[96];
        snprintf(what, sizeof what, "%s in slot %u of partition %u challenge %u", kind_name[d.kind], d.slot, d.k, d.i);
        same(&c1, oracle, d.want_st, d.want, what);
        undo(&c1, &d);
    }
    /* The top level of a late path: every path of the tree goes through the same few top nodes, so the
     * damaged path's input there is the only one that differs from all the others'. */
    damage_t d = {.kind = SIB_FLIP, .slot = 1 + (unsigned)test_rand_below(SLOTS - 1)};
    late(&c1, &d);
    apply(&c1, &d, (int)cuzk_fc_merkle_levels(path_of(cuzk_fc_c1_vproof(&c1, d.k, d.i), d.slot)) - 1);
    same(&c1, oracle, d.want_st, d.want, "top-level sibling");
    undo(&c1, &d);
    /* Two damaged challenges: the earlier one is reported, whatever the threads. */
    size_t n = (size_t)c1.n_partitions * c1.challenges_per_partition;
    if (n >= 2) {
        size_t j1 = test_rand_below(n - 1), j2 = j1 + 1 + test_rand_below(n - 1 - j1);
        damage_t a = {.k = (uint32_t)(j2 / c1.challenges_per_partition), .i = (uint32_t)(j2 % c1.challenges_per_partition),
                      .kind = (unsigned)test_rand_below(KINDS), .slot = (unsigned)test_rand_below(SLOTS)};
        damage_t b = {.k = (uint32_t)(j1 / c1.challenges_per_partition), .i = (uint32_t)(j1 % c1.challenges_per_partition),
                      .kind = (unsigned)test_rand_below(KINDS), .slot = (unsigned)test_rand_below(SLOTS)};
        apply(&c1, &a, -1);
        apply(&c1, &b, -1);
        same(&c1, oracle, b.want_st, b.want, "two damaged challenges");
        undo(&c1, &b);
        undo(&c1, &a);
    }
    same(&c1, false, CUZK_OK, "", "intact after the damages");
    cuzk_fc_c1_free(&c1);
}

int main(int argc, char **argv)
{
    test_init("test_c1_verify_batch");
    bool slow = argc > 1 && strcmp(argv[1], "--slow") == 0, no_32gib = argc > 1 && strcmp(argv[1], "--small") == 0;
    if (!slow) {
        static const char *small[] = {"StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1"};
        for (size_t s = 0; s < sizeof small / sizeof small[0]; s++)
            damages(small[s], 0, 4 * KINDS, true);
        damages("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", CUZK_FC_C1_SYNTH_ANY_CHALLENGES, 2 * KINDS, true);
        if (!no_32gib)
            damages("StackedDrg32GiBV1_1", 0, KINDS, false);
    } else {
        damages("StackedDrg32GiBV1_1", 0, KINDS, true);
        damages("StackedDrg64GiBV1_1", 0, KINDS, true);
    }
    return test_finish();
}
