/* A zkey whose file is truncated after it was read: its points are used in place by the MSMs (where the
 * file's layout allows, as it does for the checked-in vectors), so they must not live in a mapping of the
 * file, which would raise SIGBUS past the new end. The proof made after the truncation verifies under
 * snarkjs's verifying key, and reading the emptied file is an error naming it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/interop.h"
#include "ff/fr.h"
#include "interop_test_util.h"
#include "test_util.h"

static void test_prove_after_truncation(void)
{
    cuzk_err_t err = {{0}};
    size_t len;
    char *bytes = test_read_file(VEC_DIR "cmp.zkey", &len);
    CHECK(bytes != NULL);
    if (!bytes)
        return;
    const char *copy = scratch_path("cmp.zkey");
    CHECK(write_bytes(copy, bytes, len));
    free(bytes);

    cuzk_zkey_t z;
    cuzk_wtns_t w;
    cuzk_groth16_vk_t vk;
    CHECK_MSG(cuzk_zkey_read(&z, copy, 2, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_wtns_read(&w, VEC_DIR "cmp.wtns", &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_snarkjs_vk_read(&vk, VEC_DIR "cmp_vk.json", &err) == CUZK_OK, "%s", err.msg);
    /* the case that matters: points used where they lie */
    CHECK(z.a_in_place || z.b_g1_in_place || z.b_g2_in_place || z.l_in_place || z.h_in_place);

    CHECK(truncate(copy, 0) == 0);
    cuzk_groth16_proof_t proof;
    cuzk_status st = cuzk_zkey_prove(&proof, &z, w.values, w.n, NULL, &err);
    CHECK_MSG(st == CUZK_OK, "proving after the truncation: %s", err.msg);
    cuzk_groth16_pvk_t *pvk = NULL;
    CHECK(cuzk_groth16_pvk_new(&pvk, &vk) == CUZK_OK);
    cuzk_scalar_t *xs = malloc(z.n_public * sizeof *xs);
    for (size_t i = 0; i < z.n_public; i++)
        fr_to_scalar(&xs[i], &w.values[1 + i]);
    bool valid = false;
    CHECK(st != CUZK_OK || (cuzk_groth16_verify(&valid, pvk, &proof, xs, z.n_public, &err) == CUZK_OK && valid));
    free(xs);
    cuzk_groth16_pvk_free(pvk);
    cuzk_interop_vk_free(&vk);
    cuzk_wtns_free(&w);
    cuzk_zkey_free(&z);

    /* read again now that it is empty: an error */
    memset(&err, 0, sizeof err);
    CHECK(cuzk_zkey_read(&z, copy, 2, 0, &err) == CUZK_ERR_FORMAT && strstr(err.msg, copy));
}

int main(void)
{
    test_init("test_zkey_shrink");
    scratch_dir();
    test_prove_after_truncation();
    scratch_cleanup();
    return test_finish();
}
