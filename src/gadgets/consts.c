/* The tables of ±2^k behind cuzk_gadget_pow2: filled once, on first use, by doubling. */
#include <pthread.h>
#include "gadgets/consts.h"

static fr pow2_table[256], neg_pow2_table[256];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static void pow2_build(void)
{
    pow2_table[0] = FR_ONE;
    for (unsigned k = 1; k < 256; k++)
        fr_dbl(&pow2_table[k], &pow2_table[k - 1]);
    for (unsigned k = 0; k < 256; k++)
        fr_neg(&neg_pow2_table[k], &pow2_table[k]);
}

const fr *cuzk_gadget_pow2_table(void)
{
    pthread_once(&pow2_once, pow2_build);
    return pow2_table;
}

const fr *cuzk_gadget_neg_pow2_table(void)
{
    pthread_once(&pow2_once, pow2_build);
    return neg_pow2_table;
}

const fr *cuzk_gadget_pow2(unsigned k) { return &cuzk_gadget_pow2_table()[k & 255]; }
