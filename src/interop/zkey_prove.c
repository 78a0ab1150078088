/* Groth16 proving from a snarkjs zkey: the library prover in snarkjs's mode (H on the odd powers of
 * the 2m-th root, rows at ffjavascript's domain positions). Kept apart from the readers so that
 * programs that only read files do not pull in the prover. */
#include "cuzk/interop.h"
#include "groth16/groth16_internal.h"
#include "interop/interop_internal.h"
#include "util/timer.h"
#include "util/timing.h"

cuzk_status cuzk_zkey_prove(cuzk_groth16_proof_t *proof, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                            size_t n, const cuzk_groth16_prove_opts *opts, cuzk_err_t *err)
{
    return interop_zkey_prove_blinded(proof, zk, wtns, n, opts, NULL, NULL, err);
}

cuzk_status interop_zkey_prove_blinded(cuzk_groth16_proof_t *proof, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                                       size_t n, const cuzk_groth16_prove_opts *opts, const cuzk_fr_t *fixed_r,
                                       const cuzk_fr_t *fixed_s, cuzk_err_t *err)
{
    if (!proof || !zk)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_zkey_prove: NULL argument");
    cuzk_groth16_prove_opts o = {0};
    if (opts)
        o = *opts;
    o.h_mode = CUZK_GROTH16_H_ODD_ROOTS;
    o.row_position = zk->row_position;
    o.h_source = zk->h_source;
    cuzk_zkey_witness_t w;
    uint64_t t = cuzk_now_ns();
    cuzk_status s = cuzk_zkey_witness(&w, zk, wtns, n, o.threads, err);
    if (s != CUZK_OK)
        return s;
    cuzk_timing_report("synthesis", t);   /* a = A·w, b = B·w, c = a∘b from the zkey's matrices */
    s = g16_prove_blinded(proof, &zk->pk, &w.w, 1, &o, fixed_r, fixed_s, err);
    cuzk_zkey_witness_free(&w);
    return s;
}
