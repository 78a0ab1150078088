/* cuzk-bench gen-vanilla porep: a real PoRep C1 output for the daemon, made by `cuzk seal` (random data,
 * ticket and seed) in a temporary directory beside the output; its Curio wrapper is written to the output
 * file by the atomic writer (the output appears whole or not at all). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/client.h"
#include "cli_opts.h"
#include "cuzk/file.h"
#include "cuzk_seal_cmd.h"

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
            fprintf(stderr, "cuzk-bench gen-vanilla: %s\n", err.msg);
        free(buf);
        return rc;
    }
    fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", from, strerror(errno));
    if (f)
        fclose(f);
    free(buf);
    return -1;
}

int bench_gen_vanilla(int argc, char **argv)
{
    static const char *prog = "cuzk-bench gen-vanilla";
    const char *out = "c1-wrapper.json", *size = "2KiB", *miner = "1000", *sector = "1", *threads = "0", *kind = NULL;
    const cli_opt table[] = {
        CLI_STR_OPT("output", 'o', &out, "FILE", "where the C1 output goes, in Curio's wrapper (default c1-wrapper.json)"),
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB or 512MiB (default 2KiB)"),
        CLI_STR_OPT("miner-id", 0, &miner, "N", "the miner id (default 1000)"),
        CLI_STR_OPT("sector-num", 0, &sector, "N", "the sector number (default 1)"),
        CLI_STR_OPT("sector-number", 0, &sector, "N", NULL),
        CLI_STR_OPT("threads", 0, &threads, "N", "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {prog, "porep",
                       "Seals a sector with random data, ticket and seed, and writes its C1 output in Curio's\n"
                       "wrapper: a real vanilla proof to send to the daemon.\n",
                       table, 1, 1, NULL};
    int npos, rc = cli_parse(&c, argc, argv, &kind, &npos);
    if (rc != CLI_CONTINUE)
        return rc;
    if (strcmp(kind, "porep") != 0)
        return cli_usage_error(prog, "only 'porep' is supported yet (winning-post, window-post and snap-prove need "
                                     "their circuits)");
    size_t n = strlen(out) + 64;
    char *dir = malloc(n), *c1 = malloc(n), *wrapper = malloc(n);
    const char *slash = strrchr(out, '/');
    if (dir)
        snprintf(dir, n, "%.*s.cuzk-gen-vanilla-XXXXXX", slash ? (int)(slash - out + 1) : 0, out);
    if (!dir || !c1 || !wrapper || !mkdtemp(dir)) {
        fprintf(stderr, "cuzk-bench gen-vanilla: temporary directory beside %s: %s\n", out, strerror(errno));
        free(dir);
        free(c1);
        free(wrapper);
        return 1;
    }
    char *args[] = {"seal", "--sector-size", (char *)size, "--out", dir, "--miner-id", (char *)miner,
                    "--sector-num", (char *)sector, "--threads", (char *)threads, NULL};
    rc = cuzk_seal_cmd(11, args);
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
        printf("wrote %s (sector %s, miner %s)\n", out, sector, miner);
    return rc;
}
