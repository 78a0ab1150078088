/* cuzk-bench synth-only: PoRep C2 synthesis alone (no setup, no proving), from a real C1 output or, for a
 * sector size, from an all-zero witness of the right shape, as the original's synthesis microbenchmark; with
 * --kind snap the SnapDeals circuit of a synthetic sector's partitions (bench/snap_request.h).
 * Per iteration: wall and synthesis time, constraint rate, peak RSS and hardware counters when the kernel
 * allows them (perf_event_open). */
#include "cli_opts.h"
#include "cli_util.h"
#include "bench/synth_only.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/snap_request.h"
#include "cuzk/field.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/porep.h"
#include "cuzk/snap.h"

typedef struct {
    cuzk_cs_backend backend;
    cuzk_lc_strategy lc;
    cuzk_porep_config_t cfg;
    const cuzk_porep_c1_t *c1; /* NULL: dummy witness */
    const cuzk_snap_request_t *snap; /* SnapDeals instead of PoRep */
    int snap_threads;          /* threads of one SnapDeals partition's synthesis */
    bool scalar_mix;           /* print the aux values' mix after each partition (direct only) */
    bool prefault;             /* direct PoRep: arrays reserved and faulted in beside the synthesis, as the prover's */
    cuzk_circuit_info_t shape; /* the circuit's counts, for the reservation */
    uint32_t first, count;  /* partitions */
    _Atomic uint32_t next;
    _Atomic uint64_t synth_ns, constraints;
    _Atomic int failed;
} job_t;

/* Every value present and zero: the shape the value backends need, as the original's dummy circuit. */
static void dummy_witness(cuzk_porep_witness_t *w)
{
    w->has_replica_id = w->has_comm_d = w->has_comm_r = w->has_comm_c = w->has_comm_r_last = true;
    for (uint32_t i = 0; i < w->num_challenges; i++) {
        cuzk_porep_challenge_t *c = &w->challenges[i];
        c->has_challenge = true;
        c->comm_d_path.has_values = c->comm_r_last_path.has_values = true;
        cuzk_porep_column_t *cols[1 + CUZK_POREP_DRG_PARENTS + CUZK_POREP_EXP_PARENTS];
        cols[0] = &c->c_x;
        for (int j = 0; j < CUZK_POREP_DRG_PARENTS; j++)
            cols[1 + j] = &c->drg_parents[j];
        for (int j = 0; j < CUZK_POREP_EXP_PARENTS; j++)
            cols[1 + CUZK_POREP_DRG_PARENTS + j] = &c->exp_parents[j];
        for (size_t j = 0; j < sizeof cols / sizeof cols[0]; j++)
            cols[j]->has_rows = cols[j]->path.has_values = true;
    }
}

static bool wants_values(cuzk_cs_backend b) { return b == CUZK_CS_DIRECT || b == CUZK_CS_WITNESS; }

/* SnapDeals partition k as the prover synthesizes it (direct: C·z left out); only the synthesis timed. */
static cuzk_status snap_partition(job_t *j, uint32_t k, cuzk_cs_t **cs, cuzk_err_t *err)
{
    cuzk_snap_witness_t w;
    cuzk_status st = cuzk_snap_request_witness(&w, j->snap, k, err);
    if (st == CUZK_OK)
        st = cuzk_cs_new(cs, j->backend, j->lc, err);
    if (st == CUZK_OK && j->backend == CUZK_CS_DIRECT)
        st = cuzk_cs_omit_c(*cs, err);
    uint64_t t0 = cli_now_ns();
    if (st == CUZK_OK)
        st = cuzk_snap_synthesize(*cs, &w.cfg, &w, j->snap_threads, err);
    j->synth_ns += cli_now_ns() - t0;
    cuzk_snap_witness_free(&w);
    return st;
}

/* What the l, a and b MSMs of this partition would see: how many aux values are 0, 1 or other, over all
 * aux and over those the A and B density bitmaps keep. */
static void print_scalar_mix(const cuzk_cs_t *cs, uint32_t k)
{
    cuzk_groth16_witness_t w;
    cuzk_err_t err = {{0}};
    if (cuzk_cs_groth16_witness(cs, &w, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench synth-only: partition %u: scalar mix: %s\n", k, err.msg);
        return;
    }
    uint64_t n[3][3] = {{0}}; /* [all, a, b][zero, one, other] */
    for (size_t i = 0; i < w.num_aux; i++) {
        cuzk_scalar_t v;
        cuzk_fr_to_scalar(&v, &w.aux[i]);
        int cls = (v.l[1] | v.l[2] | v.l[3]) || v.l[0] > 1 ? 2 : (int)v.l[0];
        n[0][cls]++;
        if (!w.a_aux_density || (w.a_aux_density[i / 64] >> (i % 64)) & 1)
            n[1][cls]++;
        if (!w.b_aux_density || (w.b_aux_density[i / 64] >> (i % 64)) & 1)
            n[2][cls]++;
    }
    static const char *const set[3] = {"aux", "a-density aux", "b-density aux"};
    for (int s = 0; s < 3; s++) {
        double tot = (double)(n[s][0] + n[s][1] + n[s][2]);
        printf("[partition %u] %s: %" PRIu64 " values: zero %.2f%% one %.2f%% other %.2f%%\n", k, set[s],
               n[s][0] + n[s][1] + n[s][2], 100.0 * (double)n[s][0] / tot, 100.0 * (double)n[s][1] / tot,
               100.0 * (double)n[s][2] / tot);
    }
}

static int one_partition(job_t *j, uint32_t k)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_witness_t w;
    memset(&w, 0, sizeof w);
    cuzk_status st = CUZK_OK;
    bool have_w = false;
    if (j->c1) {
        st = cuzk_porep_c1_witness(&w, j->c1, k, &err);
        have_w = st == CUZK_OK;
    } else if (wants_values(j->backend)) {
        st = cuzk_porep_witness_init(&w, &j->cfg, &err);
        if (st == CUZK_OK)
            dummy_witness(&w);
        have_w = st == CUZK_OK;
    }
    cuzk_cs_t *cs = NULL;
    if (j->snap) {
        st = snap_partition(j, k, &cs, &err);
    } else {
        if (st == CUZK_OK)
            st = cuzk_cs_new(&cs, j->backend, j->lc, &err);
        uint64_t t0 = cli_now_ns();
        if (st == CUZK_OK && j->prefault) {
            cuzk_cs_reserve(cs, j->shape.num_inputs, j->shape.num_aux, j->shape.num_constraints);
            cuzk_cs_prefault_start(cs);
        }
        if (st == CUZK_OK)
            st = cuzk_porep_synthesize(cs, &j->cfg, have_w ? &w : NULL, &err);
        if (cs)
            cuzk_cs_prefault_stop(cs);
        j->synth_ns += cli_now_ns() - t0;
    }
    if (st == CUZK_OK) {
        cuzk_cs_counts_t n;
        cuzk_cs_counts(cs, &n);
        j->constraints += n.num_constraints;
        if (j->scalar_mix)
            print_scalar_mix(cs, k);
    }
    cuzk_cs_free(cs);
    if (have_w)
        cuzk_porep_witness_free(&w);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench synth-only: partition %u: %s\n", k, err.msg);
        return -1;
    }
    return 0;
}

static void *worker(void *arg)
{
    job_t *j = arg;
    for (;;) {
        uint32_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->count || j->failed)
            return NULL;
        if (one_partition(j, j->first + i) != 0)
            j->failed = 1;
    }
}

/* ---- --mode record: the matrices recorded once (or loaded), then per partition a witness-only synthesis and
 * the compact evaluation, as the record prover works; beside --mode direct's per-partition synthesis ---- */

static double secs_since(uint64_t t0) { return (double)(cli_now_ns() - t0) / 1e9; }

static double peak_rss_gb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / (1 << 20);
}

/* Records the circuit (or loads `file` when it exists; saves it there when it does not) and prints its
 * size: non-zeros, tables, bytes in memory and on disk. */
static int record_once(cuzk_cs_record_t *rec, const job_t *j, const char *file)
{
    cuzk_err_t err = {{0}};
    bool load = file && access(file, R_OK) == 0;
    uint64_t t0 = cli_now_ns();
    cuzk_status st;
    if (load) {
        st = cuzk_cs_record_load(rec, file, &err);
    } else {
        cuzk_cs_t *cs = NULL;
        st = cuzk_cs_new(&cs, CUZK_CS_RECORD, j->lc, &err);
        if (st == CUZK_OK)
            st = cuzk_porep_synthesize(cs, &j->cfg, NULL, &err);
        if (st == CUZK_OK)
            st = cuzk_cs_take_record_compact(cs, rec, &err);
        cuzk_cs_free(cs);
    }
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench synth-only: record: %s\n", err.msg);
        return -1;
    }
    double secs = secs_since(t0);
    const cuzk_r1cs_compact_t *m = &rec->m;
    uint64_t nnz = m->a.nnz + m->b.nnz + m->c.nnz;
    size_t bitmaps = ((m->num_aux + 63) / 64 * 2 + (m->num_inputs + 63) / 64) * 8;
    double mem = (double)(cuzk_r1cs_compact_bytes(m) + bitmaps);
    double csr = 3.0 * 8 * ((double)m->num_constraints + 1) + 36.0 * (double)nnz + (double)bitmaps;
    printf("record: %s in %.3f s: constraints=%zu inputs=%zu aux=%zu nnz=%" PRIu64 " (A %" PRIu64 ", B %" PRIu64
           ", C %" PRIu64 ")\n",
           load ? "loaded" : "recorded", secs, m->num_constraints, m->num_inputs, m->num_aux, nnz, m->a.nnz, m->b.nnz,
           m->c.nnz);
    printf("record: table entries A %zu, B %zu, C %zu (index bytes %d, %d, %d); long rows A %zu, B %zu, C %zu\n",
           m->a.table_len, m->b.table_len, m->c.table_len, m->a.idx16 ? 2 : 1, m->b.idx16 ? 2 : 1,
           m->c.idx16 ? 2 : 1, m->a.num_long, m->b.num_long, m->c.num_long);
    printf("record: memory=%.3f GB (%.2f bytes per non-zero; the CSR form: %.3f GB) disk=%.3f GB peak_rss=%.3f\n",
           mem / 1e9, nnz ? mem / (double)nnz : 0.0, csr / 1e9, (double)cuzk_cs_record_file_bytes(rec) / 1e9,
           peak_rss_gb());
    /* terms whose coefficient is not ±1: the evaluation's multiplications */
    const cuzk_cmat_t *ms[3] = {&m->a, &m->b, &m->c};
    uint64_t muls[3] = {0};
    for (int k = 0; k < 3; k++)
        for (uint64_t t = 0; t < ms[k]->nnz; t++)
            muls[k] += (ms[k]->idx16 ? ms[k]->idx16[t] : ms[k]->idx8[t]) > 1;
    printf("record: terms with a coefficient other than 1 or -1: A %" PRIu64 ", B %" PRIu64 ", C %" PRIu64 "\n",
           muls[0], muls[1], muls[2]);
    if (file && !load) {
        t0 = cli_now_ns();
        if (cuzk_cs_record_save(rec, file, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench synth-only: %s: %s\n", file, err.msg);
            return -1;
        }
        printf("record: saved to %s in %.3f s\n", file, secs_since(t0));
    }
    fflush(stdout);
    return 0;
}

/* Partition k: witness-only synthesis, then A·z, B·z, C·z from the record in turn into buf (one buffer:
 * the prover keeps A·z and B·z, and rebuilds C·z). With check, each product is compared with the direct
 * backend's for the same partition. Adds the times to sums[3] (witness, A+B, C). */
static int record_partition(job_t *j, const cuzk_cs_record_t *rec, uint32_t k, int eval_threads, bool check,
                            cuzk_fr_t *buf, double sums[3])
{
    cuzk_err_t err = {{0}};
    cuzk_porep_witness_t w;
    memset(&w, 0, sizeof w);
    cuzk_status st = j->c1 ? cuzk_porep_c1_witness(&w, j->c1, k, &err) : cuzk_porep_witness_init(&w, &j->cfg, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench synth-only: partition %u: %s\n", k, err.msg);
        return -1;
    }
    if (!j->c1)
        dummy_witness(&w);
    cuzk_cs_t *cs = NULL, *dcs = NULL;
    cuzk_groth16_witness_t dw;
    st = cuzk_cs_new(&cs, CUZK_CS_WITNESS, j->lc, &err);
    uint64_t t0 = cli_now_ns();
    if (st == CUZK_OK)
        st = cuzk_porep_synthesize(cs, &j->cfg, &w, &err);
    double t_wit = secs_since(t0);
    cuzk_cs_counts_t n;
    if (st == CUZK_OK) {
        cuzk_cs_counts(cs, &n);
        if (n.num_inputs != rec->m.num_inputs || n.num_aux != rec->m.num_aux ||
            n.num_constraints != rec->m.num_constraints)
            st = cuzk_err_set(&err, CUZK_ERR_MISMATCH, "the witness's shape differs from the record's");
    }
    if (st == CUZK_OK && check) {
        st = cuzk_cs_new(&dcs, CUZK_CS_DIRECT, j->lc, &err);
        if (st == CUZK_OK)
            st = cuzk_porep_synthesize(dcs, &j->cfg, &w, &err);
        if (st == CUZK_OK)
            st = cuzk_cs_groth16_witness(dcs, &dw, &err);
    }
    double t_eval[3] = {0};
    int bad = 0;
    for (int m = 0; m < 3 && st == CUZK_OK; m++) {
        cuzk_fr_t *out[3] = {NULL, NULL, NULL};
        out[m] = buf;
        t0 = cli_now_ns();
        cuzk_r1cs_compact_eval(&rec->m, cuzk_cs_inputs(cs), cuzk_cs_aux(cs), out[0], out[1], out[2], eval_threads);
        t_eval[m] = secs_since(t0);
        const cuzk_fr_t *want = m == 0 ? dw.a : m == 1 ? dw.b : dw.c;
        if (check && memcmp(buf, want, n.num_constraints * sizeof *buf) != 0) {
            fprintf(stderr, "cuzk-bench synth-only: partition %u: %c·z from the record differs from the direct "
                            "backend's\n", k, "ABC"[m]);
            bad = 1;
        }
    }
    if (st == CUZK_OK) {
        printf("[partition %u] witness=%.4f eval_a=%.4f eval_b=%.4f eval_c=%.4f witness+eval_ab=%.4f%s\n", k, t_wit,
               t_eval[0], t_eval[1], t_eval[2], t_wit + t_eval[0] + t_eval[1],
               check ? bad ? " check=FAILED" : " check=ok (a, b, c = direct)" : "");
        fflush(stdout);
        sums[0] += t_wit, sums[1] += t_eval[0] + t_eval[1], sums[2] += t_eval[2];
        j->constraints += n.num_constraints;
    }
    cuzk_cs_free(dcs);
    cuzk_cs_free(cs);
    cuzk_porep_witness_free(&w);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench synth-only: partition %u: %s\n", k, err.msg);
        return -1;
    }
    return bad ? -1 : 0;
}

static void summary(const char *name, double *v, int n);

static int record_bench(job_t *j, long iters, const char *file, int eval_threads, bool check)
{
    cuzk_cs_record_t rec;
    if (record_once(&rec, j, file) != 0)
        return 1;
    size_t rows = rec.m.num_constraints ? rec.m.num_constraints : 1;
    cuzk_fr_t *buf = malloc(rows * sizeof *buf);
    int rc = buf ? 0 : 1;
    if (buf)
        memset(buf, 0xff, rows * sizeof *buf); /* faulted in before the clock runs (not 0: malloc + memset 0
                                                 * may become calloc, which leaves fresh pages unfaulted) */
    double *wall = calloc((size_t)iters, sizeof *wall);
    for (long it = 0; it < iters && rc == 0 && wall; it++) {
        double sums[3] = {0};
        j->constraints = 0;
        uint64_t t0 = cli_now_ns();
        for (uint32_t i = 0; i < j->count && rc == 0; i++)
            rc = record_partition(j, &rec, j->first + i, eval_threads, check, buf, sums) != 0;
        if (rc)
            break;
        wall[it] = secs_since(t0);
        printf("[%ld] wall=%.4f witness=%.4f eval_ab=%.4f eval_c=%.4f witness+eval_ab=%.4f circuits=%u "
               "constraints=%" PRIu64 " peak_rss=%.3f\n",
               it, wall[it], sums[0], sums[1], sums[2], sums[0] + sums[1], j->count, (uint64_t)j->constraints,
               peak_rss_gb());
        fflush(stdout);
    }
    if (rc == 0 && wall)
        summary("wall", wall, (int)iters);
    free(wall);
    free(buf);
    cuzk_cs_record_free(&rec);
    return rc || !wall ? 1 : 0;
}

/* ---- hardware counters ---------------------------------------------------------------------------- */
#define N_HW 4
static const struct { const char *name; uint64_t config; } hw_events[N_HW] = {
    {"instructions", PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_COUNT_HW_CPU_CYCLES},
    {"cache_misses", PERF_COUNT_HW_CACHE_MISSES},
    {"branch_misses", PERF_COUNT_HW_BRANCH_MISSES},
};

/* Opens the counters for this process and the threads it creates; false (all closed) when refused. */
static bool hw_open(int fd[N_HW])
{
    for (int i = 0; i < N_HW; i++) {
        struct perf_event_attr pa;
        memset(&pa, 0, sizeof pa);
        pa.size = sizeof pa;
        pa.type = PERF_TYPE_HARDWARE;
        pa.config = hw_events[i].config;
        pa.disabled = 1;
        pa.inherit = 1;
        pa.exclude_kernel = 1;
        pa.exclude_hv = 1;
        fd[i] = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
        if (fd[i] < 0) {
            for (int k = 0; k < i; k++)
                close(fd[k]);
            return false;
        }
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void summary(const char *name, double *v, int n)
{
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += v[i];
    mean /= n;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    printf("summary %s: min=%.4f median=%.4f mean=%.4f\n", name, v[0], med, mean);
}

int bench_synth_only(int argc, char **argv)
{
    static const char *prog = "cuzk-bench synth-only";
    static const char *const mode_names[] = {"direct", "record", "witness", "count", NULL};
    static const char *const kind_names[] = {"porep", "snap", NULL};
    const char *c1_path = NULL, *size = NULL, *lc_name = "default", *record_file = NULL;
    int mode_i = 0, kind_i = 0, partition_i = -1, iters_i = 1, threads_i = 1, mix_i = 0, eval_threads_i = 0,
        check_i = 0, no_prefault_i = 0;
    const cli_opt table[] = {
        CLI_CHOICE_OPT("kind", 0, &kind_i, kind_names,
                       "the circuit: PoRep C2 (default) or SnapDeals (a synthetic sector of --sector-size)"),
        CLI_STR_OPT("c1", 0, &c1_path, "FILE", "a real C1 output (bare or Curio's wrapper)"),
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB, 512MiB, 32GiB or 64GiB: an all-zero witness"),
        CLI_INT_OPT("partition", 0, &partition_i, "N", 0, 1000000, "one partition (default: all)"),
        CLI_INT_OPT("iterations", 'i', &iters_i, "ITER", 1, 100000, "timed iterations (default 1)"),
        CLI_CHOICE_OPT("mode", 0, &mode_i, mode_names, "the constraint system (default direct)"),
        CLI_STR_OPT("lc", 0, &lc_name, "heap|inline1|inline2|inline4|arena", "the LC storage (default: the default)"),
        CLI_INT_OPT("threads", 0, &threads_i, "T", 1, 1024,
                    "PoRep: partitions synthesized at once; snap: threads of each partition (default 1)"),
        CLI_STR_OPT("record-file", 0, &record_file, "FILE",
                    "--mode record: load the recorded matrices from FILE, or record and save them there"),
        CLI_INT_OPT("eval-threads", 0, &eval_threads_i, "T", 0, 1024,
                    "--mode record: threads of the evaluation (default 0: every CPU)"),
        CLI_FLAG_OPT("check", 0, &check_i,
                     "--mode record: compare every A·z, B·z, C·z with the direct backend's (small sectors)"),
        CLI_FLAG_OPT("scalar-mix", 0, &mix_i,
                     "direct mode: after each partition, the share of aux values that are 0, 1 or other (all, A and "
                     "B density), the scalars of the l, a and b MSMs"),
        CLI_FLAG_OPT("no-prefault", 0, &no_prefault_i,
                     "direct mode: leave the arrays to grow and fault in as the synthesis writes them, instead of "
                     "reserving them and faulting them in on a second thread as the prover does"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "Synthesis of the PoRep C2 circuit alone, from a C1 output or (--sector-size) an all-zero\n"
                       "witness of the right shape; give exactly one of --c1 and --sector-size. With --kind snap,\n"
                       "the SnapDeals circuit of a synthetic sector of --sector-size (partitions one at a time).\n"
                       "PoRep --mode record records the circuit once (time, size in memory and on disk), then per\n"
                       "partition synthesizes the witness alone and evaluates A·z, B·z, C·z from the record\n"
                       "(partitions one at a time), the record prover's synthesis, to compare with --mode direct.\n",
                       table, 0, 0, NULL};
    int parsed = cli_parse(&c, argc, argv, NULL, NULL);
    if (parsed != CLI_CONTINUE)
        return parsed;
    long partition = partition_i, iters = iters_i, threads = threads_i;
    if (!c1_path == !size)
        return cli_usage_error(prog, "give exactly one of --c1 and --sector-size");
    if (kind_i == 1 && c1_path)
        return cli_usage_error(prog, "--kind snap takes --sector-size, not --c1");
    const char *mode = mode_names[mode_i];
    job_t j;
    memset(&j, 0, sizeof j);
    static const cuzk_cs_backend modes[] = {CUZK_CS_DIRECT, CUZK_CS_RECORD, CUZK_CS_WITNESS, CUZK_CS_COUNT};
    j.backend = modes[mode_i];
    j.scalar_mix = mix_i != 0;
    if (j.scalar_mix && j.backend != CUZK_CS_DIRECT)
        return cli_usage_error(prog, "--scalar-mix needs --mode direct");
    cuzk_err_t err = {{0}};
    if (cuzk_lc_strategy_parse(&j.lc, lc_name, &err) != CUZK_OK)
        return cli_usage_error(prog, "--lc: bad value '%s' (expects heap, inline1, inline2, inline4 or arena)", lc_name);
    cuzk_porep_c1_t *c1 = NULL;
    bench_snap_request_t snap;
    memset(&snap, 0, sizeof snap);
    uint32_t partitions = 0;
    const char *what;
    if (kind_i == 1) {
        uint64_t bytes = cli_parse_sector_size(size);
        char msg[256] = "expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB";
        if (!bytes || bench_snap_synthetic_request(&snap, bytes, threads_i, msg, sizeof msg) != 0) {
            fprintf(stderr, "cuzk-bench synth-only: --sector-size %s: %s\n", size, msg);
            return 2;
        }
        j.snap = &snap.req;
        j.snap_threads = threads_i;
        partitions = (uint32_t)snap.req.n_vanilla;
        what = size;
    } else if (c1_path) {
        if (cuzk_porep_c1_load(&c1, c1_path, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench synth-only: %s: %s\n", c1_path, err.msg);
            return 2;
        }
        cuzk_porep_c1_info_t info;
        cuzk_porep_c1_info(&info, c1);
        j.cfg = info.circuit;
        partitions = info.partitions;
        j.c1 = c1;
        what = info.proof.name;
    } else {
        uint64_t bytes = cli_parse_sector_size(size);
        if (!bytes || cuzk_porep_config_for_sector_size(&j.cfg, &partitions, bytes, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench synth-only: --sector-size %s: %s\n", size,
                    bytes ? err.msg : "expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
            return 2;
        }
        what = size;
    }
    if (partition >= (long)partitions) {
        fprintf(stderr, "cuzk-bench synth-only: --partition %ld: the sector has %u partitions\n", partition,
                partitions);
        cuzk_porep_c1_free(c1);
        bench_snap_request_free(&snap);
        return 2;
    }
    j.first = partition >= 0 ? (uint32_t)partition : 0;
    j.count = partition >= 0 ? 1 : partitions;
    if (threads > (long)j.count || j.snap)
        threads = j.snap ? 1 : j.count; /* snap: its threads are each partition's */

    printf("=== Synthesis Microbenchmark ===\n");
    printf("circuit: %s %s%s, partitions %u..%u, mode %s, lc %s, threads %ld\n", j.snap ? "SnapDeals" : "PoRep",
           what, j.snap ? " (synthetic sector)" : c1_path ? "" : " (all-zero witness)", j.first,
           j.first + j.count - 1, mode, cuzk_lc_strategy_name(j.lc), j.snap ? (long)j.snap_threads : threads);
    if (j.backend == CUZK_CS_RECORD && !j.snap) {
        int rc = record_bench(&j, iters, record_file, eval_threads_i, check_i != 0);
        cuzk_porep_c1_free(c1);
        return rc;
    }
    if (record_file || check_i)
        return cli_usage_error(prog, "--record-file and --check need --mode record (PoRep)");
    if (j.backend == CUZK_CS_DIRECT && !j.snap && !no_prefault_i) {
        /* counted once here, outside the timed region (the prover's key check counts it likewise) */
        if (cuzk_porep_circuit_shape(&j.shape, &j.cfg, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench synth-only: the circuit's shape: %s\n", err.msg);
            cuzk_porep_c1_free(c1);
            return 1;
        }
        j.prefault = true;
    }
    if (j.backend == CUZK_CS_DIRECT && !j.snap)
        printf("arrays: %s\n", j.prefault ? "reserved, faulted in on a second thread beside the synthesis"
                                           : "grown and faulted in as the synthesis writes them (--no-prefault)");
    int fd[N_HW];
    bool hw = hw_open(fd);
    double *wall = calloc((size_t)iters, sizeof *wall), *synth = calloc((size_t)iters, sizeof *synth);
    double *rate = calloc((size_t)iters, sizeof *rate);
    int rc = wall && synth && rate ? 0 : 1;
    for (long it = 0; it < iters && rc == 0; it++) {
        atomic_store(&j.next, 0);
        j.synth_ns = 0;
        j.constraints = 0;
        if (hw)
            for (int k = 0; k < N_HW; k++) {
                ioctl(fd[k], PERF_EVENT_IOC_RESET, 0);
                ioctl(fd[k], PERF_EVENT_IOC_ENABLE, 0);
            }
        uint64_t t0 = cli_now_ns();
        pthread_t tid[1024];
        long started = 0;
        for (; started < threads - 1; started++)
            if (pthread_create(&tid[started], NULL, worker, &j) != 0)
                break;
        worker(&j);
        for (long k = 0; k < started; k++)
            pthread_join(tid[k], NULL);
        double w = (double)(cli_now_ns() - t0) / 1e9;
        uint64_t counts[N_HW] = {0};
        if (hw)
            for (int k = 0; k < N_HW; k++) {
                ioctl(fd[k], PERF_EVENT_IOC_DISABLE, 0);
                if (read(fd[k], &counts[k], sizeof counts[k]) != sizeof counts[k])
                    counts[k] = 0;
            }
        if (j.failed) {
            rc = 1;
            break;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        wall[it] = w;
        synth[it] = (double)j.synth_ns / 1e9;
        rate[it] = (double)j.constraints / w;
        printf("[%ld] wall=%.4f synth=%.4f circuits=%u constraints=%" PRIu64 " constraints_per_s=%.0f "
               "peak_rss=%.3f\n",
               it, w, synth[it], j.count, (uint64_t)j.constraints, rate[it], (double)ru.ru_maxrss / (1 << 20));
        if (hw)
            printf("[%ld] instructions=%" PRIu64 " cycles=%" PRIu64 " cache_misses=%" PRIu64
                   " branch_misses=%" PRIu64 " ipc=%.2f\n",
                   it, counts[0], counts[1], counts[2], counts[3],
                   counts[1] ? (double)counts[0] / (double)counts[1] : 0.0);
        else
            printf("[%ld] instructions=unavailable cycles=unavailable cache_misses=unavailable "
                   "branch_misses=unavailable\n", it);
        fflush(stdout);
    }
    if (rc == 0) {
        summary("wall", wall, (int)iters);
        summary("synth", synth, (int)iters);
        summary("constraints_per_s", rate, (int)iters);
    }
    if (hw)
        for (int k = 0; k < N_HW; k++)
            close(fd[k]);
    free(wall);
    free(synth);
    free(rate);
    cuzk_porep_c1_free(c1);
    bench_snap_request_free(&snap);
    return rc;
}
