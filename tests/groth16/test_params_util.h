/* Helpers shared by the parameter-file tests: a private temporary directory, random points and keys,
 * and the bellperson byte layout assembled by hand (offsets and u32 BE lengths written out here, the
 * points encoded by the curve layer's own serializers), independent of the code under test. */
#ifndef CUZK_TEST_PARAMS_UTIL_H
#define CUZK_TEST_PARAMS_UTIL_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/groth16.h"
#include "ec/ec.h"
#include "test_util.h"

static char tp_dir[512];

static inline void tp_init(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = P_tmpdir;
    snprintf(tp_dir, sizeof tp_dir, "%s/cuzk-test-params-XXXXXX", base);
    if (!mkdtemp(tp_dir)) {
        perror("mkdtemp");
        exit(2);
    }
}

/* A path inside the test directory (one of 8 rotating buffers). */
static inline const char *tp_path(const char *name)
{
    static char bufs[8][1024];
    static int next;
    char *b = bufs[next++ & 7];
    snprintf(b, sizeof bufs[0], "%s/%s", tp_dir, name);
    return b;
}

/* Number of files in the test directory whose name contains `part`. */
static inline int tp_count(const char *part)
{
    DIR *d = opendir(tp_dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && strstr(e->d_name, part))
            n++;
    if (d)
        closedir(d);
    return n;
}

static inline void tp_cleanup(void)
{
    DIR *d = opendir(tp_dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            unlink(tp_path(e->d_name));
    if (d)
        closedir(d);
    rmdir(tp_dir);
}

static inline int tp_write_file(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = len ? fwrite(buf, 1, len, f) : 0;
    return fclose(f) == 0 && w == len ? 0 : -1;
}

static inline void tp_rand_g1(g1_aff *r)
{
    g1_aff gen;
    g1_jac g, t;
    cuzk_scalar_t k;
    g1_generator(&gen);
    g1_jac_from_aff(&g, &gen);
    test_rand_scalar(&k);
    g1_jac_mul(&t, &g, &k);
    g1_jac_to_aff(r, &t);
}

static inline void tp_rand_g2(g2_aff *r)
{
    g2_aff gen;
    g2_jac g, t;
    cuzk_scalar_t k;
    g2_generator(&gen);
    g2_jac_from_aff(&g, &gen);
    test_rand_scalar(&k);
    g2_jac_mul(&t, &g, &k);
    g2_jac_to_aff(r, &t);
}

static inline void *tp_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* A key of the given lengths filled with random subgroup points (free with cuzk_groth16_pk_free). */
static inline void tp_rand_key(cuzk_groth16_pk_t *pk, size_t ic, size_t h, size_t l, size_t a, size_t b_g1,
                        size_t b_g2)
{
    memset(pk, 0, sizeof *pk);
    tp_rand_g1(&pk->vk.alpha_g1);
    tp_rand_g1(&pk->vk.beta_g1);
    tp_rand_g2(&pk->vk.beta_g2);
    tp_rand_g2(&pk->vk.gamma_g2);
    tp_rand_g1(&pk->vk.delta_g1);
    tp_rand_g2(&pk->vk.delta_g2);
    pk->vk.ic_len = ic;
    pk->h_len = h, pk->l_len = l, pk->a_len = a, pk->b_g1_len = b_g1, pk->b_g2_len = b_g2;
    pk->vk.ic = ic ? tp_xmalloc(ic * sizeof(g1_aff)) : NULL;
    pk->h = h ? tp_xmalloc(h * sizeof(g1_aff)) : NULL;
    pk->l = l ? tp_xmalloc(l * sizeof(g1_aff)) : NULL;
    pk->a = a ? tp_xmalloc(a * sizeof(g1_aff)) : NULL;
    pk->b_g1 = b_g1 ? tp_xmalloc(b_g1 * sizeof(g1_aff)) : NULL;
    pk->b_g2 = b_g2 ? tp_xmalloc(b_g2 * sizeof(g2_aff)) : NULL;
    for (size_t i = 0; i < ic; i++)
        tp_rand_g1(&pk->vk.ic[i]);
    for (size_t i = 0; i < h; i++)
        tp_rand_g1(&pk->h[i]);
    for (size_t i = 0; i < l; i++)
        tp_rand_g1(&pk->l[i]);
    for (size_t i = 0; i < a; i++)
        tp_rand_g1(&pk->a[i]);
    for (size_t i = 0; i < b_g1; i++)
        tp_rand_g1(&pk->b_g1[i]);
    for (size_t i = 0; i < b_g2; i++)
        tp_rand_g2(&pk->b_g2[i]);
}

static inline void tp_put_u32(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* Byte offsets of one key's file, worked out from the layout table (docs/FORMATS.md). */
typedef struct {
    size_t ic;          /* first ic point: 868 */
    size_t len_at[5];   /* the u32 length field of h, l, a, b_g1, b_g2 */
    size_t total;
} tp_layout;

static inline void tp_layout_of(tp_layout *t, const cuzk_groth16_pk_t *pk)
{
    t->ic = 3 * 96 + 3 * 192 + 4;
    size_t n[5] = {pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len};
    size_t off = t->ic + 96 * pk->vk.ic_len;
    for (int s = 0; s < 5; s++) {
        t->len_at[s] = off;
        off += 4 + (s == 4 ? 192 : 96) * n[s];
    }
    t->total = off;
}

/* The .vk bytes (vk_only) or the .params bytes of pk; returns the length. buf must hold it. */
static inline size_t tp_assemble(uint8_t *buf, const cuzk_groth16_pk_t *pk, int vk_only)
{
    const cuzk_groth16_vk_t *vk = &pk->vk;
    cuzk_g1_serialize(buf + 0, &vk->alpha_g1);
    cuzk_g1_serialize(buf + 96, &vk->beta_g1);
    cuzk_g2_serialize(buf + 192, &vk->beta_g2);
    cuzk_g2_serialize(buf + 384, &vk->gamma_g2);
    cuzk_g1_serialize(buf + 576, &vk->delta_g1);
    cuzk_g2_serialize(buf + 672, &vk->delta_g2);
    tp_put_u32(buf + 864, vk->ic_len);
    for (size_t i = 0; i < vk->ic_len; i++)
        cuzk_g1_serialize(buf + 868 + 96 * i, &vk->ic[i]);
    if (vk_only)
        return 868 + 96 * vk->ic_len;
    tp_layout t;
    tp_layout_of(&t, pk);
    const g1_aff *g1s[4] = {pk->h, pk->l, pk->a, pk->b_g1};
    size_t n[5] = {pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len};
    for (int s = 0; s < 5; s++) {
        tp_put_u32(buf + t.len_at[s], n[s]);
        for (size_t i = 0; i < n[s]; i++) {
            if (s < 4)
                cuzk_g1_serialize(buf + t.len_at[s] + 4 + 96 * i, &g1s[s][i]);
            else
                cuzk_g2_serialize(buf + t.len_at[s] + 4 + 192 * i, &pk->b_g2[i]);
        }
    }
    return t.total;
}

static inline int tp_g1_arr_eq(const g1_aff *a, const g1_aff *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!g1_aff_eq(&a[i], &b[i]))
            return 0;
    return 1;
}

static inline int tp_g2_arr_eq(const g2_aff *a, const g2_aff *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!g2_aff_eq(&a[i], &b[i]))
            return 0;
    return 1;
}

static inline int tp_vk_eq(const cuzk_groth16_vk_t *a, const cuzk_groth16_vk_t *b)
{
    return g1_aff_eq(&a->alpha_g1, &b->alpha_g1) && g1_aff_eq(&a->beta_g1, &b->beta_g1) &&
           g2_aff_eq(&a->beta_g2, &b->beta_g2) && g2_aff_eq(&a->gamma_g2, &b->gamma_g2) &&
           g1_aff_eq(&a->delta_g1, &b->delta_g1) && g2_aff_eq(&a->delta_g2, &b->delta_g2) &&
           a->ic_len == b->ic_len && tp_g1_arr_eq(a->ic, b->ic, a->ic_len);
}

static inline int tp_pk_eq(const cuzk_groth16_pk_t *a, const cuzk_groth16_pk_t *b)
{
    return tp_vk_eq(&a->vk, &b->vk) && a->h_len == b->h_len && a->l_len == b->l_len &&
           a->a_len == b->a_len && a->b_g1_len == b->b_g1_len && a->b_g2_len == b->b_g2_len &&
           tp_g1_arr_eq(a->h, b->h, a->h_len) && tp_g1_arr_eq(a->l, b->l, a->l_len) &&
           tp_g1_arr_eq(a->a, b->a, a->a_len) && tp_g1_arr_eq(a->b_g1, b->b_g1, a->b_g1_len) &&
           tp_g2_arr_eq(a->b_g2, b->b_g2, a->b_g2_len);
}

#endif
