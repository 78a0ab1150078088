/* cuzk seal: pads the data (or random bytes), seals the sector in memory, derives the challenges of the seed
 * and writes the C1 JSON and Curio's wrapper, and the sector directory a later PoSt reads (the replica, tree R,
 * p_aux, t_aux, sector.json), all together (the atomic writer: all or none). Missing randomness is drawn from
 * the OS; prover_id follows from the miner id as filecoin-ffi derives it. */
#include "cuzk_seal_cmd.h"
#include "cli_opts.h"
#include "cli_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "cuzk/file.h"
#include "cuzk/porep.h"
#include "cuzk/seal.h"

void cuzk_seal_cmd_usage(FILE *f)
{
    fprintf(f, "  seal        seal a 2KiB/8MiB/512MiB sector and write its C1 output:\n"
               "              cuzk seal --sector-size <2KiB|8MiB|512MiB> --out DIR [--data FILE] [--miner-id N]\n"
               "                        [--sector-num N] [--ticket HEX] [--seed HEX] [--registered-proof NAME]\n"
               "                        [--threads N] [--c1-only]\n");
}

static void print_hex(const char *label, const uint8_t b[32])
{
    printf("%s", label);
    for (int i = 0; i < 32; i++)
        printf("%02x", b[i]);
    printf("\n");
}

int cuzk_seal_cmd(int argc, char **argv)
{
    static const char *prog = "cuzk seal";
    const char *size = NULL, *out = NULL, *data = NULL, *proof_name = NULL;
    uint64_t miner = 1000, sector = 1, threads = 0;
    uint8_t ticket[32], seed[32];
    bool have_ticket = false, have_seed = false, c1_only = false;
    const cli_opt table[] = {
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB or 512MiB (or --registered-proof)"),
        CLI_STR_OPT("out", 0, &out, "DIR", "where the C1 output and the sector's files go (made if missing)",
                    .required = true),
        CLI_STR_OPT("data", 0, &data, "FILE", "the sector's unpadded data, zero-filled (default: random bytes)"),
        CLI_U64_OPT("miner-id", 0, &miner, "N", 0, 0, "the miner id (default 1000)"),
        CLI_U64_OPT("sector-num", 0, &sector, "N", 0, 0, "the sector number (default 1)"),
        CLI_HEX32_OPT("ticket", 0, ticket, "the ticket (default: random)", .seen = &have_ticket),
        CLI_HEX32_OPT("seed", 0, seed, "the interactive seed (default: random)", .seen = &have_seed),
        CLI_STR_OPT("registered-proof", 0, &proof_name, "NAME", "the registered seal proof (default StackedDrg<SIZE>V1_1)"),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4095, "threads (0 = every CPU; default 0)"),
        CLI_FLAG_OPT("c1-only", 0, &c1_only, "write the C1 output only, not the sector's files"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "Seals a small sector in memory and writes its C1 output (c1.json, as filecoin-ffi writes it)\n"
                       "and Curio's wrapper (c1-wrapper.json), and keeps the sector for PoSt in the same directory:\n"
                       "the replica (sealed), tree R (sc-02-data-tree-r-last.dat), p_aux, t_aux and sector.json\n"
                       "(docs/FORMATS.md). Missing randomness is drawn from the OS.\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if (!size && !proof_name)
        return cli_usage_error(prog, "--sector-size or --registered-proof is required");
    char name[64];
    if (!proof_name) {
        snprintf(name, sizeof name, "StackedDrg%sV1_1", size);
        proof_name = name;
    }
    cuzk_porep_registered_proof_t reg, *p = &reg;
    cuzk_err_t err;
    if (cuzk_porep_registered_proof_parse(&reg, proof_name, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk seal: %s\n", err.msg);
        return 2;
    }
    if (size && strcmp(size, p->size_name) != 0) {
        fprintf(stderr, "cuzk seal: --sector-size %s disagrees with %s\n", size, p->name);
        return 2;
    }
    if ((!have_ticket && cli_os_random(ticket, 32)) || (!have_seed && cli_os_random(seed, 32))) {
        fprintf(stderr, "cuzk seal: getrandom: %s\n", strerror(errno));
        return 1;
    }
    /* the destination before the work: a missing parent or a read-only directory costs no sealing */
    if (cli_check_output_dir(prog, out) != 0)
        return 2;
    size_t raw_len = (size_t)(p->sector_size / 128 * 127), got = 0;
    uint8_t *raw = NULL;
    if (data) {
        /* every read checked: a directory, an unreadable file or a read error is an error, never zeros */
        char what[64];
        snprintf(what, sizeof what, "the unpadded bytes a %s sector holds", p->size_name);
        cuzk_status st = cuzk_file_read(&raw, &got, data, raw_len, what, &err);
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk seal: --data: %s\n", err.msg);
            return st == CUZK_ERR_NO_MEMORY ? 1 : 2;
        }
    }
    /* a shorter file is followed by zeros, as a sector with one piece and padding */
    uint8_t *q = realloc(raw, raw_len);
    if (!q) {
        fprintf(stderr, "cuzk seal: out of memory\n");
        free(raw);
        return 1;
    }
    raw = q;
    memset(raw + got, 0, raw_len - got);
    if (!data && cli_os_random(raw, raw_len)) {
        fprintf(stderr, "cuzk seal: getrandom: %s\n", strerror(errno));
        free(raw);
        return 1;
    }
    cuzk_seal_request_t req = {.proof_id = p->id, .miner_id = miner, .sector_num = sector, .data = raw,
                               .data_len = raw_len, .threads = (int)threads};
    memcpy(req.ticket, ticket, 32);
    cuzk_sealed_sector_t *s = NULL;
    double t0 = cli_now();
    cuzk_status st = cuzk_seal_precommit(&s, &req, &err);
    free(raw);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk seal: %s\n", err.msg);
        return 1;
    }
    double t1 = cli_now();
    uint8_t comm_d[32], comm_r[32];
    cuzk_seal_commitments(s, comm_d, comm_r);
    char *json = NULL, *wrap = NULL;
    size_t jl = 0, wl = 0;
    cuzk_seal_sector_files_t files = {0};
    st = cuzk_seal_commit1(&json, &jl, s, seed, &err); /* checked as a prover checks a C1 */
    if (st == CUZK_OK)
        st = cuzk_porep_c1_wrap(&wrap, &wl, json, jl, sector, p->sector_size, &err);
    if (st == CUZK_OK && cli_make_dirs(out) != 0)
        st = cuzk_err_set(&err, CUZK_ERR_IO, "%s: cannot create the directory: %s", out, strerror(errno));
    if (st == CUZK_OK && !c1_only)
        st = cuzk_seal_sector_files(&files, s, out, &err);
    cuzk_seal_free(s);
    /* c1.json, c1-wrapper.json, then the sector's files with sector.json last: all or none */
    enum { MAX_FILES = 2 + CUZK_SEAL_SECTOR_FILES };
    char *paths[MAX_FILES] = {0};
    const void *bufs[MAX_FILES] = {json, wrap};
    size_t lens[MAX_FILES] = {jl, wl}, n = 2 + files.n;
    size_t ol = strlen(out) + 64;
    static const char *const c1_names[2] = {"c1.json", "c1-wrapper.json"};
    for (size_t i = 0; i < n && st == CUZK_OK; i++) {
        if (!(paths[i] = malloc(ol))) {
            st = cuzk_err_set(&err, CUZK_ERR_NO_MEMORY, "out of memory");
            break;
        }
        snprintf(paths[i], ol, "%s/%s", out, i < 2 ? c1_names[i] : files.names[i - 2]);
        if (i >= 2) {
            bufs[i] = files.data[i - 2];
            lens[i] = files.lens[i - 2];
        }
    }
    if (st == CUZK_OK)
        st = cuzk_atomic_write_files(n, (const char *const *)paths, bufs, lens, &err);
    double t2 = cli_now();
    rc = 0;
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk seal: %s\n", err.msg);
        rc = 1;
    } else {
        printf("registered_proof: %s\nsector: %" PRIu64 " (miner %" PRIu64 ")\n", p->name, sector, miner);
        print_hex("comm_d: ", comm_d);
        print_hex("comm_r: ", comm_r);
        print_hex("ticket: ", ticket);
        print_hex("seed: ", seed);
        printf("c1.json: %zu bytes, c1-wrapper.json: %zu bytes\n", jl, wl);
        for (size_t i = 0; i < files.n; i++)
            printf("%s%s: %zu bytes%s", i ? ", " : "sector files: ", files.names[i], files.lens[i],
                   i + 1 == files.n ? "\n" : "");
        printf("time: precommit %.1f ms, commit1 %.1f ms, total %.1f ms\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3,
               (t2 - t0) * 1e3);
    }
    for (size_t i = 0; i < MAX_FILES; i++)
        free(paths[i]);
    cuzk_seal_sector_files_free(&files);
    free(json);
    free(wrap);
    return rc;
}
