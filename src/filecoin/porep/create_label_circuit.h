/* The SDR labelling function in circuit (storage-proofs-porep stacked/circuit/create_label.rs):
 * label = SHA-256(replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zero padding to 64 bytes ‖ 37 parent
 * labels of 32 bytes), read as a little-endian field element with the top two bits dropped. */
#ifndef CUZK_FILECOIN_CREATE_LABEL_CIRCUIT_H
#define CUZK_FILECOIN_CREATE_LABEL_CIRCUIT_H
#include <stddef.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"
#include "gadgets/uint32.h"
#include "gadgets/uint64.h"

#define CUZK_LABEL_PARENTS 37

/* create_label_circuit: replica_id is id_bits (32..256) bits in SHA-256 message order, padded with
 * constant false to 256; each of the 37 parents is parent_bits (1..256) bits, each padded to 256;
 * the 39·256-bit message is hashed (20 blocks with the padding), the digest's bits reversed byte
 * by byte and its first 254 packed into one new num (1 constraint). Bad sizes fail cs. */
cuzk_num_t cuzk_create_label_circuit(cuzk_cs_t *cs, const cuzk_boolean_t *replica_id, size_t id_bits,
                                     const cuzk_boolean_t *const parents[CUZK_LABEL_PARENTS], size_t parent_bits,
                                     const cuzk_u32_t *layer, const cuzk_u64_t *node);

#endif
