/* Reads C1 JSON in one pass with a small scanner built for this schema: a 32GiB C1 is ~51 MB holding ~10
 * million small integers, which a DOM (jansson) would turn into as many heap objects. The scanner is strict
 * (serde's field order, exact lengths) and names the field path and byte offset of the first problem.
 * Curio's wrapper and C1 files are read by c1_wrapper_parse.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/vanilla/c1_json.h"
#include "util/bigmem.h"

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

/* The path is kept for every value read (a message may need it), so it is built without printf. */
static size_t push_str(P *p, const char *text)
{
    size_t old = p->plen, n = strlen(text), room = sizeof p->path - 1 - p->plen;
    if (n > room)
        n = room;
    memcpy(p->path + p->plen, text, n);
    p->plen += n;
    p->path[p->plen] = 0;
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
    char t[24], *e = t + sizeof t - 1;
    *e = 0;
    *--e = ']';
    do
        *--e = (char)('0' + i % 10);
    while ((i /= 10) != 0);
    *--e = '[';
    return push_str(p, e);
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

/* serde's compact form of a domain, "[d,d,…,d]" with 32 numbers 0..255 and no whitespace, read in one go
 * (it is most of a C1's bytes); 0 when the text is anything else: the general path below then reads it and
 * names the problem. */
static int domain_compact(P *p, uint8_t out[32])
{
    if (p->n - p->pos < 130) /* the longest form is 129 bytes; one more for the look-ahead */
        return 0;
    const unsigned char *s = (const unsigned char *)p->s + p->pos;
    if (*s++ != '[')
        return 0;
    for (int i = 0; i < 32; i++) {
        unsigned v = (unsigned)s[0] - '0', d;
        if (v > 9)
            return 0;
        s++;
        if (v && (d = (unsigned)s[0] - '0') <= 9) { /* no second digit after a leading 0 */
            v = v * 10 + d, s++;
            if ((d = (unsigned)s[0] - '0') <= 9)
                v = v * 10 + d, s++;
        }
        if (v > 255 || *s++ != (i == 31 ? ']' : ','))
            return 0;
        out[i] = (uint8_t)v;
    }
    p->pos = (size_t)((const char *)s - p->s);
    return 1;
}

/* An array of exactly 32 integers 0..255. */
static cuzk_status domain(P *p, uint8_t out[32])
{
    if (domain_compact(p, out))
        return CUZK_OK;
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
