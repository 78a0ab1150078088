/* Decoder of bincode PartitionProof (storage-proofs-update vanilla.rs). Two passes over the bytes, as the
 * PoSt decoder does: the first validates and counts, so that one allocation of exactly the right size holds
 * everything and no length field can ask for more memory than the input itself justifies. */
#include "filecoin/vanilla/snap_vproof.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/merkle_bincode.h"

#define WHO "snap vproof"

typedef struct {
    cuzk_fc_bincode_reader_t b;
    /* Second pass only: where the apex leaves, the challenges and the siblings go. */
    uint8_t *apex;
    cuzk_fc_snap_challenge_proof_t *ch;
    uint8_t *sib;
    /* First pass: totals. */
    size_t n_apex, n_ch, n_sib;
} reader;

static const char *const path_names[3] = {"tree R old", "tree D new", "tree R new"};

const char *cuzk_fc_snap_path_name(int which)
{
    return which >= 0 && which < 3 ? path_names[which] : "?";
}

/* The error in r's message with "(challenge i, <path>)" appended. */
static cuzk_status at_path(reader *r, cuzk_status st, uint64_t i, int which)
{
    if (!r->b.err)
        return st;
    char msg[sizeof r->b.err->msg];
    memcpy(msg, r->b.err->msg, sizeof msg);
    return cuzk_err_set(r->b.err, st, "%s (challenge %llu, %s path)", msg, (unsigned long long)i, path_names[which]);
}

static cuzk_status parse(reader *r, cuzk_fc_snap_vproof_t *out)
{
    uint64_t n_apex, n_ch;
    cuzk_status st;
    if ((st = cuzk_fc_bincode_domain(&r->b, out->comm_c, "comm_c")) != CUZK_OK)
        return st;
    size_t at = r->b.pos;
    if ((st = cuzk_fc_bincode_u64(&r->b, &n_apex, "the apex leaf count")) != CUZK_OK)
        return st;
    /* checked against the bytes left before multiplying, so that the product cannot wrap */
    const uint8_t *p = NULL;
    if (n_apex > (r->b.len - r->b.pos) / 32)
        return cuzk_err_set(r->b.err, CUZK_ERR_FORMAT,
                            WHO ": truncated at byte %zu reading the apex leaves (%llu of them declared at byte %zu, "
                                "%zu bytes left)",
                            r->b.pos, (unsigned long long)n_apex, at, r->b.len - r->b.pos);
    if ((st = cuzk_fc_bincode_take(&r->b, &p, (size_t)n_apex * 32, "the apex leaves")) != CUZK_OK)
        return st;
    if (r->apex)
        memcpy(r->apex, p, (size_t)n_apex * 32);
    else
        r->n_apex = (size_t)n_apex;
    out->n_apex = (size_t)n_apex;
    if ((st = cuzk_fc_bincode_u64(&r->b, &n_ch, "the challenge proof count")) != CUZK_OK)
        return st;
    /* Every iteration consumes bytes, so the loop ends at the input's end whatever the count says. */
    static const cuzk_fc_merkle_hash_t hashes[3] = {CUZK_FC_MERKLE_POSEIDON, CUZK_FC_MERKLE_SHA256,
                                                    CUZK_FC_MERKLE_POSEIDON};
    for (uint64_t i = 0; i < n_ch; i++) {
        cuzk_fc_snap_challenge_proof_t *c = r->ch;
        cuzk_fc_merkle_path_t *paths[3] = {c ? &c->r_old : NULL, c ? &c->d_new : NULL, c ? &c->r_new : NULL};
        for (int w = 0; w < 3; w++)
            if ((st = cuzk_fc_bincode_merkle_proof(&r->b, hashes[w], paths[w], &r->sib, &r->n_sib)) != CUZK_OK)
                return at_path(r, st, i, w);
        if (r->ch)
            r->ch++;
        else
            r->n_ch++;
    }
    out->n_challenges = (size_t)n_ch;
    return CUZK_OK;
}

cuzk_status cuzk_fc_snap_vproof_decode(cuzk_fc_snap_vproof_t *out, const uint8_t *buf, size_t len, size_t *consumed,
                                       cuzk_err_t *err)
{
    if (!out || (!buf && len))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, WHO ": NULL argument");
    memset(out, 0, sizeof *out);
    reader r = {.b = {.buf = buf, .len = len, .who = WHO, .err = err}};
    cuzk_status st = parse(&r, out);
    if (st != CUZK_OK)
        goto fail;
    if (!consumed && r.b.pos != len) {
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, WHO ": %zu trailing bytes after the proof (ends at byte %zu of %zu)",
                          len - r.b.pos, r.b.pos, len);
        goto fail;
    }
    /* The counts are bounded by len (each item takes bytes), so these products cannot overflow. */
    size_t ch_bytes = r.n_ch * sizeof(cuzk_fc_snap_challenge_proof_t);
    size_t sz = ch_bytes + r.n_apex * 32 + r.n_sib * 32;
    uint8_t *mem = sz ? malloc(sz) : NULL;
    if (sz && !mem) {
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, WHO ": %zu bytes for the decoded proof", sz);
        goto fail;
    }
    reader w = {.b = {.buf = buf, .len = r.b.pos, .who = WHO, .err = err}};
    if (mem) {
        w.ch = (cuzk_fc_snap_challenge_proof_t *)mem;
        w.apex = mem + ch_bytes;
        w.sib = w.apex + r.n_apex * 32;
    }
    cuzk_fc_snap_vproof_t tmp;
    memset(&tmp, 0, sizeof tmp);
    /* The first pass found these bytes valid: the second cannot fail. */
    if ((st = parse(&w, &tmp)) != CUZK_OK) {
        free(mem);
        goto fail;
    }
    *out = tmp;
    out->storage = mem;
    out->challenges = r.n_ch ? (cuzk_fc_snap_challenge_proof_t *)mem : NULL;
    out->apex = r.n_apex ? mem + ch_bytes : NULL;
    if (consumed)
        *consumed = r.b.pos;
    return CUZK_OK;
fail:
    memset(out, 0, sizeof *out);
    return st;
}

void cuzk_fc_snap_vproof_free(cuzk_fc_snap_vproof_t *v)
{
    if (!v)
        return;
    free(v->storage);
    memset(v, 0, sizeof *v);
}

cuzk_status cuzk_fc_snap_vproof_list_decode(cuzk_fc_snap_vproof_t *out, size_t max, size_t *n, const uint8_t *buf,
                                            size_t len, cuzk_err_t *err)
{
    if (!n || (max && !out) || (!buf && len))
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, WHO ": NULL argument");
    *n = 0;
    if (max)
        memset(out, 0, max * sizeof *out);
    cuzk_fc_bincode_reader_t r = {.buf = buf, .len = len, .who = WHO, .err = err};
    uint64_t count;
    cuzk_status st = cuzk_fc_bincode_u64(&r, &count, "the partition proof count");
    if (st != CUZK_OK)
        return st;
    if (count > max)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, WHO ": %llu partition proofs, at most %zu expected",
                            (unsigned long long)count, max);
    size_t i = 0;
    for (; i < count && st == CUZK_OK; i++) {
        size_t used = 0;
        st = cuzk_fc_snap_vproof_decode(&out[i], buf + r.pos, len - r.pos, &used, err);
        if (st != CUZK_OK && err) {
            /* offsets in the message are the partition's; say where it starts */
            char msg[sizeof err->msg];
            memcpy(msg, err->msg, sizeof msg);
            cuzk_err_set(err, st, "partition proof %zu (from byte %zu): %s", i, r.pos, msg);
        }
        r.pos += used;
    }
    if (st == CUZK_OK && r.pos != len)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT,
                          WHO ": %zu trailing bytes after %llu partition proofs (byte %zu of %zu)", len - r.pos,
                          (unsigned long long)count, r.pos, len);
    if (st != CUZK_OK) {
        for (size_t j = 0; j < i; j++)
            cuzk_fc_snap_vproof_free(&out[j]);
        return st;
    }
    *n = (size_t)count;
    return CUZK_OK;
}
