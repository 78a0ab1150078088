/* A PoSt proof request (cuzk/post.h): what its registered proof fixes, the checks a prover makes before
 * synthesis (storage-proofs-post fallback vanilla.rs verify, through vanilla/post_vproof.h), the partition's
 * public inputs (compound.rs generate_public_inputs) and its circuit witness (compound.rs circuit, with
 * filecoin-proofs post_util.rs single_partition_vanilla_proofs' shaping: a Winning sector's 66 paths become
 * 66 one-challenge circuit sectors; a Window partition short of sectors repeats its last one). */
#include "filecoin/post/post_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/registry/post_proof.h"
#include "filecoin/vanilla/post_challenges.h"
#include "util/parallel.h"

size_t cuzk_post_inputs_count(const cuzk_post_inputs_shape_t *shape)
{
    return (size_t)shape->sector_count * (1 + (size_t)shape->challenge_count);
}

cuzk_status cuzk_post_inputs_derive(cuzk_fr_t *out, size_t out_len, const cuzk_post_inputs_shape_t *shape,
                                    const uint64_t *sector_ids, const uint8_t (*comm_r)[32], size_t n,
                                    const uint8_t randomness[32], uint32_t partition, cuzk_err_t *err)
{
    if (!out || !shape || !sector_ids || !comm_r || !randomness)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post inputs: NULL argument");
    if (n == 0 || n > shape->sector_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post inputs: %zu sectors, a partition holds 1 to %u", n,
                            shape->sector_count);
    size_t per = 1 + (size_t)shape->challenge_count, need = cuzk_post_inputs_count(shape);
    if (out_len < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "post inputs: room for %zu public inputs, %zu needed", out_len,
                            need);
    fr check;
    if (!fr_from_bytes_le(&check, randomness))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "post: the randomness is not a canonical field element");
    for (size_t i = 0; i < n; i++) {
        fr *row = &out[i * per];
        if (!fr_from_bytes_le(&row[0], comm_r[i]))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                                "post: sector %zu (id %llu): comm_r is not a field element", i,
                                (unsigned long long)sector_ids[i]);
        uint64_t sector_index = (uint64_t)partition * shape->sector_count + i;
        for (uint32_t c = 0; c < shape->challenge_count; c++) {
            uint64_t ci = cuzk_fc_post_challenge_index(shape->api, sector_index, shape->challenge_count, c);
            fr_from_u64(&row[1 + c], cuzk_fc_post_leaf_challenge(randomness, sector_ids[i], ci, shape->sector_size));
        }
    }
    /* the circuit's remaining sectors are the last one again, inputs and all */
    for (size_t i = n; i < shape->sector_count; i++)
        memcpy(&out[i * per], &out[(n - 1) * per], per * sizeof *out);
    return CUZK_OK;
}

cuzk_status cuzk_post_request_plan(cuzk_post_plan_t *plan, const cuzk_post_request_t *req, cuzk_err_t *err)
{
    memset(plan, 0, sizeof *plan);
    const cuzk_fc_post_proof_t *fp;
    cuzk_status st = cuzk_fc_post_proof_by_id(&fp, req->proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_post_registered_proof(&plan->proof, req->proof_id, err);
    if (st == CUZK_OK)
        st = cuzk_post_config_for_proof(&plan->cfg, req->proof_id, err);
    if (st != CUZK_OK)
        return st;
    const cuzk_post_registered_proof_t *p = &plan->proof;
    plan->shape = (cuzk_post_inputs_shape_t){.sector_size = p->sector_size,
                                             .sector_count = plan->cfg.sector_count,
                                             .challenge_count = plan->cfg.challenge_count,
                                             .api = fp->api};
    if (p->kind == CUZK_POST_WINNING) {
        if (req->n_vanilla != 1)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                                "post: %s proves exactly one sector, %zu vanilla proofs given", p->name,
                                req->n_vanilla);
        if (req->partition_index != 0)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post: %s has one partition, partition index %u given",
                                p->name, req->partition_index);
    } else if (req->n_vanilla == 0 || req->n_vanilla > p->vanilla_sectors) {
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "post: %s proves 1 to %u sectors per partition, %zu vanilla proofs given", p->name,
                            p->vanilla_sectors, req->n_vanilla);
    }
    if (!req->vanilla)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post: no vanilla proofs (NULL)");
    for (size_t k = 0; k < req->n_vanilla; k++)
        if (!req->vanilla[k])
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post: vanilla proof %zu is NULL", k);
    fr r;
    if (!fr_from_bytes_le(&r, req->randomness))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "post: the randomness is not a canonical field element");
    return CUZK_OK;
}

/* ---- checks ---------------------------------------------------------------------------------------- */

/* The vanilla verifier's message ("post vproof of sector <id>, path <n>: ...") prefixed with the vanilla
 * proof's position, the sector named once. */
static cuzk_status at_vanilla(cuzk_err_t *err, cuzk_status st, size_t k, size_t n, uint64_t sector_id,
                              const cuzk_err_t *inner)
{
    char own[64];
    snprintf(own, sizeof own, "post vproof of sector %llu", (unsigned long long)sector_id);
    const char *rest = inner->msg;
    size_t m = strlen(own);
    if (strncmp(rest, own, m) == 0 && (rest[m] == ',' || rest[m] == ':') && rest[m + 1] == ' ')
        return cuzk_err_set(err, st, "post: vanilla %zu of %zu (sector %llu)%c %s", k, n, (unsigned long long)sector_id,
                            rest[m], rest + m + 2);
    return cuzk_err_set(err, st, "post: vanilla %zu of %zu (sector %llu): %s", k, n, (unsigned long long)sector_id,
                        rest);
}

/* Vanilla k's shape against the circuit: one sector proof, one path per challenge, every path of tree R's
 * shape and size. CUZK_ERR_MISMATCH naming the sector and the path. */
static cuzk_status vanilla_shape(const cuzk_post_plan_t *p, const cuzk_fc_post_vproof_t *v, size_t k, size_t n,
                                 cuzk_err_t *err)
{
    unsigned long long sid = (unsigned long long)v->sector_id;
    if (v->n_sectors != 1)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "post: vanilla %zu of %zu (sector %llu): %zu sector proofs, one expected", k, n, sid,
                            v->n_sectors);
    const cuzk_fc_post_sector_proof_t *sp = &v->sectors[0];
    if (sp->n_paths != p->proof.vanilla_challenges)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "post: vanilla %zu of %zu (sector %llu): %zu inclusion paths, %s challenges %u per sector",
                            k, n, sid, sp->n_paths, p->proof.name, p->proof.vanilla_challenges);
    const cuzk_post_config_t *c = &p->cfg;
    for (size_t i = 0; i < sp->n_paths; i++) {
        cuzk_err_t e;
        cuzk_status st =
            cuzk_fc_merkle_path_check_shape(&sp->paths[i], c->base_arity, c->sub_arity, c->top_arity, c->nodes, &e);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "post: vanilla %zu of %zu (sector %llu), path %zu: %s", k, n, sid, i, e.msg);
    }
    return CUZK_OK;
}

/* Vanilla k of the request, checked in full. */
static cuzk_status check_one(const cuzk_post_plan_t *p, const cuzk_post_request_t *req, size_t k, cuzk_err_t *err)
{
    const cuzk_fc_post_vproof_t *v = &req->vanilla[k]->v;
    cuzk_status st = vanilla_shape(p, v, k, req->n_vanilla, err);
    if (st != CUZK_OK)
        return st;
    /* the challenges a vanilla proof answers (filecoin-proofs post_util.rs generate_fallback_sector_challenges):
     * a Winning sector is sector 0 of 66 challenges, a Window sector its place among the deadline's */
    const cuzk_fc_post_proof_t *proof;
    st = cuzk_fc_post_proof_by_id(&proof, p->proof.id, err); /* known: the plan was made from it */
    if (st != CUZK_OK)
        return st;
    cuzk_fc_post_params_t pp;
    cuzk_fc_post_params_of_proof(&pp, proof, p->proof.kind == CUZK_POST_WINNING
                                                 ? 0
                                                 : (uint64_t)req->partition_index * p->cfg.sector_count + k,
                                 req->randomness);
    cuzk_err_t e;
    st = cuzk_fc_post_vproof_verify(v, &pp, &e);
    return st == CUZK_OK ? CUZK_OK : at_vanilla(err, st, k, req->n_vanilla, v->sector_id, &e);
}

/* Sectors a checking thread takes at a time. */
#define CHECK_GRAIN 16

typedef struct {
    const cuzk_post_plan_t *plan;
    const cuzk_post_request_t *req;
    cuzk_status *st;
    cuzk_err_t *errs;
} check_ctx;

static void check_range(void *arg, size_t begin, size_t end)
{
    check_ctx *c = arg;
    for (size_t k = begin; k < end; k++)
        c->st[k] = check_one(c->plan, c->req, k, &c->errs[k]);
}

cuzk_status cuzk_post_check_threads(const cuzk_post_request_t *req, int threads, cuzk_err_t *err)
{
    cuzk_post_plan_t plan;
    cuzk_status st = cuzk_post_request_plan(&plan, req, err);
    if (st != CUZK_OK)
        return st;
    size_t n = req->n_vanilla;
    if (threads <= 0)
        threads = cuzk_cpu_count();
    /* one thread, or one grain (which cuzk_parallel_for would run on this thread alone): in order, up to the
     * first bad sector */
    if (threads <= 1 || n <= CHECK_GRAIN) {
        for (size_t k = 0; k < n && st == CUZK_OK; k++)
            st = check_one(&plan, req, k, err);
        return st;
    }
    check_ctx c = {&plan, req, malloc(n * sizeof *c.st), malloc(n * sizeof *c.errs)};
    if (!c.st || !c.errs) {
        free(c.st);
        free(c.errs);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post check: out of memory");
    }
    cuzk_parallel_for(threads, n, CHECK_GRAIN, check_range, &c);
    for (size_t k = 0; k < n && st == CUZK_OK; k++)
        if ((st = c.st[k]) != CUZK_OK && err)
            *err = c.errs[k];
    free(c.st);
    free(c.errs);
    return st;
}

cuzk_status cuzk_post_check(const cuzk_post_request_t *req, cuzk_err_t *err)
{
    return cuzk_post_check_threads(req, 0, err);
}

/* ---- public inputs ---------------------------------------------------------------------------------- */

cuzk_status cuzk_post_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out, const cuzk_post_request_t *req,
                                    cuzk_err_t *err)
{
    cuzk_post_plan_t plan;
    cuzk_status st = cuzk_post_request_plan(&plan, req, err);
    if (st != CUZK_OK)
        return st;
    size_t need = cuzk_post_inputs_count(&plan.shape);
    if (out_len < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "post: room for %zu public inputs, %s has %zu", out_len,
                            plan.proof.name, need);
    /* the verifier's public sectors: a Winning sector once per circuit sector (winning_post.rs
     * verify_winning_post), a Window partition's sectors as given */
    size_t n = plan.proof.kind == CUZK_POST_WINNING ? plan.cfg.sector_count : req->n_vanilla;
    uint64_t *ids = malloc(n * sizeof *ids);
    uint8_t(*comm_r)[32] = malloc(n * sizeof *comm_r);
    fr *tmp = malloc(need * sizeof *tmp);
    if (!ids || !comm_r || !tmp) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post: out of memory (public inputs)");
    } else {
        for (size_t i = 0; i < n; i++) {
            const cuzk_fc_post_vproof_t *v = &req->vanilla[i < req->n_vanilla ? i : 0]->v;
            ids[i] = v->sector_id;
            memcpy(comm_r[i], v->comm_r, 32);
        }
        st = cuzk_post_inputs_derive(tmp, need, &plan.shape, ids, (const uint8_t(*)[32])comm_r, n, req->randomness,
                                     req->partition_index, err);
    }
    if (st == CUZK_OK) {
        for (size_t i = 0; i < need; i++)
            fr_to_scalar(&out[i], &tmp[i]);
        if (n_out)
            *n_out = need;
    }
    free(ids);
    free(comm_r);
    free(tmp);
    return st;
}

/* ---- witness ---------------------------------------------------------------------------------------- */

static cuzk_status to_fr(cuzk_fr_t *out, const uint8_t b[32], size_t k, const cuzk_fc_post_vproof_t *v, size_t path,
                         const char *what, cuzk_err_t *err)
{
    if (fr_from_bytes_le(out, b))
        return CUZK_OK;
    if (path == SIZE_MAX)
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "post: vanilla %zu (sector %llu): %s is not a field element",
                            k, (unsigned long long)v->sector_id, what);
    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                        "post: vanilla %zu (sector %llu), path %zu: %s is not a field element", k,
                        (unsigned long long)v->sector_id, path, what);
}

/* Path i of vanilla k (shape checked) into a circuit path. */
static cuzk_status fill_path(cuzk_porep_path_t *dst, const cuzk_fc_post_vproof_t *v, size_t k, size_t i,
                             cuzk_err_t *err)
{
    const cuzk_fc_post_sector_proof_t *sp = &v->sectors[0];
    const cuzk_fc_merkle_path_t *src = &sp->paths[i];
    uint32_t levels = cuzk_fc_merkle_levels(src);
    size_t s = 0;
    for (uint32_t l = 0; l < levels; l++) {
        dst->positions[l] = src->steps[l].index;
        for (unsigned j = 0; j + 1 < src->steps[l].arity; j++, s++)
            if (to_fr(&dst->siblings[s], src->siblings + 32 * s, k, v, i, "a sibling", err) != CUZK_OK)
                return CUZK_ERR_NOT_CANONICAL;
    }
    if (to_fr(&dst->leaf, src->leaf, k, v, i, "the leaf", err) != CUZK_OK ||
        to_fr(&dst->root, sp->comm_r_last, k, v, SIZE_MAX, "comm_r_last", err) != CUZK_OK)
        return CUZK_ERR_NOT_CANONICAL;
    dst->has_values = true;
    return CUZK_OK;
}

static cuzk_status fill(cuzk_post_witness_t *w, const cuzk_post_plan_t *p, const cuzk_post_request_t *req,
                        cuzk_err_t *err)
{
    bool winning = p->proof.kind == CUZK_POST_WINNING;
    for (uint32_t i = 0; i < p->cfg.sector_count; i++) {
        /* Winning: circuit sector i is the one sector's path i; Window: sector i, or the last one again */
        size_t k = winning ? 0 : (i < req->n_vanilla ? i : req->n_vanilla - 1);
        const cuzk_fc_post_vproof_t *v = &req->vanilla[k]->v;
        const cuzk_fc_post_sector_proof_t *sp = &v->sectors[0];
        cuzk_post_sector_witness_t *s = &w->sectors[i];
        if (to_fr(&s->comm_r, v->comm_r, k, v, SIZE_MAX, "comm_r", err) != CUZK_OK ||
            to_fr(&s->comm_c, sp->comm_c, k, v, SIZE_MAX, "comm_c", err) != CUZK_OK ||
            to_fr(&s->comm_r_last, sp->comm_r_last, k, v, SIZE_MAX, "comm_r_last", err) != CUZK_OK)
            return CUZK_ERR_NOT_CANONICAL;
        s->has_comms = true;
        for (uint32_t c = 0; c < p->cfg.challenge_count; c++) {
            cuzk_status st = fill_path(&s->paths[c], v, k, winning ? i : c, err);
            if (st != CUZK_OK)
                return st;
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_post_request_witness(cuzk_post_witness_t *w, const cuzk_post_request_t *req, cuzk_err_t *err)
{
    memset(w, 0, sizeof *w);
    cuzk_post_plan_t plan;
    cuzk_status st = cuzk_post_request_plan(&plan, req, err);
    for (size_t k = 0; st == CUZK_OK && k < req->n_vanilla; k++)
        st = vanilla_shape(&plan, &req->vanilla[k]->v, k, req->n_vanilla, err);
    if (st != CUZK_OK)
        return st;
    /* each circuit sector takes a path per challenge from the vanilla proofs: the registry's shapes agree */
    bool winning = plan.proof.kind == CUZK_POST_WINNING;
    if (winning ? plan.cfg.sector_count != plan.proof.vanilla_challenges || plan.cfg.challenge_count != 1
                : plan.cfg.challenge_count != plan.proof.vanilla_challenges)
        return cuzk_err_set(
            err, CUZK_ERR_INVALID_ARG,
            "post: %s: a circuit of %u sectors of %u challenges does not follow from its vanilla proofs",
            plan.proof.name, plan.cfg.sector_count, plan.cfg.challenge_count);
    st = cuzk_post_witness_init(w, &plan.cfg, err);
    if (st == CUZK_OK)
        st = fill(w, &plan, req, err);
    if (st != CUZK_OK)
        cuzk_post_witness_free(w);
    return st;
}
