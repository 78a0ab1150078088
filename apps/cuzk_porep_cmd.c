/* `cuzk porep prove|verify`: PoRep C2 from a C1 output (bare or Curio-wrapped) with the parameters of a
 * directory laid out as Filecoin's (v28 names; a parameters.json there is checked against the files).
 * The proof file is the sector's partition proofs one after the other, 192 bytes each; prove verifies it
 * before writing it (temporary file + rename). */
#include "cli_util.h"
#include "cuzk_porep_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/params.h"
#include "filecoin/vanilla/c1_json.h"
#include "filecoin/registry/params_names.h"
#include "filecoin/porep/porep_keys.h"
#include "filecoin/porep/porep_prove.h"
#include "util/timer.h"
#include "util/timing.h"

enum { EXIT_GOOD = 0, EXIT_INVALID = 1, EXIT_BAD = 2 };

void cuzk_porep_cmd_usage(FILE *f)
{
    fprintf(f, "  porep prove  --c1 FILE --params DIR --out PROOF [--sector-num N --miner-id N] [--threads N]\n"
               "               [--synth direct|record] [--sector-size SIZE]\n"
               "              PoRep C2: prove every partition, verify, write the proofs (192 bytes each)\n"
               "  porep verify --c1 FILE --params DIR --proof PROOF [--sector-size SIZE]\n"
               "              exit 0 when the proofs are valid for the C1, 1 when not, 2 on bad input\n");
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
    uint64_t sector_num, miner_id;
    bool has_sector_num, has_miner_id;
    int threads;
    cuzk_porep_synth_mode synth;
} args_t;

static int usage_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "cuzk porep %s: %s\nusage:\n", cmd, msg);
    cuzk_porep_cmd_usage(stderr);
    return EXIT_BAD;
}

static int parse_args(args_t *a, const char *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (i + 1 >= argc)
            return usage_error(cmd, "every option needs a value");
        const char *v = argv[++i];
        uint64_t n;
        if (strcmp(o, "--c1") == 0)
            a->c1 = v;
        else if (strcmp(o, "--params") == 0)
            a->params = v;
        else if (strcmp(o, "--out") == 0 && strcmp(cmd, "prove") == 0)
            a->out = v;
        else if (strcmp(o, "--proof") == 0 && strcmp(cmd, "verify") == 0)
            a->proof = v;
        else if (strcmp(o, "--sector-size") == 0)
            a->size = v;
        else if (strcmp(o, "--sector-num") == 0 && cli_parse_u64(v, &n) == 0) {
            a->sector_num = n;
            a->has_sector_num = true;
        } else if (strcmp(o, "--miner-id") == 0 && cli_parse_u64(v, &n) == 0) {
            a->miner_id = n;
            a->has_miner_id = true;
        } else if (strcmp(o, "--threads") == 0 && cli_parse_u64(v, &n) == 0 && n <= 4096)
            a->threads = (int)n;
        else if (strcmp(o, "--synth") == 0 && strcmp(v, "direct") == 0)
            a->synth = CUZK_POREP_SYNTH_DIRECT;
        else if (strcmp(o, "--synth") == 0 && strcmp(v, "record") == 0)
            a->synth = CUZK_POREP_SYNTH_RECORD;
        else {
            fprintf(stderr, "cuzk porep %s: bad option or value: %s %s\n", cmd, o, v);
            return EXIT_BAD;
        }
    }
    if (!a->c1 || !a->params || (strcmp(cmd, "prove") == 0 ? !a->out : !a->proof))
        return usage_error(cmd, strcmp(cmd, "prove") == 0 ? "--c1, --params and --out are required"
                                                          : "--c1, --params and --proof are required");
    return 0;
}

/* Loads and checks the C1 output against the options: EXIT_BAD with a message on any problem. */
static int load_c1(cuzk_fc_c1_t *c1, const args_t *a, const char *who)
{
    cuzk_err_t err = {{0}};
    cuzk_fc_c1_wrapper_info_t info;
    memset(c1, 0, sizeof *c1);
    if (cuzk_fc_c1_load(c1, &info, a->c1, 0, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s: %s\n", who, a->c1, err.msg);
        return EXIT_BAD;
    }
    uint64_t size = a->size ? cli_parse_sector_size(a->size) : 0;
    cuzk_status st = CUZK_OK;
    if (a->size && !size)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "--sector-size %s: not a sector size", a->size);
    else if (a->has_miner_id != a->has_sector_num && !info.wrapped)
        st = cuzk_err_set(&err, CUZK_ERR_INVALID_ARG, "--miner-id and --sector-num go together");
    else {
        /* a wrapped C1 names its sector: --miner-id alone is checked with it */
        const uint64_t *sector = a->has_sector_num ? &a->sector_num : info.wrapped ? &info.sector_num : NULL;
        st = cuzk_porep_c1_check_sector(c1, size, &info, sector, a->has_miner_id ? &a->miner_id : NULL, &err);
    }
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s: %s\n", who, a->c1, err.msg);
        cuzk_fc_c1_free(c1);
        return EXIT_BAD;
    }
    return 0;
}

/* The keys (the .params too when proving) of the C1's circuit: EXIT_BAD with a message on any problem. */
static int open_keys(cuzk_porep_keys_t *keys, const args_t *a, const cuzk_fc_c1_t *c1, bool with_params,
                     const char *who)
{
    cuzk_err_t err = {{0}};
    if (cuzk_porep_keys_open(keys, a->params, c1->proof, with_params, a->threads, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return EXIT_BAD;
    }
    if (keys->dev)
        cuzk_porep_dev_warning(who, keys->paths.stem);
    return 0;
}

static int write_file(const char *path, const uint8_t *buf, size_t len, const char *who)
{
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) {
        fprintf(stderr, "%s: out of memory\n", who);
        return EXIT_BAD;
    }
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, len, f) == len;
    if (f)
        ok = (fclose(f) == 0) && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", who, path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : EXIT_BAD;
}

static double s_since(uint64_t t0) { return (double)(cuzk_now_ns() - t0) / 1e9; }

static int cmd_prove(int argc, char **argv)
{
    static const char *who = "cuzk porep prove";
    args_t a;
    int rc = parse_args(&a, "prove", argc, argv);
    if (rc)
        return rc;
    uint64_t t_all = cuzk_now_ns(), t0 = t_all;
    cuzk_fc_c1_t c1;
    if ((rc = load_c1(&c1, &a, who)) != 0)
        return rc;
    double parse_s = s_since(t0);
    cuzk_timing_report("porep_parse_c1", t0);
    cuzk_err_t err = {{0}};
    cuzk_porep_keys_t keys;
    memset(&keys, 0, sizeof keys);
    cuzk_groth16_proof_t *proofs = calloc(c1.n_partitions, sizeof *proofs);
    uint8_t *bytes = malloc((size_t)c1.n_partitions * CUZK_GROTH16_PROOF_BYTES);
    double load_s = 0, verify_s = 0;
    cuzk_porep_timings_t tm = {0};
    rc = (!proofs || !bytes) ? EXIT_BAD : 0;
    if (!rc) {
        t0 = cuzk_now_ns();
        rc = open_keys(&keys, &a, &c1, true, who);
        load_s = s_since(t0);
        cuzk_timing_report("porep_load_params", t0);
    }
    cuzk_porep_prove_opts_t po = {.threads = a.threads, .synth = a.synth};
    if (!rc && cuzk_porep_prove(proofs, &c1, keys.pk, &po, &tm, &err) != CUZK_OK) {
        /* challenges that are not the seed's, a witness the circuit cannot take: bad input */
        fprintf(stderr, "%s: %s\n", who, err.msg);
        rc = EXIT_BAD;
    }
    if (!rc) {
        t0 = cuzk_now_ns();
        bool valid = false;
        if (cuzk_porep_verify(&valid, &c1, &keys.vk, proofs, c1.n_partitions, &err) != CUZK_OK) {
            fprintf(stderr, "%s: verify: %s\n", who, err.msg);
            rc = EXIT_INVALID;
        } else if (!valid) {
            fprintf(stderr, "%s: the proof does not verify with %s; nothing written\n", who, keys.paths.vk);
            rc = EXIT_INVALID;
        }
        verify_s = s_since(t0);
        cuzk_timing_report("porep_verify", t0);
    }
    cuzk_porep_keys_close(&keys);
    if (!rc) {
        cuzk_groth16_proofs_write(bytes, proofs, c1.n_partitions);
        rc = write_file(a.out, bytes, (size_t)c1.n_partitions * CUZK_GROTH16_PROOF_BYTES, who);
    }
    if (!rc) {
        printf("%s: %s, %u partition(s), %" PRIu64 " constraints each, proof %s (%u bytes), verified\n", who,
               c1.proof->name, c1.n_partitions, tm.constraints, a.out,
               c1.n_partitions * CUZK_GROTH16_PROOF_BYTES);
        printf("time: parse %.2f s, params %.2f s, synth %.2f s, prove %.2f s, verify %.3f s, total %.2f s\n",
               parse_s, load_s, tm.synth_ms / 1e3, tm.prove_ms / 1e3, verify_s, s_since(t_all));
    }
    free(proofs);
    free(bytes);
    cuzk_fc_c1_free(&c1);
    return rc;
}

/* The proof file: EXIT_BAD with a message when it cannot be read or is not whole 192-byte proofs. */
static int read_proof_file(uint8_t **buf, size_t *len, const char *path, const char *who)
{
    FILE *f = fopen(path, "rb");
    long sz = -1;
    *buf = NULL;
    *len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (sz = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && sz <= 1 << 20 &&
        (*buf = malloc((size_t)sz + 1)) && fread(*buf, 1, (size_t)sz, f) == (size_t)sz)
        *len = (size_t)sz;
    else {
        fprintf(stderr, "%s: %s: cannot read the proof%s\n", who, path, sz > 1 << 20 ? " (larger than any sector's)" : "");
        free(*buf);
        *buf = NULL;
    }
    if (f)
        fclose(f);
    if (*buf && (*len == 0 || *len % CUZK_GROTH16_PROOF_BYTES)) {
        fprintf(stderr, "%s: %s: %zu bytes, not a whole number of %d-byte proofs\n", who, path, *len,
                CUZK_GROTH16_PROOF_BYTES);
        free(*buf);
        *buf = NULL;
    }
    return *buf ? 0 : EXIT_BAD;
}

static int cmd_verify(int argc, char **argv)
{
    static const char *who = "cuzk porep verify";
    args_t a;
    int rc = parse_args(&a, "verify", argc, argv);
    if (rc)
        return rc;
    cuzk_fc_c1_t c1;
    if ((rc = load_c1(&c1, &a, who)) != 0)
        return rc;
    uint64_t t0 = cuzk_now_ns();
    cuzk_err_t err = {{0}};
    cuzk_porep_keys_t keys;
    memset(&keys, 0, sizeof keys);
    uint8_t *buf = NULL;
    cuzk_groth16_proof_t *proofs = NULL;
    size_t len = 0, n = 0;
    rc = open_keys(&keys, &a, &c1, false, who);
    if (!rc)
        rc = read_proof_file(&buf, &len, a.proof, who);
    bool valid = false;
    if (!rc) {
        n = len / CUZK_GROTH16_PROOF_BYTES;
        proofs = calloc(n, sizeof *proofs);
        if (!proofs) {
            fprintf(stderr, "%s: out of memory\n", who);
            rc = EXIT_BAD;
        } else if (n != c1.n_partitions) {
            fprintf(stderr, "%s: %s holds %zu proofs, %s has %u partitions\n", who, a.proof, n, c1.proof->name,
                    c1.n_partitions);
        } else if (cuzk_groth16_proofs_read(proofs, n, &n, buf, len, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s: %s\n", who, a.proof, err.msg); /* not a proof: invalid */
        } else if (cuzk_porep_verify(&valid, &c1, &keys.vk, proofs, n, &err) != CUZK_OK) {
            fprintf(stderr, "%s: %s\n", who, err.msg);
            rc = EXIT_BAD;
        }
    }
    if (!rc) {
        cuzk_timing_report("porep_verify", t0);
        printf("%s: %s: %s (%s, %u partition(s), %.3f s)\n", who, a.proof, valid ? "valid" : "INVALID",
               c1.proof->name, c1.n_partitions, s_since(t0));
        rc = valid ? EXIT_GOOD : EXIT_INVALID;
    }
    cuzk_porep_keys_close(&keys);
    free(proofs);
    free(buf);
    cuzk_fc_c1_free(&c1);
    return rc;
}

int cuzk_porep_cmd(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "prove") == 0)
        return cmd_prove(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "verify") == 0)
        return cmd_verify(argc - 1, argv + 1);
    fprintf(stderr, "cuzk porep: expected 'prove' or 'verify'\nusage:\n");
    cuzk_porep_cmd_usage(stderr);
    return EXIT_BAD;
}
