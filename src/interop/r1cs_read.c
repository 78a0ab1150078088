/* circom's .r1cs reader: header (section 1), constraints (section 2) and the optional wire-to-label
 * map (section 3), into cuzk_r1cs_t. Everything is validated in one pass before anything is
 * allocated by size, so a lying count can only produce an error, never a huge allocation. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "interop/binfile.h"
#include "interop/interop_internal.h"

typedef struct {
    uint32_t col;
    cuzk_fr_t v;
} term_t;

static int term_cmp(const void *a, const void *b)
{
    uint32_t x = ((const term_t *)a)->col, y = ((const term_t *)b)->col;
    return (x > y) - (x < y);
}

static void csr_free(cuzk_csr_t *m)
{
    free(m->row_start);
    free(m->col);
    free(m->coeff);
    memset(m, 0, sizeof *m);
}

void cuzk_circom_r1cs_free(cuzk_circom_r1cs_t *r)
{
    if (!r)
        return;
    csr_free(&r->r1cs.a);
    csr_free(&r->r1cs.b);
    csr_free(&r->r1cs.c);
    memset(r, 0, sizeof *r);
}

/* Pass 1: checks the constraints section's structure and counts terms per matrix. */
static cuzk_status scan_constraints(const binfile_t *bf, const uint8_t *p, uint64_t len, uint32_t n_cons,
                                    uint32_t n_wires, uint64_t nterms[3], uint64_t *max_lc,
                                    cuzk_err_t *err)
{
    static const char *const names[3] = {"A", "B", "C"};
    uint64_t pos = 0;
    nterms[0] = nterms[1] = nterms[2] = 0;
    *max_lc = 0;
    for (uint32_t k = 0; k < n_cons; k++) {
        for (int m = 0; m < 3; m++) {
            if (len - pos < 4)
                return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                    "%s: constraints section truncated in constraint %u (%s)", bf->path, k,
                                    names[m]);
            uint32_t n = binfile_u32(p + pos);
            pos += 4;
            if ((len - pos) / 36 < n)
                return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                    "%s: constraint %u (%s) has %u terms, beyond the section's end",
                                    bf->path, k, names[m], n);
            for (uint32_t i = 0; i < n; i++) {
                const uint8_t *t = p + pos + 36 * (uint64_t)i;
                uint32_t wire = binfile_u32(t);
                if (wire >= n_wires)
                    return cuzk_err_set(err, CUZK_ERR_FORMAT,
                                        "%s: constraint %u (%s) term %u: wire %u >= %u wires", bf->path, k,
                                        names[m], i, wire, n_wires);
                cuzk_fr_t v;
                if (!fr_from_bytes_le(&v, t + 4))
                    return cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL,
                                        "%s: constraint %u (%s) term %u: coefficient not below r", bf->path,
                                        k, names[m], i);
            }
            pos += 36 * (uint64_t)n;
            nterms[m] += n;
            if (n > *max_lc)
                *max_lc = n;
        }
    }
    if (pos != len)
        return cuzk_err_set(err, CUZK_ERR_FORMAT,
                            "%s: constraints section has %llu bytes after constraint %u", bf->path,
                            (unsigned long long)(len - pos), n_cons);
    return CUZK_OK;
}

/* Pass 2: fills the CSR rows, merging repeated wires and dropping zero coefficients. */
static void fill_constraints(cuzk_r1cs_t *r, const uint8_t *p, uint32_t n_cons, term_t *tmp)
{
    cuzk_csr_t *mats[3] = {&r->a, &r->b, &r->c};
    uint64_t fill[3] = {0, 0, 0};
    uint64_t pos = 0;
    for (uint32_t k = 0; k < n_cons; k++) {
        for (int m = 0; m < 3; m++) {
            uint32_t n = binfile_u32(p + pos);
            pos += 4;
            for (uint32_t i = 0; i < n; i++) {
                tmp[i].col = binfile_u32(p + pos);
                fr_from_bytes_le(&tmp[i].v, p + pos + 4);
                pos += 36;
            }
            if (n > 1)
                qsort(tmp, n, sizeof *tmp, term_cmp);
            cuzk_csr_t *c = mats[m];
            for (uint32_t i = 0; i < n;) {
                cuzk_fr_t sum = tmp[i].v;
                uint32_t j = i + 1;
                for (; j < n && tmp[j].col == tmp[i].col; j++)
                    fr_add(&sum, &sum, &tmp[j].v);
                if (!fr_is_zero(&sum)) {
                    c->col[fill[m]] = tmp[i].col;
                    c->coeff[fill[m]] = sum;
                    fill[m]++;
                }
                i = j;
            }
            c->row_start[k + 1] = fill[m];
        }
    }
}

cuzk_status cuzk_circom_r1cs_read(cuzk_circom_r1cs_t *out, const char *path, cuzk_err_t *err)
{
    if (!out || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_circom_r1cs_read: NULL argument");
    binfile_t bf;
    cuzk_status s = binfile_open(&bf, path, "r1cs", 1, err);
    if (s != CUZK_OK)
        return s;
    cuzk_circom_r1cs_t r;
    memset(&r, 0, sizeof r);
    term_t *tmp = NULL;
    const uint8_t *h, *c;
    uint64_t hlen, clen;
    if ((s = binfile_section(&bf, 1, &h, &hlen, err)) != CUZK_OK)
        goto out;
    if ((s = interop_check_prime(h, hlen, path,
                                 "circuit built for another curve; compile with circom --prime bls12381",
                                 err)) != CUZK_OK)
        goto out;
    if (hlen != 4 + 32 + 4 * 4 + 8 + 4) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header section has %llu bytes, expected 64", path,
                         (unsigned long long)hlen);
        goto out;
    }
    r.n_wires = binfile_u32(h + 36);
    r.n_outputs = binfile_u32(h + 40);
    r.n_pub_inputs = binfile_u32(h + 44);
    r.n_prv_inputs = binfile_u32(h + 48);
    r.n_labels = binfile_u64(h + 52);
    uint32_t n_cons = binfile_u32(h + 60);
    uint64_t n_inputs = 1 + (uint64_t)r.n_outputs + r.n_pub_inputs;
    if (n_inputs + r.n_prv_inputs > r.n_wires) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                         "%s: header: 1 + %u outputs + %u public + %u private inputs > %u wires", path,
                         r.n_outputs, r.n_pub_inputs, r.n_prv_inputs, r.n_wires);
        goto out;
    }
    if (bf.count[4] || bf.count[5]) {
        s = cuzk_err_set(err, CUZK_ERR_UNSUPPORTED,
                         "%s: the circuit uses custom gates (PLONK only), not a Groth16 R1CS", path);
        goto out;
    }
    if (bf.count[3]) {
        const uint8_t *mp;
        uint64_t mlen;
        if ((s = binfile_section(&bf, 3, &mp, &mlen, err)) != CUZK_OK)
            goto out;
        if (mlen != 8 * (uint64_t)r.n_wires) {
            s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                             "%s: wire-to-label section has %llu bytes, expected 8 x %u wires", path,
                             (unsigned long long)mlen, r.n_wires);
            goto out;
        }
    }
    if ((s = binfile_section(&bf, 2, &c, &clen, err)) != CUZK_OK)
        goto out;
    if (clen / 12 < n_cons) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                         "%s: header says %u constraints, the constraints section has only %llu bytes",
                         path, n_cons, (unsigned long long)clen);
        goto out;
    }
    uint64_t nterms[3], max_lc;
    if ((s = scan_constraints(&bf, c, clen, n_cons, r.n_wires, nterms, &max_lc, err)) != CUZK_OK)
        goto out;

    r.r1cs.num_inputs = (size_t)n_inputs;
    r.r1cs.num_aux = r.n_wires - (size_t)n_inputs;
    r.r1cs.num_constraints = n_cons;
    cuzk_csr_t *mats[3] = {&r.r1cs.a, &r.r1cs.b, &r.r1cs.c};
    for (int m = 0; m < 3; m++) {
        mats[m]->row_start = calloc((size_t)n_cons + 1, sizeof(uint64_t));
        mats[m]->col = malloc((nterms[m] ? nterms[m] : 1) * sizeof(uint32_t));
        mats[m]->coeff = malloc((nterms[m] ? nterms[m] : 1) * sizeof(cuzk_fr_t));
        if (!mats[m]->row_start || !mats[m]->col || !mats[m]->coeff) {
            s = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %llu terms", path,
                             (unsigned long long)nterms[m]);
            goto out;
        }
    }
    tmp = malloc((max_lc ? max_lc : 1) * sizeof *tmp);
    if (!tmp) {
        s = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
        goto out;
    }
    fill_constraints(&r.r1cs, c, n_cons, tmp);
    *out = r;
    memset(&r, 0, sizeof r);
out:
    free(tmp);
    cuzk_circom_r1cs_free(&r);
    binfile_close(&bf);
    return s;
}
