/* libFuzzer target for the 192-byte proof decoder, cuzk_groth16_proof_read (the first 192 bytes of
 * the input; shorter inputs are skipped). Checked on every input: the status against the curve
 * layer's checked decompressors applied to a, b, c in turn (the first failure wins, then the point
 * at infinity anywhere is CUZK_ERR_FORMAT, as bellperson's Proof::read), a message on failure and
 * the output untouched, and on success points in the subgroup that cuzk_groth16_proof_write turns
 * back into the input bytes. */
#include "cuzk/groth16.h"
#include "fuzz_util.h"

static cuzk_status ref_proof(const uint8_t *in)
{
    cuzk_g1_affine_t a, c;
    cuzk_g2_affine_t b;
    cuzk_status st;
    if ((st = cuzk_g1_decompress(&a, in)) != CUZK_OK || (st = cuzk_g2_decompress(&b, in + 48)) != CUZK_OK ||
        (st = cuzk_g1_decompress(&c, in + 144)) != CUZK_OK)
        return st;
    return g1_aff_is_inf(&a) || g2_aff_is_inf(&b) || g1_aff_is_inf(&c) ? CUZK_ERR_FORMAT : CUZK_OK;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_tables_init();
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (!dir || !*dir)
        return 0;
    uint8_t p[192];
    char name[32];
    for (int k = 0; k < 3; k++) {
        memcpy(p, fz_g1_comp[k], 48);
        memcpy(p + 48, fz_g2_comp[k + 3], 96);
        memcpy(p + 144, fz_g1_comp[k + 5], 48);
        snprintf(name, sizeof name, "valid-%d", k);
        fz_seed(dir, name, p, sizeof p);
    }
    memset(p + 48, 0, 96); /* b at infinity */
    p[48] = 0xc0;
    fz_seed(dir, "b-infinity", p, sizeof p);
    exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    if (len < CUZK_GROTH16_PROOF_BYTES)
        return 0;
    cuzk_groth16_proof_t pr, before;
    memset(&pr, 0x5a, sizeof pr);
    before = pr;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_groth16_proof_read(&pr, data, &err);
    REQUIRE(st == ref_proof(data));
    if (st != CUZK_OK) {
        REQUIRE(err.msg[0] && memcmp(&pr, &before, sizeof pr) == 0);
        return 0;
    }
    REQUIRE(g1_aff_in_subgroup(&pr.a) && g2_aff_in_subgroup(&pr.b) && g1_aff_in_subgroup(&pr.c));
    uint8_t back[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_write(back, &pr);
    REQUIRE(memcmp(back, data, sizeof back) == 0);
    return 0;
}
