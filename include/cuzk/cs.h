/* The constraint-system interface circuits and gadgets are written against (bellpepper's
 * ConstraintSystem in C), and its backends: count, witness, record, direct, test, hash, check and sink. One
 * circuit function runs unchanged on every backend, in one system or in parts joined in order
 * (cuzk_cs_extend); see docs/FORMATS.md for the record cache file.
 *
 * Ownership: cuzk_cs_new creates a system owned by the caller (cuzk_cs_free); an LC belongs to the
 * system given to cuzk_lc_init and must be released with cuzk_lc_free (or enforced with
 * cuzk_cs_enforce_free) before that system is freed. A record taken with cuzk_cs_take_record(_compact)
 * or read with cuzk_cs_record_load is the caller's (cuzk_cs_record_free), as are the a, b, c arrays of
 * cuzk_cs_record_witness(_consumable) (cuzk_cs_abc_free); witness structures filled by
 * cuzk_cs_groth16_witness and cuzk_cs_record_witness(_consumable) only point into the system, the record
 * and abc, which must outlive them.
 * Every _free function accepts NULL.
 * Threading: a system and its LCs belong to one thread at a time (synthesis is sequential);
 * distinct systems may be used from distinct threads at once; a finished record is read-only and
 * may be shared. cuzk_r1cs_eval and cuzk_r1cs_compact_eval use their own worker threads and join them.
 * Errors: gadget-level failures (a missing value, an unallocated variable, out of memory, a stop
 * request) do not interrupt synthesis: the system records the first one (cuzk_cs_fail) and
 * cuzk_cs_status, cuzk_cs_take_record, cuzk_cs_groth16_witness and the hash calls return it. The
 * other statuses are listed with each call; CUZK_ERR_NO_MEMORY may come from any call that
 * allocates (cuzk_cs_new, the record, witness, hash and file calls); cuzk_cs_record_save and
 * cuzk_cs_record_load return CUZK_ERR_IO for system errors, cuzk_cs_record_save also
 * CUZK_ERR_INVALID_ARG for a record too large for the format. cuzk_cs_fail returns its status
 * argument (like cuzk_err_set) and is not marked CUZK_WARN_UNUSED_RESULT.
 */
#ifndef CUZK_CS_H
#define CUZK_CS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/field.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_cs cuzk_cs_t;

/* ---- Variables ----------------------------------------------------------------------------
 * A variable is an input (public; input 0 is ONE, allocated when the system is created) or an
 * aux (private) variable, each numbered in allocation order. The id puts every input before
 * every aux variable, so ordering ids is bellpepper's order (Input(i) < Aux(j), then by index). */
typedef struct {
    uint32_t id; /* bit 31 set: Aux(id & 0x7fffffff); clear: Input(id) */
} cuzk_var_t;

#define CUZK_VAR_AUX_BIT 0x80000000u
#define CUZK_VAR_MAX_INDEX 0x7ffffffeu /* largest index of either kind */

static inline cuzk_var_t cuzk_cs_one(void) { return (cuzk_var_t){0}; }
static inline bool cuzk_var_is_input(cuzk_var_t v) { return !(v.id & CUZK_VAR_AUX_BIT); }
static inline size_t cuzk_var_index(cuzk_var_t v) { return v.id & ~CUZK_VAR_AUX_BIT; }
static inline cuzk_var_t cuzk_var_input(size_t i) { return (cuzk_var_t){(uint32_t)i}; }
static inline cuzk_var_t cuzk_var_aux(size_t j) { return (cuzk_var_t){(uint32_t)j | CUZK_VAR_AUX_BIT}; }

/* ---- Backends and LC storage --------------------------------------------------------------- */
typedef enum {
    CUZK_CS_COUNT = 0, /* numbers of inputs, aux, constraints and density counts; no values */
    CUZK_CS_WITNESS,   /* input and aux assignments only; linear combinations are never built */
    CUZK_CS_RECORD,    /* A, B, C in compact form plus density bitmaps (cuzk_cs_take_record_compact) */
    CUZK_CS_DIRECT,    /* A·z, B·z, C·z per constraint while synthesizing, and densities, as
                        * bellperson's ProvingAssignment (cuzk_cs_groth16_witness) */
    CUZK_CS_TEST,      /* bellpepper TestConstraintSystem: its hash, satisfiability, values */
    CUZK_CS_HASH,      /* the test backend's hash only, streamed constraint by constraint: no values,
                        * no matrices, constant memory (production-size circuits); cuzk_cs_hash_begin */
    CUZK_CS_CHECK,     /* values and LCs; each constraint is evaluated as it is enforced and the first one
                        * that does not hold is remembered (cuzk_cs_test_unsatisfied): no matrices, no
                        * densities, memory for the assignment only (production-size witnesses) */
    CUZK_CS_SINK,      /* each constraint handed to a callback as it is enforced (cuzk_cs_sink_begin):
                        * no values, no matrices; counts and densities as count (streaming consumers) */
} cuzk_cs_backend;

/* How a linear combination stores its terms; chosen at run time so that synthesis benchmarks can
 * A/B-test them on the same build. */
typedef enum {
    CUZK_LC_HEAP = 0, /* a growable heap array, as Rust's Vec (first allocation: 4 terms) */
    CUZK_LC_INLINE1,  /* room for 1 term inside cuzk_lc_t, then the heap (SmallVec<[_; 1]>) */
    CUZK_LC_INLINE2,  /* 2 inline terms, then the heap */
    CUZK_LC_INLINE4,  /* 4 inline terms, then the heap */
    CUZK_LC_ARENA,    /* bump allocation in the constraint system, reset whenever no LC that
                       * holds arena memory is alive (in practice: after every constraint) */
    CUZK_LC_STRATEGY_COUNT,
} cuzk_lc_strategy;

/* The strategy used when a caller has no preference: the fastest measured (on the count, record
 * and direct backends, inline4 and inline2 lead, heap and arena trail by 10–50%: most LCs have
 * one to four terms, and an inline LC never allocates). */
#define CUZK_LC_DEFAULT CUZK_LC_INLINE4

/* "heap", "inline1", "inline2", "inline4", "arena" (NULL for an unknown value). */
CUZK_API const char *cuzk_lc_strategy_name(cuzk_lc_strategy s);
/* Parses one of those names (or "default"); CUZK_ERR_INVALID_ARG for anything else. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_lc_strategy_parse(cuzk_lc_strategy *s, const char *name, cuzk_err_t *err);

/* ---- Linear combinations ---------------------------------------------------------------------
 * bellpepper semantics: the terms are kept sorted by variable (inputs first, then aux, each by
 * index) and a variable added again merges into its term by adding coefficients (bellpepper's
 * Indexer::insert_or_update). As in bellpepper a term whose coefficient is or becomes zero stays
 * in the LC; every backend ignores it (it is not in the CSR, not in a density, not hashed).
 *
 * An LC belongs to one constraint system (cuzk_lc_init) and must be released with cuzk_lc_free,
 * whatever the strategy. When the backend does not build LCs (witness) every operation returns at
 * once; circuits may also skip building with `if (cuzk_cs_wants_lcs(cs))`. A cuzk_lc_t may be
 * moved by value (the source is then dead) but not duplicated: use cuzk_lc_copy. */
typedef struct {
    cuzk_fr_t coeff; /* Montgomery form */
    uint32_t var;    /* cuzk_var_t.id */
} cuzk_lc_term_t;

#define CUZK_LC_INLINE_MAX 4

typedef struct {
    cuzk_lc_term_t *ext; /* heap or arena terms; NULL: the terms are in inl */
    uint32_t len, cap;   /* cap: room in the buffer in use */
    uint8_t active;      /* 0 when the backend ignores LCs */
    uint8_t ext_kind;    /* internal: what owns ext */
    cuzk_cs_t *cs;
    cuzk_lc_term_t inl[CUZK_LC_INLINE_MAX];
} cuzk_lc_t;

CUZK_API extern const cuzk_fr_t cuzk_lc_coeff_one;       /* 1, Montgomery form */
CUZK_API extern const cuzk_fr_t cuzk_lc_coeff_minus_one; /* −1, Montgomery form */

CUZK_API void cuzk_lc_init(cuzk_lc_t *lc, cuzk_cs_t *cs);
/* Releases the terms' storage and leaves lc empty (still usable; calling it twice is fine). */
CUZK_API void cuzk_lc_free(cuzk_lc_t *lc);
/* Internal: the general insertion (merge, middle insert, growth). */
CUZK_API void cuzk_lc_insert_slow(cuzk_lc_t *lc, uint32_t var, const cuzk_fr_t *coeff);

static inline cuzk_lc_term_t *cuzk_lc_terms(const cuzk_lc_t *lc)
{
    return lc->ext ? lc->ext : (cuzk_lc_term_t *)lc->inl;
}
static inline size_t cuzk_lc_len(const cuzk_lc_t *lc) { return lc->len; }
/* Empties lc, keeping its storage. */
static inline void cuzk_lc_clear(cuzk_lc_t *lc) { lc->len = 0; }

/* lc += coeff·v. The common case (a variable after every term already there) is inline. */
static inline void cuzk_lc_add_term(cuzk_lc_t *lc, cuzk_var_t v, const cuzk_fr_t *coeff)
{
    if (!lc->active)
        return;
    uint32_t n = lc->len;
    cuzk_lc_term_t *t = cuzk_lc_terms(lc);
    if (n < lc->cap && (n == 0 || t[n - 1].var < v.id)) {
        t[n].coeff = *coeff;
        t[n].var = v.id;
        lc->len = n + 1;
        return;
    }
    cuzk_lc_insert_slow(lc, v.id, coeff);
}
static inline void cuzk_lc_add(cuzk_lc_t *lc, cuzk_var_t v) { cuzk_lc_add_term(lc, v, &cuzk_lc_coeff_one); }
static inline void cuzk_lc_sub(cuzk_lc_t *lc, cuzk_var_t v)
{
    cuzk_lc_add_term(lc, v, &cuzk_lc_coeff_minus_one);
}
/* lc −= coeff·v */
CUZK_API void cuzk_lc_sub_term(cuzk_lc_t *lc, cuzk_var_t v, const cuzk_fr_t *coeff);
/* lc += other, lc −= other, lc += coeff·other (other may be lc itself). */
CUZK_API void cuzk_lc_add_lc(cuzk_lc_t *lc, const cuzk_lc_t *other);
CUZK_API void cuzk_lc_sub_lc(cuzk_lc_t *lc, const cuzk_lc_t *other);
CUZK_API void cuzk_lc_add_scaled_lc(cuzk_lc_t *lc, const cuzk_fr_t *coeff, const cuzk_lc_t *other);
/* dst = src; dst must have been initialized (its old terms are dropped). */
CUZK_API void cuzk_lc_copy(cuzk_lc_t *dst, const cuzk_lc_t *src);

/* ---- The constraint system ------------------------------------------------------------------ */

/* Creates a system with ONE (input 0) allocated. CUZK_ERR_INVALID_ARG for an unknown backend or
 * strategy, CUZK_ERR_NO_MEMORY. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_new(cuzk_cs_t **cs, cuzk_cs_backend backend, cuzk_lc_strategy strategy, cuzk_err_t *err);
CUZK_API void cuzk_cs_free(cuzk_cs_t *cs);
/* Makes cs a fresh system again (ONE only, no failure; its backend, strategy and stop request kept), keeping
 * the memory of its arrays, for a system synthesized into many times (the parts of a parallel synthesis):
 * the memory is then written without being faulted in again. No LC of cs may be alive; a hash stream is
 * dropped. A failure to restore the record's first row fails cs with CUZK_ERR_NO_MEMORY. */
CUZK_API void cuzk_cs_reset(cuzk_cs_t *cs);
/* Pre-sizes the arrays for a circuit of known shape (e.g. from a count run); optional. */
CUZK_API void cuzk_cs_reserve(cuzk_cs_t *cs, size_t num_inputs, size_t num_aux, size_t num_constraints);
/* Faults in, on a background thread, the pages of the value arrays cuzk_cs_reserve sized (the assignment
 * and, direct, A·z, B·z and C·z unless omitted), in step with one another and ahead of the synthesis that
 * fills them front to back, so that it finds them mapped: the first touch of fresh memory is a large part
 * of a production-size synthesis on its one thread (most of it on virtual machines whose host backs a
 * page only when first used). The contents are not touched. The thread ends when the arrays are done, at
 * cuzk_cs_prefault_stop, cuzk_cs_reset, cuzk_cs_free and cuzk_cs_groth16_witness_consumable, and by
 * itself for an array that outgrew its reservation. Best effort: nothing happens for small arrays, where
 * the kernel cannot populate (before Linux 5.14) or no thread can be started. Not for a piece. */
CUZK_API void cuzk_cs_prefault_start(cuzk_cs_t *cs);
CUZK_API void cuzk_cs_prefault_stop(cuzk_cs_t *cs);

/* Direct backend: keep A·z and B·z but not C·z. On an assignment that satisfies the system, C·z is
 * A·z ∘ B·z row by row, and the prover rebuilds it so (cuzk_cs_groth16_witness gives c = NULL; see
 * cuzk_groth16_witness_t); on one that does not, the proof does not verify, as it would not with C·z
 * kept. The C LCs are still checked (unallocated variables fail the system) and counted. Saves a third
 * of the direct backend's memory per constraint (32 of 96 bytes: 4 GB for a 32GiB partition) and the C
 * evaluations. Call on a fresh system, before its first constraint (kept across cuzk_cs_reset).
 * CUZK_ERR_INVALID_ARG for another backend or a system with constraints. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_omit_c(cuzk_cs_t *cs, cuzk_err_t *err);
/* A fresh system for a part of like's circuit, to be joined into it with cuzk_cs_extend: like's backend,
 * LC strategy and cuzk_cs_omit_c setting. Errors of cuzk_cs_new. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_new_part(cuzk_cs_t **out, const cuzk_cs_t *like, cuzk_err_t *err);

/* ---- Pieces: a circuit's repeated tail synthesized on several threads, in place ------------------------
 * A circuit that ends with `count` pieces of one shape (each allocates the same numbers of inputs and aux
 * variables and enforces the same number of constraints: a SnapDeals challenge, a PoSt sector), whose
 * pieces use the variables allocated before them but not one another's, may synthesize the pieces at once,
 * each into its own place: piece i's variables and constraints get the numbers a sequential synthesis gives
 * them (after pieces 0..i−1), so the result is the sequential system, values, densities and counts
 * included, with nothing copied or renumbered afterwards.
 *  - cuzk_cs_pieces_begin sizes cs for every piece (its arrays reach their final size; the threads that
 *    write a piece's part fault its memory in). From then until cuzk_cs_pieces_end, cs itself takes no
 *    variable or constraint (that fails it) and may not be reset, joined or freed.
 *  - cuzk_cs_piece_open gives a system for pieces [first, first + n), into which one thread synthesizes
 *    those pieces with the usual calls, using cs's variables from before begin and its own (another piece's
 *    variable fails it, naming it; so does more than its shape). cs's stop request is polled on behalf of
 *    every piece, one call at a time; once it says stop, every piece stops.
 *  - cuzk_cs_piece_close folds the piece into cs and frees it, returning its status (a piece whose counts
 *    differ from its shape fails with CUZK_ERR_INVALID_ARG); open and close are safe from several threads.
 *  - cuzk_cs_pieces_end checks that every piece was closed and makes cs whole; it returns cs's status,
 *    which is then the first failure in piece order, or OK.
 * Backends: count, witness, direct and check (cuzk_cs_supports_pieces); the record, test and hash backends
 * build their matrices or stream in order: synthesize those pieces one after the other.
 * Errors: CUZK_ERR_INVALID_ARG (another backend, a piece, pieces already begun, no piece, a shape that
 * overflows a system; a range out of [0, count) or already opened; end without begin), CUZK_ERR_NO_MEMORY
 * (begin: cs failed; open: nothing opened), the failure of cs (begin). */
CUZK_API bool cuzk_cs_supports_pieces(const cuzk_cs_t *cs);
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_pieces_begin(cuzk_cs_t *cs, size_t count, size_t inputs_each, size_t aux_each,
                                 size_t constraints_each, cuzk_err_t *err);
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_piece_open(cuzk_cs_t **piece, cuzk_cs_t *cs, size_t first, size_t n, cuzk_err_t *err);
CUZK_API CUZK_NONNULL(1)
cuzk_status cuzk_cs_piece_close(cuzk_cs_t *cs, cuzk_cs_t *piece);
CUZK_API CUZK_NONNULL(1)
cuzk_status cuzk_cs_pieces_end(cuzk_cs_t *cs, cuzk_err_t *err);

CUZK_API cuzk_cs_backend cuzk_cs_get_backend(const cuzk_cs_t *cs);
CUZK_API cuzk_lc_strategy cuzk_cs_get_strategy(const cuzk_cs_t *cs);
/* False for count and record: circuits then need not compute values (pass NULL). */
CUZK_API bool cuzk_cs_wants_values(const cuzk_cs_t *cs);
/* False for witness: LCs are inert and enforce only counts. */
CUZK_API bool cuzk_cs_wants_lcs(const cuzk_cs_t *cs);

/* Allocates an aux / input variable with the given value (Montgomery form). value may be NULL
 * when the backend does not want values; a missing value where one is needed, or more than
 * CUZK_VAR_MAX_INDEX + 1 variables of a kind, makes the system failed (cuzk_cs_status). */
CUZK_API cuzk_var_t cuzk_cs_alloc(cuzk_cs_t *cs, const cuzk_fr_t *value);
CUZK_API cuzk_var_t cuzk_cs_alloc_input(cuzk_cs_t *cs, const cuzk_fr_t *value);

/* Enforces a · b = c. The LCs are read, not consumed (a, b, c may be the same LC). A variable
 * that was not allocated in cs makes the system failed. */
CUZK_API void cuzk_cs_enforce(cuzk_cs_t *cs, const cuzk_lc_t *a, const cuzk_lc_t *b, const cuzk_lc_t *c);
/* cuzk_cs_enforce, then cuzk_lc_free on each of a, b, c: the usual end of a constraint. */
CUZK_API void cuzk_cs_enforce_free(cuzk_cs_t *cs, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *c);
/* cuzk_cs_enforce_free for a gadget that already knows the three LCs' values under the assignment
 * (values[0..3): a, b, c; NULL: not known, as cuzk_cs_enforce_free). The direct backend stores them
 * instead of evaluating the LCs (a Poseidon hash's wide LCs cost a multiplication a term); the check
 * backend evaluates the LCs and fails the system (CUZK_ERR_MISMATCH, naming the constraint) where a
 * given value differs, so a wrong value is found by the tests' check runs; the others ignore them. */
CUZK_API void cuzk_cs_enforce_known_free(cuzk_cs_t *cs, cuzk_lc_t *a, cuzk_lc_t *b, cuzk_lc_t *c,
                                         const cuzk_fr_t values[3]);

/* The value assigned to v; false when the backend keeps no values or v is not allocated. */
CUZK_API bool cuzk_cs_get_value(const cuzk_cs_t *cs, cuzk_var_t v, cuzk_fr_t *out);
/* Changes an assigned value (TestConstraintSystem::set, for gadget tests that tamper with a
 * witness). Test and witness backends only: CUZK_ERR_INVALID_ARG otherwise. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 3)
cuzk_status cuzk_cs_set_value(cuzk_cs_t *cs, cuzk_var_t v, const cuzk_fr_t *value, cuzk_err_t *err);
/* Input / aux assignments (NULL when the backend keeps no values). Valid until the next alloc. */
CUZK_API const cuzk_fr_t *cuzk_cs_inputs(const cuzk_cs_t *cs);
CUZK_API const cuzk_fr_t *cuzk_cs_aux(const cuzk_cs_t *cs);

/* Marks the system failed (a gadget's SynthesisError: missing assignment, division by zero...).
 * The first failure is kept; later ones are ignored. Returns status. */
CUZK_API CUZK_NONNULL(1)
cuzk_status cuzk_cs_fail(cuzk_cs_t *cs, cuzk_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* CUZK_OK, or the first failure with its message. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_status(const cuzk_cs_t *cs, cuzk_err_t *err);

/* A stop request for long syntheses (a cancelled job): circuits call cuzk_cs_poll_stop at natural
 * points (a PoRep challenge); when should_stop(stop_arg) says so, the system fails with
 * CUZK_ERR_CANCELLED and the poll returns true. NULL (the default) = never stop. */
CUZK_API void cuzk_cs_set_stop(cuzk_cs_t *cs, bool (*should_stop)(void *stop_arg), void *stop_arg);
CUZK_API bool cuzk_cs_poll_stop(cuzk_cs_t *cs);
/* The stop request cuzk_cs_set_stop gave (NULL, NULL: none), for circuits that synthesize parts of
 * themselves into systems of their own (cuzk_cs_extend). */
CUZK_API CUZK_NONNULL(1, 2, 3)
void cuzk_cs_get_stop(const cuzk_cs_t *cs, bool (**should_stop)(void *stop_arg), void **stop_arg);

/* Appends src, a system synthesized on its own from a fresh cuzk_cs_new (its ONE is input 0), to dst, as
 * bellperson's ProvingAssignment::extend joins the parts of synthesize_extendable: src's input i >= 1
 * becomes dst's input (dst inputs) + i − 1, its aux j dst's aux (dst aux) + j, its ONE stays dst's ONE;
 * assignments, constraints (in order, after dst's), A·z, B·z, C·z, matrices, densities (src's ONE counts
 * in dst's ONE: bit 0 of the B-input density is or-ed), non-zero counts and the first unsatisfied
 * constraint follow. The result is the system that synthesizing dst's part and then src's into dst would
 * have given. Every backend but hash; src is only read (free it after). A failed src fails dst with its
 * status and message. Errors: CUZK_ERR_INVALID_ARG (src is dst, backends differ, the hash backend, a taken
 * record, more variables than a system holds; dst is left as it was), the failure of dst (nothing appended),
 * CUZK_ERR_NO_MEMORY or, record backend, CUZK_ERR_UNSUPPORTED (the joined coefficient tables past their limit)
 * (dst failed). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_extend(cuzk_cs_t *dst, const cuzk_cs_t *src, cuzk_err_t *err);

typedef struct {
    size_t num_inputs; /* ONE included */
    size_t num_aux;
    size_t num_constraints; /* enforced; no Groth16 input rows */
    bool has_density;       /* false for witness and check */
    size_t a_aux_density;   /* aux variables with a non-zero coefficient somewhere in A */
    size_t b_input_density; /* inputs with a non-zero coefficient somewhere in B */
    size_t b_aux_density;   /* aux variables with a non-zero coefficient somewhere in B */
    size_t nnz_a, nnz_b, nnz_c; /* non-zero terms of A, B, C (as the densities: not for witness);
                                 * no Groth16 input rows (each would add one term to A) */
} cuzk_cs_counts_t;
CUZK_API void cuzk_cs_counts(const cuzk_cs_t *cs, cuzk_cs_counts_t *out);

/* The shape of a circuit synthesized with no witness, as the circuit-info calls give it
 * (cuzk_porep_circuit_info, cuzk_post_circuit_info). Counts never include the prover's per-input rows
 * (input_i · 0 = 0; a Groth16 R1CS has num_constraints + num_inputs rows and nnz_a + num_inputs). */
typedef struct {
    size_t num_constraints;
    size_t num_inputs; /* ONE included */
    size_t num_aux;
    size_t nnz_a, nnz_b, nnz_c;
    size_t a_aux_density, b_input_density, b_aux_density;
    bool has_hash;
    char hash[65]; /* TestConstraintSystem hash (with_hash) */
} cuzk_circuit_info_t;

/* ---- Direct backend → prover input ------------------------------------------------------------
 * Fills *w with pointers into the (direct) system's arrays, valid until cuzk_cs_free or the next
 * alloc/enforce. CUZK_ERR_INVALID_ARG for another backend; the failure status if it failed. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_groth16_witness(const cuzk_cs_t *cs, cuzk_groth16_witness_t *w, cuzk_err_t *err);
/* The same for cuzk_groth16_prove_consume, for a direct system with C·z omitted (cuzk_cs_omit_c): the
 * A·z and B·z arrays are grown to the proof's domain size (the power of two >= constraints + inputs; a
 * remapping, not a copy) and handed to the prover with the assignment, to be overwritten there; the
 * assignment's aux array is given room for the domain too where it can grow (aux_capacity), so that
 * the prover computes C·z there. After the proof the system's values are gone: free it. CUZK_ERR_INVALID_ARG for another backend or C·z
 * kept; CUZK_ERR_NO_MEMORY when the arrays cannot grow; the failure status if it failed. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_groth16_witness_consumable(cuzk_cs_t *cs, cuzk_groth16_witness_consumable_t *w, cuzk_err_t *err);

/* ---- Record backend: matrices, density bitmaps, cache file ------------------------------------
 * The record backend builds the compact form (cuzk_r1cs_compact_t) as it goes, never the 36-byte-a-term
 * CSR: a 32GiB PoRep partition is recorded in about 5 GB. A matrix with more than CUZK_CMAT_MAX_TABLE
 * distinct coefficients fails the system with CUZK_ERR_UNSUPPORTED (the direct backend proves any
 * circuit). */
typedef struct {
    cuzk_r1cs_compact_t m;     /* always: columns inputs 0..num_inputs−1, then aux j at num_inputs + j */
    cuzk_r1cs_t r1cs;          /* the same in CSR, for setup and small circuits: filled by cuzk_cs_take_record
                                * and cuzk_cs_record_expand; empty (NULL arrays, zero counts) otherwise */
    uint64_t *a_aux_density;   /* ceil(num_aux/64) words, bit j = aux j */
    uint64_t *b_input_density; /* ceil(num_inputs/64) words */
    uint64_t *b_aux_density;   /* ceil(num_aux/64) words */
} cuzk_cs_record_t;

/* Moves the matrices and bitmaps of a record system into *rec (the system is then empty of them; free it
 * as usual): the compact form only, rec->r1cs left empty (production-size circuits). CUZK_ERR_INVALID_ARG
 * for another backend or a record already taken; the failure status if the system failed. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_take_record_compact(cuzk_cs_t *cs, cuzk_cs_record_t *rec, cuzk_err_t *err);
/* cuzk_cs_take_record_compact, then cuzk_cs_record_expand: both forms (small circuits, setup). Errors of
 * both; on failure *rec is empty. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_take_record(cuzk_cs_t *cs, cuzk_cs_record_t *rec, cuzk_err_t *err);
/* Fills rec->r1cs from rec->m (36 bytes per non-zero; nothing done when it is already filled).
 * CUZK_ERR_NO_MEMORY (rec unchanged). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_record_expand(cuzk_cs_record_t *rec, cuzk_err_t *err);
CUZK_API void cuzk_cs_record_free(cuzk_cs_record_t *rec); /* NULL-safe; zeroes *rec */
/* Popcounts of the bitmaps, in cuzk_cs_counts_t terms (has_density true). */
CUZK_API void cuzk_cs_record_counts(const cuzk_cs_record_t *rec, cuzk_cs_counts_t *out);

/* Writes rec's compact form and bitmaps to path (via path.tmp.<pid>, then rename; nothing is left behind
 * on failure). Format: docs/FORMATS.md "Constraint-system cache" (version 2). CUZK_ERR_IO on a system
 * error. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_record_save(const cuzk_cs_record_t *rec, const char *path, cuzk_err_t *err);
/* The size cuzk_cs_record_save gives rec's file (0 for a record too large for the format). */
CUZK_API uint64_t cuzk_cs_record_file_bytes(const cuzk_cs_record_t *rec);
/* Reads and fully checks a cache file (checksums, row lengths, columns in range and order, coefficient
 * indices within the table, canonical, non-zero and distinct table entries, densities) into rec->m and
 * the bitmaps (rec->r1cs stays empty: cuzk_cs_record_expand). CUZK_ERR_IO if it cannot be read,
 * CUZK_ERR_FORMAT (with offset or section in the message) if it is truncated, corrupt or of another
 * version (version 1, the CSR form, is not read: record again). On failure *rec is empty. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_record_load(cuzk_cs_record_t *rec, const char *path, cuzk_err_t *err);

/* ---- Record + witness → prover input ----------------------------------------------------------
 * A·z, B·z, C·z for every row of r1cs (z = input ‖ aux), rows split over `threads` threads
 * (1: the caller's thread only; <= 0: every online CPU). a, b, c: num_constraints entries each. */
CUZK_API void cuzk_r1cs_eval(const cuzk_r1cs_t *r1cs, const cuzk_fr_t *input, const cuzk_fr_t *aux, cuzk_fr_t *a,
                             cuzk_fr_t *b, cuzk_fr_t *c, int threads);
/* Density bitmaps of r1cs (bit set = some non-zero coefficient): a_aux and b_aux have
 * ceil(num_aux/64) words, b_input ceil(num_inputs/64); every word is written. */
CUZK_API void cuzk_r1cs_density(const cuzk_r1cs_t *r1cs, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux);

/* The evaluated a, b, c owned by the caller of cuzk_cs_record_witness. */
typedef struct {
    cuzk_fr_t *a, *b, *c;
} cuzk_cs_abc_t;
CUZK_API void cuzk_cs_abc_free(cuzk_cs_abc_t *abc); /* NULL-safe; zeroes *abc */

/* Evaluates rec (its compact form: cuzk_r1cs_compact_eval) against the assignment of a finished witness
 * (or direct / test) system into a fresh *abc and fills *w (pointers into abc, the system's values and
 * rec's bitmaps).
 * CUZK_ERR_MISMATCH when the counts differ, CUZK_ERR_INVALID_ARG when the system has no values. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_cs_record_witness(cuzk_groth16_witness_t *w, cuzk_cs_abc_t *abc, const cuzk_cs_record_t *rec,
                                   const cuzk_cs_t *values_cs, int threads, cuzk_err_t *err);

/* The same for cuzk_groth16_prove_consume, without a copy: A·z and B·z are evaluated straight into fresh
 * domain-sized arrays (the power of two >= constraints + inputs; anonymous memory, abc's: C·z is not
 * evaluated, abc->c stays NULL) and the assignment of values_cs is handed over as the MSMs' scalars (its
 * aux array grown for C·z as above): after the proof values_cs's values are gone (free it). The same errors, CUZK_ERR_NO_MEMORY (nothing
 * allocated). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2, 3, 4)
cuzk_status cuzk_cs_record_witness_consumable(cuzk_groth16_witness_consumable_t *w, cuzk_cs_abc_t *abc,
                                              const cuzk_cs_record_t *rec, cuzk_cs_t *values_cs, int threads,
                                              cuzk_err_t *err);

/* ---- Test backend ------------------------------------------------------------------------------
 * TestConstraintSystem::hash(): BLAKE2s-256 over the counts and every merged, zero-dropped LC
 * (layout of bellpepper-core util_cs/test_cs.rs), as 64 lowercase hex digits and a NUL. Test backend
 * (the hash backend: cuzk_cs_hash_finish). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_test_hash(const cuzk_cs_t *cs, char hex[65], cuzk_err_t *err);
/* The hash backend: the hash's header holds the final counts, so they are given before synthesis (from a
 * count run of the same circuit); cuzk_cs_hash_finish then checks them and returns the same hash the
 * test backend would. Call once, right after cuzk_cs_new. CUZK_ERR_INVALID_ARG for another backend or a
 * late call, CUZK_ERR_NO_MEMORY, CUZK_ERR_UNSUPPORTED when libcrypto has no BLAKE2s. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_hash_begin(cuzk_cs_t *cs, size_t num_inputs, size_t num_aux, size_t num_constraints,
                               cuzk_err_t *err);
/* Ends the stream (once): the hash as cuzk_cs_test_hash gives it; CUZK_ERR_MISMATCH when the system's
 * counts differ from those promised to cuzk_cs_hash_begin, CUZK_ERR_INVALID_ARG for another backend or
 * a stream never begun or already finished, or the system's failure. */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_hash_finish(cuzk_cs_t *cs, char hex[65], cuzk_err_t *err);
/* Index of the first constraint with a·b ≠ c under the current values, or −1 when all hold. Test and check
 * backends (check: under the values the constraint had when it was enforced). */
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1, 2)
cuzk_status cuzk_cs_test_unsatisfied(const cuzk_cs_t *cs, int64_t *first, cuzk_err_t *err);

/* ---- Sink backend ------------------------------------------------------------------------------
 * A consumer that streams over a circuit too large to record (the development setup evaluates its QAP
 * so) registers a callback once, right after cuzk_cs_new; every constraint enforced after that is handed
 * to it, on the synthesizing thread, before enforce returns: index (0, 1, ... in enforcement order) and
 * the three LCs, read-only and valid only during the call. The terms are sorted by variable id, each
 * variable at most once; a term with a zero coefficient may be present and is no part of the constraint
 * (skip it, as every backend does). Every other term's variable is allocated in cs (checked before the
 * call: a bad one fails cs). Once cs has failed (a bad variable, a stop request, a gadget's failure) no
 * more constraints are handed over, so a consumer ends by reading cuzk_cs_status. cuzk_cs_counts gives
 * the count backend's figures. cuzk_cs_reset drops the callback; cuzk_cs_extend and pieces are refused
 * (the stream is in order). Errors: CUZK_ERR_INVALID_ARG for another backend, a NULL fn, a second call
 * or a call after the first constraint. A constraint enforced before the call fails cs. */
typedef void (*cuzk_cs_sink_fn)(void *arg, size_t index, const cuzk_lc_t *a, const cuzk_lc_t *b,
                                const cuzk_lc_t *c);
CUZK_API CUZK_WARN_UNUSED_RESULT CUZK_NONNULL(1)
cuzk_status cuzk_cs_sink_begin(cuzk_cs_t *cs, cuzk_cs_sink_fn fn, void *arg, cuzk_err_t *err);

#ifdef __cplusplus
}
#endif
#endif
