/* The engine's memory figures for PoRep: a request whose partition cannot fit the budget is refused at
 * submission with the figures (never queued), one that fits is queued; the peak figure of the consuming
 * prover against the sizes of a 32GiB partition (2^27 domain, 130,170,221 variables: 12.88 GB and a piece
 * of the key). */
#include <stdlib.h>
#include <string.h>
#include "cuzk/engine.h"
#include "cuzk/porep.h"
#include "engine/engine_internal.h"
#include "test_util.h"

static cuzk_engine_t *start(uint64_t budget)
{
    cuzk_engine_config_t cfg;
    cuzk_engine_config_defaults(&cfg);
    cfg.param_cache = "/nonexistent-params";
    cfg.total_budget = budget;
    cfg.log = fopen("/dev/null", "w");
    cuzk_engine_t *e = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_engine_new(&e, &cfg, &err) == CUZK_OK, "%s", err.msg);
    return e;
}

static uint64_t proof_id(const char *name)
{
    cuzk_porep_registered_proof_t p;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_porep_registered_proof_parse(&p, name, &err) == CUZK_OK, "%s", err.msg);
    return p.id;
}

static void test_peak_figure(void)
{
    /* 32GiB: 3 domain arrays (A·z, B·z grown, C·z) of 2^27 × 32 B = 12.88 GB, more than A·z and B·z with
     * the assignment (130,170,221 × 32 B = 4.17 GB), plus the key's piece (1.6 GB: 2^24 G1 points, 2^23 G2) */
    uint64_t m = 1ull << 27, vars = 130170221, piece = (1ull << 24) * 96;
    uint64_t want = 3 * m * 32 + piece;
    uint64_t got = cuzk_porep_partition_peak_bytes(m, vars, piece);
    CHECK_MSG(got >= want && got - want <= (512ull << 20), "32GiB partition peak %llu, want %llu + slack",
              (unsigned long long)got, (unsigned long long)want);
    CHECK(cuzk_porep_partition_peak_bytes(m, vars, 0) == got - piece);
    /* an assignment larger than the domain array it shares memory with counts (more variables than rows) */
    CHECK(cuzk_porep_partition_peak_bytes(1024, 4096, 0) >= 32 * (2 * 1024 + 4096));
}

static void test_refused_at_submission(void)
{
    cuzk_engine_t *e = start(8ull << 30); /* 8 GiB: a 32GiB partition needs about 15 GiB */
    cuzk_job_request_t r = {.request_id = "big", .kind = CUZK_KIND_POREP_SEAL_COMMIT,
                            .registered_proof = proof_id("StackedDrg32GiBV1_1"),
                            .vanilla_proof = (const uint8_t *)"{\"bad\":1}", .vanilla_proof_len = 9};
    char id[CUZK_JOB_ID_MAX];
    cuzk_err_t err = {{0}};
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_NO_MEMORY);
    CHECK_MSG(strstr(err.msg, "StackedDrg32GiBV1_1 needs") && strstr(err.msg, "for one partition") &&
                  strstr(err.msg, "2^27") && strstr(err.msg, "never be proved here"),
              "message: %s", err.msg);
    /* the shape extrapolated from one and two challenges is the whole circuit's: 328 inputs and 130,169,893
     * aux (the count backend on all 18 challenges, tests/filecoin/porep/test_porep_circuit_slow.c) */
    CHECK_MSG(strstr(err.msg, "130170221 variables"), "message: %s", err.msg);
    cuzk_engine_status_t s;
    cuzk_engine_status(e, &s);
    CHECK_MSG(s.budget_used == 0, "a refused request holds %llu bytes", (unsigned long long)s.budget_used);
    /* a sector whose partition fits is queued (and fails later on its C1) */
    r.request_id = "small";
    r.registered_proof = proof_id("StackedDrg2KiBV1_1");
    CHECK_MSG(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_engine_free(e);

    /* Submission counts the streamed key's piece as the partition's synthesis will (14.76 GB at 32GiB, the
     * piece no larger for b_g2's G2 points than for the G1 sections'): 15 GiB (13.1 GiB to work with) is
     * refused at once rather than failing at the first synthesis; 16 GiB (14.0) is queued. */
    r.request_id = "big";
    r.registered_proof = proof_id("StackedDrg32GiBV1_1");
    e = start(15ull << 30);
    CHECK(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_ERR_NO_MEMORY && strstr(err.msg, "never be proved"));
    cuzk_engine_free(e);
    e = start(16ull << 30);
    CHECK_MSG(cuzk_engine_submit(e, &r, id, NULL, &err) == CUZK_OK, "%s", err.msg);
    cuzk_engine_free(e);
}

int main(void)
{
    test_init("engine_budget");
    test_peak_figure();
    test_refused_at_submission();
    return test_finish();
}
