/* PoRCircuit against storage-proofs-core tests/por_circuit.rs (docs/REFERENCE.md §2): constraint and input
 * counts of every published shape (SHA-256 binary/quad/oct trees, Poseidon base, sub and top trees,
 * public and private roots) over 64 leaves per base tree; with a real witness (a random tree built
 * with the out-of-circuit hashes, a random challenged leaf) the system is satisfied and its public
 * inputs are PoRCompound::generate_public_inputs'; a tampered sibling, position or root is not;
 * backends agree (non-zero counts included); recorded TestConstraintSystem hashes. */
#include <stdlib.h>
#include <string.h>
#include "filecoin/hash/fr32.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "gadget_harness.h"
#include "gadgets/por.h"
#include "test_util.h"

typedef struct {
    const char *name;
    cuzk_por_hasher hasher;
    unsigned base, sub, top;
    bool private_root;
    size_t constraints;
    const char *hash; /* our own recorded TestConstraintSystem hash (regression value) */
} por_case;

static const por_case cases[] = {
    {"sha256 base 2", CUZK_POR_SHA256, 2, 0, 0, false, 272295,
     "06101b213e985a06aa97367fb756d504912d2edfa7169fe7390f3563e2b7bdbf"},
    {"sha256 base 4", CUZK_POR_SHA256, 4, 0, 0, false, 216258,
     "5e289198928d86549f36c81cfc167c6446d861f562620ff9289a00c931123960"},
    {"sha256 base 8", CUZK_POR_SHA256, 8, 0, 0, false, 250987,
     "f496fb64a3a535a75ff431c0d4618b6d49624f14a09d27b3ae62cade470307c0"},
    {"poseidon base 2", CUZK_POR_POSEIDON, 2, 0, 0, false, 1887,
     "e4a6b97ab322b5265befdbededdd16353db058e22cd88a9a9960f0f32efb95e9"},
    {"poseidon base 4", CUZK_POR_POSEIDON, 4, 0, 0, false, 1164,
     "ec45a446c4037ab2077accf70eff6ac48a5beba219648491be3e67a3f4b0c68c"},
    {"poseidon base 8", CUZK_POR_POSEIDON, 8, 0, 0, false, 1063,
     "3bd8cb4719e1ce8b020c078159a77bd5cf9d8eca04ed094eaca290c621f10a20"},
    {"poseidon sub 8-2", CUZK_POR_POSEIDON, 8, 2, 0, false, 1377,
     "a04df283d7f0ecff20e7c42f6bb497b2714c70c4124f5489e881c23e67814070"},
    {"poseidon top 8-4-2", CUZK_POR_POSEIDON, 8, 4, 2, false, 1764,
     "6badd752fa6a04dc492ae54080ea68de802e67510aaad087c7a83abb2158624a"},
    {"poseidon top 8-2-4", CUZK_POR_POSEIDON, 8, 2, 4, false, 1764,
     "ac74fcc017176bc18e77b5582225cf900dd5a8d3b82cd21462608906eb16baf1"},
    {"poseidon sub 8-8", CUZK_POR_POSEIDON, 8, 8, 0, false, 1593,
     "eca5c6440650cc590e477789dbbcc685627355c9c5dc6008dcb9fc6bfb8d34b8"},
    {"poseidon top 8-8-2", CUZK_POR_POSEIDON, 8, 8, 2, false, 1907,
     "1aaf5b3ff8221455ad5ba57746f23db956a2de780213b68d65d8ea0165607e84"},
    {"poseidon base 2 private root", CUZK_POR_POSEIDON, 2, 0, 0, true, 1886,
     "50591f837498dec42fd5f021c2ef48eaa3ab858a3aae9dbf522abae3b31d29a8"},
    {"poseidon base 4 private root", CUZK_POR_POSEIDON, 4, 0, 0, true, 1163,
     "2e0954a592b49c6cd0ce01f7a0ee913cddcc0fb964c7490bfb14a2c9511f0764"},
    {"poseidon base 8 private root", CUZK_POR_POSEIDON, 8, 0, 0, true, 1062,
     "a87d5c076c5882911c7073da19dba3a6bc1cfb7bd107afae8a18337734146519"},
};

/* A random tree over the shape's leaves and one challenged leaf's path. */
typedef struct {
    const por_case *pc;
    cuzk_por_shape_t shape;
    fr leaf, root;
    uint64_t index;
    fr siblings[64 * CUZK_POR_MAX_ARITY];
    uint32_t positions[CUZK_POR_MAX_LEVELS];
} por_run;

/* Out-of-circuit node hash: Poseidon MerkleTree hash, or trim(sha256(children's LE bytes)). */
static void node_hash(cuzk_por_hasher h, fr *out, const fr *children, unsigned arity)
{
    if (h == CUZK_POR_POSEIDON) {
        CHECK(cuzk_poseidon_hash(out, arity, children, NULL) == CUZK_OK);
        return;
    }
    uint8_t buf[32 * CUZK_POR_MAX_ARITY], d[32];
    for (unsigned i = 0; i < arity; i++)
        cuzk_fr32_from_fr(buf + 32 * i, &children[i]);
    cuzk_fc_span_t sp = {buf, 32 * (size_t)arity};
    cuzk_fc_sha256_trimmed(d, &sp, 1);
    CHECK(cuzk_fr32_to_fr(out, d, NULL) == CUZK_OK);
}

static void build(por_run *r, const por_case *pc)
{
    memset(r, 0, sizeof *r);
    r->pc = pc;
    uint64_t base_trees = (uint64_t)(pc->sub ? pc->sub : 1) * (pc->top ? pc->top : 1);
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_por_shape_for_leaves(&r->shape, pc->hasher, 64 * base_trees, pc->base, pc->sub, pc->top, &err) ==
                  CUZK_OK,
              "%s: %s", pc->name, err.msg);
    uint64_t n = cuzk_por_leaves(&r->shape);
    CHECK(n == 64 * base_trees);
    fr *level = malloc(n * sizeof *level);
    for (uint64_t i = 0; i < n; i++)
        test_rand_fr(&level[i]);
    r->index = test_rand_below(n);
    r->leaf = level[r->index];
    cuzk_por_positions_of(&r->shape, r->index, r->positions);
    CHECK(cuzk_por_index_of(&r->shape, r->positions) == r->index);
    uint64_t at = r->index;
    size_t ns = 0;
    for (unsigned l = 0; l < cuzk_por_levels(&r->shape); l++) {
        unsigned a = cuzk_por_arity(&r->shape, l);
        uint64_t first = at - at % a;
        for (unsigned k = 0; k < a; k++)
            if (first + k != at)
                r->siblings[ns++] = level[first + k];
        for (uint64_t j = 0; j < n / a; j++)
            node_hash(pc->hasher, &level[j], &level[j * a], a);
        n /= a;
        at /= a;
    }
    CHECK(n == 1 && ns == cuzk_por_siblings(&r->shape));
    r->root = level[0];
    free(level);
}

static void synth_run(cuzk_cs_t *cs, const void *p)
{
    const por_run *r = p;
    cuzk_por_path_t path = {r->siblings, r->positions};
    cuzk_por_synthesize(cs, &r->shape, cuzk_por_root_val(&r->leaf), &path, cuzk_por_root_val(&r->root),
                        r->pc->private_root);
}

static cuzk_cs_t *run_on(const por_run *r, cuzk_cs_backend b)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, b, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    synth_run(cs, r);
    return cs;
}

static bool satisfied(const por_run *r)
{
    cuzk_cs_t *cs = run_on(r, CUZK_CS_TEST);
    bool ok = cuzk_cs_status(cs, NULL) == CUZK_OK && gh_satisfied(cs);
    cuzk_cs_free(cs);
    return ok;
}

static void check_case(const por_case *pc)
{
    por_run *r = malloc(sizeof *r);
    build(r, pc);
    size_t want_inputs = pc->private_root ? 2 : 3;

    /* counts, dummy witness: the blank circuit */
    cuzk_cs_t *cnt = NULL;
    CHECK(cuzk_cs_new(&cnt, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_por_path_t blank = {NULL, NULL};
    cuzk_por_synthesize(cnt, &r->shape, cuzk_por_root_val(NULL), &blank, cuzk_por_root_val(NULL), pc->private_root);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cnt, &c);
    CHECK(cuzk_cs_status(cnt, NULL) == CUZK_OK);
    CHECK_MSG(c.num_constraints == pc->constraints && c.num_inputs == want_inputs,
              "%s: %zu constraints %zu inputs, want %zu and %zu", pc->name, c.num_constraints, c.num_inputs,
              pc->constraints, want_inputs);
    cuzk_cs_free(cnt);

    /* the real witness */
    cuzk_cs_t *cs = run_on(r, CUZK_CS_TEST);
    CHECK_MSG(cuzk_cs_status(cs, NULL) == CUZK_OK && gh_satisfied(cs), "%s: real witness not satisfied", pc->name);
    cuzk_cs_counts_t ct;
    cuzk_cs_counts(cs, &ct);
    CHECK(ct.num_constraints == c.num_constraints && ct.num_aux == c.num_aux && ct.num_inputs == c.num_inputs &&
          ct.nnz_a == c.nnz_a && ct.nnz_b == c.nnz_b && ct.nnz_c == c.nnz_c);
    fr pub[2];
    size_t np = cuzk_por_public_inputs(r->index, pc->private_root ? NULL : &r->root, pub);
    CHECK(np + 1 == ct.num_inputs);
    const fr *in = cuzk_cs_inputs(cs);
    for (size_t i = 0; i < np && i + 1 < ct.num_inputs; i++)
        CHECK_MSG(fr_eq(&in[i + 1], &pub[i]), "%s: input %zu differs from generate_public_inputs", pc->name, i + 1);
    char h[65];
    gh_hash(cs, h);
    printf("%-30s constraints %7zu aux %7zu hash %s\n", pc->name, ct.num_constraints, ct.num_aux, h);
    if (pc->hash)
        CHECK_MSG(strcmp(h, pc->hash) == 0, "%s: hash changed", pc->name);
    cuzk_cs_free(cs);

    /* tampering: a sibling, a position, the root, the leaf */
    size_t k = test_rand_below(cuzk_por_siblings(&r->shape));
    fr save = r->siblings[k];
    fr_add(&r->siblings[k], &r->siblings[k], &FR_ONE);
    CHECK_MSG(!satisfied(r), "%s: a tampered sibling still satisfies", pc->name);
    r->siblings[k] = save;
    unsigned l = (unsigned)test_rand_below(cuzk_por_levels(&r->shape));
    uint32_t sp = r->positions[l];
    r->positions[l] = (sp + 1) % cuzk_por_arity(&r->shape, l);
    CHECK_MSG(!satisfied(r), "%s: a tampered position still satisfies", pc->name);
    r->positions[l] = sp;
    fr_add(&r->root, &r->root, &FR_ONE);
    CHECK_MSG(!satisfied(r), "%s: a wrong root still satisfies", pc->name);
    fr_sub(&r->root, &r->root, &FR_ONE);
    fr_add(&r->leaf, &r->leaf, &FR_ONE);
    CHECK_MSG(!satisfied(r), "%s: a wrong leaf still satisfies", pc->name);
    fr_sub(&r->leaf, &r->leaf, &FR_ONE);
    CHECK(satisfied(r));

    /* every backend holds the same system (Poseidon shapes: cheap enough for all five) */
    if (pc->hasher == CUZK_POR_POSEIDON)
        gh_check_backends(pc->name, synth_run, r, CUZK_LC_DEFAULT, NULL, NULL);
    free(r);
}

/* A root given as an allocated num (Root::Var) adds no variable and the same constraints. */
static void root_var(void)
{
    por_run *r = malloc(sizeof *r);
    build(r, &cases[5]);
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_TEST, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_num_t leaf = cuzk_num_alloc(cs, &r->leaf), root = cuzk_num_alloc(cs, &r->root);
    cuzk_por_path_t path = {r->siblings, r->positions};
    CHECK(cuzk_por_synthesize(cs, &r->shape, cuzk_por_root_var(&leaf), &path, cuzk_por_root_var(&root), true) ==
          CUZK_OK);
    cuzk_cs_counts_t c;
    cuzk_cs_counts(cs, &c);
    CHECK(c.num_constraints == 1062 && c.num_inputs == 2 && gh_satisfied(cs));
    cuzk_cs_free(cs);
    free(r);
}

/* nnz_a/b/c (added to cuzk_cs_counts_t for circuit info) agree on count, direct and test, and with the
 * record backend's CSR row starts. */
static void nnz_backends(void)
{
    por_run *r = malloc(sizeof *r);
    build(r, &cases[10]);
    cuzk_cs_counts_t c[4];
    cuzk_cs_backend bs[3] = {CUZK_CS_COUNT, CUZK_CS_DIRECT, CUZK_CS_TEST};
    for (int k = 0; k < 3; k++) {
        cuzk_cs_t *cs = run_on(r, bs[k]);
        cuzk_cs_counts(cs, &c[k]);
        cuzk_cs_free(cs);
    }
    cuzk_cs_t *cs = run_on(r, CUZK_CS_RECORD);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(cs, &rec, NULL) == CUZK_OK);
    cuzk_cs_record_counts(&rec, &c[3]);
    size_t m = rec.r1cs.num_constraints;
    CHECK(c[3].nnz_a == rec.r1cs.a.row_start[m] && c[3].nnz_b == rec.r1cs.b.row_start[m] &&
          c[3].nnz_c == rec.r1cs.c.row_start[m]);
    for (int k = 0; k < 3; k++)
        CHECK_MSG(c[k].nnz_a == c[3].nnz_a && c[k].nnz_b == c[3].nnz_b && c[k].nnz_c == c[3].nnz_c,
                  "backend %d: nnz %zu/%zu/%zu, record %zu/%zu/%zu", (int)bs[k], c[k].nnz_a, c[k].nnz_b, c[k].nnz_c,
                  c[3].nnz_a, c[3].nnz_b, c[3].nnz_c);
    /* every constraint has a non-empty A or C side here, and B is ONE or a bit at least */
    CHECK(c[0].nnz_b >= c[0].num_constraints && c[0].nnz_a > 0 && c[0].nnz_c > 0);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(cs);
    free(r);
}

static void misuse(void)
{
    cuzk_por_shape_t s;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_POSEIDON, 64, 3, 0, 0, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_POSEIDON, 64, 8, 0, 2, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_POSEIDON, 32, 8, 0, 0, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_POSEIDON, 8, 8, 2, 0, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_POSEIDON, (uint64_t)1 << 30, 8, 8, 0, &err) == CUZK_OK &&
          s.base_levels == 9 && cuzk_por_levels(&s) == 10 && cuzk_por_siblings(&s) == 70);
    CHECK(cuzk_por_shape_for_leaves(&s, CUZK_POR_SHA256, (uint64_t)1 << 31, 2, 0, 0, &err) == CUZK_OK &&
          s.base_levels == 31);
    /* a bad shape fails the system, and a value backend without a witness fails it too */
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_COUNT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_por_shape_t bad = {CUZK_POR_POSEIDON, 6, 1, 0, 0};
    cuzk_por_path_t blank = {NULL, NULL};
    CHECK(cuzk_por_synthesize(cs, &bad, cuzk_por_root_val(NULL), &blank, cuzk_por_root_val(NULL), true) ==
          CUZK_ERR_INVALID_ARG);
    cuzk_cs_free(cs);
    CHECK(cuzk_cs_new(&cs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_por_shape_t ok = {CUZK_POR_POSEIDON, 8, 2, 0, 0};
    CHECK(cuzk_por_synthesize(cs, &ok, cuzk_por_root_val(NULL), &blank, cuzk_por_root_val(NULL), true) != CUZK_OK);
    cuzk_cs_free(cs);
}

int main(void)
{
    test_init("test_por");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
    root_var();
    nnz_backends();
    misuse();
    return test_finish();
}
