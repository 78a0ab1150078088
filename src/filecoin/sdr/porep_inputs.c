/* replica_id, per-partition PoRep challenges by kind, and the partition's public input vector. */
#include "filecoin/sdr/porep_inputs.h"
#include <string.h>
#include "ff/fr.h"
#include "filecoin/sdr/challenges.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/hash/sha256_tree.h"

void cuzk_fc_porep_config_from_proof(cuzk_fc_porep_config_t *cfg, const cuzk_fc_seal_proof_t *p)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->nodes = p->nodes;
    cfg->api = p->api;
    cfg->challenges = p->challenges;
    cfg->challenges_per_partition = p->challenges_per_partition;
    cfg->partitions = p->partitions;
    cfg->num_synth = cuzk_fc_synth_default_count(p->nodes);
    cuzk_fc_porep_id(cfg->porep_id, p->id);
}

void cuzk_fc_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                        const uint8_t ticket[32], const uint8_t comm_d[32], const uint8_t porep_id[32])
{
    uint8_t sid[8];
    for (int i = 0; i < 8; i++)
        sid[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    cuzk_fc_span_t parts[5] = {{prover_id, 32}, {sid, 8}, {ticket, 32}, {comm_d, 32}, {porep_id, 32}};
    cuzk_fc_sha256_trimmed(out, parts, 5);
}

cuzk_status cuzk_fc_porep_challenges(uint64_t *out, const cuzk_fc_porep_config_t *cfg,
                                     const uint8_t replica_id[32], const uint8_t comm_r[32],
                                     const uint8_t seed[32], uint32_t k, cuzk_err_t *err)
{
    if (!out || !cfg || !replica_id)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep challenges: NULL argument");
    if (k >= cfg->partitions)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep challenges: partition %u of %u",
                            k, cfg->partitions);
    if (cfg->challenges_per_partition > CUZK_FC_MAX_CHALLENGES_PER_PARTITION)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "porep challenges: %u challenges per partition (at most %d)",
                            cfg->challenges_per_partition, CUZK_FC_MAX_CHALLENGES_PER_PARTITION);
    uint32_t cpp = cfg->challenges_per_partition;
    switch (cfg->challenges) {
    case CUZK_FC_CHALLENGES_INTERACTIVE:
        if (!seed)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "interactive porep challenges need the seed");
        return cuzk_fc_challenges_interactive(out, cpp, cfg->nodes, replica_id, seed, k, err);
    case CUZK_FC_CHALLENGES_SYNTHETIC:
        if (!seed || !comm_r)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                                "synthetic porep challenges need comm_r and the seed");
        return cuzk_fc_challenges_synthetic(out, cpp, cfg->num_synth, cfg->nodes, replica_id, comm_r,
                                            seed, k, err);
    case CUZK_FC_CHALLENGES_NON_INTERACTIVE:
        if (!comm_r)
            return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "non-interactive porep challenges need comm_r");
        return cuzk_fc_challenges_ni(out, cpp, cfg->nodes, replica_id, comm_r, k, err);
    }
    return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep challenges: unknown kind %d", (int)cfg->challenges);
}

size_t cuzk_fc_porep_public_input_count(const cuzk_fc_porep_config_t *cfg)
{
    return 3 + (size_t)CUZK_FC_POREP_INPUTS_PER_CHALLENGE * cfg->challenges_per_partition;
}

cuzk_status cuzk_fc_porep_public_inputs(cuzk_fr_t *out, size_t out_len, const cuzk_fc_porep_config_t *cfg,
                                        const uint8_t replica_id[32], const uint8_t comm_d[32],
                                        const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k,
                                        cuzk_err_t *err)
{
    if (!out || !cfg || !replica_id || !comm_d || !comm_r)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep public inputs: NULL argument");
    size_t need = cuzk_fc_porep_public_input_count(cfg);
    if (out_len < need)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "porep public inputs: room for %zu of %zu inputs",
                            out_len, need);
    static const char *const names[3] = {"replica_id", "comm_d", "comm_r"};
    const uint8_t *heads[3] = {replica_id, comm_d, comm_r};
    for (int i = 0; i < 3; i++)
        if (!fr_from_bytes_le(&out[i], heads[i]))
            return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                                "porep public inputs: %s is not a canonical field element", names[i]);

    cuzk_fc_graph_t g;
    cuzk_status st = cuzk_fc_graph_init(&g, cfg->nodes, cfg->porep_id, cfg->api, err);
    if (st != CUZK_OK)
        return st;
    uint32_t cpp = cfg->challenges_per_partition;
    uint64_t ch[CUZK_FC_MAX_CHALLENGES_PER_PARTITION];
    st = cuzk_fc_porep_challenges(ch, cfg, replica_id, comm_r, seed, k, err);
    if (st != CUZK_OK)
        return st;
    cuzk_fr_t *o = out + 3;
    for (uint32_t i = 0; i < cpp; i++) {
        uint32_t parents[CUZK_FC_PARENTS];
        st = cuzk_fc_graph_parents(&g, ch[i], parents);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "porep public inputs: parents of challenge %llu",
                                (unsigned long long)ch[i]);
        fr_from_u64(o++, ch[i]); /* comm_d path: the leaf index */
        for (int p = 0; p < CUZK_FC_PARENTS; p++)
            fr_from_u64(o++, parents[p]);
        fr_from_u64(o++, ch[i]); /* the challenge as UInt64 */
        fr_from_u64(o++, ch[i]); /* comm_r_last path */
        fr_from_u64(o++, ch[i]); /* comm_c path */
    }
    return CUZK_OK;
}

void cuzk_fc_prover_id_from_miner(uint8_t out[32], uint64_t miner_id)
{
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = miner_id & 0x7f;
        miner_id >>= 7;
        out[i++] = (uint8_t)(b | (miner_id ? 0x80 : 0));
    } while (miner_id);
}
