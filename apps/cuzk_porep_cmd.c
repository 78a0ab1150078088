/* `cuzk porep prove|verify`: PoRep C2 from a C1 output (bare or Curio-wrapped) with the parameters of a
 * directory laid out as Filecoin's (v28 names; a parameters.json there is checked against the files).
 * The proof file is the sector's partition proofs one after the other, 192 bytes each; prove checks its
 * destination before anything else and verifies the proofs before writing them (the atomic writer: the
 * file appears whole or not at all). verify binds the sector as Filecoin's verify_seal does: the replica
 * id is recomputed from the miner, the sector number, the C1's ticket and comm_d and the porep id. */
#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk_porep_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/file.h"
#include "cuzk/params.h"
#include "cuzk/porep.h"

enum { EXIT_GOOD = 0, EXIT_INVALID = 1, EXIT_BAD = 2 };

void cuzk_porep_cmd_usage(FILE *f)
{
    fprintf(f, "  porep prove  --c1 FILE --params DIR --out PROOF [--sector-num N --miner-id N] [--threads N]\n"
               "               [--synth direct|record] [--sector-size SIZE] [--partition K]\n"
               "               [--stream-params auto|yes|no]\n"
               "              PoRep C2: prove every partition (or partition K alone), verify, write the proofs\n"
               "              (192 bytes each)\n"
               "  porep verify --c1 FILE --params DIR --proof PROOF --miner-id N [--sector-num N]\n"
               "               [--sector-size SIZE] [--partition K]\n"
               "              exit 0 when the proofs are valid for the miner's sector (its number: --sector-num\n"
               "              or the wrapper's SectorNum), 1 when not, 2 on bad input\n");
}

bool cuzk_porep_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void cuzk_porep_dev_warning(const char *who, const char *stem)
{
    fprintf(stderr, "%s: WARNING: %s are development parameters (random setup, NOT a trusted setup): "
                    "proofs made with them are worthless on chain\n", who, stem);
}

typedef struct {
    const char *c1, *params, *out, *proof, *size;
    uint64_t sector_num, miner_id, partition;
    bool has_sector_num, has_miner_id, has_partition;
    int threads;
    int stream; /* STREAM_* */
    cuzk_porep_synth_mode synth;
} args_t;

/* --stream-params, in the order of its choices */
enum { STREAM_AUTO, STREAM_YES, STREAM_NO };

/* The options of prove (proving) or verify into a; CLI_CONTINUE, or the exit code. */
static int parse_args(args_t *a, bool proving, int argc, char **argv)
{
    static const char *const synth_modes[] = {"direct", "record", NULL};
    static const char *const stream_modes[] = {"auto", "yes", "no", NULL};
    memset(a, 0, sizeof *a);
    uint64_t threads = 0;
    int synth = CUZK_POREP_SYNTH_DIRECT;
    const cli_opt table[] = {
        CLI_STR_OPT("c1", 0, &a->c1, "FILE", "the C1 output: bare JSON or Curio's wrapper", .required = true),
        CLI_STR_OPT("params", 0, &a->params, "DIR", "the parameter directory (Filecoin's v28 names)", .required = true),
        proving ? (cli_opt)CLI_STR_OPT("out", 0, &a->out, "PROOF", "where the proofs go", .required = true)
                : (cli_opt)CLI_STR_OPT("proof", 0, &a->proof, "PROOF", "the proofs to check", .required = true),
        CLI_U64_OPT("sector-num", 0, &a->sector_num, "N", 0, 0,
                    proving ? "the sector number, checked against the C1"
                            : "the sector number (default: the wrapper's SectorNum; required with a bare C1)",
                    .seen = &a->has_sector_num),
        CLI_U64_OPT("miner-id", 0, &a->miner_id, "N", 0, 0, "the miner id, checked against the C1's replica_id",
                    .seen = &a->has_miner_id, .required = !proving),
        CLI_STR_OPT("sector-size", 0, &a->size, "SIZE", "the sector size, checked against the C1"),
        CLI_U64_OPT("threads", 0, &threads, "N", 0, 4096, "threads (0 = every CPU; default 0)"),
        CLI_CHOICE_OPT("synth", 0, &synth, synth_modes, "how the circuit is synthesized (default direct)"),
        CLI_U64_OPT("partition", 0, &a->partition, "K", 0, UINT32_MAX,
                    proving ? "prove partition K alone (the proof file is its 192 bytes); the parameters are read\n"
                              "from the file piece by piece, never held whole"
                            : "the proof file is partition K's proof alone",
                    .seen = &a->has_partition),
        proving ? (cli_opt)CLI_CHOICE_OPT("stream-params", 0, &a->stream, stream_modes,
                                          "read the parameters from the file piece by piece for each partition\n"
                                          "instead of decoding them whole first (auto, the default: when the .params\n"
                                          "file is larger than half of the available memory, as a 32GiB sector's\n"
                                          "47 GB are on most machines; --partition always streams)")
                : (cli_opt)CLI_END,
        CLI_END};
    const cli_cmd c = {proving ? "cuzk porep prove" : "cuzk porep verify", NULL,
                       proving ? "PoRep C2: proves every partition of the C1's sector, verifies the proofs and writes\n"
                                 "them one after the other (192 bytes each).\n"
                               : "Checks PoRep C2 proofs against a C1 output for a miner's sector, as Filecoin's\n"
                                 "verify_seal does: the replica id is recomputed from the miner id, the sector number\n"
                                 "(--sector-num, or the SectorNum of Curio's wrapper), the C1's ticket and comm_d and\n"
                                 "the porep id. Exit 0 when they are valid, 1 when not, 2 on bad input.\n",
                       table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    a->threads = (int)threads;
    a->synth = (cuzk_porep_synth_mode)synth;
    return rc;
}

/* Loads the C1 output and checks it against the options: EXIT_BAD with a message on bad input. Proving
 * checks the sector when the options name it; verifying always does (the miner is required, the sector
 * number given or the wrapper's), and a C1 that is not that sector's is EXIT_INVALID: no proof over it is
 * a proof of that sector. */
static int load_c1(cuzk_porep_c1_t **c1, const args_t *a, bool verifying, const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_porep_c1_load(c1, a->c1, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg); /* the loader's messages name the file */
        return EXIT_BAD;
    }
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, *c1);
    uint64_t size = a->size ? cli_parse_sector_size(a->size) : 0;
    cuzk_status st = CUZK_OK;
    if (a->size && !size)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "--sector-size %s: not a sector size", a->size);
    else if (verifying && !a->has_sector_num && !info.wrapped)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG,
                          "--sector-num is required with a bare C1 (Curio's wrapper names its sector)");
    else if (a->has_miner_id != a->has_sector_num && !info.wrapped)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "--miner-id and --sector-num go together");
    else {
        /* a wrapped C1 names its sector: --miner-id alone is checked with it */
        cuzk_porep_c1_expect_t expect = {.sector_size = size,
                                         .has_sector_num = a->has_sector_num || info.wrapped,
                                         .sector_num = a->has_sector_num ? a->sector_num : info.sector_num,
                                         .has_miner_id = a->has_miner_id,
                                         .miner_id = a->miner_id};
        st = cuzk_porep_c1_check(*c1, &expect, &err);
    }
    if (st != CUZK_OK) {
        bool invalid = verifying && st == CUZK_ERR_MISMATCH;
        if (invalid)
            printf("%s: %s: INVALID (%s)\n", who, a->proof, info.proof.name);
        fprintf(stderr, "%s: %s: %s\n", who, a->c1, err.msg);
        cuzk_porep_c1_free(*c1);
        *c1 = NULL;
        return invalid ? EXIT_INVALID : EXIT_BAD;
    }
    return 0;
}

/* The keys (the .params too when proving; streamed: opened, not decoded) of the C1's circuit: EXIT_BAD with a
 * message on any problem. */
static int open_keys(cuzk_porep_keys_t **keys, const args_t *a, const cuzk_porep_c1_info_t *c1, bool with_params,
                     bool streamed, const char *who)
{
    cuzk_err_t err = {{0}};
    cuzk_status st = streamed ? cuzk_porep_keys_load_streamed(keys, a->params, c1->proof.id, a->threads, &err)
                              : cuzk_porep_keys_load(keys, a->params, c1->proof.id, with_params, a->threads, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (cuzk_porep_keys_dev(*keys))
        cuzk_porep_dev_warning(who, cuzk_porep_keys_paths(*keys)->stem);
    return 0;
}

static int write_file(const char *path, const uint8_t *buf, size_t len, const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_atomic_write_file(path, buf, len, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    return 0;
}

static double s_since(double t0) { return cli_now() - t0; }

/* Partition k's proof against its public inputs (from the C1's replica id, comm_d, comm_r and seed):
 * *valid on CUZK_OK. */
static cuzk_status verify_partition(bool *valid, const cuzk_porep_c1_t *c1, const cuzk_porep_c1_info_t *info,
                                    const cuzk_groth16_vk_t *vk, const cuzk_groth16_proof_t *proof, uint32_t k,
                                    cuzk_err_t *err)
{
    *valid = false;
    size_t cap = 3 + 18 * (size_t)info->proof.challenges_per_partition, n = 0;
    cuzk_scalar_t *in = malloc(cap * sizeof *in);
    if (!in)
        return cuzk_err_set(err, CUZK_ERR_NO_MEMORY, "out of memory");
    cuzk_groth16_pvk_t *pvk = NULL;
    cuzk_status st = cuzk_porep_public_inputs(in, cap, &n, c1, k, err);
    if (st == CUZK_OK && (st = cuzk_groth16_pvk_new(&pvk, vk)) != CUZK_OK)
        cuzk_err_set(err, st, "cannot prepare the verifying key");
    if (st == CUZK_OK)
        st = cuzk_groth16_verify(valid, pvk, proof, in, n, err);
    cuzk_groth16_pvk_free(pvk);
    free(in);
    return st;
}

/* --partition K names one of the C1's partitions: EXIT_BAD with a message when not. */
static int check_partition(const args_t *a, const cuzk_porep_c1_info_t *info, const char *who)
{
    if (a->has_partition && a->partition >= info->partitions) {
        fprintf(stderr, "%s: --partition %" PRIu64 ": %s has partitions 0 to %u\n", who, a->partition,
                info->proof.name, info->partitions - 1);
        return EXIT_BAD;
    }
    return 0;
}

/* Proves what the options ask: every partition (proofs[0..partitions)) one after the other, or partition K
 * alone (proofs[0]) in its own memory; with streamed keys each partition's MSMs read the file piece by piece. */
static cuzk_status prove_selected(cuzk_groth16_proof_t *proofs, const args_t *a, const cuzk_porep_c1_t *c1,
                                  const cuzk_porep_c1_info_t *info, const cuzk_porep_keys_t *keys,
                                  cuzk_porep_timings_t *tm, cuzk_err_t *err)
{
    cuzk_porep_prove_opts_t po = {.threads = a->threads, .synth = a->synth, .params = cuzk_porep_keys_params(keys)};
    if (!a->has_partition)
        return cuzk_porep_prove(proofs, info->partitions, c1, cuzk_porep_keys_pk(keys), &po, tm, err);
    cuzk_status st = cuzk_porep_c1_check_challenges(c1, err);
    double t0 = cli_now();
    if (st == CUZK_OK)
        st = cuzk_porep_prove_partition(proofs, c1, (uint32_t)a->partition, cuzk_porep_keys_pk(keys), &po, err);
    tm->prove_ms = s_since(t0) * 1e3; /* synthesis included: one call does both */
    return st;
}

/* Whether to stream the parameters (see --stream-params): EXIT_BAD with a message when the options
 * contradict each other; says so on stderr when the automatic choice streams a whole sector. */
static int choose_streamed(bool *streamed, const args_t *a, const cuzk_porep_c1_info_t *info, const char *who)
{
    *streamed = a->has_partition || a->stream == STREAM_YES;
    if (a->has_partition && a->stream == STREAM_NO) {
        fprintf(stderr, "%s: --stream-params no: --partition always streams the parameters\n", who);
        return EXIT_BAD;
    }
    if (a->has_partition || a->stream != STREAM_AUTO)
        return 0;
    cuzk_err_t err = {{0}};
    uint64_t bytes = 0;
    if (cuzk_porep_keys_should_stream(streamed, &bytes, a->params, info->proof.id, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (*streamed)
        fprintf(stderr, "%s: the parameters (%.1f GB) are larger than half of the available memory: each of the %u "
                        "partitions reads them from the file piece by piece\n",
                who, (double)bytes / 1e9, info->partitions);
    return 0;
}

static int cmd_prove(int argc, char **argv)
{
    static const char *who = "cuzk porep prove";
    args_t a;
    int rc = parse_args(&a, true, argc, argv);
    if (rc != CLI_CONTINUE)
        return rc;
    double t_all = cli_now(), t0 = t_all;
    /* the destination first: a missing or read-only directory costs no parsing and no proving */
    if (cli_check_output_file(who, a.out, CUZK_GROTH16_PROOF_BYTES) != 0)
        return EXIT_BAD;
    cuzk_porep_c1_t *c1 = NULL;
    if ((rc = load_c1(&c1, &a, false, who)) != 0)
        return rc;
    double parse_s = s_since(t0);
    cli_timing_report("porep_parse_c1", t0);
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, c1);
    cuzk_err_t err = {{0}};
    cuzk_porep_keys_t *keys = NULL;
    uint32_t n_proofs = a.has_partition ? 1 : info.partitions;
    cuzk_groth16_proof_t *proofs = calloc(n_proofs, sizeof *proofs);
    uint8_t *bytes = malloc((size_t)n_proofs * CUZK_GROTH16_PROOF_BYTES);
    double load_s = 0, verify_s = 0;
    cuzk_porep_timings_t tm = {0};
    bool streamed = false;
    rc = (!proofs || !bytes) ? EXIT_BAD : check_partition(&a, &info, who);
    if (!rc)
        rc = choose_streamed(&streamed, &a, &info, who);
    if (!rc) {
        t0 = cli_now();
        rc = open_keys(&keys, &a, &info, true, streamed, who);
        load_s = s_since(t0);
        cli_timing_report("porep_load_params", t0);
    }
    if (!rc && prove_selected(proofs, &a, c1, &info, keys, &tm, &err) != CUZK_OK) {
        /* challenges that are not the seed's, a witness the circuit cannot take: bad input */
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    if (!rc) {
        t0 = cli_now();
        bool valid = false;
        cuzk_status st = a.has_partition ? verify_partition(&valid, c1, &info, cuzk_porep_keys_vk(keys), proofs,
                                                            (uint32_t)a.partition, &err)
                                         : cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), proofs,
                                                             info.partitions, &err);
        if (st != CUZK_OK) {
            fprintf(stderr, "%s: verify: %s\n", who, err.msg);
            rc = EXIT_INVALID;
        } else if (!valid) {
            fprintf(stderr, "%s: the proof does not verify with %s; nothing written\n", who,
                    cuzk_porep_keys_paths(keys)->vk);
            rc = EXIT_INVALID;
        }
        verify_s = s_since(t0);
        cli_timing_report("porep_verify", t0);
    }
    cuzk_porep_keys_free(keys);
    if (!rc) {
        cuzk_groth16_proofs_write(bytes, proofs, n_proofs);
        rc = write_file(a.out, bytes, (size_t)n_proofs * CUZK_GROTH16_PROOF_BYTES, who);
    }
    if (!rc && a.has_partition)
        printf("%s: %s, partition %" PRIu64 " of %u, proof %s (%d bytes), verified\n", who, info.proof.name,
               a.partition, info.partitions, a.out, CUZK_GROTH16_PROOF_BYTES);
    else if (!rc)
        printf("%s: %s, %u partition(s), %" PRIu64 " constraints each, proof %s (%u bytes), verified\n", who,
               info.proof.name, info.partitions, tm.constraints, a.out, info.partitions * CUZK_GROTH16_PROOF_BYTES);
    if (!rc && a.has_partition)
        printf("time: parse %.2f s, params %.2f s, synth + prove %.2f s, verify %.3f s, total %.2f s\n", parse_s,
               load_s, tm.prove_ms / 1e3, verify_s, s_since(t_all));
    else if (!rc)
        printf("time: parse %.2f s, params %.2f s, synth %.2f s, prove %.2f s, verify %.3f s, total %.2f s\n",
               parse_s, load_s, tm.synth_ms / 1e3, tm.prove_ms / 1e3, verify_s, s_since(t_all));
    free(proofs);
    free(bytes);
    cuzk_porep_c1_free(c1);
    return rc;
}

/* The proof file: EXIT_BAD with a message when it cannot be read or is not whole 192-byte proofs. */
static int read_proof_file(uint8_t **buf, size_t *len, const char *path, const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_file_read(buf, len, path, 1 << 20, "any sector's proofs", &err) != CUZK_OK) {
        fprintf(stderr, "%s: the proof: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (*len == 0 || *len % CUZK_GROTH16_PROOF_BYTES) {
        fprintf(stderr, "%s: %s: %zu bytes, not a whole number of %d-byte proofs\n", who, path, *len,
                CUZK_GROTH16_PROOF_BYTES);
        free(*buf);
        *buf = NULL;
        return EXIT_BAD;
    }
    return 0;
}

static int cmd_verify(int argc, char **argv)
{
    static const char *who = "cuzk porep verify";
    args_t a;
    int rc = parse_args(&a, false, argc, argv);
    if (rc != CLI_CONTINUE)
        return rc;
    cuzk_porep_c1_t *c1 = NULL;
    if ((rc = load_c1(&c1, &a, true, who)) != 0)
        return rc;
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, c1);
    double t0 = cli_now();
    cuzk_err_t err = {{0}};
    cuzk_porep_keys_t *keys = NULL;
    uint8_t *buf = NULL;
    cuzk_groth16_proof_t *proofs = NULL;
    size_t len = 0, n = 0;
    rc = check_partition(&a, &info, who);
    if (!rc)
        rc = open_keys(&keys, &a, &info, false, false, who);
    if (!rc)
        rc = read_proof_file(&buf, &len, a.proof, who);
    bool valid = false;
    if (!rc) {
        n = len / CUZK_GROTH16_PROOF_BYTES;
        uint32_t want = a.has_partition ? 1 : info.partitions;
        proofs = calloc(n, sizeof *proofs);
        if (!proofs) {
            fprintf(stderr, "%s: out of memory\n", who);
            rc = EXIT_BAD;
        } else if (n != want) {
            if (a.has_partition)
                fprintf(stderr, "%s: %s holds %zu proofs, one partition's proof is one\n", who, a.proof, n);
            else
                fprintf(stderr, "%s: %s holds %zu proofs, %s has %u partitions\n", who, a.proof, n,
                        info.proof.name, info.partitions);
        } else if (cuzk_groth16_proofs_read(proofs, n, &n, buf, len, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s: %s\n", who, a.proof, err.msg); /* not a proof: invalid */
        } else if ((a.has_partition ? verify_partition(&valid, c1, &info, cuzk_porep_keys_vk(keys), proofs,
                                                       (uint32_t)a.partition, &err)
                                    : cuzk_porep_verify(&valid, c1, cuzk_porep_keys_vk(keys), proofs, n, &err)) !=
                   CUZK_OK) {
            fprintf(stderr, "%s: %s\n", who, err.msg);
            rc = EXIT_BAD;
        }
    }
    if (!rc) {
        cli_timing_report("porep_verify", t0);
        printf("%s: %s: %s (%s, %u partition(s), miner %" PRIu64 ", sector %" PRIu64 "%s, %.3f s)\n", who, a.proof,
               valid ? "valid" : "INVALID", info.proof.name, info.partitions, a.miner_id,
               a.has_sector_num ? a.sector_num : info.sector_num,
               a.has_sector_num ? "" : " (the wrapper's SectorNum)", s_since(t0));
        rc = valid ? EXIT_GOOD : EXIT_INVALID;
    }
    cuzk_porep_keys_free(keys);
    free(proofs);
    free(buf);
    cuzk_porep_c1_free(c1);
    return rc;
}

int cuzk_porep_cmd(int argc, char **argv)
{
    static const cli_sub subs[] = {
        {"prove", cmd_prove, "PoRep C2: prove every partition, verify, write the proofs"},
        {"verify", cmd_verify, "check PoRep C2 proofs against a C1 output"},
        {NULL, NULL, NULL}};
    static const cli_group g = {"cuzk porep", "PoRep C2 from a C1 output (bare or Curio-wrapped).\n", subs, NULL};
    return cli_dispatch(&g, argc, argv);
}
