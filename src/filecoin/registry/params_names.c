/* v28 parameter file stems of Filecoin's circuits: identifier strings in the reference's exact formats,
 * hashed into the stem by cuzk_params_file_stem. */
#include "filecoin/registry/params_names.h"
#include <stdio.h>
#include "cuzk/params.h"

static cuzk_status fmt_result(int n, char *out, size_t out_len)
{
    if (n < 0 || (size_t)n >= out_len) {
        if (out_len)
            out[0] = 0;
        return CUZK_ERR_BAD_LENGTH;
    }
    return CUZK_OK;
}

cuzk_status cuzk_fc_porep_params_identifier(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    if (!out || !p)
        return CUZK_ERR_INVALID_ARG;
    /* StackedGraph / BucketGraph / PublicParams identifier() format strings, nested. */
    int n = snprintf(out, out_len,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                     "expansion_degree: %d base_graph: drgraph::BucketGraph{size: %llu; degree: %d; "
                     "hasher: poseidon_hasher} }, "
                     "challenges: LayerChallenges { layers: %u, max_count: %u }, "
                     "tree: merkletree-poseidon_hasher-%u-%u-%u }",
                     CUZK_FC_EXP_DEGREE, (unsigned long long)p->nodes, CUZK_FC_DRG_DEGREE, p->layers,
                     p->challenges_per_partition, p->base_arity, p->sub_arity, p->top_arity);
    return fmt_result(n, out, out_len);
}

cuzk_status cuzk_fc_porep_params_prefix(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    if (!out || !p)
        return CUZK_ERR_INVALID_ARG;
    int n = snprintf(out, out_len,
                     "stacked-proof-of-replication-merkletree-poseidon_hasher-%u-%u-%u-sha256_hasher",
                     p->base_arity, p->sub_arity, p->top_arity);
    return fmt_result(n, out, out_len);
}

cuzk_status cuzk_fc_porep_params_stem(char *out, size_t out_len, const cuzk_fc_seal_proof_t *p)
{
    char id[512], prefix[128];
    cuzk_status st = cuzk_fc_porep_params_identifier(id, sizeof id, p);
    if (st == CUZK_OK)
        st = cuzk_fc_porep_params_prefix(prefix, sizeof prefix, p);
    if (st != CUZK_OK)
        return st;
    return cuzk_params_file_stem(out, out_len, prefix, id);
}

/* The interactive registered proof of a sector size (its PoRep circuit is every version's). */
static const cuzk_fc_seal_proof_t *porep_of_size(uint64_t sector_size)
{
    const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
    for (int i = 0; i < 5; i++)
        if (t[i].sector_size == sector_size)
            return &t[i];
    return NULL;
}

cuzk_status cuzk_fc_params_stem(char *out, size_t out_len, cuzk_fc_circuit_t circuit, uint64_t sector_size,
                                cuzk_err_t *err)
{
    if (!out)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parameter stem: no output buffer");
    const cuzk_fc_seal_proof_t *p = porep_of_size(sector_size);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "parameter stem: no published parameters for a %llu-byte sector",
                            (unsigned long long)sector_size);
    char tree[16], prefix[128], id[256];
    snprintf(tree, sizeof tree, "%u-%u-%u", p->base_arity, p->sub_arity, p->top_arity);
    int n = 0;
    switch (circuit) {
    case CUZK_FC_CIRCUIT_POREP: {
        cuzk_status st = cuzk_fc_porep_params_stem(out, out_len, p);
        return st == CUZK_OK ? st : cuzk_err_set(err, st, "parameter stem: output buffer too small");
    }
    case CUZK_FC_CIRCUIT_WINNING_POST:
    case CUZK_FC_CIRCUIT_WINDOW_POST: {
        /* filecoin-proofs parameters.rs: Winning PoSt's 66 challenges of one sector become 66 sectors
         * of one challenge; Window PoSt has 10 challenges per sector and a size-dependent count. */
        int winning = circuit == CUZK_FC_CIRCUIT_WINNING_POST;
        unsigned sectors = winning ? 66 : p->sector_size == (32ull << 30) ? 2349
                                      : p->sector_size == (64ull << 30)   ? 2300
                                                                          : 2;
        snprintf(prefix, sizeof prefix, "proof-of-spacetime-fallback-merkletree-poseidon_hasher-%s", tree);
        n = snprintf(id, sizeof id,
                     "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
                     (unsigned long long)p->sector_size, winning ? 1u : 10u, sectors);
        break;
    }
    case CUZK_FC_CIRCUIT_SNAP:
    case CUZK_FC_CIRCUIT_SNAP_POSEIDON:
        snprintf(prefix, sizeof prefix, "empty-sector-update-%smerkletree-poseidon_hasher-%s",
                 circuit == CUZK_FC_CIRCUIT_SNAP_POSEIDON ? "poseidon-" : "", tree);
        n = snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                     (unsigned long long)p->nodes);
        break;
    default:
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "parameter stem: unknown circuit %d", (int)circuit);
    }
    if (n < 0 || (size_t)n >= sizeof id)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "parameter stem: identifier too long");
    cuzk_status st = cuzk_params_file_stem(out, out_len, prefix, id);
    return st == CUZK_OK ? st : cuzk_err_set(err, st, "parameter stem: output buffer too small");
}
