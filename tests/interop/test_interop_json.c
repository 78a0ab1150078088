/* snarkjs JSON files: our writers reproduce snarkjs's files byte for byte (verification_key.json as
 * `snarkjs zkey export verificationkey` wrote it, including e(α, β); proof.json and public.json as
 * `snarkjs groth16 prove` wrote them), the readers accept what snarkjs accepts (Jacobian z, curve-name
 * spellings) and reject malformed, non-canonical, off-curve and wrong-curve input with a message;
 * decimal conversion agrees with GMP; multi-file writes are all-or-nothing. */
#include <gmp.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/interop.h"
#include "ec/ec.h"
#include "ff/fp.h"
#include "ff/fr.h"
#include "interop/interop_internal.h"
#include "interop_test_util.h"
#include "test_util.h"

static char *slurp(const char *path)
{
    size_t len;
    char *s = test_read_file(path, &len);
    if (!s) {
        fprintf(stderr, "missing vector %s (run tests/interop/gen-vectors.sh)\n", path);
        exit(2);
    }
    char *z = realloc(s, len + 1);
    z[len] = '\0';
    return z;
}

static void check_same(const char *what, const char *ours, const char *path)
{
    char *want = slurp(path);
    CHECK_MSG(ours && strcmp(ours, want) == 0, "%s differs from %s", what, path);
    if (ours && strcmp(ours, want) != 0) {
        size_t i = 0;
        while (ours[i] && ours[i] == want[i])
            i++;
        fprintf(stderr, "first difference at byte %zu: ours '%.40s' snarkjs '%.40s'\n", i, ours + i, want + i);
    }
    free(want);
}

static void test_byte_exact(const char *name)
{
    char p[256], q[256];
    cuzk_err_t err = {{0}};
    cuzk_groth16_vk_t vk;
    snprintf(p, sizeof p, VEC_DIR "%s.zkey", name);
    CHECK_MSG(cuzk_zkey_read_vk(&vk, p, &err) == CUZK_OK, "%s", err.msg);
    char *s = cuzk_snarkjs_vk_json(&vk);
    snprintf(q, sizeof q, VEC_DIR "%s_vk.json", name);
    check_same("verification_key.json", s, q);
    free(s);
    cuzk_interop_vk_free(&vk);
    /* The same from the JSON itself (beta_g1 / delta_g1 are not in it and not needed). */
    CHECK_MSG(cuzk_snarkjs_vk_read(&vk, q, &err) == CUZK_OK, "%s", err.msg);
    s = cuzk_snarkjs_vk_json(&vk);
    check_same("verification_key.json (from JSON)", s, q);
    free(s);
    cuzk_interop_vk_free(&vk);

    cuzk_groth16_proof_t pr;
    snprintf(p, sizeof p, VEC_DIR "%s_proof.json", name);
    CHECK_MSG(cuzk_snarkjs_proof_read(&pr, p, &err) == CUZK_OK, "%s", err.msg);
    s = cuzk_snarkjs_proof_json(&pr);
    check_same("proof.json", s, p);
    free(s);

    cuzk_scalar_t *in = NULL;
    size_t n = 0;
    snprintf(p, sizeof p, VEC_DIR "%s_public.json", name);
    CHECK_MSG(cuzk_snarkjs_public_read(&in, &n, p, &err) == CUZK_OK, "%s", err.msg);
    s = cuzk_snarkjs_public_json(in, n);
    check_same("public.json", s, p);
    free(s);
    free(in);
}

/* bfj writes an empty array as "[", newline, indent, "]" (seen from snarkjs 0.7.6's bfj). */
static void test_empty_and_infinity(void)
{
    char *s = cuzk_snarkjs_public_json(NULL, 0);
    CHECK(s && strcmp(s, "[\n]") == 0);
    free(s);
    cuzk_groth16_proof_t p;
    g1_aff_set_inf(&p.a);
    g2_aff_set_inf(&p.b);
    g1_aff_set_inf(&p.c);
    s = cuzk_snarkjs_proof_json(&p);
    /* ffjavascript's toObject of zero: G1 [0, 1, 0], G2 [[0, 0], [1, 0], [0, 0]]. */
    const char *want = "{\n \"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ],\n \"pi_b\": [\n  [\n   \"0\",\n"
                       "   \"0\"\n  ],\n  [\n   \"1\",\n   \"0\"\n  ],\n  [\n   \"0\",\n   \"0\"\n  ]\n ],\n"
                       " \"pi_c\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ],\n \"protocol\": \"groth16\",\n"
                       " \"curve\": \"bls12381\"\n}";
    CHECK_MSG(s && strcmp(s, want) == 0, "%s", s ? s : "(null)");
    const char *path = scratch_path("inf.json");
    CHECK(write_bytes(path, s, strlen(s)));
    cuzk_groth16_proof_t q;
    cuzk_err_t err;
    CHECK_MSG(cuzk_snarkjs_proof_read(&q, path, &err) == CUZK_OK, "%s", err.msg);
    CHECK(g1_aff_is_inf(&q.a) && g2_aff_is_inf(&q.b) && g1_aff_is_inf(&q.c));
    free(s);
}

static void test_decimal(void)
{
    mpz_t z;
    mpz_init(z);
    size_t bad = 0;
    for (int i = 0; i < 300; i++) {
        uint64_t l[6], back[6];
        size_t n = 1 + (size_t)test_rand_below(6);
        for (size_t k = 0; k < n; k++)
            l[k] = test_rand64();
        if (i % 7 == 0)
            l[n - 1] = 0; /* leading zero limbs */
        if (i == 0)
            memset(l, 0, sizeof l);
        char ours[128], gmp[160];
        interop_dec_from_limbs(ours, l, n);
        mpz_import(z, n, -1, 8, 0, 0, l);
        mpz_get_str(gmp, 10, z);
        bad += strcmp(ours, gmp) != 0;
        bad += !interop_limbs_from_str(back, n, gmp) || memcmp(back, l, n * 8) != 0;
        mpz_get_str(gmp + 2, 16, z);
        gmp[0] = '0', gmp[1] = 'x';
        bad += !interop_limbs_from_str(back, n, gmp) || memcmp(back, l, n * 8) != 0;
    }
    CHECK_MSG(bad == 0, "%zu decimal conversions differ from GMP", bad);
    uint64_t l[2];
    CHECK(!interop_limbs_from_str(l, 2, ""));
    CHECK(!interop_limbs_from_str(l, 2, "0x"));
    CHECK(!interop_limbs_from_str(l, 2, "12a"));
    CHECK(!interop_limbs_from_str(l, 2, "-1"));
    CHECK(!interop_limbs_from_str(l, 2, "340282366920938463463374607431768211456")); /* 2^128 */
    CHECK(interop_limbs_from_str(l, 2, "340282366920938463463374607431768211455") && l[0] == UINT64_MAX &&
          l[1] == UINT64_MAX);
    mpz_clear(z);
}

/* Loads a vector as a jansson tree for editing. */
static json_t *load_json(const char *path)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) {
        fprintf(stderr, "%s: %s\n", path, je.text);
        exit(2);
    }
    return j;
}

typedef enum { R_PROOF, R_PUBLIC, R_VK } rkind_t;

static cuzk_status read_json(rkind_t k, json_t *j, char *msg)
{
    const char *path = scratch_path("edit.json");
    char *s = json_dumps(j, JSON_INDENT(2));
    CHECK(write_bytes(path, s, strlen(s)));
    free(s);
    cuzk_err_t err = {{0}};
    cuzk_status st;
    if (k == R_PROOF) {
        cuzk_groth16_proof_t p;
        st = cuzk_snarkjs_proof_read(&p, path, &err);
    } else if (k == R_PUBLIC) {
        cuzk_scalar_t *v = NULL;
        size_t n;
        st = cuzk_snarkjs_public_read(&v, &n, path, &err);
        if (st == CUZK_OK)
            free(v);
    } else {
        cuzk_groth16_vk_t vk;
        st = cuzk_snarkjs_vk_read(&vk, path, &err);
        if (st == CUZK_OK)
            cuzk_interop_vk_free(&vk);
    }
    strcpy(msg, err.msg);
    return st;
}

static void expect(rkind_t k, json_t *j, cuzk_status want, const char *what)
{
    char msg[256];
    cuzk_status st = read_json(k, j, msg);
    CHECK_MSG(st == want, "%s: got %d (%s), want %d; %s", what, st, cuzk_status_str(st), want, msg);
    CHECK_MSG(st == CUZK_OK || msg[0], "%s: no message", what);
}

static char *fp_dec(const fp *a)
{
    static char b[4][128];
    static int k;
    uint64_t l[FP_LIMBS];
    fp_from_mont(l, a);
    char *o = b[k++ & 3];
    interop_dec_from_limbs(o, l, FP_LIMBS);
    return o;
}

static void test_readers(void)
{
    char msg[256];
    json_t *pj = load_json(VEC_DIR "mult_proof.json");
    cuzk_groth16_proof_t ref;
    cuzk_err_t err;
    CHECK(cuzk_snarkjs_proof_read(&ref, VEC_DIR "mult_proof.json", &err) == CUZK_OK);
    expect(R_PROOF, pj, CUZK_OK, "proof as is");

    /* pi_a in Jacobian coordinates with z = 2: (x·4, y·8, 2) is the same point. */
    json_t *j = json_deep_copy(pj);
    fp two, z2, z3, X, Y;
    fp_from_u64(&two, 2);
    fp_sqr(&z2, &two);
    fp_mul(&z3, &z2, &two);
    fp_mul(&X, &ref.a.x, &z2);
    fp_mul(&Y, &ref.a.y, &z3);
    json_t *pa = json_pack("[sss]", fp_dec(&X), fp_dec(&Y), "2");
    json_object_set_new(j, "pi_a", pa);
    expect(R_PROOF, j, CUZK_OK, "Jacobian pi_a");
    const char *path = scratch_path("jac.json");
    char *s = json_dumps(j, 0);
    CHECK(write_bytes(path, s, strlen(s)));
    free(s);
    cuzk_groth16_proof_t q;
    CHECK(cuzk_snarkjs_proof_read(&q, path, &err) == CUZK_OK && g1_aff_eq(&q.a, &ref.a));
    json_decref(j);

    j = json_deep_copy(pj);
    json_object_set_new(j, "curve", json_string("BLS12-381"));
    expect(R_PROOF, j, CUZK_OK, "curve spelled BLS12-381");
    json_object_set_new(j, "curve", json_string("bn128"));
    expect(R_PROOF, j, CUZK_ERR_MISMATCH, "curve bn128");
    json_decref(j);
    j = json_deep_copy(pj);
    json_object_set_new(j, "protocol", json_string("plonk"));
    expect(R_PROOF, j, CUZK_ERR_MISMATCH, "protocol plonk");
    json_decref(j);
    j = json_deep_copy(pj);
    json_object_del(j, "pi_c");
    expect(R_PROOF, j, CUZK_ERR_FORMAT, "no pi_c");
    json_decref(j);
    j = json_deep_copy(pj);
    json_array_set_new(json_object_get(j, "pi_a"), 0, json_string("12x"));
    expect(R_PROOF, j, CUZK_ERR_FORMAT, "pi_a.x not a number");
    json_decref(j);
    j = json_deep_copy(pj);
    json_array_set_new(json_object_get(j, "pi_a"), 0, json_real(1.5));
    expect(R_PROOF, j, CUZK_ERR_FORMAT, "pi_a.x a float");
    json_decref(j);
    j = json_deep_copy(pj);
    char pdec[128];
    interop_dec_from_limbs(pdec, FP_MODULUS, FP_LIMBS);
    json_array_set_new(json_object_get(j, "pi_a"), 0, json_string(pdec));
    expect(R_PROOF, j, CUZK_ERR_NOT_CANONICAL, "pi_a.x = p");
    json_decref(j);
    j = json_deep_copy(pj);
    fp y1;
    fp_add(&y1, &ref.a.y, &FP_ONE);
    json_array_set_new(json_object_get(j, "pi_a"), 1, json_string(fp_dec(&y1)));
    expect(R_PROOF, j, CUZK_ERR_NOT_ON_CURVE, "pi_a.y + 1");
    json_decref(j);
    j = json_deep_copy(pj);
    json_array_set_new(json_object_get(j, "pi_b"), 2, json_string("1"));
    expect(R_PROOF, j, CUZK_ERR_FORMAT, "pi_b.z not an Fp2 pair");
    json_decref(j);
    json_decref(pj);

    CHECK(cuzk_snarkjs_proof_read(&q, VEC_DIR "missing.json", &err) == CUZK_ERR_IO);
    CHECK(write_bytes(scratch_path("broken.json"), "{\"pi_a\": [", 10));
    CHECK(cuzk_snarkjs_proof_read(&q, scratch_path("broken.json"), &err) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(err.msg, "line") != NULL, "%s", err.msg);
    CHECK(write_bytes(scratch_path("array.json"), "[\"1\"]", 5));
    CHECK(cuzk_snarkjs_proof_read(&q, scratch_path("array.json"), &err) == CUZK_ERR_FORMAT);

    /* public.json */
    json_t *pub = load_json(VEC_DIR "mult_public.json");
    expect(R_PUBLIC, pub, CUZK_OK, "public as is");
    j = json_deep_copy(pub);
    char rdec[100];
    interop_dec_from_limbs(rdec, FR_MODULUS, FR_LIMBS);
    json_array_set_new(j, 1, json_string(rdec));
    expect(R_PUBLIC, j, CUZK_ERR_NOT_CANONICAL, "public = r");
    json_array_set_new(j, 1, json_integer(11));
    expect(R_PUBLIC, j, CUZK_OK, "public as a JSON integer");
    json_array_set_new(j, 1, json_integer(-11));
    expect(R_PUBLIC, j, CUZK_ERR_FORMAT, "negative public");
    json_decref(j);
    j = json_object();
    expect(R_PUBLIC, j, CUZK_ERR_FORMAT, "public as an object");
    json_decref(j);
    json_decref(pub);

    /* verification_key.json */
    json_t *vj = load_json(VEC_DIR "mult_vk.json");
    expect(R_VK, vj, CUZK_OK, "vk as is");
    j = json_deep_copy(vj);
    json_object_set_new(j, "nPublic", json_integer(2));
    expect(R_VK, j, CUZK_ERR_FORMAT, "vk nPublic 2 with 4 IC points");
    json_decref(j);
    j = json_deep_copy(vj);
    json_object_set_new(j, "curve", json_string("bn128"));
    expect(R_VK, j, CUZK_ERR_MISMATCH, "vk curve bn128");
    json_object_del(j, "curve");
    expect(R_VK, j, CUZK_ERR_FORMAT, "vk without curve");
    json_decref(j);
    j = json_deep_copy(vj);
    json_array_set_new(json_array_get(json_object_get(j, "IC"), 1), 1, json_string("5"));
    expect(R_VK, j, CUZK_ERR_NOT_ON_CURVE, "vk IC[1] off the curve");
    json_decref(j);
    j = json_deep_copy(vj);
    json_t *g2 = json_object_get(j, "vk_delta_2");
    json_array_set_new(json_array_get(g2, 0), 0, json_string("1"));
    CHECK(read_json(R_VK, j, msg) != CUZK_OK);
    json_decref(j);
    json_decref(vj);
}

static void test_write_files(void)
{
    cuzk_err_t err;
    const char *paths[2] = {scratch_path("one.json"), scratch_path("two.json")};
    const char *contents[2] = {"[\n \"1\"\n]", "{\n}"};
    int before = scratch_count();
    CHECK_MSG(cuzk_interop_write_files(paths, contents, 2, &err) == CUZK_OK, "%s", err.msg);
    char *a = slurp(paths[0]), *b = slurp(paths[1]);
    CHECK(strcmp(a, contents[0]) == 0 && strcmp(b, contents[1]) == 0);
    free(a), free(b);
    CHECK(scratch_count() == before + 2);
    unlink(paths[0]);
    unlink(paths[1]);
    /* The second file cannot be created: neither appears, no temp file stays behind. */
    const char *bad[2] = {scratch_path("three.json"), scratch_path("no-such-dir/four.json")};
    CHECK(cuzk_interop_write_files(bad, contents, 2, &err) == CUZK_ERR_IO);
    CHECK_MSG(strstr(err.msg, "four.json") != NULL, "%s", err.msg);
    CHECK(!file_exists(bad[0]));
    CHECK(scratch_count() == before);
}

int main(void)
{
    test_init("test_interop_json");
    test_byte_exact("mult");
    test_byte_exact("cmp");
    test_empty_and_infinity();
    test_decimal();
    test_readers();
    test_write_files();
    scratch_cleanup();
    return test_finish();
}
