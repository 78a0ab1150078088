/* The request side of the SnapDeals product path (cuzk/snap.h): what a request's registered update proof
 * fixes and the checks a prover makes before synthesis, shared by the request calls (snap_request.c) and
 * proving (snap_prove.c). */
#ifndef CUZK_FILECOIN_SNAP_REQUEST_H
#define CUZK_FILECOIN_SNAP_REQUEST_H
#include <stdbool.h>
#include "cuzk/snap.h"
#include "cuzk/status.h"

/* A request's registered update proof and its circuit's shape (production h). */
typedef struct {
    cuzk_snap_registered_proof_t proof;
    cuzk_snap_config_t cfg;
} cuzk_snap_plan_t;

/* The checks of a request that read no path: the proof id, the three commitments canonical field elements
 * and, with with_vanilla, exactly the proof's partition count of vanilla proofs, none NULL.
 * CUZK_ERR_INVALID_ARG (unknown proof, partition count, NULL), CUZK_ERR_NOT_CANONICAL naming the
 * commitment. */
cuzk_status cuzk_snap_request_plan(cuzk_snap_plan_t *plan, const cuzk_snap_request_t *req, bool with_vanilla,
                                   cuzk_err_t *err);

/* cuzk_snap_check on `threads` threads (<= 0: every online CPU); the message names the first bad
 * partition whatever the thread count. */
cuzk_status cuzk_snap_check_threads(const cuzk_snap_request_t *req, int threads, cuzk_err_t *err);

#endif
