/* Synthetic PoSt vanilla proofs (post_synthetic.h): per sector the challenged leaves, a sparse tree R over
 * them, comm_c and comm_r, the paths opened from the tree and the bincode written; sectors in parallel,
 * each on one thread (a sector's tree has only its challenges' few dozen nodes per level). */
#include "testkit/post_synthetic.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/fr32.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/hash/sha256_tree.h"
#include "filecoin/vanilla/post_challenges.h"
#include "filecoin/vanilla/post_vproof_write.h"
#include "testkit/sparse_tree.h"
#include "util/parallel.h"

/* trim(sha256(seed_bytes ‖ "cuzk synthetic PoSt " ‖ what ‖ u64_le(a) ‖ u64_le(b))): a canonical Fr. */
static void derive(uint8_t out[32], const uint8_t seed_bytes[32], const char *what, uint64_t a, uint64_t b)
{
    static const char pfx[] = "cuzk synthetic PoSt ";
    uint8_t ab[16];
    for (int i = 0; i < 8; i++) {
        ab[i] = (uint8_t)(a >> (8 * i));
        ab[8 + i] = (uint8_t)(b >> (8 * i));
    }
    cuzk_fc_span_t s[4] = {{seed_bytes, 32}, {pfx, sizeof pfx - 1}, {what, strlen(what)}, {ab, sizeof ab}};
    cuzk_fc_sha256_trimmed(out, s, 4);
}

/* One sector's proof into *out. */
static cuzk_status one_sector(cuzk_fc_post_synthetic_t *out, const cuzk_fc_post_params_t *pp, uint64_t sector_id,
                              uint64_t sector_index, const uint8_t seed_bytes[32], cuzk_err_t *err)
{
    const uint32_t nc = pp->challenge_count;
    uint64_t *leaf = malloc(nc * sizeof *leaf);
    uint8_t(*value)[32] = malloc((size_t)nc * 32);
    cuzk_fc_merkle_path_t *paths = calloc(nc, sizeof *paths);
    uint8_t *sib = NULL, dflt[32];
    cuzk_fc_sparse_tree_t t;
    memset(&t, 0, sizeof t);
    cuzk_status st = CUZK_OK;
    if (!leaf || !value || !paths) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post synthetic: out of memory (sector %llu)",
                          (unsigned long long)sector_id);
        goto done;
    }
    for (uint32_t n = 0; n < nc; n++) {
        uint64_t ci = cuzk_fc_post_challenge_index(pp->api, sector_index, nc, n);
        leaf[n] = cuzk_fc_post_leaf_challenge(pp->randomness, sector_id, ci, pp->sector_size);
        derive(value[n], seed_bytes, "tree R leaf", sector_id, leaf[n]); /* a repeated leaf: the same value */
    }
    derive(dflt, seed_bytes, "tree R default leaf", 0, 0);
    st = cuzk_fc_sparse_tree_build(&t, CUZK_FC_MERKLE_POSEIDON, pp->base_arity, pp->sub_arity, pp->top_arity,
                                   pp->sector_size / 32, dflt, leaf, (const uint8_t(*)[32])value, nc, 1, err);
    if (st != CUZK_OK)
        goto done;
    size_t ns = cuzk_fc_sparse_tree_sibling_count(&t);
    if (!(sib = malloc((size_t)nc * ns * 32))) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "post synthetic: out of memory (sector %llu)",
                          (unsigned long long)sector_id);
        goto done;
    }
    for (uint32_t n = 0; n < nc && st == CUZK_OK; n++)
        st = cuzk_fc_sparse_tree_open(&t, leaf[n], &paths[n], sib + (size_t)n * ns * 32, err);
    if (st != CUZK_OK)
        goto done;
    cuzk_fc_post_sector_proof_t sp = {.n_paths = nc, .paths = paths};
    derive(sp.comm_c, seed_bytes, "comm_c", sector_id, 0);
    memcpy(sp.comm_r_last, t.root, 32);
    cuzk_fc_post_vproof_t v = {.sector_id = sector_id, .n_sectors = 1, .sectors = &sp};
    uint8_t two[64];
    memcpy(two, sp.comm_c, 32);
    memcpy(two + 32, t.root, 32);
    if ((st = cuzk_poseidon_node(v.comm_r, 2, two, err)) == CUZK_OK)
        st = cuzk_fc_post_vproof_encode(&out->data, &out->len, &v, err);
done:
    cuzk_fc_sparse_tree_free(&t);
    free(leaf);
    free(value);
    free(paths);
    free(sib);
    return st;
}

typedef struct {
    cuzk_fc_post_synthetic_t *out;
    const cuzk_fc_post_params_t *pp;
    const uint64_t *ids;
    const uint8_t *seed;
    _Atomic int failed;
    cuzk_status st;
    cuzk_err_t err;
} job_t;

static void sectors(void *ctx, size_t b, size_t e)
{
    job_t *j = ctx;
    for (size_t i = b; i < e && !atomic_load(&j->failed); i++) {
        cuzk_err_t err;
        cuzk_status st = one_sector(&j->out[i], j->pp, j->ids[i], j->pp->sector_index + i, j->seed, &err);
        if (st != CUZK_OK && !atomic_exchange(&j->failed, 1)) {
            j->st = st;
            j->err = err;
        }
    }
}

void cuzk_fc_post_synthetic_free(cuzk_fc_post_synthetic_t *out, size_t n)
{
    for (size_t i = 0; out && i < n; i++) {
        free(out[i].data);
        out[i].data = NULL;
        out[i].len = 0;
    }
}

cuzk_status cuzk_fc_post_synthetic(cuzk_fc_post_synthetic_t *out, const cuzk_fc_post_params_t *pp,
                                   const uint64_t *sector_ids, size_t n, const uint8_t seed_bytes[32], int threads,
                                   cuzk_err_t *err)
{
    if (!out || !pp || (n && !sector_ids) || !seed_bytes)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post synthetic: NULL argument");
    memset(out, 0, n * sizeof *out);
    if (pp->challenge_count == 0 || pp->sector_size < 32 || pp->sector_size % 32)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "post synthetic: %u challenges of a %llu-byte sector",
                            pp->challenge_count, (unsigned long long)pp->sector_size);
    if (!cuzk_fr32_is_canonical(pp->randomness))
        return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "post synthetic: the randomness is not a canonical Fr");
    job_t j = {.out = out, .pp = pp, .ids = sector_ids, .seed = seed_bytes};
    atomic_init(&j.failed, 0);
    cuzk_parallel_for(threads > 0 ? threads : cuzk_cpu_count(), n, 1, sectors, &j);
    if (atomic_load(&j.failed)) {
        cuzk_fc_post_synthetic_free(out, n);
        if (err)
            *err = j.err;
        return j.st;
    }
    return CUZK_OK;
}
