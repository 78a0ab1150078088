/* `cuzk snap vanilla`: an update directory read with its sector key, every partition's vanilla proof made
 * as filecoin-ffi makes it and checked (cuzk_seal_snap_vanilla), and the list written with the atomic
 * writer. Prints one line: the partitions, the bytes and the three commitments the proofs are for. */
#include "cuzk_snap_vanilla_cmd.h"
#include "cli_opts.h"
#include "cli_util.h"

#include <stdlib.h>

#include "cuzk/file.h"
#include "cuzk/seal.h"
#include "cuzk/snap.h"

enum { EXIT_GOOD = 0, EXIT_FAIL = 1, EXIT_BAD = 2 };

void cuzk_snap_vanilla_cmd_usage(FILE *f)
{
    fprintf(f, "  snap vanilla --update DIR [--sector DIR] -o FILE [--threads N]\n"
               "              the vanilla partition proofs of an update directory (bincode Vec<PartitionProof>)\n");
}

int cuzk_snap_vanilla_cmd(int argc, char **argv)
{
    static const char *prog = "cuzk snap vanilla";
    const char *update = NULL, *sector = NULL, *out = NULL;
    uint64_t threads = 0;
    const cli_opt table[] = {
        CLI_STR_OPT("update", 0, &update, "DIR", "the update directory ('cuzk snap encode --out')", .required = true),
        CLI_STR_OPT("sector", 0, &sector, "DIR", "the sector key, the CC sector encoded into (default: the "
                                                  "directory update.json names)"),
        CLI_STR_OPT("output", 'o', &out, "FILE", "where the proofs go", .required = true),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads of the checks (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "SnapDeals vanilla partition proofs of an update directory, as filecoin-ffi's\n"
                       "generate_partition_proofs makes them: per partition its apex leaves of tree D and, for\n"
                       "each challenge of comm_r_new, the paths into tree R old (the sector key's files), tree D\n"
                       "and tree R new. Every partition is checked as a prover checks it; the file (bincode\n"
                       "Vec<PartitionProof>) is written only then, with the atomic writer.\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err;
    cuzk_seal_snap_info_t info;
    cuzk_status st = cuzk_seal_snap_info(&info, update, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return st == CUZK_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_BAD;
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    double t0 = cli_now();
    st = cuzk_seal_snap_vanilla(&buf, &len, update, sector, (int)threads, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return st == CUZK_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_BAD;
    }
    cli_timing_report("snap_vanilla", t0);
    st = cuzk_atomic_write_file(out, buf, len, &err);
    free(buf);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return EXIT_FAIL;
    }
    char a[65], b[65], r[65];
    cli_hex32_format(a, info.comm_r_old);
    cli_hex32_format(b, info.comm_d_new);
    cli_hex32_format(r, info.comm_r_new);
    cuzk_snap_registered_proof_t p;
    unsigned parts = cuzk_snap_registered_proof(&p, info.update_proof_id, NULL) == CUZK_OK ? p.partitions : 0;
    printf("wrote %s: %u partition proofs (%zu bytes) for comm_r_old=%s comm_d_new=%s comm_r_new=%s\n", out, parts,
           len, a, b, r);
    return EXIT_GOOD;
}
