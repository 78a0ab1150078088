/* Readers of snarkjs's proof.json, public.json and verification_key.json (jansson). They accept what
 * snarkjs's verifier accepts: numbers as decimal or 0x-hex strings or JSON integers, points as
 * [x, y] or Jacobian [x, y, z] (z = 0 is infinity), curve names compared as snarkjs compares them. */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "interop/interop_internal.h"

static cuzk_status load(json_t **out, const char *path, cuzk_err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    json_error_t je;
    *out = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!*out)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: line %d: %s", path, je.line, je.text);
    return CUZK_OK;
}

/* A number of n limbs from a string or a non-negative integer. */
static bool get_big(uint64_t *out, size_t n, const json_t *v)
{
    if (json_is_string(v))
        return interop_limbs_from_str(out, n, json_string_value(v));
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        memset(out, 0, n * sizeof *out);
        out[0] = (uint64_t)json_integer_value(v);
        return true;
    }
    return false;
}

static cuzk_status get_fp(fp *out, const json_t *v, const char *path, const char *what, cuzk_err_t *err)
{
    uint64_t l[FP_LIMBS];
    if (!get_big(l, FP_LIMBS, v))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: expected a decimal string", path, what);
    if (!interop_limbs_lt(l, FP_MODULUS, FP_LIMBS))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: %s: coordinate not below p", path, what);
    fp_to_mont(out, l);
    return CUZK_OK;
}

static cuzk_status get_fp2(fp2 *out, const json_t *v, const char *path, const char *what, cuzk_err_t *err)
{
    char w[128];
    if (!json_is_array(v) || json_array_size(v) != 2)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: expected [c0, c1]", path, what);
    cuzk_status s;
    snprintf(w, sizeof w, "%s[0]", what);
    if ((s = get_fp(&out->c0, json_array_get(v, 0), path, w, err)) != CUZK_OK)
        return s;
    snprintf(w, sizeof w, "%s[1]", what);
    return get_fp(&out->c1, json_array_get(v, 1), path, w, err);
}

static cuzk_status get_g1(g1_aff *out, const json_t *v, const char *path, const char *what, cuzk_err_t *err)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || (n != 2 && n != 3))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: expected [x, y, z]", path, what);
    g1_jac j;
    char w[96];
    cuzk_status s;
    fp *c[3] = {&j.x, &j.y, &j.z};
    j.z = FP_ONE;
    for (size_t i = 0; i < n; i++) {
        snprintf(w, sizeof w, "%s[%zu]", what, i);
        if ((s = get_fp(c[i], json_array_get(v, i), path, w, err)) != CUZK_OK)
            return s;
    }
    g1_aff p;
    if (fp_is_zero(&j.z))
        g1_aff_set_inf(&p);
    else
        g1_jac_to_aff(&p, &j);
    if (!g1_aff_is_inf(&p) && !g1_aff_on_curve(&p))
        return cuzk_err_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: %s: point not on the curve", path, what);
    if (!g1_aff_is_inf(&p) && !g1_aff_in_subgroup(&p))
        return cuzk_err_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: %s: point not in the subgroup", path, what);
    *out = p;
    return CUZK_OK;
}

static cuzk_status get_g2(g2_aff *out, const json_t *v, const char *path, const char *what, cuzk_err_t *err)
{
    size_t n = json_array_size(v);
    if (!json_is_array(v) || (n != 2 && n != 3))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %s: expected [x, y, z]", path, what);
    g2_jac j;
    char w[96];
    cuzk_status s;
    fp2 *c[3] = {&j.x, &j.y, &j.z};
    j.z.c0 = FP_ONE;
    j.z.c1 = FP_ZERO;
    for (size_t i = 0; i < n; i++) {
        snprintf(w, sizeof w, "%s[%zu]", what, i);
        if ((s = get_fp2(c[i], json_array_get(v, i), path, w, err)) != CUZK_OK)
            return s;
    }
    g2_aff p;
    if (fp_is_zero(&j.z.c0) && fp_is_zero(&j.z.c1))
        g2_aff_set_inf(&p);
    else
        g2_jac_to_aff(&p, &j);
    if (!g2_aff_is_inf(&p) && !g2_aff_on_curve(&p))
        return cuzk_err_set(err, CUZK_ERR_NOT_ON_CURVE, "%s: %s: point not on the curve", path, what);
    if (!g2_aff_is_inf(&p) && !g2_aff_in_subgroup(&p))
        return cuzk_err_set(err, CUZK_ERR_NOT_IN_SUBGROUP, "%s: %s: point not in the subgroup", path, what);
    *out = p;
    return CUZK_OK;
}

/* snarkjs compares curve names upper-cased with everything but letters and digits removed. */
static bool curve_is_bls12381(const char *name)
{
    char norm[32];
    size_t k = 0;
    for (const char *c = name; *c; c++) {
        if (!isalnum((unsigned char)*c))
            continue;
        if (k + 1 >= sizeof norm)
            return false;
        norm[k++] = (char)toupper((unsigned char)*c);
    }
    norm[k] = '\0';
    return strcmp(norm, "BLS12381") == 0;
}

/* Optional "protocol" and "curve" members must name Groth16 over BLS12-381 when present (required
 * when `required`). */
static cuzk_status check_protocol(const json_t *root, const char *path, bool required, cuzk_err_t *err)
{
    const json_t *p = json_object_get(root, "protocol"), *c = json_object_get(root, "curve");
    if (required && (!p || !c))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: missing \"protocol\" or \"curve\"", path);
    if (p && (!json_is_string(p) || strcmp(json_string_value(p), "groth16") != 0))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: protocol is not groth16", path);
    if (c && (!json_is_string(c) || !curve_is_bls12381(json_string_value(c))))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s: curve is %s, not bls12381", path,
                            json_is_string(c) ? json_string_value(c) : "(not a string)");
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_proof_read(cuzk_groth16_proof_t *proof, const char *path, cuzk_err_t *err)
{
    json_t *root;
    cuzk_status s = load(&root, path, err);
    if (s != CUZK_OK)
        return s;
    cuzk_groth16_proof_t p;
    if (!json_is_object(root))
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object", path);
    else if ((s = check_protocol(root, path, false, err)) == CUZK_OK &&
             (s = get_g1(&p.a, json_object_get(root, "pi_a"), path, "pi_a", err)) == CUZK_OK &&
             (s = get_g2(&p.b, json_object_get(root, "pi_b"), path, "pi_b", err)) == CUZK_OK &&
             (s = get_g1(&p.c, json_object_get(root, "pi_c"), path, "pi_c", err)) == CUZK_OK)
        *proof = p;
    json_decref(root);
    return s;
}

cuzk_status cuzk_snarkjs_public_read(cuzk_scalar_t **inputs, size_t *n, const char *path, cuzk_err_t *err)
{
    json_t *root;
    cuzk_status s = load(&root, path, err);
    if (s != CUZK_OK)
        return s;
    if (!json_is_array(root)) {
        json_decref(root);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON array", path);
    }
    size_t len = json_array_size(root);
    cuzk_scalar_t *v = malloc((len ? len : 1) * sizeof *v);
    if (!v) {
        json_decref(root);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < len && s == CUZK_OK; i++) {
        if (!get_big(v[i].l, FR_LIMBS, json_array_get(root, i)))
            s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: public signal %zu: expected a decimal string", path, i);
        else if (!interop_limbs_lt(v[i].l, FR_MODULUS, FR_LIMBS))
            s = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: public signal %zu is not below r", path, i);
    }
    json_decref(root);
    if (s != CUZK_OK) {
        free(v);
        return s;
    }
    *inputs = v;
    *n = len;
    return CUZK_OK;
}

cuzk_status cuzk_snarkjs_vk_read(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err)
{
    json_t *root;
    cuzk_status s = load(&root, path, err);
    if (s != CUZK_OK)
        return s;
    cuzk_groth16_vk_t v;
    memset(&v, 0, sizeof v);
    const json_t *np = json_object_get(root, "nPublic"), *ic = json_object_get(root, "IC");
    if (!json_is_object(root)) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: not a JSON object", path);
        goto out;
    }
    if ((s = check_protocol(root, path, true, err)) != CUZK_OK)
        goto out;
    if (!json_is_array(ic) || json_array_size(ic) == 0) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"IC\" is missing or empty", path);
        goto out;
    }
    if (np && (!json_is_integer(np) || json_integer_value(np) < 0 ||
               (size_t)json_integer_value(np) + 1 != json_array_size(ic))) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: \"nPublic\" does not match the %zu IC points", path,
                         json_array_size(ic));
        goto out;
    }
    if ((s = get_g1(&v.alpha_g1, json_object_get(root, "vk_alpha_1"), path, "vk_alpha_1", err)) != CUZK_OK ||
        (s = get_g2(&v.beta_g2, json_object_get(root, "vk_beta_2"), path, "vk_beta_2", err)) != CUZK_OK ||
        (s = get_g2(&v.gamma_g2, json_object_get(root, "vk_gamma_2"), path, "vk_gamma_2", err)) != CUZK_OK ||
        (s = get_g2(&v.delta_g2, json_object_get(root, "vk_delta_2"), path, "vk_delta_2", err)) != CUZK_OK)
        goto out;
    g1_aff_set_inf(&v.beta_g1);
    g1_aff_set_inf(&v.delta_g1);
    v.ic_len = json_array_size(ic);
    v.ic = malloc(v.ic_len * sizeof *v.ic);
    if (!v.ic) {
        s = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < v.ic_len; i++) {
        char w[32];
        snprintf(w, sizeof w, "IC[%zu]", i);
        if ((s = get_g1(&v.ic[i], json_array_get(ic, i), path, w, err)) != CUZK_OK)
            goto out;
    }
    *vk = v;
    memset(&v, 0, sizeof v);
out:
    cuzk_interop_vk_free(&v);
    json_decref(root);
    return s;
}
