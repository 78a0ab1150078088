/* The snarkjs-compatible commands of the cuzk tool (same argument order and files as the snarkjs
 * CLI): prove from a zkey and a witness, verify a proof.json, export a zkey's verification key.
 * Outputs appear all at once (temp files, then rename) and only when the command succeeds. */
#include "cuzk_groth16_cmd.h"
#include "cli_opts.h"
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "cuzk/interop.h"

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

void cuzk_groth16_cmd_usage(FILE *f)
{
    fprintf(f, "  groth16 prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N]\n"
               "              prove with a snarkjs zkey (BLS12-381) and a circom witness\n"
               "  groth16 verify <verification_key.json> <public.json> <proof.json>\n"
               "              exit 0 for a valid proof, 1 for an invalid one, 2 for bad input\n"
               "  zkey export verificationkey <circuit.zkey> <verification_key.json>\n"
               "              write the zkey's verification key as snarkjs does\n");
}

/* --threads N, the one option of these commands (verify accepts it and has no use for it). */
#define THREADS_OPT(dst, help) CLI_INT_OPT("threads", 't', dst, "N", 0, 4096, help)

static int fail(const char *cmd, const cuzk_err_t *err, int code)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd, err->msg[0] ? err->msg : "failed");
    return code;
}

static int cmd_prove(int argc, char **argv)
{
    const char *cmd = "groth16 prove", *a[4];
    int n, threads = 0;
    const cli_opt table[] = {THREADS_OPT(&threads, "threads (0 = every CPU; default 0)"), CLI_END};
    const cli_cmd c = {"cuzk groth16 prove", "<circuit.zkey> <witness.wtns> <proof.json> <public.json>",
                       "Proves with a snarkjs zkey (BLS12-381) and a circom witness, checks the proof and writes\n"
                       "proof.json and public.json as snarkjs does (both or neither).\n",
                       table, 4, 4, NULL};
    int rc = cli_parse(&c, argc, argv, a, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err = {{0}};
    cuzk_zkey_t zk;
    cuzk_wtns_t w;
    double t = cli_now();
    if (cuzk_zkey_read(&zk, a[0], threads, 0, &err) != CUZK_OK)
        return fail(cmd, &err, EXIT_USAGE);
    cli_timing_report("zkey_load", t);
    t = cli_now();
    if (cuzk_wtns_read(&w, a[1], &err) != CUZK_OK) {
        cuzk_zkey_free(&zk);
        return fail(cmd, &err, EXIT_USAGE);
    }
    int code = EXIT_USAGE;
    cuzk_groth16_proof_t proof;
    cuzk_groth16_prove_opts opts = {.threads = threads};
    cuzk_scalar_t *pub = malloc(((size_t)zk.n_public + 1) * sizeof *pub);
    cuzk_groth16_pvk_t *pvk = NULL;
    char *texts[2] = {NULL, NULL};
    if (!pub) {
        cuzk_err_set(&err, CUZK_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    cli_timing_report("wtns_load", t);
    if (cuzk_zkey_prove(&proof, &zk, w.values, w.n, &opts, &err) != CUZK_OK)
        goto out;
    t = cli_now();
    for (uint32_t i = 0; i < zk.n_public; i++)
        cuzk_fr_to_scalar(&pub[i], &w.values[1 + i]);
    /* A witness that does not satisfy the circuit still gives a "proof"; check it here rather
     * than hand out an invalid one. */
    bool valid = false;
    if (cuzk_groth16_pvk_new(&pvk, &zk.pk.vk) != CUZK_OK ||
        cuzk_groth16_verify(&valid, pvk, &proof, pub, zk.n_public, &err) != CUZK_OK)
        goto out;
    cli_timing_report("self_verify", t);
    if (!valid) {
        cuzk_err_set(&err, CUZK_ERR_MISMATCH,
                     "the proof does not verify: the witness does not satisfy the circuit");
        code = EXIT_INVALID;
        goto out;
    }
    texts[0] = cuzk_snarkjs_proof_json(&proof);
    texts[1] = cuzk_snarkjs_public_json(pub, zk.n_public);
    const char *paths[2] = {a[2], a[3]};
    if (cuzk_interop_write_files(paths, (const char *const *)texts, 2, &err) != CUZK_OK)
        goto out;
    code = EXIT_VALID;
out:
    if (code != EXIT_VALID)
        fail(cmd, &err, code);
    free(texts[0]);
    free(texts[1]);
    cuzk_groth16_pvk_free(pvk);
    free(pub);
    cuzk_wtns_free(&w);
    cuzk_zkey_free(&zk);
    return code;
}

/* Which read errors mean "this proof is invalid" (snarkjs answers false for them) rather than
 * "this input is unusable". */
static bool invalid_not_bad(cuzk_status s)
{
    return s == CUZK_ERR_NOT_CANONICAL || s == CUZK_ERR_NOT_ON_CURVE || s == CUZK_ERR_NOT_IN_SUBGROUP;
}

static int cmd_verify(int argc, char **argv)
{
    const char *cmd = "groth16 verify", *a[3];
    int n, threads = 0;
    const cli_opt table[] = {THREADS_OPT(&threads, NULL), CLI_END};
    const cli_cmd c = {"cuzk groth16 verify", "<verification_key.json> <public.json> <proof.json>",
                       "Verifies a snarkjs proof.json: exit 0 for a valid proof, 1 for an invalid one, 2 for bad\n"
                       "input.\n",
                       table, 3, 3, NULL};
    int rc = cli_parse(&c, argc, argv, a, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err = {{0}};
    cuzk_groth16_vk_t vk;
    cuzk_groth16_proof_t proof;
    cuzk_scalar_t *pub = NULL;
    size_t npub = 0;
    cuzk_status s;
    if ((s = cuzk_snarkjs_vk_read(&vk, a[0], &err)) != CUZK_OK)
        return fail(cmd, &err, EXIT_USAGE);
    int code = EXIT_USAGE;
    cuzk_groth16_pvk_t *pvk = NULL;
    if ((s = cuzk_snarkjs_public_read(&pub, &npub, a[1], &err)) != CUZK_OK) {
        code = invalid_not_bad(s) ? EXIT_INVALID : EXIT_USAGE;
        goto out;
    }
    if ((s = cuzk_snarkjs_proof_read(&proof, a[2], &err)) != CUZK_OK) {
        code = invalid_not_bad(s) ? EXIT_INVALID : EXIT_USAGE;
        goto out;
    }
    if (npub + 1 != vk.ic_len) {
        cuzk_err_set(&err, CUZK_ERR_MISMATCH, "%s has %zu public signals, the verification key expects %zu",
                     a[1], npub, vk.ic_len - 1);
        goto out;
    }
    bool valid = false;
    if ((s = cuzk_groth16_pvk_new(&pvk, &vk)) != CUZK_OK) {
        cuzk_err_set(&err, s, "%s: cannot prepare the verification key", a[0]);
        goto out;
    }
    if ((s = cuzk_groth16_verify(&valid, pvk, &proof, pub, npub, &err)) != CUZK_OK)
        goto out;
    if (valid) {
        printf("cuzk groth16 verify: OK\n");
        code = EXIT_VALID;
    } else {
        cuzk_err_set(&err, CUZK_OK, "invalid proof");
        code = EXIT_INVALID;
    }
out:
    if (code != EXIT_VALID)
        fail(cmd, &err, code);
    cuzk_groth16_pvk_free(pvk);
    free(pub);
    cuzk_interop_vk_free(&vk);
    return code;
}

int cuzk_groth16_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"prove", cmd_prove, "prove with a snarkjs zkey and a circom witness"},
        {"verify", cmd_verify, "verify a snarkjs proof.json"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk groth16", "snarkjs-compatible Groth16 commands.\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}

static int cmd_export_vk(int argc, char **argv);

static int cmd_export(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"verificationkey", cmd_export_vk, "write the zkey's verification key as snarkjs does"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk zkey export", NULL, subs, NULL};
    return cli_dispatch(&g, argc, argv);
}

int cuzk_zkey_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"export", cmd_export, "export verificationkey <circuit.zkey> <verification_key.json>"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk zkey", "snarkjs-compatible zkey commands.\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}

static int cmd_export_vk(int argc, char **argv)
{
    const char *cmd = "zkey export verificationkey", *a[2];
    int n, threads = 0;
    const cli_opt table[] = {THREADS_OPT(&threads, NULL), CLI_END};
    const cli_cmd c = {"cuzk zkey export verificationkey", "<circuit.zkey> <verification_key.json>",
                       "Writes the zkey's verification key as snarkjs does.\n", table, 2, 2, NULL};
    int rc = cli_parse(&c, argc, argv, a, &n);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_err_t err = {{0}};
    cuzk_groth16_vk_t vk;
    if (cuzk_zkey_read_vk(&vk, a[0], &err) != CUZK_OK)
        return fail(cmd, &err, EXIT_USAGE);
    char *text = cuzk_snarkjs_vk_json(&vk);
    const char *paths[1] = {a[1]};
    const char *texts[1] = {text};
    int code = cuzk_interop_write_files(paths, texts, 1, &err) == CUZK_OK ? EXIT_VALID : fail(cmd, &err, EXIT_USAGE);
    free(text);
    cuzk_interop_vk_free(&vk);
    return code;
}
