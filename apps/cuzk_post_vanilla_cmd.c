/* `cuzk post vanilla`: each sector directory (cuzk seal --out) read, its vanilla proof made for the
 * randomness as filecoin-ffi makes it (cuzk_seal_post_vanilla: challenges, paths from the sector's files,
 * checked by the vanilla verifier), and every proof written to its own file, all or none. */
#include "cuzk_post_vanilla_cmd.h"
#include "cli_opts.h"
#include "cli_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/file.h"
#include "cuzk/post.h"
#include "cuzk/seal.h"

enum { EXIT_GOOD = 0, EXIT_FAIL = 1, EXIT_BAD = 2 };

/* Sectors one command takes (a 32GiB Window PoSt partition has 2349). */
#define MAX_SECTORS 4096

void cuzk_post_vanilla_cmd_usage(FILE *f)
{
    fprintf(f, "  post vanilla --kind winning|window --sector DIR [--sector DIR ...] --randomness HEX\n"
               "              [--registered-proof NAME] [--sector-index N] -o FILE [-o FILE ...]\n"
               "              the vanilla proofs of sectors kept by 'cuzk seal' (one bincode file per sector)\n");
}

/* The registered proof of the options, or the default of the kind and the first sector's size. */
static int choose_proof(cuzk_post_registered_proof_t *p, const char *name, int kind, uint64_t size,
                        const char *prog)
{
    cuzk_err_t err;
    /* without --kind the named proof's kind; a named proof of another size is refused when its sectors
     * are read */
    cuzk_status st = kind < 0 ? cuzk_post_registered_proof_parse(p, name, &err)
                              : cuzk_post_registered_proof_select(p, (cuzk_post_kind)kind, name, name ? 0 : size, &err);
    if (st == CUZK_OK)
        return CLI_CONTINUE;
    if (name)
        return cli_usage_error(prog, "--registered-proof: %s", err.msg);
    fprintf(stderr, "%s: %s\n", prog, err.msg);
    return EXIT_BAD;
}

int cuzk_post_vanilla_cmd(int argc, char **argv)
{
    static const char *prog = "cuzk post vanilla";
    static const char *const kinds[] = {"winning", "window", NULL};
    int kind = -1;
    const char *proof_name = NULL;
    cli_list sectors = {0}, outs = {0};
    uint8_t randomness[32];
    uint64_t first_index = 0;
    const cli_opt table[] = {
        CLI_CHOICE_OPT("kind", 0, &kind, kinds, "Winning or Window PoSt (or --registered-proof)"),
        CLI_LIST_OPT("sector", 0, &sectors, "DIR", MAX_SECTORS,
                     "a sector directory written by 'cuzk seal' (repeat for several sectors)", .required = true),
        CLI_HEX32_OPT("randomness", 0, randomness, "the challenge randomness: a canonical Fr, little-endian",
                      .required = true),
        CLI_STR_OPT("registered-proof", 0, &proof_name, "NAME",
                    "the registered PoSt proof (default: Winning V1 / Window V1_1 of the sectors' size)"),
        CLI_U64_OPT("sector-index", 0, &first_index, "N", 0, 0,
                    "the first sector's place in the challenged list (default 0); V1 proofs only"),
        CLI_LIST_OPT("output", 'o', &outs, "FILE", MAX_SECTORS, "where each sector's proof goes, one per --sector, in order",
                     .required = true),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "The Fallback PoSt vanilla proof of each sector directory, as filecoin-ffi's\n"
                       "generate_single_vanilla_proof makes it for the challenges of the randomness: the bincode\n"
                       "FallbackPoStSectorProof Curio hands a prover, one file per sector ('cuzk post prove\n"
                       "--vanilla' reads them). Every proof is checked as a prover checks it; the files are\n"
                       "written all or none. The sector index counts the sectors the challenges are drawn for\n"
                       "(Window: partition index x sectors per partition + the place in the partition).\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        goto done;
    if (kind < 0 && !proof_name) {
        rc = cli_usage_error(prog, "--kind or --registered-proof is required");
        goto done;
    }
    if (outs.n != sectors.n) {
        rc = cli_usage_error(prog, "%zu --sector and %zu -o: one output file per sector", sectors.n, outs.n);
        goto done;
    }
    cuzk_err_t err;
    cuzk_seal_sector_info_t info;
    if (cuzk_seal_sector_info(&info, sectors.items[0], &err) != CUZK_OK) {
        fprintf(stderr, "%s: sector 0 (%s): %s\n", prog, sectors.items[0], err.msg);
        rc = EXIT_BAD;
        goto done;
    }
    cuzk_post_registered_proof_t p;
    if ((rc = choose_proof(&p, proof_name, kind, info.sector_size, prog)) != CLI_CONTINUE)
        goto done;
    uint8_t **bufs = calloc(sectors.n, sizeof *bufs);
    size_t *lens = calloc(sectors.n, sizeof *lens);
    double t0 = cli_now();
    rc = bufs && lens ? EXIT_GOOD : EXIT_FAIL;
    if (rc)
        fprintf(stderr, "%s: out of memory\n", prog);
    for (size_t i = 0; i < sectors.n && rc == EXIT_GOOD; i++) {
        cuzk_status st = cuzk_seal_post_vanilla(&bufs[i], &lens[i], sectors.items[i], p.id, randomness,
                                                first_index + i, &err);
        if (st != CUZK_OK) {
            fprintf(stderr, "%s: sector %zu (%s): %s\n", prog, i, sectors.items[i], err.msg);
            rc = st == CUZK_ERR_NO_MEMORY ? EXIT_FAIL : EXIT_BAD;
        }
    }
    if (rc == EXIT_GOOD &&
        cuzk_atomic_write_files(sectors.n, outs.items, (const void *const *)bufs, lens, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_GOOD) {
        printf("%s: %zu vanilla proof(s) in %.3f s\n", p.name, sectors.n, cli_now() - t0);
        for (size_t i = 0; i < sectors.n; i++) {
            cuzk_post_vanilla_t *v = NULL;
            cuzk_post_vanilla_info_t vi = {0};
            if (cuzk_post_vanilla_parse(&v, bufs[i], lens[i], NULL) == CUZK_OK)
                cuzk_post_vanilla_info(&vi, v);
            cuzk_post_vanilla_free(v);
            printf("sector %" PRIu64 " (%s): %s, %zu bytes, %u challenges, %u-level paths, sector index %" PRIu64
                   "\n",
                   vi.sector_id, sectors.items[i], outs.items[i], lens[i], vi.n_paths, vi.path_levels,
                   first_index + i);
        }
    }
    for (size_t i = 0; bufs && i < sectors.n; i++)
        free(bufs[i]);
    free(bufs);
    free(lens);
done:
    cli_list_free(&sectors);
    cli_list_free(&outs);
    return rc;
}
