/* PoSt fixtures of the engine tests (post_fixture.c), through the public API only: real 2KiB sectors
 * sealed into a temporary directory and their Fallback PoSt vanilla proofs (made as filecoin-ffi makes
 * them, from the sector's files), 2KiB development parameters of a PoSt circuit (`cuzk params generate`:
 * made when the directory lacks them), an engine logging its TIMELINE to a file that the test reads
 * while it runs, and the checks a proof returned by the engine must pass: decoded, verified by
 * cuzk_post_verify with the .vk read from the directory, and refused once the request differs. */
#ifndef CUZK_TESTS_ENGINE_POST_FIXTURE_H
#define CUZK_TESTS_ENGINE_POST_FIXTURE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"
#include "cuzk/post.h"

/* rust-filecoin-proofs-api src/registry.rs: RegisteredPoStProof StackedDrgWinning2KiBV1 = 0,
 * StackedDrgWindow2KiBV1_1 = 10; RegisteredSealProof StackedDrg2KiBV1_1 = 5. */
#define FX_WINNING_2K 0
#define FX_WINDOW_2K 10
#define FX_MINER 1000

/* The temporary directory of the run (fx_init), removed with everything in it (fx_cleanup). */
bool fx_init(void);
void fx_cleanup(void);

/* Seals a 2KiB sector with random data and ticket and keeps it in <root>/sector-<n>; dir gets the path. */
bool fx_sector(char dir[512], uint64_t sector_num);

/* The sector's vanilla proof for a PoSt proof, randomness and sector index (malloc'd, or NULL). */
uint8_t *fx_vanilla(size_t *len, const char *dir, uint64_t post_proof, const uint8_t rnd[32], uint64_t index);

/* Development parameters of the 2KiB circuit of kind ("winning-post", "window-post") in dir, by the cuzk
 * tool's `params generate` (files of the right shape already there are reused). */
bool fx_params(const char *tool, const char *dir, const char *kind);

/* An engine whose log is <root>/<name>.log (read back with fx_log while it runs). */
typedef struct {
    cuzk_engine_t *e;
    FILE *log;
    char log_path[512];
} fx_engine_t;

/* 4 GiB of budget, 2 prover and 2 synthesis threads, then tune (may be NULL). */
bool fx_start(fx_engine_t *x, const char *name, const char *params, void (*tune)(cuzk_engine_config_t *));
void fx_stop(fx_engine_t *x);
/* The log so far (malloc'd). */
char *fx_log(const fx_engine_t *x);

/* A PoSt request of the engine over vanilla proofs (the bytes stay the caller's). */
typedef struct {
    cuzk_job_bytes_t v[4];
    cuzk_job_request_t r;
} fx_request_t;

void fx_request(fx_request_t *q, const char *id, cuzk_proof_kind kind, uint64_t proof, const uint8_t rnd[32],
                uint8_t *const *vanilla, const size_t *lens, size_t n);
cuzk_status fx_submit(cuzk_engine_t *e, const fx_request_t *q, cuzk_err_t *err);

/* Whether proof (the engine's bytes) is a valid proof of the request, verified with the .vk of the
 * parameter directory, and no longer valid for other randomness (the check can fail). */
bool fx_verify(const char *params, const fx_request_t *q, const uint8_t *proof, size_t len);

/* ---- priority: the TIMELINE of a CRITICAL job submitted into a full pipeline ---- */

/* Waits (up to seconds) until one of the n jobs ids[] is being proved ("gpu") and the next one is
 * synthesized and waiting for the prover ("synth_done"): a pipeline of depth 1 is full. */
bool fx_wait_full(cuzk_engine_t *e, char (*ids)[16], int n, int seconds);

/* The engine's TIMELINE (the engine stopped) against the rule: no partition of the other jobs (ids
 * starting with others) starts, synthesis or proof, between the SUBMIT and the PROVE_START of job crit.
 * Returns whether one of theirs was being proved when crit came (the check was not vacuous); prints the
 * lines from crit's submission to its result then. */
bool fx_priority_check(const fx_engine_t *x, const char *crit, const char *others, int round);
#endif
