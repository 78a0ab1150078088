/* The .wtns reader (circom's witness generators and snarkjs write it): section 1 = n8, prime,
 * witness count; section 2 = the values, canonical little-endian, wire order. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/interop.h"
#include "interop/binfile.h"
#include "interop/interop_internal.h"
#include "util/bigmem.h"

void cuzk_wtns_free(cuzk_wtns_t *w)
{
    if (!w)
        return;
    free(w->values);
    memset(w, 0, sizeof *w);
}

cuzk_status cuzk_wtns_read(cuzk_wtns_t *out, const char *path, cuzk_err_t *err)
{
    if (!out || !path)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "cuzk_wtns_read: NULL argument");
    binfile_t bf;
    cuzk_status s = binfile_open(&bf, path, "wtns", 2, err);
    if (s != CUZK_OK)
        return s;
    binfile_populate(&bf);
    const uint8_t *h, *d;
    uint64_t hlen, dlen;
    cuzk_fr_t *vals = NULL;
    if ((s = binfile_section(&bf, 1, &h, &hlen, err)) != CUZK_OK)
        goto out;
    if ((s = interop_check_prime(h, hlen, path, "witness for another curve", err)) != CUZK_OK)
        goto out;
    if (hlen != 4 + 32 + 4) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT, "%s: header section has %llu bytes, expected 40", path,
                         (unsigned long long)hlen);
        goto out;
    }
    uint32_t n = binfile_u32(h + 36);
    if ((s = binfile_section(&bf, 2, &d, &dlen, err)) != CUZK_OK)
        goto out;
    if (dlen != 32 * (uint64_t)n) {
        s = cuzk_err_set(err, CUZK_ERR_FORMAT,
                         "%s: header says %u values, the values section has %llu bytes (expected %llu)",
                         path, n, (unsigned long long)dlen, 32ull * n);
        goto out;
    }
    vals = cuzk_big_malloc((size_t)n * sizeof *vals);
    if (!vals) {
        s = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory for %u values", path, n);
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!fr_from_bytes_le(&vals[i], d + 32 * (uint64_t)i)) {
            s = cuzk_err_set(err, CUZK_ERR_NOT_CANONICAL, "%s: witness value %u is not below r", path, i);
            goto out;
        }
    }
    out->values = vals;
    out->n = n;
    vals = NULL;
out:
    free(vals);
    binfile_close(&bf);
    return s;
}
