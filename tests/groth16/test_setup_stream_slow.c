/* The streaming setup at production size (slow): the 32GiB PoRep key's shape as the plan derives it from
 * a counting synthesis equals the published one (the v28 file: 47,373,928,632 bytes), and the 2KiB PoRep
 * key streamed is byte for byte the in-memory setup's for the same toxic waste. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuzk/cs.h"
#include "cuzk/filecoin.h"
#include "cuzk/params.h"
#include "groth16/setup_internal.h"
#include "groth16/setup_stream.h"
#include "test_util.h"

static cuzk_status porep_blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_porep_synthesize(cs, cfg, NULL, err);
}

static void test_plan_32gib(void)
{
    cuzk_porep_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_config_for_proof(&cfg, NULL, "StackedDrg32GiBV1_1", &err) == CUZK_OK, "%s", err.msg);
    g16_stream_plan p;
    CHECK_MSG(g16_stream_plan_circuit(&p, porep_blank, &cfg, NULL, NULL, NULL, NULL, &err) == CUZK_OK, "%s", err.msg);
    printf("32GiB plan: ic %zu, h %zu, l %zu, a %zu, b %zu, %llu bytes\n", p.ic, p.h, p.l, p.a, p.b,
           (unsigned long long)p.params_bytes);
    CHECK(p.ic == 328);
    CHECK(p.h == ((size_t)1 << 27) - 1);
    CHECK(p.l == 130169893);
    CHECK(p.a == 129753620);
    CHECK(p.b == 33112282);
    CHECK(p.params_bytes == 47373928632ull);
    CHECK(p.vk_bytes == 868 + 96 * 328);
}

static bool same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    static unsigned char x[1 << 16], y[1 << 16];
    while (same) {
        size_t na = fread(x, 1, sizeof x, fa), nb = fread(y, 1, sizeof y, fb);
        same = na == nb && memcmp(x, y, na) == 0;
        if (na < sizeof x)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void test_porep_2kib(const char *dir)
{
    cuzk_porep_config_t cfg;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_config_for_proof(&cfg, NULL, "StackedDrg2KiBV1_1", &err) == CUZK_OK, "%s", err.msg);
    g16_toxic_waste tw;
    test_rand_fr(&tw.tau);
    test_rand_fr(&tw.alpha);
    test_rand_fr(&tw.beta);
    test_rand_fr(&tw.gamma);
    test_rand_fr(&tw.delta);
    char mp[512], mv[512], sp[512], sv[512];
    snprintf(mp, sizeof mp, "%s/mem.params", dir);
    snprintf(mv, sizeof mv, "%s/mem.vk", dir);
    snprintf(sp, sizeof sp, "%s/s.params", dir);
    snprintf(sv, sizeof sv, "%s/s.vk", dir);
    cuzk_cs_t *cs = NULL;
    cuzk_cs_record_t rec;
    memset(&rec, 0, sizeof rec);
    cuzk_groth16_pk_t pk;
    memset(&pk, 0, sizeof pk);
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, &err);
    if (st == CUZK_OK)
        st = porep_blank(cs, &cfg, &err);
    if (st == CUZK_OK)
        st = cuzk_cs_take_record(cs, &rec, &err);
    cuzk_cs_free(cs);
    if (st == CUZK_OK)
        st = g16_setup_with_waste(&pk, &rec.r1cs, &tw, 0, &err);
    cuzk_cs_record_free(&rec);
    if (st == CUZK_OK)
        st = cuzk_params_write(mp, &pk, 0, &err);
    if (st == CUZK_OK)
        st = cuzk_params_vk_write(mv, &pk.vk, &err);
    cuzk_groth16_pk_free(&pk);
    CHECK_MSG(st == CUZK_OK, "in-memory setup: %s", err.msg);
    g16_stream_opts o = {.waste = &tw};
    CHECK_MSG(g16_setup_stream(sp, sv, porep_blank, &cfg, &o, &err) == CUZK_OK, "streamed setup: %s", err.msg);
    CHECK_MSG(same_file(mp, sp), "2KiB PoRep: the streamed .params differs from the in-memory setup's");
    CHECK_MSG(same_file(mv, sv), "2KiB PoRep: the streamed .vk differs");
    unlink(mp);
    unlink(mv);
    unlink(sp);
    unlink(sv);
}

int main(void)
{
    test_init("test_setup_stream_slow");
    char dir[] = "/tmp/cuzk_setup_stream_slow_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_porep_2kib(dir);
    test_plan_32gib();
    rmdir(dir);
    return test_finish();
}
