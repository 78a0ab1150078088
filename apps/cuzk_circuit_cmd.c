/* `cuzk circuit info`: the shape of a Filecoin circuit synthesized without a witness (count backend),
 * as one line: constraints=<n> inputs=<n> aux=<n> nnz_a=<n> nnz_b=<n> nnz_c=<n> [hash=<hex>]. */
#include "cuzk_circuit_cmd.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/filecoin.h"

enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

void cuzk_circuit_cmd_usage(FILE *f)
{
    fprintf(f, "  circuit info --kind porep --sector-size <2KiB|8MiB|512MiB|32GiB|64GiB> [--partition N]\n"
               "               [--hash] [--registered-proof NAME]\n"
               "              constraints, inputs (ONE included), aux and non-zeros of A, B, C (no\n"
               "              per-input prover rows); --hash adds the TestConstraintSystem hash\n");
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "cuzk circuit: %s\nusage:\n", msg);
    cuzk_circuit_cmd_usage(stderr);
    return EXIT_USAGE;
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

static int cmd_info(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *proof = NULL;
    long partition = -1;
    bool with_hash = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc)
            kind = argv[++i];
        else if (strcmp(argv[i], "--sector-size") == 0 && i + 1 < argc)
            size = argv[++i];
        else if (strcmp(argv[i], "--registered-proof") == 0 && i + 1 < argc)
            proof = argv[++i];
        else if (strcmp(argv[i], "--partition") == 0 && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            partition = strtol(v, &end, 10);
            if (end == v || *end || partition < 0 || partition > 1000000)
                return usage_error("--partition expects a partition number");
        } else if (strcmp(argv[i], "--hash") == 0)
            with_hash = true;
        else
            return usage_error("unexpected argument");
    }
    if (!kind || strcmp(kind, "porep") != 0)
        return usage_error("--kind porep is the only circuit so far");
    if (!size && !proof)
        return usage_error("circuit info needs --sector-size or --registered-proof");

    cuzk_err_t err = {{0}};
    cuzk_porep_config_t cfg;
    uint32_t partitions = 0;
    uint64_t bytes = 0;
    if (size && !parse_size(size, &bytes))
        return usage_error("--sector-size expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    if (proof) {
        if (cuzk_porep_config_for_proof(&cfg, &partitions, proof, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
            return EXIT_USAGE;
        }
        if (size && cfg.nodes * 32 != bytes) {
            fprintf(stderr, "cuzk circuit info: %s does not have %s sectors\n", proof, size);
            return EXIT_USAGE;
        }
    } else if (cuzk_porep_config_for_sector_size(&cfg, &partitions, bytes, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk circuit info: %s\n", err.msg);
        return EXIT_USAGE;
    }
    /* every partition's circuit has the same shape; the number is only checked */
    if (partition >= 0 && (uint64_t)partition >= partitions) {
        fprintf(stderr, "cuzk circuit info: partition %ld of %u\n", partition, partitions);
        return EXIT_USAGE;
    }

    cuzk_circuit_info_t info;
    if (cuzk_porep_circuit_info(&info, &cfg, with_hash, &err) != CUZK_OK) {
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
    if (argc < 2)
        return usage_error("circuit needs a subcommand");
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc - 2, argv + 2);
    return usage_error("unknown circuit subcommand");
}
