/* PoRep partitions synthesized against a recorded circuit (cuzk/porep.h "Records") on a sealed 2KiB sector:
 * the partition's proof inputs (A·z, B·z, the assignment, the density bitmaps) are bit for bit those of the
 * direct partition, even once the record is freed (the partition keeps nothing of it); the record's size
 * is what its compact matrices and bitmaps hold, and the estimate made before recording bounds it from
 * above by at most its stated slack; a record of another circuit, a partition out of range, a stop request
 * and a bad configuration are refused. With --slow TOOL DIR (the slow suite: the 2KiB development parameters
 * in DIR, made by TOOL when missing) both partitions are also proved and verified, the record's by the
 * copying and then the consuming prover, and its proof with A and C swapped is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "filecoin/fc_seal_test.h"
#include "filecoin/porep/porep_prove.h"
#include "filecoin/vanilla/c1_json.h"
#include "test_util.h"
#include "util/timer.h"

static bool same(const void *a, const void *b, size_t bytes) { return (a == NULL) == (b == NULL) && (!a || memcmp(a, b, bytes) == 0); }

/* The direct and the record partition hold the same proof inputs. */
static void check_same_inputs(const cuzk_porep_partition_t *d, const cuzk_porep_partition_t *r)
{
    const cuzk_groth16_witness_t *x = &d->gw, *y = &r->gw;
    CHECK(x->num_inputs == y->num_inputs && x->num_aux == y->num_aux && x->num_constraints == y->num_constraints);
    if (x->num_inputs != y->num_inputs || x->num_aux != y->num_aux || x->num_constraints != y->num_constraints)
        return;
    size_t fr = sizeof(cuzk_fr_t), aux_w = (x->num_aux + 63) / 64, in_w = (x->num_inputs + 63) / 64;
    CHECK_MSG(same(x->a, y->a, x->num_constraints * fr), "A·z differs");
    CHECK_MSG(same(x->b, y->b, x->num_constraints * fr), "B·z differs");
    CHECK(x->c == NULL && y->c == NULL); /* both leave C·z to the prover */
    CHECK_MSG(same(x->input, y->input, x->num_inputs * fr), "the inputs differ");
    CHECK_MSG(same(x->aux, y->aux, x->num_aux * fr), "the aux assignment differs");
    CHECK_MSG(same(x->a_aux_density, y->a_aux_density, aux_w * 8), "A's aux density differs");
    CHECK_MSG(same(x->b_input_density, y->b_input_density, in_w * 8), "B's input density differs");
    CHECK_MSG(same(x->b_aux_density, y->b_aux_density, aux_w * 8), "B's aux density differs");
}

/* The record's bytes: its compact matrices and bitmaps, counted here from the arrays themselves. */
static uint64_t counted_bytes(const cuzk_porep_record_t *rec)
{
    const cuzk_r1cs_compact_t *m = &rec->rec.m;
    const cuzk_cmat_t *ms[3] = {&m->a, &m->b, &m->c};
    uint64_t rows = m->num_constraints, blocks = (rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK, bytes = 0;
    for (int k = 0; k < 3; k++)
        bytes += (blocks + 1) * 8 + rows + ms[k]->num_long * 16 + ms[k]->nnz * 4 +
                 ms[k]->nnz * (ms[k]->idx16 ? 2 : 1) + ms[k]->table_len * 32;
    return bytes + 8 * (2 * ((m->num_aux + 63) / 64) + (m->num_inputs + 63) / 64);
}

/* The estimate against the real size: never below it, and above it by at most one byte per non-zero of
 * the matrices with 8-bit indices, 16/255 of a byte per non-zero (long rows at their most) and 6 MiB
 * (coefficient tables taken as full). */
static void check_estimate(const cuzk_porep_record_t *rec, const cuzk_porep_config_t *cfg)
{
    cuzk_err_t err = {{0}};
    cuzk_circuit_info_t info;
    CHECK_MSG(cuzk_porep_circuit_info(&info, cfg, false, &err) == CUZK_OK, "%s", err.msg);
    uint64_t real = cuzk_porep_record_bytes(rec), est = cuzk_porep_record_estimate(&info);
    const cuzk_r1cs_compact_t *m = &rec->rec.m;
    CHECK(info.nnz_a == m->a.nnz && info.nnz_b == m->b.nnz && info.nnz_c == m->c.nnz);
    uint64_t nnz = m->a.nnz + m->b.nnz + m->c.nnz;
    uint64_t slack = (m->a.idx8 ? m->a.nnz : 0) + (m->b.idx8 ? m->b.nnz : 0) + (m->c.idx8 ? m->c.nnz : 0) +
                     nnz * 16 / 255 + (6u << 20);
    printf("record: %zu constraints, %zu + %zu + %zu non-zeros, %llu bytes (%.2f per non-zero); estimate %llu "
           "(+%.1f%%), tables %zu %zu %zu, idx8 %d%d%d\n",
           m->num_constraints, (size_t)m->a.nnz, (size_t)m->b.nnz, (size_t)m->c.nnz, (unsigned long long)real,
           (double)real / (double)nnz, (unsigned long long)est,
           100.0 * ((double)est - (double)real) / (double)real, m->a.table_len, m->b.table_len, m->c.table_len,
           m->a.idx8 != NULL, m->b.idx8 != NULL, m->c.idx8 != NULL);
    CHECK_MSG(real == counted_bytes(rec), "record bytes %llu, its arrays %llu", (unsigned long long)real,
              (unsigned long long)counted_bytes(rec));
    CHECK_MSG(est >= real && est - real <= slack, "estimate %llu for %llu bytes (slack %llu)", (unsigned long long)est,
              (unsigned long long)real, (unsigned long long)slack);
}

static void prove_both(const char *dir, const cuzk_porep_c1_t *c1, cuzk_porep_partition_t *direct,
                       cuzk_porep_partition_t *from_record)
{
    cuzk_err_t err = {{0}};
    cuzk_porep_keys_t *keys = NULL;
    CHECK_MSG(cuzk_porep_keys_load(&keys, dir, 5, true, 0, &err) == CUZK_OK, "%s", err.msg);
    if (!keys)
        return;
    cuzk_groth16_proof_t p[2];
    CHECK_MSG(cuzk_porep_partition_prove(&p[0], direct, cuzk_porep_keys_pk(keys), NULL, &err) == CUZK_OK, "%s",
              err.msg);
    /* the copying prover leaves the record partition as it was: prove it again, consuming it */
    CHECK_MSG(cuzk_porep_partition_prove(&p[1], from_record, cuzk_porep_keys_pk(keys), NULL, &err) == CUZK_OK, "%s",
              err.msg);
    bool valid = false;
    for (int i = 0; i < 2; i++) {
        CHECK(cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), &p[i], 1, &err) == CUZK_OK && valid);
        CHECK_MSG(valid, "proof %d does not verify", i);
    }
    CHECK_MSG(cuzk_porep_partition_prove_consume(&p[1], from_record, cuzk_porep_keys_pk(keys), NULL, &err) ==
                  CUZK_OK,
              "%s", err.msg);
    CHECK(cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), &p[1], 1, &err) == CUZK_OK && valid);
    cuzk_g1_affine_t a = p[1].a; /* A and C swapped: valid points, not a proof */
    p[1].a = p[1].c;
    p[1].c = a;
    CHECK(cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), &p[1], 1, &err) == CUZK_OK && !valid);
    cuzk_porep_keys_free(keys);
}

int main(int argc, char **argv)
{
    test_init("test_porep_record");
    const char *slow_dir = argc == 4 && strcmp(argv[1], "--slow") == 0 ? argv[3] : NULL;
    if (slow_dir) { /* the development parameters, made when missing */
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "'%s' params generate --kind porep --sector-size 2KiB --out '%s' >/dev/null",
                 argv[2], slow_dir);
        CHECK_MSG(system(cmd) == 0, "%s", cmd);
    }
    cuzk_fc_sealed_t sealed;
    cuzk_fc_c1_t model;
    char *json = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    CHECK(fc_test_seal_2kib(&sealed, &model, NULL));
    CHECK(cuzk_fc_c1_json_write(&json, &len, &model, &err) == CUZK_OK);
    cuzk_porep_c1_t *c1 = NULL;
    CHECK_MSG(cuzk_porep_c1_parse(&c1, json, len, &err) == CUZK_OK, "%s", err.msg);
    if (!c1)
        return test_finish();
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, c1);

    /* refusals of the record itself: a bad configuration, a stop before the first challenge */
    cuzk_porep_record_t *rec = (cuzk_porep_record_t *)&rec;
    cuzk_porep_config_t bad = info.circuit;
    bad.layers = 3;
    CHECK(cuzk_porep_record_new(&rec, &bad, NULL, &err) == CUZK_ERR_INVALID_ARG && rec == NULL);
    test_stop_counter polls = {.stop_at = 1};
    cuzk_porep_prove_opts_t stop = {.should_stop = test_stop_after, .stop_arg = &polls};
    CHECK(cuzk_porep_record_new(&rec, &info.circuit, &stop, &err) == CUZK_ERR_CANCELLED && rec == NULL);
    cuzk_porep_record_free(NULL);

    uint64_t t0 = cuzk_now_ns();
    CHECK_MSG(cuzk_porep_record_new(&rec, &info.circuit, NULL, &err) == CUZK_OK, "%s", err.msg);
    uint64_t t1 = cuzk_now_ns();
    if (!rec)
        return test_finish();
    const cuzk_porep_config_t *rc = cuzk_porep_record_config(rec);
    CHECK(rc->nodes == info.circuit.nodes && rc->challenges == info.circuit.challenges);
    check_estimate(rec, &info.circuit);

    cuzk_porep_partition_t *direct = NULL, *from_record = (cuzk_porep_partition_t *)&from_record;
    CHECK(cuzk_porep_partition_synthesize_record(&from_record, c1, 1, rec, NULL, &err) == CUZK_ERR_INVALID_ARG &&
          from_record == NULL);
    polls = (test_stop_counter){.stop_at = 1};
    CHECK(cuzk_porep_partition_synthesize_record(&from_record, c1, 0, rec, &stop, &err) == CUZK_ERR_CANCELLED &&
          from_record == NULL);
    uint64_t t2 = cuzk_now_ns();
    CHECK_MSG(cuzk_porep_partition_synthesize(&direct, c1, 0, NULL, &err) == CUZK_OK, "%s", err.msg);
    uint64_t t3 = cuzk_now_ns();
    cuzk_porep_prove_opts_t one = {.threads = 1};
    CHECK_MSG(cuzk_porep_partition_synthesize_record(&from_record, c1, 0, rec, &one, &err) == CUZK_OK, "%s", err.msg);
    uint64_t t4 = cuzk_now_ns();
    printf("2KiB partition: record %.0f ms, direct %.0f ms, witness + evaluation %.0f ms\n", (t1 - t0) / 1e6,
           (t3 - t2) / 1e6, (t4 - t3) / 1e6);
    cuzk_porep_record_free(rec); /* the partition keeps nothing of it */
    if (direct && from_record)
        check_same_inputs(direct, from_record);

    /* a record of another circuit (one challenge, not the sector's two) is refused, both named */
    cuzk_porep_config_t other = info.circuit;
    other.challenges = 1;
    cuzk_porep_record_t *rec1 = NULL;
    CHECK_MSG(cuzk_porep_record_new(&rec1, &other, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_porep_partition_t *p = (cuzk_porep_partition_t *)&p;
    if (rec1) {
        CHECK(cuzk_porep_partition_synthesize_record(&p, c1, 0, rec1, NULL, &err) == CUZK_ERR_MISMATCH && p == NULL);
        CHECK_MSG(strstr(err.msg, "1 challenges") && strstr(err.msg, "2 challenges"), "%s", err.msg);
        check_estimate(rec1, &other);
    }
    cuzk_porep_record_free(rec1);

    if (slow_dir && direct && from_record)
        prove_both(slow_dir, c1, direct, from_record);
    cuzk_porep_partition_free(direct);
    cuzk_porep_partition_free(from_record);
    cuzk_porep_c1_free(c1);
    cuzk_fc_c1_free(&model);
    cuzk_fc_sealed_free(&sealed);
    free(json);
    return test_finish();
}
