/* The development setup of a circuit too large to hold (32GiB PoRep: 130M variables, a 47 GB key),
 * streamed: the QAP at τ is evaluated while the blank circuit is synthesized on the sink backend
 * (cuzk/cs.h), twice, with two Fr arrays of one entry per aux variable alive at most, and the .params
 * file is written section by section as the fixed-base products are made, never whole in memory. The
 * key is the one cuzk_groth16_setup makes for the circuit's recorded matrices and the same toxic waste,
 * byte for byte. NOT a trusted setup: this process knows the toxic waste. */
#ifndef CUZK_GROTH16_SETUP_STREAM_H
#define CUZK_GROTH16_SETUP_STREAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "groth16/setup_internal.h"

/* A circuit given by its synthesis: synthesize(cs, arg, err) on a fresh system, no witness. */
typedef cuzk_status (*g16_synthesize_fn)(cuzk_cs_t *cs, const void *arg, cuzk_err_t *err);

/* The key's shape, from the circuit's counts (bellperson's generate_random_parameters). */
typedef struct {
    size_t num_inputs, num_aux, num_constraints; /* inputs count ONE; no input rows in constraints */
    size_t a_aux_density, b_input_density, b_aux_density;
    unsigned log_m; /* domain: 2^log_m >= constraints + inputs */
    size_t ic, h, l, a, b; /* section lengths in points; b for both b_g1 and b_g2 */
    uint64_t params_bytes, vk_bytes;
} g16_stream_plan;

/* One synthesis of the circuit on the sink backend, each constraint handed to fn(fn_arg, ...): the status of
 * the run (the synthesis's, the system's, a stop) and the system's counts in *counts. */
cuzk_status g16_sink_synthesize(cuzk_cs_counts_t *counts, g16_synthesize_fn synthesize, const void *arg,
                                cuzk_cs_sink_fn fn, void *fn_arg, bool (*should_stop)(void *), void *stop_arg,
                                cuzk_err_t *err);

/* The plan of a circuit of these counts (a count run's, with densities). CUZK_ERR_INVALID_ARG without
 * densities or ONE, or with a section past a u32 length; CUZK_ERR_UNSUPPORTED past the largest domain. */
cuzk_status g16_stream_plan_counts(g16_stream_plan *plan, const cuzk_cs_counts_t *c, cuzk_err_t *err);
/* The plan from a counting synthesis (single-threaded: ~25 s for the 32GiB PoRep). should_stop as in
 * g16_stream_opts (NULL: never); tick (NULL: none) is called every 2^20 constraints. Errors of the
 * synthesis and of g16_stream_plan_counts. */
cuzk_status g16_stream_plan_circuit(g16_stream_plan *plan, g16_synthesize_fn synthesize, const void *arg,
                                    bool (*should_stop)(void *), void *stop_arg,
                                    void (*tick)(void *arg, uint64_t rows_done), void *tick_arg, cuzk_err_t *err);

/* Where a streaming setup stands, for progress lines. */
typedef struct {
    const char *phase;       /* "count", "qap pass 1", "h", "l", "qap pass 2", "a", "b_g1", "b_g2" */
    uint64_t done, total;    /* units of the phase: constraints or points */
    double fraction;         /* of the whole run, by estimated cost, in [0, 1] */
    double elapsed_s;        /* since the start */
} g16_stream_progress;

typedef struct {
    int threads; /* 0: every online CPU */
    /* Called on the calling thread at every phase start and about once a second (NULL: none). */
    void (*progress)(void *arg, const g16_stream_progress *p);
    void *progress_arg;
    /* Polled between chunks and during synthesis; true stops the run with CUZK_ERR_CANCELLED (NULL: never). */
    bool (*should_stop)(void *arg);
    void *stop_arg;
    const g16_toxic_waste *waste; /* tests: the toxic waste to use; NULL: drawn from getrandom */
    const g16_stream_plan *plan;  /* the circuit's plan when already known (skips the count pass); NULL */
} g16_stream_opts;

/* Writes the development key of the circuit to params_path (bellperson's .params) and its verifying
 * key to vk_path (.vk), each through a temporary file renamed into place only when the whole run has
 * succeeded: on any error or a stop neither file is created (an existing one is left as it was), except
 * when the .vk's rename fails after the .params' (the .params is then removed again). Memory: two Fr
 * arrays of num_aux entries (8.3 GB for the 32GiB PoRep) and ~0.2 GB of tables and buffers besides the
 * synthesis. Errors: CUZK_ERR_INVALID_ARG (a circuit whose second synthesis differs from the first, an
 * unconstrained aux variable, bad arguments), CUZK_ERR_CANCELLED, CUZK_ERR_IO (the files),
 * CUZK_ERR_NO_MEMORY, and those of the synthesis and the plan. */
cuzk_status g16_setup_stream(const char *params_path, const char *vk_path, g16_synthesize_fn synthesize,
                             const void *arg, const g16_stream_opts *opts, cuzk_err_t *err);

#endif
