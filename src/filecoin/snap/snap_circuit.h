/* Internals of the SnapDeals circuit (public API: cuzk/snap.h): the tree-R shape of a configuration as the
 * circuit's Merkle gadgets take it, for the files of the area that synthesize or check tree-R paths. */
#ifndef CUZK_FILECOIN_SNAP_CIRCUIT_H
#define CUZK_FILECOIN_SNAP_CIRCUIT_H
#include "cuzk/snap.h"
#include "gadgets/por.h"

/* Tree R (Poseidon, cfg's arities) over cfg->nodes leaves. CUZK_ERR_INVALID_ARG naming the problem. */
cuzk_status cuzk_snap_tree_r_shape(cuzk_por_shape_t *shape, const cuzk_snap_config_t *cfg, cuzk_err_t *err);

#endif
