/* cuzk-bench as the daemon's client: single, batch, submit / await / cancel, status, preload, evict,
 * metrics (cuzk.v1 over gRPC), with the original tool's output. A proof request is a PoRep C2 (a C1
 * output), a Winning / Window PoSt partition (the sectors' vanilla proofs with randomness, registered
 * proof, miner id and partition index, as `cuzk post prove` takes them) or a SnapDeals update (the vanilla
 * partition proofs, sent one per partition as Curio sends them, and the three commitments, as `cuzk snap
 * prove` takes them). Proofs can be checked offline
 * against a parameter directory's .vk (--verify-params DIR), so a benchmark also proves it got valid
 * proofs. */
#include "bench/client.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "cli_util.h"
#include "cuzk/v1/proving.pb-c.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "bench/snap_parts.h"
#include "server/rpc_client.h"

#define METHOD(name) "/cuzk.v1.ProvingEngine/" name

typedef enum { KIND_POREP, KIND_WINNING, KIND_WINDOW, KIND_SNAP } req_kind;

/* --type / --kind: the original tool's names and cuzk post's; -1 for another. */
static int parse_kind(const char *t)
{
    static const struct {
        const char *name;
        req_kind kind;
    } names[] = {{"porep", KIND_POREP},          {"porep-c2", KIND_POREP},       {"seal-commit", KIND_POREP},
                 {"winning", KIND_WINNING},      {"winning-post", KIND_WINNING}, {"winningpost", KIND_WINNING},
                 {"window", KIND_WINDOW},        {"wpost", KIND_WINDOW},         {"window-post", KIND_WINDOW},
                 {"windowpost", KIND_WINDOW},    {"snap", KIND_SNAP},            {"snap-deals", KIND_SNAP},
                 {"snapdeals", KIND_SNAP},       {"update", KIND_SNAP}};
    if (!t)
        return KIND_POREP;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(t, names[i].name) == 0)
            return (int)names[i].kind;
    return -1;
}

/* Vanilla proofs no PoSt partition exceeds (Window 32GiB: 2349 sectors). */
#define MAX_VANILLA 4096

typedef struct {
    const char *addr;
    const char *type, *c1, *verify_params, *request_id, *job, *circuit, *registered_proof;
    uint64_t sector_num, miner_id, sector_size, count, concurrency, timeout_ms, partition;
    bool has_sector_num;
    int priority;
    cli_list vanilla;
    uint8_t randomness[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    bool has_comm[3];
    req_kind kind;
} opts_t;

static int bad(const char *fmt, const char *a)
{
    fprintf(stderr, "cuzk-bench: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    return 2;
}

enum { FOR_PROVE = 1, FOR_BATCH = 2, FOR_JOB = 4, FOR_AWAIT = 8, FOR_SRS = 16 };

/* The options of client command cmd (argv[0]) into o; CLI_CONTINUE, or the exit code. */
static int parse_opts(opts_t *o, int argc, char **argv)
{
    static const char *const priorities[] = {"unspecified", "low", "normal", "high", "critical", NULL};
    static const struct {
        const char *cmd;
        unsigned mask;
        const char *about;
    } cmds[] = {
        {"single", FOR_PROVE, "One proof (Prove), optionally checked offline with a parameter directory's .vk.\n"},
        {"batch", FOR_PROVE | FOR_BATCH, "COUNT proofs, CONCURRENCY at a time: throughput.\n"},
        {"submit", FOR_PROVE, "Queues a job (SubmitProof) and prints its id.\n"},
        {"await", FOR_JOB | FOR_AWAIT, "Waits for a job's result (AwaitProof).\n"},
        {"cancel", FOR_JOB, "Cancels a job (CancelProof).\n"},
        {"status", 0, "The engine's status (GetStatus).\n"},
        {"metrics", 0, "The engine's metrics in Prometheus text (GetMetrics).\n"},
        {"preload", FOR_SRS, "Loads a circuit's parameters (PreloadSRS).\n"},
        {"evict", FOR_SRS, "Evicts a circuit's parameters (EvictSRS).\n"},
    };
    const cli_opt all[] = {
        CLI_STR_OPT("type", 't', &o->type, "TYPE",
                    "the proof kind: porep (porep-c2, seal-commit; the default), winning (winning-post), window "
                    "(wpost, window-post) or snap (snap-deals, update)"),
        CLI_STR_OPT("kind", 0, &o->type, "KIND", "the same as --type"),
        CLI_STR_OPT("c1", 0, &o->c1, "FILE", "PoRep: the C1 output (bare or Curio's wrapper)"),
        CLI_LIST_OPT("vanilla", 0, &o->vanilla, "FILE", MAX_VANILLA,
                     "PoSt: a sector's vanilla proof (bincode); Window: one per sector of the partition, in order; "
                     "SnapDeals: the partition proofs (a Vec<PartitionProof> file, or one file per partition)"),
        CLI_HEX32_OPT("comm-r-old", 0, o->comm_r_old, "SnapDeals: the sector key's comm_r (32 bytes, hex)",
                      .seen = &o->has_comm[0]),
        CLI_HEX32_OPT("comm-d-new", 0, o->comm_d_new, "SnapDeals: the new data's comm_d", .seen = &o->has_comm[1]),
        CLI_HEX32_OPT("comm-r-new", 0, o->comm_r_new, "SnapDeals: the updated sector's comm_r",
                      .seen = &o->has_comm[2]),
        CLI_HEX32_OPT("randomness", 0, o->randomness, "PoSt: the challenge randomness (32 bytes; default zeros)"),
        CLI_STR_OPT("registered-proof", 0, &o->registered_proof, "NAME",
                    "PoSt / SnapDeals: the registered PoSt or update proof, name or number (default: the one of "
                    "--sector-size)"),
        CLI_U64_OPT("partition-index", 0, &o->partition, "K", 0, UINT32_MAX, "Window PoSt: the partition (default 0)"),
        CLI_U64_OPT("partition", 0, &o->partition, "K", 0, UINT32_MAX, NULL),
        CLI_U64_OPT("sector-num", 0, &o->sector_num, "N", 0, 0,
                    "PoRep: the sector number (default: the wrapper's, or 1)", .seen = &o->has_sector_num),
        CLI_U64_OPT("miner-id", 0, &o->miner_id, "N", 0, 0, "the miner id (default 1000)"),
        CLI_SIZE_OPT("sector-size", 0, &o->sector_size,
                     "the sector size, 2KiB...64GiB or bytes (default: the C1's; PoSt: the registered proof's)"),
        CLI_CHOICE_OPT("priority", 0, &o->priority, priorities, "the job's priority (default: by proof kind)"),
        CLI_STR_OPT("request-id", 0, &o->request_id, "ID", "the request id"),
        CLI_STR_OPT("verify-params", 0, &o->verify_params, "DIR", "check each proof offline with DIR's .vk"),
        CLI_U64_OPT("count", 'c', &o->count, "COUNT", 0, 0, "proofs in all (default 3)"),
        CLI_U64_OPT("concurrency", 'j', &o->concurrency, "N", 0, 256, "proofs at a time (default 1)"),
        CLI_STR_OPT("job", 0, &o->job, "ID", "the job id", .required = true),
        CLI_U64_OPT("timeout-ms", 0, &o->timeout_ms, "N", 0, 0, "how long to wait (default: until done)"),
        CLI_STR_OPT("circuit-id", 'c', &o->circuit, "ID",
                    "porep-, winning-, wpost- or snap- with 2k, 8m, 512m, 32g or 64g (e.g. porep-32g, snap-32g)",
                    .required = true),
    };
    static const unsigned masks[] = {FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE,
                                     FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_PROVE,
                                     FOR_PROVE, FOR_PROVE, FOR_PROVE, FOR_BATCH, FOR_BATCH, FOR_JOB, FOR_AWAIT,
                                     FOR_SRS};
    _Static_assert(sizeof masks / sizeof masks[0] == sizeof all / sizeof all[0], "a mask per option");
    size_t k = 0;
    while (strcmp(cmds[k].cmd, argv[0]) != 0)
        k++; /* bench_client_command said it is one of them */
    cli_opt table[sizeof all / sizeof all[0] + 1];
    size_t n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (masks[i] & cmds[k].mask)
            table[n++] = all[i];
    table[n] = (cli_opt)CLI_END;
    char prog[64];
    snprintf(prog, sizeof prog, "cuzk-bench %s", cmds[k].cmd);
    const cli_cmd c = {prog, NULL, cmds[k].about, table, 0, 0, NULL};
    int rc = cli_parse(&c, argc, argv, NULL, NULL);
    if (rc != CLI_CONTINUE || !(cmds[k].mask & FOR_PROVE))
        return rc;
    /* what a proof request of each kind needs */
    int kind = parse_kind(o->type);
    if (kind < 0)
        return cli_usage_error(prog, "--type/--kind %s: porep (porep-c2, seal-commit), winning (winning-post), "
                                     "window (wpost, window-post) or snap (snap-deals, update)", o->type);
    o->kind = (req_kind)kind;
    bool comms = o->has_comm[0] || o->has_comm[1] || o->has_comm[2];
    if (o->kind == KIND_SNAP && !(o->has_comm[0] && o->has_comm[1] && o->has_comm[2]))
        return cli_usage_error(prog, "a SnapDeals update needs --comm-r-old, --comm-d-new and --comm-r-new");
    if (o->kind != KIND_SNAP && comms)
        return cli_usage_error(prog, "--comm-r-old, --comm-d-new and --comm-r-new are for a SnapDeals update "
                                     "(--kind snap)");
    if (o->kind == KIND_POREP && !o->c1)
        return cli_usage_error(prog, "--c1 is required");
    if (o->kind == KIND_POREP && o->vanilla.n)
        return cli_usage_error(prog, "--vanilla is for a PoSt (--kind winning|window); a PoRep takes --c1");
    if (o->kind != KIND_POREP && !o->vanilla.n)
        return cli_usage_error(prog, o->kind == KIND_SNAP ? "--vanilla is required for a SnapDeals update"
                                                          : "--vanilla is required for a PoSt (one per sector)");
    if (o->kind != KIND_POREP && o->c1)
        return cli_usage_error(prog, "--c1 is for a PoRep; a PoSt or SnapDeals update takes --vanilla");
    if (o->kind != KIND_POREP && !o->registered_proof && !o->sector_size)
        return cli_usage_error(prog, "a PoSt or SnapDeals update needs --registered-proof or --sector-size");
    return CLI_CONTINUE;
}

/* A whole file (at least one byte), or NULL after a message. */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    else {
        if (n == 0)
            fprintf(stderr, "cuzk-bench: %s: empty file\n", path);
        else
            perror(path);
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* The C1 file, and the sector number of its Curio wrapper when it has one. */
static uint8_t *read_c1(const char *path, size_t *len, uint64_t *wrapped_sector)
{
    uint8_t *buf = read_file(path, len);
    const char *key = "{\"SectorNum\":";
    if (buf && *len > strlen(key) && memcmp(buf, key, strlen(key)) == 0)
        *wrapped_sector = strtoull((const char *)buf + strlen(key), NULL, 10);
    return buf;
}

typedef struct {
    req_kind kind;
    uint8_t *c1;                /* PoRep */
    size_t c1_len;
    cuzk_porep_c1_t *parsed;    /* for --verify-params */
    cuzk_porep_keys_t *keys;
    ProtobufCBinaryData *vanilla; /* PoSt: the sectors' proofs */
    size_t n_vanilla;
    cuzk_post_registered_proof_t post_proof;
    cuzk_post_vanilla_t **post_parsed; /* for --verify-params */
    cuzk_post_request_t post_req;
    cuzk_post_keys_t *post_keys;
    /* SnapDeals: the files (each a Vec<PartitionProof> or one proof) and the partition proofs in them */
    uint8_t **snap_files;
    size_t n_snap_files;
    cuzk_snap_registered_proof_t snap_proof;
    cuzk_snap_request_t snap_req; /* for --verify-params: no vanilla proofs (verification reads none) */
    cuzk_snap_keys_t *snap_keys;
    bool verify;
} request_t;

static const char *kind_label(req_kind k)
{
    return k == KIND_WINNING ? "winning-post" : k == KIND_WINDOW ? "window-post" : k == KIND_SNAP ? "snap-update"
                                                                                                  : "porep-c2";
}

static int load_porep(request_t *r, opts_t *o)
{
    uint64_t wrapped = 0;
    if (!(r->c1 = read_c1(o->c1, &r->c1_len, &wrapped)))
        return 2;
    if (!o->has_sector_num)
        o->sector_num = wrapped ? wrapped : 1;
    if (o->verify_params) {
        cuzk_err_t err = {{0}};
        cuzk_status st = cuzk_porep_c1_parse(&r->parsed, r->c1, r->c1_len, &err);
        if (st == CUZK_OK) {
            cuzk_porep_c1_info_t info;
            cuzk_porep_c1_info(&info, r->parsed);
            st = cuzk_porep_keys_load(&r->keys, o->verify_params, info.proof.id, false, 0, &err);
        }
        if (st != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: --verify-params: %s\n", err.msg);
            return 2;
        }
        r->verify = true;
    }
    return 0;
}

/* The registered PoSt proof the options name (or the one of the sector size), of the request's kind. */
static int post_proof(request_t *r, const opts_t *o)
{
    cuzk_err_t err = {{0}};
    cuzk_post_kind kind = r->kind == KIND_WINNING ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
    cuzk_status st;
    if (o->registered_proof)
        st = cuzk_post_registered_proof_parse(&r->post_proof, o->registered_proof, &err);
    else
        st = cuzk_post_registered_proof_for_size(&r->post_proof, kind, o->sector_size, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s\n", err.msg);
        return 2;
    }
    /* a proof of the other kind is sent as it is: the daemon's answer to it is worth seeing */
    if (o->sector_size && o->sector_size != r->post_proof.sector_size)
        fprintf(stderr, "cuzk-bench: note: --sector-size %" PRIu64 " is not %s's\n", o->sector_size,
                r->post_proof.name);
    return 0;
}

static int load_post(request_t *r, opts_t *o)
{
    int rc = post_proof(r, o);
    if (rc)
        return rc;
    if (!(r->vanilla = calloc(o->vanilla.n, sizeof *r->vanilla)))
        return bad("%s", "out of memory");
    r->n_vanilla = o->vanilla.n;
    for (size_t i = 0; i < o->vanilla.n; i++)
        if (!(r->vanilla[i].data = read_file(o->vanilla.items[i], &r->vanilla[i].len)))
            return 2;
    if (!o->verify_params)
        return 0;
    cuzk_err_t err = {{0}};
    if (!(r->post_parsed = calloc(r->n_vanilla, sizeof *r->post_parsed)))
        return bad("%s", "out of memory");
    for (size_t i = 0; i < r->n_vanilla; i++)
        if (cuzk_post_vanilla_parse(&r->post_parsed[i], r->vanilla[i].data, r->vanilla[i].len, &err) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: --verify-params: %s: %s\n", o->vanilla.items[i], err.msg);
            return 2;
        }
    cuzk_post_request_t *q = &r->post_req;
    q->proof_id = r->post_proof.id;
    memcpy(q->randomness, o->randomness, 32);
    q->miner_id = o->miner_id;
    q->partition_index = (uint32_t)o->partition;
    q->vanilla = (const cuzk_post_vanilla_t *const *)r->post_parsed;
    q->n_vanilla = r->n_vanilla;
    if (cuzk_post_keys_load(&r->post_keys, o->verify_params, r->post_proof.id, false, 0, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: --verify-params: %s\n", err.msg);
        return 2;
    }
    r->verify = true;
    return 0;
}

/* SnapDeals: every --vanilla file's partition proofs, in order, as the request's byte strings (pointing
 * into the files read). */
static int load_snap(request_t *r, opts_t *o)
{
    cuzk_err_t err = {{0}};
    cuzk_status st = o->registered_proof ? cuzk_snap_registered_proof_parse(&r->snap_proof, o->registered_proof, &err)
                                         : cuzk_snap_registered_proof_for_size(&r->snap_proof, o->sector_size, &err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s\n", err.msg);
        return 2;
    }
    if (o->sector_size && o->sector_size != r->snap_proof.sector_size) /* sent as it is: the daemon answers */
        fprintf(stderr, "cuzk-bench: note: --sector-size %" PRIu64 " is not %s's\n", o->sector_size,
                r->snap_proof.name);
    size_t off[CUZK_SNAP_MAX_PARTITIONS], lens[CUZK_SNAP_MAX_PARTITIONS], n = 0;
    if (!(r->snap_files = calloc(o->vanilla.n, sizeof *r->snap_files)) ||
        !(r->vanilla = calloc(CUZK_SNAP_MAX_PARTITIONS, sizeof *r->vanilla)))
        return bad("%s", "out of memory");
    r->n_snap_files = o->vanilla.n;
    for (size_t i = 0; i < o->vanilla.n; i++) {
        size_t len = 0, before = n;
        char msg[512];
        if (!(r->snap_files[i] = read_file(o->vanilla.items[i], &len)))
            return 2;
        if (bench_snap_parts(r->snap_files[i], len, off, lens, CUZK_SNAP_MAX_PARTITIONS, &n, msg, sizeof msg) != 0) {
            fprintf(stderr, "cuzk-bench: %s: %s\n", o->vanilla.items[i], msg);
            return 2;
        }
        for (size_t k = before; k < n; k++)
            r->vanilla[k] = (ProtobufCBinaryData){lens[k], r->snap_files[i] + off[k]};
    }
    r->n_vanilla = n; /* another count than the proof's partitions is sent as it is */
    if (!o->verify_params)
        return 0;
    cuzk_snap_request_t *q = &r->snap_req;
    q->proof_id = r->snap_proof.id;
    memcpy(q->comm_r_old, o->comm_r_old, 32);
    memcpy(q->comm_d_new, o->comm_d_new, 32);
    memcpy(q->comm_r_new, o->comm_r_new, 32);
    if (cuzk_snap_keys_load(&r->snap_keys, o->verify_params, r->snap_proof.id, false, 0, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: --verify-params: %s\n", err.msg);
        return 2;
    }
    r->verify = true;
    return 0;
}

static void free_request(request_t *r)
{
    free(r->c1);
    cuzk_porep_c1_free(r->parsed);
    cuzk_porep_keys_free(r->keys);
    for (size_t i = 0; r->kind != KIND_SNAP && r->vanilla && i < r->n_vanilla; i++)
        free(r->vanilla[i].data);
    free(r->vanilla);
    for (size_t i = 0; r->snap_files && i < r->n_snap_files; i++)
        free(r->snap_files[i]);
    free(r->snap_files);
    cuzk_snap_keys_free(r->snap_keys);
    for (size_t i = 0; r->post_parsed && i < r->n_vanilla; i++)
        cuzk_post_vanilla_free(r->post_parsed[i]);
    free(r->post_parsed);
    cuzk_post_keys_free(r->post_keys);
    memset(r, 0, sizeof *r);
}

/* The request of the options; 0, or the exit code after a message (r is freed then). */
static int load_request(request_t *r, opts_t *o)
{
    memset(r, 0, sizeof *r);
    r->kind = o->kind;
    int rc = r->kind == KIND_POREP ? load_porep(r, o) : r->kind == KIND_SNAP ? load_snap(r, o) : load_post(r, o);
    if (rc)
        free_request(r);
    return rc;
}

static void fill_submit(Cuzk__V1__SubmitProofRequest *s, const opts_t *o, const request_t *r, const char *id)
{
    cuzk__v1__submit_proof_request__init(s);
    s->request_id = (char *)(id ? id : "");
    s->sector_size = o->sector_size;
    s->priority = (Cuzk__V1__Priority)o->priority;
    s->miner_id = o->miner_id;
    if (r->kind == KIND_POREP) {
        s->proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        s->vanilla_proof.data = r->c1;
        s->vanilla_proof.len = r->c1_len;
        s->sector_number = o->sector_num;
        return;
    }
    if (r->kind == KIND_SNAP) {
        s->proof_kind = CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE;
        s->registered_proof = r->snap_proof.id;
        s->n_vanilla_proofs = r->n_vanilla;
        s->vanilla_proofs = r->vanilla;
        s->comm_r_old = (ProtobufCBinaryData){32, (uint8_t *)o->comm_r_old};
        s->comm_d_new = (ProtobufCBinaryData){32, (uint8_t *)o->comm_d_new};
        s->comm_r_new = (ProtobufCBinaryData){32, (uint8_t *)o->comm_r_new};
        return;
    }
    s->proof_kind = r->kind == KIND_WINNING ? CUZK__V1__PROOF_KIND__WINNING_POST
                                            : CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
    s->registered_proof = r->post_proof.id;
    s->n_vanilla_proofs = r->n_vanilla;
    s->vanilla_proofs = r->vanilla;
    s->randomness.data = (uint8_t *)o->randomness;
    s->randomness.len = 32;
    s->partition_index = (uint32_t)o->partition;
}

/* One call: packs m, calls, and unpacks the reply with unpack (NULL on any failure, printed). */
static void *call(cuzk_rpc_client_t *c, const char *method, const ProtobufCMessage *m,
                  void *(*unpack)(ProtobufCAllocator *, size_t, const uint8_t *), uint64_t timeout_ms,
                  grpc_status_code *code_out)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack(m, buf);
    cuzk_rpc_result_t res;
    grpc_status_code code = cuzk_rpc_client_call(c, method, buf, len, timeout_ms, NULL, &res);
    free(buf);
    if (code_out)
        *code_out = code;
    void *out = NULL;
    if (code != GRPC_STATUS_OK)
        fprintf(stderr, "cuzk-bench: %s: %s (gRPC status %d)\n", method + 23, res.message, (int)code);
    else if (!(out = unpack(NULL, res.len, res.data)))
        fprintf(stderr, "cuzk-bench: %s: malformed reply\n", method + 23);
    cuzk_rpc_result_free(&res);
    return out;
}

#define UNPACK_FN(fn) ((void *(*)(ProtobufCAllocator *, size_t, const uint8_t *))(fn))

static const char *status_name(int s)
{
    static const char *names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return s >= 0 && s <= 4 ? names[s] : "?";
}

/* Checks a returned proof against the request with the parameter directory's .vk. */
static bool proof_valid(const request_t *r, const uint8_t *proof, size_t len)
{
    cuzk_err_t err = {{0}};
    bool valid = false;
    if (r->kind == KIND_SNAP) {
        cuzk_groth16_proof_t p[CUZK_SNAP_MAX_PARTITIONS];
        size_t got = 0, n = r->snap_proof.partitions;
        return len == n * CUZK_GROTH16_PROOF_BYTES &&
               cuzk_groth16_proofs_read(p, n, &got, proof, len, &err) == CUZK_OK && got == n &&
               cuzk_snap_verify(&valid, &r->snap_req, cuzk_snap_keys_vk(r->snap_keys), p, n, &err) == CUZK_OK &&
               valid;
    }
    if (r->kind != KIND_POREP) {
        cuzk_groth16_proof_t p;
        size_t got = 0;
        return cuzk_groth16_proofs_read(&p, 1, &got, proof, len, &err) == CUZK_OK && got == 1 &&
               len == CUZK_GROTH16_PROOF_BYTES &&
               cuzk_post_verify(&valid, &r->post_req, cuzk_post_keys_vk(r->post_keys), &p, &err) == CUZK_OK && valid;
    }
    cuzk_porep_c1_info_t info;
    cuzk_porep_c1_info(&info, r->parsed);
    size_t n = info.partitions, got = 0;
    cuzk_groth16_proof_t *p = calloc(n ? n : 1, sizeof *p);
    if (p && cuzk_groth16_proofs_read(p, n, &got, proof, len, &err) == CUZK_OK &&
        cuzk_porep_verify(&valid, r->parsed, cuzk_porep_keys_vk(r->keys), p, got, &err) != CUZK_OK)
        valid = false;
    free(p);
    return valid;
}

typedef struct {
    Cuzk__V1__ProveResponse *resp;
    double wall_s;
    bool valid;
} outcome_t;

static void prove_once(cuzk_rpc_client_t *c, const opts_t *o, const request_t *r, const char *id, outcome_t *out)
{
    Cuzk__V1__SubmitProofRequest s;
    fill_submit(&s, o, r, id);
    Cuzk__V1__ProveRequest req = CUZK__V1__PROVE_REQUEST__INIT;
    req.submit = &s;
    double t0 = cli_now();
    out->resp = call(c, METHOD("Prove"), &req.base, UNPACK_FN(cuzk__v1__prove_response__unpack), 0, NULL);
    out->wall_s = cli_now() - t0;
    Cuzk__V1__AwaitProofResponse *a = out->resp ? out->resp->result : NULL;
    out->valid = a && a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED &&
                 (!r->verify || proof_valid(r, a->proof.data, a->proof.len));
}

static void print_result(const Cuzk__V1__AwaitProofResponse *a, double wall_s, const request_t *r, bool valid)
{
    printf("=== Proof Result ===\nstatus: %s\njob_id: %s\n", status_name(a->status), a->job_id);
    printf("timings: total=%" PRIu64 " ms (queue=%" PRIu64 ", srs=%" PRIu64 ", synth=%" PRIu64 ", gpu=%" PRIu64
           " ms)\n", a->total_ms, a->queue_wait_ms, a->srs_load_ms, a->synthesis_ms, a->gpu_compute_ms);
    printf("wall time: %.2fs\n", wall_s);
    if (a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED) {
        size_t show = a->proof.len <= 256 ? a->proof.len : 128;
        printf("proof: %zu bytes (hex: ", a->proof.len);
        for (size_t i = 0; i < show; i++)
            printf("%02x", a->proof.data[i]);
        printf("%s)\n", show < a->proof.len ? "..." : "");
        if (r->verify)
            printf("offline verification: %s\n", valid ? "valid" : "INVALID");
    } else
        printf("error: %s\n", a->error_message);
}

static int cmd_single(cuzk_rpc_client_t *c, opts_t *o)
{
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    outcome_t out = {0};
    prove_once(c, o, &r, o->request_id, &out);
    if (out.resp && out.resp->result)
        print_result(out.resp->result, out.wall_s, &r, out.valid);
    rc = out.valid ? 0 : 1;
    if (out.resp)
        cuzk__v1__prove_response__free_unpacked(out.resp, NULL);
    free_request(&r);
    return rc;
}

typedef struct {
    cuzk_rpc_client_t *c;
    const opts_t *o;
    const request_t *r;
    pthread_mutex_t mu;
    uint64_t next, done;
    outcome_t *outcomes;
} batch_t;

static void *batch_worker(void *p)
{
    batch_t *b = p;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        uint64_t i = b->next < b->o->count ? b->next++ : UINT64_MAX;
        pthread_mutex_unlock(&b->mu);
        if (i == UINT64_MAX)
            return NULL;
        outcome_t *out = &b->outcomes[i];
        prove_once(b->c, b->o, b->r, NULL, out);
        Cuzk__V1__AwaitProofResponse *a = out->resp ? out->resp->result : NULL;
        pthread_mutex_lock(&b->mu);
        b->done++;
        printf("[%" PRIu64 "/%" PRIu64 "] %s — %.2fs (prove=%" PRIu64 " ms, queue=%" PRIu64 " ms)%s\n", b->done,
               b->o->count, a ? status_name(a->status) : "ERROR", out->wall_s, a ? a->gpu_compute_ms : 0,
               a ? a->queue_wait_ms : 0, a && !out->valid && a->status == 1 ? " INVALID PROOF" : "");
        fflush(stdout);
        pthread_mutex_unlock(&b->mu);
    }
}

static void stats(const double *v, size_t n, double *avg, double *lo, double *hi)
{
    *avg = 0;
    *lo = n ? v[0] : 0;
    *hi = *lo;
    for (size_t i = 0; i < n; i++) {
        *avg += v[i] / (double)n;
        *lo = v[i] < *lo ? v[i] : *lo;
        *hi = v[i] > *hi ? v[i] : *hi;
    }
}

static int cmd_batch(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->count)
        o->count = 3;
    if (!o->concurrency)
        o->concurrency = 1;
    if (o->concurrency > 256)
        return bad("%s", "-j: at most 256");
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    batch_t b = {.c = c, .o = o, .r = &r, .outcomes = calloc(o->count, sizeof(outcome_t))};
    pthread_t *th = calloc(o->concurrency, sizeof *th);
    double *wall = calloc(o->count, sizeof *wall), *prove = calloc(o->count, sizeof *prove);
    if (!b.outcomes || !th || !wall || !prove) {
        free_request(&r);
        return bad("%s", "out of memory");
    }
    pthread_mutex_init(&b.mu, NULL);
    printf("=== Batch Benchmark ===\ntype: %s, count: %" PRIu64 ", concurrency: %" PRIu64 "\n", kind_label(r.kind),
           o->count, o->concurrency);
    double t0 = cli_now();
    uint64_t started = 0;
    for (; started < o->concurrency && pthread_create(&th[started], NULL, batch_worker, &b) == 0; started++)
        ;
    for (uint64_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (!started)
        batch_worker(&b);
    double total = cli_now() - t0;
    size_t ok = 0;
    for (uint64_t i = 0; i < o->count; i++) {
        outcome_t *out = &b.outcomes[i];
        if (out->valid) {
            wall[ok] = out->wall_s;
            prove[ok] = (double)out->resp->result->gpu_compute_ms / 1e3;
            ok++;
        }
        if (out->resp)
            cuzk__v1__prove_response__free_unpacked(out->resp, NULL);
    }
    double wa, wl, wh, pa, pl, ph;
    stats(wall, ok, &wa, &wl, &wh);
    stats(prove, ok, &pa, &pl, &ph);
    printf("=== Batch Summary ===\ntotal time: %.1fs\ncompleted: %zu, failed: %zu\n", total, ok,
           (size_t)o->count - ok);
    printf("wall time: avg=%.3fs min=%.3fs max=%.3fs\n", wa, wl, wh);
    printf("prove time: avg=%.3fs min=%.3fs max=%.3fs\n", pa, pl, ph);
    printf("throughput: %.2f proofs/min (%.2f s/proof)\n", ok ? (double)ok * 60 / total : 0,
           ok ? total / (double)ok : 0);
    rc = ok == o->count ? 0 : 1;
    pthread_mutex_destroy(&b.mu);
    free(b.outcomes);
    free(th);
    free(wall);
    free(prove);
    free_request(&r);
    return rc;
}

static int cmd_submit(cuzk_rpc_client_t *c, opts_t *o)
{
    request_t r;
    int rc = load_request(&r, o);
    if (rc)
        return rc;
    Cuzk__V1__SubmitProofRequest s;
    fill_submit(&s, o, &r, o->request_id);
    Cuzk__V1__SubmitProofResponse *resp =
        call(c, METHOD("SubmitProof"), &s.base, UNPACK_FN(cuzk__v1__submit_proof_response__unpack), 0, NULL);
    if (resp)
        printf("job_id: %s\nqueue_position: %u\n", resp->job_id, resp->queue_position);
    rc = resp ? 0 : 1;
    if (resp)
        cuzk__v1__submit_proof_response__free_unpacked(resp, NULL);
    free_request(&r);
    return rc;
}

static int cmd_await(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->job)
        return bad("%s", "--job ID is required");
    Cuzk__V1__AwaitProofRequest req = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    req.job_id = (char *)o->job;
    req.timeout_ms = o->timeout_ms;
    double t0 = cli_now();
    Cuzk__V1__AwaitProofResponse *a =
        call(c, METHOD("AwaitProof"), &req.base, UNPACK_FN(cuzk__v1__await_proof_response__unpack), 0, NULL);
    if (!a)
        return 1;
    request_t none = {0};
    print_result(a, cli_now() - t0, &none, false);
    int rc = a->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED ? 0 : 1;
    cuzk__v1__await_proof_response__free_unpacked(a, NULL);
    return rc;
}

static int cmd_cancel(cuzk_rpc_client_t *c, opts_t *o)
{
    if (!o->job)
        return bad("%s", "--job ID is required");
    Cuzk__V1__CancelProofRequest req = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    req.job_id = (char *)o->job;
    Cuzk__V1__CancelProofResponse *resp =
        call(c, METHOD("CancelProof"), &req.base, UNPACK_FN(cuzk__v1__cancel_proof_response__unpack), 0, NULL);
    if (!resp)
        return 1;
    printf("%s cancelled (%s)\n", o->job, resp->was_running ? "was running" : "was queued");
    cuzk__v1__cancel_proof_response__free_unpacked(resp, NULL);
    return 0;
}

static int cmd_status(cuzk_rpc_client_t *c)
{
    Cuzk__V1__GetStatusRequest req = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *s =
        call(c, METHOD("GetStatus"), &req.base, UNPACK_FN(cuzk__v1__get_status_response__unpack), 0, NULL);
    if (!s)
        return 1;
    printf("uptime: %" PRIu64 " s\nproofs completed: %" PRIu64 ", failed: %" PRIu64 "\n", s->uptime_seconds,
           s->total_proofs_completed, s->total_proofs_failed);
    printf("pinned memory: %" PRIu64 " / %" PRIu64 " bytes\n", s->pinned_memory_bytes, s->pinned_memory_limit_bytes);
    for (size_t i = 0; i < s->n_gpus; i++)
        printf("  [%u] %s — %" PRIu64 " MiB free / %" PRIu64 " MiB total VRAM — %s\n", s->gpus[i]->ordinal,
               s->gpus[i]->name, s->gpus[i]->vram_free_bytes >> 20, s->gpus[i]->vram_total_bytes >> 20,
               s->gpus[i]->current_job_id[0] ? "proving" : "idle");
    printf("GPUs: %zu (CPU proving)\nloaded SRS:\n", s->n_gpus);
    for (size_t i = 0; i < s->n_loaded_srs; i++)
        printf("  %s: %.1f MiB, %u in use\n", s->loaded_srs[i]->circuit_id, s->loaded_srs[i]->size_bytes / 1048576.0,
               s->loaded_srs[i]->ref_count);
    printf("queues:\n");
    for (size_t i = 0; i < s->n_queues; i++)
        printf("  %s: %u pending, %u in progress\n", s->queues[i]->proof_kind, s->queues[i]->pending,
               s->queues[i]->in_progress);
    cuzk__v1__get_status_response__free_unpacked(s, NULL);
    return 0;
}

static int cmd_srs(cuzk_rpc_client_t *c, opts_t *o, bool preload)
{
    if (!o->circuit)
        return bad("%s", "-c/--circuit-id ID is required (e.g. porep-32g, winning-32g, wpost-32g)");
    if (preload) {
        Cuzk__V1__PreloadSrsRequest req = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
        req.circuit_id = (char *)o->circuit;
        Cuzk__V1__PreloadSrsResponse *r =
            call(c, METHOD("PreloadSRS"), &req.base, UNPACK_FN(cuzk__v1__preload_srs_response__unpack), 0, NULL);
        if (!r)
            return 1;
        if (r->already_loaded)
            printf("%s already loaded\n", o->circuit);
        else
            printf("%s loaded in %" PRIu64 " ms\n", o->circuit, r->load_time_ms);
        cuzk__v1__preload_srs_response__free_unpacked(r, NULL);
        return 0;
    }
    Cuzk__V1__EvictSrsRequest req = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    req.circuit_id = (char *)o->circuit;
    Cuzk__V1__EvictSrsResponse *r =
        call(c, METHOD("EvictSRS"), &req.base, UNPACK_FN(cuzk__v1__evict_srs_response__unpack), 0, NULL);
    if (!r)
        return 1;
    if (r->was_loaded)
        printf("%s evicted, %" PRIu64 " bytes freed\n", o->circuit, r->freed_bytes);
    else
        printf("%s was not loaded\n", o->circuit);
    cuzk__v1__evict_srs_response__free_unpacked(r, NULL);
    return 0;
}

static int cmd_metrics(cuzk_rpc_client_t *c)
{
    Cuzk__V1__GetMetricsRequest req = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *m =
        call(c, METHOD("GetMetrics"), &req.base, UNPACK_FN(cuzk__v1__get_metrics_response__unpack), 0, NULL);
    if (!m)
        return 1;
    fputs(m->prometheus_text, stdout);
    cuzk__v1__get_metrics_response__free_unpacked(m, NULL);
    return 0;
}

bool bench_client_command(const char *cmd)
{
    static const char *cmds[] = {"single", "batch", "submit", "await", "cancel", "status", "preload", "evict",
                                 "metrics"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmd, cmds[i]) == 0)
            return true;
    return false;
}

int bench_client(const char *addr, int argc, char **argv)
{
    const char *cmd = argv[0];
    opts_t o = {.addr = addr, .miner_id = 1000};
    int rc = parse_opts(&o, argc, argv);
    if (rc != CLI_CONTINUE) {
        cli_list_free(&o.vanilla);
        return rc;
    }
    cuzk_rpc_client_t *c = NULL;
    cuzk_err_t err = {{0}};
    if (cuzk_rpc_client_create(&c, addr, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", addr, err.msg);
        cli_list_free(&o.vanilla);
        return 2;
    }
    if (strcmp(cmd, "single") == 0)
        rc = cmd_single(c, &o);
    else if (strcmp(cmd, "batch") == 0)
        rc = cmd_batch(c, &o);
    else if (strcmp(cmd, "submit") == 0)
        rc = cmd_submit(c, &o);
    else if (strcmp(cmd, "await") == 0)
        rc = cmd_await(c, &o);
    else if (strcmp(cmd, "cancel") == 0)
        rc = cmd_cancel(c, &o);
    else if (strcmp(cmd, "status") == 0)
        rc = cmd_status(c);
    else if (strcmp(cmd, "preload") == 0 || strcmp(cmd, "evict") == 0)
        rc = cmd_srs(c, &o, strcmp(cmd, "preload") == 0);
    else
        rc = cmd_metrics(c);
    cuzk_rpc_client_destroy(c);
    cli_list_free(&o.vanilla);
    return rc;
}

void bench_client_usage(FILE *f)
{
    fprintf(f, "client commands (the daemon at -a/--addr, default http://127.0.0.1:9820, or unix:///path):\n"
               "  single  --c1 FILE [-t porep] [--sector-num N] [--miner-id N] [--priority P] [--request-id ID]\n"
               "          [--verify-params DIR]      one PoRep proof (Prove), checked offline with DIR's .vk\n"
               "  single  --kind winning|window --vanilla FILE [--vanilla FILE ...] [--randomness HEX]\n"
               "          (--registered-proof NAME | --sector-size SIZE) [--miner-id N] [--partition-index K]\n"
               "          [--priority P] [--request-id ID] [--verify-params DIR]   one Winning / Window PoSt\n"
               "  single  --kind snap --vanilla FILE [--vanilla FILE ...] --comm-r-old HEX --comm-d-new HEX\n"
               "          --comm-r-new HEX (--registered-proof N | --sector-size SIZE) [--priority P]\n"
               "          [--request-id ID] [--verify-params DIR]   one SnapDeals update proof (every partition)\n"
               "  batch   [...as single] [-c COUNT] [-j CONCURRENCY]   throughput\n"
               "  submit  [...as single]             queue a job, print its id\n"
               "  await   --job ID [--timeout-ms N]  wait for a job's result\n"
               "  cancel  --job ID\n"
               "  status | metrics\n"
               "  preload -c CIRCUIT_ID | evict -c CIRCUIT_ID   (porep-, winning-, wpost- or snap- with 2k, 8m,\n"
               "          512m, 32g or 64g)\n"
               "  gen-vanilla porep [--sector-size 2KiB] [--miner-id 1000] [--sector-num 1] [-o FILE]\n"
               "          seal a sector with random data and write its C1 output in Curio's wrapper\n"
               "  gen-vanilla winning|window --sector-size SIZE [--sectors N] [--randomness HEX]\n"
               "          (-o FILE... | --out-dir DIR) [--synthetic]   PoSt vanilla proofs, one file per sector\n"
               "  gen-vanilla snap --sector-size SIZE [--synthetic [--seed HEX]] [-o FILE]\n"
               "          a sector's SnapDeals vanilla partition proofs in one file\n");
}
