/* The bulk point codec of the parameter files against the curve layer's own decoders and encoders
 * (cuzk_g1/g2_deserialize[_unchecked], cuzk_g1/g2_serialize) on valid, mutated and hostile encodings;
 * whole arrays at every check level and several thread counts; the lowest bad index when several
 * threads find failures. Decoding speed is measured by `cuzk-bench micro params-load`. */
#include "groth16/params_internal.h"
#include "test_params_util.h"

static const uint8_t P_BE[48] = {
    0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7,
    0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24,
    0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};

/* n consecutive multiples start + i·G (cheap: one addition each), affine. */
static void g1_run(g1_aff *out, size_t n)
{
    g1_aff gen;
    g1_generator(&gen);
    g1_jac *j = tp_xmalloc(n * sizeof *j);
    g1_aff start;
    tp_rand_g1(&start);
    g1_jac_from_aff(&j[0], &start);
    for (size_t i = 1; i < n; i++)
        g1_jac_add_aff(&j[i], &j[i - 1], &gen);
    g1_jac_batch_to_aff(out, j, n);
    free(j);
}

static void g2_run(g2_aff *out, size_t n)
{
    g2_aff gen;
    g2_generator(&gen);
    g2_jac *j = tp_xmalloc(n * sizeof *j);
    g2_aff start;
    tp_rand_g2(&start);
    g2_jac_from_aff(&j[0], &start);
    for (size_t i = 1; i < n; i++)
        g2_jac_add_aff(&j[i], &j[i - 1], &gen);
    g2_jac_batch_to_aff(out, j, n);
    free(j);
}

/* A mutated encoding of a point (len = 96 or 192; the point's own encoding in `in`). */
static void mutate(uint8_t *e, size_t len, const uint8_t *off_subgroup)
{
    switch (test_rand_below(9)) {
    case 0: /* valid */
        break;
    case 1: /* one bit anywhere */
        e[test_rand_below(len)] ^= (uint8_t)(1u << test_rand_below(8));
        break;
    case 2: /* any flag combination */
        e[0] = (uint8_t)((e[0] & 0x1f) | (test_rand_below(8) << 5));
        break;
    case 3: /* infinity, exact or with one stray bit */
        memset(e, 0, len);
        e[0] = 0x40;
        if (test_rand_below(2))
            e[test_rand_below(len)] |= (uint8_t)(1u << test_rand_below(8));
        break;
    case 4: /* a random x (or x.c1) below 2^381 */
        test_rand_bytes(e, 48);
        e[0] &= 0x1f;
        break;
    case 5: /* on the curve, outside the subgroup */
        memcpy(e, off_subgroup, len);
        break;
    case 6: /* zeros, and x = 0 with y = 2 (G1: the order-3 point) */
        memset(e, 0, len);
        if (test_rand_below(2))
            e[len - 1] = 2;
        break;
    case 7: /* a coordinate equal to p or p + small */
        memcpy(e + 48 * test_rand_below(len / 48), P_BE, 48);
        if (test_rand_below(2))
            e[48 * test_rand_below(len / 48) + 47] += (uint8_t)test_rand_below(3);
        break;
    default: /* random bytes with the flags clear */
        test_rand_bytes(e, len);
        e[0] &= 0x1f;
        break;
    }
}

static int expected(cuzk_status ref, bool inf, bool x0, bool allow_inf)
{
    if (ref == CUZK_OK && inf)
        return allow_inf ? CUZK_OK : PARAMS_DEC_INFINITY;
    if (ref == CUZK_OK && x0)
        return CUZK_ERR_NOT_IN_SUBGROUP; /* blst's x = 0 rule, G1 only */
    return ref;
}

static void test_against_reference(void)
{
    enum { N1 = 1200, N2 = 400 };
    g1_aff *p1 = tp_xmalloc(N1 * sizeof *p1);
    g2_aff *p2 = tp_xmalloc(N2 * sizeof *p2);
    g1_run(p1, N1);
    g2_run(p2, N2);
    /* one off-subgroup point per group, from an x with a square right-hand side */
    g1_aff o1;
    g2_aff o2;
    do {
        fp x;
        fp_from_u64(&x, test_rand64());
        if (g1_aff_from_x(&o1, &x, true) && !g1_aff_in_subgroup(&o1))
            break;
    } while (1);
    do {
        fp2 x;
        fp_from_u64(&x.c0, test_rand64());
        fp_from_u64(&x.c1, test_rand64());
        if (g2_aff_from_x(&o2, &x, true) && !g2_aff_in_subgroup(&o2))
            break;
    } while (1);
    uint8_t off1[96], off2[192];
    cuzk_g1_serialize(off1, &o1);
    cuzk_g2_serialize(off2, &o2);

    int bad = 0, accepted_off_curve = 0;
    for (size_t i = 0; i < N1; i++) {
        uint8_t e[96], back[96];
        cuzk_g1_serialize(e, &p1[i]);
        params_enc_g1(back, &p1[i]);
        if (memcmp(e, back, 96) != 0)
            bad++;
        mutate(e, 96, off1);
        g1_aff ru_p, rc_p, mine;
        cuzk_status ru = cuzk_g1_deserialize_unchecked(&ru_p, e);
        cuzk_status rc = cuzk_g1_deserialize(&rc_p, e);
        bool inf = ru == CUZK_OK && g1_aff_is_inf(&ru_p);
        bool x0 = ru == CUZK_OK && !inf && fp_is_zero(&ru_p.x);
        for (int allow = 0; allow < 2; allow++) {
            int c = params_dec_g1(&mine, e, CUZK_PARAMS_CHECK_CURVE, allow);
            int want = expected(ru, inf, x0, allow);
            if (c != want || (c == CUZK_OK && !g1_aff_eq(&mine, &ru_p)))
                bad++, fprintf(stderr, "g1 case %zu curve: %d want %d\n", i, c, want);
            c = params_dec_g1(&mine, e, CUZK_PARAMS_CHECK_SUBGROUP, allow);
            want = expected(rc, inf, x0, allow);
            if (c != want || (c == CUZK_OK && !g1_aff_eq(&mine, &rc_p)))
                bad++, fprintf(stderr, "g1 case %zu subgroup: %d want %d\n", i, c, want);
            c = params_dec_g1(&mine, e, CUZK_PARAMS_CHECK_NONE, allow);
            if (ru == CUZK_ERR_NOT_ON_CURVE) {
                /* NONE skips the curve equation: the point comes back as written, unless x = 0
                 * (blst's rule, and (0, 0) would read back as infinity). */
                bool xz = true;
                for (int k = 0; k < 48; k++)
                    xz &= e[k] == 0;
                if (c == CUZK_OK) {
                    cuzk_g1_serialize(back, &mine);
                    accepted_off_curve++;
                    if (xz || memcmp(back, e, 96) != 0)
                        bad++, fprintf(stderr, "g1 case %zu none: not the written point\n", i);
                } else if (!(xz && c == CUZK_ERR_NOT_ON_CURVE)) {
                    bad++, fprintf(stderr, "g1 case %zu none: %d\n", i, c);
                }
            } else if (c != expected(ru, inf, x0, allow)) {
                bad++, fprintf(stderr, "g1 case %zu none: %d\n", i, c);
            }
        }
    }
    for (size_t i = 0; i < N2; i++) {
        uint8_t e[192], back[192];
        cuzk_g2_serialize(e, &p2[i]);
        params_enc_g2(back, &p2[i]);
        if (memcmp(e, back, 192) != 0)
            bad++;
        mutate(e, 192, off2);
        g2_aff ru_p, rc_p, mine;
        cuzk_status ru = cuzk_g2_deserialize_unchecked(&ru_p, e);
        cuzk_status rc = cuzk_g2_deserialize(&rc_p, e);
        bool inf = ru == CUZK_OK && g2_aff_is_inf(&ru_p);
        for (int allow = 0; allow < 2; allow++) {
            int c = params_dec_g2(&mine, e, CUZK_PARAMS_CHECK_CURVE, allow);
            int want = expected(ru, inf, false, allow);
            if (c != want || (c == CUZK_OK && !g2_aff_eq(&mine, &ru_p)))
                bad++, fprintf(stderr, "g2 case %zu curve: %d want %d\n", i, c, want);
            c = params_dec_g2(&mine, e, CUZK_PARAMS_CHECK_SUBGROUP, allow);
            want = expected(rc, inf, false, allow);
            if (c != want || (c == CUZK_OK && !g2_aff_eq(&mine, &rc_p)))
                bad++, fprintf(stderr, "g2 case %zu subgroup: %d want %d\n", i, c, want);
            c = params_dec_g2(&mine, e, CUZK_PARAMS_CHECK_NONE, allow);
            if (ru == CUZK_ERR_NOT_ON_CURVE) {
                bool zero = true;
                for (int k = 0; k < 192; k++)
                    zero &= e[k] == 0;
                if (c == CUZK_OK) {
                    cuzk_g2_serialize(back, &mine);
                    accepted_off_curve++;
                    if (zero || memcmp(back, e, 192) != 0)
                        bad++, fprintf(stderr, "g2 case %zu none: not the written point\n", i);
                } else if (!(zero && c == CUZK_ERR_NOT_ON_CURVE)) {
                    bad++, fprintf(stderr, "g2 case %zu none: %d\n", i, c);
                }
            } else if (c != expected(ru, inf, false, allow)) {
                bad++, fprintf(stderr, "g2 case %zu none: %d\n", i, c);
            }
        }
    }
    CHECK_MSG(bad == 0, "%d disagreements with the reference decoders", bad);
    CHECK_MSG(accepted_off_curve > 0, "the mutations never produced an off-curve point");
    /* the infinity encodings agree too */
    g1_aff inf1;
    g2_aff inf2;
    uint8_t e1[96], e2[192], r1[96], r2[192];
    g1_aff_set_inf(&inf1);
    g2_aff_set_inf(&inf2);
    params_enc_g1(e1, &inf1);
    params_enc_g2(e2, &inf2);
    cuzk_g1_serialize(r1, &inf1);
    cuzk_g2_serialize(r2, &inf2);
    CHECK(memcmp(e1, r1, 96) == 0 && memcmp(e2, r2, 192) == 0 && e1[0] == 0x40);
    free(p1);
    free(p2);
}

static void test_lowest_bad_index(void)
{
    enum { N = 20000 };
    g1_aff *pts = tp_xmalloc(N * sizeof *pts), *out = tp_xmalloc(N * sizeof *out);
    g1_run(pts, N);
    uint8_t *enc = tp_xmalloc((size_t)N * 96);
    for (size_t i = 0; i < N; i++)
        cuzk_g1_serialize(enc + 96 * i, &pts[i]);
    size_t bi = 0;
    int code = 0;
    CHECK(params_dec_g1_array(out, enc, N, CUZK_PARAMS_CHECK_CURVE, 4, &bi, &code));
    CHECK(memcmp(out, pts, N * sizeof *pts) == 0);
    enc[96 * 15000] |= 0x80;
    enc[96 * 7777 + 95] ^= 1;
    CHECK(!params_dec_g1_array(out, enc, N, CUZK_PARAMS_CHECK_CURVE, 4, &bi, &code) && bi == 7777 &&
          code == CUZK_ERR_NOT_ON_CURVE);
    CHECK(!params_dec_g1_array(out, enc, N, CUZK_PARAMS_CHECK_NONE, 3, &bi, &code) && bi == 15000 &&
          code == CUZK_ERR_BAD_FLAGS);
    enc[0] = 0x40; /* index 0: the infinity flag over a payload */
    CHECK(!params_dec_g1_array(out, enc, N, CUZK_PARAMS_CHECK_NONE, 2, &bi, &code) && bi == 0 &&
          code == CUZK_ERR_BAD_FLAGS);
    free(pts);
    free(out);
    free(enc);
}

/* Whole arrays at every level and a few thread counts decode to the points written (the subgroup
 * level on a slice: it costs a scalar multiplication per point). */
static void test_array_levels(void)
{
    enum { N1 = 9000, N2 = 2500, SG1 = 300, SG2 = 100 };
    g1_aff *p1 = tp_xmalloc(N1 * sizeof *p1), *o1 = tp_xmalloc(N1 * sizeof *o1);
    g2_aff *p2 = tp_xmalloc(N2 * sizeof *p2), *o2 = tp_xmalloc(N2 * sizeof *o2);
    g1_run(p1, N1);
    g2_run(p2, N2);
    uint8_t *e1 = tp_xmalloc(N1 * 96), *e2 = tp_xmalloc(N2 * 192);
    for (size_t i = 0; i < N1; i++)
        cuzk_g1_serialize(e1 + 96 * i, &p1[i]);
    for (size_t i = 0; i < N2; i++)
        cuzk_g2_serialize(e2 + 192 * i, &p2[i]);
    static const int threads[3] = {1, 2, 5};
    for (int level = 0; level <= 2; level++) {
        size_t m1 = level == 2 ? SG1 : N1, m2 = level == 2 ? SG2 : N2;
        for (int t = 0; t < 3; t++) {
            size_t bi;
            int code;
            memset(o1, 0, m1 * sizeof *o1);
            memset(o2, 0, m2 * sizeof *o2);
            CHECK_MSG(params_dec_g1_array(o1, e1, m1, (cuzk_params_check)level, threads[t], &bi, &code) &&
                          tp_g1_arr_eq(o1, p1, m1),
                      "G1 array, level %d, %d threads", level, threads[t]);
            CHECK_MSG(params_dec_g2_array(o2, e2, m2, (cuzk_params_check)level, threads[t], &bi, &code) &&
                          tp_g2_arr_eq(o2, p2, m2),
                      "G2 array, level %d, %d threads", level, threads[t]);
        }
    }
    /* and the array encoders give the curve layer's encodings back */
    uint8_t *back1 = tp_xmalloc(N1 * 96), *back2 = tp_xmalloc(N2 * 192);
    params_enc_g1_array(back1, p1, N1, 3);
    params_enc_g2_array(back2, p2, N2, 3);
    CHECK(memcmp(back1, e1, N1 * 96) == 0 && memcmp(back2, e2, N2 * 192) == 0);
    free(p1), free(o1), free(p2), free(o2), free(e1), free(e2), free(back1), free(back2);
}

int main(void)
{
    test_init("test_params_codec");
    test_against_reference();
    test_lowest_bad_index();
    test_array_levels();
    return test_finish();
}
