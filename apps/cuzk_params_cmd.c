/* `cuzk params`: check a bellperson parameter or verifying-key file (every section and point, at
 * the chosen level), compute or check its parameters.json digest, and (cuzk_params_generate.c) make
 * development parameters. */
#include "cuzk_params_cmd.h"
#include "cli_opts.h"
#include "cli_util.h"
#include <stdlib.h>
#include <string.h>
#include "cuzk/params.h"
#include "cuzk_porep_cmd.h"

enum { EXIT_GOOD = 0, EXIT_MISMATCH = 1, EXIT_USAGE = 2 };

void cuzk_params_cmd_usage(FILE *f)
{
    fprintf(f, "  params check <file.params|file.vk> [--check none|curve|subgroup] [--threads N]\n"
               "              decode and check every section and point (default: subgroup)\n"
               "  params digest <file> [--manifest parameters.json]\n"
               "              print the file's parameters.json digest; with a manifest, check it\n");
    cuzk_params_generate_usage(f);
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
    double t = cli_now();
    if (cuzk_params_open(&p, path, level, threads, &err) != CUZK_OK ||
        cuzk_params_get(&pk, p, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params check: %s\n", err.msg);
        cuzk_params_close(p);
        return EXIT_USAGE;
    }
    printf("%s: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu points; all %s (%.2f s)\n", path,
           pk->vk.ic_len, pk->h_len, pk->l_len, pk->a_len, pk->b_g1_len, pk->b_g2_len,
           level_names[level], cli_now() - t);
    cuzk_params_close(p);
    return EXIT_GOOD;
}

static int cmd_check(int argc, char **argv)
{
    static const char *const levels[] = {"none", "curve", "subgroup", NULL};
    int level = CUZK_PARAMS_CHECK_SUBGROUP, threads = 0, n;
    const char *path;
    const cli_opt opts[] = {
        CLI_CHOICE_OPT("check", 0, &level, levels, "how far points are checked (default: subgroup)"),
        CLI_INT_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    const cli_cmd c = {"cuzk params check", "<file.params|file.vk>",
                       "Decodes and checks every section and point of a bellperson parameter or verifying-key\n"
                       "file.\n",
                       opts, 1, 1, NULL};
    int rc = cli_parse(&c, argc, argv, &path, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    return ends_with(path, ".vk") ? check_vk(path) : check_params(path, (cuzk_params_check)level, threads);
}

static int cmd_digest(int argc, char **argv)
{
    const char *path = NULL, *manifest = NULL;
    int n;
    const cli_opt opts[] = {
        CLI_STR_OPT("manifest", 0, &manifest, "parameters.json", "check the digest against this manifest"),
        CLI_END};
    const cli_cmd c = {"cuzk params digest", "<file>",
                       "Prints the file's parameters.json digest; with a manifest, checks it (exit 1 when it\n"
                       "differs).\n",
                       opts, 1, 1, NULL};
    int rc = cli_parse(&c, argc, argv, &path, &n);
    if (rc != CLI_CONTINUE)
        return rc;
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
    static const cli_sub subs[] = {
        {"check", cmd_check, "decode and check every section and point of a .params or .vk file"},
        {"digest", cmd_digest, "a file's parameters.json digest, or its check against a manifest"},
        {"generate", cuzk_params_generate_cmd, "development parameters (random setup, NOT trusted)"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk params", "bellperson parameter files.\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}
