/* The verifying key in bellperson's VerifyingKey::write layout: six uncompressed points, a u32 BE
 * count, the ic points. Reading follows VerifyingKey::read: everything fully checked, infinity
 * accepted for the six fixed points and rejected in ic. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/params_internal.h"

size_t cuzk_params_vk_size(size_t ic_len) { return CUZK_PARAMS_VK_FIXED_BYTES + PARAMS_G1_BYTES * ic_len; }

/* The six fixed points in file order: name, group, byte offset, place in the struct. */
typedef struct {
    const char *name;
    bool g2;
    size_t off, field;
} vk_field;

static const vk_field VK_FIELDS[6] = {
    {"alpha_g1", false, 0, offsetof(cuzk_groth16_vk_t, alpha_g1)},
    {"beta_g1", false, 96, offsetof(cuzk_groth16_vk_t, beta_g1)},
    {"beta_g2", true, 192, offsetof(cuzk_groth16_vk_t, beta_g2)},
    {"gamma_g2", true, 384, offsetof(cuzk_groth16_vk_t, gamma_g2)},
    {"delta_g1", false, 576, offsetof(cuzk_groth16_vk_t, delta_g1)},
    {"delta_g2", true, 672, offsetof(cuzk_groth16_vk_t, delta_g2)},
};

cuzk_status cuzk_params_vk_encode(uint8_t *out, size_t out_len, const cuzk_groth16_vk_t *vk,
                                  cuzk_err_t *err)
{
    if (!out || !vk || (vk->ic_len && !vk->ic))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "verifying key encode: NULL argument");
    if (vk->ic_len > UINT32_MAX)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "verifying key encode: ic_len %zu does not fit the u32 length field",
                            vk->ic_len);
    size_t need = cuzk_params_vk_size(vk->ic_len);
    if (out_len < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH,
                            "verifying key encode: %zu bytes needed, buffer has %zu", need, out_len);
    for (int k = 0; k < 6; k++) {
        const void *pt = (const char *)vk + VK_FIELDS[k].field;
        if (VK_FIELDS[k].g2)
            params_enc_g2(out + VK_FIELDS[k].off, pt);
        else
            params_enc_g1(out + VK_FIELDS[k].off, pt);
    }
    params_put_u32be(out + PARAMS_VK_POINTS_BYTES, (uint32_t)vk->ic_len);
    params_enc_g1_array(out + CUZK_PARAMS_VK_FIXED_BYTES, vk->ic, vk->ic_len, 1);
    return CUZK_OK;
}

cuzk_status params_vk_decode_prefix(cuzk_groth16_vk_t *vk, const uint8_t *buf, size_t len,
                                    size_t *used, int threads, const char *what, cuzk_err_t *err)
{
    if (len < CUZK_PARAMS_VK_FIXED_BYTES)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: truncated in the verifying key: %zu bytes, its fixed part needs %d",
                            what, len, CUZK_PARAMS_VK_FIXED_BYTES);
    uint32_t ic_len = params_get_u32be(buf + PARAMS_VK_POINTS_BYTES);
    uint64_t need = CUZK_PARAMS_VK_FIXED_BYTES + (uint64_t)PARAMS_G1_BYTES * ic_len;
    if (need > len)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: truncated in vk.ic: ic_len %u (at byte %d) needs %llu bytes, only %zu "
                            "remain",
                            what, ic_len, PARAMS_VK_POINTS_BYTES,
                            (unsigned long long)(need - CUZK_PARAMS_VK_FIXED_BYTES),
                            len - CUZK_PARAMS_VK_FIXED_BYTES);

    cuzk_groth16_vk_t t;
    memset(&t, 0, sizeof t);
    for (int k = 0; k < 6; k++) {
        const uint8_t *in = buf + VK_FIELDS[k].off;
        void *pt = (char *)&t + VK_FIELDS[k].field;
        int c = VK_FIELDS[k].g2 ? params_dec_g2(pt, in, CUZK_PARAMS_CHECK_SUBGROUP, true)
                                : params_dec_g1(pt, in, CUZK_PARAMS_CHECK_SUBGROUP, true);
        if (c != CUZK_OK)
            return cuzk_err_set(err, params_code_status(c), "%s: vk.%s at byte %zu: %s", what,
                                VK_FIELDS[k].name, VK_FIELDS[k].off, params_code_str(c));
    }
    if (ic_len) {
        t.ic = malloc(sizeof *t.ic * ic_len);
        if (!t.ic)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %u ic points", what,
                                ic_len);
        size_t bad;
        int code;
        if (!params_dec_g1_array(t.ic, buf + CUZK_PARAMS_VK_FIXED_BYTES, ic_len,
                                 CUZK_PARAMS_CHECK_SUBGROUP, threads, &bad, &code)) {
            free(t.ic);
            return cuzk_err_set(err, params_code_status(code), "%s: vk.ic[%zu] at byte %zu: %s", what,
                                bad, CUZK_PARAMS_VK_FIXED_BYTES + bad * PARAMS_G1_BYTES,
                                params_code_str(code));
        }
    }
    t.ic_len = ic_len;
    *vk = t;
    *used = (size_t)need;
    return CUZK_OK;
}

static cuzk_status vk_decode_named(cuzk_groth16_vk_t *vk, const uint8_t *in, size_t len,
                                   const char *what, cuzk_err_t *err)
{
    size_t used;
    cuzk_status st = params_vk_decode_prefix(vk, in, len, &used, params_threads(0), what, err);
    if (st != CUZK_OK)
        return st;
    if (used != len) {
        free(vk->ic);
        memset(vk, 0, sizeof *vk);
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: %zu trailing bytes after the verifying key (ic_len %zu ends at byte %zu)",
                            what, len - used, (size_t)((used - CUZK_PARAMS_VK_FIXED_BYTES) / PARAMS_G1_BYTES),
                            used);
    }
    return CUZK_OK;
}

cuzk_status cuzk_params_vk_decode(cuzk_groth16_vk_t *vk, const uint8_t *in, size_t len,
                                  cuzk_err_t *err)
{
    if (!vk || (!in && len))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "verifying key decode: NULL argument");
    static const uint8_t none[1];
    cuzk_groth16_vk_t t;
    cuzk_status st = vk_decode_named(&t, in ? in : none, len, "verifying key", err);
    if (st == CUZK_OK)
        *vk = t;
    return st;
}

cuzk_status cuzk_params_vk_read(cuzk_groth16_vk_t *vk, const char *path, cuzk_err_t *err)
{
    if (!vk || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "verifying key read: NULL argument");
    params_map_t m;
    cuzk_status st = params_map_file(&m, path, err);
    if (st != CUZK_OK)
        return st;
    static const uint8_t none[1];
    cuzk_groth16_vk_t t;
    st = vk_decode_named(&t, m.data ? m.data : none, m.len, path, err);
    params_unmap(&m);
    if (st == CUZK_OK)
        *vk = t;
    return st;
}

cuzk_status cuzk_params_vk_write(const char *path, const cuzk_groth16_vk_t *vk, cuzk_err_t *err)
{
    if (!path || !vk)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "verifying key write: NULL argument");
    size_t n = cuzk_params_vk_size(vk->ic_len);
    uint8_t *buf = malloc(n);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory (%zu bytes)", path, n);
    cuzk_status st = cuzk_params_vk_encode(buf, n, vk, err);
    params_out_t o;
    if (st == CUZK_OK)
        st = params_out_open(&o, path, err);
    if (st == CUZK_OK) {
        st = params_out_write(&o, buf, n, err);
        if (st == CUZK_OK)
            st = params_out_commit(&o, err);
        else
            params_out_abort(&o);
    }
    free(buf);
    return st;
}
