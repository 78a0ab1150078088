/* cuzk-bench gen-vanilla: vanilla proofs to send to the daemon.
 *   porep           a real PoRep C1 output made by `cuzk seal` (random data, ticket and seed) in a temporary
 *                   directory beside the output; its Curio wrapper is written to the output file.
 *   winning|window  Fallback PoSt vanilla proofs, one bincode file per sector: of sectors sealed here
 *                   (random data and ticket; 2KiB, 8MiB, 512MiB) and kept in a temporary directory, or with
 *                   --synthetic of any size (testkit/post_synthetic.h: they pass every check, describe no
 *                   real sector; a 32GiB Window partition of 2349 sectors in seconds).
 *   snap            a sector's SnapDeals vanilla partition proofs in one file (gen_vanilla_snap.h).
 * Outputs appear whole or not at all (the atomic writer). Part of the benchkit: the synthetic proofs come
 * from the testkit. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/client.h"
#include "bench/gen_vanilla_snap.h"
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk/file.h"
#include "cuzk/seal.h"
#include "cuzk_seal_cmd.h"
#include "filecoin/hash/fr32.h"
#include "filecoin/registry/post_proof.h"
#include "filecoin/vanilla/post_vproof.h"
#include "testkit/post_synthetic.h"

static const char *prog = "cuzk-bench gen-vanilla";

/* ---- porep ---- */

/* The wrapper made in the temporary directory, written to out by the atomic writer; 0, or -1 after a
 * message. */
static int copy_out(const char *from, const char *out)
{
    FILE *f = fopen(from, "rb");
    char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        fclose(f);
        cuzk_err_t err = {{0}};
        int rc = cuzk_atomic_write_file(out, buf, (size_t)n, &err) == CUZK_OK ? 0 : -1;
        if (rc)
            fprintf(stderr, "%s: %s\n", prog, err.msg);
        free(buf);
        return rc;
    }
    fprintf(stderr, "%s: %s: %s\n", prog, from, strerror(errno));
    if (f)
        fclose(f);
    free(buf);
    return -1;
}

static int gen_porep(const char *out, const char *size, uint64_t miner, uint64_t sector, uint64_t threads)
{
    char *dir = cli_temp_dir_beside(prog, out, "gen-vanilla");
    if (!dir)
        return 1;
    size_t n = strlen(dir) + 32;
    char *c1 = malloc(n), *wrapper = malloc(n), sminer[24], ssector[24], sthreads[24];
    if (!c1 || !wrapper) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rmdir(dir);
        free(dir), free(c1), free(wrapper);
        return 1;
    }
    snprintf(sminer, sizeof sminer, "%" PRIu64, miner);
    snprintf(ssector, sizeof ssector, "%" PRIu64, sector);
    snprintf(sthreads, sizeof sthreads, "%" PRIu64, threads);
    char *args[] = {"seal", "--sector-size", (char *)size, "--out", dir, "--miner-id", sminer, "--sector-num",
                    ssector, "--threads", sthreads, "--c1-only", NULL};
    int rc = cuzk_seal_cmd(12, args);
    snprintf(c1, n, "%s/c1.json", dir);
    snprintf(wrapper, n, "%s/c1-wrapper.json", dir);
    if (rc == 0 && copy_out(wrapper, out) != 0)
        rc = 1;
    unlink(wrapper);
    unlink(c1);
    rmdir(dir);
    free(dir);
    free(c1);
    free(wrapper);
    if (rc == 0)
        printf("wrote %s (sector %" PRIu64 ", miner %" PRIu64 ")\n", out, sector, miner);
    return rc;
}

/* "2KiB" .. "64GiB" for a sector size of the seal proofs' table ("?" for another: cuzk seal refuses it). */
static const char *size_name(uint64_t bytes)
{
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT; i++)
        if (cuzk_fc_seal_proofs()[i].sector_size == bytes)
            return cuzk_fc_seal_proofs()[i].size_name;
    return "?";
}

/* ---- winning / window ---- */

#define MAX_SECTORS 65536

/* winning / window (and the original tool's winning-post / window-post); -1 for another. */
static int post_kind_of(const char *kind)
{
    if (!strcmp(kind, "winning") || !strcmp(kind, "winning-post"))
        return CUZK_FC_POST_WINNING;
    if (!strcmp(kind, "window") || !strcmp(kind, "window-post"))
        return CUZK_FC_POST_WINDOW;
    return -1;
}

typedef struct {
    const cuzk_fc_post_proof_t *proof;
    uint64_t sectors, miner, first_sector, first_index, threads;
    uint8_t randomness[32], seed[32];
    bool synthetic;
} post_args;

/* Removes a sealed sector's directory made here (its known files, then the directory). */
static void remove_sector_dir(const char *dir)
{
    static const char *const names[] = {"sealed", "sc-02-data-tree-r-last.dat", "p_aux", "t_aux", "sector.json"};
    size_t n = strlen(dir) + 64;
    char *p = malloc(n);
    for (size_t i = 0; p && i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, n, "%s/%s", dir, names[i]);
        unlink(p);
    }
    free(p);
    rmdir(dir);
}

/* Seals each sector (random data and ticket) into tmp/<i>, makes its vanilla proof, removes the sector. */
static int sealed_proofs(uint8_t **bufs, size_t *lens, const post_args *a, const char *tmp)
{
    cuzk_err_t err = {{0}};
    size_t dl = strlen(tmp) + 32;
    char *dir = malloc(dl);
    size_t raw_len = (size_t)(a->proof->sector_size / 128 * 127);
    uint8_t *raw = malloc(raw_len);
    const cuzk_fc_seal_proof_t *seal = NULL;
    /* the V1_1 seal proof of the size: what Curio seals with */
    for (int i = 0; i < CUZK_FC_SEAL_PROOF_COUNT && !seal; i++) {
        const cuzk_fc_seal_proof_t *t = &cuzk_fc_seal_proofs()[i];
        if (t->sector_size == a->proof->sector_size && t->api == CUZK_FC_API_V1_1)
            seal = t;
    }
    int rc = 0;
    if (!dir || !raw || !seal) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = 1;
    }
    for (uint64_t i = 0; i < a->sectors && rc == 0; i++) {
        cuzk_seal_request_t req = {.proof_id = seal->id, .miner_id = a->miner, .sector_num = a->first_sector + i,
                                   .data = raw, .data_len = raw_len, .threads = (int)a->threads};
        snprintf(dir, dl, "%s/%" PRIu64, tmp, i);
        cuzk_sealed_sector_t *s = NULL;
        cuzk_status st = cli_os_random(raw, raw_len) || cli_os_random(req.ticket, 32)
                             ? cuzk_err_set(&err, CUZK_ERR_IO, "getrandom: %s", strerror(errno))
                             : cuzk_seal_precommit(&s, &req, &err);
        if (st == CUZK_OK)
            st = cuzk_seal_write_sector(s, dir, &err);
        cuzk_seal_free(s);
        if (st == CUZK_OK)
            st = cuzk_seal_post_vanilla(&bufs[i], &lens[i], dir, a->proof->id, a->randomness, a->first_index + i,
                                        &err);
        remove_sector_dir(dir);
        if (st != CUZK_OK) {
            fprintf(stderr, "%s: sector %" PRIu64 ": %s\n", prog, a->first_sector + i, err.msg);
            rc = 1;
        }
    }
    free(dir);
    free(raw);
    return rc;
}

static int synthetic_proofs(uint8_t **bufs, size_t *lens, const post_args *a)
{
    cuzk_fc_post_params_t pp;
    cuzk_fc_post_params_of_proof(&pp, a->proof, a->first_index, a->randomness);
    uint64_t *ids = malloc(a->sectors * sizeof *ids);
    cuzk_fc_post_synthetic_t *out = malloc(a->sectors * sizeof *out);
    cuzk_err_t err = {{0}};
    int rc = 0;
    if (!ids || !out) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = 1;
    }
    for (uint64_t i = 0; !rc && i < a->sectors; i++)
        ids[i] = a->first_sector + i;
    if (!rc && cuzk_fc_post_synthetic(out, &pp, ids, a->sectors, a->seed, (int)a->threads, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    for (uint64_t i = 0; !rc && i < a->sectors; i++) {
        bufs[i] = out[i].data;
        lens[i] = out[i].len;
    }
    free(ids);
    free(out);
    return rc;
}

static int gen_post(post_args *a, cli_list *outs, const char *out_dir)
{
    if (out_dir && cli_make_dirs(out_dir) != 0) {
        fprintf(stderr, "%s: %s: cannot create the directory: %s\n", prog, out_dir, strerror(errno));
        return 1;
    }
    char **names = calloc(a->sectors, sizeof *names);
    uint8_t **bufs = calloc(a->sectors, sizeof *bufs);
    size_t *lens = calloc(a->sectors, sizeof *lens);
    int rc = names && bufs && lens ? 0 : 1;
    for (uint64_t i = 0; !rc && i < a->sectors; i++) {
        size_t n = (out_dir ? strlen(out_dir) : 0) + 64;
        if (!(names[i] = malloc(out_dir ? n : strlen(outs->items[i]) + 1)))
            rc = 1;
        else if (out_dir)
            snprintf(names[i], n, "%s/sector-%" PRIu64 ".vproof", out_dir, a->first_sector + i);
        else
            strcpy(names[i], outs->items[i]);
    }
    if (rc)
        fprintf(stderr, "%s: out of memory\n", prog);
    char *tmp = NULL;
    double t0 = cli_now();
    if (!rc && !a->synthetic && !(tmp = cli_temp_dir_beside(prog, names[0], "gen-vanilla")))
        rc = 1;
    if (!rc)
        rc = a->synthetic ? synthetic_proofs(bufs, lens, a) : sealed_proofs(bufs, lens, a, tmp);
    if (tmp)
        rmdir(tmp);
    free(tmp);
    double t1 = cli_now();
    cuzk_err_t err = {{0}};
    if (!rc && cuzk_atomic_write_files(a->sectors, (const char *const *)names, (const void *const *)bufs, lens,
                                       &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    if (!rc) {
        char r[65];
        cli_hex32_format(r, a->randomness);
        printf("%s: %" PRIu64 " %s vanilla proof(s) of %zu bytes, sectors %" PRIu64 "..%" PRIu64
               " (miner %" PRIu64 "), sector index from %" PRIu64 "\n",
               a->proof->name, a->sectors, a->synthetic ? "synthetic" : "sealed", lens[0], a->first_sector,
               a->first_sector + a->sectors - 1, a->miner, a->first_index);
        printf("randomness: %s\n", r);
        printf("made in %.3f s (%.3f ms per sector); first file %s\n", t1 - t0, (t1 - t0) * 1e3 / (double)a->sectors,
               names[0]);
    }
    for (uint64_t i = 0; i < a->sectors; i++) {
        if (names)
            free(names[i]);
        if (bufs)
            free(bufs[i]);
    }
    free(names);
    free(bufs);
    free(lens);
    return rc;
}

int bench_gen_vanilla(int argc, char **argv)
{
    const char *kind = NULL, *proof_name = NULL, *out_dir = NULL;
    uint64_t size = 2048, miner = 1000, sector = 1, threads = 0, sectors = 1, first_index = 0;
    cli_list outs = {0};
    post_args a = {0};
    bool have_rand = false, have_seed = false, have_size = false;
    const cli_opt table[] = {
        CLI_LIST_OPT("output", 'o', &outs, "FILE", MAX_SECTORS,
                     "porep: the C1 output in Curio's wrapper (default c1-wrapper.json); winning / window: one "
                     "file per sector, in order; snap: the sector's partition proofs (default snap.vproof)"),
        CLI_STR_OPT("out-dir", 0, &out_dir, "DIR", "winning / window: DIR/sector-<num>.vproof instead of -o"),
        CLI_SIZE_OPT("sector-size", 0, &size,
                     "2KiB, 8MiB or 512MiB; any size with --synthetic (default 2KiB, or the registered proof's)",
                     .seen = &have_size),
        CLI_U64_OPT("sectors", 0, &sectors, "N", 1, MAX_SECTORS, "winning / window: sectors (default 1)"),
        CLI_U64_OPT("miner-id", 0, &miner, "N", 0, 0, "the miner id (default 1000)"),
        CLI_U64_OPT("sector-num", 0, &sector, "N", 0, 0, "the (first) sector number (default 1)"),
        CLI_U64_OPT("sector-number", 0, &sector, "N", 0, 0, NULL),
        CLI_HEX32_OPT("randomness", 0, a.randomness, "winning / window: the challenge randomness (default: random)",
                      .seen = &have_rand),
        CLI_STR_OPT("registered-proof", 0, &proof_name, "NAME",
                    "winning / window: the PoSt proof (default Winning V1 / Window V1_1 of the size); snap: the "
                    "update proof (default the size's)"),
        CLI_U64_OPT("sector-index", 0, &first_index, "N", 0, 0,
                    "winning / window: the first sector's place in the challenged list (default 0)"),
        CLI_FLAG_OPT("synthetic", 0, &a.synthetic, "winning / window / snap: synthetic proofs of any size, no sealing"),
        CLI_HEX32_OPT("seed", 0, a.seed, "--synthetic: the bytes the sectors are made from (default: random)",
                      .seen = &have_seed),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4095, "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, "porep|winning|window|snap",
                       "porep: seals a sector with random data, ticket and seed and writes its C1 output in\n"
                       "Curio's wrapper. winning / window: Fallback PoSt vanilla proofs (bincode\n"
                       "FallbackPoStSectorProof, one file per sector, as 'cuzk-bench single --vanilla' and 'cuzk\n"
                       "post prove' take them) of sectors sealed here, or synthetic ones of any size. snap: a\n"
                       "sector's SnapDeals vanilla partition proofs (bincode Vec<PartitionProof>, one -o, default\n"
                       "snap.vproof) of a CC sector sealed and updated here, or synthetic of any size; prints\n"
                       "comm_r_old=<hex> comm_d_new=<hex> comm_r_new=<hex>.\n",
                       table, 1, 1, NULL};
    int npos, rc = cli_parse(&c, argc, argv, &kind, &npos);
    if (rc != CLI_CONTINUE)
        goto done;
    int post_kind = post_kind_of(kind);
    if (strcmp(kind, "porep") == 0) {
        if (outs.n > 1 || out_dir || a.synthetic || sectors != 1 || have_rand || proof_name)
            rc = cli_usage_error(prog, "porep takes one -o and no PoSt options");
        else
            rc = gen_porep(outs.n ? outs.items[0] : "c1-wrapper.json", size_name(size), miner, sector, threads);
        goto done;
    }
    if (strcmp(kind, "snap") == 0) {
        if (outs.n > 1 || out_dir || sectors != 1 || have_rand) {
            rc = cli_usage_error(prog, "snap takes one -o and no PoSt options");
            goto done;
        }
        if (!have_seed && cli_os_random(a.seed, 32)) {
            fprintf(stderr, "%s: getrandom: %s\n", prog, strerror(errno));
            rc = 1;
            goto done;
        }
        gen_snap_args sa = {.out = outs.n ? outs.items[0] : "snap.vproof", .proof_name = proof_name, .size = size,
                            .have_size = have_size, .synthetic = a.synthetic, .seed = a.seed, .threads = threads};
        rc = bench_gen_vanilla_snap(&sa);
        goto done;
    }
    if (post_kind < 0) {
        rc = cli_usage_error(prog, "unknown kind '%s' (porep, winning, window or snap)", kind);
        goto done;
    }
    cuzk_err_t err;
    if (proof_name ? cuzk_fc_post_proof_parse(&a.proof, proof_name, &err) != CUZK_OK
                   : cuzk_fc_post_proof_for_size(&a.proof, (cuzk_fc_post_kind_t)post_kind, size, &err) != CUZK_OK) {
        rc = cli_usage_error(prog, "%s", err.msg);
        goto done;
    }
    if (proof_name && !have_size)
        size = a.proof->sector_size;
    if ((int)a.proof->kind != post_kind || a.proof->sector_size != size) {
        rc = cli_usage_error(prog, "%s is not a %s PoSt proof of %" PRIu64 "-byte sectors", a.proof->name, kind, size);
        goto done;
    }
    if (!a.synthetic && size > (512u << 20)) {
        rc = cli_usage_error(prog, "%s sectors are not sealed here: use --synthetic", a.proof->size_name);
        goto done;
    }
    if (out_dir ? outs.n != 0 : outs.n != sectors) {
        rc = cli_usage_error(prog, "%" PRIu64 " sector(s): give one -o per sector or --out-dir", sectors);
        goto done;
    }
    if ((!have_rand && cli_os_random(a.randomness, 32)) || (!have_seed && cli_os_random(a.seed, 32))) {
        fprintf(stderr, "%s: getrandom: %s\n", prog, strerror(errno));
        rc = 1;
        goto done;
    }
    if (!have_rand)
        a.randomness[31] &= 0x3f; /* below 2^254 < r: a canonical Fr */
    else if (!cuzk_fr32_is_canonical(a.randomness)) {
        rc = cli_usage_error(prog, "--randomness is not a canonical Fr (little-endian, below r)");
        goto done;
    }
    a.sectors = sectors;
    a.miner = miner;
    a.first_sector = sector;
    a.first_index = first_index;
    a.threads = threads;
    rc = gen_post(&a, &outs, out_dir);
done:
    cli_list_free(&outs);
    return rc;
}
