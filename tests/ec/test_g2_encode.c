/* G2 encodings (96-byte compressed, 192-byte uncompressed, Fp2 as c1 || c0): known answers, round
 * trips, infinity, and every class of bad input with its status code. */
#include "ec/ec.h"

static void fp2_to_bytes_c1c0(uint8_t out[2 * FP_BYTES], const fp2 *a)
{
    fp_to_bytes_be(out, &a->c1);
    fp_to_bytes_be(out + FP_BYTES, &a->c0);
}

#define EC_FE fp2
#define EC_F(op) fp2_##op
#define EC_FE_ONE FP2_ONE
#define EC_FE_ZERO FP2_ZERO
#define EC_AFF g2_aff
#define EC_JAC g2_jac
#define EC_FN(name) g2_##name
#define EC_PUB(name) cuzk_g2_##name
#define EC_RAND_FE rand_fp2
#define EC_CB CUZK_G2_COMPRESSED_BYTES
#define EC_UB CUZK_G2_UNCOMPRESSED_BYTES
#define EC_NFP 2
#define F_SIGN fp2_is_lexicographically_largest
#define F_TO_BYTES fp2_to_bytes_c1c0
#include "encode_test_impl.h"

/* k·G for k = 1, 2, 123456789, computed by src/ec/gen_consts.py's Python arithmetic; 1 and 2 are
 * also zcash/bls12_381's published generator encodings. */
static const uint64_t kat_k[] = {1, 2, 123456789};
static const char *const kat_c[] = {
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
    "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
    "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053",
    "b068ad1be382009ac2dce123ec62dca8337d6b93b909b3ee52e31cb9e4098d1b56d596bf3c08166c7b46cb3aa85c2338"
    "1380055ab9f1a87786f2508f3e4ce5caa5abcdae0a80141ee8ccc3626311e0a53be5d873fa964fd85ad56771f2984579",
};
static const char *const kat_u[] = {
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
    "0a4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
    "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
    "0f6d4552fa65dd2638b361543f887136a43253d9c66c411697003f7a13c308f5422e1aa0a59c8967acdefd8b6e36ccf3"
    "0468fb440d82b0630aeb8dca2b5256789a66da69bf91009cbfe6bd221e47aa8ae88dece9764bf3bd999d95d71e4c9899",
    "1068ad1be382009ac2dce123ec62dca8337d6b93b909b3ee52e31cb9e4098d1b56d596bf3c08166c7b46cb3aa85c2338"
    "1380055ab9f1a87786f2508f3e4ce5caa5abcdae0a80141ee8ccc3626311e0a53be5d873fa964fd85ad56771f2984579"
    "160526992769b742b3d31b06a77b3a2eb84c1700c0efdf03e1ccb34954e97050471f22b54b4de9e933ff040cde20422a"
    "0ee5d679615b0ac8fc39d0bd398990abaac87641757a24839edf8ccfc9e7d839d5a45c5afde88a129ac38a63b9c6cf66",
};

int main(void)
{
    test_init("test_g2_encode");
    test_kat(kat_k, kat_c, kat_u, 3);
    run_encode_tests();
    return test_finish();
}
