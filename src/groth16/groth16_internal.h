/* Internal helpers shared by the Groth16 prover, verifier and setup. */
#ifndef CUZK_GROTH16_INTERNAL_H
#define CUZK_GROTH16_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/groth16.h"
#include "ff/fr.h"
#include "groth16/params_internal.h"

/* cuzk_groth16_prove with the blinding (r, s) given instead of drawn from getrandom (both or neither:
 * NULL, NULL is cuzk_groth16_prove itself): for known-answer tests against other provers. */
cuzk_status g16_prove_blinded(cuzk_groth16_proof_t *proofs, const cuzk_groth16_pk_t *pk,
                              const cuzk_groth16_witness_t *witnesses, size_t n, const cuzk_groth16_prove_opts *opts,
                              const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err);

/* A uniformly random Fr element from the OS CSPRNG (getrandom), by rejection sampling. */
cuzk_status g16_random_fr(fr *out, cuzk_err_t *err);

/* Overwrites n bytes with zeros in a way the compiler cannot drop (for secrets). */
void g16_wipe(void *p, size_t n);

/* log2 of the smallest power of two >= rows (rows >= 1); 0 when rows is 1. */
unsigned g16_log2_ceil(size_t rows);

/* Number of set bits among the first nbits of a bitmap. */
size_t g16_popcount(const uint64_t *bits, size_t nbits);

/* Converts n Montgomery elements to canonical scalars, threaded (out may alias in). */
void g16_to_scalars(cuzk_scalar_t *out, const fr *in, size_t n, int threads);
/* out[i] = in[source[i]] as scalars (source NULL: in[i]); out must not overlap in unless source is NULL. */
void g16_to_scalars_gather(cuzk_scalar_t *out, const fr *in, const uint32_t *source, size_t n, int threads);

/* Computes the H polynomial of one witness in a (size 2^log_m; b and c are scratch of the same
 * size): bellperson's coefficients of (A·B − C)/Z (CUZK_GROTH16_H_COSET, entries 0..m−2 used) or
 * snarkjs's evaluations of A·B − C on the odd 2m-th roots (CUZK_GROTH16_H_ODD_ROOTS, all m).
 * row_position as in cuzk_groth16_prove_opts (already validated). */
cuzk_status g16_h_compute(fr *a, fr *b, fr *c, unsigned log_m, const cuzk_groth16_witness_t *w,
                          cuzk_groth16_h_mode mode, const uint32_t *row_position, int threads);

/* The same in two steps, so that b and c can be released in between: g16_h_evaluate transforms the
 * placed rows and leaves a·b − c (over Z on the coset) in a, after which b and c are no longer read;
 * g16_h_finish turns that into what the key's h points take (the coset's inverse NTT, or nothing). */
cuzk_status g16_h_evaluate(fr *a, fr *b, fr *c, unsigned log_m, cuzk_groth16_h_mode mode, int threads);
cuzk_status g16_h_finish(fr *a, unsigned log_m, cuzk_groth16_h_mode mode, int threads);

/* The placement of a consumed witness (rows where they are, row k at position k): a and b hold A·z and
 * B·z in their first num_constraints entries; the input rows are appended to a, the rest of a and b
 * up to m zeroed, and c (m entries) gets A·z ∘ B·z then zeros. */
void g16_h_place_consumed(fr *a, fr *b, fr *c, size_t m, size_t num_constraints, const fr *input,
                          size_t num_inputs, int threads);

/* The sections of a key, in the order of the .params file (params_decode_range's numbers). */
enum { G16_SEC_H, G16_SEC_L, G16_SEC_A, G16_SEC_B_G1, G16_SEC_B_G2 };

/* One run of MSM scalars: scalar i takes the section's next base when bit i of bits is set (NULL:
 * every scalar takes one). */
typedef struct {
    const cuzk_scalar_t *scalars;
    size_t n;
    const uint64_t *bits;
} g16_msm_segment;

/* Where an MSM's bases come from when the key's array is NULL: an opened .params file, decoded
 * piece_points at a time (0: the default) into piece_buf, which the sections share (allocated by the
 * first that needs it, grown if a later one needs more; freed by g16_msm_source_release): memory this VM
 * gives back is slow to fault in again. */
typedef struct {
    cuzk_params_t *params;
    size_t piece_points;
    int threads;
    void *piece_buf;
    size_t piece_buf_bytes;
} g16_msm_source;
void g16_msm_source_release(g16_msm_source *src);

/* A section of the key with the runs of scalars that take its bases. */
typedef struct {
    int sec;
    const g16_msm_segment *segs;
    size_t nsegs;
} g16_section_scalars;

/* out (g1_jac, or g2_jac for G16_SEC_B_G2) = the sum over the segments, in order, of each taking
 * scalar times the section's next base, taken from bases (n_bases of them) or, when bases is NULL,
 * decoded from src->params piece by piece; while the last piece is summed, the bases that the first
 * piece of `then` (the section the caller streams next; NULL: none) takes are read ahead. Errors: the MSM's, the decoder's (named), and CUZK_ERR_INVALID_ARG when
 * the bases are neither in memory nor in a file. */
cuzk_status g16_section_msm(void *out, int sec, const void *bases, size_t n_bases, const g16_msm_segment *segs,
                            size_t nsegs, const g16_section_scalars *then, g16_msm_source *src, cuzk_err_t *err);

/* One piece of a streamed section: scalars [first, first + n) of segment k, which take the bases
 * [used, used + take) of the section. */
typedef struct {
    size_t k, first, n, take, used;
    bool started;
} g16_piece;
/* Moves *pc to the next piece that takes at least one base (the first one when pc is zeroed); false when
 * there is none. Pieces are `piece` scalars long (a multiple of 64, so that they start on bitmap words),
 * shorter at a segment's end, and cut short to whole words of the densities where they would take more than
 * max_take bases (taken as 64 if below: a word must fit). */
bool g16_piece_next(g16_piece *pc, const g16_msm_segment *segs, size_t nsegs, size_t piece, size_t max_take);
/* The most bases a piece of section sec takes, for pieces of `piece` scalars: as many as fill the bytes of
 * `piece` G1 bases (at least 64), so that a b_g2 piece (G2 bases, twice as large) holds no more memory than the G1
 * sections' (at 32GiB a dense run of b_g2 would have taken 3.2 GB, twice the others' 1.6 GB). */
size_t g16_piece_max_take(int sec, size_t piece);

/* Starts reading the first piece of a section that g16_section_msm will stream (bases NULL and a file in
 * src) into the page cache, so that it arrives during the work before that MSM; a no-op otherwise. Join
 * with params_readahead_wait. */
void g16_section_readahead(params_readahead_t *ra, int sec, const void *bases, const g16_msm_source *src);

/* cuzk_groth16_prove_consume with a fixed blinding (both or neither), as g16_prove_blinded. */
cuzk_status g16_prove_consume_blinded(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk_t *pk,
                                      cuzk_groth16_witness_consumable_t *w, const cuzk_groth16_prove_opts *opts,
                                      const fr *fixed_r, const fr *fixed_s, cuzk_err_t *err);

/* Zeroes n bytes at p and gives their whole pages back to the system (madvise MADV_DONTNEED: anonymous
 * memory reads as zeros after it). The allocation stays valid. */
void g16_discard(void *p, size_t n);

#endif
