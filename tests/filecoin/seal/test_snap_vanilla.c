/* SnapDeals vanilla partition proofs of a real updated sector (cuzk_seal_snap_vanilla): a 2KiB CC sector sealed
 * and kept by the library, random data encoded into it (cuzk_seal_snap_encode), then its partition proofs
 * made from the directories' files. Checked against an independent rebuild: the sector's own files (the old
 * replica `sealed`, the new replica `update`) and the data padded by the test's Fr32 oracle go into whole
 * trees hashed in the test, and the test's field-by-field writer (snap_vproof_fixture.h) produces the
 * bytes a PartitionProof of that sector must have, with the challenges of challenges.rs' formula: the
 * proofs must equal them byte for byte, and pass the prover's checks. Refusals: another CC sector as the
 * sector key, a tree D file missing or cut, a corrupted node of the new replica under a challenge and of
 * tree D on a path, a missing update.json, threads < 0: the right status, a message naming the file, no
 * output. With --8mib, an 8MiB sector (4 partitions) the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/seal.h"
#include "cuzk/snap.h"
#include "filecoin/fc_fr32_oracle.h"
#include "filecoin/vanilla/snap_vproof.h"
#include "filecoin/vanilla/snap_vproof_fixture.h"
#include "test_util.h"

static char base[64];

static char *path_of(const char *dir, const char *name)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static uint8_t *slurp(const char *dir, const char *name, size_t *len)
{
    return (uint8_t *)test_read_file(path_of(dir, name), len);
}

/* A CC sector (all-zero data) of the seal proof's size, kept in dir. */
static int seal_cc(const char *dir, uint64_t seal_proof)
{
    cuzk_seal_request_t req = {.proof_id = seal_proof, .miner_id = 1000, .sector_num = 1 + test_rand_below(1000)};
    test_rand_bytes(req.ticket, 32);
    cuzk_sealed_sector_t *s = NULL;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_precommit(&s, &req, &err);
    if (st == CUZK_OK)
        st = cuzk_seal_write_sector(s, dir, &err);
    cuzk_seal_free(s);
    CHECK_MSG(st == CUZK_OK, "sealing %s: %s", dir, err.msg);
    return st == CUZK_OK;
}

/* The proofs, refused: the status wanted, a message holding `has`, nothing returned. */
static void refused(const char *up, const char *key, int threads, cuzk_status want, const char *has, const char *what)
{
    uint8_t *out = (uint8_t *)1;
    size_t len = 1;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_vanilla(&out, &len, up, key, threads, &err);
    CHECK_MSG(st == want && out == NULL && len == 0 && (!has || strstr(err.msg, has)),
              "%s: status %d (%d expected): %s", what, (int)st, (int)want, err.msg);
}

static uint64_t u64_le(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void one_sector(uint64_t seal_proof, uint64_t size, int refusals)
{
    char key[128], up[128];
    snprintf(key, sizeof key, "%s/cc-%llu", base, (unsigned long long)size);
    snprintf(up, sizeof up, "%s/up-%llu", base, (unsigned long long)size);
    if (!seal_cc(key, seal_proof))
        return;
    size_t raw_len = (size_t)(size / 128 * 127), n = 0;
    uint8_t *raw = malloc(raw_len);
    test_rand_bytes(raw, raw_len);
    cuzk_seal_snap_info_t info;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_seal_snap_encode(key, raw, raw_len, up, 0, &info, &err);
    CHECK_MSG(st == CUZK_OK, "encode: %s", err.msg);
    uint8_t *out = NULL;
    size_t len = 0;
    if (st == CUZK_OK)
        st = cuzk_seal_snap_vanilla(&out, &len, up, NULL, 0, &err);
    CHECK_MSG(st == CUZK_OK, "vanilla: %s", err.msg);
    if (st != CUZK_OK) {
        free(raw);
        return;
    }

    /* the independent rebuild: the files' replicas, the data padded here, whole trees, the writer's bytes */
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_proof(&cfg, info.update_proof_id, NULL) == CUZK_OK);
    cfg.h = info.h;
    uint8_t *old = slurp(key, "sealed", &n);
    CHECK(old && n == size);
    uint8_t *nw = slurp(up, "update", &n);
    CHECK(nw && n == size);
    uint8_t *padded = malloc(size);
    fc_test_fr32_pad(padded, raw, raw_len);
    snap_fx f;
    snap_fx_build_from(&f, &cfg, old, padded, info.comm_c, 0);
    CHECK_MSG(memcmp(f.nw, nw, size) == 0, "the new replica is not old + data x rho");
    CHECK(memcmp(f.comm_r_old, info.comm_r_old, 32) == 0 && memcmp(f.comm_d_new, info.comm_d_new, 32) == 0 &&
          memcmp(f.comm_r_new, info.comm_r_new, 32) == 0);
    CHECK(len >= 8 && u64_le(out) == cfg.partition_count);
    size_t at = 8;
    for (uint32_t k = 0; k < cfg.partition_count && at <= len; k++) {
        size_t plen = 0;
        uint8_t *want = snap_fx_partition(&f, k, NULL, 0, k, &plen);
        CHECK_MSG(at + plen <= len && memcmp(out + at, want, plen) == 0,
                  "%llu bytes, partition %u: not the bytes of the sector's trees", (unsigned long long)size, k);
        at += plen;
        free(want);
    }
    CHECK_MSG(at == len, "%zu bytes of partition proofs, %zu expected", len, at);

    /* the file form reads back, and every partition passes the prover's checks */
    char *vfile = path_of(base, "snap.vproof");
    CHECK(cuzk_atomic_write_file(vfile, out, len, &err) == CUZK_OK);
    cuzk_snap_vanilla_t *parts[CUZK_SNAP_MAX_PARTITIONS];
    size_t np = 0;
    CHECK_MSG(cuzk_snap_vanilla_load_all(parts, CUZK_SNAP_MAX_PARTITIONS, &np, vfile, &err) == CUZK_OK &&
                  np == cfg.partition_count,
              "%s", err.msg);
    for (size_t k = 0; k < np; k++) {
        st = cuzk_fc_snap_vproof_verify(&parts[k]->v, &cfg, (uint32_t)k, info.comm_r_old, info.comm_d_new,
                                        info.comm_r_new, 2, &err);
        CHECK_MSG(st == CUZK_OK, "partition %zu: %s", k, err.msg);
        cuzk_snap_vanilla_free(parts[k]);
    }
    unlink(vfile);
    /* the sector key named explicitly: the same bytes */
    uint8_t *again = NULL;
    size_t alen = 0;
    CHECK(cuzk_seal_snap_vanilla(&again, &alen, up, key, 1, &err) == CUZK_OK && alen == len &&
          memcmp(again, out, len) == 0);
    free(again);

    if (refusals) {
        /* another CC sector as the sector key */
        char other[128];
        snprintf(other, sizeof other, "%s/other", base);
        if (seal_cc(other, seal_proof))
            refused(up, other, 0, CUZK_ERR_MISMATCH, "is not the one", "another sector key");
        refused(up, path_of(base, "none"), 0, CUZK_ERR_IO, "sector.json", "a missing sector key");
        refused(up, NULL, -1, CUZK_ERR_INVALID_ARG, NULL, "threads < 0");
        /* tree D missing, then cut */
        char *td = path_of(up, "sc-02-data-tree-d.dat"), *moved = path_of(up, "tree-d.saved");
        CHECK(rename(td, moved) == 0);
        refused(up, NULL, 0, CUZK_ERR_IO, "sc-02-data-tree-d.dat", "no tree D");
        size_t tdl = 0;
        uint8_t *tdb = (uint8_t *)test_read_file(moved, &tdl);
        CHECK(cuzk_atomic_write_file(td, tdb, tdl - 32, &err) == CUZK_OK);
        refused(up, NULL, 0, CUZK_ERR_FORMAT, "sc-02-data-tree-d.dat", "a cut tree D");
        /* a sibling of challenge 0's tree-D path changed: the proof made does not verify */
        uint64_t chal[128];
        snap_fx_challenges(chal, &f, 0);
        uint64_t sib = chal[0] ^ 1; /* level 0: the leaves, first in the file */
        tdb[sib * 32] ^= 1;
        CHECK(cuzk_atomic_write_file(td, tdb, tdl, &err) == CUZK_OK);
        refused(up, NULL, 0, CUZK_ERR_MISMATCH, "does not verify", "a changed tree D node");
        tdb[sib * 32] ^= 1;
        CHECK(cuzk_atomic_write_file(td, tdb, tdl, &err) == CUZK_OK);
        unlink(moved);
        free(tdb);
        /* a node of the new replica under challenge 0 changed: the tree R files disagree with it */
        nw[chal[0] * 32] ^= 1;
        CHECK(cuzk_atomic_write_file(path_of(up, "update"), nw, size, &err) == CUZK_OK);
        refused(up, NULL, 0, CUZK_ERR_MISMATCH, "update", "a changed node of the new replica");
        nw[chal[0] * 32] ^= 1;
        CHECK(cuzk_atomic_write_file(path_of(up, "update"), nw, size, &err) == CUZK_OK);
        /* no update.json */
        CHECK(rename(path_of(up, "update.json"), path_of(up, "u.saved")) == 0);
        refused(up, NULL, 0, CUZK_ERR_IO, "update.json", "no update.json");
        CHECK(rename(path_of(up, "u.saved"), path_of(up, "update.json")) == 0);
        /* all restored: the same bytes again */
        again = NULL;
        CHECK(cuzk_seal_snap_vanilla(&again, &alen, up, NULL, 0, &err) == CUZK_OK && alen == len &&
              memcmp(again, out, len) == 0);
        free(again);
    }
    snap_fx_free(&f);
    free(padded);
    free(old);
    free(nw);
    free(out);
    free(raw);
}

int main(int argc, char **argv)
{
    test_init("test_snap_vanilla");
    snprintf(base, sizeof base, "/tmp/cuzk-snap-vanilla-XXXXXX");
    CHECK(mkdtemp(base) != NULL);
    if (argc > 1 && strcmp(argv[1], "--8mib") == 0) {
        cuzk_porep_registered_proof_t p;
        CHECK(cuzk_porep_registered_proof_parse(&p, "StackedDrg8MiBV1_1", NULL) == CUZK_OK);
        one_sector(p.id, 8u << 20, 0);
    } else {
        cuzk_porep_registered_proof_t p;
        CHECK(cuzk_porep_registered_proof_parse(&p, "StackedDrg2KiBV1_1", NULL) == CUZK_OK);
        one_sector(p.id, 2048, 1);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    CHECK(system(cmd) == 0);
    return test_finish();
}
