/* libFuzzer target for the .vk decoder, cuzk_params_vk_decode. The first input byte is a mode: with
 * bit 0 set the ic_len field (bytes 864..867 of the rest) is rewritten to the number of whole ic
 * points that follow, and with bit 1 also clear, the input is cut to exactly that size, so that the
 * point checks are reached past the length rules. Checked on every input: the status and the
 * message's field and offset against a reference (length rules from docs/FORMATS.md, points by the
 * curve layer's checked decoders), *vk untouched on failure, and on success the decoded key
 * re-encodes to the input bytes and its points are on the curve. */
#include "fuzz_util.h"

static const char *const VK_NAME[6] = {"alpha_g1", "beta_g1", "beta_g2", "gamma_g2", "delta_g1", "delta_g2"};
static const size_t VK_OFF[6] = {0, 96, 192, 384, 576, 672};
static const bool VK_G2[6] = {false, false, true, true, false, true};

static cuzk_status ref_vk(const uint8_t *d, size_t len, char *where, size_t cap)
{
    where[0] = 0;
    if (len < 868)
        return CUZK_ERR_FORMAT;
    uint64_t ic = fz_be32(d + 864), need = 868 + 96 * ic;
    if (need > len)
        return CUZK_ERR_FORMAT;
    for (int k = 0; k < 6; k++) {
        cuzk_status st = VK_G2[k] ? fz_ref_g2(d + VK_OFF[k], CUZK_PARAMS_CHECK_SUBGROUP, true)
                                  : fz_ref_g1(d + VK_OFF[k], CUZK_PARAMS_CHECK_SUBGROUP, true);
        if (st != CUZK_OK) {
            snprintf(where, cap, "vk.%s at byte %zu", VK_NAME[k], VK_OFF[k]);
            return st;
        }
    }
    for (uint64_t i = 0; i < ic; i++) {
        cuzk_status st = fz_ref_g1(d + 868 + 96 * i, CUZK_PARAMS_CHECK_SUBGROUP, false);
        if (st != CUZK_OK) {
            snprintf(where, cap, "vk.ic[%llu] at byte %llu", (unsigned long long)i,
                     (unsigned long long)(868 + 96 * i));
            return st;
        }
    }
    if (need != len) {
        snprintf(where, cap, "%zu trailing bytes", len - (size_t)need);
        return CUZK_ERR_FORMAT;
    }
    return CUZK_OK;
}

static void fuzz_vk(const uint8_t *d, size_t len)
{
    char where[96];
    cuzk_status want = ref_vk(d, len, where, sizeof where);
    cuzk_groth16_vk_t vk, before;
    memset(&vk, 0xa5, sizeof vk);
    before = vk;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_params_vk_decode(&vk, d, len, &err);
    REQUIRE(st == want);
    if (st != CUZK_OK) {
        REQUIRE(memcmp(&vk, &before, sizeof vk) == 0);
        REQUIRE(err.msg[0] && strstr(err.msg, where));
        return;
    }
    REQUIRE(cuzk_params_vk_size(vk.ic_len) == len);
    uint8_t *back = malloc(len);
    REQUIRE(back && cuzk_params_vk_encode(back, len, &vk, NULL) == CUZK_OK);
    REQUIRE(memcmp(back, d, len) == 0);
    REQUIRE(cuzk_params_vk_encode(back, len - 1, &vk, NULL) == CUZK_ERR_BAD_LENGTH);
    free(back);
    const cuzk_g1_affine_t *g1[3] = {&vk.alpha_g1, &vk.beta_g1, &vk.delta_g1};
    const cuzk_g2_affine_t *g2[3] = {&vk.beta_g2, &vk.gamma_g2, &vk.delta_g2};
    /* (in the subgroup: the reference accepted the same bytes) */
    for (int i = 0; i < 3; i++)
        REQUIRE(g1_aff_on_curve(g1[i]) && g2_aff_on_curve(g2[i]));
    for (size_t i = 0; i < vk.ic_len; i++)
        REQUIRE(!g1_aff_is_inf(&vk.ic[i]) && g1_aff_on_curve(&vk.ic[i]));
    cuzk_groth16_vk_free(&vk);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_tables_init();
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (!dir || !*dir)
        return 0;
    static uint8_t f[1 + 868 + 3 * 96];
    for (int k = 0; k < 6; k++)
        memcpy(f + 1 + VK_OFF[k], VK_G2[k] ? fz_g2_enc[k] : fz_g1_enc[k], VK_G2[k] ? 192 : 96);
    char name[64];
    for (uint32_t ic = 0; ic <= 2; ic++) {
        fz_put_be32(f + 1 + 864, ic);
        for (uint32_t i = 0; i < ic; i++)
            memcpy(f + 1 + 868 + 96 * i, fz_g1_enc[6 + i], 96);
        f[0] = 0;
        snprintf(name, sizeof name, "valid-ic%u", ic);
        fz_seed(dir, name, f, 1 + 868 + 96 * ic);
    }
    /* gamma_g2 at infinity (allowed), one ic point, repaired */
    memset(f + 1 + 384, 0, 192);
    f[1 + 384] = 0x40;
    f[0] = 1;
    fz_seed(dir, "infinity-repaired", f, 1 + 868 + 96);
    exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    if (len < 1)
        return 0;
    int mode = data[0];
    data++, len--;
    if (!(mode & 1) || len < 868) {
        fuzz_vk(data, len);
        return 0;
    }
    size_t ic = (len - 868) / 96;
    if (ic > UINT32_MAX)
        ic = UINT32_MAX;
    size_t n = mode & 2 ? len : 868 + 96 * ic;
    uint8_t *copy = malloc(n); /* exact size, so that a read past the end is caught */
    memcpy(copy, data, n);
    fz_put_be32(copy + 864, (uint32_t)ic);
    fuzz_vk(copy, n);
    free(copy);
    return 0;
}
