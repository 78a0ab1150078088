/* Reads C1 JSON in one pass with a small scanner built for this schema: a 32GiB C1 is ~51 MB holding ~10
 * million small integers, which a DOM (jansson) would turn into as many heap objects. The scanner is strict
 * (serde's field order, exact lengths) and names the field path and byte offset of the first problem.
 * Curio's wrapper is small apart from one string, so it is read with jansson. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "filecoin/c1_json.h"

#define MAX_DOMAINS 64          /* per JSON array of domains: 37 parents, 11 rows, 15 siblings at most */
#define MAX_SIBLINGS (CUZK_FC_MERKLE_MAX_LEVELS * 15)

typedef struct {
    const char *s;
    size_t n, pos;
    cuzk_err_t *err;
    char path[192];
    size_t plen;
    cuzk_fc_c1_t *c1;
    uint8_t tmp[MAX_DOMAINS][32];
    uint8_t sib[MAX_SIBLINGS][32];
} P;

static cuzk_status fail(P *p, const char *what)
{
    return cuzk_err_set(p->err, CUZK_ERR_FORMAT, "c1 json: byte %zu: %s: %s", p->pos, p->plen ? p->path : "(top)",
                        what);
}

static size_t push_str(P *p, const char *text)
{
    size_t old = p->plen, room = sizeof p->path - p->plen;
    int n = snprintf(p->path + p->plen, room, "%s", text);
    if (n > 0)
        p->plen += (size_t)n < room ? (size_t)n : room - 1;
    return old;
}

/* Field path for messages: ".name" (no dot at the start) or "[i]". */
static size_t push_key(P *p, const char *name)
{
    size_t old = p->plen;
    if (p->plen)
        push_str(p, ".");
    push_str(p, name);
    return old;
}

static size_t push_idx(P *p, unsigned long long i)
{
    char t[24];
    snprintf(t, sizeof t, "[%llu]", i);
    return push_str(p, t);
}

static void pop(P *p, size_t old)
{
    p->plen = old;
    p->path[old] = 0;
}

static inline void ws(P *p)
{
    while (p->pos < p->n && (p->s[p->pos] == ' ' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r' ||
                             p->s[p->pos] == '\t'))
        p->pos++;
}

/* Consumes c (after whitespace); 0 when the next character is something else. */
static inline int eat(P *p, char c)
{
    ws(p);
    if (p->pos < p->n && p->s[p->pos] == c) {
        p->pos++;
        return 1;
    }
    return 0;
}

static cuzk_status expect(P *p, char c)
{
    if (eat(p, c))
        return CUZK_OK;
    char m[64];
    if (p->pos >= p->n)
        snprintf(m, sizeof m, "truncated: expected '%c'", c);
    else
        snprintf(m, sizeof m, "expected '%c', found '%c'", c, p->s[p->pos]);
    return fail(p, m);
}

/* A string without escapes into out (cap bytes with the NUL). */
static cuzk_status string(P *p, char *out, size_t cap)
{
    cuzk_status st = expect(p, '"');
    if (st != CUZK_OK)
        return st;
    size_t i = 0;
    while (p->pos < p->n && p->s[p->pos] != '"') {
        char c = p->s[p->pos];
        if (c == '\\' || (unsigned char)c < 0x20)
            return fail(p, "unexpected character in a name");
        if (i + 1 >= cap)
            return fail(p, "name too long");
        out[i++] = c;
        p->pos++;
    }
    if (p->pos >= p->n)
        return fail(p, "truncated string");
    p->pos++;
    out[i] = 0;
    return CUZK_OK;
}

/* "name": — the next field must be exactly this one (serde's order). */
static cuzk_status key(P *p, const char *name)
{
    size_t at = p->pos;
    char k[64];
    cuzk_status st = string(p, k, sizeof k);
    if (st != CUZK_OK || strcmp(k, name) != 0) {
        p->pos = at;
        char m[128];
        snprintf(m, sizeof m, "expected field \"%s\"%s%s%s", name, st == CUZK_OK ? ", found \"" : "",
                 st == CUZK_OK ? k : "", st == CUZK_OK ? "\"" : "");
        return fail(p, m);
    }
    return expect(p, ':');
}

/* A JSON unsigned integer (no sign, fraction, exponent or leading zero) <= max. */
static cuzk_status unum(P *p, uint64_t *v, uint64_t max)
{
    ws(p);
    size_t b = p->pos;
    uint64_t x = 0;
    while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
        unsigned d = (unsigned)(p->s[p->pos] - '0');
        if (x > (max - d) / 10)
            return fail(p, "integer out of range");
        x = x * 10 + d;
        p->pos++;
    }
    if (p->pos == b)
        return fail(p, p->pos >= p->n ? "truncated: expected an integer" : "expected an unsigned integer");
    if (p->pos - b > 1 && p->s[b] == '0')
        return fail(p, "integer with a leading zero");
    if (p->pos < p->n && (p->s[p->pos] == '.' || p->s[p->pos] == 'e' || p->s[p->pos] == 'E'))
        return fail(p, "expected an integer, found a fraction or exponent");
    *v = x;
    return CUZK_OK;
}

/* An array of exactly 32 integers 0..255. */
static cuzk_status domain(P *p, uint8_t out[32])
{
    cuzk_status st = expect(p, '[');
    for (int i = 0; st == CUZK_OK && i < 32; i++) {
        if (i && (st = expect(p, ',')) != CUZK_OK) {
            if (eat(p, ']'))
                return fail(p, "array of 32 bytes is too short");
            return st;
        }
        /* serde writes bare digits: take the fast path, fall back to the general one. */
        const char *s = p->s + p->pos;
        if (p->pos + 4 < p->n && s[0] >= '0' && s[0] <= '9') {
            unsigned v = (unsigned)(s[0] - '0'), k = 1;
            if (v)
                while (k < 3 && s[k] >= '0' && s[k] <= '9')
                    v = v * 10 + (unsigned)(s[k++] - '0');
            if (v <= 255 && (s[k] == ',' || s[k] == ']')) {
                out[i] = (uint8_t)v;
                p->pos += k;
                continue;
            }
        }
        uint64_t v;
        if ((st = unum(p, &v, 255)) != CUZK_OK)
            return st;
        out[i] = (uint8_t)v;
    }
    if (st != CUZK_OK)
        return st;
    if (!eat(p, ']'))
        return fail(p, p->pos < p->n && p->s[p->pos] == ',' ? "array of 32 bytes is too long" : "expected ']'");
    return CUZK_OK;
}

/* An array of domains into p->tmp; *count gets its length. */
static cuzk_status domains(P *p, uint8_t (*out)[32], size_t max, size_t *count)
{
    cuzk_status st = expect(p, '[');
    if (st != CUZK_OK)
        return st;
    size_t n = 0;
    if (!eat(p, ']')) {
        do {
            if (n == max)
                return fail(p, "too many elements");
            size_t o = push_idx(p, n);
            st = domain(p, out[n]);
            if (st != CUZK_OK)
                return st;
            pop(p, o);
            n++;
        } while (eat(p, ','));
        if ((st = expect(p, ']')) != CUZK_OK)
            return st;
    }
    *count = n;
    return CUZK_OK;
}

static void *dup_arena(P *p, const void *src, size_t n)
{
    void *d = cuzk_fc_c1_alloc(p->c1, n ? n : 1);
    if (d && n)
        memcpy(d, src, n);
    return d;
}

/* InclusionPath {"path":[{"hashes":[…],"index":i},…]}: appends levels to path, siblings to p->sib. */
static cuzk_status inclusion(P *p, cuzk_fc_merkle_path_t *path, uint32_t *levels, size_t *nsib)
{
    cuzk_status st;
    if ((st = expect(p, '{')) || (st = key(p, "path")) || (st = expect(p, '[')))
        return st;
    uint32_t n = 0;
    if (!eat(p, ']')) {
        do {
            size_t o = push_idx(p, n);
            if (*levels >= CUZK_FC_MERKLE_MAX_LEVELS)
                return fail(p, "path has too many levels");
            size_t cnt = 0;
            uint64_t idx;
            if ((st = expect(p, '{')) || (st = key(p, "hashes")) || (st = domains(p, p->tmp, 15, &cnt)) ||
                (st = expect(p, ',')) || (st = key(p, "index")) || (st = unum(p, &idx, 15)) ||
                (st = expect(p, '}')))
                return st;
            if (cnt != 1 && cnt != 3 && cnt != 7 && cnt != 15)
                return fail(p, "a path element needs 1, 3, 7 or 15 hashes (arity 2, 4, 8, 16)");
            if (idx > cnt)
                return fail(p, "index is not below the arity");
            if (*nsib + cnt > MAX_SIBLINGS)
                return fail(p, "path too long");
            memcpy(p->sib[*nsib], p->tmp, cnt * 32);
            *nsib += cnt;
            path->steps[*levels].arity = (uint8_t)(cnt + 1);
            path->steps[*levels].index = (uint8_t)idx;
            (*levels)++;
            n++;
            pop(p, o);
        } while (eat(p, ','));
        if ((st = expect(p, ']')) != CUZK_OK)
            return st;
    }
    return expect(p, '}');
}

static cuzk_status merkle(P *p, cuzk_fc_merkle_path_t *path, cuzk_fc_merkle_hash_t hash)
{
    cuzk_status st;
    memset(path, 0, sizeof *path);
    path->hash = hash;
    if ((st = expect(p, '{')) || (st = key(p, "data")) || (st = expect(p, '{')))
        return st;
    char variant[16];
    size_t at = p->pos;
    if ((st = string(p, variant, sizeof variant)) != CUZK_OK)
        return st;
    if ((st = expect(p, ':')) || (st = expect(p, '{')))
        return st;
    uint32_t levels = 0, mark;
    size_t nsib = 0;
    size_t o = push_key(p, variant);
    if (strcmp(variant, "Single") == 0) {
        size_t o2 = push_key(p, "root");
        if ((st = key(p, "root")) || (st = domain(p, path->root)))
            return st;
        pop(p, o2);
        o2 = push_key(p, "leaf");
        if ((st = expect(p, ',')) || (st = key(p, "leaf")) || (st = domain(p, path->leaf)))
            return st;
        pop(p, o2);
        o2 = push_key(p, "path");
        if ((st = expect(p, ',')) || (st = key(p, "path")) || (st = inclusion(p, path, &levels, &nsib)))
            return st;
        pop(p, o2);
        path->n_base = levels;
    } else if (strcmp(variant, "Sub") == 0 || strcmp(variant, "Top") == 0) {
        int top = variant[0] == 'T';
        size_t o2 = push_key(p, "base_proof");
        if ((st = key(p, "base_proof")) || (st = inclusion(p, path, &levels, &nsib)))
            return st;
        path->n_base = levels;
        pop(p, o2);
        o2 = push_key(p, "sub_proof");
        mark = levels;
        if ((st = expect(p, ',')) || (st = key(p, "sub_proof")) || (st = inclusion(p, path, &levels, &nsib)))
            return st;
        path->n_sub = levels - mark;
        pop(p, o2);
        if (top) {
            o2 = push_key(p, "top_proof");
            mark = levels;
            if ((st = expect(p, ',')) || (st = key(p, "top_proof")) || (st = inclusion(p, path, &levels, &nsib)))
                return st;
            path->n_top = levels - mark;
            pop(p, o2);
        }
        o2 = push_key(p, "root");
        if ((st = expect(p, ',')) || (st = key(p, "root")) || (st = domain(p, path->root)))
            return st;
        pop(p, o2);
        o2 = push_key(p, "leaf");
        if ((st = expect(p, ',')) || (st = key(p, "leaf")) || (st = domain(p, path->leaf)))
            return st;
        pop(p, o2);
    } else {
        p->pos = at;
        return fail(p, "unknown proof data variant (expected Single, Sub or Top)");
    }
    pop(p, o);
    if ((st = expect(p, '}')) || (st = expect(p, '}')) || (st = expect(p, '}')))
        return st;
    if (hash == CUZK_FC_MERKLE_SHA256 && (path->n_sub || path->n_top))
        return fail(p, "the comm_d tree is binary: only Single proofs");
    path->siblings = dup_arena(p, p->sib, nsib * 32);
    if (!path->siblings)
        return cuzk_err_set(p->err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    return CUZK_OK;
}

static cuzk_status column(P *p, cuzk_fc_c1_column_t *c, uint32_t layers)
{
    cuzk_status st;
    uint64_t idx;
    size_t cnt = 0;
    size_t o = push_key(p, "column");
    if ((st = expect(p, '{')) || (st = key(p, "column")) || (st = expect(p, '{')) || (st = key(p, "index")) ||
        (st = unum(p, &idx, UINT32_MAX)) || (st = expect(p, ',')) || (st = key(p, "rows")))
        return st;
    size_t o2 = push_key(p, "rows");
    if ((st = domains(p, p->tmp, MAX_DOMAINS, &cnt)))
        return st;
    pop(p, o2);
    if (cnt != layers) {
        char m[80];
        snprintf(m, sizeof m, "rows: %zu entries, the proof has %u layers", cnt, layers);
        return fail(p, m);
    }
    if ((st = expect(p, ',')) || (st = key(p, "_h")))
        return st;
    ws(p);
    if (p->n - p->pos < 4 || memcmp(p->s + p->pos, "null", 4) != 0)
        return fail(p, "_h: expected null");
    p->pos += 4;
    if ((st = expect(p, '}')))
        return st;
    pop(p, o);
    c->index = (uint32_t)idx;
    if (!(c->rows = dup_arena(p, p->tmp, cnt * 32)))
        return cuzk_err_set(p->err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    o = push_key(p, "inclusion_proof");
    if ((st = expect(p, ',')) || (st = key(p, "inclusion_proof")) || (st = merkle(p, &c->path, CUZK_FC_MERKLE_POSEIDON)))
        return st;
    pop(p, o);
    return expect(p, '}');
}

static cuzk_status label(P *p, cuzk_fc_c1_label_t *l)
{
    cuzk_status st;
    size_t cnt = 0;
    uint64_t li, node;
    size_t o = push_key(p, "parents");
    if ((st = expect(p, '{')) || (st = key(p, "parents")) || (st = domains(p, p->tmp, MAX_DOMAINS, &cnt)))
        return st;
    if (cnt != CUZK_FC_LABEL_PARENTS)
        return fail(p, "expected 37 parents");
    pop(p, o);
    if ((st = expect(p, ',')) || (st = key(p, "layer_index")) || (st = unum(p, &li, UINT32_MAX)) ||
        (st = expect(p, ',')) || (st = key(p, "node")) || (st = unum(p, &node, UINT64_MAX)) || (st = expect(p, '}')))
        return st;
    l->n_parents = (uint32_t)cnt;
    l->layer_index = (uint32_t)li;
    l->node = node;
    if (!(l->parents = dup_arena(p, p->tmp, cnt * 32)))
        return cuzk_err_set(p->err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    return CUZK_OK;
}

static cuzk_status column_list(P *p, cuzk_fc_c1_column_t *c, int n, uint32_t layers)
{
    cuzk_status st = expect(p, '[');
    for (int i = 0; st == CUZK_OK && i < n; i++) {
        if (i && (st = expect(p, ',')) != CUZK_OK)
            return eat(p, ']') ? fail(p, "too few parent columns") : st;
        size_t o = push_idx(p, (unsigned long long)i);
        if ((st = column(p, &c[i], layers)) != CUZK_OK)
            return st;
        pop(p, o);
    }
    if (st == CUZK_OK && !eat(p, ']'))
        return fail(p, "too many parent columns (expected 6 DRG and 8 expander parents)");
    return st;
}

static cuzk_status vproof(P *p, cuzk_fc_c1_vproof_t *v)
{
    const cuzk_fc_seal_proof_t *sp = p->c1->proof;
    uint32_t L = sp->layers;
    cuzk_status st;
    size_t o = push_key(p, "comm_d_proofs");
    if ((st = expect(p, '{')) || (st = key(p, "comm_d_proofs")) || (st = merkle(p, &v->comm_d, CUZK_FC_MERKLE_SHA256)))
        return st;
    pop(p, o);
    o = push_key(p, "comm_r_last_proof");
    if ((st = expect(p, ',')) || (st = key(p, "comm_r_last_proof")) ||
        (st = merkle(p, &v->comm_r_last, CUZK_FC_MERKLE_POSEIDON)))
        return st;
    pop(p, o);
    o = push_key(p, "replica_column_proofs");
    if ((st = expect(p, ',')) || (st = key(p, "replica_column_proofs")) || (st = expect(p, '{')))
        return st;
    size_t o2 = push_key(p, "c_x");
    if ((st = key(p, "c_x")) || (st = column(p, &v->c_x, L)))
        return st;
    pop(p, o2);
    o2 = push_key(p, "drg_parents");
    if ((st = expect(p, ',')) || (st = key(p, "drg_parents")) || (st = column_list(p, v->drg, CUZK_FC_DRG_DEGREE, L)))
        return st;
    pop(p, o2);
    o2 = push_key(p, "exp_parents");
    if ((st = expect(p, ',')) || (st = key(p, "exp_parents")) || (st = column_list(p, v->exp, CUZK_FC_EXP_DEGREE, L)))
        return st;
    pop(p, o2);
    if ((st = expect(p, '}')))
        return st;
    pop(p, o);
    o = push_key(p, "labeling_proofs");
    if ((st = expect(p, ',')) || (st = key(p, "labeling_proofs")) || (st = expect(p, '[')))
        return st;
    v->n_layers = L;
    if (!(v->labeling = cuzk_fc_c1_alloc(p->c1, L * sizeof *v->labeling)))
        return cuzk_err_set(p->err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    for (uint32_t l = 0; l < L; l++) {
        if (l && (st = expect(p, ',')) != CUZK_OK)
            return eat(p, ']') ? fail(p, "fewer labeling proofs than layers") : st;
        o2 = push_idx(p, l);
        if ((st = label(p, &v->labeling[l])) != CUZK_OK)
            return st;
        pop(p, o2);
    }
    if (!eat(p, ']'))
        return fail(p, "more labeling proofs than layers");
    pop(p, o);
    o = push_key(p, "encoding_proof");
    if ((st = expect(p, ',')) || (st = key(p, "encoding_proof")) || (st = label(p, &v->encoding)))
        return st;
    pop(p, o);
    return expect(p, '}');
}

static cuzk_status top_domain(P *p, const char *name, uint8_t out[32])
{
    size_t o = push_key(p, name);
    cuzk_status st;
    if ((st = expect(p, ',')) || (st = key(p, name)) || (st = domain(p, out)))
        return st;
    pop(p, o);
    return CUZK_OK;
}

static cuzk_status parse(P *p)
{
    cuzk_fc_c1_t *c1 = p->c1;
    cuzk_status st;
    char name[64];
    size_t o = push_key(p, "registered_proof");
    if ((st = expect(p, '{')) || (st = key(p, "registered_proof")) || (st = string(p, name, sizeof name)))
        return st;
    cuzk_err_t e;
    if (cuzk_fc_seal_proof_parse(&c1->proof, name, &e) != CUZK_OK || strcmp(c1->proof->name, name) != 0)
        return fail(p, "unknown registered seal proof name");
    pop(p, o);
    const cuzk_fc_seal_proof_t *sp = c1->proof;
    const char *shape = cuzk_fc_c1_shape_name(sp);
    if (!shape || sp->layers > CUZK_FC_C1_MAX_LAYERS)
        return fail(p, "unsupported sector shape");
    o = push_key(p, "vanilla_proofs");
    if ((st = expect(p, ',')) || (st = key(p, "vanilla_proofs")) || (st = expect(p, '{')) ||
        (st = string(p, name, sizeof name)))
        return st;
    if (strcmp(name, shape) != 0) {
        char m[160];
        snprintf(m, sizeof m, "variant \"%s\" does not match registered_proof %s (expected \"%s\")", name, sp->name,
                 shape);
        return fail(p, m);
    }
    c1->n_partitions = sp->partitions;
    c1->challenges_per_partition = sp->challenges_per_partition;
    size_t total = (size_t)sp->partitions * sp->challenges_per_partition;
    if (!(c1->vproofs = cuzk_fc_c1_alloc(c1, total * sizeof *c1->vproofs)))
        return cuzk_err_set(p->err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    if ((st = expect(p, ':')) || (st = expect(p, '[')))
        return st;
    for (uint32_t k = 0; k < sp->partitions; k++) {
        size_t ok = push_idx(p, k);
        if (k && (st = expect(p, ',')) != CUZK_OK)
            return eat(p, ']') ? fail(p, "fewer partitions than the registered proof has") : st;
        if ((st = expect(p, '[')))
            return st;
        for (uint32_t i = 0; i < sp->challenges_per_partition; i++) {
            if (i && (st = expect(p, ',')) != CUZK_OK)
                return eat(p, ']') ? fail(p, "fewer challenges than the registered proof has per partition") : st;
            size_t oi = push_idx(p, i);
            if ((st = vproof(p, cuzk_fc_c1_vproof(c1, k, i))) != CUZK_OK)
                return st;
            pop(p, oi);
        }
        if (!eat(p, ']'))
            return fail(p, "more challenges than the registered proof has per partition");
        pop(p, ok);
    }
    if (!eat(p, ']'))
        return fail(p, "more partitions than the registered proof has");
    if ((st = expect(p, '}')))
        return st;
    pop(p, o);
    if ((st = top_domain(p, "comm_r", c1->comm_r)) || (st = top_domain(p, "comm_d", c1->comm_d)) ||
        (st = top_domain(p, "replica_id", c1->replica_id)) || (st = top_domain(p, "seed", c1->seed)) ||
        (st = top_domain(p, "ticket", c1->ticket)) || (st = expect(p, '}')))
        return st;
    ws(p);
    if (p->pos != p->n)
        return fail(p, "trailing data after the C1 object");
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_json_parse(cuzk_fc_c1_t *out, const char *buf, size_t len, unsigned flags,
                                  cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    P *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 json: out of memory");
    p->s = buf;
    p->n = len;
    p->err = err;
    p->c1 = out;
    cuzk_status st = parse(p);
    free(p);
    if (st == CUZK_OK && !(flags & CUZK_FC_C1_PARSE_NO_VERIFY))
        st = cuzk_fc_c1_verify(out, err);
    if (st != CUZK_OK)
        cuzk_fc_c1_free(out);
    return st;
}

/* Standard base64 with padding (Go's encoding of []byte). */
static cuzk_status b64_decode(uint8_t **out, size_t *out_len, const char *s, size_t n, cuzk_err_t *err)
{
    if (n % 4 != 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: Phase1Out: base64 length %zu is not a multiple of 4", n);
    if (n > (size_t)1 << 30)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: Phase1Out: too large");
    uint8_t *b = malloc(n / 4 * 3 + 1);
    if (!b)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "c1 wrapper: out of memory");
    size_t pad = 0;
    if (n && s[n - 1] == '=')
        pad = n >= 2 && s[n - 2] == '=' ? 2 : 1;
    for (size_t i = 0; i < n - pad; i++) {
        char c = s[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/')) {
            free(b);
            return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: Phase1Out: invalid base64 character at %zu", i);
        }
    }
    int m = n ? EVP_DecodeBlock(b, (const unsigned char *)s, (int)n) : 0;
    if (m < 0 || (size_t)m < pad) {
        free(b);
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: Phase1Out: invalid base64");
    }
    *out = b;
    *out_len = (size_t)m - pad;
    return CUZK_OK;
}

static int is_wrapper(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
        i++;
    if (i >= len || buf[i] != '{')
        return 0;
    i++;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
        i++;
    return len - i >= 11 && memcmp(buf + i, "\"SectorNum\"", 11) == 0;
}

static cuzk_status wrapper_u64(json_t *root, const char *name, uint64_t *v, cuzk_err_t *err)
{
    json_t *x = json_object_get(root, name);
    if (!x)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: missing field %s", name);
    if (!json_is_integer(x) || json_integer_value(x) < 0)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: %s: expected an unsigned integer", name);
    *v = (uint64_t)json_integer_value(x);
    return CUZK_OK;
}

cuzk_status cuzk_fc_c1_parse_any(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *buf, size_t len,
                                 unsigned flags, cuzk_err_t *err)
{
    cuzk_fc_c1_wrapper_info_t tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    memset(out, 0, sizeof *out);
    if (!is_wrapper(buf, len))
        return cuzk_fc_c1_json_parse(out, buf, len, flags, err);
    info->wrapped = 1;
    json_error_t je;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: line %d column %d: %s", je.line, je.column, je.text);
    cuzk_status st = CUZK_OK;
    if (json_object_size(root) != 3)
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: expected exactly SectorNum, Phase1Out, SectorSize");
    if (st == CUZK_OK)
        st = wrapper_u64(root, "SectorNum", &info->sector_num, err);
    if (st == CUZK_OK)
        st = wrapper_u64(root, "SectorSize", &info->sector_size, err);
    json_t *ph = json_object_get(root, "Phase1Out");
    if (st == CUZK_OK && (!ph || !json_is_string(ph)))
        st = cuzk_err_set(err, CUZK_ERR_FORMAT, "c1 wrapper: Phase1Out: %s", ph ? "expected a base64 string" : "missing");
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    if (st == CUZK_OK)
        st = b64_decode(&raw, &raw_len, json_string_value(ph), json_string_length(ph), err);
    json_decref(root);
    if (st != CUZK_OK)
        return st;
    st = cuzk_fc_c1_json_parse(out, (const char *)raw, raw_len, flags, err);
    free(raw);
    if (st == CUZK_OK && out->proof->sector_size != info->sector_size) {
        st = cuzk_err_set(err, CUZK_ERR_MISMATCH, "c1 wrapper: SectorSize %llu, but Phase1Out is a %s proof",
                          (unsigned long long)info->sector_size, out->proof->name);
        cuzk_fc_c1_free(out);
    }
    return st;
}

cuzk_status cuzk_fc_c1_load(cuzk_fc_c1_t *out, cuzk_fc_c1_wrapper_info_t *info, const char *path, unsigned flags,
                            cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 1 << 20) {
            cap = cap ? cap * 2 : 1 << 22;
            char *q = realloc(buf, cap);
            if (!q) {
                free(buf);
                fclose(f);
                return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "%s: out of memory", path);
            }
            buf = q;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return cuzk_err_set(err, CUZK_ERR_IO, "%s: read error", path);
    }
    cuzk_status st = cuzk_fc_c1_parse_any(out, info, buf, len, flags, err);
    free(buf);
    if (st != CUZK_OK) {
        /* Say which file the message is about. */
        cuzk_err_t e2;
        if (err) {
            cuzk_err_set(&e2, st, "%s: %s", path, err->msg);
            *err = e2;
        }
    }
    return st;
}
