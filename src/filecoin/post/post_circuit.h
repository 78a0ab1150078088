/* Internals of the Fallback PoSt circuit files: the tree-R shape a configuration implies and the
 * comparison of configurations, shared by configuration, synthesis and circuit info (public API:
 * cuzk/post.h). */
#ifndef CUZK_FILECOIN_POST_CIRCUIT_H
#define CUZK_FILECOIN_POST_CIRCUIT_H
#include <stdbool.h>
#include "cuzk/post.h"
#include "gadgets/por.h"

/* Tree R (Poseidon, the configured arities) over cfg->nodes leaves. CUZK_ERR_INVALID_ARG naming the
 * problem. */
cuzk_status cuzk_post_tree_shape(cuzk_por_shape_t *shape, const cuzk_post_config_t *cfg, cuzk_err_t *err);

static inline bool cuzk_post_same_config(const cuzk_post_config_t *a, const cuzk_post_config_t *b)
{
    return a->nodes == b->nodes && a->sector_count == b->sector_count && a->challenge_count == b->challenge_count &&
           a->base_arity == b->base_arity && a->sub_arity == b->sub_arity && a->top_arity == b->top_arity;
}

#endif
