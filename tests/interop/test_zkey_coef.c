/* The zkey coefficient section read in parallel chunks against the serial reader on the snarkjs
 * vectors (the CSR matrices must be identical, whatever the chunking), and the serial reader taking
 * over where the parallel one declines: coefficients out of row order (the same rows as the original,
 * as multisets), and a bad value deep in the section (the same error, naming the same entry). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "interop/interop_internal.h"
#include "interop_test_util.h"
#include "test_util.h"

#define COEF_BYTES 44

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Offset of section `type`'s body in a binfile image, 0 when absent. */
static size_t section_at(const uint8_t *b, size_t len, uint32_t type)
{
    size_t at = 12;
    uint32_t n = rd32(b + 8);
    for (uint32_t i = 0; i < n && at + 12 <= len; i++) {
        uint64_t sz = rd32(b + at + 4) | (uint64_t)rd32(b + at + 8) << 32;
        if (rd32(b + at) == type)
            return at + 12;
        at += 12 + sz;
    }
    return 0;
}

static bool read_zkey(cuzk_zkey_t *z, const char *path, int threads, size_t chunk_min, bool parallel,
                      cuzk_err_t *err)
{
    interop_zkey_coef_opts coef = {.chunk_min = chunk_min, .serial_only = !parallel};
    return interop_zkey_read_ex(z, path, threads, 0, &coef, err) == CUZK_OK;
}

static bool csr_equal(const cuzk_csr_t *a, const cuzk_csr_t *b, size_t rows)
{
    if (memcmp(a->row_start, b->row_start, (rows + 2) * sizeof(uint64_t)) != 0)
        return false;
    size_t n = a->row_start[rows];
    return memcmp(a->col, b->col, n * sizeof *a->col) == 0 &&
           memcmp(a->coeff, b->coeff, n * sizeof *a->coeff) == 0;
}

/* Row r of a holds the same (column, value) pairs as row r of b, in any order. */
static bool csr_same_rows(const cuzk_csr_t *a, const cuzk_csr_t *b, size_t rows)
{
    for (size_t r = 0; r < rows; r++) {
        uint64_t lo = a->row_start[r], hi = a->row_start[r + 1];
        if (b->row_start[r] != lo || b->row_start[r + 1] != hi)
            return false;
        for (uint64_t i = lo; i < hi; i++) {
            bool found = false;
            for (uint64_t k = lo; k < hi && !found; k++)
                found = a->col[i] == b->col[k] && memcmp(&a->coeff[i], &b->coeff[k], sizeof a->coeff[i]) == 0;
            if (!found)
                return false;
        }
    }
    return true;
}

static void t_chunkings(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, VEC_DIR "%s.zkey", name);
    cuzk_err_t err = {{0}};
    cuzk_zkey_t ser, par;
    CHECK_MSG(read_zkey(&ser, path, 1, 0, false, &err), "%s: %s", name, err.msg);
    size_t chunk_mins[] = {1, 2, 7, 64};
    for (size_t c = 0; c < sizeof chunk_mins / sizeof chunk_mins[0]; c++)
        for (int threads = 1; threads <= 3; threads += 2) {
            CHECK_MSG(read_zkey(&par, path, threads, chunk_mins[c], true, &err), "%s: %s", name, err.msg);
            CHECK(par.num_constraints == ser.num_constraints);
            CHECK_MSG(csr_equal(&par.a, &ser.a, ser.num_constraints) && csr_equal(&par.b, &ser.b, ser.num_constraints),
                      "%s: chunks of >= %zu, %d threads: CSR differs from the serial reader's", name,
                      chunk_mins[c], threads);
            cuzk_zkey_free(&par);
        }
    cuzk_zkey_free(&ser);
}

/* The section reversed: rows go down, so the parallel reader must hand over to the serial one. */
static void t_out_of_order(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, VEC_DIR "%s.zkey", name);
    size_t len;
    uint8_t *b = (uint8_t *)test_read_file(path, &len);
    CHECK(b != NULL);
    if (!b)
        return;
    size_t at = section_at(b, len, 4);
    CHECK(at != 0);
    uint32_t n = rd32(b + at);
    uint8_t *e = b + at + 4, tmp[COEF_BYTES];
    for (uint32_t i = 0; i < n / 2; i++) {
        memcpy(tmp, e + (size_t)i * COEF_BYTES, COEF_BYTES);
        memcpy(e + (size_t)i * COEF_BYTES, e + (size_t)(n - 1 - i) * COEF_BYTES, COEF_BYTES);
        memcpy(e + (size_t)(n - 1 - i) * COEF_BYTES, tmp, COEF_BYTES);
    }
    const char *rev = scratch_path("reversed.zkey");
    CHECK(write_bytes(rev, b, len));
    cuzk_err_t err = {{0}};
    cuzk_zkey_t orig, got;
    CHECK_MSG(read_zkey(&orig, path, 2, 0, false, &err), "%s", err.msg);
    CHECK_MSG(read_zkey(&got, rev, 2, 1, true, &err), "%s reversed: %s", name, err.msg);
    CHECK(got.num_constraints == orig.num_constraints);
    CHECK_MSG(csr_same_rows(&got.a, &orig.a, orig.num_constraints) &&
                  csr_same_rows(&got.b, &orig.b, orig.num_constraints),
              "%s reversed: rows differ from the original's", name);
    cuzk_zkey_free(&orig);
    cuzk_zkey_free(&got);

    /* A value above r in the last entry: both readers refuse it with the same message. */
    free(b);
    b = (uint8_t *)test_read_file(path, &len);
    memset(b + at + 4 + (size_t)(n - 1) * COEF_BYTES + 12, 0xff, 32);
    const char *bad = scratch_path("bad_coef.zkey");
    CHECK(write_bytes(bad, b, len));
    cuzk_err_t e1 = {{0}}, e2 = {{0}};
    CHECK(!read_zkey(&got, bad, 2, 1, true, &e1));
    CHECK(!read_zkey(&got, bad, 2, 0, false, &e2));
    CHECK_MSG(strcmp(e1.msg, e2.msg) == 0 && strstr(e1.msg, "coefficient") != NULL, "'%s' vs '%s'", e1.msg,
              e2.msg);
    free(b);
}

int main(void)
{
    test_init("test_zkey_coef");
    const char *names[] = {"mult", "cmp"};
    for (int i = 0; i < 2; i++) {
        t_chunkings(names[i]);
        t_out_of_order(names[i]);
    }
    scratch_cleanup();
    return test_finish();
}
