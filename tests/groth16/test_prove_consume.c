/* The prover's low-memory plans against its copying path (itself checked against a naive prover in
 * test_groth16), with the same fixed r, s, on random R1CS instances:
 * - a consumed witness (A·z, B·z and aux overwritten in place) gives the same proof, and its arrays
 *   hold nothing afterwards, with C·z in aux's memory (aux_capacity holding the domain) or not;
 * - a cancellation part-way (after the first MSM, after all four) leaves nothing in the arrays either;
 * - a key streamed from its .params file in small pieces (whole pieces, a last partial one, density
 *   runs that take no base) gives the same proof, copying or consuming;
 * - the argument errors: a capacity below the domain, an aux_capacity below num_aux, row_position, a key
 *   with no points and no file;
 * - the range decoder refuses ranges past the section however large the numbers (no wrap-around). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "ff/fr.h"
#include "groth16/groth16_internal.h"
#include "groth16/params_internal.h"
#include "r1cs_gen.h"
#include "test_util.h"

typedef struct {
    fr *a, *b, *aux;
    size_t aux_n; /* aux's elements */
    cuzk_groth16_witness_consumable_t w;
} consumable;

/* A copy of tc's witness as the consuming prover takes it: a and b with room for the domain, aux with
 * aux_capacity elements (0: num_aux, and the prover is not told). */
static void consumable_make_aux(consumable *c, const test_circuit *tc, size_t capacity, size_t aux_capacity)
{
    const cuzk_groth16_witness_t *w = &tc->w;
    c->a = calloc(capacity, sizeof(fr));
    c->b = calloc(capacity, sizeof(fr));
    c->aux_n = aux_capacity > w->num_aux ? aux_capacity : w->num_aux;
    c->aux = malloc((c->aux_n ? c->aux_n : 1) * sizeof(fr));
    memcpy(c->a, w->a, w->num_constraints * sizeof(fr));
    memcpy(c->b, w->b, w->num_constraints * sizeof(fr));
    memcpy(c->aux, w->aux, w->num_aux * sizeof(fr));
    /* garbage beyond the rows and the assignment: the prover must not read it as data */
    for (size_t i = w->num_constraints; i < capacity; i++)
        test_rand_fr(&c->a[i]), test_rand_fr(&c->b[i]);
    for (size_t i = w->num_aux; i < c->aux_n; i++)
        test_rand_fr(&c->aux[i]);
    c->w = (cuzk_groth16_witness_consumable_t){
        .num_inputs = w->num_inputs,
        .num_aux = w->num_aux,
        .num_constraints = w->num_constraints,
        .a = c->a,
        .b = c->b,
        .capacity = capacity,
        .input = w->input,
        .aux = c->aux,
        .a_aux_density = w->a_aux_density,
        .b_input_density = w->b_input_density,
        .b_aux_density = w->b_aux_density,
        .aux_capacity = aux_capacity,
    };
}

static void consumable_make(consumable *c, const test_circuit *tc, size_t capacity)
{
    consumable_make_aux(c, tc, capacity, 0);
}

static void consumable_free(consumable *c)
{
    free(c->a);
    free(c->b);
    free(c->aux);
}

static bool all_zero(const fr *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&v[i], &FR_ZERO))
            return false;
    return true;
}

static bool same_proof(const cuzk_groth16_proof_t *x, const cuzk_groth16_proof_t *y)
{
    uint8_t ex[CUZK_GROTH16_PROOF_BYTES], ey[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_write(ex, x);
    cuzk_groth16_proof_write(ey, y);
    return memcmp(ex, ey, sizeof ex) == 0;
}

static size_t domain_of(const test_circuit *tc)
{
    return (size_t)1 << g16_log2_ceil(tc->w.num_constraints + tc->w.num_inputs);
}

static void test_consume_same_proof(size_t ni, size_t na, size_t nc)
{
    test_circuit tc;
    test_circuit_random(&tc, ni, na, nc);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    cuzk_groth16_prove_opts opts = {.threads = 2};
    cuzk_groth16_proof_t want, got;
    cuzk_groth16_witness_t no_c = tc.w;
    no_c.c = NULL;
    CHECK_MSG(g16_prove_blinded(&want, &pk, &no_c, 1, &opts, &r, &s, &err) == CUZK_OK, "%s", err.msg);

    size_t m = domain_of(&tc);
    consumable c;
    /* C·z in an array of the prover's own (aux too small, or its size not given), then in aux's memory */
    const size_t aux_caps[] = {0, na, m - 1, m, m + 3};
    for (size_t k = 0; k < sizeof aux_caps / sizeof aux_caps[0]; k++) {
        if (aux_caps[k] && aux_caps[k] < na)
            continue;
        consumable_make_aux(&c, &tc, m + 5, aux_caps[k]);
        CHECK_MSG(g16_prove_consume_blinded(&got, &pk, &c.w, &opts, &r, &s, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(same_proof(&got, &want), "consumed witness (%zu, %zu, %zu), aux_capacity %zu: another proof", ni,
                  na, nc, aux_caps[k]);
        CHECK_MSG(all_zero(c.a, m + 5) && all_zero(c.b, m + 5) && all_zero(c.aux, aux_caps[k] >= m ? m : na),
                  "the consumed witness's arrays still hold values (aux_capacity %zu)", aux_caps[k]);
        consumable_free(&c);
    }

    /* the drawn blinding: a proof that verifies */
    consumable_make(&c, &tc, m);
    CHECK_MSG(cuzk_groth16_prove_consume(&got, &pk, &c.w, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_pvk_t *pvk;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    cuzk_scalar_t *inputs = malloc(ni * sizeof *inputs);
    for (size_t i = 1; i < ni; i++)
        fr_to_scalar(&inputs[i - 1], &tc.z[i]);
    bool ok = false;
    CHECK(cuzk_groth16_verify(&ok, pvk, &got, inputs, ni - 1, &err) == CUZK_OK && ok);
    free(inputs);
    cuzk_groth16_pvk_free(pvk);
    consumable_free(&c);

    /* argument errors leave the witness as it was */
    consumable_make(&c, &tc, m - 1);
    CHECK(cuzk_groth16_prove_consume(&got, &pk, &c.w, NULL, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "domain needs"));
    CHECK(memcmp(c.aux, tc.w.aux, na * sizeof(fr)) == 0);
    consumable_free(&c);
    if (na > 1) {
        consumable_make_aux(&c, &tc, m, na - 1);
        CHECK(cuzk_groth16_prove_consume(&got, &pk, &c.w, NULL, &err) == CUZK_ERR_INVALID_ARG &&
              strstr(err.msg, "aux_capacity"));
        CHECK(memcmp(c.aux, tc.w.aux, na * sizeof(fr)) == 0);
        consumable_free(&c);
    }
    consumable_make(&c, &tc, m);
    uint32_t *pos = malloc((nc + ni) * sizeof *pos);
    for (size_t k = 0; k < nc + ni; k++)
        pos[k] = (uint32_t)k;
    cuzk_groth16_prove_opts with_pos = {.row_position = pos};
    CHECK(cuzk_groth16_prove_consume(&got, &pk, &c.w, &with_pos, &err) == CUZK_ERR_INVALID_ARG);
    free(pos);
    consumable_free(&c);

    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

/* should_stop: true from its stop_after-th call on (the prover asks once before each of its MSMs). */
typedef struct {
    int calls, stop_after;
} stop_counter;

static bool stop_when_counted(void *arg)
{
    stop_counter *sc = arg;
    return ++sc->calls >= sc->stop_after;
}

/* Cancelled before the first MSM, between two, and before h's: the call says so and the witness's arrays
 * hold nothing, whatever phase it stopped in. */
static void test_consume_cancelled(void)
{
    test_circuit tc;
    test_circuit_random(&tc, 4, 60, 90);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    size_t m = domain_of(&tc), na = tc.w.num_aux;
    for (int after = 1; after <= 6; after++) {
        for (int in_aux = 0; in_aux < 2; in_aux++) {
            stop_counter sc = {0, after};
            cuzk_groth16_prove_opts opts = {.threads = 2, .should_stop = stop_when_counted, .stop_arg = &sc};
            consumable c;
            consumable_make_aux(&c, &tc, m, in_aux ? m : 0);
            cuzk_groth16_proof_t got;
            CHECK_MSG(cuzk_groth16_prove_consume(&got, &pk, &c.w, &opts, &err) == CUZK_ERR_CANCELLED,
                      "stop at call %d: %s", after, err.msg);
            CHECK_MSG(all_zero(c.a, m) && all_zero(c.b, m) && all_zero(c.aux, in_aux ? m : na),
                      "cancelled at call %d (C·z in aux: %d): the arrays still hold values", after, in_aux);
            consumable_free(&c);
        }
    }
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

static void test_streamed_key(void)
{
    test_circuit tc;
    test_circuit_random(&tc, 5, 300, 420);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    cuzk_groth16_witness_t no_c = tc.w;
    no_c.c = NULL;
    cuzk_groth16_prove_opts opts = {.threads = 2};
    cuzk_groth16_proof_t want, got;
    CHECK_MSG(g16_prove_blinded(&want, &pk, &no_c, 1, &opts, &r, &s, &err) == CUZK_OK, "%s", err.msg);

    char dir[] = "/tmp/cuzk-consume-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/key.params", dir);
    CHECK_MSG(cuzk_params_write(path, &pk, 2, &err) == CUZK_OK, "%s", err.msg);
    cuzk_params_t *p = NULL;
    CHECK_MSG(cuzk_params_open(&p, path, CUZK_PARAMS_CHECK_CURVE, 2, &err) == CUZK_OK, "%s", err.msg);
    const cuzk_groth16_pk_t *lazy = cuzk_params_key(p);
    CHECK(lazy->h == NULL && lazy->l == NULL && lazy->b_g2 == NULL);

    /* no points and no file: a clear error */
    CHECK(g16_prove_blinded(&got, lazy, &no_c, 1, &opts, &r, &s, &err) == CUZK_ERR_INVALID_ARG &&
          strstr(err.msg, "not loaded"));

    /* pieces of 64 (whole words of the densities), 128 and more than a section */
    const size_t pieces[] = {1, 64, 128, 100000};
    for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
        cuzk_groth16_prove_opts so = {.threads = 2, .params = p, .stream_points = pieces[k]};
        CHECK_MSG(g16_prove_blinded(&got, lazy, &no_c, 1, &so, &r, &s, &err) == CUZK_OK, "%s", err.msg);
        CHECK_MSG(same_proof(&got, &want), "streamed key, pieces of %zu: another proof", pieces[k]);
        for (int in_aux = 0; in_aux < 2; in_aux++) {
            consumable c;
            consumable_make_aux(&c, &tc, domain_of(&tc), in_aux ? domain_of(&tc) : 0);
            CHECK_MSG(g16_prove_consume_blinded(&got, lazy, &c.w, &so, &r, &s, &err) == CUZK_OK, "%s", err.msg);
            CHECK_MSG(same_proof(&got, &want),
                      "streamed key and consumed witness (C·z in aux: %d), pieces of %zu: another proof", in_aux,
                      pieces[k]);
            consumable_free(&c);
        }
    }
    CHECK(lazy->h == NULL && lazy->a == NULL); /* streaming decodes nothing for keeps */

    /* ranges past a section, with numbers near 2^32 and 2^64: refused, never wrapped */
    cuzk_g1_affine_t one;
    CHECK(params_decode_range(p, G16_SEC_L, 0, 1, &one, &err) == CUZK_OK);
    CHECK(params_decode_range(p, G16_SEC_L, pk.l_len, 1, &one, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(params_decode_range(p, G16_SEC_L, (size_t)1 << 32, 1, &one, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(params_decode_range(p, G16_SEC_L, 1, SIZE_MAX, &one, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(params_decode_range(p, G16_SEC_L, SIZE_MAX, 2, &one, &err) == CUZK_ERR_INVALID_ARG);
    CHECK(params_decode_range(p, 5, 0, 1, &one, &err) == CUZK_ERR_INVALID_ARG);
    /* reading ahead is clipped to the section: a start past it or a bad section reads nothing */
    params_readahead_t ra;
    params_readahead_start(&ra, p, G16_SEC_L, 1, SIZE_MAX);
    CHECK(ra.running && ra.len == (pk.l_len - 1) * 96);
    params_readahead_wait(&ra);
    CHECK(!ra.running);
    params_readahead_start(&ra, p, G16_SEC_B_G2, (size_t)1 << 32, 1);
    CHECK(!ra.running);
    params_readahead_start(&ra, p, 5, 0, 1);
    CHECK(!ra.running);
    params_readahead_wait(&ra);

    cuzk_params_close(p);
    unlink(path);
    rmdir(dir);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
}

/* The walk over a streamed section's pieces, at a 32GiB partition's counts and past 2^32 scalars and bases
 * (segments without densities are walked without memory behind them). */
static void test_piece_walk(void)
{
    const size_t piece = (size_t)1 << 24, big = ((size_t)1 << 32) + 1000;
    uint64_t bits[2] = {0, 0x9}; /* scalars 64 and 67 of a 128-scalar segment take bases */
    const g16_msm_segment segs[] = {{NULL, 328, NULL}, {NULL, 128, bits}, {NULL, 0, NULL}, {NULL, big, NULL}};
    g16_piece pc = {0};
    size_t count = 0, taken = 0;
    g16_piece last = {0};
    while (g16_piece_next(&pc, segs, 4, piece, SIZE_MAX)) {
        CHECK_MSG(pc.used == taken, "piece %zu starts at base %zu, %zu taken before", count, pc.used, taken);
        CHECK(pc.n <= piece && pc.first % 64 == 0 && pc.first + pc.n <= segs[pc.k].n);
        taken += pc.take;
        count++;
        last = pc;
    }
    CHECK_MSG(count == 2 + (big + piece - 1) / piece, "%zu pieces", count);
    CHECK(taken == 328 + 2 + big);
    CHECK(last.k == 3 && last.first == ((size_t)1 << 32) && last.n == 1000 && last.used == 330 + ((size_t)1 << 32));

    /* pieces of 64: the density segment's first word takes nothing and is skipped */
    pc = (g16_piece){0};
    CHECK(g16_piece_next(&pc, segs + 1, 1, 64, 64) && pc.first == 64 && pc.take == 2 && pc.used == 0);
    CHECK(!g16_piece_next(&pc, segs + 1, 1, 64, 64));
    pc = (g16_piece){0};
    CHECK(!g16_piece_next(&pc, segs + 2, 1, 64, 64)); /* nothing to take */
    pc = (g16_piece){0};
    CHECK(g16_piece_next(&pc, segs, 1, 128, 1) && pc.n == 64 && pc.take == 64); /* a word at least */

    /* a G2 piece holds the bytes of a G1 piece: half the bases, at least a word's */
    CHECK(g16_piece_max_take(G16_SEC_H, piece) == piece && g16_piece_max_take(G16_SEC_B_G1, 128) == 128);
    CHECK(g16_piece_max_take(G16_SEC_B_G2, piece) == piece / 2 && g16_piece_max_take(G16_SEC_B_G2, 64) == 64);
    /* what a budget counts: the larger of the G1 and the G2 pieces, each bounded by its section */
    CHECK(cuzk_groth16_stream_piece_bytes(0, (size_t)1 << 27, 33112282) == piece * 96); /* 32GiB: 1.6 GB */
    CHECK(cuzk_groth16_stream_piece_bytes(0, 1000, 0) == 1000 * 96);
    CHECK(cuzk_groth16_stream_piece_bytes(0, 10, big) == piece / 2 * 192);
    CHECK(cuzk_groth16_stream_piece_bytes(128, 1000, 300) == 128 * 96);
    CHECK(cuzk_groth16_stream_piece_bytes(100, 10, 50) == 50 * 192); /* pieces of 64: at least a word of G2 */
}

/* Pieces cut short where they would take more than max_take bases: whole words of the densities, each piece
 * taking what its bits say, none more than max_take, and together every scalar in order. */
static void test_piece_cut(void)
{
    static const uint64_t bits[9] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, 0, 0x1, UINT64_MAX, 0x8000000000000001ull,
                                     UINT64_MAX, 0x3};
    /* a dense run, a run with densities ending in a partial word (540 scalars), and a dense tail */
    const g16_msm_segment segs[] = {{NULL, 300, NULL}, {NULL, 8 * 64 + 28, bits}, {NULL, 70, NULL}};
    const size_t takes[] = {64, 100, 130, 200, 1000};
    for (size_t t = 0; t < sizeof takes / sizeof takes[0]; t++) {
        g16_piece pc = {0};
        size_t k = 0, next_first = 0, taken = 0, cut = 0;
        while (g16_piece_next(&pc, segs, 3, 256, takes[t])) {
            if (pc.k != k) {
                CHECK_MSG(next_first == segs[k].n, "max_take %zu: segment %zu left at %zu", takes[t], k, next_first);
                k = pc.k;
                next_first = 0;
            }
            CHECK_MSG(pc.first == next_first, "max_take %zu: a piece at %zu, %zu expected", takes[t], pc.first,
                      next_first);
            CHECK(pc.first % 64 == 0 && pc.n <= 256 && pc.take >= 1 && pc.take <= takes[t] && pc.used == taken);
            size_t want = segs[k].bits ? g16_popcount(segs[k].bits + pc.first / 64, pc.n) : pc.n;
            CHECK_MSG(pc.take == want, "max_take %zu: piece at %zu takes %zu, its bits say %zu", takes[t], pc.first,
                      pc.take, want);
            taken += pc.take;
            next_first = pc.first + pc.n;
            cut += pc.n < 256 && next_first < segs[k].n;
        }
        CHECK(k == 2 && next_first == 70);
        CHECK_MSG((cut > 0) == (takes[t] < 256), "max_take %zu: %zu pieces cut short", takes[t], cut);
        CHECK_MSG(taken == 300 + 64 * 5 + 1 + 2 + 2 + 70, "max_take %zu: %zu taken", takes[t], taken);
    }
}

int main(void)
{
    test_init("prove_consume");
    test_piece_cut();
    test_consume_same_proof(4, 30, 40);
    test_consume_same_proof(3, 200, 253); /* rows + inputs = 256: a full domain */
    test_consume_same_proof(2, 70, 100);
    test_consume_cancelled();
    test_streamed_key();
    test_piece_walk();
    return test_finish();
}
