/* The public sealing calls (cuzk/seal.h): an opaque handle around the in-memory sealed sector, and commit
 * phase 1 straight to checked C1 JSON. */
#include "cuzk/seal.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/registry/registered_proof.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/vanilla/c1_json.h"

struct cuzk_sealed_sector {
    cuzk_fc_sealed_t s;
};

cuzk_status cuzk_seal_precommit(cuzk_sealed_sector_t **out, const cuzk_seal_request_t *req, cuzk_err_t *err)
{
    *out = NULL;
    const cuzk_fc_seal_proof_t *p;
    cuzk_status st = cuzk_fc_seal_proof_by_id(&p, req->proof_id, err);
    if (st != CUZK_OK)
        return st;
    size_t unpadded = (size_t)(p->sector_size / 128 * 127);
    if (req->data && req->data_len != unpadded)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "seal: %zu bytes of data, a %s sector holds %zu", req->data_len,
                            p->size_name, unpadded);
    if (req->threads < 0)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "seal: %d threads", req->threads);
    cuzk_sealed_sector_t *h = calloc(1, sizeof *h);
    if (!h)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "seal: out of memory");
    uint8_t prover_id[32];
    cuzk_fc_prover_id_from_miner(prover_id, req->miner_id);
    st = cuzk_fc_seal_precommit(&h->s, p, prover_id, req->sector_num, req->ticket, req->data, req->threads, err);
    if (st != CUZK_OK) {
        free(h);
        return st;
    }
    *out = h;
    return CUZK_OK;
}

void cuzk_seal_commitments(const cuzk_sealed_sector_t *s, uint8_t comm_d[32], uint8_t comm_r[32])
{
    memcpy(comm_d, s->s.comm_d, 32);
    memcpy(comm_r, s->s.comm_r, 32);
}

cuzk_status cuzk_seal_commit1(char **json, size_t *json_len, const cuzk_sealed_sector_t *s, const uint8_t seed[32],
                              cuzk_err_t *err)
{
    *json = NULL;
    *json_len = 0;
    cuzk_fc_c1_t c1;
    cuzk_status st = cuzk_fc_seal_commit1(&c1, &s->s, seed, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_fc_c1_verify(&c1, err);
    if (st == CUZK_OK)
        st = cuzk_fc_c1_json_write(json, json_len, &c1, err);
    cuzk_fc_c1_free(&c1);
    return st;
}

void cuzk_seal_free(cuzk_sealed_sector_t *s)
{
    if (!s)
        return;
    cuzk_fc_sealed_free(&s->s);
    free(s);
}
