/* cuzk seal: pads the data (or random bytes), seals the sector in memory, derives the challenges of the seed
 * and writes the C1 JSON and Curio's wrapper, each through a temporary file. Missing randomness is drawn
 * from the OS; prover_id follows from the miner id as filecoin-ffi derives it. */
#include "cuzk_seal_cmd.h"
#include "cli_util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "filecoin/vanilla/c1_json.h"
#include "filecoin/registry/registered_proof.h"
#include "filecoin/sdr/porep_inputs.h"
#include "filecoin/seal/seal.h"

void cuzk_seal_cmd_usage(FILE *f)
{
    fprintf(f, "  seal        seal a 2KiB/8MiB/512MiB sector and write its C1 output:\n"
               "              cuzk seal --sector-size <2KiB|8MiB|512MiB> --out DIR [--data FILE] [--miner-id N]\n"
               "                        [--sector-num N] [--ticket HEX] [--seed HEX] [--registered-proof NAME]\n"
               "                        [--threads N]\n");
}

static int os_random(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = getrandom(p, n, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static void print_hex(const char *label, const uint8_t b[32])
{
    printf("%s", label);
    for (int i = 0; i < 32; i++)
        printf("%02x", b[i]);
    printf("\n");
}

int cuzk_seal_cmd(int argc, char **argv)
{
    const char *size = NULL, *out = NULL, *data = NULL, *proof_name = NULL;
    uint64_t miner = 1000, sector = 1, threads = 0;
    uint8_t ticket[32], seed[32];
    int have_ticket = 0, have_seed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "cuzk seal: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--sector-size") == 0)
            size = v;
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--data") == 0)
            data = v;
        else if (strcmp(a, "--registered-proof") == 0)
            proof_name = v;
        else if (strcmp(a, "--miner-id") == 0 && cli_parse_u64(v, &miner) == 0)
            ;
        else if (strcmp(a, "--sector-num") == 0 && cli_parse_u64(v, &sector) == 0)
            ;
        else if (strcmp(a, "--threads") == 0 && cli_parse_u64(v, &threads) == 0 && threads < 4096)
            ;
        else if (strcmp(a, "--ticket") == 0 && cli_hex32(ticket, v) == 0)
            have_ticket = 1;
        else if (strcmp(a, "--seed") == 0 && cli_hex32(seed, v) == 0)
            have_seed = 1;
        else {
            fprintf(stderr, "cuzk seal: bad option or value: %s %s\n", a, v);
            return 2;
        }
    }
    if (!out || (!size && !proof_name)) {
        fprintf(stderr, "cuzk seal: --out and --sector-size (or --registered-proof) are required\n");
        cuzk_seal_cmd_usage(stderr);
        return 2;
    }
    char name[64];
    if (!proof_name) {
        snprintf(name, sizeof name, "StackedDrg%sV1_1", size);
        proof_name = name;
    }
    const cuzk_fc_seal_proof_t *p;
    cuzk_err_t err;
    if (cuzk_fc_seal_proof_parse(&p, proof_name, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk seal: %s\n", err.msg);
        return 2;
    }
    if (size && strcmp(size, p->size_name) != 0) {
        fprintf(stderr, "cuzk seal: --sector-size %s disagrees with %s\n", size, p->name);
        return 2;
    }
    if ((!have_ticket && os_random(ticket, 32)) || (!have_seed && os_random(seed, 32))) {
        fprintf(stderr, "cuzk seal: getrandom: %s\n", strerror(errno));
        return 1;
    }
    size_t raw_len = (size_t)(p->sector_size / 128 * 127);
    uint8_t *raw = calloc(1, raw_len);
    if (!raw) {
        fprintf(stderr, "cuzk seal: out of memory\n");
        return 1;
    }
    if (data) {
        FILE *f = fopen(data, "rb");
        if (!f) {
            fprintf(stderr, "cuzk seal: %s: %s\n", data, strerror(errno));
            free(raw);
            return 2;
        }
        size_t n = fread(raw, 1, raw_len, f);
        int more = fgetc(f) != EOF;
        fclose(f);
        if (more) {
            fprintf(stderr, "cuzk seal: %s: more than the %zu unpadded bytes a %s sector holds\n", data, raw_len,
                    p->size_name);
            free(raw);
            return 2;
        }
        (void)n; /* a shorter file is followed by zeros, as a sector with one piece and padding */
    } else if (os_random(raw, raw_len)) {
        fprintf(stderr, "cuzk seal: getrandom: %s\n", strerror(errno));
        free(raw);
        return 1;
    }
    uint8_t prover[32];
    cuzk_fc_prover_id_from_miner(prover, miner);
    cuzk_fc_sealed_t s;
    double t0 = cli_now();
    cuzk_status st = cuzk_fc_seal_precommit(&s, p, prover, sector, ticket, raw, (int)threads, &err);
    free(raw);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk seal: %s\n", err.msg);
        return 1;
    }
    double t1 = cli_now();
    cuzk_fc_c1_t c1;
    st = cuzk_fc_seal_commit1(&c1, &s, seed, &err);
    cuzk_fc_sealed_free(&s);
    if (st == CUZK_OK)
        st = cuzk_fc_c1_verify(&c1, &err);
    char *json = NULL, *wrap = NULL;
    size_t jl = 0, wl = 0;
    if (st == CUZK_OK)
        st = cuzk_fc_c1_json_write(&json, &jl, &c1, &err);
    if (st == CUZK_OK)
        st = cuzk_fc_c1_wrapper_write(&wrap, &wl, json, jl, sector, p->sector_size, &err);
    size_t ol = strlen(out) + 32;
    char *path = malloc(ol);
    if (st == CUZK_OK && path && cli_make_dirs(out) != 0)
        st = cuzk_err_set(&err, CUZK_ERR_IO, "%s: cannot create the directory: %s", out, strerror(errno));
    if (st == CUZK_OK && path) {
        snprintf(path, ol, "%s/c1.json", out);
        st = cuzk_fc_c1_save(path, json, jl, &err);
        if (st == CUZK_OK) {
            snprintf(path, ol, "%s/c1-wrapper.json", out);
            st = cuzk_fc_c1_save(path, wrap, wl, &err);
            if (st != CUZK_OK) { /* both files or neither */
                snprintf(path, ol, "%s/c1.json", out);
                unlink(path);
            }
        }
    }
    double t2 = cli_now();
    int rc = 0;
    if (st != CUZK_OK || !path) {
        fprintf(stderr, "cuzk seal: %s\n", path ? err.msg : "out of memory");
        rc = 1;
    } else {
        printf("registered_proof: %s\nsector: %" PRIu64 " (miner %" PRIu64 ")\n", p->name, sector, miner);
        print_hex("comm_d: ", c1.comm_d);
        print_hex("comm_r: ", c1.comm_r);
        print_hex("ticket: ", c1.ticket);
        print_hex("seed: ", c1.seed);
        printf("c1.json: %zu bytes, c1-wrapper.json: %zu bytes\n", jl, wl);
        printf("time: precommit %.1f ms, commit1 %.1f ms, total %.1f ms\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3,
               (t2 - t0) * 1e3);
    }
    free(path);
    free(json);
    free(wrap);
    cuzk_fc_c1_free(&c1);
    return rc;
}
