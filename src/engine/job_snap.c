/* SnapDeals (empty sector update) jobs in the engine: every partition of the update proof, proved from the
 * request's vanilla partition proofs (one bincode PartitionProof each, as Curio sends them) and its three
 * commitments, all through cuzk/snap.h. The whole request is checked at submission (decoded and checked as
 * cuzk_snap_check does: shapes, commitments, challenges, every path, the encoding), so that bad input is
 * refused with its reason before it is queued; activation decodes the same bytes again and acquires the
 * circuit's parameters; each partition is a partition of the pipeline (the memory budget of PoRep's), and
 * the assembled proofs are verified against the request's public inputs before they are returned. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"

/* The request's vanilla proofs decoded into v[0..n) (the caller frees them, also on error). */
static cuzk_status parse_all(cuzk_snap_vanilla_t **v, const cuzk_job_bytes_t *in, size_t n, cuzk_err_t *err)
{
    for (size_t k = 0; k < n; k++) {
        cuzk_err_t sub = {{0}};
        cuzk_status st = cuzk_snap_vanilla_parse(&v[k], in[k].data, in[k].len, &sub);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "vanilla_proofs[%zu]: %s", k, sub.msg);
    }
    return CUZK_OK;
}

static cuzk_status comm_field(const uint8_t *b, size_t len, const char *name, cuzk_err_t *err)
{
    if (!b || len != 32)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%s is %zu bytes, not 32", name, b ? len : 0);
    return CUZK_OK;
}

static cuzk_status snap_check_request(const cuzk_job_request_t *r, cuzk_err_t *err)
{
    cuzk_snap_registered_proof_t p;
    if (cuzk_snap_registered_proof(&p, r->registered_proof, NULL) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "registered_proof %llu is not a registered update proof (0-4: 2KiB, 8MiB, 512MiB, 32GiB, "
                            "64GiB)",
                            (unsigned long long)r->registered_proof);
    if (r->sector_size && r->sector_size != p.sector_size)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector_size %llu is not %s's (%llu bytes)",
                            (unsigned long long)r->sector_size, p.name, (unsigned long long)p.sector_size);
    if (r->vanilla_proof_len)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "vanilla_proof is the PoRep C1; a SnapDeals update sends one vanilla_proofs entry per "
                            "partition");
    if (r->randomness_len)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "randomness is a PoSt field; a SnapDeals update has none");
    cuzk_status st = comm_field(r->comm_r_old, r->comm_r_old_len, "comm_r_old", err);
    if (st == CUZK_OK)
        st = comm_field(r->comm_d_new, r->comm_d_new_len, "comm_d_new", err);
    if (st == CUZK_OK)
        st = comm_field(r->comm_r_new, r->comm_r_new_len, "comm_r_new", err);
    if (st != CUZK_OK)
        return st;
    if (r->n_vanilla_proofs != p.partitions || !r->vanilla_proofs)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%zu vanilla_proofs: %s takes %u (one per partition)",
                            r->n_vanilla_proofs, p.name, p.partitions);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (!r->vanilla_proofs[i].data || r->vanilla_proofs[i].len == 0)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "vanilla_proofs[%zu] is empty", i);
    /* the whole input, as the prover checks it: a bad proof is refused now, not failed later */
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS] = {0};
    st = parse_all(v, r->vanilla_proofs, r->n_vanilla_proofs, err);
    if (st == CUZK_OK) {
        cuzk_snap_request_t q = {.proof_id = p.id, .vanilla = (const cuzk_snap_vanilla_t *const *)v,
                                 .n_vanilla = r->n_vanilla_proofs};
        memcpy(q.comm_r_old, r->comm_r_old, 32);
        memcpy(q.comm_d_new, r->comm_d_new, 32);
        memcpy(q.comm_r_new, r->comm_r_new, 32);
        st = cuzk_snap_check(&q, err);
    }
    for (size_t k = 0; k < r->n_vanilla_proofs; k++)
        cuzk_snap_vanilla_free(v[k]);
    /* every failure but the machine's own is the request's */
    return st == CUZK_OK || st == CUZK_ERR_NO_MEMORY ? st : CUZK_ERR_INVALID_ARG;
}

static cuzk_status snap_prepare(cuzk_engine_t *e, job_t *j, uint32_t *n_parts, cuzk_err_t *err)
{
    if (!(j->snap_vanilla = calloc(j->n_inputs, sizeof *j->snap_vanilla)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for %zu vanilla proofs", j->n_inputs);
    size_t off = 0;
    for (size_t i = 0; i < j->n_inputs; i++) {
        cuzk_err_t sub = {{0}};
        cuzk_status st = cuzk_snap_vanilla_parse(&j->snap_vanilla[i], j->input + off, j->input_lens[i], &sub);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "vanilla_proofs[%zu]: %s", i, sub.msg);
        off += j->input_lens[i];
    }
    j->snap.vanilla = (const cuzk_snap_vanilla_t *const *)j->snap_vanilla;
    j->snap.n_vanilla = j->n_inputs;
    /* these bytes passed cuzk_snap_check at submission: not checked again */
    cuzk_snap_registered_proof_t p;
    cuzk_status st = cuzk_snap_registered_proof(&p, j->snap.proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_srs_circuit_t circuit;
    cuzk_srs_circuit_snap(&circuit, &p);
    *n_parts = p.partitions;
    return cuzk_engine_acquire_srs(e, j, &circuit, err);
}

static cuzk_status snap_synthesize(void **part, cuzk_engine_t *e, job_t *j, uint32_t k, bool (*stop)(void *),
                                   void *stop_arg, cuzk_err_t *err)
{
    cuzk_snap_prove_opts_t so = {
        .threads = e->cfg.synthesis_threads, .should_stop = stop, .stop_arg = stop_arg, .checked = true};
    cuzk_snap_partition_t *p = NULL;
    cuzk_status st = cuzk_snap_partition_synthesize(&p, &j->snap, k, &so, err);
    *part = p;
    return st;
}

static cuzk_status snap_prove(cuzk_groth16_proof_t *proof, cuzk_engine_t *e, job_t *j, const void *part,
                              bool (*stop)(void *), void *stop_arg, cuzk_err_t *err)
{
    cuzk_snap_prove_opts_t po = {.threads = e->cfg.prover_threads, .should_stop = stop, .stop_arg = stop_arg};
    return cuzk_snap_partition_prove(proof, part, j->srs->pk, &po, err);
}

static void snap_part_free(void *part) { cuzk_snap_partition_free(part); }

static cuzk_status snap_verify(bool *valid, job_t *j, const cuzk_groth16_proof_t *proofs, cuzk_err_t *err)
{
    return cuzk_snap_verify(valid, &j->snap, j->srs->vk, proofs, j->n_parts, err);
}

static void snap_release(job_t *j)
{
    for (size_t i = 0; j->snap_vanilla && i < j->n_inputs; i++)
        cuzk_snap_vanilla_free(j->snap_vanilla[i]);
    free(j->snap_vanilla);
    j->snap_vanilla = NULL;
    j->snap.vanilla = NULL;
    j->snap.n_vanilla = 0;
}

const job_kind_t cuzk_job_snap = {snap_check_request, snap_prepare, snap_synthesize, snap_prove,
                                  snap_part_free,     snap_verify,  snap_release, NULL};
