/* The record backend's matrices while they are built: each row appended as columns, 16-bit indices into a
 * table of the matrix's distinct coefficients (found through a small open-addressing hash) and a one-byte
 * length, so that a production-size circuit never exists in the 36-bytes-a-term form. */
#include <stdlib.h>
#include "cs/cs_internal.h"

static fr minus_one(void)
{
    fr m;
    fr_neg(&m, &FR_ONE);
    return m;
}

static inline uint64_t coeff_hash(const fr *c)
{
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9E3779B97F4A7C15ULL) ^ (c->l[2] * 0xC2B2AE3D27D4EB4FULL) ^ c->l[3];
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
}

/* Puts table entry i (already in the table) into its slot. */
static void slot_insert(cs_cmat *m, uint32_t i)
{
    const fr *t = m->table.p;
    size_t mask = m->slot_cap - 1, s = coeff_hash(&t[i]) & mask;
    while (m->slots[s])
        s = (s + 1) & mask;
    m->slots[s] = i + 1;
}

/* Keeps the slots at most half full. */
static bool slots_grow(cs_cmat *m, size_t entries)
{
    if (m->slot_cap >= 2 * entries)
        return true;
    size_t cap = m->slot_cap ? m->slot_cap : 256;
    while (cap < 2 * entries)
        cap *= 2;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s)
        return false;
    free(m->slots);
    m->slots = s;
    m->slot_cap = cap;
    for (uint32_t i = 0; i < m->table.len; i++)
        slot_insert(m, i);
    return true;
}

bool cs_cmat_start(cs_cmat *m)
{
    m->col.len = m->idx.len = m->row_len.len = m->long_rows.len = m->table.len = 0;
    if (m->slots)
        memset(m->slots, 0, m->slot_cap * sizeof *m->slots);
    if (!cs_vec_reserve(&m->table, 2, sizeof(fr)) || !slots_grow(m, 2))
        return false;
    fr *t = m->table.p;
    t[0] = FR_ONE;
    t[1] = minus_one();
    m->table.len = 2;
    slot_insert(m, 0);
    slot_insert(m, 1);
    return true;
}

void cs_cmat_free(cs_cmat *m)
{
    cs_vec_free(&m->col);
    cs_vec_free(&m->idx);
    cs_vec_free(&m->row_len);
    cs_vec_free(&m->long_rows);
    cs_vec_free(&m->table);
    free(m->slots);
    *m = (cs_cmat){0};
}

/* The index of coefficient c (non-zero), added to the table when new. */
static cuzk_status coeff_index(cs_cmat *m, const fr *c, uint16_t *out)
{
    if (cs_is_one(c)) {
        *out = 0;
        return CUZK_OK;
    }
    const fr *t = m->table.p;
    size_t mask = m->slot_cap - 1;
    for (size_t s = coeff_hash(c) & mask; m->slots[s]; s = (s + 1) & mask) {
        uint32_t i = m->slots[s] - 1;
        if (!memcmp(&t[i], c, sizeof *c)) {
            *out = (uint16_t)i;
            return CUZK_OK;
        }
    }
    size_t n = m->table.len;
    if (n >= CUZK_CMAT_MAX_TABLE)
        return CUZK_ERR_UNSUPPORTED;
    if (!cs_vec_reserve(&m->table, n + 1, sizeof(fr)) || !slots_grow(m, n + 1))
        return CUZK_ERR_NO_MEMORY;
    ((fr *)m->table.p)[n] = *c;
    m->table.len = n + 1;
    slot_insert(m, (uint32_t)n);
    *out = (uint16_t)n;
    return CUZK_OK;
}

/* Ends a row of n terms: its length byte and, for a long row, its pair. */
static bool end_row(cs_cmat *m, size_t n)
{
    if (!cs_vec_reserve(&m->row_len, m->row_len.len + 1, 1))
        return false;
    if (n >= CUZK_CMAT_LONG_ROW) {
        if (!cs_vec_reserve(&m->long_rows, m->long_rows.len + 2, sizeof(uint64_t)))
            return false;
        uint64_t *lr = m->long_rows.p;
        lr[m->long_rows.len++] = m->row_len.len;
        lr[m->long_rows.len++] = n;
    }
    ((uint8_t *)m->row_len.p)[m->row_len.len++] = n >= CUZK_CMAT_LONG_ROW ? CUZK_CMAT_LONG_ROW : (uint8_t)n;
    return true;
}

cuzk_status cs_cmat_push_row(cs_cmat *m, const cuzk_lc_term_t *t, size_t n)
{
    size_t base = m->col.len;
    if (!cs_vec_reserve(&m->col, base + n, sizeof(uint32_t)) || !cs_vec_reserve(&m->idx, base + n, sizeof(uint16_t)))
        return CUZK_ERR_NO_MEMORY;
    uint32_t *col = m->col.p;
    uint16_t *idx = m->idx.p;
    size_t k = base;
    for (size_t i = 0; i < n; i++) {
        if (cs_is_zero(&t[i].coeff))
            continue;
        cuzk_status st = coeff_index(m, &t[i].coeff, &idx[k]);
        if (st != CUZK_OK)
            return st;
        col[k++] = t[i].var;
    }
    if (!end_row(m, k - base))
        return CUZK_ERR_NO_MEMORY;
    m->col.len = m->idx.len = k;
    return CUZK_OK;
}

cuzk_status cs_cmat_append(cs_cmat *dst, const cs_cmat *src, size_t rows, uint32_t ni, uint32_t na)
{
    /* src's table indices as dst numbers them */
    uint16_t *remap = malloc((src->table.len ? src->table.len : 1) * sizeof *remap);
    if (!remap)
        return CUZK_ERR_NO_MEMORY;
    const fr *st = src->table.p;
    for (size_t i = 0; i < src->table.len; i++) {
        cuzk_status s = coeff_index(dst, &st[i], &remap[i]);
        if (s != CUZK_OK) {
            free(remap);
            return s;
        }
    }
    size_t nnz = src->col.len, base = dst->col.len, rbase = dst->row_len.len;
    if (!cs_vec_reserve(&dst->col, base + nnz, sizeof(uint32_t)) ||
        !cs_vec_reserve(&dst->idx, base + nnz, sizeof(uint16_t)) ||
        !cs_vec_reserve(&dst->row_len, rbase + rows, 1) ||
        !cs_vec_reserve(&dst->long_rows, dst->long_rows.len + src->long_rows.len, sizeof(uint64_t))) {
        free(remap);
        return CUZK_ERR_NO_MEMORY;
    }
    const uint32_t *sc = src->col.p;
    const uint16_t *si = src->idx.p;
    uint32_t *dc = (uint32_t *)dst->col.p + base;
    uint16_t *di = (uint16_t *)dst->idx.p + base;
    for (size_t i = 0; i < nnz; i++) {
        dc[i] = cs_renumber(sc[i], ni, na);
        di[i] = remap[si[i]];
    }
    free(remap);
    if (rows)
        memcpy((uint8_t *)dst->row_len.p + rbase, src->row_len.p, rows);
    const uint64_t *sl = src->long_rows.p;
    uint64_t *dl = dst->long_rows.p;
    for (size_t i = 0; i < src->long_rows.len; i += 2) {
        dl[dst->long_rows.len++] = sl[i] + rbase;
        dl[dst->long_rows.len++] = sl[i + 1];
    }
    dst->col.len = dst->idx.len = base + nnz;
    dst->row_len.len = rbase + rows;
    return CUZK_OK;
}
