/* StackedCircuit::synthesize and Proof::synthesize (storage-proofs-porep stacked/circuit/proof.rs,
 * params.rs): the partition's commitments, then per challenge the data leaf's tree-D path, the 14
 * parent columns and their tree-C paths, the challenge as a public UInt64, one label per layer, the
 * encoding, the replica node's tree-R path and the own column's tree-C path — allocations and
 * constraints in the reference's order. */
#include <string.h>
#include "ff/fr.h"
#include "filecoin/porep/create_label_circuit.h"
#include "filecoin/porep/porep_circuit.h"
#include "gadgets/bits.h"
#include "gadgets/constraint.h"
#include "gadgets/poseidon.h"
#include "gadgets/uint32.h"
#include "gadgets/uint64.h"

#define MAX_LAYERS 11
#define PARENTS (CUZK_POREP_DRG_PARENTS + CUZK_POREP_EXP_PARENTS)

static const cuzk_fr_t *opt(bool has, const cuzk_fr_t *v) { return has ? v : NULL; }

static cuzk_por_path_t path_of(const cuzk_porep_path_t *p)
{
    return p && p->has_values ? (cuzk_por_path_t){p->siblings, p->positions} : (cuzk_por_path_t){NULL, NULL};
}

/* enforce_inclusion (params.rs): leaf and root are allocated nums, the root stays private. */
static void inclusion(cuzk_cs_t *cs, const cuzk_por_shape_t *shape, const cuzk_porep_path_t *p, const cuzk_num_t *root,
                      const cuzk_num_t *leaf)
{
    cuzk_por_path_t path = path_of(p);
    cuzk_por_synthesize(cs, shape, cuzk_por_root_var(leaf), &path, cuzk_por_root_var(root), true);
}

/* Column::alloc, then its hash (hash_single_column) and the hash's inclusion in tree C. */
static void parent_column(cuzk_cs_t *cs, const cuzk_porep_config_t *cfg, const cuzk_por_shape_t *shape_rc,
                          const cuzk_porep_column_t *col, const cuzk_num_t *comm_c, cuzk_num_t rows[MAX_LAYERS])
{
    for (uint32_t l = 0; l < cfg->layers; l++)
        rows[l] = cuzk_num_alloc(cs, col && col->has_rows ? &col->rows[l] : NULL);
    cuzk_num_t h;
    cuzk_poseidon_circuit(cs, &h, cfg->layers, rows);
    inclusion(cs, shape_rc, col ? &col->path : NULL, comm_c, &h);
}

/* Proof::synthesize for one challenge (ch NULL: blank). */
static void challenge(cuzk_cs_t *cs, const cuzk_porep_config_t *cfg, const cuzk_por_shape_t *shape_d,
                      const cuzk_por_shape_t *shape_rc, const cuzk_porep_challenge_t *ch, const cuzk_num_t *comm_d,
                      const cuzk_num_t *comm_c, const cuzk_num_t *comm_r_last, const cuzk_boolean_t replica_id[256])
{
    const cuzk_porep_path_t *dpath = ch ? &ch->comm_d_path : NULL;
    cuzk_num_t data_leaf = cuzk_num_alloc(cs, dpath ? opt(dpath->has_values, &dpath->leaf) : NULL);
    inclusion(cs, shape_d, dpath, comm_d, &data_leaf);

    cuzk_num_t cols[PARENTS][MAX_LAYERS];
    for (int k = 0; k < CUZK_POREP_DRG_PARENTS; k++)
        parent_column(cs, cfg, shape_rc, ch ? &ch->drg_parents[k] : NULL, comm_c, cols[k]);
    for (int k = 0; k < CUZK_POREP_EXP_PARENTS; k++)
        parent_column(cs, cfg, shape_rc, ch ? &ch->exp_parents[k] : NULL, comm_c, cols[CUZK_POREP_DRG_PARENTS + k]);

    cuzk_u64_t node;
    cuzk_u64_alloc(&node, cs, ch && ch->has_challenge ? &ch->challenge : NULL);
    cuzk_u64_pack_into_input(cs, &node);

    cuzk_num_t labels[MAX_LAYERS];
    cuzk_boolean_t pbits[PARENTS][256];
    for (uint32_t layer = 1; layer <= cfg->layers; layer++) {
        /* DRG parents from this layer; expander parents (from layer 2 on) from the layer below */
        int np = layer > 1 ? PARENTS : CUZK_POREP_DRG_PARENTS;
        for (int k = 0; k < np; k++) {
            cuzk_boolean_t b[255];
            uint32_t row = k < CUZK_POREP_DRG_PARENTS ? layer - 1 : layer - 2;
            cuzk_num_to_bits_le(cs, &cols[k][row], b);
            cuzk_bits_reverse_numbering(b, 255, pbits[k]);
        }
        /* the 37 hashed parents: layer 1 repeats its 6 six times and adds the first; later layers
         * take the 14, the 14 again and the first 9 */
        const cuzk_boolean_t *expanded[CUZK_LABEL_PARENTS];
        for (int i = 0; i < CUZK_LABEL_PARENTS; i++)
            expanded[i] = pbits[layer > 1 ? (i < 28 ? i % PARENTS : i - 28) : (i < 36 ? i % 6 : 0)];
        cuzk_u32_t layer_num;
        cuzk_u32_constant(&layer_num, layer);
        labels[layer - 1] = cuzk_create_label_circuit(cs, replica_id, 256, expanded, 256, &layer_num, &node);
    }

    /* encoding: the replica node is the last label plus the data node */
    cuzk_num_t encoded = cuzk_encode(cs, &labels[cfg->layers - 1], &data_leaf);
    inclusion(cs, shape_rc, ch ? &ch->comm_r_last_path : NULL, comm_r_last, &encoded);

    cuzk_num_t column_hash;
    cuzk_poseidon_circuit(cs, &column_hash, cfg->layers, labels);
    inclusion(cs, shape_rc, ch ? &ch->c_x.path : NULL, comm_c, &column_hash);
}

bool cuzk_porep_config_equal(const cuzk_porep_config_t *a, const cuzk_porep_config_t *b)
{
    return a->nodes == b->nodes && a->layers == b->layers && a->challenges == b->challenges &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

cuzk_status cuzk_porep_synthesize(cuzk_cs_t *cs, const cuzk_porep_config_t *cfg, const cuzk_porep_witness_t *w,
                                  cuzk_err_t *err)
{
    cuzk_status st = cuzk_porep_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    if (w && (!cuzk_porep_config_equal(&w->cfg, cfg) || w->num_challenges != cfg->challenges || !w->challenges))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep synthesize: the witness is for another configuration");
    cuzk_por_shape_t shape_d, shape_rc;
    cuzk_porep_tree_d_shape(&shape_d, cfg, NULL);
    cuzk_porep_tree_shape(&shape_rc, cfg, NULL);

    cuzk_num_t replica_id = cuzk_num_alloc(cs, w ? opt(w->has_replica_id, &w->replica_id) : NULL);
    cuzk_num_inputize(cs, &replica_id);
    cuzk_boolean_t rid[256];
    {
        cuzk_boolean_t le[255];
        cuzk_num_to_bits_le(cs, &replica_id, le);
        cuzk_bits_reverse_numbering(le, 255, rid);
    }
    cuzk_num_t comm_d = cuzk_num_alloc(cs, w ? opt(w->has_comm_d, &w->comm_d) : NULL);
    cuzk_num_inputize(cs, &comm_d);
    cuzk_num_t comm_r = cuzk_num_alloc(cs, w ? opt(w->has_comm_r, &w->comm_r) : NULL);
    cuzk_num_inputize(cs, &comm_r);
    cuzk_num_t comm_r_last = cuzk_num_alloc(cs, w ? opt(w->has_comm_r_last, &w->comm_r_last) : NULL);
    cuzk_num_t comm_c = cuzk_num_alloc(cs, w ? opt(w->has_comm_c, &w->comm_c) : NULL);

    /* comm_r = H(comm_c, comm_r_last) */
    cuzk_num_t pre[2] = {comm_c, comm_r_last}, h;
    cuzk_poseidon_circuit(cs, &h, 2, pre);
    cuzk_constraint_equal(cs, &comm_r, &h);

    for (uint32_t i = 0; i < cfg->challenges && !cuzk_cs_poll_stop(cs) && cuzk_cs_status(cs, NULL) == CUZK_OK; i++)
        challenge(cs, cfg, &shape_d, &shape_rc, w ? &w->challenges[i] : NULL, &comm_d, &comm_c, &comm_r_last, rid);
    return cuzk_cs_status(cs, err);
}
