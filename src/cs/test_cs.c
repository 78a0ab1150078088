/* The test backend's queries: bellpepper TestConstraintSystem::hash() (BLAKE2s-256 over the
 * counts and the merged, zero-dropped LCs, layout of bellpepper-core util_cs/test_cs.rs)
 * and which_is_unsatisfied() as the index of the first failing constraint (the check backend's, kept
 * while it synthesized, too); and the hash backend,
 * which streams the same bytes while the circuit is synthesized. */
#include <openssl/evp.h>
#include <stdlib.h>
#include "cs/cs_internal.h"

/* Bytes are gathered here and handed to OpenSSL in blocks rather than 41 at a time. */
typedef struct {
    EVP_MD_CTX *md;
    size_t n;
    bool ok;
    uint8_t buf[8192];
} hash_buf;

static void hb_flush(hash_buf *h)
{
    if (h->n && EVP_DigestUpdate(h->md, h->buf, h->n) != 1)
        h->ok = false;
    h->n = 0;
}

static uint8_t *hb_room(hash_buf *h, size_t need)
{
    if (sizeof h->buf - h->n < need)
        hb_flush(h);
    uint8_t *p = h->buf + h->n;
    h->n += need;
    return p;
}

static void put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static void put_term(hash_buf *h, uint32_t var, const fr *coeff)
{
    uint8_t *q = hb_room(h, 41);
    q[0] = (var & CUZK_VAR_AUX_BIT) ? 'A' : 'I';
    put_be64(q + 1, var & ~CUZK_VAR_AUX_BIT);
    fr_to_bytes_be(q + 9, coeff);
}

/* A fresh BLAKE2s-256 stream with the header (the three counts) written. */
static hash_buf *hash_open(size_t num_inputs, size_t num_aux, size_t num_constraints)
{
    hash_buf *hp = malloc(sizeof *hp); /* 8 KiB: kept off the stack */
    if (!hp)
        return NULL;
    hp->md = EVP_MD_CTX_new();
    hp->n = 0;
    hp->ok = hp->md && EVP_DigestInit_ex(hp->md, EVP_blake2s256(), NULL) == 1;
    uint8_t *p = hb_room(hp, 24);
    put_be64(p, num_inputs);
    put_be64(p + 8, num_aux);
    put_be64(p + 16, num_constraints);
    return hp;
}

/* Finishes and frees the stream; the digest as hex, or an error. */
static cuzk_status hash_close(hash_buf *hp, char hex[65], cuzk_err_t *err)
{
    hb_flush(hp);
    uint8_t digest[32];
    unsigned int dlen = 0;
    bool ok = hp->ok && EVP_DigestFinal_ex(hp->md, digest, &dlen) == 1 && dlen == 32;
    EVP_MD_CTX_free(hp->md);
    free(hp);
    if (!ok)
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "cuzk_cs_test_hash: OpenSSL BLAKE2s-256 failed");
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = 0;
    return CUZK_OK;
}

/* The hash backend's state: the open stream and the counts its header promised. */
struct cs_hash_stream {
    hash_buf *h;
    size_t num_inputs, num_aux, num_constraints;
};

cuzk_status cuzk_cs_hash_begin(cuzk_cs_t *cs, size_t num_inputs, size_t num_aux, size_t num_constraints,
                               cuzk_err_t *err)
{
    if (cs->backend != CUZK_CS_HASH || cs->hs || cs->num_constraints || cs->num_aux || cs->num_inputs != 1)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_hash_begin: a fresh hash-backend system is needed");
    struct cs_hash_stream *hs = calloc(1, sizeof *hs);
    if (!hs || !(hs->h = hash_open(num_inputs, num_aux, num_constraints))) {
        free(hs);
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_hash_begin: out of memory");
    }
    if (!hs->h->ok) {
        EVP_MD_CTX_free(hs->h->md);
        free(hs->h);
        free(hs);
        return cuzk_err_set(err, CUZK_ERR_UNSUPPORTED, "cuzk_cs_hash_begin: OpenSSL has no BLAKE2s-256");
    }
    hs->num_inputs = num_inputs;
    hs->num_aux = num_aux;
    hs->num_constraints = num_constraints;
    cs->hs = hs;
    return CUZK_OK;
}

void cs_hash_enforce(cuzk_cs_t *cs, const cuzk_lc_t *const lcs[3], bool (*counts)(cuzk_cs_t *, const cuzk_lc_term_t *, int))
{
    hash_buf *h = cs->hs->h;
    if (!h)
        return; /* already finished: cuzk_cs_test_hash reports it */
    for (int k = 0; k < 3; k++) {
        const cuzk_lc_term_t *t = cuzk_lc_terms(lcs[k]);
        uint64_t n = 0;
        for (uint32_t i = 0; i < lcs[k]->len; i++)
            n += counts(cs, &t[i], k);
        put_be64(hb_room(h, 8), n);
        for (uint32_t i = 0; i < lcs[k]->len; i++)
            if (!cs_is_zero(&t[i].coeff) && cs_var_valid(cs, t[i].var))
                put_term(h, t[i].var, &t[i].coeff);
    }
}

void cs_hash_free(cuzk_cs_t *cs)
{
    if (!cs->hs)
        return;
    if (cs->hs->h) {
        EVP_MD_CTX_free(cs->hs->h->md);
        free(cs->hs->h);
    }
    free(cs->hs);
    cs->hs = NULL;
}

cuzk_status cuzk_cs_hash_finish(cuzk_cs_t *cs, char hex[65], cuzk_err_t *err)
{
    hex[0] = 0;
    if (cs->backend != CUZK_CS_HASH)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_hash_finish: needs the hash backend");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    struct cs_hash_stream *hs = cs->hs;
    if (!hs || !hs->h)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_hash_finish: no open hash stream (cuzk_cs_hash_begin, "
                                                       "once)");
    if (cs->num_inputs != hs->num_inputs || cs->num_aux != hs->num_aux || cs->num_constraints != hs->num_constraints)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "cuzk_cs_hash_finish: the circuit has %zu inputs, %zu aux, %zu constraints; the stream "
                            "was begun for %zu, %zu, %zu",
                            cs->num_inputs, cs->num_aux, cs->num_constraints, hs->num_inputs, hs->num_aux,
                            hs->num_constraints);
    hash_buf *h = hs->h;
    hs->h = NULL;
    return hash_close(h, hex, err);
}

cuzk_status cuzk_cs_test_hash(const cuzk_cs_t *cs, char hex[65], cuzk_err_t *err)
{
    hex[0] = 0;
    if (cs->backend != CUZK_CS_TEST)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_test_hash: needs the test backend%s",
                            cs->backend == CUZK_CS_HASH ? " (the hash backend ends with cuzk_cs_hash_finish)" : "");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    hash_buf *hp = hash_open(cs->num_inputs, cs->num_aux, cs->num_constraints);
    if (!hp)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "cuzk_cs_test_hash: out of memory");
    for (size_t row = 0; hp->ok && row < cs->num_constraints; row++) {
        for (int k = 0; k < 3; k++) {
            const uint64_t *rs = cs->m[k].row_start.p;
            const uint32_t *col = cs->m[k].col.p;
            const fr *coeff = cs->m[k].coeff.p;
            put_be64(hb_room(hp, 8), rs[row + 1] - rs[row]);
            for (uint64_t t = rs[row]; t < rs[row + 1]; t++)
                put_term(hp, col[t], &coeff[t]);
        }
    }
    return hash_close(hp, hex, err);
}

void cs_row_eval_ids(fr *out, const cuzk_cs_t *cs, const uint32_t *col, const fr *coeff, size_t n)
{
    fr acc = FR_ZERO, tmp;
    for (size_t k = 0; k < n; k++) {
        fr_mul(&tmp, &coeff[k], cs_value(cs, col[k]));
        fr_add(&acc, &acc, &tmp);
    }
    *out = acc;
}

cuzk_status cuzk_cs_test_unsatisfied(const cuzk_cs_t *cs, int64_t *first, cuzk_err_t *err)
{
    *first = -1;
    if (cs->backend != CUZK_CS_TEST && cs->backend != CUZK_CS_CHECK)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_cs_test_unsatisfied: needs the test or check backend");
    if (cs->status != CUZK_OK)
        return cuzk_cs_status(cs, err);
    if (cs->backend == CUZK_CS_CHECK) {
        *first = cs->first_unsat;
        return CUZK_OK;
    }
    for (size_t row = 0; row < cs->num_constraints; row++) {
        fr v[3];
        for (int k = 0; k < 3; k++) {
            const uint64_t *rs = cs->m[k].row_start.p;
            cs_row_eval_ids(&v[k], cs, (const uint32_t *)cs->m[k].col.p + rs[row],
                            (const fr *)cs->m[k].coeff.p + rs[row], rs[row + 1] - rs[row]);
        }
        fr ab;
        fr_mul(&ab, &v[0], &v[1]);
        if (!fr_eq(&ab, &v[2])) {
            *first = (int64_t)row;
            return CUZK_OK;
        }
    }
    return CUZK_OK;
}
