/* The C1 output on the wire: the JSON that filecoin-ffi's seal_commit_phase1 returns (serde_json of
 * filecoin-proofs-api SealCommitPhase1Output, compact, fields in declaration order) and Curio's wrapper
 * {"SectorNum":n,"Phase1Out":"<base64 of that JSON>","SectorSize":bytes}. Writers produce the exact bytes;
 * the parser is strict (every field, in order, with the right lengths) and names the field that is wrong. */
#ifndef CUZK_FILECOIN_C1_JSON_H
#define CUZK_FILECOIN_C1_JSON_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"
#include "filecoin/vanilla/c1.h"

/* The C1 JSON of c1 into a malloc'd buffer *out (NUL-terminated, *out_len bytes without the NUL).
 * CUZK_ERR_NO_MEMORY, CUZK_ERR_INVALID_ARG for a model that has no registered proof. */
cuzk_status cuzk_fc_c1_json_write(char **out, size_t *out_len, const cuzk_fc_c1_t *c1, cuzk_err_t *err);

/* Curio's wrapper around C1 JSON bytes (malloc'd, NUL-terminated). */
cuzk_status cuzk_fc_c1_wrapper_write(char **out, size_t *out_len, const char *c1_json, size_t c1_len,
                                     uint64_t sector_num, uint64_t sector_size, cuzk_err_t *err);

/* What the wrapper said (wrapped = 0 when the input was bare C1 JSON). */
typedef struct {
    int wrapped;
    uint64_t sector_num;
    uint64_t sector_size;
} cuzk_fc_c1_wrapper_info_t;

/* Skip cuzk_fc_c1_verify after parsing (tests of the syntax layer, or inputs checked elsewhere). */
#define CUZK_FC_C1_PARSE_NO_VERIFY 1u

/* Parses bare C1 JSON. Strict: the fields of every object in serde's order (serde itself accepts any
 * order; ffi and cuzk write this one), no unknown fields, integers in range, 32-byte arrays of
 * 32 integers 0..255, the vanilla_proofs variant matching registered_proof's shape, every partition
 * the same length. Then, unless flags has CUZK_FC_C1_PARSE_NO_VERIFY, cuzk_fc_c1_verify. Errors:
 * CUZK_ERR_FORMAT "c1 json: byte <offset>: <field path>: <what>", the verify errors; *out is empty. */
cuzk_status cuzk_fc_c1_json_parse(cuzk_fc_c1_t *out, const char *buf, size_t len, unsigned flags,
                                  cuzk_err_t *err);

/* Either form: a JSON object whose first key is SectorNum, Phase1Out or SectorSize is a wrapper, anything
 * else bare C1 JSON. The wrapper's three fields may come in any order, with any JSON whitespace and string
 * escapes; a missing, duplicate or unknown field, a value of the wrong type (SectorNum and SectorSize:
 * unsigned 64-bit integers, Phase1Out: a string of standard padded base64), trailing data or truncation is
 * CUZK_ERR_FORMAT "c1 wrapper: ..." naming the field. Phase1Out is decoded and parsed as above, and
 * SectorSize must equal the registered proof's (CUZK_ERR_MISMATCH). info may be NULL. */
cuzk_status cuzk_fc_c1_parse_any(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *buf, size_t len,
                                 unsigned flags, cuzk_err_t *err);

/* The largest C1 file read: the largest registered proof's C1 (64GiB NI-PoRep: 126 partitions x 18
 * challenges, about 0.7 GB as a wrapper; a 32GiB interactive one is about 52 MB) with room to spare. */
#define CUZK_FC_C1_MAX_BYTES ((size_t)1 << 30)

/* Reads the file at path (a regular file of at most CUZK_FC_C1_MAX_BYTES that opens as a JSON object: a
 * larger or binary file is refused before it is read whole) and parses it with cuzk_fc_c1_parse_any.
 * CUZK_ERR_IO naming the path (missing, unreadable, a directory or device, a read error), CUZK_ERR_FORMAT
 * (too large, not JSON), the parser's errors prefixed with the path. */
cuzk_status cuzk_fc_c1_load(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *path, unsigned flags,
                            cuzk_err_t *err);

/* Writes len bytes to path with the atomic writer (cuzk/file.h): the file appears whole or not at all,
 * nothing is left behind on error (CUZK_ERR_IO naming the path). */
cuzk_status cuzk_fc_c1_save(const char *path, const char *buf, size_t len, cuzk_err_t *err);

#endif
