/* Internals of the PoRep circuit files: the tree shapes a configuration implies and the per-challenge
 * synthesis, shared by synthesis, witness allocation and circuit info (public API: cuzk/filecoin.h). */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_H
#define CUZK_FILECOIN_POREP_CIRCUIT_H
#include "cuzk/filecoin.h"
#include "gadgets/por.h"

/* Trees R and C (Poseidon, the configured shape) and tree D (binary SHA-256) over cfg->nodes leaves.
 * Errors: CUZK_ERR_INVALID_ARG naming the problem. */
cuzk_status cuzk_porep_tree_shape(cuzk_por_shape_t *shape, const cuzk_porep_config_t *cfg, cuzk_err_t *err);
cuzk_status cuzk_porep_tree_d_shape(cuzk_por_shape_t *shape, const cuzk_porep_config_t *cfg, cuzk_err_t *err);

#endif
