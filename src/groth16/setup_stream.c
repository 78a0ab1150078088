/* The streaming development setup (setup_stream.h): the passes over the circuit, then the .params
 * sections in file order (vk, h, l, a, b_g1, b_g2), each made chunk by chunk: scalars, fixed-base
 * products, encoding, handed to the writing thread. */
#include "groth16/setup_stream.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/file.h"
#include "cuzk/params.h"
#include "groth16/fixed_base.h"
#include "groth16/groth16_internal.h"
#include "groth16/params_internal.h"
#include "groth16/setup_qap.h"
#include "groth16/setup_writer.h"
#include "util/parallel.h"
#include "util/timer.h"

/* Points per chunk: a G2 chunk's encoding is 6 MiB, and a chunk keeps two cores busy ~50 ms. */
#define CHUNK ((size_t)1 << 15)

/* Estimated single-thread microseconds per unit, only for the progress fraction (measured with the
 * AVX-512 IFMA kernels: 2KiB PoRep passes, 12-bit fixed-base products; elsewhere the fraction is rougher). */
#define COST_COUNT_ROW 0.2
#define COST_QAP_ROW 0.3
#define COST_G1 2.3
#define COST_G2 4.6

typedef struct {
    const g16_stream_opts *o;
    g16_stream_plan plan;
    int threads;
    uint64_t t0_ns, last_ns;
    double total_cost, done_cost; /* estimated wall microseconds */
    const char *phase;
    uint64_t phase_total;
    double unit_cost;
} run_t;

static bool stopped(const run_t *r) { return r->o->should_stop && r->o->should_stop(r->o->stop_arg); }

static void report(run_t *r, uint64_t done)
{
    if (!r->o->progress)
        return;
    uint64_t now = cuzk_now_ns();
    r->last_ns = now;
    double f = r->total_cost > 0 ? (r->done_cost + (double)done * r->unit_cost) / r->total_cost : 0;
    g16_stream_progress p = {r->phase, done, r->phase_total, f > 1 ? 1 : f, (double)(now - r->t0_ns) / 1e9};
    r->o->progress(r->o->progress_arg, &p);
}

static void phase_begin(run_t *r, const char *name, uint64_t total, double unit_cost)
{
    r->phase = name;
    r->phase_total = total;
    r->unit_cost = unit_cost;
    report(r, 0);
}

static void phase_tick(run_t *r, uint64_t done)
{
    if (cuzk_now_ns() - r->last_ns >= 1000000000ull)
        report(r, done);
}

static void phase_end(run_t *r)
{
    report(r, r->phase_total);
    r->done_cost += (double)r->phase_total * r->unit_cost;
}

static void tick_rows(void *arg, uint64_t rows) { phase_tick(arg, rows); }

static void plan_costs(run_t *r, bool count_pass)
{
    const g16_stream_plan *p = &r->plan;
    double rows = (double)(p->num_constraints + p->num_inputs), t = r->threads;
    r->total_cost = (count_pass ? rows * COST_COUNT_ROW : 0) + 2 * rows * COST_QAP_ROW +
                    (double)(p->h + p->l + p->a + p->b) * COST_G1 / t + (double)p->b * COST_G2 / t;
}

/* ---- scalars of the sections, chunk by chunk in file order ---- */

typedef struct {
    fr next; /* Z(τ)/δ · τ^i for the next i */
    const fr *tau;
} h_gen;

static void h_scalars(void *ctx, fr *out, size_t n)
{
    h_gen *g = ctx;
    for (size_t i = 0; i < n; i++) {
        out[i] = g->next;
        fr_mul(&g->next, &g->next, g->tau);
    }
}

typedef struct {
    const fr *src;
} l_gen;

static void l_scalars(void *ctx, fr *out, size_t n)
{
    l_gen *g = ctx;
    memcpy(out, g->src, n * sizeof *out);
    g->src += n;
}

/* The dense variables of a query in order: inputs (all of them when in_bm is NULL), then aux. */
typedef struct {
    const fr *in_vals, *aux_vals;
    const uint64_t *in_bm, *aux_bm;
    size_t ni, na, cursor;
    bool short_; /* fewer dense variables than the plan said */
} dense_gen;

static void dense_scalars(void *ctx, fr *out, size_t n)
{
    dense_gen *g = ctx;
    size_t k = 0;
    while (k < n && g->cursor < g->ni + g->na) {
        size_t v = g->cursor++;
        if (v < g->ni) {
            if (!g->in_bm || (g->in_bm[v / 64] >> (v % 64) & 1))
                out[k++] = g->in_vals[v];
        } else {
            size_t j = v - g->ni;
            if (g->aux_bm[j / 64] >> (j % 64) & 1)
                out[k++] = g->aux_vals[j];
        }
    }
    for (; k < n; k++) {
        out[k] = FR_ZERO;
        g->short_ = true;
    }
}

/* ---- sections ---- */

typedef struct {
    g16_writer *w;
    fr *sc;         /* CHUNK scalars */
    void *pts;      /* CHUNK points (G2 size) */
    const g16_fb_table *g1, *g2;
} out_t;

static cuzk_status write_section(run_t *r, out_t *o, const char *name, size_t n, bool g2,
                                 void (*next)(void *ctx, fr *out, size_t n), void *ctx, cuzk_err_t *err)
{
    phase_begin(r, name, n, (g2 ? COST_G2 : COST_G1) / r->threads);
    size_t pt_bytes = g2 ? PARAMS_G2_BYTES : PARAMS_G1_BYTES;
    uint8_t *buf = g16_writer_buffer(o->w);
    params_put_u32be(buf, (uint32_t)n);
    size_t used = 4;
    cuzk_status st = CUZK_OK;
    for (size_t done = 0; st == CUZK_OK && done < n;) {
        if (stopped(r))
            return cuzk_err_set(err, CUZK_ERR_CANCELLED, "setup: stopped in section %s", name);
        size_t cnt = n - done < CHUNK ? n - done : CHUNK;
        next(ctx, o->sc, cnt);
        st = g2 ? g16_fb_mul_g2(o->g2, o->pts, o->sc, cnt, r->threads)
                : g16_fb_mul_g1(o->g1, o->pts, o->sc, cnt, r->threads);
        g16_wipe(o->sc, cnt * sizeof(fr));
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "setup: section %s: %s", name, cuzk_status_str(st));
        if (!buf)
            buf = g16_writer_buffer(o->w);
        if (g2)
            params_enc_g2_array(buf + used, o->pts, cnt, r->threads);
        else
            params_enc_g1_array(buf + used, o->pts, cnt, r->threads);
        st = g16_writer_submit(o->w, used + cnt * pt_bytes, err);
        buf = NULL;
        used = 0;
        done += cnt;
        phase_tick(r, done);
    }
    if (st == CUZK_OK && buf) /* an empty section: its length alone */
        st = g16_writer_submit(o->w, used, err);
    if (st == CUZK_OK)
        phase_end(r);
    return st;
}

/* ---- after pass 1: the l scalars in place of y, and the unconstrained-variable check ---- */

typedef struct {
    fr *y;
    const fr *x, *alpha, *inv_delta;
    size_t first_free; /* lowest aux with u = v = w = 0 (atomic), SIZE_MAX: none */
} l_job;

static void l_chunk(void *p, size_t b, size_t e)
{
    l_job *j = p;
    for (size_t i = b; i < e; i++) {
        fr t;
        if (fr_is_zero(&j->y[i]) && fr_is_zero(&j->x[i])) {
            size_t cur = __atomic_load_n(&j->first_free, __ATOMIC_RELAXED);
            while (i < cur && !__atomic_compare_exchange_n(&j->first_free, &cur, i, false, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED))
                ;
        }
        fr_mul(&t, j->alpha, &j->x[i]); /* y = β·u + w from pass 1 */
        fr_add(&t, &t, &j->y[i]);
        fr_mul(&j->y[i], &t, j->inv_delta);
        g16_wipe(&t, sizeof t);
    }
}

/* ---- the run ---- */

typedef struct {
    g16_toxic_waste tw;
    g16_qap q;
    g16_writer *w;
    cuzk_atomic_file_t *vkf;
    g16_fb_table *g1, *g2;
    fr *sc;
    void *pts;
    uint8_t *vk_buf;
    cuzk_groth16_vk_t vk;
} state_t;

static void state_free(state_t *s)
{
    g16_wipe(&s->tw, sizeof s->tw);
    g16_qap_free(&s->q);
    g16_writer_abort(s->w);
    cuzk_atomic_abort(s->vkf);
    g16_fb_table_free(s->g1);
    g16_fb_table_free(s->g2);
    if (s->sc)
        g16_wipe(s->sc, CHUNK * sizeof(fr));
    free(s->sc);
    free(s->pts);
    free(s->vk_buf);
    free(s->vk.ic);
}

/* The verifying key: α, β, δ in G1, γ, β, δ in G2, ic_i = (β·u_i + α·v_i + w_i)/γ. */
static cuzk_status make_vk(run_t *r, state_t *s, cuzk_err_t *err)
{
    const g16_toxic_waste *tw = &s->tw;
    size_t ni = r->plan.num_inputs;
    s->vk.ic = malloc(ni * sizeof *s->vk.ic);
    if (!s->vk.ic)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "setup: out of memory (ic)");
    s->vk.ic_len = ni;
    fr inv;
    fr_inv(&inv, &tw->gamma);
    for (size_t done = 0; done < ni; done += CHUNK) {
        size_t cnt = ni - done < CHUNK ? ni - done : CHUNK;
        for (size_t i = 0; i < cnt; i++) {
            fr t, u;
            fr_mul(&t, &tw->beta, &s->q.in_u[done + i]);
            fr_mul(&u, &tw->alpha, &s->q.in_v[done + i]);
            fr_add(&t, &t, &u);
            fr_add(&t, &t, &s->q.in_w[done + i]);
            fr_mul(&s->sc[i], &t, &inv);
        }
        cuzk_status st = g16_fixed_base_g1(s->vk.ic + done, s->sc, cnt, r->threads);
        g16_wipe(s->sc, cnt * sizeof(fr));
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "setup: ic: %s", cuzk_status_str(st));
    }
    g16_wipe(&inv, sizeof inv);
    cuzk_status st = g16_vk_points(&s->vk, tw);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "setup: verifying key: %s", cuzk_status_str(st));
    s->vk_buf = malloc(r->plan.vk_bytes);
    if (!s->vk_buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "setup: out of memory (verifying key)");
    return cuzk_params_vk_encode(s->vk_buf, r->plan.vk_bytes, &s->vk, err);
}

static cuzk_status run(run_t *r, state_t *s, const char *params_path, const char *vk_path,
                       g16_synthesize_fn synthesize, const void *arg, cuzk_err_t *err)
{
    const g16_stream_opts *o = r->o;
    const g16_stream_plan *p = &r->plan;
    cuzk_status st;
    /* the files first: an unwritable directory fails before minutes of work */
    size_t buf_bytes = 4 + CHUNK * PARAMS_G2_BYTES;
    if (buf_bytes < p->vk_bytes)
        buf_bytes = p->vk_bytes;
    if ((st = g16_writer_open(&s->w, params_path, buf_bytes, err)) != CUZK_OK ||
        (st = cuzk_atomic_open(&s->vkf, vk_path, 0644, err)) != CUZK_OK)
        return st;
    s->sc = malloc(CHUNK * sizeof(fr));
    s->pts = malloc(CHUNK * sizeof(g2_aff));
    if (!s->sc || !s->pts)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "setup: out of memory (chunk buffers)");
    if (o->waste)
        s->tw = *o->waste;
    else if ((st = g16_toxic_waste_draw(&s->tw, (size_t)1 << p->log_m, err)) != CUZK_OK)
        return st;
    if ((st = g16_qap_init(&s->q, p, &s->tw, err)) != CUZK_OK)
        return st;
    s->q.tick = tick_rows;
    s->q.tick_arg = r;
    size_t rows = p->num_constraints + p->num_inputs;

    phase_begin(r, "qap pass 1", rows, COST_QAP_ROW);
    if ((st = g16_qap_pass(&s->q, 1, synthesize, arg, o->should_stop, o->stop_arg, err)) != CUZK_OK)
        return st;
    phase_end(r);
    fr inv_delta;
    fr_inv(&inv_delta, &s->tw.delta);
    l_job lj = {s->q.y, s->q.x, &s->tw.alpha, &inv_delta, SIZE_MAX};
    cuzk_parallel_for(r->threads, p->num_aux, 1 << 16, l_chunk, &lj);
    if (lj.first_free != SIZE_MAX) {
        g16_wipe(&inv_delta, sizeof inv_delta);
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "aux variable %zu is unconstrained", lj.first_free);
    }
    if ((st = make_vk(r, s, err)) != CUZK_OK)
        return st;
    memcpy(g16_writer_buffer(s->w), s->vk_buf, p->vk_bytes);
    if ((st = g16_writer_submit(s->w, p->vk_bytes, err)) != CUZK_OK ||
        (st = cuzk_atomic_write(s->vkf, s->vk_buf, p->vk_bytes, err)) != CUZK_OK)
        return st;
    if ((st = g16_fb_table_new(&s->g1, false, G16_FB_WINDOW_LARGE, r->threads)) != CUZK_OK)
        return cuzk_err_set(err, st, "setup: out of memory (G1 table)");
    out_t out = {s->w, s->sc, s->pts, s->g1, NULL};

    h_gen hg = {.tau = &s->tw.tau}; /* h_i = τ^i·Z(τ)/δ */
    uint64_t e = (uint64_t)1 << p->log_m;
    fr_pow(&hg.next, &s->tw.tau, &e, 1);
    fr_sub(&hg.next, &hg.next, &FR_ONE);
    fr_mul(&hg.next, &hg.next, &inv_delta);
    g16_wipe(&inv_delta, sizeof inv_delta);
    st = write_section(r, &out, "h", p->h, false, h_scalars, &hg, err);
    g16_wipe(&hg.next, sizeof hg.next);
    l_gen lg = {s->q.y};
    if (st != CUZK_OK || (st = write_section(r, &out, "l", p->l, false, l_scalars, &lg, err)) != CUZK_OK)
        return st;

    phase_begin(r, "qap pass 2", rows - p->num_inputs, COST_QAP_ROW);
    if ((st = g16_qap_pass(&s->q, 2, synthesize, arg, o->should_stop, o->stop_arg, err)) != CUZK_OK)
        return st;
    r->phase_total = rows; /* the input rows, counted in the plan's costs, need no work in pass 2 */
    phase_end(r);
    dense_gen ag = {s->q.in_u, s->q.y, NULL, s->q.a_aux, p->num_inputs, p->num_aux, 0, false};
    if ((st = write_section(r, &out, "a", p->a, false, dense_scalars, &ag, err)) != CUZK_OK)
        return st;
    g16_qap_release_y(&s->q);
    dense_gen bg = {s->q.in_v, s->q.x, s->q.b_in, s->q.b_aux, p->num_inputs, p->num_aux, 0, false};
    if ((st = write_section(r, &out, "b_g1", p->b, false, dense_scalars, &bg, err)) != CUZK_OK)
        return st;
    g16_fb_table_free(s->g1);
    s->g1 = NULL;
    if ((st = g16_fb_table_new(&s->g2, true, G16_FB_WINDOW_LARGE, r->threads)) != CUZK_OK)
        return cuzk_err_set(err, st, "setup: out of memory (G2 table)");
    out.g2 = s->g2;
    dense_gen bg2 = {s->q.in_v, s->q.x, s->q.b_in, s->q.b_aux, p->num_inputs, p->num_aux, 0, false};
    if ((st = write_section(r, &out, "b_g2", p->b, true, dense_scalars, &bg2, err)) != CUZK_OK)
        return st;
    if (ag.short_ || bg.short_ || bg2.short_)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "setup: the densities differ from the plan's");
    if (stopped(r))
        return cuzk_err_set(err, CUZK_ERR_CANCELLED, "setup: stopped");

    phase_begin(r, "sync", 1, 0);
    st = g16_writer_commit(s->w, err);
    s->w = NULL;
    if (st != CUZK_OK)
        return st;
    st = cuzk_atomic_commit(s->vkf, err);
    s->vkf = NULL;
    if (st != CUZK_OK)
        unlink(params_path); /* no key without its verifying key */
    phase_end(r);
    return st;
}

cuzk_status g16_setup_stream(const char *params_path, const char *vk_path, g16_synthesize_fn synthesize,
                             const void *arg, const g16_stream_opts *opts, cuzk_err_t *err)
{
    static const g16_stream_opts none = {0};
    if (!params_path || !vk_path || !synthesize || (opts && opts->threads < 0))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "invalid arguments to the streaming setup");
    run_t r = {.o = opts ? opts : &none, .t0_ns = cuzk_now_ns()};
    r.threads = r.o->threads ? r.o->threads : cuzk_cpu_count();
    cuzk_status st;
    if (r.o->plan) {
        r.plan = *r.o->plan;
        plan_costs(&r, false);
    } else {
        r.total_cost = 0;
        phase_begin(&r, "count", 0, 0);
        st = g16_stream_plan_circuit(&r.plan, synthesize, arg, r.o->should_stop, r.o->stop_arg, tick_rows, &r, err);
        if (st != CUZK_OK)
            return st;
        plan_costs(&r, true);
        r.done_cost = (double)(r.plan.num_constraints + r.plan.num_inputs) * COST_COUNT_ROW;
        r.phase_total = r.plan.num_constraints;
        report(&r, r.phase_total);
    }
    state_t s;
    memset(&s, 0, sizeof s);
    st = run(&r, &s, params_path, vk_path, synthesize, arg, err);
    state_free(&s);
    return st;
}
