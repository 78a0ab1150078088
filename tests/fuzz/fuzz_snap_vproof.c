/* libFuzzer target for SnapDeals vanilla partition proofs (bincode PartitionProof, the bytes Curio sends for
 * SNAP_DEALS_UPDATE, and the Vec<PartitionProof> file form): cuzk_fc_snap_vproof_decode and the list decoder
 * with strict bounds, then the prover's checks. Checked on every input: a refusal comes with a message and
 * leaves nothing allocated; an accepted proof encodes back (cuzk_fc_snap_vproof_encode) to exactly its own
 * bytes; the checks under the 2KiB and 8MiB shapes, with the commitments its own roots give, answer
 * without crashing, and the witness is filled or refused. Seeds: synthetic 2KiB and 8MiB partitions and a
 * 2KiB file form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/snap.h"
#include "filecoin/hash/poseidon.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_write.h"
#include "fuzz_util.h"
#include "testkit/snap_synthetic.h"

static void synthetic(cuzk_fc_snap_synthetic_t *s, uint64_t size)
{
    cuzk_snap_config_t cfg;
    cuzk_err_t err = {{0}};
    uint8_t comm_c[32] = {3}, seed[32] = {9};
    REQUIRE(cuzk_snap_config_for_size(&cfg, size, &err) == CUZK_OK);
    REQUIRE(cuzk_fc_snap_synthetic(s, &cfg, comm_c, seed, 1, &err) == CUZK_OK);
}

static void write_seeds(const char *dir)
{
    cuzk_fc_snap_synthetic_t s;
    synthetic(&s, 2048);
    fz_seed(dir, "snap-2kib", s.data[0], s.len[0]);
    uint8_t *list = NULL;
    size_t len = 0;
    cuzk_err_t err = {{0}};
    REQUIRE(cuzk_fc_snap_vproof_list_join(&list, &len, (const uint8_t *const *)s.data, s.len, s.n, &err) == CUZK_OK);
    fz_seed(dir, "snap-2kib-file", list, len);
    free(list);
    cuzk_fc_snap_synthetic_free(&s);
    synthetic(&s, 8u << 20);
    fz_seed(dir, "snap-8mib-partition-3", s.data[3], s.len[3]);
    cuzk_fc_snap_synthetic_free(&s);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *dir = getenv("CUZK_FUZZ_SEEDS");
    if (dir && *dir) {
        write_seeds(dir);
        exit(0);
    }
    return 0;
}

/* Poseidon2(comm_c, root) into out; false when a value is not an Fr. */
static bool comm_r(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32])
{
    uint8_t pair[64];
    memcpy(pair, comm_c, 32);
    memcpy(pair + 32, root, 32);
    return cuzk_poseidon_node(out, 2, pair, NULL) == CUZK_OK;
}

static void checks(const cuzk_fc_snap_vproof_t *v)
{
    static const uint64_t sizes[] = {2048, 8u << 20};
    for (size_t i = 0; i < 2; i++) {
        cuzk_snap_config_t cfg;
        REQUIRE(cuzk_snap_config_for_size(&cfg, sizes[i], NULL) == CUZK_OK);
        uint8_t r_old[32] = {0}, d_new[32] = {0}, r_new[32] = {0};
        if (v->n_challenges) {
            if (!comm_r(r_old, v->comm_c, v->challenges[0].r_old.root) ||
                !comm_r(r_new, v->comm_c, v->challenges[0].r_new.root))
                memset(r_old, 0, 32), memset(r_new, 0, 32);
            memcpy(d_new, v->challenges[0].d_new.root, 32);
            d_new[31] &= 0x3f;
        }
        for (uint32_t k = 0; k < cfg.partition_count; k += 3) {
            cuzk_err_t err = {{0}};
            if (cuzk_fc_snap_vproof_verify(v, &cfg, k, r_old, d_new, r_new, 1 + (int)(k & 1), &err) != CUZK_OK)
                REQUIRE(err.msg[0] != 0);
        }
        cuzk_snap_witness_t w;
        cuzk_err_t err = {{0}};
        REQUIRE(cuzk_snap_witness_init(&w, &cfg, &err) == CUZK_OK);
        if (cuzk_fc_snap_vproof_witness(&w, v, 0, r_old, d_new, r_new, &err) != CUZK_OK)
            REQUIRE(err.msg[0] != 0 && !w.has_values);
        cuzk_snap_witness_free(&w);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cuzk_fc_snap_vproof_t v;
    cuzk_err_t err = {{0}};
    if (cuzk_fc_snap_vproof_decode(&v, data, size, NULL, &err) == CUZK_OK) {
        uint8_t *back = NULL;
        size_t len = 0;
        REQUIRE(cuzk_fc_snap_vproof_encode(&back, &len, &v, &err) == CUZK_OK);
        REQUIRE(len == size && memcmp(back, data, size) == 0);
        free(back);
        checks(&v);
        cuzk_fc_snap_vproof_free(&v);
    } else {
        REQUIRE(err.msg[0] != 0 && v.storage == NULL && v.challenges == NULL && v.apex == NULL);
    }
    /* the file form */
    cuzk_fc_snap_vproof_t parts[CUZK_SNAP_MAX_PARTITIONS];
    size_t n = 99;
    memset(&err, 0, sizeof err);
    if (cuzk_fc_snap_vproof_list_decode(parts, CUZK_SNAP_MAX_PARTITIONS, &n, data, size, &err) != CUZK_OK) {
        REQUIRE(err.msg[0] != 0 && n == 0);
        for (size_t i = 0; i < CUZK_SNAP_MAX_PARTITIONS; i++)
            REQUIRE(parts[i].storage == NULL);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        cuzk_fc_snap_vproof_free(&parts[i]);
    return 0;
}
