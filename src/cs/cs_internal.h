/* Internals of the constraint system shared by the files of src/cs: the cuzk_cs struct, growable arrays,
 * density bitmaps, the LC arena and the CSR builder used by the record and test backends.
 * Nothing here is visible outside src/cs. */
#ifndef CUZK_CS_INTERNAL_H
#define CUZK_CS_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cuzk/cs.h"
#include "ff/fr.h"

/* ---- growable arrays (elements of one fixed size) ---- */
typedef struct {
    void *p;
    size_t len, cap; /* in elements */
    bool borrowed;   /* p is another system's array (a piece's window into it): never grown or freed here */
} cs_vec;

/* Arrays that may grow big: mappings of their own from 1 MiB up (huge pages, mremap growth),
 * malloc below. cs_big_realloc(NULL, 0, n) allocates; old_bytes is what to keep when the array
 * moves out of malloc. Every array of a record or cuzk_cs_abc_t is released by cs_big_free. */
void *cs_big_realloc(void *p, size_t old_bytes, size_t new_bytes);
void cs_big_free(void *p);
/* Faults in the pages of bytes [off, off + len) of the big mapping that starts at `base`, writable, their
 * contents unchanged (MADV_POPULATE_WRITE). False when base is no longer the start of a mapping of ours
 * (grown elsewhere, or freed), the range leaves it, or the kernel cannot populate. Serialised with the
 * growth and release of the mappings, so that it never touches memory that is not the array's. */
bool cs_big_populate(const void *base, size_t off, size_t len);

/* Makes room for at least `need` elements; false on overflow, out of memory or past a borrowed array's
 * capacity (p unchanged). */
bool cs_vec_reserve(cs_vec *v, size_t need, size_t elem);
void cs_vec_free(cs_vec *v);

/* ---- LC arena: a list of chunks with a bump pointer ---- */
typedef struct cs_chunk {
    struct cs_chunk *next;
    size_t size; /* bytes of data[] */
    _Alignas(64) unsigned char data[];
} cs_chunk;

typedef struct {
    cs_chunk *first, *cur;
    unsigned char *ptr, *end;
    size_t live; /* LCs currently holding arena memory */
} cs_arena;

void *cs_arena_alloc(cs_arena *a, size_t bytes);
/* Grows the most recent allocation p (of old bytes) in place to new bytes if it can. */
bool cs_arena_extend(cs_arena *a, void *p, size_t old, size_t new_bytes);
/* Forgets every allocation (chunks are kept for reuse). */
void cs_arena_reset(cs_arena *a);
void cs_arena_free(cs_arena *a);

/* ---- CSR matrix under construction; columns are raw variable ids until cuzk_cs_take_record ---- */
typedef struct {
    cs_vec row_start; /* uint64_t, rows + 1 entries (row_start[0] = 0 from creation) */
    cs_vec col;       /* uint32_t */
    cs_vec coeff;     /* fr */
} cs_csr;

/* ---- compact matrix under construction (record backend; record_build.c): terms with raw variable ids
 * and 16-bit coefficient indices until cuzk_cs_take_record_compact ---- */
typedef struct {
    cs_vec col;       /* uint32_t raw ids */
    cs_vec idx;       /* uint16_t indices into table */
    cs_vec row_len;   /* uint8_t, CUZK_CMAT_LONG_ROW: see long_rows */
    cs_vec long_rows; /* uint64_t pairs (row, length) */
    cs_vec table;     /* fr: the distinct coefficients, [0] = 1, [1] = −1 */
    uint32_t *slots;  /* open addressing over table: index + 1, 0 = empty; slot_cap a power of two */
    size_t slot_cap;
} cs_cmat;

/* Empties m and puts 1 and −1 in its table; false when out of memory. */
bool cs_cmat_start(cs_cmat *m);
void cs_cmat_free(cs_cmat *m);
/* Appends an LC's n terms (raw ids, allocated) as one row, skipping zero coefficients; CUZK_OK, or
 * CUZK_ERR_NO_MEMORY / CUZK_ERR_UNSUPPORTED (a coefficient past the table's limit), m then unchanged but
 * for table entries. */
cuzk_status cs_cmat_push_row(cs_cmat *m, const cuzk_lc_term_t *t, size_t n);
/* Appends src's rows (ids renumbered as cuzk_cs_extend does, after ni inputs and na aux); the same
 * statuses. */
cuzk_status cs_cmat_append(cs_cmat *dst, const cs_cmat *src, size_t rows, uint32_t ni, uint32_t na);

/* Density bitmaps of compact matrices, as cuzk_r1cs_density (record_eval.c). */
void cs_compact_density(const cuzk_r1cs_compact_t *m, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux);

/* A raw variable id of a part as the system it joins numbers it, that system having ni inputs and na aux
 * before the join (the part's ONE is the system's ONE). */
static inline uint32_t cs_renumber(uint32_t id, uint32_t ni, uint32_t na)
{
    if (id & CUZK_VAR_AUX_BIT)
        return (id + na) | CUZK_VAR_AUX_BIT;
    return id ? id + ni - 1 : 0;
}

enum { LC_EXT_NONE = 0, LC_EXT_HEAP = 1, LC_EXT_ARENA = 2 };

struct cuzk_cs {
    cuzk_cs_backend backend;
    cuzk_lc_strategy strategy;
    bool want_values, want_lcs, want_density, want_record;
    bool omit_c;                     /* direct: C·z not kept (cuzk_cs_omit_c) */
    uint32_t inline_cap; /* initial inline capacity of a new LC */

    size_t num_inputs, num_aux, num_constraints;
    size_t nnz[3]; /* non-zero terms enforced into A, B, C (the backends with densities) */

    cuzk_status status; /* first failure, sticky */
    cuzk_err_t err;
    bool (*should_stop)(void *); /* cuzk_cs_set_stop */
    void *stop_arg;

    cs_arena arena;

    cs_vec input, aux;               /* fr values (witness, direct, test, check) */
    cs_vec av, bv, cv;               /* fr: A·z, B·z, C·z per constraint (direct) */
    cs_vec a_aux_d, b_in_d, b_aux_d; /* uint64_t density bitmaps (count, record, direct, test, hash) */
    size_t reserved_aux, reserved_constraints; /* the last cuzk_cs_reserve's counts */
    struct cs_prefault *prefault;              /* cuzk_cs_prefault_start's thread (cs_prefault.c), or NULL */
    cs_csr m[3];                     /* A, B, C (test) */
    cs_cmat cm[3];                   /* A, B, C (record) */
    struct cs_hash_stream *hs;       /* hash backend: the running BLAKE2s (test_cs.c) */
    int64_t first_unsat;             /* check backend: first constraint with a·b ≠ c, −1 while none */
    cuzk_cs_sink_fn sink_fn;         /* sink backend: the consumer (cuzk_cs_sink_begin), NULL until then */
    void *sink_arg;

    /* Limits of allocation: CUZK_VAR_MAX_INDEX + 1 variables and no constraint limit for a system; the end
     * of its range for a piece; the counts at cuzk_cs_pieces_begin for a system whose pieces are open. */
    size_t max_inputs, max_aux, max_constraints;
    /* A piece (cuzk_cs_piece_open): the system it writes into, and the variables of the other pieces
     * before it, which it may not use: inputs [gap_in_lo, gap_in_hi), aux [gap_aux_lo, gap_aux_hi) (empty
     * ranges for a system). */
    cuzk_cs_t *whole;
    size_t piece_first, piece_n; /* the pieces it holds */
    size_t gap_in_lo, gap_in_hi, gap_aux_lo, gap_aux_hi;
    struct cs_pieces *pieces; /* a system whose pieces are being synthesized (cs_pieces.c) */
};

/* Density bitmap words for n variables. */
static inline size_t cs_words(size_t n) { return (n + 63) / 64; }

/* A variable the system may use: allocated, and not another piece's. */
static inline bool cs_var_valid(const cuzk_cs_t *cs, uint32_t id)
{
    size_t idx = id & ~CUZK_VAR_AUX_BIT;
    if (id & CUZK_VAR_AUX_BIT)
        return idx < cs->num_aux && (idx < cs->gap_aux_lo || idx >= cs->gap_aux_hi);
    return idx < cs->num_inputs && (idx < cs->gap_in_lo || idx >= cs->gap_in_hi);
}

/* Value of a (valid) variable id. */
static inline const fr *cs_value(const cuzk_cs_t *cs, uint32_t id)
{
    const fr *base = (id & CUZK_VAR_AUX_BIT) ? (const fr *)cs->aux.p : (const fr *)cs->input.p;
    return &base[id & ~CUZK_VAR_AUX_BIT];
}

/* Zero and one tests inline: they run for every term of every constraint. */
static inline bool cs_is_zero(const fr *a) { return !(a->l[0] | a->l[1] | a->l[2] | a->l[3]); }
static inline bool cs_is_one(const fr *a)
{
    return !((a->l[0] ^ FR_ONE.l[0]) | (a->l[1] ^ FR_ONE.l[1]) | (a->l[2] ^ FR_ONE.l[2]) |
             (a->l[3] ^ FR_ONE.l[3]));
}

/* The limits of a fresh system (no piece, no gap). */
void cs_unlimited(cuzk_cs_t *cs);
/* Frees the state of pieces begun and not ended (cs_pieces.c); nothing when there is none. */
void cs_pieces_drop(cuzk_cs_t *cs);

/* Sticky failure without a format string check at the call site. */
void cs_failf(cuzk_cs_t *cs, cuzk_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Hash backend (test_cs.c): one constraint's three LCs into the stream (zero terms dropped, the
 * remaining ones counted as term_counts does through `counts`); the stream's release. */
void cs_hash_enforce(cuzk_cs_t *cs, const cuzk_lc_t *const lcs[3], bool (*counts)(cuzk_cs_t *, const cuzk_lc_term_t *, int));
void cs_hash_free(cuzk_cs_t *cs);

/* Sink backend (cs_sink.c): one constraint's terms checked and counted (count: lc_count of cs.c), then
 * handed to the consumer unless the system has failed. */
void cs_sink_enforce(cuzk_cs_t *cs, const cuzk_lc_t *const lcs[3], void (*count)(cuzk_cs_t *, const cuzk_lc_t *, int));

/* Σ coeff·z over a CSR row whose columns are raw ids (test backend) or z indices (r1cs). */
void cs_row_eval_ids(fr *out, const cuzk_cs_t *cs, const uint32_t *col, const fr *coeff, size_t n);

#endif
