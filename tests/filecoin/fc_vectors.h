/* Readers for the checked-in Filecoin vectors (tests/vectors/filecoin): parent tables, the parent cache
 * manifest and the polka-storage public inputs. Test-only functions, static so each test program gets its
 * own copy. */
#ifndef CUZK_TESTS_FC_VECTORS_H
#define CUZK_TESTS_FC_VECTORS_H
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

#define FC_VECTORS "tests/vectors/filecoin/"

/* The 32 bytes spelled by the first 64 hex characters at p; 1 on success. */
static inline int fc_hex32_at(uint8_t out[32], const char *p)
{
    char buf[65];
    if (strlen(p) < 64)
        return 0;
    memcpy(buf, p, 64);
    buf[64] = 0;
    return test_hex_decode(buf, out, 32) == 32;
}

/* A 2KiB parent table: 64 rows of 14 parents, and the cache digest from the header line. */
typedef struct {
    uint32_t parents[64][14];
    uint8_t digest[32];
} fc_parent_table;

static inline int fc_read_parent_table(fc_parent_table *t, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, FC_VECTORS "%s", name);
    size_t len;
    char *text = test_read_file(path, &len);
    if (!text)
        return 0;
    int rows = 0, ok = 1;
    const char *d = strstr(text, "sha256(parent cache)=");
    if (!d || !fc_hex32_at(t->digest, d + strlen("sha256(parent cache)=")))
        ok = 0;
    for (char *line = strtok(text, "\n"); line && ok; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        unsigned node, v[14];
        if (sscanf(line, "%u : %u %u %u %u %u %u | %u %u %u %u %u %u %u %u", &node, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13]) != 15 ||
            node != (unsigned)rows || rows >= 64) {
            ok = 0;
            break;
        }
        for (int i = 0; i < 14; i++)
            t->parents[rows][i] = v[i];
        rows++;
    }
    free(text);
    return ok && rows == 64;
}

/* Entry `name` of parent_cache.json (text in json): its sector size and digest; 1 when found. The
 * manifest is a flat object of {"sector_size": N, "digest": "hex"} records. */
static inline int fc_manifest_entry(const char *json, const char *name, uint64_t *sector_size,
                                    uint8_t digest[32])
{
    char key[128];
    snprintf(key, sizeof key, "\"%s\"", name);
    const char *p = strstr(json, key);
    if (!p)
        return 0;
    const char *end = strchr(p, '}');
    const char *s = strstr(p, "\"sector_size\":"), *d = strstr(p, "\"digest\":");
    if (!end || !s || !d || s > end || d > end)
        return 0;
    *sector_size = strtoull(s + strlen("\"sector_size\":"), NULL, 10);
    d = strchr(d + strlen("\"digest\":"), '"');
    return d && fc_hex32_at(digest, d + 1);
}

#endif
