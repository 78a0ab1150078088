/* Parameter cache: a budgeted cache (budget_cache.h) of circuits' keys. A parameter file that shrinks while
 * it is read fails the load with CUZK_ERR_IO, which is retried once. A loaded entry holds decoded arrays
 * only: changes to its file after the load do not reach it. */
#include "engine/srs_cache.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/clock.h"

static bool entry_matches(const cuzk_budget_cache_entry_t *e, const void *key)
{
    return strcmp(((const cuzk_srs_entry_t *)e)->circuit.id, ((const cuzk_srs_circuit_t *)key)->id) == 0;
}

static cuzk_budget_cache_entry_t *entry_create(const void *key)
{
    cuzk_srs_entry_t *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->circuit = *(const cuzk_srs_circuit_t *)key;
    return &e->cached;
}

static uint64_t entry_bytes(const cuzk_budget_cache_entry_t *e) { return ((const cuzk_srs_entry_t *)e)->bytes; }

static void entry_destroy(cuzk_budget_cache_entry_t *cached)
{
    cuzk_srs_entry_t *e = (cuzk_srs_entry_t *)cached;
    cuzk_groth16_pvk_free(e->pvk);
    cuzk_porep_keys_free(e->porep_keys);
    cuzk_post_keys_free(e->post_keys);
    cuzk_snap_keys_free(e->snap_keys);
    free(e);
}

static void entry_describe(const cuzk_budget_cache_entry_t *e, char *out, size_t n)
{
    snprintf(out, n, "%s", ((const cuzk_srs_entry_t *)e)->circuit.id);
}

static cuzk_status entry_load(cuzk_budget_cache_entry_t *e, void *load_arg, cuzk_err_t *err);

static const cuzk_budget_cache_ops_t srs_ops = {
    .what = "the parameters",
    .matches = entry_matches,
    .create = entry_create,
    .load = entry_load,
    .bytes = entry_bytes,
    .destroy = entry_destroy,
    .describe = entry_describe,
};

void cuzk_srs_cache_init(cuzk_srs_cache_t *c, const char *dir, cuzk_budget_t *budget, uint64_t min_idle_ms,
                         int threads)
{
    memset(c, 0, sizeof *c);
    cuzk_budget_cache_init(&c->cache, &srs_ops, budget, min_idle_ms);
    c->dir = dir;
    c->threads = threads;
}

void cuzk_srs_cache_destroy(cuzk_srs_cache_t *c) { cuzk_budget_cache_destroy(&c->cache); }

/* "32GiB" -> "32g", "512MiB" -> "512m", "2KiB" -> "2k". */
static void size_tag(char out[16], const char *size_name)
{
    size_t n = 0;
    for (const char *s = size_name; *s && n < 15; s++)
        if (*s >= '0' && *s <= '9')
            out[n++] = *s;
        else {
            out[n++] = (char)(*s - 'A' + 'a');
            break;
        }
    out[n] = 0;
}

void cuzk_srs_circuit_porep(cuzk_srs_circuit_t *out, const cuzk_porep_registered_proof_t *proof)
{
    char size[16];
    size_tag(size, proof->size_name);
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "porep-%s%s", size,
             proof->challenges == CUZK_POREP_CHALLENGES_NON_INTERACTIVE ? "-ni" : "");
    out->proof_id = proof->id;
}

void cuzk_srs_circuit_post(cuzk_srs_circuit_t *out, const cuzk_post_registered_proof_t *proof)
{
    char size[16];
    size_tag(size, proof->size_name);
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s-%s", proof->kind == CUZK_POST_WINNING ? "winning" : "wpost", size);
    out->post = true;
    out->proof_id = proof->id;
}

void cuzk_srs_circuit_snap(cuzk_srs_circuit_t *out, const cuzk_snap_registered_proof_t *proof)
{
    char size[16];
    size_tag(size, proof->size_name);
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "snap-%s", size);
    out->snap = true;
    out->proof_id = proof->id;
}

bool cuzk_srs_circuit_by_id(const char *circuit_id, cuzk_srs_circuit_t *out)
{
    cuzk_srs_circuit_t c, best;
    bool found = false;
    cuzk_porep_registered_proof_t p;
    for (uint64_t i = 0; cuzk_porep_registered_proof(&p, i, NULL) == CUZK_OK; i++) {
        cuzk_srs_circuit_porep(&c, &p);
        if (strcmp(c.id, circuit_id) == 0 && (!found || p.api == CUZK_POREP_API_V1_1)) {
            best = c;
            found = true;
        }
    }
    /* PoSt: the highest number of the circuit (Window V1_1 over V1; the files are the same) */
    cuzk_post_registered_proof_t q;
    for (uint64_t i = 0; cuzk_post_registered_proof(&q, i, NULL) == CUZK_OK; i++) {
        cuzk_srs_circuit_post(&c, &q);
        if (strcmp(c.id, circuit_id) == 0) {
            best = c;
            found = true;
        }
    }
    cuzk_snap_registered_proof_t u;
    for (uint64_t i = 0; cuzk_snap_registered_proof(&u, i, NULL) == CUZK_OK; i++) {
        cuzk_srs_circuit_snap(&c, &u);
        if (strcmp(c.id, circuit_id) == 0) {
            best = c;
            found = true;
        }
    }
    if (found && out)
        *out = best;
    return found;
}

/* Loads e's keys (e is marked loading, the lock is not held). */
static cuzk_status load(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e, bool (*stop)(void *), void *stop_arg,
                        cuzk_err_t *err)
{
    cuzk_porep_params_paths_t pp; /* cuzk_post_ and cuzk_snap_params_paths_t are the same type */
    const cuzk_srs_circuit_t *k = &e->circuit;
    cuzk_status st = k->post   ? cuzk_post_params_paths(&pp, c->dir, k->proof_id, err)
                     : k->snap ? cuzk_snap_params_paths(&pp, c->dir, k->proof_id, err)
                               : cuzk_porep_params_paths(&pp, c->dir, k->proof_id, err);
    FILE *f = st == CUZK_OK ? fopen(pp.params, "rb") : NULL;
    uint64_t bytes = 0;
    if (f) {
        if (fseek(f, 0, SEEK_END) == 0 && ftell(f) > 0)
            bytes = (uint64_t)ftell(f);
        fclose(f);
    }
    /* the decoded arrays take what the file takes (uncompressed points), charged before loading; a PoRep
     * key larger than half of what the budget can hold (32GiB: 47 GB) is not decoded but streamed by each
     * proof, piece by piece, the pieces charged with the partitions */
    uint64_t limit = cuzk_budget_work_limit(c->cache.budget);
    bool streamed = !k->post && !k->snap && bytes > limit / 2;
    if (streamed)
        bytes = 0;
    if (st == CUZK_OK && bytes)
        st = cuzk_budget_acquire(c->cache.budget, bytes, stop, stop_arg, "the parameters", err);
    if (st != CUZK_OK)
        return st;
    e->bytes = bytes;
    const char *vk_path = NULL;
    if (k->post) {
        st = cuzk_post_keys_load(&e->post_keys, c->dir, k->proof_id, true, c->threads, err);
        if (st == CUZK_OK) {
            e->pk = cuzk_post_keys_pk(e->post_keys);
            e->vk = cuzk_post_keys_vk(e->post_keys);
            vk_path = cuzk_post_keys_paths(e->post_keys)->vk;
        }
    } else if (k->snap) {
        st = cuzk_snap_keys_load(&e->snap_keys, c->dir, k->proof_id, true, c->threads, err);
        if (st == CUZK_OK) {
            e->pk = cuzk_snap_keys_pk(e->snap_keys);
            e->vk = cuzk_snap_keys_vk(e->snap_keys);
            vk_path = cuzk_snap_keys_paths(e->snap_keys)->vk;
        }
    } else {
        st = streamed ? cuzk_porep_keys_load_streamed(&e->porep_keys, c->dir, k->proof_id, c->threads, err)
                      : cuzk_porep_keys_load(&e->porep_keys, c->dir, k->proof_id, true, c->threads, err);
        if (st == CUZK_OK) {
            e->pk = cuzk_porep_keys_pk(e->porep_keys);
            e->vk = cuzk_porep_keys_vk(e->porep_keys);
            vk_path = cuzk_porep_keys_paths(e->porep_keys)->vk;
        }
    }
    if (st == CUZK_OK && cuzk_groth16_pvk_new(&e->pvk, e->vk) != CUZK_OK)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: cannot prepare the verifying key", vk_path);
    if (st != CUZK_OK) { /* nothing of a failed attempt stays: a second one starts from scratch */
        cuzk_porep_keys_free(e->porep_keys);
        cuzk_post_keys_free(e->post_keys);
        cuzk_snap_keys_free(e->snap_keys);
        e->porep_keys = NULL;
        e->post_keys = NULL;
        e->snap_keys = NULL;
        e->pk = NULL;
        e->vk = NULL;
        cuzk_budget_release(c->cache.budget, e->bytes);
        e->bytes = 0;
    }
    return st;
}

/* load, and once more when the first attempt failed with CUZK_ERR_IO: the parameter file shrank under
 * its mapping while it was read (an operator replacing or re-downloading it in place; see
 * util/map_guard.h), or a read failed. The second attempt opens the file again and reads it as it is
 * now: the complete replacement, or a clear error about the file (truncated, missing). */
static cuzk_status load_retrying(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e, bool (*stop)(void *), void *stop_arg,
                                 cuzk_err_t *err)
{
    cuzk_status st = load(c, e, stop, stop_arg, err);
    if (st == CUZK_ERR_IO && !(stop && stop(stop_arg)))
        st = load(c, e, stop, stop_arg, err);
    return st;
}

/* What one acquire hands its load: the cache, the stop of the job asking, and where the time goes. */
typedef struct {
    cuzk_srs_cache_t *cache;
    bool (*stop)(void *);
    void *stop_arg;
    uint64_t loaded_ms;
} srs_load_t;

static cuzk_status entry_load(cuzk_budget_cache_entry_t *e, void *load_arg, cuzk_err_t *err)
{
    srs_load_t *l = load_arg;
    uint64_t t0 = cuzk_engine_now_ns();
    cuzk_status st = load_retrying(l->cache, (cuzk_srs_entry_t *)e, l->stop, l->stop_arg, err);
    l->loaded_ms = (cuzk_engine_now_ns() - t0) / 1000000;
    return st;
}

cuzk_status cuzk_srs_acquire(cuzk_srs_cache_t *c, const cuzk_srs_circuit_t *circuit, cuzk_srs_entry_t **out,
                             uint64_t *loaded_ms, bool *resident, bool (*stop)(void *), void *stop_arg,
                             cuzk_err_t *err)
{
    srs_load_t l = {.cache = c, .stop = stop, .stop_arg = stop_arg};
    cuzk_budget_cache_entry_t *e = NULL;
    bool loaded_here = false;
    /* another job's load is waited for to its end, whatever stop says (its own load polls stop) */
    cuzk_status st = cuzk_budget_cache_acquire(&c->cache, circuit, &l, NULL, NULL, &e, &loaded_here, err);
    *out = (cuzk_srs_entry_t *)e;
    if (loaded_ms)
        *loaded_ms = st == CUZK_OK && loaded_here ? l.loaded_ms : 0;
    if (resident)
        *resident = st == CUZK_OK && !loaded_here;
    return st;
}

void cuzk_srs_release(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e)
{
    cuzk_budget_cache_release(&c->cache, e ? &e->cached : NULL);
}

uint64_t cuzk_srs_evict_idle(void *cache, uint64_t need)
{
    return cuzk_srs_evict_idle_at(cache, need, cuzk_engine_now_ns());
}

uint64_t cuzk_srs_evict_idle_at(cuzk_srs_cache_t *c, uint64_t need, uint64_t now_ns)
{
    return cuzk_budget_cache_evict_idle_at(&c->cache, need, now_ns);
}

cuzk_status cuzk_srs_evict(cuzk_srs_cache_t *c, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                           cuzk_err_t *err)
{
    cuzk_srs_circuit_t key; /* only the id is compared */
    memset(&key, 0, sizeof key);
    snprintf(key.id, sizeof key.id, "%s", circuit_id);
    return cuzk_budget_cache_evict(&c->cache, &key, was_loaded, freed, err);
}

size_t cuzk_srs_list(cuzk_srs_cache_t *c, cuzk_engine_srs_info_t *out, size_t max)
{
    return cuzk_budget_cache_list(&c->cache, out, max);
}
