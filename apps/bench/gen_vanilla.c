/* cuzk-bench gen-vanilla porep: a real PoRep C1 output for the daemon, made by `cuzk seal` (random data,
 * ticket and seed) in a temporary directory beside the output; its Curio wrapper is renamed to the
 * output file (same file system, so the output appears whole or not at all). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/client.h"
#include "cuzk_seal_cmd.h"

int bench_gen_vanilla(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "porep") != 0) {
        fprintf(stderr, "cuzk-bench gen-vanilla: only 'porep' is supported yet (winning-post, window-post and "
                        "snap-prove need their circuits)\n");
        return 2;
    }
    const char *out = "c1-wrapper.json", *size = "2KiB", *miner = "1000", *sector = "1", *threads = "0";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v) {
            fprintf(stderr, "cuzk-bench gen-vanilla: %s needs a value\n", a);
            return 2;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            out = v;
        else if (strcmp(a, "--sector-size") == 0)
            size = v;
        else if (strcmp(a, "--miner-id") == 0)
            miner = v;
        else if (strcmp(a, "--sector-num") == 0 || strcmp(a, "--sector-number") == 0)
            sector = v;
        else if (strcmp(a, "--threads") == 0)
            threads = v;
        else {
            fprintf(stderr, "cuzk-bench gen-vanilla: unknown option %s\n", a);
            return 2;
        }
    }
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
    int rc = cuzk_seal_cmd(11, args);
    snprintf(c1, n, "%s/c1.json", dir);
    snprintf(wrapper, n, "%s/c1-wrapper.json", dir);
    if (rc == 0 && rename(wrapper, out) != 0) {
        fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", out, strerror(errno));
        rc = 1;
    }
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
