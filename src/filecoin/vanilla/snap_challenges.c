/* SnapDeals challenges, phi and rho (storage-proofs-update challenges.rs, vanilla.rs): every value is a
 * Poseidon2 hash with the custom gen-randomness domain tag 2^40. A partition's challenges are h-bit-free
 * node indexes: each digest H(comm_r_new, digest index) gives per_digest groups of random_bits bits (least
 * significant first), and the partition index fills the bits above them. */
#include "filecoin/vanilla/snap_challenges.h"
#include <stdlib.h>
#include <string.h>
#include "filecoin/hash/poseidon.h"
#include "filecoin/registry/snap_proof.h"

#define FR_CAPACITY 254 /* Fr::CAPACITY: the bits every digest is sure to have at random */

static const cuzk_poseidon_constants_t *constants(fr *tag)
{
    /* Custom(Arbitrary(1)): 1·2^40 */
    uint64_t l[4] = {1ull << 40, 0, 0, 0};
    fr_to_mont(tag, l);
    return cuzk_poseidon_constants(2);
}

void cuzk_fc_snap_hash2(fr *out, const fr *a, const fr *b)
{
    fr tag, in[2] = {*a, *b};
    const cuzk_poseidon_constants_t *c = constants(&tag);
    if (!c) { /* no memory for the arity-2 constants (a few kilobytes): nothing sensible to hash with */
        *out = FR_ZERO;
        return;
    }
    cuzk_poseidon_hash_with(out, c, &tag, in);
}

cuzk_status cuzk_fc_snap_rhos(fr *out, const fr *phi, uint64_t first_high, size_t n, bool invert, cuzk_err_t *err)
{
    fr tag;
    const cuzk_poseidon_constants_t *c = constants(&tag);
    enum { CHUNK = 256 };
    fr *in = malloc(sizeof(fr) * 2 * (n < CHUNK ? n : CHUNK) + 1);
    if (!c || !in) {
        free(in);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap rho: out of memory for %zu values", n);
    }
    for (size_t done = 0; done < n; done += CHUNK) {
        size_t m = n - done < CHUNK ? n - done : CHUNK;
        for (size_t i = 0; i < m; i++) {
            in[2 * i] = *phi;
            fr_from_u64(&in[2 * i + 1], first_high + done + i);
        }
        cuzk_poseidon_hash_batch(out + done, c, &tag, in, m);
    }
    free(in);
    if (invert) {
        fr *tmp = malloc(sizeof(fr) * n + 1);
        if (!tmp)
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "snap rho: out of memory for %zu inverses", n);
        memcpy(tmp, out, sizeof(fr) * n);
        fr_batch_inv(out, tmp, n);
        free(tmp);
    }
    return CUZK_OK;
}

void cuzk_fc_snap_challenge_shape(cuzk_fc_snap_challenge_shape_t *out, const cuzk_snap_config_t *cfg)
{
    uint32_t bits = cuzk_fc_snap_log2(cfg->nodes) - cuzk_fc_snap_partition_bits(cfg);
    uint32_t per = bits ? FR_CAPACITY / bits : 0;
    *out = (cuzk_fc_snap_challenge_shape_t){
        .random_bits = bits,
        .per_digest = per,
        .digests_per_partition = per ? (cfg->challenge_count + per - 1) / per : 0,
    };
}

/* A canonical 32-byte value as a field element, or CUZK_ERR_NOT_CANONICAL naming it. */
static cuzk_status read_fr(fr *out, const uint8_t in[32], const char *what, cuzk_err_t *err)
{
    if (fr_from_bytes_le(out, in))
        return CUZK_OK;
    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "snap: %s is not a canonical field element (>= r)", what);
}

cuzk_status cuzk_snap_challenges(uint64_t *out, const cuzk_snap_config_t *cfg, const uint8_t comm_r_new[32],
                                 uint32_t k, cuzk_err_t *err)
{
    cuzk_status st = cuzk_snap_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    if (k >= cfg->partition_count)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "snap challenges: partition %u of %u", k,
                            cfg->partition_count);
    fr comm;
    if ((st = read_fr(&comm, comm_r_new, "comm_r_new", err)) != CUZK_OK)
        return st;
    cuzk_fc_snap_challenge_shape_t sh;
    cuzk_fc_snap_challenge_shape(&sh, cfg);
    uint64_t partition_high = (uint64_t)k << sh.random_bits;
    uint64_t digest_index = (uint64_t)k * sh.digests_per_partition;
    uint8_t bits[32];
    for (uint32_t i = 0; i < cfg->challenge_count; i++) {
        uint32_t j = i % sh.per_digest; /* place in the current digest */
        if (j == 0) {
            fr idx, d;
            fr_from_u64(&idx, digest_index++);
            cuzk_fc_snap_hash2(&d, &comm, &idx);
            fr_to_bytes_le(bits, &d);
        }
        uint64_t c = 0;
        for (uint32_t b = 0; b < sh.random_bits; b++) {
            uint32_t at = j * sh.random_bits + b;
            c |= (uint64_t)((bits[at >> 3] >> (at & 7)) & 1) << b;
        }
        out[i] = c | partition_high;
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_phi(uint8_t phi[32], const uint8_t comm_d_new[32], const uint8_t comm_r_old[32],
                          cuzk_err_t *err)
{
    memset(phi, 0, 32);
    fr d, r, p;
    cuzk_status st = read_fr(&d, comm_d_new, "comm_d_new", err);
    if (st == CUZK_OK)
        st = read_fr(&r, comm_r_old, "comm_r_old", err);
    if (st != CUZK_OK)
        return st;
    cuzk_fc_snap_hash2(&p, &d, &r);
    fr_to_bytes_le(phi, &p);
    return CUZK_OK;
}

void cuzk_snap_rho(cuzk_fr_t *rho, const cuzk_snap_config_t *cfg, const cuzk_fr_t *phi, uint64_t node)
{
    fr high;
    fr_from_u64(&high, node >> cuzk_fc_snap_high_shift(cfg));
    cuzk_fc_snap_hash2(rho, phi, &high);
}
