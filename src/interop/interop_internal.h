/* Helpers shared by the interop readers and writers: prime checks, ffjavascript's point encoding
 * (affine, each coordinate its Montgomery limbs little-endian: the same R as ours), decimal strings. */
#ifndef CUZK_INTEROP_INTERNAL_H
#define CUZK_INTEROP_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/interop.h"
#include "cuzk/status.h"
#include "ec/ec.h"
#include "ff/fp.h"
#include "ff/fr.h"

#define LEM_G1_BYTES (2 * FP_BYTES)
#define LEM_G2_BYTES (4 * FP_BYTES)

/* True when the n8 little-endian bytes at p are exactly BLS12-381's r (resp. p). */
bool interop_is_bls_r(const uint8_t *p, uint32_t n8);
/* Checks the start of an iden3 header section (.r1cs, .wtns): u32 n8, then the field prime in n8
 * little-endian bytes, which must be BLS12-381's r. CUZK_ERR_FORMAT for a short section,
 * CUZK_ERR_MISMATCH "<path>: <what> (its prime is not BLS12-381's r...)" for another prime. */
cuzk_status interop_check_prime(const uint8_t *h, uint64_t hlen, const char *path, const char *what,
                                cuzk_err_t *err);
bool interop_is_bls_p(const uint8_t *p, uint32_t n8);
/* True when the n8 bytes are bn128's base field prime (for a helpful message only). */
bool interop_is_bn128_q(const uint8_t *p, uint32_t n8);

/* Canonical little-endian limbs compare: a < m. */
bool interop_limbs_lt(const uint64_t *a, const uint64_t *m, size_t n);

/* ffjavascript LEM point decoding: coordinates must be < p (as Montgomery values), (0, 0) is
 * infinity, anything else must be on the curve; the subgroup is checked when asked. Returns
 * CUZK_OK, CUZK_ERR_NOT_CANONICAL, CUZK_ERR_NOT_ON_CURVE or CUZK_ERR_NOT_IN_SUBGROUP. */
cuzk_status interop_g1_from_lem(g1_aff *out, const uint8_t in[LEM_G1_BYTES], bool subgroup);
cuzk_status interop_g2_from_lem(g2_aff *out, const uint8_t in[LEM_G2_BYTES], bool subgroup);
/* The coordinates alone: false when one is not below p (nothing about the curve is checked). */
bool interop_g1_lem_coords(g1_aff *out, const uint8_t in[LEM_G1_BYTES]);
bool interop_g2_lem_coords(g2_aff *out, const uint8_t in[LEM_G2_BYTES]);

/* Decimal conversion of n-limb canonical integers. interop_dec_from_limbs writes at most
 * 20·n + 1 bytes. interop_limbs_from_str parses a decimal (or 0x-hex) string; false when it is
 * empty, has another character, or does not fit n limbs. */
void interop_dec_from_limbs(char *out, const uint64_t *limbs, size_t n);
bool interop_limbs_from_str(uint64_t *out, size_t n, const char *s);

/* Maps an error status about a point to a word for messages. */
const char *interop_point_err_word(cuzk_status s);

/* How cuzk_zkey_read reads the coefficient section: the parallel reader in chunks of at least chunk_min
 * entries (0 = the default), or not at all (serial_only: the serial reader alone). The public call reads
 * with every field 0; the tests compare the two readers on sections split into small chunks. */
typedef struct {
    size_t chunk_min;
    bool serial_only;
} interop_zkey_coef_opts;

/* cuzk_zkey_prove with the blinding (r, s) given instead of drawn from getrandom (both or neither), for
 * known-answer tests against snarkjs-mode oracles. */
cuzk_status interop_zkey_prove_blinded(cuzk_groth16_proof_t *proof, const cuzk_zkey_t *zk, const cuzk_fr_t *wtns,
                                       size_t n, const cuzk_groth16_prove_opts *opts, const cuzk_fr_t *fixed_r,
                                       const cuzk_fr_t *fixed_s, cuzk_err_t *err);

/* cuzk_zkey_read with the coefficient reader's options (NULL = the defaults). */
cuzk_status interop_zkey_read_ex(cuzk_zkey_t *out, const char *path, int threads, unsigned flags,
                                 const interop_zkey_coef_opts *coef, cuzk_err_t *err);

#endif
