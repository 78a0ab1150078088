/* The prover's input from a zkey and a full circom witness, as snarkjs's buildABC1 forms it:
 * a = A·w and b = B·w row by row from the zkey's coefficients, c = a ∘ b (the C matrix is not
 * needed: for a satisfying witness it equals a ∘ b, and snarkjs proves exactly that). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "ff/fr.h"
#include "util/parallel.h"
#include "util/bigmem.h"

typedef struct {
    const cuzk_zkey_t *zk;
    const cuzk_fr_t *w;
    cuzk_fr_t *a, *b, *c;
} eval_job_t;

static void row_dot(cuzk_fr_t *out, const cuzk_csr_t *m, size_t k, const cuzk_fr_t *w)
{
    cuzk_fr_t acc = FR_ZERO, t;
    for (uint64_t j = m->row_start[k]; j < m->row_start[k + 1]; j++) {
        fr_mul(&t, &m->coeff[j], &w[m->col[j]]);
        fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

static void eval_rows(void *ctx, size_t begin, size_t end)
{
    eval_job_t *job = ctx;
    for (size_t k = begin; k < end; k++) {
        row_dot(&job->a[k], &job->zk->a, k, job->w);
        row_dot(&job->b[k], &job->zk->b, k, job->w);
        fr_mul(&job->c[k], &job->a[k], &job->b[k]);
    }
}

void cuzk_zkey_witness_free(cuzk_zkey_witness_t *w)
{
    if (!w)
        return;
    free(w->buf);
    memset(w, 0, sizeof *w);
}

cuzk_status cuzk_zkey_witness(cuzk_zkey_witness_t *out, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                              size_t n, int threads, cuzk_err_t *err)
{
    if (!out || !zk || (!wtns && n) || threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_zkey_witness: bad argument");
    if (n != zk->n_vars)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "witness has %zu values, the zkey's circuit has %u wires", n, zk->n_vars);
    if (!fr_eq(&wtns[0], &FR_ONE))
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "witness value 0 (the ONE wire) is not 1");
    size_t rows = zk->num_constraints;
    cuzk_fr_t *buf = cuzk_big_malloc(3 * rows * sizeof *buf);
    if (!buf)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for %zu constraint values", 3 * rows);
    eval_job_t job = {.zk = zk, .w = wtns, .a = buf, .b = buf + rows, .c = buf + 2 * rows};
    cuzk_parallel_for(threads ? threads : cuzk_cpu_count(), rows, 4096, eval_rows, &job);
    memset(out, 0, sizeof *out);
    out->buf = buf;
    cuzk_groth16_witness_t *w = &out->w;
    w->num_inputs = (size_t)zk->n_public + 1;
    w->num_aux = n - w->num_inputs;
    w->num_constraints = rows;
    w->a = job.a;
    w->b = job.b;
    w->c = job.c;
    w->input = wtns;
    w->aux = wtns + w->num_inputs;
    return CUZK_OK;
}
