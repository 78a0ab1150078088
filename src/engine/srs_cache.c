/* Parameter cache: a short list of entries under one mutex; loading happens outside the lock with the
 * entry marked `loading` so that other users of the same circuit wait for it instead of loading twice.
 * A load that fails leaves no entry (the waiting users then load the file again themselves); a parameter
 * file that shrinks while it is read fails the load with CUZK_ERR_IO, which is retried once. A loaded
 * entry holds decoded arrays only: changes to its file after the load do not reach it. */
#include "engine/srs_cache.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/clock.h"

void cuzk_srs_cache_init(cuzk_srs_cache_t *c, const char *dir, cuzk_budget_t *budget, uint64_t min_idle_ms,
                         int threads)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    c->dir = dir;
    c->budget = budget;
    c->min_idle_ns = cuzk_ms_to_ns(min_idle_ms); /* a huge setting means never idle enough, not 0 */
    c->threads = threads;
}

static void entry_free(cuzk_srs_entry_t *e)
{
    cuzk_groth16_pvk_free(e->pvk);
    cuzk_porep_keys_free(e->porep_keys);
    cuzk_post_keys_free(e->post_keys);
    cuzk_snap_keys_free(e->snap_keys);
    free(e);
}

void cuzk_srs_cache_destroy(cuzk_srs_cache_t *c)
{
    while (c->entries) {
        cuzk_srs_entry_t *e = c->entries;
        c->entries = e->next;
        cuzk_budget_release(c->budget, e->bytes);
        entry_free(e);
    }
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
}

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

static cuzk_srs_entry_t *find(cuzk_srs_cache_t *c, const char *id)
{
    for (cuzk_srs_entry_t *e = c->entries; e; e = e->next)
        if (strcmp(e->circuit.id, id) == 0)
            return e;
    return NULL;
}

static void unlink_entry(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e)
{
    for (cuzk_srs_entry_t **p = &c->entries; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            return;
        }
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
    uint64_t limit = cuzk_budget_work_limit(c->budget);
    bool streamed = !k->post && !k->snap && bytes > limit / 2;
    if (streamed)
        bytes = 0;
    if (st == CUZK_OK && bytes)
        st = cuzk_budget_acquire(c->budget, bytes, stop, stop_arg, "the parameters", err);
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
        cuzk_budget_release(c->budget, e->bytes);
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

cuzk_status cuzk_srs_acquire(cuzk_srs_cache_t *c, const cuzk_srs_circuit_t *circuit, cuzk_srs_entry_t **out,
                             uint64_t *loaded_ms, bool *resident, bool (*stop)(void *), void *stop_arg,
                             cuzk_err_t *err)
{
    const char *id = circuit->id;
    *out = NULL;
    if (loaded_ms)
        *loaded_ms = 0;
    if (resident)
        *resident = false;
    pthread_mutex_lock(&c->mu);
    cuzk_srs_entry_t *e;
    while ((e = find(c, id)) && e->loading)
        pthread_cond_wait(&c->cv, &c->mu);
    if (e) {
        e->refs++;
        e->last_used_ns = cuzk_engine_now_ns();
        pthread_mutex_unlock(&c->mu);
        *out = e;
        if (resident)
            *resident = true;
        return CUZK_OK;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    }
    e->circuit = *circuit;
    e->loading = true;
    e->refs = 1;
    e->next = c->entries;
    c->entries = e;
    pthread_mutex_unlock(&c->mu);

    uint64_t t0 = cuzk_engine_now_ns();
    cuzk_status st = load_retrying(c, e, stop, stop_arg, err);

    pthread_mutex_lock(&c->mu);
    e->loading = false;
    e->last_used_ns = cuzk_engine_now_ns();
    if (st != CUZK_OK) {
        unlink_entry(c, e);
        free(e);
        e = NULL;
    }
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
    if (st == CUZK_OK && loaded_ms)
        *loaded_ms = (cuzk_engine_now_ns() - t0) / 1000000;
    *out = e;
    return st;
}

void cuzk_srs_release(cuzk_srs_cache_t *c, cuzk_srs_entry_t *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&c->mu);
    e->refs--;
    e->last_used_ns = cuzk_engine_now_ns();
    pthread_mutex_unlock(&c->mu);
}

uint64_t cuzk_srs_evict_idle(void *cache, uint64_t need)
{
    return cuzk_srs_evict_idle_at(cache, need, cuzk_engine_now_ns());
}

uint64_t cuzk_srs_evict_idle_at(cuzk_srs_cache_t *c, uint64_t need, uint64_t now_ns)
{
    uint64_t freed = 0;
    cuzk_srs_entry_t *victims = NULL;
    pthread_mutex_lock(&c->mu);
    while (freed < need) {
        cuzk_srs_entry_t *lru = NULL;
        /* an entry released after now_ns was read counts as just used, not as idle for ~584 years */
        for (cuzk_srs_entry_t *e = c->entries; e; e = e->next)
            if (!e->loading && e->refs == 0 && cuzk_elapsed_ns(now_ns, e->last_used_ns) >= c->min_idle_ns &&
                (!lru || e->last_used_ns < lru->last_used_ns))
                lru = e;
        if (!lru)
            break;
        unlink_entry(c, lru);
        freed += lru->bytes;
        lru->next = victims;
        victims = lru;
    }
    pthread_mutex_unlock(&c->mu);
    while (victims) {
        cuzk_srs_entry_t *e = victims;
        victims = e->next;
        cuzk_budget_release(c->budget, e->bytes);
        entry_free(e);
    }
    return freed;
}

cuzk_status cuzk_srs_evict(cuzk_srs_cache_t *c, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                           cuzk_err_t *err)
{
    *was_loaded = false;
    *freed = 0;
    pthread_mutex_lock(&c->mu);
    cuzk_srs_entry_t *e = find(c, circuit_id);
    if (e && (e->loading || e->refs > 0)) {
        uint32_t refs = e->refs;
        pthread_mutex_unlock(&c->mu);
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "%s is in use by %u job(s)", circuit_id, refs);
    }
    if (e)
        unlink_entry(c, e);
    pthread_mutex_unlock(&c->mu);
    if (!e)
        return CUZK_OK;
    *was_loaded = true;
    *freed = e->bytes;
    cuzk_budget_release(c->budget, e->bytes);
    entry_free(e);
    return CUZK_OK;
}

size_t cuzk_srs_list(cuzk_srs_cache_t *c, cuzk_engine_srs_info_t *out, size_t max)
{
    size_t n = 0;
    uint64_t now = cuzk_engine_now_ns();
    pthread_mutex_lock(&c->mu);
    for (cuzk_srs_entry_t *e = c->entries; e; e = e->next) {
        if (e->loading)
            continue; /* not resident yet */
        if (n < max) {
            snprintf(out[n].circuit_id, sizeof out[n].circuit_id, "%s", e->circuit.id);
            out[n].size_bytes = e->bytes;
            out[n].ref_count = e->refs;
            out[n].idle_ms = e->refs ? 0 : cuzk_elapsed_ns(now, e->last_used_ns) / 1000000;
        }
        n++;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}
