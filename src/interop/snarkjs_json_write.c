/* snarkjs's JSON files, written byte for byte as its CLI writes them: bfj with a one-space indent,
 * which puts every array element and object member on its own line (empty containers too: "[\n]")
 * and ends without a newline. Points are projective decimal strings as ffjavascript's toObject
 * gives them; vk_alphabeta_12 is e(α, β) in the same Fp12 ⊃ Fp6 ⊃ Fp2 nesting as ours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/file.h"
#include "cuzk/interop.h"
#include "ec/pairing.h"
#include "interop/interop_internal.h"

#define JW_MAX_DEPTH 8

typedef struct {
    char *buf;
    size_t len, cap;
    bool oom;
    int depth;
    bool first[JW_MAX_DEPTH];
    bool after_key;
} jw_t;

static void jw_raw(jw_t *w, const char *s, size_t n)
{
    if (w->oom)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *b = realloc(w->buf, cap);
        if (!b) {
            w->oom = true;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void jw_newline(jw_t *w)
{
    jw_raw(w, "\n", 1);
    for (int i = 0; i < w->depth; i++)
        jw_raw(w, " ", 1);
}

/* Whatever precedes a value: nothing after a key or at the top, else the separator and indent. */
static void jw_before_value(jw_t *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (!w->first[w->depth])
        jw_raw(w, ",", 1);
    w->first[w->depth] = false;
    jw_newline(w);
}

static void jw_open(jw_t *w, char c)
{
    jw_before_value(w);
    jw_raw(w, &c, 1);
    w->depth++;
    w->first[w->depth] = true;
}

static void jw_close(jw_t *w, char c)
{
    w->depth--;
    jw_newline(w);
    jw_raw(w, &c, 1);
}

/* Keys and strings here are ours (field names, decimal digits): nothing needs escaping. */
static void jw_key(jw_t *w, const char *k)
{
    jw_before_value(w);
    jw_raw(w, "\"", 1);
    jw_raw(w, k, strlen(k));
    jw_raw(w, "\": ", 3);
    w->after_key = true;
}

static void jw_str(jw_t *w, const char *s)
{
    jw_before_value(w);
    jw_raw(w, "\"", 1);
    jw_raw(w, s, strlen(s));
    jw_raw(w, "\"", 1);
}

static void jw_uint(jw_t *w, unsigned long long v)
{
    char b[32];
    int n = snprintf(b, sizeof b, "%llu", v);
    jw_before_value(w);
    jw_raw(w, b, (size_t)n);
}

static void jw_fp(jw_t *w, const fp *a)
{
    uint64_t l[FP_LIMBS];
    char b[20 * FP_LIMBS + 1];
    fp_from_mont(l, a);
    interop_dec_from_limbs(b, l, FP_LIMBS);
    jw_str(w, b);
}

static void jw_fp2(jw_t *w, const fp2 *a)
{
    jw_open(w, '[');
    jw_fp(w, &a->c0);
    jw_fp(w, &a->c1);
    jw_close(w, ']');
}

static void jw_g1(jw_t *w, const g1_aff *p)
{
    jw_open(w, '[');
    if (g1_aff_is_inf(p)) {
        jw_str(w, "0");
        jw_str(w, "1");
        jw_str(w, "0");
    } else {
        jw_fp(w, &p->x);
        jw_fp(w, &p->y);
        jw_str(w, "1");
    }
    jw_close(w, ']');
}

static void jw_g2(jw_t *w, const g2_aff *p)
{
    static const fp2 zero = {{{0}}, {{0}}};
    fp2 one = {FP_ONE, FP_ZERO};
    bool inf = g2_aff_is_inf(p);
    jw_open(w, '[');
    jw_fp2(w, inf ? &zero : &p->x);
    jw_fp2(w, inf ? &one : &p->y);
    jw_fp2(w, inf ? &zero : &one);
    jw_close(w, ']');
}

static void jw_fp12(jw_t *w, const fp12 *a)
{
    const fp6 *halves[2] = {&a->c0, &a->c1};
    jw_open(w, '[');
    for (int i = 0; i < 2; i++) {
        jw_open(w, '[');
        jw_fp2(w, &halves[i]->c0);
        jw_fp2(w, &halves[i]->c1);
        jw_fp2(w, &halves[i]->c2);
        jw_close(w, ']');
    }
    jw_close(w, ']');
}

static char *jw_finish(jw_t *w)
{
    if (w->oom || !w->buf) {
        free(w->buf);
        return NULL;
    }
    return w->buf;
}

char *cuzk_snarkjs_proof_json(const cuzk_groth16_proof_t *proof)
{
    jw_t w = {0};
    jw_open(&w, '{');
    jw_key(&w, "pi_a");
    jw_g1(&w, &proof->a);
    jw_key(&w, "pi_b");
    jw_g2(&w, &proof->b);
    jw_key(&w, "pi_c");
    jw_g1(&w, &proof->c);
    jw_key(&w, "protocol");
    jw_str(&w, "groth16");
    jw_key(&w, "curve");
    jw_str(&w, "bls12381");
    jw_close(&w, '}');
    return jw_finish(&w);
}

char *cuzk_snarkjs_public_json(const cuzk_scalar_t *inputs, size_t n)
{
    jw_t w = {0};
    char b[20 * FR_LIMBS + 1];
    jw_open(&w, '[');
    for (size_t i = 0; i < n; i++) {
        interop_dec_from_limbs(b, inputs[i].l, FR_LIMBS);
        jw_str(&w, b);
    }
    jw_close(&w, ']');
    return jw_finish(&w);
}

char *cuzk_snarkjs_vk_json(const cuzk_groth16_vk_t *vk)
{
    if (!vk->ic || vk->ic_len == 0)
        return NULL;
    fp12 ab;
    pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    jw_t w = {0};
    jw_open(&w, '{');
    jw_key(&w, "protocol");
    jw_str(&w, "groth16");
    jw_key(&w, "curve");
    jw_str(&w, "bls12381");
    jw_key(&w, "nPublic");
    jw_uint(&w, vk->ic_len - 1);
    jw_key(&w, "vk_alpha_1");
    jw_g1(&w, &vk->alpha_g1);
    jw_key(&w, "vk_beta_2");
    jw_g2(&w, &vk->beta_g2);
    jw_key(&w, "vk_gamma_2");
    jw_g2(&w, &vk->gamma_g2);
    jw_key(&w, "vk_delta_2");
    jw_g2(&w, &vk->delta_g2);
    jw_key(&w, "vk_alphabeta_12");
    jw_fp12(&w, &ab);
    jw_key(&w, "IC");
    jw_open(&w, '[');
    for (size_t i = 0; i < vk->ic_len; i++)
        jw_g1(&w, &vk->ic[i]);
    jw_close(&w, ']');
    jw_close(&w, '}');
    return jw_finish(&w);
}

/* The JSON texts through the one atomic writer: every file is written and synced before the first
 * rename. A NULL content is a text that could not be made (out of memory). */
cuzk_status cuzk_interop_write_files(const char *const *paths, const char *const *contents, size_t n,
                                     cuzk_err_t *err)
{
    size_t *lens = calloc(n ? n : 1, sizeof *lens);
    if (!lens)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!contents[i]) {
            free(lens);
            return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: no content (out of memory)", paths[i]);
        }
        lens[i] = strlen(contents[i]);
    }
    cuzk_status s = cuzk_atomic_write_files(n, paths, (const void *const *)contents, lens, err);
    free(lens);
    return s;
}
