/* `cuzk params generate`: development Groth16 parameters for the PoRep circuit by a fresh random setup,
 * under Filecoin's v28 file names so that a directory of real parameters is used the same way. A
 * <stem>.cuzk-dev file marks them as NOT a trusted setup; existing files of the right shape are reused. */
#include "cli_util.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/params.h"
#include "cuzk_porep_cmd.h"
#include "filecoin/registry/params_names.h"
#include "filecoin/porep/porep_prove.h"
#include "util/timer.h"

void cuzk_params_generate_usage(FILE *f)
{
    fprintf(f, "  params generate --kind porep --sector-size <2KiB|8MiB|512MiB|32GiB|64GiB> --out DIR\n"
               "                  [--registered-proof NAME] [--threads N]\n"
               "              development parameters (random setup, NOT trusted) under v28 names;\n"
               "              files of the right shape already in DIR are reused\n");
}

static int usage_error(const char *msg)
{
    fprintf(stderr, "cuzk params generate: %s\nusage:\n", msg);
    cuzk_params_generate_usage(stderr);
    return 2;
}

/* 0: the files are there and have cfg's shape; 1: absent or of another shape; 2: unreadable. */
static int existing_ok(const cuzk_porep_params_paths_t *pp, const cuzk_porep_config_t *cfg)
{
    if (!cuzk_porep_file_exists(pp->params) || !cuzk_porep_file_exists(pp->vk))
        return 1;
    cuzk_err_t err = {{0}};
    cuzk_params_t *p = NULL;
    cuzk_groth16_vk_t vk;
    memset(&vk, 0, sizeof vk);
    int rc = 0;
    if (cuzk_params_open(&p, pp->params, CUZK_PARAMS_CHECK_NONE, 1, &err) != CUZK_OK ||
        cuzk_params_vk_read(&vk, pp->vk, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        rc = 2;
    } else if (cuzk_porep_check_key(cuzk_params_key(p), cfg, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s: %s\n", pp->params, err.msg);
        rc = 1;
    } else if (vk.ic_len != cuzk_params_key(p)->vk.ic_len) {
        fprintf(stderr, "cuzk params generate: %s: %zu inputs, %s has %zu\n", pp->vk, vk.ic_len, pp->params,
                cuzk_params_key(p)->vk.ic_len);
        rc = 1;
    }
    cuzk_groth16_vk_free(&vk);
    cuzk_params_close(p);
    return rc;
}

static int write_marker(const char *path, const char *proof_name)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    int bad = fprintf(f, "development parameters for %s: random setup by cuzk params generate, NOT a trusted "
                         "setup; proofs made with them are worthless on chain\n",
                      proof_name) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int cuzk_params_generate_cmd(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *out = NULL, *proof_name = NULL;
    int threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            return usage_error("every option needs a value");
        const char *v = argv[++i];
        if (strcmp(a, "--kind") == 0)
            kind = v;
        else if (strcmp(a, "--sector-size") == 0)
            size = v;
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--registered-proof") == 0)
            proof_name = v;
        else if (strcmp(a, "--threads") == 0) {
            char *end;
            long t = strtol(v, &end, 10);
            if (!*v || *end || t < 0 || t > 4096)
                return usage_error("--threads expects a number (0 = every CPU)");
            threads = (int)t;
        } else
            return usage_error("unknown option");
    }
    if (!kind || strcmp(kind, "porep") != 0)
        return usage_error("--kind porep is required (the only kind so far)");
    if (!out || (!size && !proof_name))
        return usage_error("--out and --sector-size (or --registered-proof) are required");
    uint64_t bytes = size ? cli_parse_sector_size(size) : 0;
    if (size && !bytes)
        return usage_error("--sector-size expects 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    cuzk_err_t err = {{0}};
    const cuzk_fc_seal_proof_t *proof = NULL;
    if (proof_name) {
        if (cuzk_fc_seal_proof_parse(&proof, proof_name, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk params generate: %s\n", err.msg);
            return 2;
        }
        if (bytes && proof->sector_size != bytes) {
            fprintf(stderr, "cuzk params generate: --sector-size %s disagrees with %s\n", size, proof->name);
            return 2;
        }
    } else {
        /* every registered version of a size shares the circuit and its files */
        const cuzk_fc_seal_proof_t *t = cuzk_fc_seal_proofs();
        for (size_t i = 0; i < CUZK_FC_SEAL_PROOF_COUNT && !proof; i++)
            if (t[i].sector_size == bytes)
                proof = &t[i];
        if (!proof) {
            fprintf(stderr, "cuzk params generate: no registered proof for sector size %s\n", size);
            return 2;
        }
    }
    cuzk_porep_config_t cfg;
    if (cuzk_porep_config_for_proof(&cfg, NULL, proof->name, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        return 2;
    }
    cuzk_porep_params_paths_t pp;
    if (cuzk_porep_params_paths(&pp, out, proof, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        return 2;
    }
    int ex = existing_ok(&pp, &cfg);
    if (ex == 2)
        return 2;
    bool dev = cuzk_porep_file_exists(pp.dev);
    if (ex == 0) {
        printf("%s: reusing %s.{params,vk}\n", out, pp.stem);
        if (dev)
            cuzk_porep_dev_warning("cuzk params generate", pp.stem);
        return 0;
    }
    if (cuzk_porep_file_exists(pp.params) && !dev) {
        fprintf(stderr, "cuzk params generate: %s is not a development file of this circuit's shape; "
                        "refusing to overwrite it\n", pp.params);
        return 2;
    }
    if (cli_make_dirs(out) != 0) {
        fprintf(stderr, "cuzk params generate: %s: cannot create the directory: %s\n", out, strerror(errno));
        return 2;
    }
    uint64_t t0 = cuzk_now_ns();
    cuzk_groth16_pk_t pk;
    if (cuzk_porep_dev_setup(&pk, &cfg, threads, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: setup: %s\n", err.msg);
        return 1;
    }
    double setup_s = (double)(cuzk_now_ns() - t0) / 1e9;
    uint64_t t1 = cuzk_now_ns();
    /* the marker goes first: development files never exist without it */
    cuzk_status st = CUZK_OK;
    if (write_marker(pp.dev, proof->name) != 0)
        st = cuzk_err_set(&err, CUZK_ERR_IO, "%s: cannot write: %s", pp.dev, strerror(errno));
    if (st == CUZK_OK)
        st = cuzk_params_write(pp.params, &pk, threads, &err);
    if (st == CUZK_OK)
        st = cuzk_params_vk_write(pp.vk, &pk.vk, &err);
    double write_s = (double)(cuzk_now_ns() - t1) / 1e9;
    uint64_t file_size = cuzk_params_file_size(&pk);
    cuzk_groth16_pk_free(&pk);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk params generate: %s\n", err.msg);
        unlink(pp.params);
        unlink(pp.vk);
        unlink(pp.dev);
        return 1;
    }
    printf("%s: wrote %s.params (%" PRIu64 " bytes), .vk, .cuzk-dev for %s\n", out, pp.stem, file_size,
           proof->name);
    printf("time: setup %.2f s, write %.2f s\n", setup_s, write_s);
    cuzk_porep_dev_warning("cuzk params generate", pp.stem);
    return 0;
}
