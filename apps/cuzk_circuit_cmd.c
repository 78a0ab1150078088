/* `cuzk circuit info`: the shape of a Filecoin circuit (PoRep, Winning or Window PoSt, SnapDeals) synthesized
 * without a witness (count backend), as one line:
 * constraints=<n> inputs=<n> aux=<n> nnz_a=<n> nnz_b=<n> nnz_c=<n> [hash=<hex>]. */
#include "cuzk_circuit_cmd.h"
#include "cli_opts.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

void cuzk_circuit_cmd_usage(FILE *f)
{
    fprintf(f, "  circuit info --kind porep|winning-post|window-post|snap\n"
               "               --sector-size <2KiB|8MiB|512MiB|32GiB|64GiB> [--partition N] [--hash]\n"
               "               [--registered-proof NAME]\n"
               "              constraints, inputs (ONE included), aux and non-zeros of A, B, C (no\n"
               "              per-input prover rows); --hash adds the TestConstraintSystem hash\n");
}

/* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (any <n>KiB/MiB/GiB) or a byte count. */
static bool parse_size(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || s[0] == '-')
        return false;
    unsigned shift = 0;
    if (strcmp(end, "KiB") == 0)
        shift = 10;
    else if (strcmp(end, "MiB") == 0)
        shift = 20;
    else if (strcmp(end, "GiB") == 0)
        shift = 30;
    else if (*end)
        return false;
    if (v > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

/* The PoRep circuit of a size or a named seal proof; its partition count. EXIT_USAGE with a message. */
static int porep_config(cuzk_porep_config_t *cfg, uint32_t *partitions, const char *size, uint64_t bytes,
                        const char *proof)
{
    cuzk_err_t err = {{0}};
    if (proof) {
        if (cuzk_porep_config_for_proof(cfg, partitions, proof, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
            return EXIT_USAGE;
        }
        if (size && cfg->nodes * 32 != bytes) {
            fprintf(stderr, "cuzk circuit info: %s does not have %s sectors\n", proof, size);
            return EXIT_USAGE;
        }
    } else if (cuzk_porep_config_for_sector_size(cfg, partitions, bytes, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* The Winning / Window PoSt circuit of a size (the proof Filecoin registers today; every version of a kind
 * and size has the same circuit) or of a named PoSt proof of that kind. EXIT_USAGE with a message. */
static int post_config(cuzk_post_config_t *cfg, cuzk_post_kind kind, int partition, uint64_t bytes, const char *proof)
{
    cuzk_err_t err = {{0}};
    cuzk_post_registered_proof_t reg;
    cuzk_status st = cuzk_post_registered_proof_select(&reg, kind, proof, bytes, &err);
    if (st == CUZK_OK && kind == CUZK_POST_WINNING && partition > 0)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "partition %d: a Winning PoSt has one partition", partition);
    if (st == CUZK_OK)
        st = cuzk_post_config_for_proof(cfg, reg.id, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

/* The SnapDeals circuit of a size (its production shape) or of a named update proof (with a size: checked
 * against it). EXIT_USAGE with a message. */
static int snap_config(cuzk_snap_config_t *cfg, const char *size, uint64_t bytes, const char *proof)
{
    cuzk_err_t err = {{0}};
    cuzk_snap_registered_proof_t reg;
    cuzk_status st = proof ? cuzk_snap_registered_proof_parse(&reg, proof, &err)
                           : cuzk_snap_registered_proof_for_size(&reg, bytes, &err);
    if (st == CUZK_OK && proof && size && reg.sector_size != bytes)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "%s does not have %s sectors", proof, size);
    if (st == CUZK_OK)
        st = cuzk_snap_config_for_proof(cfg, reg.id, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
        return EXIT_USAGE;
    }
    return EXIT_DONE;
}

static int cmd_info(int argc, char **argv)
{
    static const char *const kinds[] = {"porep", "winning-post", "window-post", "snap", NULL};
    static const char *prog = "cuzk circuit info";
    const char *size = NULL, *proof = NULL;
    int kind = 0, partition = -1;
    bool with_hash = false;
    const cli_opt table[] = {
        CLI_CHOICE_OPT("kind", 0, &kind, kinds, "the circuit", .required = true),
        CLI_STR_OPT("sector-size", 0, &size, "SIZE", "2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count"),
        CLI_STR_OPT("registered-proof", 0, &proof, "NAME",
                    "the kind's registered proof (seal, PoSt or update proof), instead of or with the size"),
        CLI_INT_OPT("partition", 0, &partition, "N", 0, 1000000, "a partition number, checked against the sector's"),
        CLI_FLAG_OPT("hash", 0, &with_hash, "add the TestConstraintSystem hash (seconds, ~0.7 GiB for 2KiB PoRep)"),
        CLI_END};
    const cli_cmd c = {prog, NULL,
                       "The shape of a PoRep, Winning PoSt, Window PoSt or SnapDeals partition circuit from a blank\n"
                       "synthesis: constraints, inputs (ONE included), aux and the non-zeros of A, B, C (no per-input\n"
                       "prover rows), as one line.\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE)
        return rc;
    if (!size && !proof)
        return cli_usage_error(prog, "--sector-size or --registered-proof is required");

    cuzk_err_t err = {{0}};
    uint64_t bytes = 0;
    if (size && !parse_size(size, &bytes))
        return cli_usage_error(prog, "--sector-size: bad value '%s' (expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB)",
                               size);
    cuzk_circuit_info_t info;
    cuzk_status st;
    if (kind == 0) {
        cuzk_porep_config_t cfg;
        uint32_t partitions = 0;
        if ((rc = porep_config(&cfg, &partitions, size, bytes, proof)) != EXIT_DONE)
            return rc;
        /* every partition's circuit has the same shape; the number is only checked */
        if (partition >= 0 && (uint64_t)partition >= partitions) {
            fprintf(stderr, "cuzk circuit info: partition %d of %u\n", partition, partitions);
            return EXIT_USAGE;
        }
        st = cuzk_porep_circuit_info(&info, &cfg, with_hash, &err);
    } else if (kind == 3) {
        /* every partition's circuit has the same shape (k is a public input): the number is only checked */
        cuzk_snap_config_t cfg;
        if ((rc = snap_config(&cfg, size, bytes, proof)) != EXIT_DONE)
            return rc;
        if (partition >= 0 && (uint32_t)partition >= cfg.partition_count) {
            fprintf(stderr, "cuzk circuit info: partition %d of %u\n", partition, cfg.partition_count);
            return EXIT_USAGE;
        }
        st = cuzk_snap_circuit_info(&info, &cfg, with_hash, &err);
    } else {
        /* every Window partition has the same circuit, whatever the deadline's sector count */
        cuzk_post_config_t cfg;
        if ((rc = post_config(&cfg, kind == 1 ? CUZK_POST_WINNING : CUZK_POST_WINDOW, partition, bytes, proof)) !=
            EXIT_DONE)
            return rc;
        st = cuzk_post_circuit_info(&info, &cfg, with_hash, &err);
    }
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
        return EXIT_FAILED;
    }
    printf("constraints=%zu inputs=%zu aux=%zu nnz_a=%zu nnz_b=%zu nnz_c=%zu", info.num_constraints,
           info.num_inputs, info.num_aux, info.nnz_a, info.nnz_b, info.nnz_c);
    if (info.has_hash)
        printf(" hash=%s", info.hash);
    printf("\n");
    return EXIT_DONE;
}

int cuzk_circuit_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"info", cmd_info, "the shape of a Filecoin circuit (constraints, inputs, aux, non-zeros)"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk circuit", "Filecoin circuits.\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}
