/* G1 encodings (48-byte compressed, 96-byte uncompressed): known answers, round trips, infinity, and
 * every class of bad input with its status code. */
#include "ec/ec.h"

#define EC_FE fp
#define EC_F(op) fp_##op
#define EC_FE_ONE FP_ONE
#define EC_FE_ZERO FP_ZERO
#define EC_AFF g1_aff
#define EC_JAC g1_jac
#define EC_FN(name) g1_##name
#define EC_PUB(name) cuzk_g1_##name
#define EC_RAND_FE rand_fp
#define EC_CB CUZK_G1_COMPRESSED_BYTES
#define EC_UB CUZK_G1_UNCOMPRESSED_BYTES
#define EC_NFP 1
#define F_SIGN fp_is_lexicographically_largest
#define F_TO_BYTES fp_to_bytes_be
#include "encode_test_impl.h"

/* k·G for k = 1, 2, 123456789, computed by src/ec/gen_consts.py's Python arithmetic; 1 and 2 are
 * also zcash/bls12_381's published generator encodings. */
static const uint64_t kat_k[] = {1, 2, 123456789};
static const char *const kat_c[] = {
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
    "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
    "af95b8218cbee2f4fa48e6b6f1df4e8ee46fee73c270dba395dad523d10c9b35295ccfc92cf0a9db8a065e16dafbfaad",
};
static const char *const kat_u[] = {
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
    "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"
    "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28",
    "0f95b8218cbee2f4fa48e6b6f1df4e8ee46fee73c270dba395dad523d10c9b35295ccfc92cf0a9db8a065e16dafbfaad"
    "198a99c756b5a6e9f5917aa7c3e7f6191a38b1f0f348f6be14a15814c15ce2417ade0a03dc5595abac997da5f5fc5338",
};

int main(void)
{
    test_init("test_g1_encode");
    test_kat(kat_k, kat_c, kat_u, 3);
    run_encode_tests();
    return test_finish();
}
