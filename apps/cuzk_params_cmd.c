/* `cuzk params`: check a bellperson parameter or verifying-key file (every section and point, at
 * the chosen level), compute or check its parameters.json digest, and (cuzk_params_generate.c) make
 * development parameters. */
#include "cuzk_params_cmd.h"
#include <stdlib.h>
#include <string.h>
#include "cuzk/params.h"
#include "cuzk_porep_cmd.h"
#include "util/timer.h"

enum { EXIT_GOOD = 0, EXIT_MISMATCH = 1, EXIT_USAGE = 2 };

void cuzk_params_cmd_usage(FILE *f)
{
    fprintf(f, "  params check <file.params|file.vk> [--check none|curve|subgroup] [--threads N]\n"
               "              decode and check every section and point (default: subgroup)\n"
               "  params digest <file> [--manifest parameters.json]\n"
               "              print the file's parameters.json digest; with a manifest, check it\n");
    cuzk_params_generate_usage(f);
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "cuzk params: %s\nusage:\n", msg);
    cuzk_params_cmd_usage(stderr);
    return EXIT_USAGE;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int check_vk(const char *path)
{
    cuzk_err_t err = {{0}};
    cuzk_groth16_vk_t vk;
    if (cuzk_params_vk_read(&vk, path, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params check: %s\n", err.msg);
        return EXIT_USAGE;
    }
    /* ic_len 0 (not even ONE) reads as bellperson reads it; no proof can verify against it. */
    printf("%s: verifying key, %zu public inputs (ic %zu), every point checked\n", path,
           vk.ic_len ? vk.ic_len - 1 : 0, vk.ic_len);
    cuzk_groth16_vk_free(&vk);
    return EXIT_GOOD;
}

static int check_params(const char *path, cuzk_params_check level, int threads)
{
    static const char *level_names[] = {"flags and encodings", "on the curve", "in the subgroup"};
    cuzk_err_t err = {{0}};
    cuzk_params_t *p = NULL;
    const cuzk_groth16_pk_t *pk;
    uint64_t t = cuzk_now_ns();
    if (cuzk_params_open(&p, path, level, threads, &err) != CUZK_OK ||
        cuzk_params_get(&pk, p, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params check: %s\n", err.msg);
        cuzk_params_close(p);
        return EXIT_USAGE;
    }
    printf("%s: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points; all %s (%.2f s)\n", path,
           pk->vk.ic_len, pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len,
           level_names[level], (double)(cuzk_now_ns() - t) / 1e9);
    cuzk_params_close(p);
    return EXIT_GOOD;
}

static int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    cuzk_params_check level = CUZK_PARAMS_CHECK_SUBGROUP;
    int threads = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "none") == 0)
                level = CUZK_PARAMS_CHECK_NONE;
            else if (strcmp(v, "curve") == 0)
                level = CUZK_PARAMS_CHECK_CURVE;
            else if (strcmp(v, "subgroup") == 0)
                level = CUZK_PARAMS_CHECK_SUBGROUP;
            else
                return usage_error("--check expects none, curve or subgroup");
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 4096)
                return usage_error("--threads expects a number (0 = every CPU)");
            threads = (int)v;
        } else if (argv[i][0] == '-' || path) {
            return usage_error("unexpected argument");
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return usage_error("params check needs a file");
    return ends_with(path, ".vk") ? check_vk(path) : check_params(path, level, threads);
}

static int cmd_digest(int argc, char **argv)
{
    const char *path = NULL, *manifest = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--manifest") == 0 && i + 1 < argc)
            manifest = argv[++i];
        else if (argv[i][0] == '-' || path)
            return usage_error("unexpected argument");
        else
            path = argv[i];
    }
    if (!path)
        return usage_error("params digest needs a file");
    cuzk_err_t err = {{0}};
    char hex[33];
    if (!manifest) {
        if (cuzk_params_digest(path, NULL, hex, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk params digest: %s\n", err.msg);
            return EXIT_USAGE;
        }
        printf("%s  %s\n", hex, path);
        return EXIT_GOOD;
    }
    cuzk_params_manifest_entry_t entry;
    cuzk_status st = cuzk_params_manifest_check(manifest, path, NULL, &entry, &err);
    if (st == CUZK_OK) {
        printf("%s: digest %s matches %s\n", path, entry.digest, manifest);
        return EXIT_GOOD;
    }
    fprintf(stderr, "cuzk params digest: %s\n", err.msg);
    return st == CUZK_ERR_MISMATCH && strstr(err.msg, "digest mismatch") ? EXIT_MISMATCH : EXIT_USAGE;
}

int cuzk_params_cmd(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "check") == 0)
        return cmd_check(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "digest") == 0)
        return cmd_digest(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "generate") == 0)
        return cuzk_params_generate_cmd(argc - 1, argv + 1);
    return usage_error("expected 'check', 'digest' or 'generate'");
}
