/* iden3's binary container (the .r1cs, .wtns, .zkey and .ptau files): 4-byte magic, u32 version,
 * u32 section count, then sections of (u32 type, u64 size, bytes), all little-endian. The file is
 * read whole into read-only memory (not mapped: a file that shrinks while in use must not fault its
 * readers) and every section is checked against the file size before anyone reads it. */
#ifndef CUZK_INTEROP_BINFILE_H
#define CUZK_INTEROP_BINFILE_H
#include <stddef.h>
#include <stdint.h>
#include "cuzk/status.h"

/* Section types above this are skipped (bounds still checked); none of our formats use them. */
#define BINFILE_MAX_TYPE 16

typedef struct {
    const uint8_t *data;   /* the whole file */
    size_t size;
    uint32_t version;
    const char *path;
    const char *kind;      /* "r1cs", "wtns", "zkey": for messages */
    uint64_t off[BINFILE_MAX_TYPE + 1];   /* payload offset of the first section of each type */
    uint64_t len[BINFILE_MAX_TYPE + 1];
    uint32_t count[BINFILE_MAX_TYPE + 1];
} binfile_t;

/* Reads path and parses the section table. kind is the 4-character magic. CUZK_ERR_IO when the file
 * cannot be read or shrinks while it is read ("changed size while in use"), CUZK_ERR_FORMAT for a bad
 * header or table, CUZK_ERR_NO_MEMORY. */
cuzk_status binfile_open(binfile_t *bf, const char *path, const char *kind, uint32_t max_version,
                         cuzk_err_t *err);
void binfile_close(binfile_t *bf);
/* Says the file is about to be read in full: nothing to do now that binfile_open reads it whole (kept
 * for the readers that say so). */
void binfile_populate(const binfile_t *bf);

/* The payload of the unique section `type`: FORMAT error when it is missing or repeated. */
cuzk_status binfile_section(const binfile_t *bf, uint32_t type, const uint8_t **p, uint64_t *len,
                            cuzk_err_t *err);

static inline uint32_t binfile_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t binfile_u64(const uint8_t *p)
{
    return (uint64_t)binfile_u32(p) | (uint64_t)binfile_u32(p + 4) << 32;
}

/* Little-endian bytes -> n 64-bit limbs. */
static inline void binfile_limbs(uint64_t *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = binfile_u64(p + 8 * i);
}

#endif
