/* Field facts the bit gadgets depend on: Fr::NUM_BITS and Fr::CAPACITY (they set how many bits
 * one field element packs and where MultiEq flushes), and the powers of two every packing LC uses,
 * computed once rather than by repeated doubling (or multiplication) in each gadget. */
#ifndef CUZK_GADGETS_CONSTS_H
#define CUZK_GADGETS_CONSTS_H
#include "ff/fr.h"

#define CUZK_FR_NUM_BITS 255 /* bits of the modulus */
#define CUZK_FR_CAPACITY 254 /* bits every value below 2^CAPACITY fits in: NUM_BITS − 1 */

/* 2^k in Montgomery form, 0 <= k < 256 (k >= 255 reduced mod r). Thread-safe. */
const fr *cuzk_gadget_pow2(unsigned k);
/* The tables behind it: t[k] = 2^k and −2^k for 0 <= k < 256. Thread-safe. */
const fr *cuzk_gadget_pow2_table(void);
const fr *cuzk_gadget_neg_pow2_table(void);

#endif
