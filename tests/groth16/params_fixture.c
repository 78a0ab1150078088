/* Writes a small .params and .vk pair (random R1CS, development setup) into a directory, for the
 * command-line tests of `cuzk params`. Usage: params_fixture <dir> */
#include <stdio.h>
#include "cuzk/params.h"
#include "r1cs_gen.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: params_fixture <dir>\n");
        return 2;
    }
    test_init("params-fixture");
    test_circuit tc;
    test_circuit_random(&tc, 3, 20, 30);
    cuzk_groth16_pk_t pk;
    cuzk_err_t err = {{0}};
    char path[4096];
    CHECK_MSG(cuzk_groth16_setup(&pk, &tc.r1cs, 1, &err) == CUZK_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/tiny.params", argv[1]);
    CHECK_MSG(cuzk_params_write(path, &pk, 1, &err) == CUZK_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/tiny.vk", argv[1]);
    CHECK_MSG(cuzk_params_vk_write(path, &pk.vk, &err) == CUZK_OK, "%s", err.msg);
    cuzk_groth16_pk_free(&pk);
    test_circuit_free(&tc);
    return test_finish();
}
