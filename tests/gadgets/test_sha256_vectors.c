/* bellperson's sha256.rs test_against_vectors: SHA-256 of random messages of 0..31 and 32..255
 * (step 8) bytes in the circuit equals OpenSSL's SHA-256. */
#include <string.h>
#include "gadget_harness.h"
#include "gadgets/boolean.h"
#include "gadgets/sha256.h"
#include "test_util.h"

/* test_against_vectors: random messages of 0..31 and 32..255 (step 8) bytes. The test backend
 * for the short ones (values and satisfiability), the witness backend (values only, no LCs) for
 * the long ones to keep the run short. */
static void against_vectors(void)
{
    static uint8_t m[256];
    static cuzk_boolean_t bits[2048];
    for (size_t len = 0; len < 256; len = len < 32 ? len + 1 : len + 8) {
        test_rand_bytes(m, len);
        uint8_t want[32], d[32];
        gh_openssl_sha256(m, len, want);
        cuzk_cs_t *cs = NULL;
        CHECK(cuzk_cs_new(&cs, len < 32 || len % 64 == 0 ? CUZK_CS_TEST : CUZK_CS_WITNESS, CUZK_LC_DEFAULT, NULL) ==
              CUZK_OK);
        gh_alloc_message(cs, m, len, bits);
        cuzk_boolean_t out[256];
        cuzk_sha256(cs, bits, 8 * len, out);
        CHECK(cuzk_cs_status(cs, NULL) == CUZK_OK);
        CHECK_MSG(gh_digest_bytes(out, d) && memcmp(d, want, 32) == 0, "digest of %zu bytes differs", len);
        if (cuzk_cs_get_backend(cs) == CUZK_CS_TEST)
            CHECK_MSG(gh_satisfied(cs), "%zu bytes: unsatisfied", len);
        cuzk_cs_free(cs);
    }
}

int main(void)
{
    test_init("test_sha256_vectors");
    against_vectors();
    return test_finish();
}
