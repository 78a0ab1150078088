/* A PoRep circuit recorded once (its blank circuit through the record backend, compact matrices and density
 * bitmaps) and shared by every partition of that circuit: a partition is then a witness-only synthesis and
 * the matrices' evaluation straight into the prover's domain buffers, in place of the direct backend's
 * linear combinations. Also the size of a record before it is made, from the count backend's figures, so
 * that a memory budget can decide without paying for the recording. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/porep.h"
#include "filecoin/porep/porep_circuit_c1.h"
#include "filecoin/porep/porep_prove.h"

static size_t words(size_t bits) { return (bits + 63) / 64; }

/* The bytes of the three density bitmaps of a circuit with these counts. */
static uint64_t density_bytes(size_t num_inputs, size_t num_aux)
{
    return 8 * (2 * (uint64_t)words(num_aux) + words(num_inputs));
}

cuzk_status cuzk_porep_record_build(cuzk_cs_record_t *rec, const cuzk_porep_config_t *cfg,
                                    bool (*should_stop)(void *stop_arg), void *stop_arg, cuzk_err_t *err)
{
    memset(rec, 0, sizeof *rec);
    cuzk_cs_t *cs = NULL;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_RECORD, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK) {
        cuzk_cs_set_stop(cs, should_stop, stop_arg);
        st = cuzk_porep_synthesize(cs, cfg, NULL, err);
    }
    if (st == CUZK_OK)
        st = cuzk_cs_take_record_compact(cs, rec, err);
    cuzk_cs_free(cs);
    return st;
}

cuzk_status cuzk_porep_synthesize_partition_record(cuzk_porep_partition_t *out, const cuzk_fc_c1_t *c1,
                                                   const cuzk_porep_config_t *cfg, uint32_t k,
                                                   const cuzk_cs_record_t *rec, int threads,
                                                   bool (*should_stop)(void *stop_arg), void *stop_arg,
                                                   cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    out->from_record = true;
    cuzk_porep_witness_t w;
    cuzk_status st = cuzk_porep_witness_from_c1(&w, c1, k, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_cs_new(&out->cs, CUZK_CS_WITNESS, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK) {
        cuzk_cs_set_stop(out->cs, should_stop, stop_arg);
        st = cuzk_porep_synthesize(out->cs, cfg, &w, err);
    }
    cuzk_porep_witness_free(&w);
    if (st == CUZK_OK)
        st = cuzk_cs_record_witness_consumable(&out->cw, &out->abc, rec, out->cs, threads, err);
    /* the bitmaps copied (a few MB at 32GiB), so that the record may go before the partition */
    size_t aux_words = words(rec->m.num_aux), in_words = words(rec->m.num_inputs);
    if (st == CUZK_OK && !(out->density = malloc(density_bytes(rec->m.num_inputs, rec->m.num_aux))))
        st = cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep: out of memory (partition %u's density bitmaps)", k);
    if (st != CUZK_OK) {
        cuzk_porep_partition_clear(out);
        return st;
    }
    uint64_t *a_aux = out->density, *b_in = a_aux + aux_words, *b_aux = b_in + in_words;
    memcpy(a_aux, rec->a_aux_density, aux_words * 8);
    memcpy(b_in, rec->b_input_density, in_words * 8);
    memcpy(b_aux, rec->b_aux_density, aux_words * 8);
    out->cw.a_aux_density = a_aux;
    out->cw.b_input_density = b_in;
    out->cw.b_aux_density = b_aux;
    /* the same arrays for the copying prover; C·z is A·z ∘ B·z, as the direct partition's */
    out->gw = (cuzk_groth16_witness_t){.num_inputs = out->cw.num_inputs, .num_aux = out->cw.num_aux,
                                       .num_constraints = out->cw.num_constraints, .a = out->cw.a,
                                       .b = out->cw.b, .c = NULL, .input = out->cw.input, .aux = out->cw.aux,
                                       .a_aux_density = a_aux, .b_input_density = b_in, .b_aux_density = b_aux};
    return CUZK_OK;
}

/* ---- the public record -------------------------------------------------------------------------- */

cuzk_status cuzk_porep_record_new(cuzk_porep_record_t **out, const cuzk_porep_config_t *cfg,
                                  const cuzk_porep_prove_opts_t *opts, cuzk_err_t *err)
{
    *out = NULL;
    cuzk_status st = cuzk_porep_config_check(cfg, err);
    if (st != CUZK_OK)
        return st;
    cuzk_porep_record_t *r = calloc(1, sizeof *r);
    if (!r)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep record: out of memory");
    r->cfg = *cfg;
    st = cuzk_porep_record_build(&r->rec, cfg, opts ? opts->should_stop : NULL, opts ? opts->stop_arg : NULL, err);
    if (st != CUZK_OK) {
        free(r);
        return st;
    }
    r->bytes = cuzk_r1cs_compact_bytes(&r->rec.m) + density_bytes(r->rec.m.num_inputs, r->rec.m.num_aux);
    *out = r;
    return CUZK_OK;
}

void cuzk_porep_record_free(cuzk_porep_record_t *rec)
{
    if (!rec)
        return;
    cuzk_cs_record_free(&rec->rec);
    free(rec);
}

uint64_t cuzk_porep_record_bytes(const cuzk_porep_record_t *rec) { return rec->bytes; }

const cuzk_porep_config_t *cuzk_porep_record_config(const cuzk_porep_record_t *rec) { return &rec->cfg; }

cuzk_status cuzk_porep_record_check_config(const cuzk_porep_record_t *rec, const cuzk_porep_config_t *cfg,
                                           cuzk_err_t *err)
{
    const cuzk_porep_config_t *a = &rec->cfg;
    if (cuzk_porep_config_equal(a, cfg))
        return CUZK_OK;
    return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                        "porep: the record is of another circuit (%llu nodes, %u layers, %u challenges, arities "
                        "%u-%u-%u) than the partition's (%llu nodes, %u layers, %u challenges, arities %u-%u-%u)",
                        (unsigned long long)a->nodes, a->layers, a->challenges, a->base_arity, a->sub_arity,
                        a->top_arity, (unsigned long long)cfg->nodes, cfg->layers, cfg->challenges,
                        cfg->base_arity, cfg->sub_arity, cfg->top_arity);
}

/* One matrix of nnz non-zeros over rows rows, as cuzk_r1cs_compact_bytes counts it, with what the counts
 * cannot tell taken at its most: 16-bit coefficient indices, a full table (CUZK_CMAT_MAX_TABLE values, or
 * one per non-zero and the two fixed ones when fewer), one long row per CUZK_CMAT_LONG_ROW terms. */
static uint64_t matrix_bound(uint64_t rows, uint64_t nnz)
{
    uint64_t table = nnz + 2 < CUZK_CMAT_MAX_TABLE ? nnz + 2 : CUZK_CMAT_MAX_TABLE;
    return (rows + CUZK_CMAT_BLOCK - 1) / CUZK_CMAT_BLOCK * 8 + 8 + rows + nnz / CUZK_CMAT_LONG_ROW * 16 +
           nnz * (4 + 2) + table * sizeof(cuzk_fr_t);
}

uint64_t cuzk_porep_record_estimate(const cuzk_circuit_info_t *shape)
{
    uint64_t rows = shape->num_constraints;
    return matrix_bound(rows, shape->nnz_a) + matrix_bound(rows, shape->nnz_b) + matrix_bound(rows, shape->nnz_c) +
           density_bytes(shape->num_inputs, shape->num_aux);
}
