/* MultiEq (bellperson gadgets/multieq.rs): packs many small equalities lhs = rhs (each known to fit
 * in num_bits bits) into one constraint (Σ 2^s_k·lhs_k)·ONE = Σ 2^s_k·rhs_k, flushed before the
 * packed width would reach Fr::CAPACITY (254) bits and at the end (cuzk_multieq_finish, Rust's
 * Drop). Where the flushes fall is part of the R1CS: SHA-256's additions share one per block. */
#ifndef CUZK_GADGETS_MULTIEQ_H
#define CUZK_GADGETS_MULTIEQ_H
#include <stddef.h>
#include "cuzk/cs.h"

typedef struct {
    cuzk_cs_t *cs;
    size_t ops;       /* constraints emitted so far */
    size_t bits_used; /* width packed into lhs / rhs */
    cuzk_lc_t lhs, rhs;
} cuzk_multieq_t;

void cuzk_multieq_init(cuzk_multieq_t *me, cuzk_cs_t *cs);
/* Queues lhs = rhs, num_bits wide (num_bits < 254); emits the pending constraint first when the
 * width would reach 254. lhs and rhs are read, not consumed. */
void cuzk_multieq_enforce_equal(cuzk_multieq_t *me, size_t num_bits, const cuzk_lc_t *lhs, const cuzk_lc_t *rhs);
/* The same queueing split in two for callers that build the LCs themselves (UInt32::addmany):
 * the factor 2^shift the next equality of num_bits will be packed with (0 when it will flush
 * first), and the queueing of lhs = rhs whose terms already carry that factor (flushing first when
 * needed, exactly as cuzk_multieq_enforce_equal would). The result is the same system. */
size_t cuzk_multieq_next_shift(const cuzk_multieq_t *me, size_t num_bits);
void cuzk_multieq_enforce_equal_shifted(cuzk_multieq_t *me, size_t num_bits, const cuzk_lc_t *lhs,
                                        const cuzk_lc_t *rhs);
/* Emits the pending constraint if any width is queued, and releases the LCs. */
void cuzk_multieq_finish(cuzk_multieq_t *me);

#endif
