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
