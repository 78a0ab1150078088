/* The public sealing calls (cuzk/seal.h): an opaque handle around the in-memory sealed sector, commit
 * phase 1 straight to checked C1 JSON, the sector directory kept for PoSt and its vanilla proofs. */
#include "cuzk/seal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "filecoin/registry/post_proof.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/post_vanilla.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/sector_files.h"
#include "filecoin/vanilla/c1.h"
#include "filecoin/vanilla/c1_json.h"

struct cuzk_sealed_sector {
    cuzk_fc_sealed_t s;
    uint64_t miner_id;
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
    h->miner_id = req->miner_id;
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

/* ---- the sector directory ---- */

char *cuzk_fc_sector_abs_dir(const char *dir)
{
    char *r = realpath(dir, NULL);
    if (r)
        return r;
    char cwd[PATH_MAX];
    if (dir[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(dir);
    return cuzk_fc_sector_path(cwd, dir);
}

void cuzk_seal_sector_files_free(cuzk_seal_sector_files_t *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < CUZK_SEAL_SECTOR_FILES; i++)
        free(f->data[i]);
    memset(f, 0, sizeof *f);
}

cuzk_status cuzk_seal_sector_files(cuzk_seal_sector_files_t *out, const cuzk_sealed_sector_t *s, const char *dir,
                                   cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    char *abs = cuzk_fc_sector_abs_dir(dir);
    if (!abs)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "sector files: out of memory");
    cuzk_fc_sector_file_t f[CUZK_FC_SECTOR_FILES];
    cuzk_status st = cuzk_fc_sector_files(f, &s->s, s->miner_id, abs, 0, err);
    free(abs);
    if (st != CUZK_OK)
        return st;
    _Static_assert(CUZK_FC_SECTOR_FILES == CUZK_SEAL_SECTOR_FILES, "one list of sector files");
    out->n = CUZK_FC_SECTOR_FILES;
    for (size_t i = 0; i < out->n; i++) {
        out->names[i] = f[i].name;
        out->data[i] = f[i].data;
        out->lens[i] = f[i].len;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_sector_make_dirs(const char *dir, cuzk_err_t *err)
{
    if (!dir[0])
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "sector directory: empty path");
    char *p = strdup(dir);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", dir);
    cuzk_status st = CUZK_OK;
    for (char *c = p + 1;; c++) {
        if (*c != '/' && *c != 0)
            continue;
        char keep = *c;
        *c = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            st = cuzk_err_set(err, CUZK_ERR_IO, "%s: cannot create the directory: %s", p, strerror(errno));
            break;
        }
        *c = keep;
        if (!keep)
            break;
    }
    free(p);
    struct stat sb;
    if (st == CUZK_OK && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        st = cuzk_err_set(err, CUZK_ERR_IO, "%s: not a directory", dir);
    return st;
}

cuzk_status cuzk_seal_write_sector(const cuzk_sealed_sector_t *s, const char *dir, cuzk_err_t *err)
{
    cuzk_status st = cuzk_fc_sector_make_dirs(dir, err);
    if (st != CUZK_OK)
        return st;
    cuzk_seal_sector_files_t f;
    if ((st = cuzk_seal_sector_files(&f, s, dir, err)) != CUZK_OK)
        return st;
    char *paths[CUZK_SEAL_SECTOR_FILES] = {0};
    for (size_t i = 0; i < f.n && st == CUZK_OK; i++)
        if (!(paths[i] = cuzk_fc_sector_path(dir, f.names[i])))
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", dir);
    if (st == CUZK_OK)
        st = cuzk_atomic_write_files(f.n, (const char *const *)paths, (const void *const *)f.data, f.lens, err);
    for (size_t i = 0; i < CUZK_SEAL_SECTOR_FILES; i++)
        free(paths[i]);
    cuzk_seal_sector_files_free(&f);
    return st;
}

cuzk_status cuzk_seal_sector_info(cuzk_seal_sector_info_t *out, const char *dir, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    cuzk_fc_sector_meta_t m;
    cuzk_status st = cuzk_fc_sector_meta_read(&m, dir, err);
    if (st != CUZK_OK)
        return st;
    out->seal_proof_id = m.proof->id;
    out->sector_size = m.proof->sector_size;
    out->miner_id = m.miner_id;
    out->sector_num = m.sector_num;
    memcpy(out->ticket, m.ticket, 32);
    memcpy(out->comm_d, m.comm_d, 32);
    memcpy(out->comm_r, m.comm_r, 32);
    memcpy(out->comm_c, m.comm_c, 32);
    memcpy(out->comm_r_last, m.comm_r_last, 32);
    return CUZK_OK;
}

/* ---- PoSt vanilla proofs ---- */

cuzk_status cuzk_seal_post_vanilla(uint8_t **out, size_t *out_len, const char *dir, uint64_t post_proof_id,
                                   const uint8_t randomness[32], uint64_t sector_index, cuzk_err_t *err)
{
    *out = NULL;
    *out_len = 0;
    const cuzk_fc_post_proof_t *p;
    cuzk_status st = cuzk_fc_post_proof_by_id(&p, post_proof_id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fc_post_params_t pp;
    cuzk_fc_post_params_of_proof(&pp, p, sector_index, randomness);
    return cuzk_fc_post_vanilla_from_dir(out, out_len, dir, &pp, err);
}
