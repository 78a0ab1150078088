/* Splitting a SnapDeals vanilla file into its partition proofs (snap_parts.h) with the library's decoder
 * (vanilla/snap_vproof.h: one PartitionProof at a time, its length reported). */
#include "bench/snap_parts.h"

#include <stdio.h>

#include "filecoin/vanilla/snap_vproof.h"

/* The length of the PartitionProof at buf (len bytes available), or 0 with err set. */
static size_t one(const uint8_t *buf, size_t len, cuzk_err_t *err)
{
    cuzk_fc_snap_vproof_t v;
    size_t used = 0;
    if (cuzk_fc_snap_vproof_decode(&v, buf, len, &used, err) != CUZK_OK)
        return 0;
    cuzk_fc_snap_vproof_free(&v);
    return used;
}

int bench_snap_parts(const uint8_t *buf, size_t len, size_t *off, size_t *lens, size_t max, size_t *n, char *msg,
                     size_t msg_len)
{
    size_t first = *n, room = max > first ? max - first : 0;
    char vec_why[300] = "shorter than its count";
    /* the Vec form: a u64 count, then that many proofs, nothing after them */
    if (len >= 8) {
        uint64_t count = 0;
        for (int i = 7; i >= 0; i--)
            count = count << 8 | buf[i];
        cuzk_err_t err = {{0}};
        size_t pos = 8, k = 0;
        if (count == 0 || count > room) {
            snprintf(vec_why, sizeof vec_why, "a count of %llu, room for 1 to %zu", (unsigned long long)count, room);
        } else {
            for (size_t used; k < count && (used = one(buf + pos, len - pos, &err)) != 0; k++) {
                off[first + k] = pos;
                lens[first + k] = used;
                pos += used;
            }
            if (k == count && pos == len) {
                *n = first + k;
                return 0;
            }
            snprintf(vec_why, sizeof vec_why, "%s", k < count ? err.msg : "bytes after the last proof");
        }
    }
    /* one bare PartitionProof */
    cuzk_err_t err = {{0}};
    size_t used = one(buf, len, &err);
    if (used == len && room > 0) {
        off[first] = 0;
        lens[first] = len;
        *n = first + 1;
        return 0;
    }
    snprintf(msg, msg_len, "neither a sector's Vec<PartitionProof> (%s) nor one PartitionProof (%s)", vec_why,
             used == 0 ? err.msg : used != len ? "bytes after it" : "too many proofs");
    return -1;
}
