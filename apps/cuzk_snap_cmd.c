/* `cuzk snap encode|decode` (and the dispatch of `vanilla`, cuzk_snap_vanilla_cmd.c, and `prove|verify`,
 * cuzk_snap_prove_cmd.c): SnapDeals' encoding of new data into a committed-capacity sector kept by
 * `cuzk seal` (cuzk_seal_snap_encode: the update directory written all or none) and the data read back
 * from an update directory (cuzk_seal_snap_decode, written with the atomic writer). Encode prints one
 * line, the three commitments as lowercase hex of their 32 little-endian bytes (the byte order Curio
 * sends); timings go to stderr with CUZK_TIMING=1. */
#include "cuzk_snap_cmd.h"
#include "cuzk_snap_vanilla_cmd.h"
#include "cuzk_snap_prove_cmd.h"
#include "cli_opts.h"
#include "cli_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/file.h"
#include "cuzk/seal.h"

enum { EXIT_GOOD = 0, EXIT_FAIL = 1, EXIT_BAD = 2 };

void cuzk_snap_cmd_usage(FILE *f)
{
    fprintf(f, "  snap encode --sector DIR --data FILE --out DIR [--threads N]\n"
               "              SnapDeals: encode new data into a CC sector kept by 'cuzk seal'; prints\n"
               "              comm_r_old=<hex> comm_d_new=<hex> comm_r_new=<hex>\n"
               "  snap decode --update DIR --out FILE [--length N] [--threads N]\n"
               "              the data of an update directory (its first N bytes)\n");
    cuzk_snap_vanilla_cmd_usage(f);
    cuzk_snap_prove_cmd_usage(f);
}

/* A failure's exit code: the machine's own (no memory) or bad input. */
static int exit_of(cuzk_status st) { return st == CUZK_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_BAD; }

static int cmd_encode(int argc, char **argv)
{
    static const char *prog = "cuzk snap encode";
    const char *sector = NULL, *data_path = NULL, *out = NULL;
    uint64_t threads = 0;
    const cli_opt table[] = {
        CLI_STR_OPT("sector", 0, &sector, "DIR", "the committed-capacity sector, a directory written by 'cuzk seal'",
                    .required = true),
        CLI_STR_OPT("data", 0, &data_path, "FILE",
                    "the new data, unpadded: at most sector size x 127/128 bytes, the rest of the sector zero",
                    .required = true),
        CLI_STR_OPT("out", 0, &out, "DIR", "the update directory (made if missing)", .required = true),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "SnapDeals: encodes new data into a committed-capacity sector (new replica = old replica +\n"
                       "data x rho), and writes the update directory: update (the new replica),\n"
                       "sc-02-data-tree-r-last.dat, sc-02-data-tree-d.dat, p_aux and update.json (docs/FORMATS.md),\n"
                       "all or none. Prints comm_r_old=<hex> comm_d_new=<hex> comm_r_new=<hex> (32 bytes each,\n"
                       "little-endian, the byte order Curio sends).\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err;
    cuzk_seal_sector_info_t si;
    cuzk_status st = cuzk_seal_sector_info(&si, sector, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: sector %s: %s\n", prog, sector, err.msg);
        return exit_of(st);
    }
    size_t max = (size_t)(si.sector_size / 128 * 127), len = 0;
    uint8_t *data = NULL;
    char what[80];
    snprintf(what, sizeof what, "the unpadded bytes a %llu-byte sector holds", (unsigned long long)si.sector_size);
    /* every read checked: a directory, an unreadable file or a read error is an error, never short data */
    if ((st = cuzk_file_read(&data, &len, data_path, max, what, &err)) != CUZK_OK) {
        fprintf(stderr, "%s: --data: %s\n", prog, err.msg);
        return exit_of(st);
    }
    double t0 = cli_now();
    cuzk_seal_snap_info_t info;
    st = cuzk_seal_snap_encode(sector, data, len, out, (int)threads, &info, &err);
    free(data);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return exit_of(st);
    }
    cli_timing_report("snap_encode_total", t0);
    char a[65], b[65], r[65];
    cli_hex32_format(a, info.comm_r_old);
    cli_hex32_format(b, info.comm_d_new);
    cli_hex32_format(r, info.comm_r_new);
    printf("comm_r_old=%s comm_d_new=%s comm_r_new=%s\n", a, b, r);
    return EXIT_GOOD;
}

static int cmd_decode(int argc, char **argv)
{
    static const char *prog = "cuzk snap decode";
    const char *update = NULL, *out = NULL;
    uint64_t threads = 0, length = 0;
    bool have_length = false;
    const cli_opt table[] = {
        CLI_STR_OPT("update", 0, &update, "DIR", "the update directory ('cuzk snap encode --out')", .required = true),
        CLI_STR_OPT("out", 0, &out, "FILE", "where the data goes", .required = true),
        CLI_U64_OPT("length", 0, &length, "N", 0, 0,
                    "write the first N bytes (default: all sector size x 127/128 of them)", .seen = &have_length),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "The data of an update directory: (new replica - old replica) / rho node by node, checked\n"
                       "against comm_d_new, unpadded; the sector key's replica is read from the directory\n"
                       "update.json names. Written with the atomic writer.\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err;
    uint8_t *data = NULL;
    size_t len = 0;
    double t0 = cli_now();
    cuzk_status st = cuzk_seal_snap_decode(&data, &len, update, (int)threads, NULL, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return exit_of(st);
    }
    cli_timing_report("snap_decode", t0);
    if (have_length && length > len) {
        fprintf(stderr, "%s: --length %llu: the sector holds %zu bytes of data\n", prog, (unsigned long long)length,
                len);
        free(data);
        return EXIT_BAD;
    }
    st = cuzk_atomic_write_file(out, data, have_length ? (size_t)length : len, &err);
    free(data);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return exit_of(st);
    }
    return EXIT_GOOD;
}

int cuzk_snap_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"encode", cmd_encode, "encode new data into a CC sector kept by 'cuzk seal'"},
        {"decode", cmd_decode, "the data of an update directory"},
        {"vanilla", cuzk_snap_vanilla_cmd, "the vanilla partition proofs of an update directory"},
        {"prove", cuzk_snap_prove_cmd, "check the vanilla partition proofs, prove, verify, write the proof"},
        {"verify", cuzk_snap_verify_cmd, "check a SnapDeals proof against its request"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk snap", "SnapDeals (empty sector update).\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}
