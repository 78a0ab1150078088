/* SHA-256 Merkle hasher circuits (filecoin-hashers sha256.rs). */
#include <stdlib.h>
#include "gadgets/sha256_hasher.h"
#include "gadgets/bits.h"
#include "gadgets/consts.h"
#include "gadgets/multipack.h"
#include "gadgets/sha256.h"

cuzk_num_t cuzk_sha256_hash_bits(cuzk_cs_t *cs, const cuzk_boolean_t *bits, size_t nbits)
{
    cuzk_boolean_t be[256], le[256];
    cuzk_sha256(cs, bits, nbits, be);
    cuzk_bits_reverse_numbering(be, 256, le);
    return cuzk_multipack_pack_bits(cs, le, CUZK_FR_CAPACITY);
}

cuzk_num_t cuzk_sha256_hash_leaf_bits(cuzk_cs_t *cs, const cuzk_boolean_t *left, size_t nleft,
                                      const cuzk_boolean_t *right, size_t nright)
{
    size_t pl = (nleft + 7) / 8 * 8, pr = (nright + 7) / 8 * 8;
    cuzk_boolean_t *pre = malloc((pl + pr + 1) * sizeof *pre);
    if (!pre) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "sha256 hash_leaf_bits: out of memory");
        return (cuzk_num_t){.var = {0}, .has_value = false};
    }
    cuzk_bits_reverse_numbering(left, nleft, pre);
    cuzk_bits_reverse_numbering(right, nright, pre + pl);
    cuzk_num_t r = cuzk_sha256_hash_bits(cs, pre, pl + pr);
    free(pre);
    return r;
}

cuzk_num_t cuzk_sha256_hash_multi_leaf(cuzk_cs_t *cs, const cuzk_num_t *leaves, size_t n)
{
    cuzk_boolean_t *pre = malloc((256 * n + 1) * sizeof *pre);
    if (!pre) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "sha256 hash_multi_leaf: out of memory");
        return (cuzk_num_t){.var = {0}, .has_value = false};
    }
    for (size_t i = 0; i < n; i++) {
        cuzk_boolean_t bits[CUZK_FR_NUM_BITS];
        cuzk_num_to_bits_le(cs, &leaves[i], bits);
        cuzk_bits_reverse_numbering(bits, CUZK_FR_NUM_BITS, pre + 256 * i);
    }
    cuzk_num_t r = cuzk_sha256_hash_bits(cs, pre, 256 * n);
    free(pre);
    return r;
}

cuzk_num_t cuzk_sha256_hash2(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b)
{
    cuzk_num_t ab[2] = {*a, *b};
    return cuzk_sha256_hash_multi_leaf(cs, ab, 2);
}
