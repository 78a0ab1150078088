/* Shared pieces of the parameter-file and proof fuzz targets: a checked abort, what the parameter
 * decoders must answer for one point (worked out from the curve layer's own decoders plus the rules
 * of include/cuzk/params.h), tables of valid encodings, and seed writing: when CUZK_FUZZ_SEEDS names
 * a directory, a target writes its seed inputs there and exits (`make fuzz` does this first). */
#ifndef CUZK_FUZZ_UTIL_H
#define CUZK_FUZZ_UTIL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/curve.h"
#include "cuzk/params.h"
#include "ec/ec.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #c);               \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static inline uint32_t fz_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void fz_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static inline bool fz_all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* The checked decoders' answers, remembered by encoding: most inputs repeat the verifying key of the
 * input they were mutated from, and a subgroup check costs as much as the rest of a run. */
typedef struct {
    uint8_t enc[192];
    size_t len;
    cuzk_status st;
} fz_memo_t;

static inline cuzk_status fz_checked(const uint8_t *in, size_t len)
{
    static fz_memo_t memo[4096];
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ in[i]) * 0x100000001b3ULL;
    fz_memo_t *m = &memo[(h ^ h >> 32) & 4095];
    if (m->len == len && memcmp(m->enc, in, len) == 0)
        return m->st;
    cuzk_g1_affine_t p1;
    cuzk_g2_affine_t p2;
    m->st = len == 96 ? cuzk_g1_deserialize(&p1, in) : cuzk_g2_deserialize(&p2, in);
    memcpy(m->enc, in, len);
    m->len = len;
    return m->st;
}

/* The status a parameter-file decoder must give one uncompressed G1 point at `level`
 * (CUZK_ERR_FORMAT for the point at infinity where it is not allowed). */
static inline cuzk_status fz_ref_g1(const uint8_t in[96], cuzk_params_check level, bool allow_inf)
{
    cuzk_g1_affine_t p;
    cuzk_status ru = cuzk_g1_deserialize_unchecked(&p, in);
    if (ru == CUZK_OK && g1_aff_is_inf(&p))
        return allow_inf ? CUZK_OK : CUZK_ERR_FORMAT;
    if (ru == CUZK_OK && fz_all_zero(in, 48))
        return CUZK_ERR_NOT_IN_SUBGROUP; /* (0, ±2): blst's rule */
    switch (level) {
    case CUZK_PARAMS_CHECK_SUBGROUP:
        return fz_checked(in, 96);
    case CUZK_PARAMS_CHECK_CURVE:
        return ru;
    default: /* no curve equation; x = 0 stays rejected */
        return ru == CUZK_ERR_NOT_ON_CURVE && !fz_all_zero(in, 48) ? CUZK_OK : ru;
    }
}

static inline cuzk_status fz_ref_g2(const uint8_t in[192], cuzk_params_check level, bool allow_inf)
{
    cuzk_g2_affine_t p;
    cuzk_status ru = cuzk_g2_deserialize_unchecked(&p, in);
    if (ru == CUZK_OK && g2_aff_is_inf(&p))
        return allow_inf ? CUZK_OK : CUZK_ERR_FORMAT;
    switch (level) {
    case CUZK_PARAMS_CHECK_SUBGROUP:
        return fz_checked(in, 192);
    case CUZK_PARAMS_CHECK_CURVE:
        return ru;
    default: /* no curve equation; all zeros would read back as infinity */
        return ru == CUZK_ERR_NOT_ON_CURVE && !fz_all_zero(in, 192) ? CUZK_OK : ru;
    }
}

/* A decoded point against the bytes it came from, and on the curve from the CURVE level up (that it
 * is in the subgroup follows from the reference having accepted its bytes). */
static inline void fz_require_g1(const cuzk_g1_affine_t *p, const uint8_t in[96], cuzk_params_check level)
{
    uint8_t back[96];
    cuzk_g1_serialize(back, p);
    REQUIRE(memcmp(back, in, 96) == 0);
    if (level >= CUZK_PARAMS_CHECK_CURVE)
        REQUIRE(g1_aff_on_curve(p));
}

static inline void fz_require_g2(const cuzk_g2_affine_t *p, const uint8_t in[192], cuzk_params_check level)
{
    uint8_t back[192];
    cuzk_g2_serialize(back, p);
    REQUIRE(memcmp(back, in, 192) == 0);
    if (level >= CUZK_PARAMS_CHECK_CURVE)
        REQUIRE(g2_aff_on_curve(p));
}

/* Valid encodings: k·G for k = 1..FZ_TABLE, uncompressed and compressed. */
#define FZ_TABLE 8
static uint8_t fz_g1_enc[FZ_TABLE][96], fz_g2_enc[FZ_TABLE][192];
static uint8_t fz_g1_comp[FZ_TABLE][48], fz_g2_comp[FZ_TABLE][96];

static inline void fz_tables_init(void)
{
    g1_aff g1, a1;
    g2_aff g2, a2;
    g1_jac j1;
    g2_jac j2;
    g1_generator(&g1);
    g2_generator(&g2);
    g1_jac_from_aff(&j1, &g1);
    g2_jac_from_aff(&j2, &g2);
    for (int k = 0; k < FZ_TABLE; k++) {
        g1_jac_to_aff(&a1, &j1);
        g2_jac_to_aff(&a2, &j2);
        cuzk_g1_serialize(fz_g1_enc[k], &a1);
        cuzk_g2_serialize(fz_g2_enc[k], &a2);
        cuzk_g1_compress(fz_g1_comp[k], &a1);
        cuzk_g2_compress(fz_g2_comp[k], &a2);
        g1_jac_add_aff(&j1, &j1, &g1);
        g2_jac_add_aff(&j2, &j2, &g2);
    }
}

/* Writes one seed file <dir>/<name>. */
static inline void fz_seed(const char *dir, const char *name, const uint8_t *buf, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(buf, 1, len, f) != len) || fclose(f) != 0) {
        fprintf(stderr, "cannot write seed %s\n", path);
        exit(1);
    }
}

#endif
