/* Line reader for the @noble/curves vectors and the scalar-multiple helper the tests share. */
#include "test_noble_common.h"
#include <stdlib.h>
#include <string.h>
#include "test_util.h"

long noble_for_each(void (*fn)(const noble_record *rec, void *ctx), void *ctx)
{
    size_t len;
    char *text = test_read_file(NOBLE_VECTORS, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s (tests run from the repository root)\n", NOBLE_VECTORS);
        test_failures++;
        return -1;
    }
    long count = 0;
    int lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        if (*line == '#' || *line == 0)
            continue;
        noble_record rec = {.n = 0, .line = lineno};
        char *save = NULL;
        for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (rec.n == NOBLE_MAX_TOKENS) {
                fprintf(stderr, "%s:%d: too many fields\n", NOBLE_VECTORS, lineno);
                test_failures++;
                break;
            }
            rec.tok[rec.n++] = t;
        }
        count++;
        fn(&rec, ctx);
    }
    free(text);
    return count;
}

bool noble_hex(const noble_record *rec, int i, uint8_t *out, size_t len)
{
    if (i < rec->n && test_hex_decode(rec->tok[i], out, len) == (long)len)
        return true;
    fprintf(stderr, "%s:%d: field %d is not %zu bytes of hex\n", NOBLE_VECTORS, rec->line, i, len);
    test_failures++;
    return false;
}

static void scalar_from_be(cuzk_scalar_t *s, const uint8_t be[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++)
            w = w << 8 | be[32 - 8 * (i + 1) + j];
        s->l[i] = w;
    }
}

void noble_g1_mul_gen(g1_aff *r, const uint8_t k_be[32])
{
    cuzk_scalar_t k;
    g1_aff g;
    g1_jac j;
    scalar_from_be(&k, k_be);
    g1_generator(&g);
    g1_jac_from_aff(&j, &g);
    g1_jac_mul(&j, &j, &k);
    g1_jac_to_aff(r, &j);
}

void noble_g2_mul_gen(g2_aff *r, const uint8_t k_be[32])
{
    cuzk_scalar_t k;
    g2_aff g;
    g2_jac j;
    scalar_from_be(&k, k_be);
    g2_generator(&g);
    g2_jac_from_aff(&j, &g);
    g2_jac_mul(&j, &j, &k);
    g2_jac_to_aff(r, &j);
}
