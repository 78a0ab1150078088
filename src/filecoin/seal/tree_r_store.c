/* Tree R paths from a sector's files (tree_r_store.h). A path reads base^(rows_to_discard + 1) replica nodes
 * (the subtree whose root is the first kept row: 512 nodes, 16 KiB, for Filecoin's octrees), hashes them up
 * to that row, compares with the file, then reads one group of siblings per kept level. */
#include "filecoin/seal/tree_r_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/hash/fr32.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/seal/seal.h"

/* Opens path read-only and checks its size. */
static cuzk_status open_sized(int *fd, const char *path, uint64_t want, cuzk_err_t *err)
{
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(*fd, &st) != 0)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: not a regular file", path);
    if ((uint64_t)st.st_size != want)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: %llu bytes, %llu expected", path,
                            (unsigned long long)st.st_size, (unsigned long long)want);
    return CUZK_OK;
}

/* n bytes at byte offset off of fd (path for messages). */
static cuzk_status read_at(int fd, const char *path, uint8_t *out, size_t n, uint64_t off, cuzk_err_t *err)
{
    while (n) {
        ssize_t r = pread(fd, out, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: reading at byte %llu: %s", path, (unsigned long long)off,
                                strerror(errno));
        if (r == 0)
            return cuzk_err_set(err, CUZK_ERR_IO, "%s: ends before byte %llu", path, (unsigned long long)off);
        out += r;
        off += (uint64_t)r;
        n -= (size_t)r;
    }
    return CUZK_OK;
}

void cuzk_fc_tree_r_store_close(cuzk_fc_tree_r_store_t *t)
{
    if (!t)
        return;
    /* A store that open() touched has replica_path set (or failed before any file was opened). */
    if (t->replica_path && t->replica_fd >= 0)
        close(t->replica_fd);
    for (uint32_t i = 0; t->tree_fd && i < t->layout.base_trees; i++)
        if (t->tree_fd[i] >= 0)
            close(t->tree_fd[i]);
    for (uint32_t i = 0; t->tree_path && i < t->layout.base_trees; i++)
        free(t->tree_path[i]);
    free(t->tree_fd);
    free(t->tree_path);
    free(t->replica_path);
    free(t->roots);
    free(t->sub_roots);
    memset(t, 0, sizeof *t);
}

/* comm_r_last from the base trees' roots: the sub level hashes groups of `sub` of them, the top level the
 * sub level's nodes. */
static cuzk_status join_roots(cuzk_fc_tree_r_store_t *t, cuzk_err_t *err)
{
    const cuzk_fc_tree_r_layout_t *l = &t->layout;
    if (!l->sub) {
        memcpy(t->root, t->roots[0], 32);
        return CUZK_OK;
    }
    uint32_t n_sub = l->base_trees / l->sub;
    if (!(t->sub_roots = malloc((size_t)n_sub * 32)))
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "tree R: out of memory");
    cuzk_status st = CUZK_OK;
    for (uint32_t g = 0; g < n_sub && st == CUZK_OK; g++)
        st = cuzk_poseidon_node(t->sub_roots[g], l->sub, t->roots[(size_t)g * l->sub], err);
    if (st != CUZK_OK)
        return st;
    if (!l->top)
        memcpy(t->root, t->sub_roots[0], 32);
    else
        st = cuzk_poseidon_node(t->root, l->top, t->sub_roots[0], err);
    return st;
}

cuzk_status cuzk_fc_tree_r_store_open(cuzk_fc_tree_r_store_t *t, const cuzk_fc_tree_r_layout_t *l, const char *dir,
                                      const char *replica_path, cuzk_err_t *err)
{
    memset(t, 0, sizeof *t);
    t->layout = *l;
    const uint32_t n = l->base_trees;
    t->replica_fd = -1;
    t->tree_fd = malloc(n * sizeof *t->tree_fd);
    for (uint32_t i = 0; t->tree_fd && i < n; i++)
        t->tree_fd[i] = -1;
    t->tree_path = calloc(n, sizeof *t->tree_path);
    t->roots = malloc((size_t)n * 32);
    t->replica_path = replica_path ? strdup(replica_path) : cuzk_fc_sector_path(dir, CUZK_FC_SECTOR_SEALED);
    cuzk_status st = CUZK_OK;
    if (!t->tree_fd || !t->tree_path || !t->roots || !t->replica_path) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "tree R: out of memory");
        goto fail;
    }
    if ((st = open_sized(&t->replica_fd, t->replica_path, l->nodes * 32, err)) != CUZK_OK)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        char name[64];
        cuzk_fc_tree_r_file_name(name, sizeof name, l, i);
        if (!(t->tree_path[i] = cuzk_fc_sector_path(dir, name))) {
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "tree R: out of memory");
            goto fail;
        }
        if ((st = open_sized(&t->tree_fd[i], t->tree_path[i], l->cached_nodes * 32, err)) != CUZK_OK ||
            (st = read_at(t->tree_fd[i], t->tree_path[i], t->roots[i], 32, (l->cached_nodes - 1) * 32, err)) !=
                CUZK_OK)
            goto fail;
        if (!cuzk_fr32_is_canonical(t->roots[i])) {
            st = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: the root is not a canonical Fr", t->tree_path[i]);
            goto fail;
        }
    }
    if ((st = join_roots(t, err)) != CUZK_OK)
        goto fail;
    t->siblings = (size_t)l->base_height * (l->base - 1) + (l->sub ? l->sub - 1 : 0) + (l->top ? l->top - 1 : 0);
    return CUZK_OK;
fail:
    cuzk_fc_tree_r_store_close(t);
    return st;
}

/* Appends the siblings of position pos among the group of `arity` nodes at group (pos's group), and the
 * step. */
static uint8_t *put_level(cuzk_fc_merkle_path_t *p, uint32_t lv, uint8_t *sib, const uint8_t *group,
                          unsigned arity, uint64_t pos)
{
    for (unsigned j = 0; j < arity; j++)
        if (j != pos % arity) {
            memcpy(sib, group + (size_t)j * 32, 32);
            sib += 32;
        }
    p->steps[lv].arity = (uint8_t)arity;
    p->steps[lv].index = (uint8_t)(pos % arity);
    return sib;
}

cuzk_status cuzk_fc_tree_r_store_path(const cuzk_fc_tree_r_store_t *t, uint64_t leaf, cuzk_fc_merkle_path_t *p,
                                      uint8_t *siblings, cuzk_err_t *err)
{
    const cuzk_fc_tree_r_layout_t *l = &t->layout;
    if (leaf >= l->nodes)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "tree R: leaf %llu of %llu", (unsigned long long)leaf,
                            (unsigned long long)l->nodes);
    memset(p, 0, sizeof *p);
    p->hash = CUZK_FC_MERKLE_POSEIDON;
    p->n_base = l->base_height;
    p->n_sub = l->sub != 0;
    p->n_top = l->top != 0;
    p->siblings = siblings;
    memcpy(p->root, t->root, 32);
    const uint32_t tree = (uint32_t)(leaf / l->base_leaves), kept = l->rows_to_discard + 1;
    const uint64_t local = leaf % l->base_leaves;
    uint64_t span = 1; /* leaves under one node of the first kept row */
    for (uint32_t i = 0; i < kept; i++)
        span *= l->base;
    const uint64_t g0 = local / span * span;
    const cuzk_poseidon_constants_t *c = cuzk_poseidon_constants(l->base);
    /* The subtree: its leaves, then each level above them up to the first kept row, one after the other. */
    uint8_t *sub = malloc(cuzk_fc_seal_tree_size(span, l->base) * 32);
    if (!sub || !c) {
        free(sub);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "tree R: out of memory");
    }
    cuzk_status st = read_at(t->replica_fd, t->replica_path, sub, span * 32, (tree * l->base_leaves + g0) * 32, err);
    for (uint64_t i = 0; i < span && st == CUZK_OK; i++)
        if (!cuzk_fr32_is_canonical(sub + i * 32))
            st = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: node %llu is not a canonical Fr", t->replica_path,
                              (unsigned long long)(tree * l->base_leaves + g0 + i));
    if (st != CUZK_OK) {
        free(sub);
        return st;
    }
    memcpy(p->leaf, sub + (local - g0) * 32, 32);
    uint8_t *sib = siblings, *level = sub;
    uint64_t w = span, pos = local - g0;
    for (uint32_t lv = 0; lv < kept; lv++) {
        sib = put_level(p, lv, sib, level + pos / l->base * l->base * 32, l->base, pos);
        cuzk_poseidon_hash_batch_bytes(level + w * 32, c, &c->merkle_tag, level, w / l->base);
        level += w * 32;
        w /= l->base;
        pos /= l->base;
    }
    uint8_t node[32], group[16 * 32];
    const uint64_t idx = local / span;
    st = read_at(t->tree_fd[tree], t->tree_path[tree], node, 32, (cuzk_fc_tree_r_cached_offset(l, kept) + idx) * 32,
                 err);
    if (st == CUZK_OK && memcmp(node, level, 32) != 0)
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH,
                          "%s and %s disagree: replica nodes %llu..%llu do not hash to level %u node %llu", t->replica_path,
                          t->tree_path[tree], (unsigned long long)(tree * l->base_leaves + g0),
                          (unsigned long long)(tree * l->base_leaves + g0 + span - 1), kept, (unsigned long long)idx);
    free(sub);
    uint64_t at = idx;
    for (uint32_t lv = kept; lv < l->base_height && st == CUZK_OK; lv++) {
        uint64_t first = at / l->base * l->base;
        st = read_at(t->tree_fd[tree], t->tree_path[tree], group, (size_t)l->base * 32,
                     (cuzk_fc_tree_r_cached_offset(l, lv) + first) * 32, err);
        if (st == CUZK_OK)
            sib = put_level(p, lv, sib, group, l->base, at);
        at /= l->base;
    }
    if (st != CUZK_OK)
        return st;
    uint32_t lv = l->base_height;
    if (l->sub)
        sib = put_level(p, lv++, sib, t->roots[tree / l->sub * l->sub], l->sub, tree);
    if (l->top)
        put_level(p, lv, sib, t->sub_roots[0], l->top, tree / l->sub);
    return CUZK_OK;
}
