/* Known-answer tests of the curve and field code against tests/vectors/noble-bls12-381.txt, computed
 * by @noble/curves (an independent implementation): k·G and sums encode to exactly noble's bytes,
 * noble's bytes decode to our points, encodings noble rejects are rejected with the expected
 * status, and Fp/Fr samples match. The pairing records are checked by test_noble_pairing. */
#include <string.h>
#include "cuzk/curve.h"
#include "ec/ec.h"
#include "ff/fr.h"
#include "test_noble_common.h"
#include "test_util.h"

static void check_g1(const noble_record *rec, const g1_aff *P, int ic, int iu)
{
    uint8_t c[48], u[96], got[96];
    if (!noble_hex(rec, ic, c, 48) || !noble_hex(rec, iu, u, 96))
        return;
    g1_aff D;
    cuzk_g1_compress(got, P);
    CHECK_MSG(memcmp(got, c, 48) == 0, "line %d: G1 compressed encoding", rec->line);
    cuzk_g1_serialize(got, P);
    CHECK_MSG(memcmp(got, u, 96) == 0, "line %d: G1 uncompressed encoding", rec->line);
    CHECK_MSG(cuzk_g1_decompress(&D, c) == CUZK_OK && g1_aff_eq(&D, P), "line %d: G1 decompress", rec->line);
    CHECK_MSG(cuzk_g1_deserialize(&D, u) == CUZK_OK && g1_aff_eq(&D, P), "line %d: G1 deserialize", rec->line);
}

static void check_g2(const noble_record *rec, const g2_aff *Q, int ic, int iu)
{
    uint8_t c[96], u[192], got[192];
    if (!noble_hex(rec, ic, c, 96) || !noble_hex(rec, iu, u, 192))
        return;
    g2_aff D;
    cuzk_g2_compress(got, Q);
    CHECK_MSG(memcmp(got, c, 96) == 0, "line %d: G2 compressed encoding", rec->line);
    cuzk_g2_serialize(got, Q);
    CHECK_MSG(memcmp(got, u, 192) == 0, "line %d: G2 uncompressed encoding", rec->line);
    CHECK_MSG(cuzk_g2_decompress(&D, c) == CUZK_OK && g2_aff_eq(&D, Q), "line %d: G2 decompress", rec->line);
    CHECK_MSG(cuzk_g2_deserialize(&D, u) == CUZK_OK && g2_aff_eq(&D, Q), "line %d: G2 deserialize", rec->line);
}

/* a·G + b·G through the full and the mixed addition. */
static void do_g1_add(const noble_record *rec)
{
    uint8_t a[32], b[32], c[48], got[48];
    if (!noble_hex(rec, 1, a, 32) || !noble_hex(rec, 2, b, 32) || !noble_hex(rec, 3, c, 48))
        return;
    g1_aff A, B, S;
    g1_jac ja, jb;
    noble_g1_mul_gen(&A, a);
    noble_g1_mul_gen(&B, b);
    g1_jac_from_aff(&ja, &A);
    g1_jac_from_aff(&jb, &B);
    g1_jac_add(&ja, &ja, &jb);
    g1_jac_to_aff(&S, &ja);
    cuzk_g1_compress(got, &S);
    CHECK_MSG(memcmp(got, c, 48) == 0, "line %d: G1 sum", rec->line);
    g1_jac_from_aff(&ja, &A);
    g1_jac_add_aff(&ja, &ja, &B);
    g1_jac_to_aff(&S, &ja);
    cuzk_g1_compress(got, &S);
    CHECK_MSG(memcmp(got, c, 48) == 0, "line %d: G1 mixed sum", rec->line);
}

static void do_g2_add(const noble_record *rec)
{
    uint8_t a[32], b[32], c[96], got[96];
    if (!noble_hex(rec, 1, a, 32) || !noble_hex(rec, 2, b, 32) || !noble_hex(rec, 3, c, 96))
        return;
    g2_aff A, B, S;
    g2_jac ja, jb;
    noble_g2_mul_gen(&A, a);
    noble_g2_mul_gen(&B, b);
    g2_jac_from_aff(&ja, &A);
    g2_jac_from_aff(&jb, &B);
    g2_jac_add(&ja, &ja, &jb);
    g2_jac_to_aff(&S, &ja);
    cuzk_g2_compress(got, &S);
    CHECK_MSG(memcmp(got, c, 96) == 0, "line %d: G2 sum", rec->line);
    g2_jac_from_aff(&ja, &A);
    g2_jac_add_aff(&ja, &ja, &B);
    g2_jac_to_aff(&S, &ja);
    cuzk_g2_compress(got, &S);
    CHECK_MSG(memcmp(got, c, 96) == 0, "line %d: G2 mixed sum", rec->line);
}

static cuzk_status status_of(const char *name)
{
    static const struct { const char *name; cuzk_status st; } map[] = {
        {"BAD_FLAGS", CUZK_ERR_BAD_FLAGS},
        {"NOT_CANONICAL", CUZK_ERR_NOT_CANONICAL},
        {"NOT_ON_CURVE", CUZK_ERR_NOT_ON_CURVE},
        {"NOT_IN_SUBGROUP", CUZK_ERR_NOT_IN_SUBGROUP},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].name, name) == 0)
            return map[i].st;
    return CUZK_OK;
}

static unsigned bad_count;

/* An invalid encoding: the checked decoder of its length must reject it with the expected status;
 * the unchecked one must accept exactly the points outside the subgroup (and return a curve point). */
static void do_bad(const noble_record *rec, bool g2)
{
    uint8_t b[192];
    long len = rec->n == 4 ? test_hex_decode(rec->tok[3], b, sizeof b) : -1;
    cuzk_status want = rec->n == 4 ? status_of(rec->tok[1]) : CUZK_OK, got, got_unchecked;
    bool on_curve = false;
    g1_aff P;
    g2_aff Q;
    if (want != CUZK_OK && !g2 && len == 48) {
        got = cuzk_g1_decompress(&P, b);
        got_unchecked = cuzk_g1_decompress_unchecked(&P, b);
        on_curve = got_unchecked == CUZK_OK && g1_aff_on_curve(&P) && !g1_aff_in_subgroup(&P);
    } else if (want != CUZK_OK && !g2 && len == 96) {
        got = cuzk_g1_deserialize(&P, b);
        got_unchecked = cuzk_g1_deserialize_unchecked(&P, b);
        on_curve = got_unchecked == CUZK_OK && g1_aff_on_curve(&P) && !g1_aff_in_subgroup(&P);
    } else if (want != CUZK_OK && g2 && len == 96) {
        got = cuzk_g2_decompress(&Q, b);
        got_unchecked = cuzk_g2_decompress_unchecked(&Q, b);
        on_curve = got_unchecked == CUZK_OK && g2_aff_on_curve(&Q) && !g2_aff_in_subgroup(&Q);
    } else if (want != CUZK_OK && g2 && len == 192) {
        got = cuzk_g2_deserialize(&Q, b);
        got_unchecked = cuzk_g2_deserialize_unchecked(&Q, b);
        on_curve = got_unchecked == CUZK_OK && g2_aff_on_curve(&Q) && !g2_aff_in_subgroup(&Q);
    } else {
        fprintf(stderr, "%s:%d: malformed record\n", NOBLE_VECTORS, rec->line);
        test_failures++;
        return;
    }
    bad_count++;
    CHECK_MSG(got != CUZK_OK, "line %d: %s accepted", rec->line, rec->tok[2]);
    CHECK_MSG(got == want, "line %d: %s gave '%s', expected '%s'", rec->line, rec->tok[2],
              cuzk_status_str(got), cuzk_status_str(want));
    if (want == CUZK_ERR_NOT_IN_SUBGROUP)
        CHECK_MSG(on_curve, "line %d: %s: unchecked decoder", rec->line, rec->tok[2]);
    else
        CHECK_MSG(got_unchecked == want, "line %d: %s: unchecked decoder gave '%s'", rec->line, rec->tok[2],
                  cuzk_status_str(got_unchecked));
}

static void do_fp(const noble_record *rec, bool mul)
{
    uint8_t a[48], b[48], want[48], got[48];
    fp x, y, z;
    if (!noble_hex(rec, 1, a, 48) || !noble_hex(rec, 2, b, 48) || (mul && !noble_hex(rec, 3, want, 48)))
        return;
    if (!mul)
        memcpy(want, b, 48);
    CHECK(fp_from_bytes_be(&x, a));
    if (mul) {
        CHECK(fp_from_bytes_be(&y, b));
        fp_mul(&z, &x, &y);
    } else {
        fp_inv(&z, &x);
    }
    fp_to_bytes_be(got, &z);
    CHECK_MSG(memcmp(got, want, 48) == 0, "line %d: %s", rec->line, rec->tok[0]);
}

static void do_fr(const noble_record *rec, bool mul)
{
    uint8_t a[32], b[32], want[32], got[32];
    fr x, y, z;
    if (!noble_hex(rec, 1, a, 32) || !noble_hex(rec, 2, b, 32) || (mul && !noble_hex(rec, 3, want, 32)))
        return;
    if (!mul)
        memcpy(want, b, 32);
    CHECK(fr_from_bytes_be(&x, a));
    if (mul) {
        CHECK(fr_from_bytes_be(&y, b));
        fr_mul(&z, &x, &y);
    } else {
        fr_inv(&z, &x);
    }
    fr_to_bytes_be(got, &z);
    CHECK_MSG(memcmp(got, want, 32) == 0, "line %d: %s", rec->line, rec->tok[0]);
}

static const char *const tags[] = {"g1_gen", "g2_gen", "g1_inf", "g2_inf", "g1_mul", "g2_mul", "g1_add",
                                   "g2_add", "g1_bad", "g2_bad", "fp_mul", "fp_inv", "fr_mul", "fr_inv"};
#define NTAGS (sizeof tags / sizeof tags[0])
static unsigned counts[NTAGS];

static void on_record(const noble_record *rec, void *ctx)
{
    (void)ctx;
    size_t tag = 0;
    while (tag < NTAGS && strcmp(rec->tok[0], tags[tag]) != 0)
        tag++;
    if (tag == NTAGS) {
        if (strcmp(rec->tok[0], "pairing") != 0) {
            fprintf(stderr, "%s:%d: unknown tag %s\n", NOBLE_VECTORS, rec->line, rec->tok[0]);
            test_failures++;
        }
        return;
    }
    counts[tag]++;
    uint8_t k[32];
    g1_aff P;
    g2_aff Q;
    switch (tag) {
    case 0: g1_generator(&P); check_g1(rec, &P, 1, 2); break;
    case 1: g2_generator(&Q); check_g2(rec, &Q, 1, 2); break;
    case 2: g1_aff_set_inf(&P); check_g1(rec, &P, 1, 2); break;
    case 3: g2_aff_set_inf(&Q); check_g2(rec, &Q, 1, 2); break;
    case 4:
        if (noble_hex(rec, 1, k, 32)) {
            noble_g1_mul_gen(&P, k);
            check_g1(rec, &P, 2, 3);
        }
        break;
    case 5:
        if (noble_hex(rec, 1, k, 32)) {
            noble_g2_mul_gen(&Q, k);
            check_g2(rec, &Q, 2, 3);
        }
        break;
    case 6: do_g1_add(rec); break;
    case 7: do_g2_add(rec); break;
    case 8: do_bad(rec, false); break;
    case 9: do_bad(rec, true); break;
    case 10: do_fp(rec, true); break;
    case 11: do_fp(rec, false); break;
    case 12: do_fr(rec, true); break;
    case 13: do_fr(rec, false); break;
    }
}

int main(void)
{
    test_init("test_noble_vectors");
    noble_for_each(on_record, NULL);
    /* Every kind of record must be there, so a truncated file cannot pass silently. */
    for (size_t i = 0; i < NTAGS; i++)
        CHECK_MSG(counts[i] > 0, "no %s record", tags[i]);
    CHECK(counts[4] >= 20 && counts[5] >= 20 && counts[8] >= 10 && counts[9] >= 10);
    printf("test_noble_vectors: %u G1 and %u G2 multiples, %u invalid encodings\n", counts[4], counts[5],
           bad_count);
    return test_finish();
}
