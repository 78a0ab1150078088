/* Internal: operations that Fp, Fr and Fp2 share word for word apart from the type (windowed
 * exponentiation and Montgomery's batch inversion), written once as macros. */
#ifndef CUZK_FF_FIELD_TMPL_H
#define CUZK_FF_FIELD_TMPL_H
#include <stddef.h>
#include <stdint.h>

/* NAME(r, a, e, e_limbs): left-to-right exponentiation with a fixed 4-bit window
 * (about 1 multiplication per 4 exponent bits on top of the squarings). Variable time. */
#define FF_DEFINE_POW(NAME, T, MUL, SQR, ONE)                                                    \
    void NAME(T *r, const T *a, const uint64_t *e, size_t e_limbs)                               \
    {                                                                                            \
        T tab[16], acc = ONE;                                                                    \
        int started = 0;                                                                         \
        tab[0] = ONE;                                                                            \
        tab[1] = *a;                                                                             \
        for (int i = 2; i < 16; i++)                                                             \
            MUL(&tab[i], &tab[i - 1], a);                                                        \
        for (size_t i = e_limbs; i-- > 0;)                                                       \
            for (int s = 60; s >= 0; s -= 4) {                                                   \
                unsigned w = (unsigned)(e[i] >> s) & 15;                                         \
                if (started)                                                                     \
                    for (int k = 0; k < 4; k++)                                                  \
                        SQR(&acc, &acc);                                                         \
                if (w) {                                                                         \
                    if (started)                                                                 \
                        MUL(&acc, &acc, &tab[w]);                                                \
                    else                                                                         \
                        acc = tab[w], started = 1;                                               \
                }                                                                                \
            }                                                                                    \
        *r = acc;                                                                                \
    }

/* NAME(out, in, n): Montgomery's trick, one inversion for n elements; zeros map to zero. When
 * out aliases in, the prefix products go to a stack buffer in chunks of FF_BATCH_CHUNK. */
#define FF_BATCH_CHUNK 256
#define FF_DEFINE_BATCH_INV(NAME, T, MUL, INV, IS_ZERO, ONE, ZERO)                               \
    static void NAME##_sep(T *out, const T *in, size_t n)                                        \
    {                                                                                            \
        T acc = ONE, inv, t;                                                                     \
        for (size_t i = 0; i < n; i++) {                                                         \
            if (IS_ZERO(&in[i])) {                                                               \
                out[i] = ZERO;                                                                   \
            } else {                                                                             \
                out[i] = acc;                                                                    \
                MUL(&acc, &acc, &in[i]);                                                         \
            }                                                                                    \
        }                                                                                        \
        INV(&inv, &acc);                                                                         \
        for (size_t i = n; i-- > 0;) {                                                           \
            if (!IS_ZERO(&in[i])) {                                                              \
                MUL(&t, &inv, &out[i]);                                                          \
                MUL(&inv, &inv, &in[i]);                                                         \
                out[i] = t;                                                                      \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    void NAME(T *out, const T *in, size_t n)                                                     \
    {                                                                                            \
        if (out != in) {                                                                         \
            NAME##_sep(out, in, n);                                                              \
            return;                                                                              \
        }                                                                                        \
        T tmp[FF_BATCH_CHUNK];                                                                   \
        for (size_t i = 0; i < n; i += FF_BATCH_CHUNK) {                                         \
            size_t k = n - i < FF_BATCH_CHUNK ? n - i : FF_BATCH_CHUNK;                          \
            NAME##_sep(tmp, in + i, k);                                                          \
            for (size_t j = 0; j < k; j++)                                                       \
                out[i + j] = tmp[j];                                                             \
        }                                                                                        \
    }

#endif
