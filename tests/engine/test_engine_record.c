/* The engine's choice between direct and record synthesis of PoRep partitions (fast, without parameters):
 * the choice from a job's figures (partition count, a resident record, the record beside the parameters and
 * the partitions in flight within the budget, the configured modes); the record cache on a real record of
 * the one-challenge 2KiB circuit: built once for four threads asking at the same time, charged to the
 * budget at its real size after its estimate, refused at once without waiting when it does not fit,
 * abandoned on a stop, shared, evicted only when unused and idle long enough, first by the engine's
 * evictor; the circuit shape extrapolated from one and two challenges against a count of three; the
 * configuration's refusal of an unknown mode and the empty "pce" list of /status. Real proofs through both
 * paths are in test_engine_record_slow. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "engine/engine_internal.h"
#include "engine/record_cache.h"
#include "test_util.h"
#include "util/timer.h"

#define GIB (1ull << 30)
#define SEC 1000000000ull

static void test_choice(void)
{
    char why[256];
    /* 32GiB: a 4.68 GB record, streamed parameters (nothing charged), 17.3 GB partitions, two in flight */
    cuzk_porep_synth_figures_t f = {.configured = CUZK_ENGINE_SYNTH_AUTO, .partitions = 10,
                                    .record_bytes = 4680000000ull, .params_bytes = 0,
                                    .partition_bytes = 17300000000ull, .slots = 2, .work_limit = 42 * GIB};
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_RECORD);
    CHECK_MSG(strstr(why, "fits beside") && strstr(why, "2 partition(s)"), "%s", why);
    f.work_limit = 36 * GIB; /* 34.6 GB of partitions fit, the record besides does not */
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_DIRECT);
    CHECK_MSG(strstr(why, "does not fit beside"), "%s", why);
    f.slots = 1; /* one prover and no lookahead: one partition in flight */
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_RECORD);
    f.params_bytes = 20 * GIB; /* parameters count too */
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_DIRECT);
    f.params_bytes = UINT64_MAX - 1; /* no wrap-around */
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_DIRECT);
    f.params_bytes = 0;
    /* one partition: recording costs what it saves, unless the record is already there */
    f.partitions = 1;
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_DIRECT);
    CHECK_MSG(strstr(why, "one partition"), "%s", why);
    f.resident = true;
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_RECORD);
    /* slots beyond the partition count are not charged: 2 slots, 1 partition */
    f.slots = 2;
    f.work_limit = 22 * GIB;
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_RECORD);
    /* configured modes are kept whatever the figures */
    f.configured = CUZK_ENGINE_SYNTH_DIRECT;
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_DIRECT);
    f.configured = CUZK_ENGINE_SYNTH_RECORD;
    f.work_limit = 1;
    CHECK(cuzk_porep_synth_choose(&f, why, sizeof why) == CUZK_ENGINE_SYNTH_RECORD);
    CHECK(strcmp(cuzk_engine_synth_mode_name(CUZK_ENGINE_SYNTH_AUTO), "auto") == 0 &&
          strcmp(cuzk_engine_synth_mode_name(CUZK_ENGINE_SYNTH_DIRECT), "direct") == 0 &&
          strcmp(cuzk_engine_synth_mode_name(CUZK_ENGINE_SYNTH_RECORD), "record") == 0 &&
          strcmp(cuzk_engine_synth_mode_name((cuzk_engine_synth_mode)7), "unknown") == 0);
}

/* The one-challenge 2KiB circuit: 1.34 M constraints, a record of about 48 MB built in about a second. */
static cuzk_porep_config_t small_circuit(void)
{
    cuzk_porep_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_porep_config_for_sector_size(&cfg, NULL, 2048, &err) == CUZK_OK);
    cfg.challenges = 1;
    return cfg;
}

typedef struct {
    cuzk_record_cache_t *c;
    cuzk_porep_config_t cfg;
    uint64_t estimate;
    cuzk_record_entry_t *got;
    bool built;
    cuzk_status st;
} asker_t;

static void *ask(void *arg)
{
    asker_t *a = arg;
    cuzk_err_t err = {{0}};
    a->st = cuzk_record_acquire(a->c, &a->cfg, "porep-2k", a->estimate, true, NULL, NULL, &a->got, &a->built, NULL,
                                &err);
    return NULL;
}

static bool always_stop(void *arg)
{
    (void)arg;
    return true;
}

static void test_record_cache(void)
{
    cuzk_porep_config_t cfg = small_circuit();
    cuzk_circuit_info_t info;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_circuit_info(&info, &cfg, false, &err) == CUZK_OK, "%s", err.msg);
    uint64_t estimate = cuzk_porep_record_estimate(&info);
    cuzk_budget_t b;
    cuzk_record_cache_t c;
    cuzk_budget_init(&b, 8 * estimate, NULL, NULL); /* work limit 7 estimates */
    cuzk_record_cache_init(&c, &b, 60000 /* min idle 1 min */);

    /* without waiting: a budget that holds less than the estimate now refuses at once, keeping nothing */
    CHECK(cuzk_budget_try_acquire(&b, 8 * estimate));
    cuzk_record_entry_t *e = (cuzk_record_entry_t *)&e;
    CHECK(cuzk_record_acquire(&c, &cfg, "porep-2k", estimate, false, NULL, NULL, &e, NULL, NULL, &err) ==
              CUZK_ERR_NO_MEMORY &&
          e == NULL && c.cache.entries == NULL && c.cache.loads == 0);
    CHECK_MSG(strstr(err.msg, "does not fit now"), "%s", err.msg);
    /* waiting, then stopped: nothing kept either */
    CHECK(cuzk_record_acquire(&c, &cfg, "porep-2k", estimate, true, always_stop, NULL, &e, NULL, NULL, &err) ==
              CUZK_ERR_CANCELLED &&
          e == NULL && c.cache.entries == NULL);
    cuzk_budget_release(&b, 8 * estimate);
    uint64_t used;
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 0);

    /* four threads at once: one build, one entry, every thread a reference to it */
    asker_t a[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        a[i] = (asker_t){.c = &c, .cfg = cfg, .estimate = estimate};
        pthread_create(&th[i], NULL, ask, &a[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    int built = 0;
    for (int i = 0; i < 4; i++) {
        CHECK(a[i].st == CUZK_OK && a[i].got == a[0].got);
        built += a[i].built;
    }
    CHECK_MSG(c.cache.loads == 1 && built == 1, "%llu builds, %d said built", (unsigned long long)c.cache.loads,
              built);
    e = a[0].got;
    if (!e)
        return;
    CHECK(e->cached.refs == 4 && e->rec && strcmp(e->circuit_id, "porep-2k") == 0);
    /* charged at its real size, below the estimate */
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK_MSG(used == cuzk_porep_record_bytes(e->rec) && used <= estimate && used == e->bytes,
              "charged %llu, record %llu, estimate %llu", (unsigned long long)used,
              (unsigned long long)cuzk_porep_record_bytes(e->rec), (unsigned long long)estimate);
    /* found while resident; another circuit is not */
    cuzk_record_entry_t *f = cuzk_record_find(&c, &cfg, NULL, NULL);
    CHECK(f == e && e->cached.refs == 5);
    cuzk_record_release(&c, f);
    cuzk_porep_config_t other = cfg;
    other.challenges = 2;
    CHECK(cuzk_record_find(&c, &other, NULL, NULL) == NULL);
    cuzk_engine_srs_info_t list[4];
    CHECK(cuzk_record_list(&c, list, 4) == 1 && list[0].ref_count == 4 && list[0].size_bytes == e->bytes);

    /* in use: never evicted; unused but idle less than the minimum: kept; idle long enough: evicted */
    const uint64_t now = cuzk_now_ns() + 3600 * SEC;
    CHECK(cuzk_record_evict_idle_at(&c, 1, now) == 0);
    for (int i = 0; i < 4; i++)
        cuzk_record_release(&c, a[i].got);
    CHECK(e->cached.refs == 0);
    CHECK(cuzk_record_evict_idle_at(&c, 1, e->cached.last_used_ns + 30 * SEC) == 0);
    uint64_t bytes = e->bytes;
    CHECK(cuzk_record_evict_idle_at(&c, 1, now) == bytes);
    cuzk_budget_get(&b, NULL, &used, NULL);
    CHECK(used == 0 && c.cache.entries == NULL);
    cuzk_record_cache_destroy(&c);
    cuzk_budget_destroy(&b);
}

/* The engine's evictor takes idle records before idle parameters. */
static void test_engine_evictor(void)
{
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = "/nonexistent-params";
    cfg.total_budget = 1000;
    cfg.eviction_min_idle_ms = 0;
    cfg.log = NULL;
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    if (!e)
        return;
    /* two idle entries by hand, one in each cache */
    cuzk_record_entry_t *r = calloc(1, sizeof *r);
    r->bytes = 100;
    r->cached.next = e->records.cache.entries;
    e->records.cache.entries = &r->cached;
    cuzk_srs_entry_t *s = calloc(1, sizeof *s);
    snprintf(s->circuit.id, sizeof s->circuit.id, "porep-2k");
    s->bytes = 300;
    s->cached.next = e->srs.cache.entries;
    e->srs.cache.entries = &s->cached;
    CHECK(cuzk_budget_try_acquire(&e->budget, 400));
    CHECK(cuzk_engine_evict_idle(e, 50) == 100 && e->records.cache.entries == NULL &&
          e->srs.cache.entries == &s->cached);
    CHECK(cuzk_engine_evict_idle(e, 50) == 300 && e->srs.cache.entries == NULL);
    /* /status lists records under the original's "pce" */
    char *json = cuzk_engine_status_json(e);
    json_t *doc = json ? json_loads(json, 0, NULL) : NULL;
    CHECK(json_is_array(json_object_get(json_object_get(doc, "allocations"), "pce")));
    json_decref(doc);
    free(json);
    cuzk_engine_free(e);

    cfg.synthesis_mode = (cuzk_engine_synth_mode)3;
    CHECK(cuzk_engine_new(&e, &cfg, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "synthesis mode"));
}

/* The shape of three challenges from one and two is the count of three (non-zeros and densities too). */
static void test_shape(void)
{
    cuzk_porep_config_t cfg = small_circuit();
    cfg.challenges = 3;
    cuzk_porep_shape_t sh;
    cuzk_circuit_info_t whole;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_shape(&sh, &cfg, &err) == CUZK_OK, "%s", err.msg);
    CHECK_MSG(cuzk_porep_circuit_info(&whole, &cfg, false, &err) == CUZK_OK, "%s", err.msg);
    const cuzk_circuit_info_t *x = &sh.info;
    CHECK(x->num_constraints == whole.num_constraints && x->num_inputs == whole.num_inputs &&
          x->num_aux == whole.num_aux);
    CHECK(x->nnz_a == whole.nnz_a && x->nnz_b == whole.nnz_b && x->nnz_c == whole.nnz_c);
    CHECK(x->a_aux_density == whole.a_aux_density && x->b_input_density == whole.b_input_density &&
          x->b_aux_density == whole.b_aux_density);
    CHECK(sh.vars == whole.num_inputs + whole.num_aux && sh.m >= whole.num_constraints + whole.num_inputs &&
          sh.m / 2 < whole.num_constraints + whole.num_inputs);
    cuzk_porep_shape_t again;
    CHECK(cuzk_porep_shape(&again, &cfg, &err) == CUZK_OK && again.m == sh.m && again.vars == sh.vars &&
          again.info.nnz_a == sh.info.nnz_a);
}

int main(void)
{
    test_init("test_engine_record");
    test_choice();
    test_record_cache();
    test_engine_evictor();
    test_shape();
    return test_finish();
}
