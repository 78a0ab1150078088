/* End to end on circuits written against cs.h: record → development setup → .params/.vk files →
 * load → prove (from the direct backend, and from record + witness) → verify; bellperson's
 * density and length rules on a circuit whose variables sit in only one matrix; bellperson's
 * refusal of an unconstrained variable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "circuits/circuits.h"
#include "cuzk/cs.h"
#include "cuzk/groth16.h"
#include "cuzk/params.h"
#include "ec/ec.h"
#include "ff/fr.h"
#include "test_util.h"

/* inputs: x, y. aux: bits b_0..b_7 of x, p = x·y, q = p + 1 (only in C), r (only in B, times ONE
 * into s, only in C) — so a_aux, b_input, b_aux and the compact arrays all differ from "full". */
typedef struct {
    uint64_t x, y, r;
} mixed_params;

static void fr_u64(cuzk_fr_t *o, uint64_t v) { fr_from_u64(o, v); }

static void mixed_synthesize(cuzk_cs_t *cs, const mixed_params *p)
{
    bool vals = cuzk_cs_wants_values(cs);
    cuzk_fr_t x, y, t, pv, qv, rv;
    fr_u64(&x, p->x);
    fr_u64(&y, p->y);
    fr_u64(&rv, p->r);
    cuzk_var_t vx = cuzk_cs_alloc_input(cs, vals ? &x : NULL);
    cuzk_var_t vy = cuzk_cs_alloc_input(cs, vals ? &y : NULL);
    cuzk_lc_t a, b, c, pack;
    cuzk_lc_init(&pack, cs);
    cuzk_fr_t pow2 = FR_ONE;
    for (int i = 0; i < 8; i++) {
        fr_u64(&t, (p->x >> i) & 1);
        cuzk_var_t bi = cuzk_cs_alloc(cs, vals ? &t : NULL);
        cuzk_lc_init(&a, cs);
        cuzk_lc_init(&b, cs);
        cuzk_lc_init(&c, cs);
        cuzk_lc_add(&a, cuzk_cs_one());
        cuzk_lc_sub(&a, bi);
        cuzk_lc_add(&b, bi);
        cuzk_cs_enforce_free(cs, &a, &b, &c);          /* (1 − b)·b = 0 */
        cuzk_lc_add_term(&pack, bi, &pow2);
        fr_add(&pow2, &pow2, &pow2);
    }
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&b, cuzk_cs_one());
    cuzk_lc_add(&c, vx);
    cuzk_cs_enforce_free(cs, &pack, &b, &c);            /* Σ 2^i·b_i = x */

    fr_mul(&pv, &x, &y);
    cuzk_var_t vp = cuzk_cs_alloc(cs, vals ? &pv : NULL);
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, vx);
    cuzk_lc_add(&b, vy);
    cuzk_lc_add(&c, vp);
    cuzk_cs_enforce_free(cs, &a, &b, &c);               /* x·y = p */

    fr_add(&qv, &pv, &FR_ONE);
    cuzk_var_t vq = cuzk_cs_alloc(cs, vals ? &qv : NULL);
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, vp);
    cuzk_lc_add(&a, cuzk_cs_one());
    cuzk_lc_add(&b, cuzk_cs_one());
    cuzk_lc_add(&c, vq);
    cuzk_cs_enforce_free(cs, &a, &b, &c);               /* (p + 1)·1 = q */

    cuzk_var_t vr = cuzk_cs_alloc(cs, vals ? &rv : NULL);
    cuzk_var_t vs = cuzk_cs_alloc(cs, vals ? &rv : NULL);
    cuzk_lc_init(&a, cs);
    cuzk_lc_init(&b, cs);
    cuzk_lc_init(&c, cs);
    cuzk_lc_add(&a, cuzk_cs_one());
    cuzk_lc_add(&b, vr);
    cuzk_lc_add(&c, vs);
    cuzk_cs_enforce_free(cs, &a, &b, &c);               /* 1·r = s */
}

static cuzk_cs_t *run(cuzk_cs_backend backend, const mixed_params *p)
{
    cuzk_cs_t *cs = NULL;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_cs_new(&cs, backend, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    mixed_synthesize(cs, p);
    CHECK_MSG(cuzk_cs_status(cs, &err) == CUZK_OK, "%s", err.msg);
    return cs;
}

static void temp_path(char *out, size_t cap, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(out, cap, "%s/cuzk-e2e-%d%s", dir && *dir ? dir : "/tmp", (int)getpid(), suffix);
}

static bool verify(const cuzk_groth16_vk_t *vk, const cuzk_groth16_proof_t *proof, const mixed_params *p)
{
    cuzk_groth16_pvk_t *pvk = NULL;
    bool ok = false;
    cuzk_scalar_t in[2] = {{{p->x}}, {{p->y}}};
    CHECK(cuzk_groth16_pvk_new(&pvk, vk) == CUZK_OK);
    CHECK(cuzk_groth16_verify(&ok, pvk, proof, in, 2, NULL) == CUZK_OK);
    bool ok_bad = true;
    in[1].l[0]++;
    CHECK(cuzk_groth16_verify(&ok_bad, pvk, proof, in, 2, NULL) == CUZK_OK);
    cuzk_groth16_pvk_free(pvk);
    return ok && !ok_bad;
}

static void test_mixed_end_to_end(void)
{
    mixed_params p = {.x = 0xa5, .y = 1234567, .r = 42};
    cuzk_err_t err = {{0}};

    /* Shape: record and count agree; bellperson's densities by hand: a_aux = 8 bits + p (q, r, s
     * only elsewhere) = 9; b_input = ONE + y = 2; b_aux = 8 bits + r = 9. */
    cuzk_cs_t *rec_cs = run(CUZK_CS_RECORD, &p), *count_cs = run(CUZK_CS_COUNT, &p);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(rec_cs, &rec, &err) == CUZK_OK);
    cuzk_cs_counts_t rc, cc;
    cuzk_cs_record_counts(&rec, &rc);
    cuzk_cs_counts(count_cs, &cc);
    CHECK(rc.num_inputs == 3 && rc.num_aux == 12 && rc.num_constraints == 12);
    CHECK(rc.a_aux_density == 9 && rc.b_input_density == 2 && rc.b_aux_density == 9);
    CHECK(cc.num_inputs == rc.num_inputs && cc.num_aux == rc.num_aux &&
          cc.num_constraints == rc.num_constraints && cc.a_aux_density == rc.a_aux_density &&
          cc.b_input_density == rc.b_input_density && cc.b_aux_density == rc.b_aux_density);

    cuzk_groth16_pk_t pk;
    CHECK_MSG(cuzk_groth16_setup(&pk, &rec.r1cs, 2, &err) == CUZK_OK, "%s", err.msg);
    /* 15 rows → m = 16: h has 15 points; a = 3 inputs + 9; b = 2 + 9; l = 12. */
    CHECK(pk.h_len == 15 && pk.a_len == 12 && pk.b_g1_len == 11 && pk.b_g2_len == 11 && pk.l_len == 12);
    CHECK_MSG(cuzk_params_check_circuit(&pk, rc.num_inputs, rc.num_aux, rc.num_constraints,
                                        rc.a_aux_density, rc.b_input_density, rc.b_aux_density,
                                        &err) == CUZK_OK, "%s", err.msg);

    /* Through the files, as the real parameters arrive. */
    char params_path[512], vk_path[512];
    temp_path(params_path, sizeof params_path, ".params");
    temp_path(vk_path, sizeof vk_path, ".vk");
    CHECK_MSG(cuzk_params_write(params_path, &pk, 2, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_params_vk_write(vk_path, &pk.vk, &err) == CUZK_OK, "%s", err.msg);
    cuzk_params_t *pf = NULL;
    const cuzk_groth16_pk_t *loaded = NULL;
    cuzk_groth16_vk_t vk;
    CHECK_MSG(cuzk_params_open(&pf, params_path, CUZK_PARAMS_CHECK_SUBGROUP, 2, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_params_get(&loaded, pf, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_params_vk_read(&vk, vk_path, &err) == CUZK_OK, "%s", err.msg);

    /* Prove from the direct backend with the loaded key. */
    cuzk_cs_t *direct = run(CUZK_CS_DIRECT, &p);
    cuzk_groth16_witness_t w_direct;
    cuzk_groth16_proof_t proof;
    CHECK(cuzk_cs_groth16_witness(direct, &w_direct, &err) == CUZK_OK);
    CHECK_MSG(cuzk_groth16_prove(&proof, loaded, &w_direct, 1, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(verify(&vk, &proof, &p), "proof from the direct backend does not verify");

    /* Prove from record + witness: same a, b, c; the proof verifies. */
    cuzk_cs_t *wit = run(CUZK_CS_WITNESS, &p);
    cuzk_groth16_witness_t w_rec;
    cuzk_cs_abc_t abc = {0};
    CHECK_MSG(cuzk_cs_record_witness(&w_rec, &abc, &rec, wit, 2, &err) == CUZK_OK, "%s", err.msg);
    bool same = w_rec.num_constraints == w_direct.num_constraints;
    for (size_t k = 0; same && k < w_rec.num_constraints; k++)
        same = fr_eq(&w_rec.a[k], &w_direct.a[k]) && fr_eq(&w_rec.b[k], &w_direct.b[k]) &&
               fr_eq(&w_rec.c[k], &w_direct.c[k]);
    CHECK_MSG(same, "record + witness evaluates other a, b, c than the direct backend");
    CHECK_MSG(cuzk_groth16_prove(&proof, loaded, &w_rec, 1, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(verify(&vk, &proof, &p), "proof from record + witness does not verify");

    /* Another witness of the same circuit (other x, y) proves under the same key. */
    mixed_params p2 = {.x = 0x3c, .y = 99, .r = 7};
    cuzk_cs_t *direct2 = run(CUZK_CS_DIRECT, &p2);
    CHECK(cuzk_cs_groth16_witness(direct2, &w_direct, &err) == CUZK_OK);
    CHECK(cuzk_groth16_prove(&proof, loaded, &w_direct, 1, NULL, &err) == CUZK_OK);
    CHECK_MSG(verify(&vk, &proof, &p2), "second witness does not verify");

    cuzk_cs_abc_free(&abc);
    cuzk_cs_free(direct);
    cuzk_cs_free(direct2);
    cuzk_cs_free(wit);
    cuzk_cs_free(rec_cs);
    cuzk_cs_free(count_cs);
    cuzk_cs_record_free(&rec);
    cuzk_groth16_vk_free(&vk);
    cuzk_params_close(pf);
    cuzk_groth16_pk_free(&pk);
    unlink(params_path);
    unlink(vk_path);
}

/* The x³ + x + 5 circuit proves; the random circuit with an unused aux is refused by setup, as
 * bellperson refuses it (its L point would be the identity). */
static void test_example_circuits(void)
{
    cuzk_err_t err = {{0}};
    cuzk_cs_t *rec_cs = NULL, *direct = NULL;
    circuit_cubic_params cp;
    fr_u64(&cp.x, 3);
    CHECK(cuzk_cs_new(&rec_cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    CHECK(cuzk_cs_new(&direct, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    circuit_cubic_synthesize(rec_cs, &cp);
    circuit_cubic_synthesize(direct, &cp);
    cuzk_cs_record_t rec;
    CHECK(cuzk_cs_take_record(rec_cs, &rec, &err) == CUZK_OK);
    cuzk_groth16_pk_t pk;
    CHECK_MSG(cuzk_groth16_setup(&pk, &rec.r1cs, 1, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_witness_t w;
    cuzk_groth16_proof_t proof;
    CHECK(cuzk_cs_groth16_witness(direct, &w, &err) == CUZK_OK);
    CHECK(cuzk_groth16_prove(&proof, &pk, &w, 1, NULL, &err) == CUZK_OK);
    cuzk_groth16_pvk_t *pvk = NULL;
    CHECK(cuzk_groth16_pvk_new(&pvk, &pk.vk) == CUZK_OK);
    cuzk_scalar_t out = {{35}};
    bool ok = false;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, &out, 1, NULL) == CUZK_OK && ok);
    out.l[0] = 36;
    CHECK(cuzk_groth16_verify(&ok, pvk, &proof, &out, 1, NULL) == CUZK_OK && !ok);
    cuzk_groth16_pvk_free(pvk);
    cuzk_groth16_pk_free(&pk);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rec_cs);
    cuzk_cs_free(direct);

    circuit_random_params rp = {.seed = 7, .num_inputs = 2, .num_aux = 6, .num_constraints = 20, .max_terms = 4};
    CHECK(cuzk_cs_new(&rec_cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, &err) == CUZK_OK);
    circuit_random_synthesize(rec_cs, &rp);
    CHECK(cuzk_cs_take_record(rec_cs, &rec, &err) == CUZK_OK);
    err.msg[0] = 0;
    CHECK(cuzk_groth16_setup(&pk, &rec.r1cs, 1, &err) == CUZK_ERR_INVALID_ARG);
    char want[64];
    snprintf(want, sizeof want, "aux variable %zu is unconstrained", circuit_random_aux_unused(&rp));
    CHECK_MSG(strstr(err.msg, want) != NULL, "message: %s", err.msg);
    cuzk_cs_record_free(&rec);
    cuzk_cs_free(rec_cs);
}

int main(void)
{
    test_init("groth16-e2e");
    test_mixed_end_to_end();
    test_example_circuits();
    return test_finish();
}
