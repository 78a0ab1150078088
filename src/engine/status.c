/* What the engine reports about itself: the GetStatus snapshot, the HTTP /status JSON and the Prometheus
 * text. The JSON keeps the original's fields and names (uptime, memory, synthesis, pipelines with
 * per-partition state and timings, SRS allocations, counters, buffers; the prover workers appear as its
 * "gpu_workers", "aux_in_flight" counts the synthesized partitions held, "pending_handles" those waiting
 * for a prover, "shells_in_flight" is 0, "pce", its pre-compiled constraint evaluators, lists the resident
 * PoRep records) and adds the queued requests' bytes, the results nobody has collected and each pipeline's
 * synthesis_mode; the metrics keep its names and proof_kind labels and add the first two and histograms of
 * queue wait and proving time. */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/clock.h"
#include "engine/engine_internal.h"

void cuzk_engine_status(cuzk_engine_t *e, cuzk_engine_status_t *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&e->mu);
    out->uptime_s = (cuzk_engine_now_ns() - e->t_start) / 1000000000ull;
    for (int k = 0; k < CUZK_KIND_COUNT; k++) {
        out->completed_by_kind[k] = e->completed[k];
        out->failed_by_kind[k] = e->failed[k];
        out->completed += e->completed[k];
        out->failed += e->failed[k];
    }
    for (job_t *j = e->jobs; j; j = j->next)
        if (j->phase == JOB_QUEUED)
            out->pending_by_kind[j->kind]++;
        else if (j->phase != JOB_DONE)
            out->running_by_kind[j->kind]++;
        else
            out->results_kept += j->waiters == 0 && !j->replaced;
    pthread_mutex_unlock(&e->mu);
    cuzk_budget_get(&e->budget, &out->budget_total, &out->budget_used, NULL);
    out->budget_queued = cuzk_budget_queued(&e->budget);
    size_t n = cuzk_srs_list(&e->srs, out->srs, sizeof out->srs / sizeof out->srs[0]);
    out->n_srs = n < sizeof out->srs / sizeof out->srs[0] ? n : sizeof out->srs / sizeof out->srs[0];
    const size_t max_rec = sizeof out->records / sizeof out->records[0];
    n = cuzk_record_list(&e->records, out->records, max_rec);
    out->n_records = n < max_rec ? n : max_rec;
}

/* Resident entries (parameters or records) as the original's allocation objects. */
static json_t *allocations_json(const cuzk_engine_srs_info_t *info, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, json_pack("{s:s,s:I,s:I,s:I,s:b}", "circuit_id", info[i].circuit_id, "bytes",
                                             (json_int_t)info[i].size_bytes, "ref_count",
                                             (json_int_t)info[i].ref_count, "last_used_secs_ago",
                                             (json_int_t)(info[i].idle_ms / 1000), "evictable",
                                             info[i].ref_count == 0));
    return arr;
}

static const char *part_state_name(part_state_t s)
{
    /* the original's names: "gpu" is the proving step, on the CPU here */
    static const char *names[] = {"pending", "synthesizing", "synth_done", "gpu", "done", "failed"};
    return names[s];
}

static json_t *pipelines_json(cuzk_engine_t *e, uint64_t now)
{
    json_t *arr = json_array();
    for (job_t *j = e->jobs; j; j = j->next) {
        if (j->phase != JOB_RUNNING && j->phase != JOB_ACTIVATING)
            continue;
        json_t *parts = json_array();
        uint32_t done = 0;
        for (uint32_t k = 0; j->parts && k < j->n_parts; k++) {
            const job_part_t *p = &j->parts[k];
            done += p->state == PART_DONE;
            json_array_append_new(parts, json_pack("{s:I,s:s,s:I,s:I}", "index", (json_int_t)k, "state",
                                                   part_state_name(p->state), "synth_ms", (json_int_t)p->synth_ms,
                                                   "gpu_ms", (json_int_t)p->prove_ms));
        }
        json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:o}", "job_id", j->id, "proof_kind",
                           cuzk_proof_kind_label(j->kind), "state", j->phase == JOB_ACTIVATING ? "preparing" : "running",
                           "priority", (json_int_t)j->priority, "started_secs_ago",
                           (json_int_t)(cuzk_elapsed_ns(now, j->t_start) / 1000000000ull), "total_partitions",
                           (json_int_t)j->n_parts,
                           "partitions_done", (json_int_t)done, "partitions", parts);
        /* beyond the original's fields: how the partitions are synthesized ("auto" while undecided) */
        json_object_set_new(o, "synthesis_mode", json_string(cuzk_engine_synth_mode_name(j->synth_mode)));
        json_array_append_new(arr, o);
    }
    return arr;
}

/* The prover workers under the original's "gpu_workers" (they do what its GPU workers did). */
static json_t *prover_workers_json(cuzk_engine_t *e, uint64_t now)
{
    json_t *arr = json_array();
    for (int i = 0; i < e->n_threads; i++) {
        const worker_t *w = &e->workers[i];
        if (!w->prover)
            continue;
        uint64_t busy = w->busy_total_ns + (w->busy ? cuzk_elapsed_ns(now, w->busy_since_ns) : 0);
        json_t *o = json_pack("{s:I,s:n,s:s,s:f}", "worker_id", (json_int_t)w->index, "gpu_ordinal", "state",
                              w->busy ? "proving" : "idle", "busy_secs", busy / 1e9);
        json_object_set_new(o, "current_job", w->busy ? json_string(w->job) : json_null());
        json_object_set_new(o, "current_partition", w->busy ? json_integer(w->partition) : json_null());
        json_array_append_new(arr, o);
    }
    return arr;
}

static json_t *by_kind_json(const uint64_t *v)
{
    json_t *o = json_object();
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        json_object_set_new(o, cuzk_proof_kind_label((cuzk_proof_kind)k), json_integer((json_int_t)v[k]));
    return o;
}

char *cuzk_engine_status_json(cuzk_engine_t *e)
{
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    uint64_t peak = 0;
    cuzk_budget_get(&e->budget, NULL, NULL, &peak);
    json_t *srs = allocations_json(s.srs, s.n_srs), *pce = allocations_json(s.records, s.n_records);
    pthread_mutex_lock(&e->mu);
    uint64_t now = cuzk_engine_now_ns(); /* under mu: not before a start the snapshot sees */
    uint32_t queue = 0;
    for (job_t *j = e->jobs; j; j = j->next)
        queue += j->phase == JOB_QUEUED;
    json_t *doc = json_pack(
        "{s:I,s:{s:I,s:I,s:I,s:I},s:{s:I,s:I},s:o,s:o,s:{s:o,s:o},s:{s:I,s:I,s:o,s:o,s:I},"
        "s:{s:I,s:I,s:I,s:I,s:I}}",
        "uptime_secs", (json_int_t)s.uptime_s, "memory", "total_bytes", (json_int_t)s.budget_total, "used_bytes",
        (json_int_t)s.budget_used, "available_bytes",
        (json_int_t)(s.budget_total > s.budget_used ? s.budget_total - s.budget_used : 0), "peak_bytes",
        (json_int_t)peak, "synthesis", "max_concurrent", (json_int_t)e->cfg.synthesis_workers, "active",
        (json_int_t)e->synth_active, "pipelines", pipelines_json(e, now), "gpu_workers", prover_workers_json(e, now),
        "allocations", "srs", srs, "pce", pce, "counters", "total_completed", (json_int_t)s.completed, "total_failed",
        (json_int_t)s.failed, "completed_by_kind", by_kind_json(s.completed_by_kind), "failed_by_kind",
        by_kind_json(s.failed_by_kind), "queue_depth", (json_int_t)queue, "buffers", "synth_in_flight",
        (json_int_t)e->synth_active, "provers_in_flight", (json_int_t)e->prove_active, "aux_in_flight",
        (json_int_t)(e->synth_waiting + e->prove_active), "shells_in_flight", (json_int_t)0, "pending_handles",
        (json_int_t)e->synth_waiting);
    pthread_mutex_unlock(&e->mu);
    /* beyond the original's fields: the queue's share of the budget, the results waiting for a client */
    json_object_set_new(json_object_get(doc, "memory"), "queued_bytes", json_integer((json_int_t)s.budget_queued));
    json_object_set_new(json_object_get(doc, "counters"), "results_kept", json_integer((json_int_t)s.results_kept));
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    return text;
}

/* A growing text buffer for the metrics page. */
typedef struct {
    char *p;
    size_t len, cap;
    bool oom;
} sbuf_t;

static void sb_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf_t *b, const char *fmt, ...)
{
    for (int attempt = 0; attempt < 2 && !b->oom; attempt++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n >= 0 && b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

static void hist_text(sbuf_t *b, const char *name, const char *help, const hist_t *h)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    for (int k = 1; k < CUZK_KIND_COUNT; k++) {
        const char *kind = cuzk_proof_kind_label((cuzk_proof_kind)k);
        uint64_t cum = 0;
        for (int i = 0; i < HIST_BUCKETS; i++) {
            cum += h[k].count[i];
            sb_printf(b, "%s_bucket{proof_kind=\"%s\",le=\"%g\"} %llu\n", name, kind, cuzk_hist_bounds_s[i],
                      (unsigned long long)cum);
        }
        sb_printf(b, "%s_bucket{proof_kind=\"%s\",le=\"+Inf\"} %llu\n", name, kind, (unsigned long long)h[k].n);
        sb_printf(b, "%s_sum{proof_kind=\"%s\"} %.6f\n%s_count{proof_kind=\"%s\"} %llu\n", name, kind, h[k].sum, name,
                  kind, (unsigned long long)h[k].n);
    }
}

static void per_kind(sbuf_t *b, const char *name, const char *help, const char *type, const uint64_t *v)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        sb_printf(b, "%s{proof_kind=\"%s\"} %llu\n", name, cuzk_proof_kind_label((cuzk_proof_kind)k),
                  (unsigned long long)v[k]);
}

static void scalar(sbuf_t *b, const char *name, const char *help, const char *type, double v)
{
    sb_printf(b, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, v);
}

char *cuzk_engine_metrics_text(cuzk_engine_t *e)
{
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    sbuf_t b = {0};
    uint32_t queued = 0, running = 0;
    for (int k = 0; k < CUZK_KIND_COUNT; k++) {
        queued += s.pending_by_kind[k];
        running += s.running_by_kind[k];
    }
    scalar(&b, "cuzk_proofs_completed_total", "Proofs completed since start.", "counter", (double)s.completed);
    scalar(&b, "cuzk_proofs_failed_total", "Proofs failed or cancelled since start.", "counter", (double)s.failed);
    scalar(&b, "cuzk_uptime_seconds", "Seconds since the daemon started.", "gauge", (double)s.uptime_s);
    scalar(&b, "cuzk_queue_depth", "Jobs waiting to start.", "gauge", queued);
    per_kind(&b, "cuzk_proofs_completed", "Proofs completed, by kind.", "counter", s.completed_by_kind);
    per_kind(&b, "cuzk_proofs_failed", "Proofs failed or cancelled, by kind.", "counter", s.failed_by_kind);
    scalar(&b, "cuzk_running_jobs", "Jobs being prepared, synthesized or proved.", "gauge", running);
    scalar(&b, "cuzk_gpu_workers", "GPU workers (this build proves on the CPU).", "gauge", 0);
    scalar(&b, "cuzk_prover_workers", "CPU prover workers.", "gauge", e->cfg.prover_workers);
    scalar(&b, "cuzk_memory_budget_bytes", "The memory budget.", "gauge", (double)s.budget_total);
    scalar(&b, "cuzk_memory_used_bytes", "Memory reserved against the budget.", "gauge", (double)s.budget_used);
    scalar(&b, "cuzk_memory_queued_bytes", "Bytes of queued requests, part of the memory used.", "gauge",
           (double)s.budget_queued);
    scalar(&b, "cuzk_results_kept", "Finished results nobody has collected yet.", "gauge", s.results_kept);
    pthread_mutex_lock(&e->mu);
    sb_printf(&b, "# HELP cuzk_proof_duration_seconds Submission to result of completed proofs.\n"
                  "# TYPE cuzk_proof_duration_seconds summary\n");
    for (int k = 1; k < CUZK_KIND_COUNT; k++) {
        const char *kind = cuzk_proof_kind_label((cuzk_proof_kind)k);
        sb_printf(&b, "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %llu\n", kind,
                  (unsigned long long)e->total_time[k].n);
        sb_printf(&b, "cuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.6f\n", kind, e->total_time[k].sum);
    }
    hist_text(&b, "cuzk_queue_wait_seconds", "Time from submission to the start of work.", e->queue_wait);
    hist_text(&b, "cuzk_prove_seconds", "Proving time of completed proofs (sum over partitions).", e->prove_time);
    pthread_mutex_unlock(&e->mu);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}
