/* Does a PoRep witness satisfy the circuit? Synthesized on the direct backend, every row checked
 * (a·b = c). Test-only, static. */
#ifndef CUZK_TESTS_FC_POREP_TEST_H
#define CUZK_TESTS_FC_POREP_TEST_H
#include <string.h>
#include "cuzk/cs.h"
#include "cuzk/filecoin.h"
#include "ff/fr.h"
#include "test_util.h"

/* Every row of a synthesized system holds. */
static inline bool fc_test_rows_hold(const cuzk_groth16_witness_t *gw)
{
    bool ok = true;
    for (size_t k = 0; k < gw->num_constraints && ok; k++) {
        fr ab;
        fr_mul(&ab, &gw->a[k], &gw->b[k]);
        ok = fr_eq(&ab, &gw->c[k]);
    }
    return ok;
}

/* w synthesized for cfg: true when every row holds. A failed synthesis does not hold; with
 * must_synthesize it is also a CHECK failure naming the error. With inputs, the system must have
 * n_inputs public inputs (ONE first), copied there. */
static inline bool fc_test_porep_holds(const cuzk_porep_config_t *cfg, const cuzk_porep_witness_t *w, fr *inputs,
                                       size_t n_inputs, bool must_synthesize)
{
    cuzk_cs_t *cs = NULL;
    CHECK(cuzk_cs_new(&cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, NULL) == CUZK_OK);
    cuzk_err_t err = {{0}};
    bool ok = cuzk_porep_synthesize(cs, cfg, w, &err) == CUZK_OK;
    if (must_synthesize)
        CHECK_MSG(ok, "%s", err.msg);
    cuzk_groth16_witness_t gw;
    if (ok && cuzk_cs_groth16_witness(cs, &gw, NULL) == CUZK_OK) {
        ok = fc_test_rows_hold(&gw);
        if (inputs) {
            CHECK(gw.num_inputs == n_inputs);
            memcpy(inputs, gw.input, (gw.num_inputs < n_inputs ? gw.num_inputs : n_inputs) * sizeof(fr));
        }
    }
    cuzk_cs_free(cs);
    return ok;
}

#endif
