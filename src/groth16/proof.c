/* The 192-byte proof encoding: compressed a (G1) || b (G2) || c (G1), bellperson Proof::write. */
#include <string.h>
#include "cuzk/groth16.h"
#include "ec/ec.h"

void cuzk_groth16_proof_write(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof_t *p)
{
    cuzk_g1_compress(out, &p->a);
    cuzk_g2_compress(out + CUZK_G1_COMPRESSED_BYTES, &p->b);
    cuzk_g1_compress(out + CUZK_G1_COMPRESSED_BYTES + CUZK_G2_COMPRESSED_BYTES, &p->c);
}

cuzk_status cuzk_groth16_proof_read(cuzk_groth16_proof_t *p, const uint8_t in[CUZK_GROTH16_PROOF_BYTES],
                                    cuzk_err_t *err)
{
    cuzk_groth16_proof_t q;
    const uint8_t *b = in + CUZK_G1_COMPRESSED_BYTES;
    const uint8_t *c = b + CUZK_G2_COMPRESSED_BYTES;
    cuzk_status st;
    if ((st = cuzk_g1_decompress(&q.a, in)) != CUZK_OK)
        return cuzk_err_set(err, st, "proof point A: %s", cuzk_status_str(st));
    if ((st = cuzk_g2_decompress(&q.b, b)) != CUZK_OK)
        return cuzk_err_set(err, st, "proof point B: %s", cuzk_status_str(st));
    if ((st = cuzk_g1_decompress(&q.c, c)) != CUZK_OK)
        return cuzk_err_set(err, st, "proof point C: %s", cuzk_status_str(st));
    /* bellperson's Proof::read rejects the identity in any of the three points. */
    if (g1_aff_is_inf(&q.a) || g2_aff_is_inf(&q.b) || g1_aff_is_inf(&q.c))
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "proof contains the point at infinity");
    *p = q;
    return CUZK_OK;
}

void cuzk_groth16_proofs_write(uint8_t *out, const cuzk_groth16_proof_t *proofs, size_t n)
{
    for (size_t k = 0; k < n; k++)
        cuzk_groth16_proof_write(out + k * CUZK_GROTH16_PROOF_BYTES, &proofs[k]);
}

cuzk_status cuzk_groth16_proofs_read(cuzk_groth16_proof_t *proofs, size_t max, size_t *n_out,
                                     const uint8_t *in, size_t len, cuzk_err_t *err)
{
    size_t n = len / CUZK_GROTH16_PROOF_BYTES;
    if (len % CUZK_GROTH16_PROOF_BYTES)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "%zu bytes is not a whole number of %d-byte proofs",
                            len, CUZK_GROTH16_PROOF_BYTES);
    if (n > max)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "%zu proofs given, at most %zu expected", n, max);
    for (size_t k = 0; k < n; k++) {
        cuzk_err_t one = {{0}};
        cuzk_status st = cuzk_groth16_proof_read(&proofs[k], in + k * CUZK_GROTH16_PROOF_BYTES, &one);
        if (st != CUZK_OK)
            return cuzk_err_set(err, st, "proof %zu: %s", k, one.msg);
    }
    if (n_out)
        *n_out = n;
    return CUZK_OK;
}
