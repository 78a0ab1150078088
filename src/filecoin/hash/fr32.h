/* Fr32: how Filecoin fits raw bytes into BLS12-381 scalars (fr32 crate). Every 254 bits of raw data are
 * followed by 2 zero bits, so 127 raw bytes become 128 padded bytes = four 32-byte little-endian field
 * elements. Bits are taken least-significant first within each byte, in both streams. */
#ifndef CUZK_FILECOIN_FR32_H
#define CUZK_FILECOIN_FR32_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/status.h"

#define CUZK_FR32_RAW_BLOCK 127
#define CUZK_FR32_PADDED_BLOCK 128

/* Bytes that Fr32Reader emits for n raw bytes: whole 32-byte elements, 32·ceil(8n/254). */
uint64_t cuzk_fr32_padded_len(uint64_t n);
/* fr32 padding.rs to_padded_bytes / to_unpadded_bytes: the byte-offset maps (the last, incomplete
 * element is not padded; padding rounds up, unpadding down). 127·k <-> 128·k exactly. */
uint64_t cuzk_fr32_to_padded_bytes(uint64_t unpadded);
uint64_t cuzk_fr32_to_unpadded_bytes(uint64_t padded);

/* Pads n raw bytes into out[cuzk_fr32_padded_len(n)] (the bits after the data are zero), exactly as
 * Fr32Reader::read_to_end. in and out must not overlap. */
void cuzk_fr32_pad(uint8_t *out, const uint8_t *in, size_t n);
/* Pads nblocks whole 127-byte blocks into nblocks·128 bytes (the sealing fast path; a sector is
 * always a whole number of blocks). */
void cuzk_fr32_pad_blocks(uint8_t *out, const uint8_t *in, size_t nblocks);
/* The inverse: extracts n raw bytes from the padded stream in (which must hold at least
 * cuzk_fr32_to_padded_bytes(n) bytes). Padding bits are ignored, not checked. */
void cuzk_fr32_unpad(uint8_t *out, const uint8_t *in, size_t n);
void cuzk_fr32_unpad_blocks(uint8_t *out, const uint8_t *in, size_t nblocks);

/* Streaming padder: feed raw bytes in any pieces, get padded bytes. Each call emits every whole
 * 128-byte block it can (returned count) into out, which must have room for
 * ((buffered + n) / 127) · 128 bytes (at most n/127·128 + 128). finish emits the tail as
 * Fr32Reader does (cuzk_fr32_padded_len of the tail), at most 128 bytes. */
typedef struct {
    uint8_t buf[CUZK_FR32_RAW_BLOCK];
    size_t len;
} cuzk_fr32_padder_t;

void cuzk_fr32_padder_init(cuzk_fr32_padder_t *p);
size_t cuzk_fr32_padder_update(cuzk_fr32_padder_t *p, uint8_t *out, const uint8_t *in, size_t n);
size_t cuzk_fr32_padder_finish(cuzk_fr32_padder_t *p, uint8_t *out);

/* Clears the top 2 bits of byte 31 (Sha256Domain::trim_to_fr32, bytes_into_fr_repr_safe): any 32
 * bytes become a value < 2^254 < r. */
static inline void cuzk_fr32_trim(uint8_t b[32]) { b[31] &= 0x3f; }

/* 32 little-endian bytes -> Fr (Montgomery). CUZK_ERR_NOT_CANONICAL when the value is >= r. */
cuzk_status cuzk_fr32_to_fr(cuzk_fr_t *out, const uint8_t in[32], cuzk_err_t *err);
/* Fr (Montgomery) -> 32 little-endian canonical bytes (blstrs Scalar::to_repr). */
void cuzk_fr32_from_fr(uint8_t out[32], const cuzk_fr_t *in);
/* True when the 32 LE bytes are a canonical field element (< r). */
bool cuzk_fr32_is_canonical(const uint8_t in[32]);

#endif
