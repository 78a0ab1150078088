/* Internal pieces of the development setup shared by the in-memory setup (setup.c) and the streaming
 * one (setup_stream.c): the toxic waste, the Lagrange basis at τ, and the in-memory setup with a given
 * toxic waste (tests compare the two setups on the same waste). */
#ifndef CUZK_GROTH16_SETUP_INTERNAL_H
#define CUZK_GROTH16_SETUP_INTERNAL_H
#include <stddef.h>
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "ff/fr.h"

/* The secrets of a setup: whoever knows them can forge proofs. Wipe with g16_wipe after use. */
typedef struct {
    fr tau, alpha, beta, gamma, delta;
} g16_toxic_waste;

/* Fresh non-zero τ, α, β, γ, δ from getrandom, τ outside the size-m domain (τ^m ≠ 1). Errors of
 * g16_random_fr (CUZK_ERR_IO when getrandom fails). */
cuzk_status g16_toxic_waste_draw(g16_toxic_waste *tw, size_t m, cuzk_err_t *err);

/* out[i] = L_j(τ) = (τ^m − 1)/m · ω^j/(τ − ω^j), j = first + i, for the size-2^log_m domain (τ not in it);
 * n may be 0. CUZK_ERR_UNSUPPORTED for a domain larger than the NTT's largest. The values give τ
 * away: wipe them after use. */
cuzk_status g16_lagrange_range(fr *out, size_t first, size_t n, unsigned log_m, const fr *tau);

/* The verifying key's fixed points: α, β, δ in G1 and γ, β, δ in G2 (ic is the caller's). Errors of the
 * fixed-base products. */
cuzk_status g16_vk_points(cuzk_groth16_vk_t *vk, const g16_toxic_waste *tw);

/* cuzk_groth16_setup with the toxic waste given (NULL: drawn), for tests that build one key two ways. */
cuzk_status g16_setup_with_waste(cuzk_groth16_pk_t *pk, const cuzk_r1cs_t *cs, const g16_toxic_waste *waste,
                                 int threads, cuzk_err_t *err);

#endif
