/* bincode MerkleProof reader and writer (merkle_bincode.h), shared by the PoSt and SnapDeals vanilla
 * proof codecs: one place that knows the serde layout of storage-proofs-core's proofs. */
#include "filecoin/vanilla/merkle_bincode.h"

#include <string.h>

cuzk_status cuzk_fc_bincode_take(cuzk_fc_bincode_reader_t *r, const uint8_t **p, size_t n, const char *what)
{
    if (r->len - r->pos < n)
        return cuzk_err_set(r->err, CUZK_ERR_FORMAT, "%s: truncated at byte %zu reading %s (%zu bytes, %zu left)",
                            r->who, r->pos, what, n, r->len - r->pos);
    *p = r->buf + r->pos;
    r->pos += n;
    return CUZK_OK;
}

cuzk_status cuzk_fc_bincode_u32(cuzk_fc_bincode_reader_t *r, uint32_t *v, const char *what)
{
    const uint8_t *p = NULL;
    cuzk_status st = cuzk_fc_bincode_take(r, &p, 4, what);
    if (st == CUZK_OK)
        *v = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return st;
}

cuzk_status cuzk_fc_bincode_u64(cuzk_fc_bincode_reader_t *r, uint64_t *v, const char *what)
{
    const uint8_t *p = NULL;
    cuzk_status st = cuzk_fc_bincode_take(r, &p, 8, what);
    if (st != CUZK_OK)
        return st;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    *v = x;
    return CUZK_OK;
}

cuzk_status cuzk_fc_bincode_domain(cuzk_fc_bincode_reader_t *r, uint8_t *out, const char *what)
{
    const uint8_t *p = NULL;
    cuzk_status st = cuzk_fc_bincode_take(r, &p, 32, what);
    if (st == CUZK_OK && out)
        memcpy(out, p, 32);
    return st;
}

/* One InclusionPath appended to path (NULL in a counting pass) from level *lvl on. */
static cuzk_status inclusion_path(cuzk_fc_bincode_reader_t *r, cuzk_fc_merkle_hash_t hash,
                                  cuzk_fc_merkle_path_t *path, uint32_t *lvl, uint32_t *n_part, uint8_t **sib,
                                  size_t *n_sib, const char *part)
{
    size_t at = r->pos;
    uint64_t n;
    cuzk_status st = cuzk_fc_bincode_u64(r, &n, part);
    if (st != CUZK_OK)
        return st;
    if (n > CUZK_FC_MERKLE_MAX_LEVELS - *lvl)
        return cuzk_err_set(r->err, CUZK_ERR_FORMAT, "%s: byte %zu: %s has %llu levels, a path at most %d", r->who,
                            at, part, (unsigned long long)n, CUZK_FC_MERKLE_MAX_LEVELS);
    for (uint64_t i = 0; i < n; i++, (*lvl)++) {
        uint64_t ns, idx;
        at = r->pos;
        if ((st = cuzk_fc_bincode_u64(r, &ns, "a sibling count")) != CUZK_OK)
            return st;
        if (hash == CUZK_FC_MERKLE_SHA256 ? ns != 1 : (ns != 1 && ns != 3 && ns != 7 && ns != 15))
            return cuzk_err_set(r->err, CUZK_ERR_FORMAT, "%s: byte %zu: %s level %llu has %llu siblings (%s expected)",
                                r->who, at, part, (unsigned long long)i, (unsigned long long)ns,
                                hash == CUZK_FC_MERKLE_SHA256 ? "a binary SHA-256 tree: arity 2"
                                                              : "arity 2, 4, 8 or 16");
        const uint8_t *p = NULL;
        if ((st = cuzk_fc_bincode_take(r, &p, ns * 32, "siblings")) != CUZK_OK)
            return st;
        at = r->pos;
        if ((st = cuzk_fc_bincode_u64(r, &idx, "a path index")) != CUZK_OK)
            return st;
        if (idx > ns)
            return cuzk_err_set(r->err, CUZK_ERR_FORMAT, "%s: byte %zu: %s level %llu index %llu, arity %llu", r->who,
                                at, part, (unsigned long long)i, (unsigned long long)idx, (unsigned long long)ns + 1);
        if (path) {
            path->steps[*lvl].arity = (uint8_t)(ns + 1);
            path->steps[*lvl].index = (uint8_t)idx;
            memcpy(*sib, p, ns * 32);
            *sib += ns * 32;
        } else {
            *n_sib += ns;
        }
    }
    *n_part = (uint32_t)n;
    return CUZK_OK;
}

cuzk_status cuzk_fc_bincode_merkle_proof(cuzk_fc_bincode_reader_t *r, cuzk_fc_merkle_hash_t hash,
                                         cuzk_fc_merkle_path_t *path, uint8_t **sib, size_t *n_sib)
{
    cuzk_fc_merkle_path_t tmp, *p = path ? path : &tmp;
    memset(p, 0, sizeof *p);
    p->hash = hash;
    p->siblings = path ? *sib : NULL;
    size_t at = r->pos;
    uint32_t kind;
    cuzk_status st = cuzk_fc_bincode_u32(r, &kind, "a MerkleProof kind");
    if (st != CUZK_OK)
        return st;
    if (kind > CUZK_FC_MERKLE_PROOF_TOP)
        return cuzk_err_set(r->err, CUZK_ERR_FORMAT, "%s: byte %zu: MerkleProof kind %u (0, 1 or 2 expected)", r->who,
                            at, kind);
    uint32_t lvl = 0;
    if (kind == CUZK_FC_MERKLE_PROOF_SINGLE) {
        if ((st = cuzk_fc_bincode_domain(r, p->root, "root")) != CUZK_OK ||
            (st = cuzk_fc_bincode_domain(r, p->leaf, "leaf")) != CUZK_OK ||
            (st = inclusion_path(r, hash, path, &lvl, &p->n_base, sib, n_sib, "path")) != CUZK_OK)
            return st;
        return CUZK_OK;
    }
    if ((st = inclusion_path(r, hash, path, &lvl, &p->n_base, sib, n_sib, "base path")) != CUZK_OK ||
        (st = inclusion_path(r, hash, path, &lvl, &p->n_sub, sib, n_sib, "sub path")) != CUZK_OK)
        return st;
    if (kind == CUZK_FC_MERKLE_PROOF_TOP &&
        (st = inclusion_path(r, hash, path, &lvl, &p->n_top, sib, n_sib, "top path")) != CUZK_OK)
        return st;
    if ((st = cuzk_fc_bincode_domain(r, p->root, "root")) != CUZK_OK ||
        (st = cuzk_fc_bincode_domain(r, p->leaf, "leaf")) != CUZK_OK)
        return st;
    return CUZK_OK;
}

uint32_t cuzk_fc_bincode_merkle_proof_kind(const cuzk_fc_merkle_path_t *p)
{
    return p->n_top ? CUZK_FC_MERKLE_PROOF_TOP : p->n_sub ? CUZK_FC_MERKLE_PROOF_SUB : CUZK_FC_MERKLE_PROOF_SINGLE;
}

/* Bytes of one InclusionPath of levels [from, from + n). */
static size_t part_len(const cuzk_fc_merkle_path_t *p, uint32_t from, uint32_t n)
{
    size_t len = 8;
    for (uint32_t i = from; i < from + n; i++)
        len += 8 + (size_t)(p->steps[i].arity - 1u) * 32 + 8;
    return len;
}

size_t cuzk_fc_bincode_merkle_proof_len(const cuzk_fc_merkle_path_t *p)
{
    uint32_t kind = cuzk_fc_bincode_merkle_proof_kind(p);
    size_t len = 4 + 64 + part_len(p, 0, p->n_base);
    if (kind != CUZK_FC_MERKLE_PROOF_SINGLE)
        len += part_len(p, p->n_base, p->n_sub);
    if (kind == CUZK_FC_MERKLE_PROOF_TOP)
        len += part_len(p, p->n_base + p->n_sub, p->n_top);
    return len;
}

uint8_t *cuzk_fc_bincode_put_u32(uint8_t *w, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        *w++ = (uint8_t)(x >> (8 * i));
    return w;
}

uint8_t *cuzk_fc_bincode_put_u64(uint8_t *w, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        *w++ = (uint8_t)(x >> (8 * i));
    return w;
}

uint8_t *cuzk_fc_bincode_put_bytes(uint8_t *w, const uint8_t *b, size_t n)
{
    if (n)
        memcpy(w, b, n);
    return w + n;
}

/* InclusionPath of levels [from, from + n), its siblings starting at *sib (advanced past them). */
static uint8_t *put_part(uint8_t *w, const cuzk_fc_merkle_path_t *p, uint32_t from, uint32_t n, const uint8_t **sib)
{
    w = cuzk_fc_bincode_put_u64(w, n);
    for (uint32_t i = from; i < from + n; i++) {
        size_t ns = p->steps[i].arity - 1u;
        w = cuzk_fc_bincode_put_u64(w, ns);
        w = cuzk_fc_bincode_put_bytes(w, *sib, ns * 32);
        *sib += ns * 32;
        w = cuzk_fc_bincode_put_u64(w, p->steps[i].index);
    }
    return w;
}

uint8_t *cuzk_fc_bincode_put_merkle_proof(uint8_t *w, const cuzk_fc_merkle_path_t *p)
{
    uint32_t kind = cuzk_fc_bincode_merkle_proof_kind(p);
    const uint8_t *sib = p->siblings;
    w = cuzk_fc_bincode_put_u32(w, kind);
    if (kind == CUZK_FC_MERKLE_PROOF_SINGLE) {
        w = cuzk_fc_bincode_put_bytes(w, p->root, 32);
        w = cuzk_fc_bincode_put_bytes(w, p->leaf, 32);
        return put_part(w, p, 0, p->n_base, &sib);
    }
    w = put_part(w, p, 0, p->n_base, &sib);
    w = put_part(w, p, p->n_base, p->n_sub, &sib);
    if (kind == CUZK_FC_MERKLE_PROOF_TOP)
        w = put_part(w, p, p->n_base + p->n_sub, p->n_top, &sib);
    w = cuzk_fc_bincode_put_bytes(w, p->root, 32);
    return cuzk_fc_bincode_put_bytes(w, p->leaf, 32);
}
