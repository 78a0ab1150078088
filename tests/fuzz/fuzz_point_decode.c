/* libFuzzer target for the G1/G2 point decoders (the first parser every parameter file and proof goes
 * through). Properties checked on every input, for all four formats:
 *   - no decoder crashes or reads past its input;
 *   - a successful decode re-encodes to exactly the input bytes (encodings are canonical);
 *   - a decoded point is on the curve, and in the subgroup for the checked decoders;
 *   - the unchecked decoder accepts whatever the checked one accepts, and fails only where the
 *     checked one fails for a reason other than the subgroup. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/curve.h"
#include "ec/ec.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)

static void check_status_pair(cuzk_status checked, cuzk_status unchecked)
{
    if (checked == CUZK_OK)
        REQUIRE(unchecked == CUZK_OK);
    else if (checked == CUZK_ERR_NOT_IN_SUBGROUP)
        REQUIRE(unchecked == CUZK_OK);
    else
        REQUIRE(unchecked == checked);
}

static void fuzz_g1(const uint8_t *in, size_t len, int compressed)
{
    size_t n = compressed ? CUZK_G1_COMPRESSED_BYTES : CUZK_G1_UNCOMPRESSED_BYTES;
    if (len < n)
        return;
    cuzk_g1_affine_t p, q;
    uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES];
    cuzk_status s = compressed ? cuzk_g1_decompress(&p, in) : cuzk_g1_deserialize(&p, in);
    cuzk_status u = compressed ? cuzk_g1_decompress_unchecked(&q, in)
                               : cuzk_g1_deserialize_unchecked(&q, in);
    check_status_pair(s, u);
    if (u == CUZK_OK) {
        REQUIRE(g1_aff_on_curve(&q));
        if (compressed)
            cuzk_g1_compress(out, &q);
        else
            cuzk_g1_serialize(out, &q);
        REQUIRE(memcmp(out, in, n) == 0);
    }
    if (s == CUZK_OK)
        REQUIRE(g1_aff_in_subgroup(&p) && g1_aff_eq(&p, &q));
}

static void fuzz_g2(const uint8_t *in, size_t len, int compressed)
{
    size_t n = compressed ? CUZK_G2_COMPRESSED_BYTES : CUZK_G2_UNCOMPRESSED_BYTES;
    if (len < n)
        return;
    cuzk_g2_affine_t p, q;
    uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES];
    cuzk_status s = compressed ? cuzk_g2_decompress(&p, in) : cuzk_g2_deserialize(&p, in);
    cuzk_status u = compressed ? cuzk_g2_decompress_unchecked(&q, in)
                               : cuzk_g2_deserialize_unchecked(&q, in);
    check_status_pair(s, u);
    if (u == CUZK_OK) {
        REQUIRE(g2_aff_on_curve(&q));
        if (compressed)
            cuzk_g2_compress(out, &q);
        else
            cuzk_g2_serialize(out, &q);
        REQUIRE(memcmp(out, in, n) == 0);
    }
    if (s == CUZK_OK)
        REQUIRE(g2_aff_in_subgroup(&p) && g2_aff_eq(&p, &q));
}

/* With CUZK_FUZZ_SEEDS=<dir>: writes one valid encoding per format (3·G, behind its format byte)
 * and the compressed infinity, then exits (`make fuzz` does this first). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (!dir || !*dir)
        return 0;
    cuzk_g1_affine_t g1;
    cuzk_g2_affine_t g2;
    g1_jac j1;
    g2_jac j2;
    g1_generator(&g1);
    g2_generator(&g2);
    g1_jac_from_aff(&j1, &g1);
    g2_jac_from_aff(&j2, &g2);
    g1_jac_add_aff(&j1, &j1, &g1), g1_jac_add_aff(&j1, &j1, &g1);
    g2_jac_add_aff(&j2, &j2, &g2), g2_jac_add_aff(&j2, &j2, &g2);
    g1_jac_to_aff(&g1, &j1);
    g2_jac_to_aff(&g2, &j2);
    uint8_t seeds[5][1 + CUZK_G2_UNCOMPRESSED_BYTES] = {{0}, {1}, {2}, {3}, {0, 0xc0}};
    const size_t lens[5] = {1 + CUZK_G1_COMPRESSED_BYTES, 1 + CUZK_G1_UNCOMPRESSED_BYTES,
                            1 + CUZK_G2_COMPRESSED_BYTES, 1 + CUZK_G2_UNCOMPRESSED_BYTES,
                            1 + CUZK_G1_COMPRESSED_BYTES};
    cuzk_g1_compress(seeds[0] + 1, &g1);
    cuzk_g1_serialize(seeds[1] + 1, &g1);
    cuzk_g2_compress(seeds[2] + 1, &g2);
    cuzk_g2_serialize(seeds[3] + 1, &g2);
    for (int i = 0; i < 5; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/seed-%d", dir, i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(seeds[i], 1, lens[i], f) != lens[i] || fclose(f) != 0) {
            fprintf(stderr, "cannot write seed %s\n", path);
            exit(1);
        }
    }
    exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    if (len < 1)
        return 0;
    /* The first byte picks the format so that the fuzzer explores each decoder separately. */
    const uint8_t *in = data + 1;
    len--;
    switch (data[0] & 3) {
    case 0: fuzz_g1(in, len, 1); break;
    case 1: fuzz_g1(in, len, 0); break;
    case 2: fuzz_g2(in, len, 1); break;
    case 3: fuzz_g2(in, len, 0); break;
    }
    return 0;
}
