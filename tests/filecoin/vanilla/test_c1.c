/* The C1 JSON writer and parser: write → parse → the same model and the same bytes; the bytes equal jansson's
 * compact, order-preserving re-serialization (an independent JSON implementation) and hold serde's field
 * order and shapes; Curio's wrapper round-trips; damaged inputs (each field kind, truncation, wrong
 * lengths, names, shapes) fail with the field named, in both forms, and the first bad challenge is the one
 * named; public inputs use the C1's challenges. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ff/fr.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"
#include "filecoin/fc_seal_test.h"
#include "test_util.h"

static cuzk_fc_sealed_t S;
static cuzk_fc_c1_t C1;
static char *J;
static size_t JL;

static void setup(void)
{
    fc_test_seal_2kib(&S, &C1, NULL);
    CHECK(cuzk_fc_c1_json_write(&J, &JL, &C1, NULL) == CUZK_OK);
}

static void test_round_trip(void)
{
    cuzk_fc_c1_t b;
    cuzk_err_t err;
    CHECK_MSG(cuzk_fc_c1_json_parse(&b, J, JL, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_fc_c1_compare(&C1, &b) == 0);
    char *j2;
    size_t l2;
    CHECK(cuzk_fc_c1_json_write(&j2, &l2, &b, NULL) == CUZK_OK);
    CHECK(l2 == JL && memcmp(j2, J, JL) == 0);
    free(j2);
    cuzk_fc_c1_free(&b);

    /* jansson: the same bytes back in compact, ordered form, and serde's layout. */
    json_error_t je;
    json_t *root = json_loadb(J, JL, 0, &je);
    CHECK_MSG(root != NULL, "jansson: %s", je.text);
    char *d = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    CHECK(d && strlen(d) == JL && memcmp(d, J, JL) == 0);
    free(d);
    const char *keys[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"};
    void *it = json_object_iter(root);
    for (int i = 0; i < 7; i++, it = json_object_iter_next(root, it))
        CHECK(it && strcmp(json_object_iter_key(it), keys[i]) == 0);
    CHECK(strcmp(json_string_value(json_object_get(root, "registered_proof")), "StackedDrg2KiBV1_1") == 0);
    json_t *parts = json_object_get(json_object_get(root, "vanilla_proofs"), "StackedDrg2KiBV1");
    CHECK(json_array_size(parts) == 1 && json_array_size(json_array_get(parts, 0)) == 2);
    json_t *pr = json_array_get(json_array_get(parts, 0), 0);
    json_t *cd = json_object_get(json_object_get(json_object_get(pr, "comm_d_proofs"), "data"), "Single");
    CHECK(json_array_size(json_object_get(json_object_get(cd, "path"), "path")) == 6);
    json_t *cx = json_object_get(json_object_get(pr, "replica_column_proofs"), "c_x");
    CHECK(json_is_null(json_object_get(json_object_get(cx, "column"), "_h")));
    CHECK(json_array_size(json_object_get(json_object_get(cx, "column"), "rows")) == 2);
    json_t *rl = json_object_get(json_object_get(json_object_get(pr, "comm_r_last_proof"), "data"), "Single");
    json_t *el = json_array_get(json_object_get(json_object_get(rl, "path"), "path"), 0);
    CHECK(json_array_size(json_object_get(el, "hashes")) == 7 && json_is_integer(json_object_get(el, "index")));
    CHECK(json_array_size(json_object_get(root, "comm_r")) == 32);
    CHECK(json_array_size(json_object_get(json_array_get(json_object_get(pr, "labeling_proofs"), 1), "parents")) == 37);
    json_decref(root);
}

static void test_wrapper(void)
{
    char *w;
    size_t wl;
    CHECK(cuzk_fc_c1_wrapper_write(&w, &wl, J, JL, 42, 2048, NULL) == CUZK_OK);
    CHECK(strncmp(w, "{\"SectorNum\":42,\"Phase1Out\":\"", 29) == 0);
    CHECK(strcmp(w + wl - 19, "\",\"SectorSize\":2048}") == 0 || strstr(w, "\"SectorSize\":2048}"));
    cuzk_fc_c1_t b;
    cuzk_fc_c1_wrapper_info_t info;
    cuzk_err_t err;
    CHECK_MSG(cuzk_fc_c1_parse_any(&b, &info, w, wl, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(info.wrapped == 1 && info.sector_num == 42 && info.sector_size == 2048);
    CHECK(cuzk_fc_c1_compare(&C1, &b) == 0);
    cuzk_fc_c1_free(&b);
    CHECK(cuzk_fc_c1_parse_any(&b, &info, J, JL, 0, &err) == CUZK_OK && info.wrapped == 0);
    cuzk_fc_c1_free(&b);

    /* Damaged wrappers. */
    char *x = malloc(wl + 64);
    struct {
        const char *from, *to, *want;
    } m[] = {
        {"\"SectorSize\":2048", "\"SectorSize\":4096", "SectorSize"},
        {"\"SectorSize\":2048", "\"SectorSize\":-1", "SectorSize"},
        {"\"SectorSize\":2048", "\"Other\":2048", "SectorSize"},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"!", "Phase1Out"},
        {"\"Phase1Out\":\"", "\"Phase1Out\":\"AAAA", "c1 json"},
        {"\"SectorNum\":42", "\"SectorNum\":\"42\"", "SectorNum"},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        const char *at = strstr(w, m[i].from);
        size_t pre = (size_t)(at - w), fl = strlen(m[i].from), tl = strlen(m[i].to);
        memcpy(x, w, pre);
        memcpy(x + pre, m[i].to, tl);
        memcpy(x + pre + tl, at + fl, wl - pre - fl);
        size_t xl = wl - fl + tl;
        CHECK_MSG(cuzk_fc_c1_parse_any(&b, NULL, x, xl, 0, &err) != CUZK_OK && strstr(err.msg, m[i].want),
                  "wrapper case %zu: %s", i, err.msg);
        CHECK(b.arena == NULL);
    }
    /* Phase1Out not a string; truncated wrapper. */
    const char *bad1 = "{\"SectorNum\":1,\"Phase1Out\":5,\"SectorSize\":2048}";
    CHECK(cuzk_fc_c1_parse_any(&b, NULL, bad1, strlen(bad1), 0, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "Phase1Out"));
    CHECK(cuzk_fc_c1_parse_any(&b, NULL, w, wl / 2, 0, &err) == CUZK_ERR_FORMAT);
    free(x);
    free(w);
}

/* Replace the n-th occurrence (0-based) of from by to, parse, expect failure mentioning want. */
static void mutate(const char *from, int nth, const char *to, cuzk_status want_st, const char *want)
{
    const char *at = J;
    for (int k = 0; at && k <= nth; k++)
        at = strstr(k ? at + 1 : at, from);
    CHECK_MSG(at != NULL, "pattern %s", from);
    if (!at)
        return;
    size_t pre = (size_t)(at - J), fl = strlen(from), tl = strlen(to);
    char *x = malloc(JL + tl + 1);
    memcpy(x, J, pre);
    memcpy(x + pre, to, tl);
    memcpy(x + pre + tl, at + fl, JL - pre - fl);
    size_t xl = JL - fl + tl;
    cuzk_fc_c1_t b;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_fc_c1_json_parse(&b, x, xl, 0, &err);
    CHECK_MSG(st != CUZK_OK && (want_st == CUZK_OK || st == want_st) && strstr(err.msg, want),
              "%s -> %s: status %d, message: %s", from, to, (int)st, err.msg);
    CHECK(b.arena == NULL && b.vproofs == NULL);
    /* The same damage inside a wrapper fails too. */
    char *w;
    size_t wl;
    CHECK(cuzk_fc_c1_wrapper_write(&w, &wl, x, xl, 1, 2048, NULL) == CUZK_OK);
    CHECK(cuzk_fc_c1_parse_any(&b, NULL, w, wl, 0, &err) == st);
    free(w);
    free(x);
}

static void test_damage(void)
{
    mutate("\"StackedDrg2KiBV1_1\"", 0, "\"StackedDrg2KiBV9\"", CUZK_ERR_FORMAT, "registered_proof");
    mutate("\"StackedDrg2KiBV1_1\"", 0, "\"StackedDrg8MiBV1_1\"", CUZK_ERR_FORMAT, "does not match");
    mutate("{\"StackedDrg2KiBV1\"", 0, "{\"StackedDrg2KiBV2\"", CUZK_ERR_FORMAT, "vanilla_proofs");
    mutate("\"comm_r\":[", 0, "\"comm_r\":[0,", CUZK_ERR_FORMAT, "comm_r: array of 32 bytes is too long");
    mutate("\"seed\":[", 0, "\"seed\":[256,", CUZK_ERR_FORMAT, "seed");
    mutate("\"ticket\":[", 0, "\"ticket\":[01,", CUZK_ERR_FORMAT, "leading zero");
    mutate("\"_h\":null", 1, "\"_h\":0", CUZK_ERR_FORMAT, "drg_parents[0].column: _h");
    mutate("\"Single\"", 2, "\"Double\"", CUZK_ERR_FORMAT, "unknown proof data variant");
    mutate("\"Single\"", 0, "\"Sub\"", CUZK_ERR_FORMAT, "comm_d_proofs.Sub.base_proof");
    mutate("\"index\":", 0, "\"index\":-", CUZK_ERR_FORMAT, "comm_d_proofs.Single.path[0]");
    mutate("\"index\":", 1, "\"index\":9", CUZK_ERR_FORMAT, "comm_d_proofs.Single.path[1]: integer out of range");
    mutate("\"layer_index\":1", 0, "\"layer_index\":1.5", CUZK_ERR_FORMAT, "fraction");
    mutate("\"layer_index\":1", 0, "\"layer_index\":3", CUZK_ERR_MISMATCH, "labeling_proofs[0]");
    mutate("\"rows\":[[", 0, "\"rows\":[[1,2,3],[", CUZK_ERR_FORMAT, "c_x.column.rows[0]: array of 32 bytes is too short");
    mutate("\"hashes\":[[", 0, "\"hashes\":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[", CUZK_ERR_FORMAT,
           "1, 3, 7 or 15");
    mutate("\"encoding_proof\"", 0, "\"encoding_prooff\"", CUZK_ERR_FORMAT, "expected field \"encoding_proof\"");
    mutate("\"drg_parents\":[", 0, "\"drg_parents\":[]],\"x\":[", CUZK_ERR_FORMAT, "drg_parents");
    mutate("]]},\"comm_r\"", 0, "],[]]},\"comm_r\"", CUZK_ERR_FORMAT, "more partitions");
    mutate("\"ticket\":[", 0, "\"extra\":1,\"ticket\":[", CUZK_ERR_FORMAT, "ticket");
    /* A changed value that parses: caught by the checks, naming where. */
    mutate("\"leaf\":[", 1, "\"leaf\":[1,", CUZK_ERR_FORMAT, "too long");
    char one[8];
    snprintf(one, sizeof one, "[%u,", (unsigned)C1.comm_d[0]);
    char bad[8];
    snprintf(bad, sizeof bad, "[%u,", (unsigned)(C1.comm_d[0] ^ 1));
    char from[40], to[40];
    snprintf(from, sizeof from, "\"comm_d\":%s", one);
    snprintf(to, sizeof to, "\"comm_d\":%s", bad);
    mutate(from, 0, to, CUZK_ERR_MISMATCH, "comm_d");
    /* Trailing garbage and every truncation point (sampled) fail cleanly. */
    cuzk_fc_c1_t b;
    cuzk_err_t err;
    char *x = malloc(JL + 4);
    memcpy(x, J, JL);
    memcpy(x + JL, " x", 2);
    CHECK(cuzk_fc_c1_json_parse(&b, x, JL + 2, 0, &err) == CUZK_ERR_FORMAT && strstr(err.msg, "trailing"));
    free(x);
    int ok = 1;
    for (size_t cut = 0; cut < JL; cut += 1 + test_rand_below(613))
        if (cuzk_fc_c1_json_parse(&b, J, cut, 0, &err) != CUZK_ERR_FORMAT || b.arena)
            ok = 0;
    CHECK_MSG(ok, "a truncated C1 parsed");
}

/* Challenges are checked on several threads, yet the error named is always the first bad one in
 * (partition, challenge) order. */
static void test_first_error(void)
{
    uint32_t n = C1.n_partitions * C1.challenges_per_partition;
    CHECK(n >= 2);
    uint8_t *last = C1.vproofs[n - 1].comm_d.leaf, *first = C1.vproofs[0].comm_r_last.leaf;
    uint8_t keep_last = last[0], keep_first = first[0];
    last[0] ^= 1;
    cuzk_err_t err = {{0}};
    CHECK(cuzk_fc_c1_verify(&C1, &err) != CUZK_OK);
    char want[64];
    snprintf(want, sizeof want, "partition %u challenge %u:", C1.n_partitions - 1, C1.challenges_per_partition - 1);
    CHECK_MSG(strstr(err.msg, want) != NULL, "%s", err.msg);
    for (int rep = 0; rep < 20; rep++) {
        first[0] ^= 1;
        CHECK(cuzk_fc_c1_verify(&C1, &err) != CUZK_OK);
        CHECK_MSG(strstr(err.msg, "partition 0 challenge 0:") != NULL, "%s", err.msg);
        first[0] ^= 1;
    }
    last[0] = keep_last;
    first[0] = keep_first;
    CHECK(cuzk_fc_c1_verify(&C1, &err) == CUZK_OK);
}

/* Public inputs from the parsed C1 carry its challenges (input 3 + 18·i is challenge i). */
static void test_public_inputs(void)
{
    cuzk_fc_c1_t b;
    CHECK(cuzk_fc_c1_json_parse(&b, J, JL, 0, NULL) == CUZK_OK);
    CHECK(cuzk_fc_c1_check_challenges(&b, NULL) == CUZK_OK);
    cuzk_fc_porep_config_t cfg;
    cuzk_fc_porep_config_from_proof(&cfg, b.proof);
    fr in[64];
    cuzk_err_t err;
    CHECK_MSG(cuzk_fc_porep_public_inputs(in, 64, &cfg, b.replica_id, b.comm_d, b.comm_r, b.seed, 0, &err) == CUZK_OK,
              "%s", err.msg);
    for (uint32_t i = 0; i < b.challenges_per_partition; i++) {
        const cuzk_fc_c1_vproof_t *v = cuzk_fc_c1_vproof(&b, 0, i);
        fr c;
        fr_from_u64(&c, v->labeling[0].node);
        uint8_t x[32], y[32];
        fr_to_bytes_le(x, &c);
        fr_to_bytes_le(y, &in[3 + 18 * i]);
        CHECK_MSG(memcmp(x, y, 32) == 0, "challenge %u", i);
        for (int j = 0; j < 6; j++) {
            fr_from_u64(&c, v->drg[j].index);
            fr_to_bytes_le(x, &c);
            fr_to_bytes_le(y, &in[3 + 18 * i + 1 + j]);
            CHECK(memcmp(x, y, 32) == 0);
        }
    }
    fr_to_bytes_le((uint8_t *)&err, &in[2]);
    CHECK(memcmp(&err, b.comm_r, 32) == 0);
    cuzk_fc_c1_free(&b);
}

static void test_files(void)
{
    char path[64];
    snprintf(path, sizeof path, "test_c1_%ld.json", (long)getpid());
    CHECK(cuzk_fc_c1_save(path, J, JL, NULL) == CUZK_OK);
    cuzk_fc_c1_t b;
    cuzk_err_t err;
    CHECK_MSG(cuzk_fc_c1_load(&b, NULL, path, 0, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_fc_c1_compare(&C1, &b) == 0);
    cuzk_fc_c1_free(&b);
    remove(path);
    CHECK(cuzk_fc_c1_load(&b, NULL, path, 0, &err) == CUZK_ERR_IO && strstr(err.msg, path));
    CHECK(cuzk_fc_c1_save("no-such-dir/x/c1.json", J, JL, &err) == CUZK_ERR_IO);
}

int main(void)
{
    test_init("test_c1");
    setup();
    test_round_trip();
    test_wrapper();
    test_damage();
    test_first_error();
    test_public_inputs();
    test_files();
    cuzk_fc_c1_free(&C1);
    cuzk_fc_sealed_free(&S);
    free(J);
    return test_finish();
}
