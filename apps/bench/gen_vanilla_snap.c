/* cuzk-bench gen-vanilla snap (gen_vanilla_snap.h): synthetic proofs from the testkit, or a real sector made
 * in a temporary directory beside the output (cuzk seal's CC sector, cuzk snap encode's update directory,
 * cuzk snap vanilla's proofs, as the library's public calls make them), removed afterwards. */
#include "bench/gen_vanilla_snap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk/file.h"
#include "cuzk/porep.h"
#include "cuzk/seal.h"
#include "cuzk/snap.h"
#include "filecoin/vanilla/snap_vproof_write.h"
#include "testkit/snap_synthetic.h"

static const char *prog = "cuzk-bench gen-vanilla snap", *usage_prog = "cuzk-bench gen-vanilla";

static int synthetic(uint8_t **buf, size_t *len, uint8_t comms[3][32], const cuzk_snap_registered_proof_t *p,
                     const gen_snap_args *a)
{
    cuzk_snap_config_t cfg;
    cuzk_fc_snap_synthetic_t s;
    cuzk_err_t err = {{0}};
    uint8_t comm_c[32];
    memcpy(comm_c, a->seed, 32);
    comm_c[31] &= 0x3f; /* below 2^254 < r */
    cuzk_status st = cuzk_snap_config_for_size(&cfg, p->sector_size, &err);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_synthetic(&s, &cfg, comm_c, a->seed, (int)a->threads, &err);
    if (st == CUZK_OK) {
        st = cuzk_fc_snap_vproof_list_join(buf, len, (const uint8_t *const *)s.data, s.len, s.n, &err);
        memcpy(comms[0], s.comm_r_old, 32);
        memcpy(comms[1], s.comm_d_new, 32);
        memcpy(comms[2], s.comm_r_new, 32);
        cuzk_fc_snap_synthetic_free(&s);
    }
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return 1;
    }
    return 0;
}

/* Removes a directory made here and the files it may hold. */
static void remove_dir(const char *dir)
{
    static const char *const names[] = {"sealed", "sc-02-data-tree-r-last.dat", "p_aux", "t_aux", "sector.json",
                                        "update", "sc-02-data-tree-d.dat", "update.json"};
    size_t n = strlen(dir) + 64;
    char *p = malloc(n);
    for (size_t i = 0; p && i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, n, "%s/%s", dir, names[i]);
        unlink(p);
    }
    free(p);
    rmdir(dir);
}

/* A CC sector sealed into tmp/key, random data encoded into tmp/update, its proofs. */
static int sealed(uint8_t **buf, size_t *len, uint8_t comms[3][32], const cuzk_snap_registered_proof_t *p,
                  const gen_snap_args *a, const char *tmp)
{
    cuzk_err_t err = {{0}};
    size_t dl = strlen(tmp) + 16, raw_len = (size_t)(p->sector_size / 128 * 127);
    char *key = malloc(dl), *up = malloc(dl);
    uint8_t *raw = malloc(raw_len);
    cuzk_porep_registered_proof_t seal;
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%sV1_1", p->size_name);
    cuzk_status st = !key || !up || !raw ? cuzk_err_set(&err, CUZK_ERR_NO_MEMORY, "out of memory")
                                         : cuzk_porep_registered_proof_parse(&seal, name, &err);
    cuzk_sealed_sector_t *s = NULL;
    if (st == CUZK_OK) {
        snprintf(key, dl, "%s/key", tmp);
        snprintf(up, dl, "%s/update", tmp);
        cuzk_seal_request_t req = {.proof_id = seal.id, .miner_id = 1000, .sector_num = 1, .threads = (int)a->threads};
        if (cli_os_random(req.ticket, 32) || cli_os_random(raw, raw_len))
            st = cuzk_err_set(&err, CUZK_ERR_IO, "getrandom: %s", strerror(errno));
        else
            st = cuzk_seal_precommit(&s, &req, &err);
    }
    if (st == CUZK_OK)
        st = cuzk_seal_write_sector(s, key, &err);
    cuzk_seal_free(s);
    cuzk_seal_snap_info_t info;
    if (st == CUZK_OK)
        st = cuzk_seal_snap_encode(key, raw, raw_len, up, (int)a->threads, &info, &err);
    if (st == CUZK_OK)
        st = cuzk_seal_snap_vanilla(buf, len, up, key, (int)a->threads, &err);
    if (st == CUZK_OK) {
        memcpy(comms[0], info.comm_r_old, 32);
        memcpy(comms[1], info.comm_d_new, 32);
        memcpy(comms[2], info.comm_r_new, 32);
    }
    if (key && up) {
        remove_dir(up);
        remove_dir(key);
    }
    free(key);
    free(up);
    free(raw);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return 1;
    }
    return 0;
}

int bench_gen_vanilla_snap(const gen_snap_args *a)
{
    cuzk_snap_registered_proof_t p;
    cuzk_err_t err = {{0}};
    if (a->proof_name ? cuzk_snap_registered_proof_parse(&p, a->proof_name, &err) != CUZK_OK
                      : cuzk_snap_registered_proof_for_size(&p, a->size, &err) != CUZK_OK)
        return cli_usage_error(usage_prog, "%s", err.msg);
    if (a->have_size && a->size != p.sector_size)
        return cli_usage_error(usage_prog, "%s updates %" PRIu64 "-byte sectors, not %" PRIu64, p.name, p.sector_size,
                               a->size);
    if (!a->synthetic && p.sector_size > (512u << 20))
        return cli_usage_error(usage_prog, "%s sectors are not sealed here: use --synthetic", p.size_name);
    uint8_t *buf = NULL, comms[3][32];
    size_t len = 0;
    double t0 = cli_now();
    int rc;
    if (a->synthetic) {
        rc = synthetic(&buf, &len, comms, &p, a);
    } else {
        char *tmp = cli_temp_dir_beside(prog, a->out, "gen-vanilla");
        rc = tmp ? sealed(&buf, &len, comms, &p, a, tmp) : 1;
        if (tmp)
            rmdir(tmp);
        free(tmp);
    }
    double t1 = cli_now();
    if (!rc && cuzk_atomic_write_file(a->out, buf, len, &err) != CUZK_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = 1;
    }
    if (!rc) {
        char h[3][65];
        for (int i = 0; i < 3; i++)
            cli_hex32_format(h[i], comms[i]);
        printf("comm_r_old=%s comm_d_new=%s comm_r_new=%s\n", h[0], h[1], h[2]);
        printf("%s: %u %s partition proofs, %zu bytes, made in %.3f s; wrote %s\n", p.name, p.partitions,
               a->synthetic ? "synthetic" : "sealed", len, t1 - t0, a->out);
    }
    free(buf);
    return rc;
}
