/* `cuzk post prove|verify`: one Winning or Window PoSt partition from its sectors' vanilla proofs (bincode
 * FallbackPoStSectorProof files, as filecoin-ffi's generate_single_vanilla_proof returns them) with the
 * parameters of a directory laid out as Filecoin's (v28 names; a parameters.json there is checked against
 * the files); `cuzk post vanilla` (cuzk_post_vanilla_cmd.c) makes such files from sealed sectors. The
 * destination is checked before anything else (its directory exists and takes a new file), the request
 * next, naming the first bad sector and challenge; prove verifies the proof before writing it (the atomic
 * writer: the 192-byte file appears whole or not at all). */
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk_post_cmd.h"
#include "cuzk_post_vanilla_cmd.h"
#include "cuzk_porep_cmd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/file.h"
#include "cuzk/post.h"

enum { EXIT_GOOD = 0, EXIT_INVALID = 1, EXIT_BAD = 2 };

/* Vanilla proofs no partition exceeds (Window 32GiB: 2349 sectors). */
#define MAX_VANILLA 4096

void cuzk_post_cmd_usage(FILE *f)
{
    fprintf(f, "  post prove  --kind winning|window (--registered-proof NAME | --sector-size SIZE)\n"
               "              --vanilla FILE [--vanilla FILE ...] --randomness HEX --miner-id N\n"
               "              [--partition-index K] --params DIR --out PROOF [--threads N]\n"
               "              Winning / Window PoSt: check the vanilla proofs, prove the partition, verify,\n"
               "              write the proof (192 bytes)\n"
               "  post verify (the same request) --params DIR --proof PROOF\n"
               "              exit 0 when the proof is valid for the request, 1 when not, 2 on bad input\n");
    cuzk_post_vanilla_cmd_usage(f);
}

typedef struct {
    int kind;
    const char *proof_name, *params, *out, *proof, *size;
    cli_list vanilla;
    uint8_t randomness[32];
    uint64_t miner_id, partition;
    int threads;
} args_t;

/* The options of prove (proving) or verify into a; CLI_CONTINUE, or the exit code. */
static int parse_args(args_t *a, bool proving, int argc, char **argv)
{
    static const char *const kinds[] = {"winning", "window", NULL};
    memset(a, 0, sizeof *a);
    uint64_t threads = 0;
    const cli_opt table[] = {
        CLI_CHOICE_OPT("kind", 0, &a->kind, kinds, "the PoSt kind", .required = true),
        CLI_STR_OPT("registered-proof", 0, &a->proof_name, "NAME",
                    "the registered PoSt proof: its name (StackedDrgWindow32GiBV1_1) or number"),
        CLI_STR_OPT("sector-size", 0, &a->size, "SIZE", "the sector size, for the proof Filecoin registers today"),
        CLI_LIST_OPT("vanilla", 0, &a->vanilla, "FILE", MAX_VANILLA,
                     "a sector's vanilla proof (bincode); Window: one per sector of the partition, in order",
                     .required = true),
        CLI_HEX32_OPT("randomness", 0, a->randomness, "the challenge randomness (32 bytes, a field element)",
                      .required = true),
        CLI_U64_OPT("miner-id", 0, &a->miner_id, "N", 0, 0, "the miner (actor) id", .required = true),
        CLI_U64_OPT("partition-index", 0, &a->partition, "K", 0, UINT32_MAX,
                    "Window: the partition of the deadline's sectors (default 0)"),
        CLI_STR_OPT("params", 0, &a->params, "DIR", "the parameter directory (Filecoin's v28 names)", .required = true),
        proving ? (cli_opt)CLI_STR_OPT("out", 0, &a->out, "PROOF", "where the proof goes", .required = true)
                : (cli_opt)CLI_STR_OPT("proof", 0, &a->proof, "PROOF", "the proof to check", .required = true),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    static const char *about_prove =
        "Winning / Window PoSt: checks the sectors' vanilla proofs (the first bad sector and challenge\n"
        "named), proves the partition, verifies the proof and writes it (192 bytes).\n";
    static const char *about_verify =
        "Checks a Winning / Window PoSt proof against its request: exit 0 when it is valid, 1 when not,\n"
        "2 on bad input.\n";
    const cli_cmd c = {.prog = proving ? "cuzk post prove" : "cuzk post verify",
                       .about = proving ? about_prove : about_verify,
                       .opts = table};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    a->threads = (int)threads;
    if (rc != CLI_CONTINUE)
        return rc;
    if (!a->proof_name && !a->size)
        return cli_usage_error(c.prog, "--registered-proof or --sector-size is required");
    return CLI_CONTINUE;
}

/* The registered proof the options name, of the kind they name: EXIT_BAD with a message otherwise. */
static int resolve_proof(cuzk_post_registered_proof_t *p, const args_t *a, const char *who)
{
    cuzk_err_t err = {{0}};
    uint64_t size = a->size ? cli_parse_sector_size(a->size) : 0;
    if (a->size && !size) {
        fprintf(stderr, "%s: --sector-size %s: not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)\n", who, a->size);
        return EXIT_BAD;
    }
    cuzk_post_kind kind = a->kind == 0 ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
    if (cuzk_post_registered_proof_select(p, kind, a->proof_name, size, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    return 0;
}

/* The vanilla proofs of the options, loaded: EXIT_BAD naming the file on any problem. */
static int load_vanilla(cuzk_post_vanilla_t **v, const args_t *a, const char *who)
{
    for (size_t i = 0; i < a->vanilla.n; i++) {
        cuzk_err_t err = {{0}};
        /* the loader's messages name the file */
        if (cuzk_post_vanilla_load(&v[i], a->vanilla.items[i], &err) != CUZK_OK) {
            fprintf(stderr, "%s: vanilla %zu: %s\n", who, i, err.msg);
            return EXIT_BAD;
        }
    }
    return 0;
}

static void free_vanilla(cuzk_post_vanilla_t **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        cuzk_post_vanilla_free(v[i]);
    free(v);
}

/* Everything a command needs before the keys: the registered proof, the vanilla proofs and the request
 * over them. *v is the caller's to free (free_vanilla) whatever the answer. */
static int make_request(cuzk_post_request_t *req, cuzk_post_registered_proof_t *p, cuzk_post_vanilla_t ***v,
                        const args_t *a, const char *who)
{
    *v = calloc(a->vanilla.n, sizeof **v);
    if (!*v) {
        fprintf(stderr, "%s: out of memory\n", who);
        return EXIT_BAD;
    }
    int rc = resolve_proof(p, a, who);
    if (!rc)
        rc = load_vanilla(*v, a, who);
    if (rc)
        return rc;
    memset(req, 0, sizeof *req);
    req->proof_id = p->id;
    memcpy(req->randomness, a->randomness, 32);
    req->miner_id = a->miner_id;
    req->partition_index = (uint32_t)a->partition;
    req->vanilla = (const cuzk_post_vanilla_t *const *)*v;
    req->n_vanilla = a->vanilla.n;
    return 0;
}

static int open_keys(cuzk_post_keys_t **keys, const args_t *a, uint64_t proof_id, bool with_params, const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_post_keys_load(keys, a->params, proof_id, with_params, a->threads, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (cuzk_post_keys_dev(*keys))
        cuzk_porep_dev_warning(who, cuzk_post_keys_paths(*keys)->stem);
    return 0;
}

static double s_since(double t0) { return cli_now() - t0; }

static int cmd_prove(int argc, char **argv)
{
    static const char *who = "cuzk post prove";
    args_t a;
    int rc = parse_args(&a, true, argc, argv);
    if (rc != CLI_CONTINUE) {
        cli_list_free(&a.vanilla);
        return rc;
    }
    /* the destination first: a missing or read-only directory costs no loading and no proving */
    if (cli_check_output_file(who, a.out, CUZK_GROTH16_PROOF_BYTES) != 0) {
        cli_list_free(&a.vanilla);
        return EXIT_BAD;
    }
    double t_all = cli_now(), t0 = t_all;
    cuzk_post_request_t req;
    cuzk_post_registered_proof_t proof;
    cuzk_post_vanilla_t **v = NULL;
    cuzk_err_t err = {{0}};
    rc = make_request(&req, &proof, &v, &a, who);
    /* the request checked before the parameters are read: bad input costs no parameter loading */
    double t_check = cli_now();
    if (!rc && cuzk_post_check(&req, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    double check_s = s_since(t_check), parse_s = s_since(t0);
    cli_timing_report("post_load_vanilla", t0);
    cuzk_post_keys_t *keys = NULL;
    double load_s = 0, verify_s = 0;
    if (!rc) {
        t0 = cli_now();
        rc = open_keys(&keys, &a, proof.id, true, who);
        load_s = s_since(t0);
        cli_timing_report("post_load_params", t0);
    }
    cuzk_groth16_proof_t pr;
    cuzk_post_timings_t tm = {0};
    cuzk_post_prove_opts_t po = {.threads = a.threads, .checked = true};
    if (!rc && cuzk_post_prove(&pr, &req, cuzk_post_keys_pk(keys), &po, &tm, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    if (!rc) {
        t0 = cli_now();
        bool valid = false;
        if (cuzk_post_verify(&valid, &req, cuzk_post_keys_vk(keys), &pr, &err) != CUZK_OK) {
            fprintf(stderr, "%s: verify: %s\n", who, err.msg);
            rc = EXIT_INVALID;
        } else if (!valid) {
            fprintf(stderr, "%s: the proof does not verify with %s; nothing written\n", who,
                    cuzk_post_keys_paths(keys)->vk);
            rc = EXIT_INVALID;
        }
        verify_s = s_since(t0);
        cli_timing_report("post_verify", t0);
    }
    cuzk_post_keys_free(keys);
    if (!rc) {
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        cuzk_groth16_proof_write(bytes, &pr);
        if (cuzk_atomic_write_file(a.out, bytes, sizeof bytes, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s\n", who, err.msg);
            rc = EXIT_BAD;
        }
    }
    if (!rc) {
        printf("%s: %s, %zu sector(s), partition %" PRIu64 ", %" PRIu64 " constraints, proof %s (%d bytes), "
               "verified\n",
               who, proof.name, req.n_vanilla, a.partition, tm.constraints, a.out, CUZK_GROTH16_PROOF_BYTES);
        printf("time: vanilla %.2f s (check %.2f s), params %.2f s, synth %.2f s, prove %.2f s, verify %.3f s, "
               "total %.2f s\n",
               parse_s, check_s, load_s, tm.synth_ms / 1e3, tm.prove_ms / 1e3, verify_s, s_since(t_all));
    }
    free_vanilla(v, a.vanilla.n);
    cli_list_free(&a.vanilla);
    return rc;
}

/* The proof file: one 192-byte proof. EXIT_BAD when it cannot be read; *len gets its length, or 193 for
 * anything longer (a file of another length is simply not a valid proof of the partition). */
static int read_proof(uint8_t buf[CUZK_GROTH16_PROOF_BYTES], size_t *len, const char *path, const char *who)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot read the proof\n", who, path);
        return EXIT_BAD;
    }
    uint8_t extra;
    *len = fread(buf, 1, CUZK_GROTH16_PROOF_BYTES, f);
    if (*len == CUZK_GROTH16_PROOF_BYTES && fread(&extra, 1, 1, f) == 1)
        *len = CUZK_GROTH16_PROOF_BYTES + 1;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s: read error\n", who, path);
        return EXIT_BAD;
    }
    return 0;
}

static int cmd_verify(int argc, char **argv)
{
    static const char *who = "cuzk post verify";
    args_t a;
    int rc = parse_args(&a, false, argc, argv);
    if (rc != CLI_CONTINUE) {
        cli_list_free(&a.vanilla);
        return rc;
    }
    double t0 = cli_now();
    cuzk_post_request_t req;
    cuzk_post_registered_proof_t proof;
    cuzk_post_vanilla_t **v = NULL;
    cuzk_err_t err = {{0}};
    cuzk_post_keys_t *keys = NULL;
    uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
    size_t len = 0;
    rc = make_request(&req, &proof, &v, &a, who);
    if (!rc)
        rc = open_keys(&keys, &a, proof.id, false, who);
    if (!rc)
        rc = read_proof(bytes, &len, a.proof, who);
    bool valid = false;
    cuzk_groth16_proof_t pr;
    if (rc) {
        /* nothing to verify */
    } else if (len != CUZK_GROTH16_PROOF_BYTES) {
        fprintf(stderr, "%s: %s: %s%zu bytes, a PoSt partition's proof has %d\n", who, a.proof,
                len > CUZK_GROTH16_PROOF_BYTES ? "more than " : "", len > CUZK_GROTH16_PROOF_BYTES ? len - 1 : len,
                CUZK_GROTH16_PROOF_BYTES);
    } else if (cuzk_groth16_proof_read(&pr, bytes, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s: %s\n", who, a.proof, err.msg); /* not a proof: invalid */
    } else if (cuzk_post_verify(&valid, &req, cuzk_post_keys_vk(keys), &pr, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    if (!rc) {
        cli_timing_report("post_verify", t0);
        printf("%s: %s: %s (%s, %zu sector(s), partition %" PRIu64 ", %.3f s)\n", who, a.proof,
               valid ? "valid" : "INVALID", proof.name, req.n_vanilla, a.partition, s_since(t0));
        if (!valid && len == CUZK_GROTH16_PROOF_BYTES && err.msg[0] == 0)
            fprintf(stderr, "%s: the proof does not verify for this request\n", who);
        rc = valid ? EXIT_GOOD : EXIT_INVALID;
    }
    cuzk_post_keys_free(keys);
    free_vanilla(v, a.vanilla.n);
    cli_list_free(&a.vanilla);
    return rc;
}

int cuzk_post_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"prove", cmd_prove, "Winning / Window PoSt: check, prove, verify, write the proof"},
        {"verify", cmd_verify, "check a Winning / Window PoSt proof against its request"},
        {"vanilla", cuzk_post_vanilla_cmd, "the vanilla proofs of sectors kept by 'cuzk seal'"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk post", "Fallback PoSt (Winning and Window) from vanilla proofs.\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}
