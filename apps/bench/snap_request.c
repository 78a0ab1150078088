/* bench_snap_synthetic_request (snap_request.h): the testkit's synthetic partitions, parsed by the public
 * decoder into a request as `cuzk snap prove` builds one. */
#include "bench/snap_request.h"

#include <stdio.h>
#include <string.h>

#include "testkit/snap_synthetic.h"

int bench_snap_synthetic_request(bench_snap_request_t *out, uint64_t sector_size, int threads, char *msg,
                                 size_t msg_len)
{
    memset(out, 0, sizeof *out);
    cuzk_snap_registered_proof_t p;
    cuzk_snap_config_t cfg;
    cuzk_fc_snap_synthetic_t s;
    memset(&s, 0, sizeof s);
    cuzk_err_t err = {{0}};
    uint8_t comm_c[32], seed[32];
    for (int i = 0; i < 32; i++)
        comm_c[i] = (uint8_t)(7 * i + 1), seed[i] = (uint8_t)(13 * i + 5);
    comm_c[31] &= 0x3f; /* below 2^254 < r */
    cuzk_status st = cuzk_snap_registered_proof_for_size(&p, sector_size, &err);
    if (st == CUZK_OK)
        st = cuzk_snap_config_for_size(&cfg, sector_size, &err);
    if (st == CUZK_OK)
        st = cuzk_fc_snap_synthetic(&s, &cfg, comm_c, seed, threads, &err);
    for (size_t k = 0; st == CUZK_OK && k < s.n; k++)
        st = cuzk_snap_vanilla_parse(&out->parts[k], s.data[k], s.len[k], &err);
    if (st == CUZK_OK) {
        out->req.proof_id = p.id;
        memcpy(out->req.comm_r_old, s.comm_r_old, 32);
        memcpy(out->req.comm_d_new, s.comm_d_new, 32);
        memcpy(out->req.comm_r_new, s.comm_r_new, 32);
        out->req.vanilla = (const cuzk_snap_vanilla_t *const *)out->parts;
        out->req.n_vanilla = s.n;
    }
    cuzk_fc_snap_synthetic_free(&s);
    if (st != CUZK_OK) {
        snprintf(msg, msg_len, "%s", err.msg);
        bench_snap_request_free(out);
        return -1;
    }
    return 0;
}

void bench_snap_request_free(bench_snap_request_t *r)
{
    for (size_t k = 0; k < CUZK_SNAP_MAX_PARTITIONS; k++)
        cuzk_snap_vanilla_free(r->parts[k]);
    memset(r, 0, sizeof *r);
}
