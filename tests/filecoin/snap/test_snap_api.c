/* The SnapDeals product path (cuzk/snap.h) on a real 2KiB update: a committed-capacity sector sealed and
 * kept by the library, random data encoded into it and its vanilla partition proof made from the files
 * (cuzk/seal.h); and on synthetic 8MiB sectors (4 partitions, testkit/snap_synthetic.h). Checked against
 * values written out from storage-proofs-update (circuit.rs PublicInputs::new and constants.rs: k_and_h_select
 * = k | h_select << log2(partitions), h_select = 1 << the index of h_default = hs[3] in hs), rust-fil-proofs'
 * parameters.json (every update proof's v28 file names and sector sizes), tests/circuit.rs' 2KiB constraint
 * count (1,705,039) and the check backend (the request's witness satisfies every constraint of the circuit
 * with the request's public inputs; with another comm_r_new it does not). Every refusal of cuzk_snap_check
 * names what is wrong: proof id, partition count, each commitment, a damaged partition among four, two
 * partitions swapped, a truncated file.
 * With --prove DIR (the slow suite, on the development parameters `cuzk params generate --kind snap` left in
 * DIR): synthetic 8MiB partitions 1 and 3 satisfy the circuit (10,007,503 constraints: the count derived in
 * docs/REFERENCE.md) with their public inputs; prove → verify true; against another comm_r_old, comm_d_new or comm_r_new, or with a tampered proof
 * → false; keys and key checks, the partition calls, cancellation, a request proved unchecked (opts.checked)
 * with a commitment it does not hold gives a proof that does not verify. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/cs.h"
#include "cuzk/file.h"
#include "cuzk/params.h"
#include "cuzk/seal.h"
#include "cuzk/snap.h"
#include "testkit/snap_synthetic.h"
#include "test_util.h"

static char base[64];

/* A real updated 2KiB sector: its directories, commitments and vanilla partition proof. */
typedef struct {
    char cc[128], up[128], vfile[128];
    cuzk_seal_snap_info_t info;
    uint8_t *vbytes; /* the Vec<PartitionProof> file's bytes */
    size_t vlen;
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS];
    size_t n;
} sector_t;

static cuzk_snap_request_t request_of(uint64_t id, const uint8_t r_old[32], const uint8_t d_new[32],
                                      const uint8_t r_new[32], cuzk_snap_vanilla_t *const *v, size_t n)
{
    cuzk_snap_request_t r = {.proof_id = id, .vanilla = (const cuzk_snap_vanilla_t *const *)v, .n_vanilla = n};
    memcpy(r.comm_r_old, r_old, 32);
    memcpy(r.comm_d_new, d_new, 32);
    memcpy(r.comm_r_new, r_new, 32);
    return r;
}

static cuzk_snap_request_t sector_request(const sector_t *s)
{
    return request_of(0, s->info.comm_r_old, s->info.comm_d_new, s->info.comm_r_new, s->v, s->n);
}

static int make_sector(sector_t *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->cc, sizeof s->cc, "%s/cc", base);
    snprintf(s->up, sizeof s->up, "%s/up", base);
    snprintf(s->vfile, sizeof s->vfile, "%s/sector.snap-vproof", base);
    cuzk_err_t err = {{0}};
    cuzk_porep_registered_proof_t sp;
    CHECK(cuzk_porep_registered_proof_parse(&sp, "StackedDrg2KiBV1_1", &err) == CUZK_OK);
    cuzk_seal_request_t req = {.proof_id = sp.id, .miner_id = 1000, .sector_num = 1 + test_rand_below(1000)};
    test_rand_bytes(req.ticket, 32);
    cuzk_sealed_sector_t *sealed = NULL;
    cuzk_status st = cuzk_seal_precommit(&sealed, &req, &err); /* no data: a CC sector */
    if (st == CUZK_OK)
        st = cuzk_seal_write_sector(sealed, s->cc, &err);
    cuzk_seal_free(sealed);
    static uint8_t data[2032];
    test_rand_bytes(data, sizeof data);
    if (st == CUZK_OK)
        st = cuzk_seal_snap_encode(s->cc, data, sizeof data, s->up, 1, &s->info, &err);
    if (st == CUZK_OK)
        st = cuzk_seal_snap_vanilla(&s->vbytes, &s->vlen, s->up, NULL, 1, &err);
    if (st == CUZK_OK)
        st = cuzk_atomic_write_file(s->vfile, s->vbytes, s->vlen, &err);
    if (st == CUZK_OK)
        st = cuzk_snap_vanilla_load_all(s->v, CUZK_SNAP_MAX_PARTITIONS, &s->n, s->vfile, &err);
    CHECK_MSG(st == CUZK_OK && s->n == 1, "the 2KiB update: %s", err.msg);
    return st == CUZK_OK && s->n == 1;
}

static uint64_t u64_at(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* The sector's partition proof with a sibling of challenge 0's tree-R-old path changed (a canonical value
 * still). The bincode layout (vanilla.rs PartitionProof under serde, merkle/proof.rs MerkleProof): the Vec's
 * u64 count, comm_c, u64 8 and 8 apex leaves, u64 10 challenges, then challenge 0's MerkleProof of tree R
 * old (8-0-0: Single): u32 0, root, leaf, u64 2 levels, level 0's u64 7 siblings, the siblings. */
static cuzk_snap_vanilla_t *damaged_sibling(const sector_t *s)
{
    const size_t chal = 8 + 32 + 8 + 8 * 32 + 8, sib = chal + 4 + 32 + 32 + 8 + 8;
    if (s->vlen < sib + 32 || u64_at(s->vbytes) != 1 || u64_at(s->vbytes + 40) != 8 ||
        u64_at(s->vbytes + chal - 8) != 10 || s->vbytes[chal] != 0 || u64_at(s->vbytes + chal + 68) != 2 ||
        u64_at(s->vbytes + sib - 8) != 7) {
        CHECK_MSG(0, "the partition proof's layout is not vanilla.rs'");
        return NULL;
    }
    uint8_t *b = malloc(s->vlen);
    memcpy(b, s->vbytes, s->vlen);
    b[sib + 1] ^= 0x20;
    cuzk_snap_vanilla_t *v = NULL;
    cuzk_err_t err = {{0}};
    CHECK_MSG(cuzk_snap_vanilla_parse(&v, b + 8, s->vlen - 8, &err) == CUZK_OK, "%s", err.msg);
    free(b);
    return v;
}

static void free_sector(sector_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        cuzk_snap_vanilla_free(s->v[i]);
    free(s->vbytes);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/cc' '%s/up' '%s'", base, base, s->vfile);
    CHECK(system(cmd) == 0);
}

/* ---- parameter file names ------------------------------------------------------------------------------ */

/* The "sector_size" of a parameters.json entry named key. */
static unsigned long long manifest_size(const char *manifest, const char *key)
{
    const char *at = strstr(manifest, key);
    const char *sz = at ? strstr(at, "\"sector_size\"") : NULL;
    const char *colon = sz ? strchr(sz, ':') : NULL;
    return colon ? strtoull(colon + 1, NULL, 10) : 0;
}

static void test_names(void)
{
    cuzk_err_t err = {{0}};
    char *manifest = test_read_file("tests/vectors/filecoin/parameters.json", NULL);
    CHECK(manifest != NULL);
    /* RegisteredUpdateProof 0..4 (rust-filecoin-proofs-api registry.rs) and their sector sizes */
    static const unsigned long long sizes[5] = {2048, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    for (uint64_t id = 0; id < 5 && manifest; id++) {
        cuzk_snap_params_paths_t p;
        CHECK_MSG(cuzk_snap_params_paths(&p, "/params", id, &err) == CUZK_OK, "%s", err.msg);
        char key[320];
        snprintf(key, sizeof key, "\"%.255s.params\"", p.stem);
        CHECK_MSG(manifest_size(manifest, key) == sizes[id], "update proof %llu: %s (sector size %llu) not in "
                  "parameters.json", (unsigned long long)id, key, sizes[id]);
        snprintf(key, sizeof key, "\"%.255s.vk\"", p.stem);
        CHECK(manifest_size(manifest, key) == sizes[id]);
        CHECK(strncmp(p.stem, "v28-empty-sector-update-merkletree-poseidon_hasher-", 51) == 0);
        char want[512];
        snprintf(want, sizeof want, "/params/%s.params", p.stem);
        CHECK(strcmp(p.params, want) == 0 && strstr(p.dev, ".cuzk-dev"));
    }
    free(manifest);
    cuzk_snap_params_paths_t p;
    CHECK(cuzk_snap_params_paths(&p, "/p", 5, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "5"));
    /* keys: an unknown proof, a directory without the files (the message says how to make them) */
    cuzk_snap_keys_t *keys = (cuzk_snap_keys_t *)1;
    CHECK(cuzk_snap_keys_load(&keys, base, 9, false, 1, &err) == CUZK_ERR_INVALID_ARG && keys == NULL);
    keys = (cuzk_snap_keys_t *)1;
    CHECK(cuzk_snap_keys_load(&keys, base, 0, false, 1, &err) == CUZK_ERR_IO && keys == NULL &&
          strstr(err.msg, "missing parameters") && strstr(err.msg, ".vk"));
    cuzk_snap_keys_free(NULL);
}

/* ---- public inputs --------------------------------------------------------------------------------------- */

static void scalar_bytes(cuzk_scalar_t *s, const uint8_t b[32])
{
    for (int i = 0; i < 4; i++) {
        s->l[i] = 0;
        for (int j = 7; j >= 0; j--)
            s->l[i] = s->l[i] << 8 | b[8 * i + j];
    }
}

static void test_public_inputs(const sector_t *s)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_request_t r = sector_request(s);
    cuzk_scalar_t in[4], want;
    CHECK_MSG(cuzk_snap_public_inputs(in, &r, 0, &err) == CUZK_OK, "%s", err.msg);
    /* 2KiB: 1 partition, hs = [1;6], h = 1 at index 0: k_and_h_select = 0 | 1 << 0 */
    CHECK(in[0].l[0] == 1 && in[0].l[1] == 0 && in[0].l[2] == 0 && in[0].l[3] == 0);
    const uint8_t *comms[3] = {s->info.comm_r_old, s->info.comm_d_new, s->info.comm_r_new};
    for (int i = 0; i < 3; i++) {
        scalar_bytes(&want, comms[i]);
        CHECK(memcmp(&in[1 + i], &want, sizeof want) == 0);
    }
    CHECK(cuzk_snap_public_inputs(in, &r, 1, &err) == CUZK_ERR_INVALID_ARG && strstr(err.msg, "partition 1"));
    /* production sizes: hs = [7..12], h = 10 at index 3, h_select = 8 above log2(partitions) bits; the
     * vanilla proofs are not read */
    static const struct {
        uint64_t id;
        uint32_t parts;
        uint64_t high;
    } prod[4] = {{1, 4, 8 << 2}, {2, 16, 8 << 4}, {3, 16, 8 << 4}, {4, 16, 8 << 4}};
    for (int i = 0; i < 4; i++) {
        cuzk_snap_request_t q = r;
        q.proof_id = prod[i].id;
        q.vanilla = NULL;
        q.n_vanilla = 0;
        for (uint32_t k = 0; k < prod[i].parts; k++) {
            CHECK_MSG(cuzk_snap_public_inputs(in, &q, k, &err) == CUZK_OK, "%s", err.msg);
            CHECK_MSG(in[0].l[0] == (prod[i].high | k) && in[0].l[1] == 0, "proof %llu partition %u: %llu",
                      (unsigned long long)prod[i].id, k, (unsigned long long)in[0].l[0]);
        }
        CHECK(cuzk_snap_public_inputs(in, &q, prod[i].parts, &err) == CUZK_ERR_INVALID_ARG);
    }
    cuzk_snap_request_t q = r;
    q.proof_id = 5;
    CHECK(cuzk_snap_public_inputs(in, &q, 0, &err) == CUZK_ERR_INVALID_ARG);
    q = r;
    memset(q.comm_d_new, 0xff, 32);
    CHECK(cuzk_snap_public_inputs(in, &q, 0, &err) == CUZK_ERR_NOT_CANONICAL && strstr(err.msg, "comm_d_new"));
}

/* ---- checks ------------------------------------------------------------------------------------------------ */

static void refused(const cuzk_snap_request_t *r, cuzk_status want, const char *has, const char *what)
{
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_snap_check(r, &err);
    CHECK_MSG(st == want && (!has || strstr(err.msg, has)), "%s: status %d (%d expected): %s", what, (int)st,
              (int)want, err.msg);
}

static void test_check(const sector_t *s)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_request_t r = sector_request(s);
    CHECK_MSG(cuzk_snap_check(&r, &err) == CUZK_OK, "%s", err.msg);
    cuzk_snap_request_t q = r;
    q.proof_id = 5;
    refused(&q, CUZK_ERR_INVALID_ARG, "5", "an unknown update proof");
    q.proof_id = 1; /* the 8MiB proof: 4 partitions */
    refused(&q, CUZK_ERR_INVALID_ARG, "4 partitions", "a proof id of another size");
    q = r;
    q.n_vanilla = 0;
    refused(&q, CUZK_ERR_INVALID_ARG, "0 vanilla", "no partition");
    const cuzk_snap_vanilla_t *two[2] = {s->v[0], s->v[0]};
    q.vanilla = two;
    q.n_vanilla = 2;
    refused(&q, CUZK_ERR_INVALID_ARG, "2 vanilla", "two partitions");
    const cuzk_snap_vanilla_t *none[1] = {NULL};
    q.vanilla = none;
    q.n_vanilla = 1;
    refused(&q, CUZK_ERR_INVALID_ARG, "NULL", "a NULL partition proof");
    /* other commitments, each */
    static const char *names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    for (int i = 0; i < 3; i++) {
        q = r;
        uint8_t *c = i == 0 ? q.comm_r_old : i == 1 ? q.comm_d_new : q.comm_r_new;
        c[0] ^= 1;
        refused(&q, CUZK_ERR_MISMATCH, "partition 0", names[i]);
        memset(c, 0xff, 32);
        refused(&q, CUZK_ERR_NOT_CANONICAL, names[i], names[i]);
    }
    /* a truncated file, a file with a byte more: refused by the loader naming the file */
    char path[160];
    snprintf(path, sizeof path, "%s/cut.vproof", base);
    CHECK(cuzk_atomic_write_file(path, s->vbytes, s->vlen - 7, &err) == CUZK_OK);
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS];
    size_t n = 99;
    CHECK(cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, &n, path, &err) == CUZK_ERR_FORMAT &&
          strstr(err.msg, path) && v[0] == NULL);
    unlink(path);
}

/* Synthetic 8MiB sectors: four partitions checked side by side; a damaged one is named whatever the thread
 * count; partitions in the wrong order are refused. */
static void test_check_partitions(void)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_proof(&cfg, 1, &err) == CUZK_OK && cfg.partition_count == 4);
    uint8_t comm_c[32], seed[32];
    test_rand_fr_bytes(comm_c);
    test_rand_bytes(seed, 32);
    cuzk_fc_snap_synthetic_t syn;
    if (cuzk_fc_snap_synthetic(&syn, &cfg, comm_c, seed, 0, &err) != CUZK_OK) {
        CHECK_MSG(0, "synthetic 8MiB: %s", err.msg);
        return;
    }
    cuzk_snap_vanilla_t *v[4] = {0};
    for (size_t k = 0; k < 4; k++)
        CHECK_MSG(cuzk_snap_vanilla_parse(&v[k], syn.data[k], syn.len[k], &err) == CUZK_OK, "%s", err.msg);
    cuzk_snap_request_t r = request_of(1, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, v, 4);
    CHECK_MSG(cuzk_snap_check(&r, &err) == CUZK_OK, "%s", err.msg);
    /* partition 2's comm_c damaged: its comm_r_old no longer follows */
    syn.data[2][5] ^= 0x10;
    cuzk_snap_vanilla_t *bad = NULL;
    CHECK(cuzk_snap_vanilla_parse(&bad, syn.data[2], syn.len[2], &err) == CUZK_OK);
    cuzk_snap_vanilla_t *w[4] = {v[0], v[1], bad, v[3]};
    cuzk_snap_request_t q = request_of(1, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, w, 4);
    refused(&q, CUZK_ERR_MISMATCH, "partition 2", "a damaged partition");
    /* the same with a second damaged partition after it: the first is named */
    w[3] = bad;
    refused(&q, CUZK_ERR_MISMATCH, "partition 2", "two damaged partitions");
    /* partitions 1 and 3 swapped: partition 1 answers another partition's challenges */
    cuzk_snap_vanilla_t *sw[4] = {v[0], v[3], v[2], v[1]};
    q = request_of(1, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, sw, 4);
    refused(&q, CUZK_ERR_MISMATCH, "partition 1", "partitions swapped");
    /* three of four; the 2KiB proof id for four */
    q = request_of(1, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, v, 3);
    refused(&q, CUZK_ERR_INVALID_ARG, "3 vanilla", "three partitions of four");
    q = request_of(0, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, v, 4);
    refused(&q, CUZK_ERR_INVALID_ARG, "1 partitions", "the 2KiB proof id");
    cuzk_snap_vanilla_free(bad);
    for (size_t k = 0; k < 4; k++)
        cuzk_snap_vanilla_free(v[k]);
    cuzk_fc_snap_synthetic_free(&syn);
}

/* ---- the witness ------------------------------------------------------------------------------------------ */

/* The request's partition k synthesized by the check backend: 1 when every constraint holds and the
 * system's public inputs are cuzk_snap_public_inputs', 0 when a constraint does not hold, -1 when the
 * synthesis fails (its status in *st and message in *err). */
static int satisfied(const cuzk_snap_request_t *r, uint32_t k, uint64_t *constraints, cuzk_status *st_out,
                     cuzk_err_t *err_out)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_witness_t w;
    cuzk_cs_t *cs = NULL;
    if (cuzk_snap_request_witness(&w, r, k, &err) != CUZK_OK) {
        fprintf(stderr, "witness: %s\n", err.msg);
        return -1;
    }
    int res = -1;
    int64_t first = -2;
    cuzk_status st = cuzk_cs_new(&cs, CUZK_CS_CHECK, CUZK_LC_DEFAULT, &err);
    if (st == CUZK_OK)
        st = cuzk_snap_synthesize(cs, &w.cfg, &w, 1, &err);
    if (st == CUZK_OK)
        st = cuzk_cs_test_unsatisfied(cs, &first, &err);
    if (st == CUZK_OK) {
        cuzk_cs_counts_t c;
        cuzk_cs_counts(cs, &c);
        *constraints = c.num_constraints;
        cuzk_scalar_t want[4], got;
        const cuzk_fr_t *in = cuzk_cs_inputs(cs);
        bool same = c.num_inputs == CUZK_SNAP_NUM_INPUTS && cuzk_snap_public_inputs(want, r, k, &err) == CUZK_OK;
        for (int i = 0; same && i < 4; i++) {
            cuzk_fr_to_scalar(&got, &in[1 + i]);
            same = memcmp(&got, &want[i], sizeof got) == 0;
        }
        res = first >= 0 ? 0 : same ? 1 : -1;
    }
    if (st_out)
        *st_out = st;
    if (err_out)
        *err_out = err;
    cuzk_cs_free(cs);
    cuzk_snap_witness_free(&w);
    return res;
}

static void test_witness(const sector_t *s)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_request_t r = sector_request(s);
    uint64_t n = 0;
    cuzk_status st;
    CHECK_MSG(satisfied(&r, 0, &n, &st, &err) == 1, "%s", err.msg);
    CHECK_MSG(n == 1705039, "%llu constraints", (unsigned long long)n); /* tests/circuit.rs, 2KiB */
    /* the circuit binds comm_r_new (the challenges drawn from it): the witness of a request naming another
     * is not satisfied; another comm_d_new or comm_r_old changes phi, so rho: the encoded leaves no longer
     * follow and the synthesis refuses them, as the reference asserts */
    cuzk_snap_request_t q = r;
    q.comm_r_new[0] ^= 1;
    int res = satisfied(&q, 0, &n, &st, &err);
    CHECK_MSG(res == 0 || (res == -1 && st == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf_r_new")), "%d %s", res,
              err.msg);
    for (int i = 0; i < 2; i++) {
        q = r;
        (i ? q.comm_r_old : q.comm_d_new)[0] ^= 1;
        CHECK_MSG(satisfied(&q, 0, &n, &st, &err) == -1 && st == CUZK_ERR_MISMATCH && strstr(err.msg, "leaf_r_new"),
                  "%d: %s", i, err.msg);
    }
    /* a sibling of a tree-R-old path changed: the check refuses it; the synthesis takes it (a sibling is
     * only a witness value) and the constraints do not hold */
    cuzk_snap_vanilla_t *d = damaged_sibling(s);
    if (d) {
        q = r;
        q.vanilla = (const cuzk_snap_vanilla_t *const *)&d;
        refused(&q, CUZK_ERR_MISMATCH, "tree R old", "a damaged sibling");
        CHECK_MSG(satisfied(&q, 0, &n, &st, &err) == 0, "%s", err.msg);
        cuzk_snap_vanilla_free(d);
    }
    cuzk_snap_witness_t w;
    CHECK(cuzk_snap_request_witness(&w, &r, 1, &err) == CUZK_ERR_INVALID_ARG && w.storage_ == NULL);
    q = r;
    q.n_vanilla = 2;
    CHECK(cuzk_snap_request_witness(&w, &q, 0, &err) == CUZK_ERR_INVALID_ARG);
    cuzk_snap_witness_free(&w);
    /* the partition call: cancelled at its first poll and at a later one inside the synthesis */
    for (int at = 1; at <= 3; at += 2) {
        test_stop_counter c = {0, at};
        cuzk_snap_prove_opts_t o = {.threads = 1, .should_stop = test_stop_after, .stop_arg = &c};
        cuzk_snap_partition_t *p = (cuzk_snap_partition_t *)1;
        CHECK_MSG(cuzk_snap_partition_synthesize(&p, &r, 0, &o, &err) == CUZK_ERR_CANCELLED && p == NULL,
                  "stop at poll %d: %s", at, err.msg);
    }
    cuzk_snap_partition_free(NULL);
}

/* Synthetic 8MiB sectors' partitions 1 and 3 (10,007,503 constraints each): the witness the request gives
 * satisfies the circuit with k_and_h_select = k | 8 << 2 as cuzk_snap_public_inputs says (slow suite). */
static void test_partitions_8mib(void)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_config_t cfg;
    CHECK(cuzk_snap_config_for_proof(&cfg, 1, &err) == CUZK_OK);
    uint8_t comm_c[32], seed[32];
    test_rand_fr_bytes(comm_c);
    test_rand_bytes(seed, 32);
    cuzk_fc_snap_synthetic_t syn;
    if (cuzk_fc_snap_synthetic(&syn, &cfg, comm_c, seed, 0, &err) != CUZK_OK) {
        CHECK_MSG(0, "synthetic 8MiB: %s", err.msg);
        return;
    }
    cuzk_snap_vanilla_t *v[4] = {0};
    for (size_t k = 0; k < 4; k++)
        CHECK_MSG(cuzk_snap_vanilla_parse(&v[k], syn.data[k], syn.len[k], &err) == CUZK_OK, "%s", err.msg);
    cuzk_snap_request_t r = request_of(1, syn.comm_r_old, syn.comm_d_new, syn.comm_r_new, v, 4);
    for (uint32_t k = 1; k < 4; k += 2) {
        uint64_t n = 0;
        cuzk_status st;
        CHECK_MSG(satisfied(&r, k, &n, &st, &err) == 1 && n == 10007503, "8MiB partition %u: %llu constraints, %s", k,
                  (unsigned long long)n, err.msg);
        cuzk_scalar_t in[4];
        CHECK(cuzk_snap_public_inputs(in, &r, k, &err) == CUZK_OK && in[0].l[0] == (32 | k));
    }
    for (size_t k = 0; k < 4; k++)
        cuzk_snap_vanilla_free(v[k]);
    cuzk_fc_snap_synthetic_free(&syn);
}

/* ---- proving (--prove DIR) ------------------------------------------------------------------------------- */

static int verifies(const cuzk_snap_request_t *r, const cuzk_groth16_vk_t *vk, const cuzk_groth16_proof_t *proofs,
                    size_t n)
{
    bool valid = true;
    cuzk_err_t err = {{0}};
    cuzk_status st = cuzk_snap_verify(&valid, r, vk, proofs, n, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "verify: %s\n", err.msg);
        return -1;
    }
    return valid;
}

static void test_prove(const sector_t *s, const char *dir)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_keys_t *keys = NULL;
    CHECK_MSG(cuzk_snap_keys_load(&keys, dir, 0, true, 0, &err) == CUZK_OK, "%s", err.msg);
    if (!keys)
        return;
    const cuzk_groth16_pk_t *pk = cuzk_snap_keys_pk(keys);
    const cuzk_groth16_vk_t *vk = cuzk_snap_keys_vk(keys);
    CHECK(cuzk_snap_keys_dev(keys) && vk->ic_len == CUZK_SNAP_NUM_INPUTS &&
          strstr(cuzk_snap_keys_paths(keys)->stem, "fb9e095bebdd7751"));
    cuzk_snap_config_t cfg, other;
    CHECK(cuzk_snap_config_for_proof(&cfg, 0, &err) == CUZK_OK);
    CHECK_MSG(cuzk_snap_check_key(pk, &cfg, &err) == CUZK_OK, "%s", err.msg);
    CHECK(cuzk_snap_config_for_size(&other, 1024, &err) == CUZK_OK); /* tests/circuit.rs' 1KiB shape */
    CHECK(cuzk_snap_check_key(pk, &other, &err) == CUZK_ERR_MISMATCH);

    cuzk_snap_request_t r = sector_request(s);
    cuzk_groth16_proof_t proofs[2], p1;
    cuzk_snap_timings_t tm = {0};
    cuzk_snap_prove_opts_t o = {.threads = 2};
    CHECK_MSG(cuzk_snap_prove(proofs, 1, &r, pk, &o, &tm, &err) == CUZK_OK, "%s", err.msg);
    printf("SnapDeals 2KiB: %llu constraints, check %.1f ms, synth %.1f ms, prove %.1f ms\n",
           (unsigned long long)tm.constraints, tm.check_ms, tm.synth_ms, tm.prove_ms);
    CHECK(tm.constraints == 1705039);
    CHECK(verifies(&r, vk, proofs, 1) == 1);
    /* the statement is the three commitments: another of any one is not proved */
    for (int i = 0; i < 3; i++) {
        cuzk_snap_request_t q = r;
        (i == 0 ? q.comm_r_old : i == 1 ? q.comm_d_new : q.comm_r_new)[1] ^= 4;
        CHECK_MSG(verifies(&q, vk, proofs, 1) == 0, "commitment %d", i);
    }
    /* verification reads no vanilla proof */
    cuzk_snap_request_t q = r;
    q.vanilla = NULL;
    q.n_vanilla = 0;
    CHECK(verifies(&q, vk, proofs, 1) == 1);
    /* a tampered proof; a proof count other than the partition count, a vk of other inputs: errors */
    cuzk_groth16_proof_t bad = proofs[0];
    bad.c = proofs[0].a;
    CHECK(verifies(&r, vk, &bad, 1) == 0);
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_write(bytes, &proofs[0]);
    bytes[100] ^= 1;
    if (cuzk_groth16_proof_read(&bad, bytes, &err) == CUZK_OK)
        CHECK(verifies(&r, vk, &bad, 1) == 0);
    bool valid = true;
    proofs[1] = proofs[0];
    CHECK(cuzk_snap_verify(&valid, &r, vk, proofs, 2, &err) == CUZK_ERR_MISMATCH && !valid &&
          strstr(err.msg, "2 proofs"));
    cuzk_groth16_vk_t vk3 = *vk;
    vk3.ic_len = 3;
    CHECK(cuzk_snap_verify(&valid, &r, &vk3, proofs, 1, &err) == CUZK_ERR_MISMATCH && !valid);
    q = r;
    q.proof_id = 1;
    CHECK(cuzk_snap_verify(&valid, &q, vk, proofs, 1, &err) == CUZK_ERR_MISMATCH && !valid &&
          strstr(err.msg, "4 partitions"));
    CHECK(cuzk_snap_prove(proofs, 0, &r, pk, NULL, NULL, &err) == CUZK_ERR_BAD_LENGTH);
    /* a bad request is refused before synthesis */
    q = r;
    q.comm_r_new[0] ^= 1;
    CHECK(cuzk_snap_prove(&p1, 1, &q, pk, NULL, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "partition 0"));

    /* the partition calls */
    cuzk_snap_partition_t *part = NULL;
    CHECK_MSG(cuzk_snap_partition_synthesize(&part, &r, 0, &o, &err) == CUZK_OK, "%s", err.msg);
    if (part) {
        CHECK_MSG(cuzk_snap_partition_prove(&p1, part, pk, &o, &err) == CUZK_OK, "%s", err.msg);
        CHECK(verifies(&r, vk, &p1, 1) == 1);
    }
    cuzk_snap_partition_free(part);
    /* opts.checked: the caller's check is not repeated; a partition proof with a damaged sibling, refused
     * by the check, is proved unchecked and its proof does not verify (the constraints do not hold) */
    cuzk_snap_vanilla_t *d = damaged_sibling(s);
    q = r;
    q.vanilla = (const cuzk_snap_vanilla_t *const *)&d;
    CHECK(cuzk_snap_prove(&p1, 1, &q, pk, NULL, NULL, &err) == CUZK_ERR_MISMATCH && strstr(err.msg, "tree R old"));
    cuzk_snap_prove_opts_t oc = {.threads = 2, .checked = true};
    CHECK_MSG(d && cuzk_snap_prove(&p1, 1, &q, pk, &oc, NULL, &err) == CUZK_OK, "%s", err.msg);
    CHECK(verifies(&q, vk, &p1, 1) == 0);
    cuzk_snap_vanilla_free(d);
    /* cancellation: before the checks, and at the prover's last poll */
    test_stop_counter count = {0, 0};
    cuzk_snap_prove_opts_t ocount = {.threads = 2, .should_stop = test_stop_after, .stop_arg = &count};
    CHECK(cuzk_snap_prove(&p1, 1, &r, pk, &ocount, NULL, &err) == CUZK_OK);
    CHECK(count.polls > 10); /* the challenges' and the prover's phases */
    const int at[2] = {1, count.polls};
    for (int i = 0; i < 2; i++) {
        test_stop_counter c = {0, at[i]};
        cuzk_snap_prove_opts_t os = {.threads = 2, .should_stop = test_stop_after, .stop_arg = &c};
        CHECK_MSG(cuzk_snap_prove(&p1, 1, &r, pk, &os, NULL, &err) == CUZK_ERR_CANCELLED, "stop at poll %d of %d: %s",
                  at[i], count.polls, err.msg);
    }
    cuzk_snap_keys_free(keys);
}

int main(int argc, char **argv)
{
    test_init("test_snap_api");
    const char *params = argc == 3 && strcmp(argv[1], "--prove") == 0 ? argv[2] : NULL;
    snprintf(base, sizeof base, "/tmp/cuzk-snap-api-XXXXXX");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    sector_t s;
    bool have = make_sector(&s);
    if (params) {
        if (have)
            test_prove(&s, params);
        test_partitions_8mib();
    } else {
        test_names();
        test_check_partitions();
        if (have) {
            test_public_inputs(&s);
            test_check(&s);
            test_witness(&s);
        }
    }
    free_sector(&s);
    CHECK(rmdir(base) == 0);
    return test_finish();
}
