/* The QAP of a circuit at τ, evaluated while its blank circuit is synthesized on the sink backend, for
 * the streaming setup (setup_stream.h). Two passes over the circuit with two Fr arrays per aux variable:
 *   pass 1: x = v (B at τ) and y = β·u + w, every input's u, v, w apart, the A and B densities;
 *   pass 2: y = u (A at τ; y is zeroed first).
 * Row k's weight is L_k(τ) (setup_internal.h), produced in chunks as the rows go by; after the
 * circuit's rows come the input rows Input(i)·0 = 0 (pass 1 adds them to u). */
#ifndef CUZK_GROTH16_SETUP_QAP_H
#define CUZK_GROTH16_SETUP_QAP_H
#include <stdbool.h>
#include <stdint.h>
#include "groth16/setup_stream.h"

typedef struct {
    const g16_stream_plan *plan;
    const g16_toxic_waste *tw;
    fr *x, *y;                 /* num_aux each (mappings of their own) */
    fr *in_u, *in_v, *in_w;    /* num_inputs each */
    uint64_t *a_aux, *b_in, *b_aux; /* density bitmaps: ceil(n/64) words */
    /* the running pass */
    int pass;
    fr *lag;                   /* L_j(τ) for j in [lag_first, lag_first + lag_n) */
    size_t lag_first, lag_n, lag_pos;
    bool overrun;              /* a row, input or aux variable past the plan's */
    cuzk_status lag_st;
    void (*tick)(void *arg, uint64_t rows_done);
    void *tick_arg;
} g16_qap;

/* Allocates the arrays (zeroed) for plan's circuit; tw is borrowed for the passes. CUZK_ERR_NO_MEMORY. */
cuzk_status g16_qap_init(g16_qap *q, const g16_stream_plan *plan, const g16_toxic_waste *tw, cuzk_err_t *err);
/* Wipes and frees everything (y too when already released); NULL-safe fields. */
void g16_qap_free(g16_qap *q);
/* Wipes and releases y (after its last use). */
void g16_qap_release_y(g16_qap *q);

/* Runs pass 1 or 2: a sink-backend synthesis feeding the arrays; tick (may be NULL) is called about every
 * million rows. Fails with CUZK_ERR_INVALID_ARG when the circuit's counts or densities differ from the
 * plan's, and with the synthesis' error (CUZK_ERR_CANCELLED on a stop). */
cuzk_status g16_qap_pass(g16_qap *q, int pass, g16_synthesize_fn synthesize, const void *arg,
                         bool (*should_stop)(void *), void *stop_arg, cuzk_err_t *err);

#endif
