/* The SnapDeals circuit's own gadgets (storage-proofs-update src/gadgets.rs): the challenge bits drawn from
 * comm_r_new, the selected high bits of a challenge (rho's input), the encoded label and the partition's
 * apex tree checked against comm_d_new; and the Poseidon with SnapDeals' "gen randomness" domain tag that
 * phi, rho and the challenge digests use. Each allocates and constrains exactly as the reference does. */
#ifndef CUZK_FILECOIN_SNAP_GADGETS_H
#define CUZK_FILECOIN_SNAP_GADGETS_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"
#include "gadgets/boolean.h"
#include "gadgets/num.h"

/* neptune's poseidon_hash of (a, b) with arity-2 constants and the domain tag HashType::Custom(Arbitrary(1))
 * = 2^40 (constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS): 311 constraints. */
cuzk_num_t cuzk_snap_poseidon_gen(cuzk_cs_t *cs, const cuzk_num_t *a, const cuzk_num_t *b);

/* (Σ 2^i·bits[i])·ONE = num: the binary decomposition constraint of allocated_num_to_allocated_bits and of
 * the circuit's k_and_h_select (n <= 255). */
void cuzk_snap_enforce_bits(cuzk_cs_t *cs, const cuzk_bit_t *bits, size_t n, const cuzk_num_t *num);

/* allocated_num_to_allocated_bits: num's 255 low bits allocated (least significant first), then
 * (Σ 2^i·bit_i)·ONE = num. 256 constraints. */
void cuzk_snap_num_to_bits(cuzk_cs_t *cs, const cuzk_num_t *num, cuzk_bit_t out[255]);

/* gen_challenge_bits: 254 / bits_per_challenge challenges per digest, ceil(challenges / that) digests; per
 * digest j, digest_index = partition·digests + j (allocated; (digests·partition +
 * j·ONE)·ONE = digest_index), digest = Poseidon-gen(comm_r_new, digest_index), its 255 bits
 * (cuzk_snap_num_to_bits), cut into challenges of bits_per_challenge bits. out[c·bits_per_challenge + i] is
 * bit i of challenge c's random part (the partition bits go above it), for `challenges` challenges. */
void cuzk_snap_gen_challenge_bits(cuzk_cs_t *cs, const cuzk_num_t *comm_r_new, const cuzk_num_t *partition,
                                  uint32_t challenges, uint32_t bits_per_challenge, cuzk_bit_t *out);

/* get_challenge_high_bits: for each hs[k] (nhs of them, each 1..n), the hs[k] high bits of the challenge
 * c_bits[0..n) packed (pack_bits), times h_select_bits[k] (a new num: c_high·select = c_high_or_zero); then
 * their sum, allocated, with (Σ c_high_or_zero)·ONE = sum. The sum is the selected h's high bits when
 * exactly one select bit is set. A bad hs fails cs (CUZK_ERR_INVALID_ARG). */
cuzk_num_t cuzk_snap_challenge_high_bits(cuzk_cs_t *cs, const cuzk_bit_t *c_bits, size_t n,
                                         const cuzk_bit_t *h_select_bits, const uint32_t *hs, size_t nhs);

/* label_r_new: prod = label_d_new·rho (AllocatedNum::mul), then label_r_new = label_r_old + prod with
 * (label_r_old + prod)·ONE = label_r_new. */
cuzk_num_t cuzk_snap_label_r_new(cuzk_cs_t *cs, const cuzk_num_t *label_r_old, const cuzk_num_t *label_d_new,
                                 const cuzk_num_t *rho);

/* apex_por: the apex tree over apex_leaves[0..n) (n a power of two) by SHA-256 hash2 row by row, then its
 * root's path (partition_path: pbits allocated siblings, positions partition_bits, least significant
 * first) up to comm_d (por_no_challenge_input over a binary SHA-256 tree). A bad n fails cs
 * (CUZK_ERR_INVALID_ARG). */
void cuzk_snap_apex_por(cuzk_cs_t *cs, const cuzk_num_t *apex_leaves, size_t n, const cuzk_bit_t *partition_bits,
                        size_t pbits, const cuzk_num_t *partition_path, const cuzk_num_t *comm_d);

#endif
