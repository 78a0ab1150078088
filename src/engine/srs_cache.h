/* The engine's parameter cache: the keys of a circuit (PoRep, Winning PoSt, Window PoSt, SnapDeals, by sector
 * size),
 * loaded on first use (or by preload), shared by every job that needs them (a reference count), charged
 * to the memory budget at their file size, and evicted when nobody uses them — on request, or under
 * memory pressure once idle long enough. */
#ifndef CUZK_ENGINE_SRS_CACHE_H
#define CUZK_ENGINE_SRS_CACHE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "engine/budget.h"
#include "engine/budget_cache.h"

/* A circuit and the registered proof whose files hold its keys (every proof of the circuit shares them). */
typedef struct {
    char id[32];                       /* "porep-32g", "winning-32g", "wpost-32g", "snap-32g" */
    bool post;                         /* proof_id is a RegisteredPoStProof */
    bool snap;                         /* proof_id is a RegisteredUpdateProof; neither: a RegisteredSealProof */
    uint32_t proof_id;
} cuzk_srs_circuit_t;

typedef struct cuzk_srs_entry {
    cuzk_budget_cache_entry_t cached;  /* first: the cache's part (references, loading, last use) */
    cuzk_srs_circuit_t circuit;        /* and the proof it was loaded for */
    cuzk_porep_keys_t *porep_keys;     /* one of the three, by circuit.post and circuit.snap */
    cuzk_post_keys_t *post_keys;
    cuzk_snap_keys_t *snap_keys;
    const cuzk_groth16_pk_t *pk;       /* the loaded keys' */
    const cuzk_groth16_vk_t *vk;
    cuzk_groth16_pvk_t *pvk;
    uint64_t bytes;                    /* charged to the budget */
} cuzk_srs_entry_t;

typedef struct {
    cuzk_budget_cache_t cache;         /* of cuzk_srs_entry_t, keyed by circuit id */
    const char *dir;
    int threads;
} cuzk_srs_cache_t;

void cuzk_srs_cache_init(cuzk_srs_cache_t *c, const char *dir, cuzk_budget_t *budget, uint64_t min_idle_ms,
                         int threads);
/* Frees every entry (none may be in use). */
void cuzk_srs_cache_destroy(cuzk_srs_cache_t *c);

/* The circuit of a seal proof: "porep-2k", "porep-8m", "porep-512m", "porep-32g", "porep-64g" ("-ni"
 * appended for non-interactive PoRep). */
void cuzk_srs_circuit_porep(cuzk_srs_circuit_t *out, const cuzk_porep_registered_proof_t *proof);
/* The circuit of a PoSt proof: "winning-2k" ... "winning-64g", "wpost-2k" ... "wpost-64g". */
void cuzk_srs_circuit_post(cuzk_srs_circuit_t *out, const cuzk_post_registered_proof_t *proof);
/* The circuit of an update proof (SnapDeals): "snap-2k" ... "snap-64g". */
void cuzk_srs_circuit_snap(cuzk_srs_circuit_t *out, const cuzk_snap_registered_proof_t *proof);
/* The circuit named circuit_id, with the proof preload loads it for (PoRep: the interactive V1_1 proof;
 * Window PoSt: V1_1), into *out (may be NULL); false if the id is unknown. */
bool cuzk_srs_circuit_by_id(const char *circuit_id, cuzk_srs_circuit_t *out);

/* A reference to the circuit's keys, loading them if needed (*loaded_ms: time spent loading here, 0 when
 * they were resident or another thread loaded them; *resident: they were, or another thread loaded
 * them). Either pointer may be NULL. Release with cuzk_srs_release. A load failing with CUZK_ERR_IO (the
 * parameter file shrank while it was read, or a read failed) is tried once more from scratch; a failed
 * load leaves nothing cached and nothing charged to the budget. */
cuzk_status cuzk_srs_acquire(cuzk_srs_cache_t *c, const cuzk_srs_circuit_t *circuit, cuzk_srs_entry_t **out,
                             uint64_t *loaded_ms, bool *resident, bool (*stop)(void *), void *stop_arg,
                             cuzk_err_t *err);
void cuzk_srs_release(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e);

/* The budget's evictor: drops unused entries idle at least min_idle, least recently used first, until
 * `need` bytes are freed; returns the bytes freed. */
uint64_t cuzk_srs_evict_idle(void *cache, uint64_t need);
/* The same with the time given (cuzk_engine_now_ns's clock), so that tests can place "now" anywhere, just
 * after boot included. An entry last used at or after now_ns has been idle for no time. */
uint64_t cuzk_srs_evict_idle_at(cuzk_srs_cache_t *c, uint64_t need, uint64_t now_ns);
/* Drops the circuit's entry if nobody uses it. *was_loaded false when it was not resident;
 * CUZK_ERR_MISMATCH when it is in use. */
cuzk_status cuzk_srs_evict(cuzk_srs_cache_t *c, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                           cuzk_err_t *err);
/* Fills up to max entries' descriptions; returns how many are resident (possibly more than max). */
size_t cuzk_srs_list(cuzk_srs_cache_t *c, cuzk_engine_srs_info_t *out, size_t max);
#endif
