/* The prover's MSMs over one section of the key: runs of scalars (inputs, aux) with their densities
 * against the section's bases, taken from the decoded array or, for a key too large to hold, decoded
 * from the .params file piece by piece (each piece summed, its file pages dropped) so that memory
 * holds one piece of the section at a time, while the disk reads the next. */
#include <stdlib.h>
#include "cuzk/msm.h"
#include "ec/ec.h"
#include "groth16/groth16_internal.h"
#include "groth16/params_internal.h"
#include "util/bigmem.h"

#define DEFAULT_PIECE_POINTS ((size_t)1 << 24)

static size_t piece_points(const g16_msm_source *src)
{
    size_t piece = src->piece_points ? src->piece_points : DEFAULT_PIECE_POINTS;
    return piece < 64 ? 64 : piece / 64 * 64; /* whole bitmap words per piece */
}

static const char *const SECTION_NAME[] = {"h", "l", "a", "b_g1", "b_g2"};

static size_t base_size(int sec) { return sec == G16_SEC_B_G2 ? sizeof(cuzk_g2_affine_t) : sizeof(cuzk_g1_affine_t); }

/* One MSM call; acc += its result. */
static cuzk_status msm_add(void *acc, int sec, const void *bases, size_t n_bases, const cuzk_scalar_t *scalars,
                           size_t n, const uint64_t *bits, const cuzk_msm_opts *o)
{
    cuzk_status st;
    if (sec == G16_SEC_B_G2) {
        g2_jac t;
        st = bits ? cuzk_msm_g2_density(&t, bases, n_bases, scalars, n, bits, o) : cuzk_msm_g2(&t, bases, scalars, n, o);
        if (st == CUZK_OK)
            g2_jac_add(acc, acc, &t);
    } else {
        g1_jac t;
        st = bits ? cuzk_msm_g1_density(&t, bases, n_bases, scalars, n, bits, o) : cuzk_msm_g1(&t, bases, scalars, n, o);
        if (st == CUZK_OK)
            g1_jac_add(acc, acc, &t);
    }
    return st;
}

static size_t bases_taken(const g16_msm_segment *seg, size_t first, size_t n)
{
    /* first is a multiple of 64 (pieces start on bitmap words) */
    return seg->bits ? g16_popcount(seg->bits + first / 64, n) : n;
}

static cuzk_status msm_error(cuzk_status st, int sec, cuzk_err_t *err)
{
    return cuzk_err_set(err, st, "multi-scalar multiplication (%s): %s", SECTION_NAME[sec], cuzk_status_str(st));
}

static cuzk_status section_from_memory(void *acc, int sec, const void *bases, size_t n_bases,
                                       const g16_msm_segment *segs, size_t nsegs, const cuzk_msm_opts *o,
                                       cuzk_err_t *err)
{
    size_t used = 0, esz = base_size(sec);
    for (size_t k = 0; k < nsegs; k++) {
        size_t take = bases_taken(&segs[k], 0, segs[k].n);
        if (take > n_bases - used)
            return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "section %s: %zu bases, more are taken", SECTION_NAME[sec],
                                n_bases);
        if (take) { /* no base taken: nothing to add (and the bases may be NULL) */
            cuzk_status st = msm_add(acc, sec, (const char *)bases + used * esz, n_bases - used, segs[k].scalars,
                                     segs[k].n, segs[k].bits, o);
            if (st != CUZK_OK)
                return msm_error(st, sec, err);
        }
        used += take;
    }
    return CUZK_OK;
}

/* src's piece buffer with room for `bytes` (a piece's bases), shared by the sections and grown when one
 * needs more; NULL when out of memory. */
static void *piece_buffer(g16_msm_source *src, size_t bytes)
{
    if (src->piece_buf_bytes >= bytes)
        return src->piece_buf;
    g16_msm_source_release(src);
    if ((src->piece_buf = cuzk_big_malloc(bytes)))
        src->piece_buf_bytes = bytes;
    return src->piece_buf;
}

void g16_msm_source_release(g16_msm_source *src)
{
    free(src->piece_buf);
    src->piece_buf = NULL;
    src->piece_buf_bytes = 0;
}

size_t g16_piece_max_take(int sec, size_t piece)
{
    size_t take = piece * sizeof(cuzk_g1_affine_t) / base_size(sec);
    return take < 64 ? 64 : take;
}

/* The bytes a piece of section sec holds at most, for a section of n_bases. */
static uint64_t piece_bytes(int sec, size_t piece, uint64_t n_bases)
{
    uint64_t take = g16_piece_max_take(sec, piece);
    return (take < n_bases ? take : n_bases) * base_size(sec);
}

uint64_t cuzk_groth16_stream_piece_bytes(size_t stream_points, uint64_t g1_points, uint64_t g2_points)
{
    const g16_msm_source src = {.piece_points = stream_points};
    size_t piece = piece_points(&src);
    uint64_t g1 = piece_bytes(G16_SEC_H, piece, g1_points), g2 = piece_bytes(G16_SEC_B_G2, piece, g2_points);
    return g1 > g2 ? g1 : g2;
}

/* Scalars [first, first + n) of seg, cut to whole bitmap words that take at most max_take bases (>= 64, so
 * that a word always fits) where they take more; *take gets what the result takes. */
static size_t cut_to_take(const g16_msm_segment *seg, size_t first, size_t n, size_t max_take, size_t *take)
{
    size_t t = bases_taken(seg, first, n);
    if (t <= max_take) {
        *take = t;
        return n;
    }
    if (!seg->bits) {
        *take = max_take / 64 * 64;
        return *take;
    }
    size_t w = first / 64, cut = 0;
    t = 0;
    for (;; w++, cut += 64) {
        size_t c = (size_t)__builtin_popcountll(seg->bits[w]);
        if (t + c > max_take)
            break;
        t += c;
    }
    *take = t;
    return cut;
}

bool g16_piece_next(g16_piece *pc, const g16_msm_segment *segs, size_t nsegs, size_t piece, size_t max_take)
{
    size_t k = pc->k, first = pc->first, used = pc->used;
    if (max_take < 64) /* a word of the densities must fit, or no piece would move on */
        max_take = 64;
    if (pc->started) {
        used += pc->take;
        first += pc->n;
    }
    for (; k < nsegs; k++, first = 0) {
        for (size_t n = 0; first < segs[k].n; first += n) {
            size_t take;
            n = cut_to_take(&segs[k], first, segs[k].n - first < piece ? segs[k].n - first : piece, max_take, &take);
            if (take) {
                *pc = (g16_piece){k, first, n, take, used, true};
                return true;
            }
        }
    }
    return false;
}

/* Each piece is decoded into one buffer and summed while the disk reads the next piece (or, after the
 * last, the first piece of `then`, which the prover sums next) into the page cache. */
static cuzk_status section_streamed(void *acc, int sec, size_t n_bases, const g16_msm_segment *segs, size_t nsegs,
                                    const g16_section_scalars *then, g16_msm_source *src, const cuzk_msm_opts *o,
                                    cuzk_err_t *err)
{
    size_t piece = piece_points(src), max_take = g16_piece_max_take(sec, piece);
    void *buf = NULL;
    params_readahead_t ra = {0};
    g16_piece cur = {0};
    bool have = g16_piece_next(&cur, segs, nsegs, piece, max_take);
    cuzk_status st = CUZK_OK;
    while (have && st == CUZK_OK) {
        const g16_msm_segment *seg = &segs[cur.k];
        if (cur.take > n_bases - cur.used) {
            st = cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "section %s: %zu bases, more are taken", SECTION_NAME[sec],
                              n_bases);
            break;
        }
        if (!buf && !(buf = piece_buffer(src, piece_bytes(sec, piece, n_bases)))) {
            st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory (a piece of section %s)", SECTION_NAME[sec]);
            break;
        }
        params_readahead_wait(&ra);
        g16_piece next = cur;
        have = g16_piece_next(&next, segs, nsegs, piece, max_take);
        g16_piece first = {0}; /* of `then`: only the bases it takes (a quarter of a piece in a b section) */
        if (have)
            params_readahead_start(&ra, src->params, sec, next.used, next.take);
        else if (then &&
                 g16_piece_next(&first, then->segs, then->nsegs, piece, g16_piece_max_take(then->sec, piece)))
            params_readahead_start(&ra, src->params, then->sec, first.used, first.take);
        st = params_decode_range(src->params, sec, cur.used, cur.take, buf, err);
        if (st == CUZK_OK) {
            st = msm_add(acc, sec, buf, cur.take, seg->scalars + cur.first, cur.n,
                         seg->bits ? seg->bits + cur.first / 64 : NULL, o);
            if (st != CUZK_OK)
                st = msm_error(st, sec, err);
        }
        cur = next;
    }
    params_readahead_wait(&ra);
    return st;
}

cuzk_status g16_section_msm(void *out, int sec, const void *bases, size_t n_bases, const g16_msm_segment *segs,
                            size_t nsegs, const g16_section_scalars *then, g16_msm_source *src, cuzk_err_t *err)
{
    cuzk_msm_opts o = {.threads = src->threads};
    if (sec == G16_SEC_B_G2)
        g2_jac_set_inf(out);
    else
        g1_jac_set_inf(out);
    if (bases || n_bases == 0)
        return section_from_memory(out, sec, bases, n_bases, segs, nsegs, &o, err);
    if (!src->params)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG,
                            "section %s of the key is not loaded and no parameter file is given to stream it from",
                            SECTION_NAME[sec]);
    return section_streamed(out, sec, n_bases, segs, nsegs, then, src, &o, err);
}

void g16_section_readahead(params_readahead_t *ra, int sec, const void *bases, const g16_msm_source *src)
{
    ra->running = false;
    if (!bases && src->params)
        params_readahead_start(ra, src->params, sec, 0, piece_points(src));
}
