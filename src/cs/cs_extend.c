/* Joining systems synthesized apart (bellperson's ProvingAssignment::extend, behind synthesize_extendable):
 * a part's variables are renumbered after the system's own (its ONE is the system's ONE) and every array
 * of the backend is appended, so that the joined system equals the one sequential synthesis builds —
 * densities included (ec-gpu-gen DensityTracker::extend: the part's ONE bit is or-ed into bit 0 of the
 * B-input density, which otherwise grows by the part's other inputs). */
#include "cs/cs_internal.h"

/* Bitmap words: appends bits [from, from + n) of src after the first `at` bits of *dst, whose words past
 * bit `at` must be zero (as alloc keeps them); dst then has cs_words(at + n) words. False when out of
 * memory (dst unchanged). */
static bool bits_append(cs_vec *dst, size_t at, const uint64_t *src, size_t from, size_t n)
{
    size_t words = cs_words(at + n);
    if (!cs_vec_reserve(dst, words, 8))
        return false;
    uint64_t *d = dst->p;
    for (size_t w = dst->len; w < words; w++)
        d[w] = 0;
    if (words > dst->len)
        dst->len = words;
    /* src bit from + i goes to dst bit at + i; whole source words where the offsets allow */
    size_t i = 0;
    while (i < n) {
        size_t s = from + i, t = at + i;
        unsigned so = (unsigned)(s % 64), to = (unsigned)(t % 64);
        size_t take = n - i;
        if (take > 64 - so)
            take = 64 - so;
        if (take > 64 - to)
            take = 64 - to;
        uint64_t bits = src[s / 64] >> so;
        if (take < 64)
            bits &= (1ULL << take) - 1;
        d[t / 64] |= bits << to;
        i += take;
    }
    return true;
}

static bool vec_append(cs_vec *dst, const void *src, size_t n, size_t elem)
{
    if (!n)
        return true;
    if (!cs_vec_reserve(dst, dst->len + n, elem))
        return false;
    memcpy((unsigned char *)dst->p + dst->len * elem, src, n * elem);
    dst->len += n;
    return true;
}

/* Appends src's rows of matrix k with renumbered columns. */
static bool csr_append(cs_csr *d, const cs_csr *s, size_t rows, uint32_t ni, uint32_t na)
{
    size_t nnz = s->col.len, base = d->col.len;
    if (!cs_vec_reserve(&d->col, base + nnz, sizeof(uint32_t)) || !cs_vec_reserve(&d->coeff, base + nnz, sizeof(fr)) ||
        !cs_vec_reserve(&d->row_start, d->row_start.len + rows, sizeof(uint64_t)))
        return false;
    const uint32_t *sc = s->col.p;
    uint32_t *dc = (uint32_t *)d->col.p + base;
    for (size_t i = 0; i < nnz; i++)
        dc[i] = cs_renumber(sc[i], ni, na);
    if (nnz) /* an empty part's arrays may be unallocated */
        memcpy((fr *)d->coeff.p + base, s->coeff.p, nnz * sizeof(fr));
    d->col.len = d->coeff.len = base + nnz;
    const uint64_t *sr = s->row_start.p;
    uint64_t *dr = d->row_start.p;
    for (size_t r = 1; r <= rows; r++)
        dr[d->row_start.len++] = sr[r] + base;
    return true;
}

cuzk_status cuzk_cs_extend(cuzk_cs_t *dst, const cuzk_cs_t *src, cuzk_err_t *err)
{
    if (dst == src)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: a system cannot be appended to itself");
    if (dst->backend != src->backend)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: the systems have different backends (%d, %d)",
                            (int)dst->backend, (int)src->backend);
    if (dst->backend == CUZK_CS_HASH || dst->backend == CUZK_CS_SINK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: the %s backend's stream cannot be joined",
                            dst->backend == CUZK_CS_HASH ? "hash" : "sink");
    if (dst->whole || src->whole || dst->pieces || src->pieces)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: pieces, and systems whose pieces are open, "
                            "are not joined (cuzk_cs_piece_close)");
    if (dst->omit_c != src->omit_c)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: one system keeps C·z, the other omits it");
    if (dst->status != CUZK_OK)
        return cuzk_cs_status(dst, err);
    if (src->status != CUZK_OK) {
        cuzk_cs_fail(dst, src->status, "%s", src->err.msg);
        return cuzk_cs_status(dst, err);
    }
    if ((dst->backend == CUZK_CS_RECORD || dst->backend == CUZK_CS_TEST) && (!dst->want_record || !src->want_record))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_extend: a record was already taken");
    if (src->num_inputs < 1 || dst->num_inputs + src->num_inputs - 1 > (size_t)CUZK_VAR_MAX_INDEX + 1 ||
        dst->num_aux + src->num_aux > (size_t)CUZK_VAR_MAX_INDEX + 1)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_cs_extend: %zu + %zu inputs, %zu + %zu aux: more than a system holds",
                            dst->num_inputs, src->num_inputs, dst->num_aux, src->num_aux);

    size_t ni = dst->num_inputs, na = dst->num_aux, nc = dst->num_constraints;
    size_t sni = src->num_inputs - 1; /* src's inputs but its ONE */
    bool ok = true;
    if (dst->want_values)
        ok = vec_append(&dst->input, (const fr *)src->input.p + 1, sni, sizeof(fr)) &&
             vec_append(&dst->aux, src->aux.p, src->num_aux, sizeof(fr));
    if (ok && dst->want_density) {
        const uint64_t *sb = src->b_in_d.p;
        ok = bits_append(&dst->a_aux_d, na, src->a_aux_d.p, 0, src->num_aux) &&
             bits_append(&dst->b_aux_d, na, src->b_aux_d.p, 0, src->num_aux) &&
             bits_append(&dst->b_in_d, ni, sb, 1, sni);
        if (ok && (sb[0] & 1))
            ((uint64_t *)dst->b_in_d.p)[0] |= 1;
    }
    if (ok && dst->backend == CUZK_CS_DIRECT)
        ok = vec_append(&dst->av, src->av.p, src->num_constraints, sizeof(fr)) &&
             vec_append(&dst->bv, src->bv.p, src->num_constraints, sizeof(fr)) &&
             (dst->omit_c || vec_append(&dst->cv, src->cv.p, src->num_constraints, sizeof(fr)));
    cuzk_status rst = CUZK_OK;
    for (int k = 0; ok && rst == CUZK_OK && dst->backend == CUZK_CS_RECORD && k < 3; k++)
        rst = cs_cmat_append(&dst->cm[k], &src->cm[k], src->num_constraints, (uint32_t)ni, (uint32_t)na);
    for (int k = 0; ok && dst->backend == CUZK_CS_TEST && k < 3; k++)
        ok = csr_append(&dst->m[k], &src->m[k], src->num_constraints, (uint32_t)ni, (uint32_t)na);
    if (rst == CUZK_ERR_UNSUPPORTED) {
        cs_failf(dst, rst, "cuzk_cs_extend: the joined matrices have more than %d distinct coefficients, more "
                 "than the record backend's table holds (prove by the direct backend)", CUZK_CMAT_MAX_TABLE);
        return cuzk_cs_status(dst, err);
    }
    if (!ok || rst != CUZK_OK) {
        cs_failf(dst, CUZK_ERR_NO_MEMORY, "cuzk_cs_extend: out of memory appending %zu constraints after %zu",
                 src->num_constraints, nc);
        return cuzk_cs_status(dst, err);
    }
    if (dst->first_unsat < 0 && src->first_unsat >= 0)
        dst->first_unsat = (int64_t)nc + src->first_unsat;
    for (int k = 0; k < 3; k++)
        dst->nnz[k] += src->nnz[k];
    dst->num_inputs = ni + sni;
    dst->num_aux = na + src->num_aux;
    dst->num_constraints = nc + src->num_constraints;
    return CUZK_OK;
}
