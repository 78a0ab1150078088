/* Winning and Window PoSt jobs in the engine: one partition, proved from the request's vanilla proofs
 * (one bincode FallbackPoStSectorProof per sector), its randomness, miner id and partition index, all
 * through cuzk/post.h. Submission checks what needs no parsing (the registered proof and its kind,
 * sector size, randomness length, the number of vanilla proofs, Winning's partition index); activation
 * parses every vanilla proof, checks the request as the vanilla verifier does (paths, comm_r, challenged
 * leaves) and acquires the circuit's parameters; the partition is synthesized on the configured synthesis
 * threads, proved, and verified against the request's public inputs before it is returned. */
#include <stdlib.h>

#include "engine/engine_internal.h"

static cuzk_post_kind post_kind(cuzk_proof_kind k)
{
    return k == CUZK_KIND_WINNING_POST ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
}

static const char *kind_word(cuzk_post_kind k) { return k == CUZK_POST_WINNING ? "Winning" : "Window"; }

static cuzk_status post_check_request(const cuzk_job_request_t *r, cuzk_err_t *err)
{
    cuzk_post_kind want = post_kind(r->kind);
    cuzk_post_registered_proof_t p;
    if (cuzk_post_registered_proof(&p, r->registered_proof, NULL) != CUZK_OK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "registered_proof %llu is not a registered PoSt proof (Winning 0-4, Window 5-14)",
                            (unsigned long long)r->registered_proof);
    if (p.kind != want)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "registered_proof %u (%s) is a %s PoSt proof, not a %s one",
                            p.id, p.name, kind_word(p.kind), kind_word(want));
    if (r->sector_size && r->sector_size != p.sector_size)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector_size %llu is not %s's (%llu bytes)",
                            (unsigned long long)r->sector_size, p.name, (unsigned long long)p.sector_size);
    if (r->vanilla_proof_len)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "vanilla_proof is the PoRep C1; a PoSt sends one vanilla_proofs entry per sector");
    if (!r->randomness || r->randomness_len != 32)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "randomness is %zu bytes, not 32",
                            r->randomness ? r->randomness_len : 0);
    if (r->n_vanilla_proofs == 0 || r->n_vanilla_proofs > p.vanilla_sectors || !r->vanilla_proofs) {
        if (p.vanilla_sectors == 1)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%zu vanilla_proofs: %s takes exactly 1",
                                r->n_vanilla_proofs, p.name);
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "%zu vanilla_proofs: %s takes 1 to %u (one per sector)",
                            r->n_vanilla_proofs, p.name, p.vanilla_sectors);
    }
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (!r->vanilla_proofs[i].data || r->vanilla_proofs[i].len == 0)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "vanilla_proofs[%zu] is empty", i);
    if (want == CUZK_POST_WINNING && r->partition_index != 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "partition_index %u: a Winning PoSt has one partition (0)",
                            r->partition_index);
    return CUZK_OK;
}

static cuzk_status post_prepare(cuzk_engine_t *e, job_t *j, uint32_t *n_parts, cuzk_err_t *err)
{
    if (!(j->vanilla = calloc(j->n_inputs, sizeof *j->vanilla)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory for %zu vanilla proofs", j->n_inputs);
    size_t off = 0;
    for (size_t i = 0; i < j->n_inputs; i++) {
        cuzk_err_t sub = {{0}};
        cuzk_status st = cuzk_post_vanilla_parse(&j->vanilla[i], j->input + off, j->input_lens[i], &sub);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "vanilla_proofs[%zu]: %s", i, sub.msg);
        off += j->input_lens[i];
    }
    j->post.vanilla = (const cuzk_post_vanilla_t *const *)j->vanilla;
    j->post.n_vanilla = j->n_inputs;
    cuzk_status st = cuzk_post_check(&j->post, err);
    if (st != CUZK_OK)
        return st;
    cuzk_post_registered_proof_t p;
    st = cuzk_post_registered_proof(&p, j->post.proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_srs_circuit_t circuit;
    cuzk_srs_circuit_post(&circuit, &p);
    *n_parts = 1;
    return cuzk_engine_acquire_srs(e, j, &circuit, err);
}

static cuzk_status post_synthesize(void **part, cuzk_engine_t *e, job_t *j, uint32_t k, bool (*stop)(void *),
                                   void *stop_arg, cuzk_err_t *err)
{
    (void)k;
    cuzk_post_prove_opts_t so = {.threads = e->cfg.synthesis_threads, .should_stop = stop, .stop_arg = stop_arg};
    cuzk_post_partition_t *p = NULL;
    cuzk_status st = cuzk_post_partition_synthesize(&p, &j->post, &so, err);
    *part = p;
    return st;
}

static cuzk_status post_prove(cuzk_groth16_proof_t *proof, cuzk_engine_t *e, job_t *j, const void *part,
                              bool (*stop)(void *), void *stop_arg, cuzk_err_t *err)
{
    cuzk_post_prove_opts_t po = {.threads = e->cfg.prover_threads, .should_stop = stop, .stop_arg = stop_arg};
    return cuzk_post_partition_prove(proof, part, j->srs->pk, &po, err);
}

static void post_part_free(void *part) { cuzk_post_partition_free(part); }

static cuzk_status post_verify(bool *valid, job_t *j, const cuzk_groth16_proof_t *proofs, cuzk_err_t *err)
{
    return cuzk_post_verify(valid, &j->post, j->srs->vk, &proofs[0], err);
}

static void post_release(job_t *j)
{
    for (size_t i = 0; j->vanilla && i < j->n_inputs; i++)
        cuzk_post_vanilla_free(j->vanilla[i]);
    free(j->vanilla);
    j->vanilla = NULL;
    j->post.vanilla = NULL;
    j->post.n_vanilla = 0;
}

const job_kind_t cuzk_job_post = {post_check_request, post_prepare, post_synthesize, post_prove,
                                  post_part_free,     post_verify,  post_release, NULL};
