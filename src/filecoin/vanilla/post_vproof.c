/* Decoder and pre-synthesis checks of bincode FallbackPoStSectorProof (filecoin-proofs types/post.rs,
 * storage-proofs-post fallback/vanilla.rs). Two passes over the bytes: the first validates and counts, so
 * that one allocation of exactly the right size holds everything and no length field from the input can
 * ask for more memory than the input itself justifies. */
#include "filecoin/vanilla/post_vproof.h"
#include <stdlib.h>
#include <string.h>
#include "filecoin/vanilla/merkle_bincode.h"
#include "filecoin/vanilla/post_challenges.h"
#include "filecoin/hash/poseidon.h"

typedef struct {
    cuzk_fc_bincode_reader_t b;
    /* Second pass only: where the next sector, path and sibling go. */
    cuzk_fc_post_sector_proof_t *sector;
    cuzk_fc_merkle_path_t *path;
    uint8_t *sib;
    /* First pass: totals. */
    size_t n_sectors, n_paths, n_sib;
} reader;

static cuzk_status u64_le(reader *r, uint64_t *v, const char *what)
{
    return cuzk_fc_bincode_u64(&r->b, v, what);
}

static cuzk_status domain(reader *r, uint8_t *out, const char *what)
{
    return cuzk_fc_bincode_domain(&r->b, out, what);
}

static cuzk_status merkle_proof(reader *r)
{
    cuzk_status st = cuzk_fc_bincode_merkle_proof(&r->b, CUZK_FC_MERKLE_POSEIDON, r->path, &r->sib, &r->n_sib);
    if (st != CUZK_OK)
        return st;
    if (r->path)
        r->path++;
    else
        r->n_paths++;
    return CUZK_OK;
}

static cuzk_status parse(reader *r, cuzk_fc_post_vproof_t *out)
{
    uint64_t sector_id, n_sectors;
    cuzk_status st;
    if ((st = u64_le(r, &sector_id, "sector_id")) != CUZK_OK || (st = domain(r, out->comm_r, "comm_r")) != CUZK_OK ||
        (st = u64_le(r, &n_sectors, "the sector proof count")) != CUZK_OK)
        return st;
    out->sector_id = sector_id;
    /* Every iteration below consumes bytes, so the loops end at the input's end whatever the counts say. */
    for (uint64_t s = 0; s < n_sectors; s++) {
        cuzk_fc_post_sector_proof_t tmp, *sp = r->sector ? r->sector : &tmp;
        uint64_t n_paths;
        if ((st = u64_le(r, &n_paths, "an inclusion proof count")) != CUZK_OK)
            return st;
        sp->paths = r->path;
        for (uint64_t i = 0; i < n_paths; i++) {
            if ((st = merkle_proof(r)) != CUZK_OK) {
                if (!r->b.err)
                    return st;
                char msg[sizeof r->b.err->msg];
                memcpy(msg, r->b.err->msg, sizeof msg);
                return cuzk_err_set(r->b.err, st, "%s (sector proof %llu, inclusion proof %llu)", msg,
                                    (unsigned long long)s, (unsigned long long)i);
            }
        }
        sp->n_paths = (size_t)n_paths;
        if ((st = domain(r, sp->comm_c, "comm_c")) != CUZK_OK ||
            (st = domain(r, sp->comm_r_last, "comm_r_last")) != CUZK_OK)
            return st;
        if (r->sector)
            r->sector++;
        else
            r->n_sectors++;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_post_vproof_decode(cuzk_fc_post_vproof_t *out, const uint8_t *buf, size_t len,
                                       size_t *consumed, cuzk_err_t *err)
{
    if (!out || (!buf && len))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof: NULL argument");
    memset(out, 0, sizeof *out);
    reader r = {.b = {.buf = buf, .len = len, .who = "post vproof", .err = err}};
    cuzk_status st = parse(&r, out);
    if (st != CUZK_OK)
        goto fail;
    if (!consumed && r.b.pos != len) {
        st = cuzk_err_set(err, CUZK_ERR_FORMAT,
                          "post vproof: %zu trailing bytes after the proof (ends at byte %zu of %zu)", len - r.b.pos,
                          r.b.pos, len);
        goto fail;
    }
    /* The counts are bounded by len (each item takes bytes), so these products cannot overflow. */
    size_t sz = r.n_sectors * sizeof(cuzk_fc_post_sector_proof_t) + r.n_paths * sizeof(cuzk_fc_merkle_path_t) +
                r.n_sib * 32;
    uint8_t *mem = sz ? malloc(sz) : NULL;
    if (sz && !mem) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post vproof: %zu bytes for the decoded proof", sz);
        goto fail;
    }
    reader w = {.b = {.buf = buf, .len = r.b.pos, .who = "post vproof", .err = err}};
    if (mem) {
        w.sector = (cuzk_fc_post_sector_proof_t *)mem;
        w.path = (cuzk_fc_merkle_path_t *)(mem + r.n_sectors * sizeof(cuzk_fc_post_sector_proof_t));
        w.sib = (uint8_t *)(w.path + r.n_paths);
    }
    /* The first pass found these bytes valid: the second cannot fail. */
    st = parse(&w, out);
    if (st != CUZK_OK) {
        free(mem);
        goto fail;
    }
    out->storage = mem;
    out->sectors = (cuzk_fc_post_sector_proof_t *)mem;
    out->n_sectors = r.n_sectors;
    if (consumed)
        *consumed = r.b.pos;
    return CUZK_OK;
fail:
    memset(out, 0, sizeof *out);
    return st;
}

void cuzk_fc_post_vproof_free(cuzk_fc_post_vproof_t *v)
{
    if (!v)
        return;
    free(v->storage);
    memset(v, 0, sizeof *v);
}

void cuzk_fc_post_params_of_proof(cuzk_fc_post_params_t *pp, const cuzk_fc_post_proof_t *p, uint64_t sector_index,
                                  const uint8_t randomness[32])
{
    *pp = (cuzk_fc_post_params_t){.sector_size = p->sector_size,
                                  .base_arity = p->base_arity,
                                  .sub_arity = p->sub_arity,
                                  .top_arity = p->top_arity,
                                  .challenge_count = p->vanilla_challenges,
                                  .api = p->api,
                                  .sector_index = sector_index};
    memcpy(pp->randomness, randomness, 32);
}

cuzk_status cuzk_fc_post_vproof_verify(const cuzk_fc_post_vproof_t *v, const cuzk_fc_post_params_t *pp,
                                       cuzk_err_t *err)
{
    if (!v || !pp)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof verify: NULL argument");
    if (pp->sector_size < 32 || pp->sector_size % 32)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post vproof verify: sector size %llu",
                            (unsigned long long)pp->sector_size);
    if (v->n_sectors != 1)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "post vproof of sector %llu: %zu sector proofs, one expected",
                            (unsigned long long)v->sector_id, v->n_sectors);
    const cuzk_fc_post_sector_proof_t *sp = &v->sectors[0];
    uint64_t sid = v->sector_id;
    if (sp->n_paths != pp->challenge_count)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "post vproof of sector %llu: %zu inclusion proofs, %u challenges",
                            (unsigned long long)sid, sp->n_paths, pp->challenge_count);
    cuzk_err_t e;
    uint8_t pair[64], h[32];
    memcpy(pair, sp->comm_c, 32);
    memcpy(pair + 32, sp->comm_r_last, 32);
    cuzk_status st = cuzk_poseidon_node(h, 2, pair, &e);
    if (st != CUZK_OK)
        return cuzk_err_set(err, st, "post vproof of sector %llu: comm_c / comm_r_last: %s", (unsigned long long)sid,
                            e.msg);
    if (memcmp(h, v->comm_r, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "post vproof of sector %llu: Poseidon(comm_c, comm_r_last) != comm_r",
                            (unsigned long long)sid);
    uint64_t leaves = pp->sector_size / 32;
    for (size_t n = 0; n < sp->n_paths; n++) {
        const cuzk_fc_merkle_path_t *p = &sp->paths[n];
        if (memcmp(p->root, sp->comm_r_last, 32) != 0)
            return cuzk_err_set(err, CUZK_ERR_MISMATCH, "post vproof of sector %llu, path %zu: root is not comm_r_last",
                                (unsigned long long)sid, n);
        if ((st = cuzk_fc_merkle_path_check_shape(p, pp->base_arity, pp->sub_arity, pp->top_arity, leaves, &e)) !=
                CUZK_OK ||
            (st = cuzk_fc_merkle_verify(p, &e)) != CUZK_OK)
            return cuzk_err_set(err, st, "post vproof of sector %llu, path %zu: %s", (unsigned long long)sid, n, e.msg);
        uint64_t got, ci = cuzk_fc_post_challenge_index(pp->api, pp->sector_index, pp->challenge_count, n);
        uint64_t want = cuzk_fc_post_leaf_challenge(pp->randomness, sid, ci, pp->sector_size);
        if ((st = cuzk_fc_merkle_leaf_index(&got, p, &e)) != CUZK_OK)
            return cuzk_err_set(err, st, "post vproof of sector %llu, path %zu: %s", (unsigned long long)sid, n, e.msg);
        if (got != want)
            return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                                "post vproof of sector %llu, path %zu: opens leaf %llu, challenge %llu is leaf %llu",
                                (unsigned long long)sid, n, (unsigned long long)got, (unsigned long long)ci,
                                (unsigned long long)want);
    }
    return CUZK_OK;
}
