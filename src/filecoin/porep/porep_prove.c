/* PoRep C2: development setup, per-partition synthesis and Groth16 proving of a C1 output, and the
 * verification of a sector's proofs against public inputs recomputed from the C1's commitments and
 * seed (never from the proofs' own claims). */
#include "filecoin/porep/porep_prove.h"

#include <stdlib.h>
#include <string.h>

#include "ff/fr.h"
#include "filecoin/porep/porep_circuit_c1.h"
#include "groth16/circuit_keys.h"
#include "groth16/setup_stream.h"
#include "filecoin/sdr/porep_inputs.h"
#include "util/timer.h"
#include "util/timing.h"

static double ms_since(uint64_t t0) { return (double)(cuzk_now_ns() - t0) / 1e6; }

static cuzk_status record_blank(cuzk_cs_t *cs, const void *cfg, cuzk_err_t *err)
{
    return cuzk_porep_synthesize(cs, cfg, NULL, err);
}

cuzk_status cuzk_porep_dev_setup(cuzk_groth16_pk_t *pk, const cuzk_porep_config_t *cfg, int threads,
                                 cuzk_err_t *err)
{
    return cuzk_groth16_setup_circuit(pk, record_blank, cfg, threads, err);
}

/* The streaming setup's progress in the public callback's terms. */
typedef struct {
    cuzk_porep_setup_progress_fn fn;
    void *arg;
} progress_relay;

static void relay_progress(void *arg, const g16_stream_progress *p)
{
    const progress_relay *r = arg;
    r->fn(r->arg, p->phase, p->done, p->total, p->fraction, p->elapsed_s);
}

cuzk_status cuzk_porep_dev_setup_write(const cuzk_porep_config_t *cfg, const char *params_path, const char *vk_path,
                                       const cuzk_porep_setup_opts_t *opts, cuzk_err_t *err)
{
    static const cuzk_porep_setup_opts_t none = {0};
    if (!opts)
        opts = &none;
    progress_relay relay = {opts->progress, opts->progress_arg};
    const g16_stream_opts so = {.threads = opts->threads,
                                .progress = opts->progress ? relay_progress : NULL,
                                .progress_arg = &relay,
                                .should_stop = opts->should_stop,
                                .stop_arg = opts->stop_arg};
    return g16_setup_stream(params_path, vk_path, record_blank, cfg, &so, err);
}

cuzk_status cuzk_porep_check_key(const cuzk_groth16_pk_t *pk, const cuzk_porep_config_t *cfg, cuzk_err_t *err)
{
    cuzk_circuit_info_t info;
    cuzk_status st = cuzk_porep_circuit_shape(&info, cfg, err);
    return st == CUZK_OK ? cuzk_groth16_check_key_shape(pk, &info, err) : st;
}

cuzk_status cuzk_porep_c1_config(cuzk_porep_config_t *cfg, const cuzk_fc_c1_t *c1, cuzk_err_t *err)
{
    if (!c1 || !c1->proof)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep: C1 output without a registered proof");
    return cuzk_porep_config_for_proof(cfg, NULL, c1->proof->name, err);
}

cuzk_status cuzk_porep_c1_check_sector(const cuzk_fc_c1_t *c1, uint64_t sector_size, const cuzk_fc_c1_wrapper_info_t *info,
                                       const uint64_t *sector, const uint64_t *miner, cuzk_err_t *err)
{
    const cuzk_fc_seal_proof_t *p = c1->proof;
    if (sector_size && sector_size != p->sector_size)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "the C1 output is for another sector size (%s) than %llu bytes",
                            p->name, (unsigned long long)sector_size);
    if (sector && info && info->wrapped && info->sector_num != *sector)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH, "sector number %llu disagrees with the wrapper's SectorNum %llu",
                            (unsigned long long)*sector, (unsigned long long)info->sector_num);
    if (!sector || !miner)
        return CUZK_OK;
    uint8_t prover[32], porep_id[32], rid[32];
    cuzk_fc_prover_id_from_miner(prover, *miner);
    cuzk_fc_porep_id(porep_id, p->id);
    cuzk_fc_replica_id(rid, prover, *sector, c1->ticket, c1->comm_d, porep_id);
    if (memcmp(rid, c1->replica_id, 32) != 0)
        return cuzk_err_set(err, CUZK_ERR_MISMATCH,
                            "the C1 output's replica_id is not that of miner %llu, sector %llu (recomputed from "
                            "them, the C1's ticket and comm_d and %s's porep id)",
                            (unsigned long long)*miner, (unsigned long long)*sector, p->name);
    return CUZK_OK;
}

cuzk_status cuzk_porep_c1_public_inputs(cuzk_scalar_t *out, size_t out_len, size_t *n_out,
                                        const cuzk_fc_c1_t *c1, uint32_t k, cuzk_err_t *err)
{
    cuzk_fc_porep_config_t pc;
    cuzk_fc_porep_config_from_proof(&pc, c1->proof);
    size_t n = cuzk_fc_porep_public_input_count(&pc);
    if (out_len < n)
        return cuzk_err_set(err, CUZK_ERR_BAD_LENGTH, "porep: room for %zu public inputs, %zu needed", out_len, n);
    fr *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep: out of memory (public inputs)");
    cuzk_status st =
        cuzk_fc_porep_public_inputs(tmp, n, &pc, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed, k, err);
    if (st == CUZK_OK) {
        for (size_t i = 0; i < n; i++)
            fr_to_scalar(&out[i], &tmp[i]);
        if (n_out)
            *n_out = n;
    }
    free(tmp);
    return st;
}

cuzk_status cuzk_porep_synthesize_partition(cuzk_porep_partition_t *out, const cuzk_fc_c1_t *c1,
                                            const cuzk_porep_config_t *cfg, uint32_t k,
                                            bool (*should_stop)(void *stop_arg), void *stop_arg, cuzk_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (k >= c1->n_partitions)
        return cuzk_err_set(err, CUZK_ERR_INVALID_ARG, "porep: partition %u of %u", k, c1->n_partitions);
    cuzk_porep_witness_t w;
    cuzk_status st = cuzk_porep_witness_from_c1(&w, c1, k, err);
    if (st != CUZK_OK)
        return st;
    st = cuzk_cs_new(&out->cs, CUZK_CS_DIRECT, CUZK_LC_DEFAULT, err);
    if (st == CUZK_OK)
        st = cuzk_cs_omit_c(out->cs, err); /* the prover rebuilds C·z; the proof is verified after */
    if (st == CUZK_OK) {
        /* the arrays sized for the whole circuit and faulted in on a second thread as the synthesis, on this
         * one, fills them (the shape is counted once per configuration: the key check counted it already) */
        cuzk_circuit_info_t shape;
        if (cuzk_porep_circuit_shape(&shape, cfg, NULL) == CUZK_OK) {
            cuzk_cs_reserve(out->cs, shape.num_inputs, shape.num_aux, shape.num_constraints);
            cuzk_cs_prefault_start(out->cs);
        }
        cuzk_cs_set_stop(out->cs, should_stop, stop_arg);
        st = cuzk_porep_synthesize(out->cs, cfg, &w, err);
        cuzk_cs_prefault_stop(out->cs);
    }
    if (st == CUZK_OK)
        st = cuzk_cs_groth16_witness(out->cs, &out->gw, err);
    cuzk_porep_witness_free(&w);
    if (st != CUZK_OK)
        cuzk_porep_partition_clear(out);
    return st;
}

cuzk_status cuzk_porep_partition_prove_in_place(cuzk_groth16_proof_t *proof, cuzk_porep_partition_t *part,
                                                 const cuzk_groth16_pk_t *pk, const cuzk_groth16_prove_opts *po,
                                                cuzk_err_t *err)
{
    /* The prover works in the synthesis's own arrays (A·z and B·z grown to the domain, or evaluated there
     * from the record, the assignment turned into scalars in place): no copy of the witness is made. */
    cuzk_groth16_witness_consumable_t cw;
    cuzk_status st = CUZK_OK;
    if (part->from_record)
        cw = part->cw;
    else
        st = cuzk_cs_groth16_witness_consumable(part->cs, &cw, err);
    if (st == CUZK_OK)
        st = cuzk_groth16_prove_consume(proof, pk, &cw, po, err);
    memset(&part->gw, 0, sizeof part->gw); /* its values are gone */
    memset(&part->cw, 0, sizeof part->cw);
    return st;
}

void cuzk_porep_partition_clear(cuzk_porep_partition_t *p)
{
    cuzk_cs_free(p->cs);
    cuzk_cs_abc_free(&p->abc);
    free(p->density);
    memset(p, 0, sizeof *p);
}

cuzk_status cuzk_porep_prove_c1(cuzk_groth16_proof_t *proofs, const cuzk_fc_c1_t *c1, const cuzk_groth16_pk_t *pk,
                                const cuzk_porep_prove_opts_t *opts, cuzk_porep_timings_t *timings,
                                cuzk_err_t *err)
{
    cuzk_porep_prove_opts_t o = {0};
    if (opts)
        o = *opts;
    cuzk_porep_timings_t t = {0};
    cuzk_porep_config_t cfg;
    cuzk_status st = cuzk_porep_c1_config(&cfg, c1, err);
    if (st == CUZK_OK)
        st = cuzk_fc_c1_check_challenges(c1, err);
    if (st != CUZK_OK)
        return st;
    cuzk_groth16_prove_opts po;
    memset(&po, 0, sizeof po);
    po.threads = o.threads;
    po.h_mode = CUZK_GROTH16_H_COSET;
    po.should_stop = o.should_stop;
    po.stop_arg = o.stop_arg;
    po.params = o.params;
    /* record mode: the matrices once, before the first partition; each partition then witness-only */
    cuzk_cs_record_t rec;
    memset(&rec, 0, sizeof rec);
    if (o.synth == CUZK_POREP_SYNTH_RECORD) {
        uint64_t t0 = cuzk_now_ns();
        st = cuzk_porep_record_build(&rec, &cfg, o.should_stop, o.stop_arg, err);
        t.synth_ms += ms_since(t0);
        cuzk_timing_report("porep_record", t0);
    }
    for (uint32_t k = 0; k < c1->n_partitions && st == CUZK_OK; k++) {
        uint64_t t0 = cuzk_now_ns();
        cuzk_porep_partition_t part = {0};
        st = o.synth == CUZK_POREP_SYNTH_RECORD
                 ? cuzk_porep_synthesize_partition_record(&part, c1, &cfg, k, &rec, o.threads, o.should_stop,
                                                          o.stop_arg, err)
                 : cuzk_porep_synthesize_partition(&part, c1, &cfg, k, o.should_stop, o.stop_arg, err);
        if (st == CUZK_OK) {
            t.constraints = part.gw.num_constraints;
            t.synth_ms += ms_since(t0);
            cuzk_timing_report("porep_synth", t0);
            uint64_t t1 = cuzk_now_ns();
            st = cuzk_porep_partition_prove_in_place(&proofs[k], &part, pk, &po, err);
            t.prove_ms += ms_since(t1);
            cuzk_timing_report("porep_prove", t1);
        }
        cuzk_porep_partition_clear(&part);
    }
    cuzk_cs_record_free(&rec);
    if (timings)
        *timings = t;
    return st;
}

cuzk_status cuzk_porep_verify_c1(bool *valid, const cuzk_fc_c1_t *c1, const cuzk_groth16_vk_t *vk,
                                 const cuzk_groth16_proof_t *proofs, size_t n, cuzk_err_t *err)
{
    *valid = false;
    if (n != c1->n_partitions)
        return CUZK_OK; /* a proof of another sector shape is simply not valid for this C1 */
    cuzk_fc_porep_config_t pc;
    cuzk_fc_porep_config_from_proof(&pc, c1->proof);
    size_t cap = cuzk_fc_porep_public_input_count(&pc), n_in = 0;
    cuzk_scalar_t *in = malloc(cap * sizeof *in);
    if (!in)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "porep verify: out of memory");
    cuzk_groth16_pvk_t *pvk = NULL;
    cuzk_status st = cuzk_groth16_pvk_new(&pvk, vk);
    if (st != CUZK_OK)
        cuzk_err_set(err, st, "porep verify: cannot prepare the verifying key");
    bool all = st == CUZK_OK;
    for (uint32_t k = 0; k < c1->n_partitions && st == CUZK_OK && all; k++) {
        bool ok = false;
        st = cuzk_porep_c1_public_inputs(in, cap, &n_in, c1, k, err);
        if (st == CUZK_OK)
            st = cuzk_groth16_verify(&ok, pvk, &proofs[k], in, n_in, err);
        all = all && ok;
    }
    cuzk_groth16_pvk_free(pvk);
    free(in);
    *valid = st == CUZK_OK && all;
    return st;
}
