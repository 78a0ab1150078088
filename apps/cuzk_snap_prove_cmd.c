/* `cuzk snap prove|verify`: a SnapDeals proof (one Groth16 proof per partition) from a sector's vanilla
 * partition proofs (a bincode Vec<PartitionProof> file, as `cuzk snap vanilla` writes it and filecoin-ffi's
 * generate_partition_proofs returns it) and the sector's three commitments, with the parameters of a
 * directory laid out as Filecoin's (v28 names; a parameters.json there is checked against the files). Every
 * partition and path is checked before the parameters are read, and the destination before that; prove
 * verifies the proofs before writing them (the atomic writer: the partitions × 192-byte file appears whole
 * or not at all). */
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk_porep_cmd.h"
#include "cuzk_snap_prove_cmd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/file.h"
#include "cuzk/snap.h"

enum { EXIT_GOOD = 0, EXIT_INVALID = 1, EXIT_BAD = 2 };

#define PROOF_MAX_BYTES (CUZK_SNAP_MAX_PARTITIONS * CUZK_GROTH16_PROOF_BYTES)

void cuzk_snap_prove_cmd_usage(FILE *f)
{
    fprintf(f, "  snap prove  --registered-proof N --vanilla FILE --comm-r-old HEX --comm-r-new HEX\n"
               "              --comm-d-new HEX --params DIR --out PROOF [--threads N]\n"
               "              SnapDeals: check the vanilla partition proofs, prove every partition, verify,\n"
               "              write the proof (partitions x 192 bytes)\n"
               "  snap verify (the same request) --params DIR --proof PROOF\n"
               "              exit 0 when the proof is valid for the request, 1 when not, 2 on bad input\n");
}

typedef struct {
    const char *proof_name, *vanilla, *params, *out, *proof;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    int threads;
} args_t;

/* The options of prove (proving) or verify into a; CLI_CONTINUE, or the exit code. */
static int parse_args(args_t *a, bool proving, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    uint64_t threads = 0;
    const cli_opt table[] = {
        CLI_STR_OPT("registered-proof", 0, &a->proof_name, "N",
                    "the registered update proof: its number (0-4: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB) or name "
                    "(StackedDrg32GiBV1)",
                    .required = true),
        CLI_STR_OPT("vanilla", 0, &a->vanilla, "FILE",
                    proving ? "the sector's vanilla partition proofs (bincode Vec<PartitionProof>, 'cuzk snap "
                              "vanilla -o')"
                            : "optional: the prover's vanilla file, held to the registered proof's partition count",
                    .required = proving),
        CLI_HEX32_OPT("comm-r-old", 0, a->comm_r_old, "the sector key's comm_r (32 bytes, little-endian hex)",
                      .required = true),
        CLI_HEX32_OPT("comm-r-new", 0, a->comm_r_new, "the updated sector's comm_r", .required = true),
        CLI_HEX32_OPT("comm-d-new", 0, a->comm_d_new, "the new data's comm_d", .required = true),
        CLI_STR_OPT("params", 0, &a->params, "DIR", "the parameter directory (Filecoin's v28 names)", .required = true),
        proving ? (cli_opt)CLI_STR_OPT("out", 0, &a->out, "PROOF", "where the proof goes", .required = true)
                : (cli_opt)CLI_STR_OPT("proof", 0, &a->proof, "PROOF", "the proof to check", .required = true),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_END};
    static const char *about_prove =
        "SnapDeals: checks the sector's vanilla partition proofs (the first bad partition, challenge and\n"
        "path named), proves every partition, verifies the proofs and writes them (partitions x 192 bytes,\n"
        "in partition order).\n";
    static const char *about_verify =
        "Checks a SnapDeals proof against its request: exit 0 when it is valid, 1 when not, 2 on bad\n"
        "input.\n";
    const cli_cmd c = {.prog = proving ? "cuzk snap prove" : "cuzk snap verify",
                       .about = proving ? about_prove : about_verify,
                       .opts = table};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    a->threads = (int)threads;
    return rc;
}

/* The request of the options: the registered proof, the commitments and, with vanilla, the partition
 * proofs (v[0..*n), the caller's to free whatever the answer). EXIT_BAD with a message naming the file. */
static int make_request(cuzk_snap_request_t *req, cuzk_snap_registered_proof_t *p, cuzk_snap_vanilla_t **v,
                        size_t *n, const args_t *a, bool vanilla, const char *who)
{
    cuzk_err_t err = {{0}};
    memset(req, 0, sizeof *req);
    *n = 0;
    if (cuzk_snap_registered_proof_parse(p, a->proof_name, &err) != CUZK_OK) {
        fprintf(stderr, "%s: --registered-proof: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    req->proof_id = p->id;
    memcpy(req->comm_r_old, a->comm_r_old, 32);
    memcpy(req->comm_d_new, a->comm_d_new, 32);
    memcpy(req->comm_r_new, a->comm_r_new, 32);
    if (vanilla) {
        /* the loader's messages name the file */
        if (cuzk_snap_vanilla_load_all(v, CUZK_SNAP_MAX_PARTITIONS, n, a->vanilla, &err) != CUZK_OK) {
            fprintf(stderr, "%s: vanilla: %s\n", who, err.msg);
            return EXIT_BAD;
        }
        req->vanilla = (const cuzk_snap_vanilla_t *const *)v;
        req->n_vanilla = *n;
    } else {
        req->n_vanilla = p->partitions;
    }
    return 0;
}

static void free_vanilla(cuzk_snap_vanilla_t **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_snap_vanilla_free(v[i]);
}

static int open_keys(cuzk_snap_keys_t **keys, const args_t *a, uint64_t proof_id, bool with_params, const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_snap_keys_load(keys, a->params, proof_id, with_params, a->threads, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (cuzk_snap_keys_dev(*keys))
        cuzk_porep_dev_warning(who, cuzk_snap_keys_paths(*keys)->stem);
    return 0;
}

static double s_since(double t0) { return cli_now() - t0; }

int cuzk_snap_prove_cmd(int argc, char **argv)
{
    static const char *who = "cuzk snap prove";
    args_t a;
    int rc = parse_args(&a, true, argc, argv);
    if (rc != CLI_CONTINUE)
        return rc;
    /* the destination first: a missing or read-only directory costs no loading and no proving */
    if (cli_check_output_file(who, a.out, CUZK_GROTH16_PROOF_BYTES) != 0)
        return EXIT_BAD;
    double t_all = cli_now(), t0 = t_all;
    cuzk_snap_request_t req;
    cuzk_snap_registered_proof_t proof;
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS] = {0};
    size_t nv = 0;
    cuzk_err_t err = {{0}};
    rc = make_request(&req, &proof, v, &nv, &a, true, who);
    /* the request checked before the parameters are read: bad input costs no parameter loading */
    double t_check = cli_now();
    if (!rc && cuzk_snap_check(&req, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    double check_s = s_since(t_check), parse_s = s_since(t0);
    cli_timing_report("snap_load_vanilla", t0);
    cuzk_snap_keys_t *keys = NULL;
    double load_s = 0, verify_s = 0;
    if (!rc) {
        t0 = cli_now();
        rc = open_keys(&keys, &a, proof.id, true, who);
        load_s = s_since(t0);
        cli_timing_report("snap_load_params", t0);
    }
    cuzk_groth16_proof_t pr[CUZK_SNAP_MAX_PARTITIONS];
    cuzk_snap_timings_t tm = {0};
    cuzk_snap_prove_opts_t po = {.threads = a.threads, .checked = true};
    cuzk_status st = CUZK_OK;
    if (!rc && (st = cuzk_snap_prove(pr, CUZK_SNAP_MAX_PARTITIONS, &req, cuzk_snap_keys_pk(keys), &po, &tm, &err)) !=
                   CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = st == CUZK_ERR_NO_MEMORY || st == CUZK_ERR_IO ? EXIT_INVALID : EXIT_BAD;
    }
    if (!rc) {
        t0 = cli_now();
        bool valid = false;
        if (cuzk_snap_verify(&valid, &req, cuzk_snap_keys_vk(keys), pr, nv, &err) != CUZK_OK) {
            fprintf(stderr, "%s: verify: %s\n", who, err.msg);
            rc = EXIT_INVALID;
        } else if (!valid) {
            fprintf(stderr, "%s: the proof does not verify with %s; nothing written\n", who,
                    cuzk_snap_keys_paths(keys)->vk);
            rc = EXIT_INVALID;
        }
        verify_s = s_since(t0);
        cli_timing_report("snap_verify", t0);
    }
    cuzk_snap_keys_free(keys);
    if (!rc) {
        uint8_t bytes[PROOF_MAX_BYTES];
        for (size_t k = 0; k < nv; k++)
            cuzk_groth16_proof_write(bytes + k * CUZK_GROTH16_PROOF_BYTES, &pr[k]);
        if (cuzk_atomic_write_file(a.out, bytes, nv * CUZK_GROTH16_PROOF_BYTES, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s\n", who, err.msg);
            rc = EXIT_BAD;
        }
    }
    if (!rc) {
        printf("%s: %s, %zu partition(s), %" PRIu64 " constraints each, proof %s (%zu bytes), verified\n", who,
               proof.name, nv, tm.constraints, a.out, nv * CUZK_GROTH16_PROOF_BYTES);
        printf("time: vanilla %.2f s (check %.2f s), params %.2f s, synth %.2f s, prove %.2f s, verify %.3f s, "
               "total %.2f s\n",
               parse_s, check_s, load_s, tm.synth_ms / 1e3, tm.prove_ms / 1e3, verify_s, s_since(t_all));
    }
    free_vanilla(v, nv);
    return rc;
}

/* The proof file: at most PROOF_MAX_BYTES. EXIT_BAD when it cannot be read; *len gets its length, or
 * PROOF_MAX_BYTES + 1 for anything longer (a file of another length is simply not a valid proof). */
static int read_proof(uint8_t *buf, size_t *len, const char *path, const char *who)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot read the proof\n", who, path);
        return EXIT_BAD;
    }
    uint8_t extra;
    *len = fread(buf, 1, PROOF_MAX_BYTES, f);
    if (*len == PROOF_MAX_BYTES && fread(&extra, 1, 1, f) == 1)
        *len = PROOF_MAX_BYTES + 1;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s: read error\n", who, path);
        return EXIT_BAD;
    }
    return 0;
}

int cuzk_snap_verify_cmd(int argc, char **argv)
{
    static const char *who = "cuzk snap verify";
    args_t a;
    int rc = parse_args(&a, false, argc, argv);
    if (rc != CLI_CONTINUE)
        return rc;
    double t0 = cli_now();
    cuzk_snap_request_t req;
    cuzk_snap_registered_proof_t proof;
    cuzk_snap_vanilla_t *v[CUZK_SNAP_MAX_PARTITIONS] = {0};
    size_t nv = 0;
    cuzk_err_t err = {{0}};
    cuzk_snap_keys_t *keys = NULL;
    uint8_t bytes[PROOF_MAX_BYTES];
    size_t len = 0;
    /* verification needs the commitments only; a vanilla file given is read and must have the proof's
     * partition count (the command line of prove works here unchanged) */
    rc = make_request(&req, &proof, v, &nv, &a, a.vanilla != NULL, who);
    if (!rc && a.vanilla && nv != proof.partitions) {
        fprintf(stderr, "%s: %s: %zu partition proofs, %s has %u partitions\n", who, a.vanilla, nv, proof.name,
                proof.partitions);
        rc = EXIT_BAD;
    }
    if (!rc)
        rc = open_keys(&keys, &a, proof.id, false, who);
    if (!rc)
        rc = read_proof(bytes, &len, a.proof, who);
    bool valid = false;
    size_t want = (size_t)proof.partitions * CUZK_GROTH16_PROOF_BYTES;
    cuzk_groth16_proof_t pr[CUZK_SNAP_MAX_PARTITIONS];
    size_t bad_at = SIZE_MAX;
    if (rc) {
        /* nothing to verify */
    } else if (len != want) {
        fprintf(stderr, "%s: %s: %s%zu bytes, a %s proof has %zu (%u partitions x %d)\n", who, a.proof,
                len > PROOF_MAX_BYTES ? "more than " : "", len > PROOF_MAX_BYTES ? len - 1 : len, proof.name, want,
                proof.partitions, CUZK_GROTH16_PROOF_BYTES);
    } else {
        for (size_t k = 0; k < proof.partitions && bad_at == SIZE_MAX; k++)
            if (cuzk_groth16_proof_read(&pr[k], bytes + k * CUZK_GROTH16_PROOF_BYTES, &err) != CUZK_OK)
                bad_at = k;
        if (bad_at != SIZE_MAX) {
            fprintf(stderr, "%s: %s: partition %zu's proof: %s\n", who, a.proof, bad_at, err.msg); /* invalid */
        } else if (cuzk_snap_verify(&valid, &req, cuzk_snap_keys_vk(keys), pr, proof.partitions, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s\n", who, err.msg);
            rc = EXIT_BAD;
        }
    }
    if (!rc) {
        cli_timing_report("snap_verify", t0);
        printf("%s: %s: %s (%s, %u partition(s), %.3f s)\n", who, a.proof, valid ? "valid" : "INVALID", proof.name,
               proof.partitions, s_since(t0));
        if (!valid && len == want && bad_at == SIZE_MAX)
            fprintf(stderr, "%s: the proof does not verify for this request\n", who);
        rc = valid ? EXIT_GOOD : EXIT_INVALID;
    }
    cuzk_snap_keys_free(keys);
    free_vanilla(v, nv);
    return rc;
}
