/* Internals of the Fallback PoSt circuit files: the tree-R shape a configuration implies, shared by
 * configuration and synthesis (public API: cuzk/post.h). */
#ifndef CUZK_FILECOIN_POST_CIRCUIT_H
#define CUZK_FILECOIN_POST_CIRCUIT_H
#include "cuzk/post.h"
#include "gadgets/por.h"

/* Tree R (Poseidon, the configured arities) over cfg->nodes leaves. CUZK_ERR_INVALID_ARG naming the
 * problem. */
cuzk_status cuzk_post_tree_shape(cuzk_por_shape_t *shape, const cuzk_post_config_t *cfg, cuzk_err_t *err);

#endif
