/* create_label_circuit (storage-proofs-porep stacked/circuit/create_label.rs): the message is laid
 * out bit by bit with constant padding, so that the SHA-256 gadget folds exactly the bits the
 * reference folds. */
#include "filecoin/porep/create_label_circuit.h"
#include <stdlib.h>
#include "gadgets/bits.h"
#include "gadgets/consts.h"
#include "gadgets/multipack.h"
#include "gadgets/sha256.h"

#define MSG_BITS ((2 + CUZK_LABEL_PARENTS) * 256)

cuzk_num_t cuzk_create_label_circuit(cuzk_cs_t *cs, const cuzk_boolean_t *replica_id, size_t id_bits,
                                     const cuzk_boolean_t *const parents[CUZK_LABEL_PARENTS], size_t parent_bits,
                                     const cuzk_u32_t *layer, const cuzk_u64_t *node)
{
    cuzk_num_t none = {.var = {0}, .has_value = false};
    if (id_bits < 32 || id_bits > 256 || parent_bits == 0 || parent_bits > 256) {
        cuzk_cs_fail(cs, CUZK_ERR_INVALID_ARG, "create_label: replica id of %zu bits, parents of %zu bits", id_bits,
                     parent_bits);
        return none;
    }
    cuzk_boolean_t *m = malloc(MSG_BITS * sizeof *m);
    if (!m) {
        cuzk_cs_fail(cs, CUZK_ERR_NO_MEMORY, "create_label: out of memory");
        return none;
    }
    const cuzk_boolean_t f = cuzk_boolean_constant(false);
    size_t n = 0;
    for (size_t i = 0; i < id_bits; i++)
        m[n++] = replica_id[i];
    while (n < 256)
        m[n++] = f;
    cuzk_u32_into_bits_be(layer, &m[n]);
    n += 32;
    cuzk_u64_to_bits_be(node, &m[n]);
    n += 64;
    while (n < 512)
        m[n++] = f;
    for (int p = 0; p < CUZK_LABEL_PARENTS; p++) {
        for (size_t i = 0; i < parent_bits; i++)
            m[n++] = parents[p][i];
        while (n % 256)
            m[n++] = f;
    }
    cuzk_boolean_t digest[256];
    cuzk_sha256(cs, m, n, digest);
    free(m);
    cuzk_bits_reverse_numbering(digest, 256, digest);
    return cuzk_multipack_pack_bits(cs, digest, CUZK_FR_CAPACITY);
}
